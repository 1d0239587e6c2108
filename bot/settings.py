"""Configuration from the environment and `.env`, validated once at start-up."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.engine import PRESET_NAMES

# Three base64url parts separated by dots: the shape of every Discord bot token.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class GameSettings(BaseSettings):
    """Gameplay defaults a server admin can later override per server (`GAME_` prefix)."""

    # An empty value (`GAME_TURN_TIMEOUT=` in a copied template) means "not set", as for every setting.
    model_config = SettingsConfigDict(
        env_prefix="GAME_", env_file=".env", extra="ignore", env_ignore_empty=True
    )

    default_rules: str = "classic"
    turn_timeout: int = Field(default=120, ge=15, le=3600)
    lobby_timeout: int = Field(default=600, ge=30, le=86400)
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


class Settings(BaseSettings):
    """Top-level settings; names match the variables documented in `.env.example`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/farkle.sqlite3")
    dev_guild_id: int | None = None
    log_level: LogLevel = "INFO"
    # Solve the two-player win tables (master, the Hint's winning chances) in a worker process: minutes of
    # one core per ruleset, once; off, only tables already in the database are used.
    solve_win_tables: bool = True
    game: GameSettings = Field(default_factory=GameSettings)

    @field_validator("log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    def token_problem(self) -> str | None:
        """A one-line explanation when the token cannot possibly log in, else None."""
        token = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        if not token:
            return "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example)."
        if not _TOKEN_SHAPE.match(token):
            return "DISCORD_TOKEN does not look like a Discord bot token: check .env (see .env.example)."
        return None


def settings_problem(error: ValidationError) -> str:
    """One line naming the variable exactly as the operator wrote it (`GAME_TURN_TIMEOUT`, not the field)."""
    first = error.errors()[0]
    prefix = GameSettings.model_config.get("env_prefix", "") if error.title == GameSettings.__name__ else ""
    name = prefix + "_".join(str(part) for part in first["loc"] if part != "game").upper()
    reason = str(first["msg"]).removeprefix("Value error, ")
    return f"{name} is invalid ({reason}): check .env (see .env.example)."
