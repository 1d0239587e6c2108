-- The 30-day leaderboard sums the window's games per member. Without these it walked every
-- game_players row and read each game's row (its counted and ended_at sit behind the large
-- rules, dice and actions texts): seconds for 100,000 games. With them it reads two covering
-- indexes, starting from the window's games (see bot.storage.results._source).
CREATE INDEX games_window ON games (guild_id, counted, ended_at, game_id);
CREATE INDEX game_players_totals ON game_players (
    game_id, computer, forgotten, user_id, won, points, turns, best_turn, final_bank, farkles, hot_dice, name
);
