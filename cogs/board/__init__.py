"""The board edge: the one cog that answers game buttons and shows every game (boards, follow boards,
pings)."""
