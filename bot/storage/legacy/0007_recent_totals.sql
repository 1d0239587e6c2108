-- Per-member totals over the last 30 days, so a period leaderboard page is an indexed read like the
-- all-time one. Rebuilt from game_players when older than an hour, and added to as games are recorded.
CREATE TABLE player_recent (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    points INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    best_turn INTEGER NOT NULL,
    best_game INTEGER NOT NULL,
    farkles INTEGER NOT NULL,
    hot_dice INTEGER NOT NULL,
    rating REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_recent_rating ON player_recent (guild_id, rating DESC);
CREATE INDEX player_recent_wins ON player_recent (guild_id, wins DESC);
CREATE INDEX player_recent_points ON player_recent (guild_id, points DESC);
CREATE INDEX player_recent_best_turn ON player_recent (guild_id, best_turn DESC);

-- The window start and build time of each server's player_recent rows.
CREATE TABLE recent_windows (
    guild_id INTEGER PRIMARY KEY,
    since REAL NOT NULL,
    built_at REAL NOT NULL
);
