"""`python -m bot` as an operator runs it: a clear line and exit status, never a traceback."""

import sqlite3
from pathlib import Path

import pytest

from bot.engine import PRESET_NAMES
from bot.settings import LOG_LEVELS
from tests.cli import TOKEN_SHAPED, one_line, run_bot


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_missing_or_malformed_token_exits_2_with_one_clear_line(tmp_path: Path, token: str | None) -> None:
    line = one_line(run_bot(tmp_path, **({"DISCORD_TOKEN": token} if token else {})))
    assert "DISCORD_TOKEN" in line and ".env.example" in line


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("GAME_TURN_TIMEOUT", "abc", ("valid integer",)),
        ("GAME_TURN_TIMEOUT", "5", ("greater than or equal to 15",)),
        ("LOG_LEVEL", "loud", LOG_LEVELS),
        ("GAME_DEFAULT_RULES", "nonsense", PRESET_NAMES),
    ],
)
def test_a_refused_setting_names_the_variable_as_written_and_what_it_takes(
    tmp_path: Path, variable: str, value: str, allowed: tuple[str, ...]
) -> None:
    # Refused before the token is even looked at, so a bad setting is found on the first run.
    line = one_line(run_bot(tmp_path, **{variable: value}))
    assert line.startswith(f"farkle-bot: {variable} is invalid (got '{value}')"), line
    assert all(word in line for word in allowed), line
    assert "^(" not in line and ".env.example" in line


def test_migrate_creates_the_database_folder_and_applies_migrations(tmp_path: Path) -> None:
    db_path = tmp_path / "nested" / "dir" / "farkle.sqlite3"
    result = run_bot(tmp_path, "migrate", DATABASE_PATH=str(db_path))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db_path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions and versions[0] == 1
    again = run_bot(tmp_path, "migrate", DATABASE_PATH=str(db_path))
    assert again.returncode == 0 and "up to date" in again.stdout


def test_unreachable_or_rejecting_discord_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    token = TOKEN_SHAPED
    result = run_bot(tmp_path, DISCORD_TOKEN=token, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert "Traceback" not in result.stderr
    # Offline (as in CI) the bot cannot reach Discord; online, Discord rejects the token.
    expected = {1: "could not reach Discord", 2: "Discord rejected DISCORD_TOKEN"}
    assert result.returncode in expected
    assert expected[result.returncode] in result.stderr
    assert token not in result.stderr
