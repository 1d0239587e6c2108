-- Which version of its session each board message last showed, so a start-up after a crash redraws
-- exactly the boards that fell behind their game. Rows saved before this migration count as shown.
ALTER TABLE sessions ADD COLUMN shown_version INTEGER;
UPDATE sessions SET shown_version = version;
