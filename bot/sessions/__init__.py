"""One game per channel behind one lock: the only door to a game."""
