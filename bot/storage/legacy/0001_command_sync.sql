-- The hash of the last command tree synced per scope ('global' or a guild id),
-- so start-up only syncs when the tree changed (Discord rate-limits syncs).
CREATE TABLE command_sync (
    scope TEXT PRIMARY KEY,
    tree_hash TEXT NOT NULL,
    synced_at TEXT NOT NULL DEFAULT (datetime('now'))
);
