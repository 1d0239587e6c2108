"""Configuration from the environment and `.env`, validated once at start-up."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypeVar

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.engine import RulesError, Ruleset

# Three base64url parts separated by dots: the shape of every Discord bot token.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A refused setting: one line for the operator, naming the variable as they wrote it."""


class GameSettings(BaseSettings):
    """Gameplay defaults a server admin can later override per server (`GAME_` prefix)."""

    model_config = SettingsConfigDict(env_prefix="GAME_", env_file=".env", extra="ignore")

    default_rules: str = "classic"
    turn_timeout: int = Field(default=120, ge=15, le=3600)
    lobby_timeout: int = Field(default=600, ge=30, le=86400)
    max_players: int = Field(default=8, ge=2, le=8)
    computer_pause: float = Field(default=1.0, ge=0, le=10)
    min_games_win_rate: int = Field(default=5, ge=1, le=1000)

    @field_validator("default_rules")
    @classmethod
    def _known_preset(cls, value: str) -> str:
        """Refused at start-up: an unknown preset would otherwise break every new game."""
        name = value.strip().lower()
        try:
            Ruleset.preset(name)
        except RulesError as error:
            raise PydanticCustomError("preset", str(error)) from None
        return name


class Settings(BaseSettings):
    """Top-level settings; names match the variables documented in `.env.example`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/farkle.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    game: GameSettings = Field(default_factory=GameSettings)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise PydanticCustomError("log_level", f"choose {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}")
        return level

    def token_problem(self) -> str | None:
        """A one-line explanation when the token cannot possibly log in, else None."""
        token = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        if not token:
            return "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example)."
        if not _TOKEN_SHAPE.match(token):
            return "DISCORD_TOKEN does not look like a Discord bot token: check .env (see .env.example)."
        return None


_Model = TypeVar("_Model", bound=BaseSettings)


def load_settings() -> Settings:
    """Settings from the environment and `.env`; a refused value raises SettingsError naming its variable."""
    return _validated(Settings, game=_validated(GameSettings))


def _validated(model: type[_Model], **values: Any) -> _Model:
    try:
        return model(**values)
    except ValidationError as error:
        first = error.errors()[0]
        name = model.model_config.get("env_prefix", "") + "_".join(str(part) for part in first["loc"])
        got = "" if "token" in name.lower() else f" (got {str(first['input'])[:40]!r})"
        raise SettingsError(
            f"{name.upper()} is invalid{got}: {first['msg'].rstrip('.')}. Check .env (see .env.example)."
        ) from None
