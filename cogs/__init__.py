"""Discord glue: the slash commands and buttons, each cog mapping them onto the services and the game door."""
