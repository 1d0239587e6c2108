from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import GameSettings, Settings

VALID_SHAPE = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30


def test_defaults_need_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "GAME_TURN_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None, game=GameSettings(_env_file=None))
    assert settings.database_path == Path("data/farkle.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.game.turn_timeout == 120
    assert settings.game.lobby_timeout == 600
    assert settings.game.max_players == 8


def test_reads_prefixed_sections_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEV_GUILD_ID", "1234")
    monkeypatch.setenv("GAME_TURN_TIMEOUT", "45")
    settings = Settings(_env_file=None)
    assert settings.dev_guild_id == 1234
    assert settings.game.turn_timeout == 45


def test_reads_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text("DATABASE_PATH=/srv/farkle/db.sqlite3\n")
    assert Settings(_env_file=env_file).database_path == Path("/srv/farkle/db.sqlite3")


@pytest.mark.parametrize(
    ("token", "problem"),
    [(None, "is not set"), ("", "is not set"), ("   ", "is not set"), ("hunter2", "does not look like")],
)
def test_token_problems_name_the_variable_and_example(token: str | None, problem: str) -> None:
    message = Settings(_env_file=None, discord_token=token).token_problem()
    assert message is not None
    assert "DISCORD_TOKEN" in message and ".env.example" in message and problem in message


def test_token_of_the_right_shape_is_accepted() -> None:
    assert Settings(_env_file=None, discord_token=VALID_SHAPE).token_problem() is None


def test_token_is_never_shown_in_repr() -> None:
    assert VALID_SHAPE not in repr(Settings(_env_file=None, discord_token=VALID_SHAPE))


@pytest.mark.parametrize("field", [{"log_level": "LOUD"}, {"dev_guild_id": "abc"}])
def test_bad_values_are_refused(field: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, **field)


def test_turn_timeout_bounds() -> None:
    with pytest.raises(ValidationError):
        GameSettings(_env_file=None, turn_timeout=1)
