"""Services the cogs ask beside the game door: server settings, statistics, seasons, ratings, languages."""
