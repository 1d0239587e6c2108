"""Starts the bot: the Discord client, the error handler, logging, memory and die-emoji set-up."""
