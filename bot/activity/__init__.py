"""The table as a Discord Activity: a web server in the bot's process that serves the page and lets the
members of an Activity play their channel's game through the session manager, as the chat board does."""
