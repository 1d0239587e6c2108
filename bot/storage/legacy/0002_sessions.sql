-- Unfinished lobbies and games (and finished ones awaiting a rematch), one per channel.
-- `state` is the session's JSON (engine state included); the other columns make it findable.
CREATE TABLE sessions (
    channel_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    game_id TEXT NOT NULL UNIQUE,
    stage TEXT NOT NULL,
    version INTEGER NOT NULL,
    board_message_id INTEGER,
    deadline REAL,
    state TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX sessions_guild ON sessions (guild_id);
