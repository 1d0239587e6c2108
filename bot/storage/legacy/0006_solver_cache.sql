-- Solved turn policies per ruleset (key = the ruleset's scoring/turn hash), so computer players and
-- hints never solve the same rules twice, even across restarts.
CREATE TABLE solver_cache (
    rules_key TEXT NOT NULL,
    on_board INTEGER NOT NULL,
    policy TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (rules_key, on_board)
);
