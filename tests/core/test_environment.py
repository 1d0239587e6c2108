from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.core.environment import GameSettings, Settings, settings_problem

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


def test_a_database_url_wins_over_the_path_and_hides_its_password() -> None:
    settings = Settings(_env_file=None, database_url="postgresql://farkle:s3cret@db:5432/farkle")
    where = settings.database
    assert where.dialect == "postgresql" and where.sqlite_path is None
    assert where.setting == "DATABASE_URL=postgresql://farkle:***@db:5432/farkle"
    assert where.server_url == "postgresql+psycopg://farkle:s3cret@db:5432/farkle"
    assert Settings(_env_file=None, database_url="sqlite:////srv/f.sqlite3").database.sqlite_path == Path(
        "/srv/f.sqlite3"
    )
    assert Settings(_env_file=None).database.sqlite_path == Path("data/farkle.sqlite3")


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://db/farkle", "“mysql” is not supported"),
        ("sqlite://", "needs a file"),
        ("postgresql://db", "needs a host and a database"),
        ("farkle.sqlite3", "not a database URL"),
    ],
)
def test_a_database_url_the_bot_cant_use_is_refused_naming_it(url: str, says: str) -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None, database_url=url)
    assert settings_problem(refused.value).startswith("DATABASE_URL is invalid (")
    assert says in settings_problem(refused.value)


def test_shards_this_process_runs_decide_its_guilds_and_who_sets_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "1")
    settings = Settings(_env_file=None)
    assert settings.shard_ids == (1,) and not settings.owns_application_setup
    guild_on_shard_1 = (1 << 22) | 12345
    assert settings.owns_guild(guild_on_shard_1) and not settings.owns_guild(2 << 22)
    everything = Settings(_env_file=None, shard_count=None, shard_ids=None)
    assert everything.owns_guild(2 << 22) and everything.owns_application_setup


@pytest.mark.parametrize(
    ("environment", "says"),
    [
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_IDS": "0,2", "SHARD_COUNT": "2"}, "distinct numbers from 0 to 1"),
        ({"SHARD_IDS": "0,0", "SHARD_COUNT": "2"}, "distinct numbers from 0 to 1"),
        ({"SHARD_IDS": "zero", "SHARD_COUNT": "2"}, "SHARD_IDS is invalid (list shard numbers"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT is invalid"),
    ],
)
def test_shard_settings_that_dont_fit_are_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], says: str
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)
    assert says in settings_problem(refused.value)
