"""Configuration from the environment and `.env`, validated once at start-up."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

# Three base64url parts separated by dots: the shape of every Discord bot token.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class GameSettings(BaseSettings):
    """Gameplay defaults a server admin can later override per server (`GAME_` prefix)."""

    model_config = SettingsConfigDict(env_prefix="GAME_", env_file=".env", extra="ignore")

    default_rules: str = "classic"
    turn_timeout: int = Field(default=120, ge=15, le=3600)
    lobby_timeout: int = Field(default=600, ge=30, le=86400)
    max_players: int = Field(default=8, ge=2, le=8)
    computer_pause: float = Field(default=1.0, ge=0, le=10)
    min_games_win_rate: int = Field(default=5, ge=1, le=1000)


class Settings(BaseSettings):
    """Top-level settings; names match the variables documented in `.env.example`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/farkle.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = Field(default="INFO", pattern=r"^(?i:debug|info|warning|error|critical)$")
    game: GameSettings = Field(default_factory=GameSettings)

    def token_problem(self) -> str | None:
        """A one-line explanation when the token cannot possibly log in, else None."""
        token = self.discord_token.get_secret_value().strip() if self.discord_token else ""
        if not token:
            return "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example)."
        if not _TOKEN_SHAPE.match(token):
            return "DISCORD_TOKEN does not look like a Discord bot token: check .env (see .env.example)."
        return None
