"""Configuration from the environment and `.env`, validated once at start-up."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.core.database_url import DatabaseUrl
from bot.core.server_settings import LOBBY_TIMEOUT, SETTINGS, TURN_TIMEOUT, Seconds
from bot.engine import PRESET_NAMES

# Three base64url parts separated by dots: the shape of every Discord bot token.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class GameSettings(BaseSettings):
    """Gameplay defaults a server admin can later override per server (`GAME_` prefix); a server
    setting's default and bounds are its declaration's (`bot.core.server_settings`)."""

    # An empty value (`GAME_TURN_TIMEOUT=` in a copied template) means "not set", as for every setting.
    model_config = SettingsConfigDict(
        env_prefix="GAME_", env_file=".env", extra="ignore", env_ignore_empty=True
    )

    default_rules: str = "classic"
    turn_timeout: int = TURN_TIMEOUT.default
    lobby_timeout: int = LOBBY_TIMEOUT.default
    max_players: int = Field(default=8, ge=2, le=8)
    computer_pause: float = Field(default=1.0, ge=0, le=10)
    min_games_win_rate: int = Field(default=5, ge=1, le=1000)

    @field_validator("default_rules")
    @classmethod
    def _a_preset(cls, value: str) -> str:
        """Refused at start-up, not on the first `/farkle new` of every server."""
        if value not in PRESET_NAMES:
            raise ValueError(f"“{value}” is not a preset; choose one of {', '.join(PRESET_NAMES)}")
        return value

    @field_validator("*")
    @classmethod
    def _a_server_settings_bounds(cls, value: object, info: ValidationInfo) -> object:
        """What `/farkle-config set` would refuse is refused at start-up too: the same declaration."""
        setting = SETTINGS.get(info.field_name or "")
        if isinstance(setting, Seconds) and isinstance(value, int) and not setting.within(value):
            least, most = setting.bounds
            raise ValueError(f"a number of seconds from {least} to {most}")
        return value

    def server_defaults(self) -> dict[str, object]:
        """What a server that never chose starts with, for the settings the operator may set."""
        return {name: getattr(self, name) for name, setting in SETTINGS.items() if setting.operator}


class Settings(BaseSettings):
    """Top-level settings; names match the variables documented in `.env.example`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/farkle.sqlite3")
    # A PostgreSQL server shared by several shard processes (or a SQLite file); wins over DATABASE_PATH.
    database_url: str | None = None
    dev_guild_id: int | None = None
    # Gateway shards: SHARD_COUNT in all, SHARD_IDS (e.g. "0,1") the ones this process runs. Unset: one
    # process runs every shard Discord recommends.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    log_level: LogLevel = "INFO"
    # Solve a server's own rules' two-player win tables (master, the Hint's winning chances) in a worker
    # process: minutes of one core per ruleset, once; off, only the presets' (shipped) and stored tables.
    solve_win_tables: bool = True
    # The table as a Discord Activity (docs/ACTIVITY.md): the port its page and API listen on, which the
    # developer portal's URL mapping reaches through Discord's proxy. Unset: no Activity.
    activity_port: int | None = Field(default=None, ge=1, le=65535)
    activity_host: str = "0.0.0.0"  # every interface: Discord's proxy (or a tunnel) reaches it from outside
    # The application's OAuth2 client secret: the Activity exchanges a member's sign-in code with it.
    discord_client_secret: SecretStr | None = None
    game: GameSettings = Field(default_factory=GameSettings)

    @field_validator("database_url")
    @classmethod
    def _a_database(cls, value: str | None) -> str | None:
        if value is not None:
            DatabaseUrl.parse(value)  # refused at start-up, in one line, not at the first move
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",")]
            if not all(part.isdigit() for part in parts):
                raise ValueError("list shard numbers separated by commas, like 0,1")
            return tuple(int(part) for part in parts)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
        if len(set(self.shard_ids)) != len(self.shard_ids) or not all(
            0 <= shard < self.shard_count for shard in self.shard_ids
        ):
            raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to {self.shard_count - 1}")
        return self

    @model_validator(mode="after")
    def _activity_signs_in(self) -> Settings:
        if self.activity_port is not None and self.discord_client_secret is None:
            raise ValueError("ACTIVITY_PORT needs DISCORD_CLIENT_SECRET, the app's OAuth2 client secret")
        return self

    @property
    def database(self) -> DatabaseUrl:
        """DATABASE_URL if set, else the SQLite file at DATABASE_PATH."""
        if self.database_url is not None:
            return DatabaseUrl.parse(self.database_url)
        return DatabaseUrl.of_path(self.database_path)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard Discord routes the guild to: `(guild_id >> 22) % count`."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @property
    def owns_application_setup(self) -> bool:
        """One process syncs the command tree and uploads the die emojis: the one that runs shard 0."""
        return self.shard_ids is None or 0 in self.shard_ids

    @field_validator("log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    def token_problem(self) -> str | None:
        """A one-line explanation when the token cannot possibly log in, else None."""
        token = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        if not token:
            return (
                "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example); "
                "to try the bot without Discord: make play"
            )
        if not _TOKEN_SHAPE.match(token):
            return "DISCORD_TOKEN does not look like a Discord bot token: check .env (see .env.example)."
        return None


def settings_problem(error: ValidationError) -> str:
    """One line naming the variable exactly as the operator wrote it (`GAME_TURN_TIMEOUT`, not the field)."""
    first = error.errors()[0]
    prefix = GameSettings.model_config.get("env_prefix", "") if error.title == GameSettings.__name__ else ""
    name = prefix + "_".join(str(part) for part in first["loc"] if part != "game").upper()
    reason = str(first["msg"]).removeprefix("Value error, ")
    if not name:  # a rule across variables: its sentence names them
        return f"{reason}: check .env (see .env.example)."
    return f"{name} is invalid ({reason}): check .env (see .env.example)."
