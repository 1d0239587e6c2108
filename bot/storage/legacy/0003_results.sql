-- Finished games, written once (game_id is the key), replayable from rules + dice + actions.
CREATE TABLE games (
    game_id TEXT PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    rules TEXT NOT NULL,
    dice_start TEXT NOT NULL,
    actions TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL NOT NULL,
    end_reason TEXT NOT NULL,
    counted INTEGER NOT NULL -- 1 when at least two humans played: only those feed leaderboards
);
CREATE INDEX games_guild_ended ON games (guild_id, ended_at);
CREATE INDEX games_channel_ended ON games (channel_id, ended_at);

CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    computer TEXT,
    team INTEGER,
    placement INTEGER NOT NULL,
    won INTEGER NOT NULL,
    final_bank INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    points INTEGER NOT NULL,
    best_turn INTEGER NOT NULL,
    farkles INTEGER NOT NULL,
    hot_dice INTEGER NOT NULL,
    forgotten INTEGER NOT NULL DEFAULT 0, -- 1 once the member asked to be forgotten: name replaced, not ranked
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_user ON game_players (user_id);

-- Running totals per server and member, so an all-time leaderboard page is one indexed read.
CREATE TABLE player_stats (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    best_turn INTEGER NOT NULL DEFAULT 0,
    best_game INTEGER NOT NULL DEFAULT 0,
    farkles INTEGER NOT NULL DEFAULT 0,
    hot_dice INTEGER NOT NULL DEFAULT 0,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    rating REAL NOT NULL,
    last_played REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_stats_rating ON player_stats (guild_id, rating DESC);
CREATE INDEX player_stats_wins ON player_stats (guild_id, wins DESC);
CREATE INDEX player_stats_points ON player_stats (guild_id, points DESC);
CREATE INDEX player_stats_best_turn ON player_stats (guild_id, best_turn DESC);

-- A server admin's reset hides older games from period leaderboards too.
CREATE TABLE leaderboard_resets (
    guild_id INTEGER PRIMARY KEY,
    reset_at REAL NOT NULL
);
