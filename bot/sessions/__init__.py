"""The only door to a game: each game behind its own lock, by game id (a channel names its current game)."""
