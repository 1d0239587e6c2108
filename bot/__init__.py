"""The bot, its layers as packages: app, services, render and storage, sessions, core, engine."""
