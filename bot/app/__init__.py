"""Starts and wires the bot: the Discord client, its services, the error handler, logs, memory, die emojis."""
