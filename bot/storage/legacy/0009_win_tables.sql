-- Win-probability tables of the two-player solver, per ruleset (key = the rules the tables depend on):
-- solved once (minutes of CPU), so the `master` computer player and the Hint's winning chances are
-- ready at every later start-up. The blob is the solver's own compact encoding.
CREATE TABLE win_tables (
    table_key TEXT PRIMARY KEY,
    tables BLOB NOT NULL,
    created_at TEXT NOT NULL DEFAULT (datetime('now'))
);
