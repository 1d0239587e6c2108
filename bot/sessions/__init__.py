"""The only door to a game (manager, session, commands, stream) and the features built on it: tournaments,
dailies, achievements, reviews, and the solved tables computers and hints read."""
