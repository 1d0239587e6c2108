"""The two-player win tables: the game they solve, one turn, the tables, and their compiled solve."""
