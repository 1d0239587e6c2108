-- The language of a server's boards and results ("de", "pt-BR", ...). NULL means "auto": the server's
-- own locale as Discord reports it, else English.
ALTER TABLE guild_config ADD COLUMN language TEXT;
