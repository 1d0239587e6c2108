-- Each server's house rules and table settings. A NULL column means "the bot's default"
-- (GameSettings), so a server that never changed a setting follows the operator's defaults.
-- `rules` is the Ruleset JSON new games start with; its name says where it came from
-- (a preset, a saved ruleset, or "custom" once changed).
CREATE TABLE guild_config (
    guild_id INTEGER PRIMARY KEY,
    rules TEXT,
    turn_timeout INTEGER,
    lobby_timeout INTEGER,
    hints INTEGER,
    threads INTEGER,
    updated_at REAL NOT NULL
);

-- Named rulesets a server keeps ("friday-night"); `/farkle new rules:` offers them.
CREATE TABLE rulesets (
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    saved_by INTEGER NOT NULL,
    saved_at REAL NOT NULL,
    PRIMARY KEY (guild_id, name)
);

-- Who changed what, when: one row per accepted configuration change.
CREATE TABLE config_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    user_name TEXT NOT NULL,
    what TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    at REAL NOT NULL
);
CREATE INDEX config_audit_guild ON config_audit (guild_id, id);
