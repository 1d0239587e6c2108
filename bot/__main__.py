"""`python -m bot` runs the bot; `migrate` only applies migrations; `backup PATH` copies the database."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import aiohttp
import discord
from pydantic import ValidationError

from bot.logs import setup_logging
from bot.settings import Settings, settings_problem
from bot.storage import DatabaseUnavailable, SchemaTooNew, open_database
from bot.storage.backup import BackupRefused, backup


def _fail(message: str) -> int:
    print(f"farkle-bot: {message}", file=sys.stderr)
    return 2


async def _migrate(settings: Settings) -> list[int]:
    """Open and migrate the database, then close it: a bad database is reported before Discord is."""
    db, applied = await open_database(settings.database_path)
    await db.close()
    return applied


async def _run(settings: Settings, token: str) -> None:
    from bot.client import FarkleBot

    async with FarkleBot(settings) as bot:
        await bot.start(token)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="farkle-bot", description="Farkle for Discord")
    parser.add_argument("command", nargs="?", choices=["run", "migrate", "backup"], default="run")
    parser.add_argument("path", nargs="?", type=Path, help="backup: the new file to write")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        return _fail(settings_problem(error))
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    setup_logging(settings.log_level, secret=token)
    try:
        if args.command == "backup":
            if args.path is None:
                return _fail("backup needs the file to write: python -m bot backup PATH")
            pages = backup(settings.database_path, args.path)
            print(f"Backed up {settings.database_path} to {args.path} ({pages} pages).")
            return 0
        if args.command == "migrate":
            applied = asyncio.run(_migrate(settings))
            print(f"Migrations applied: {applied or 'none (up to date)'}")
            return 0
        problem = settings.token_problem()
        if problem:
            return _fail(problem)
        asyncio.run(_migrate(settings))
        asyncio.run(_run(settings, token))
    except (SchemaTooNew, DatabaseUnavailable, BackupRefused) as error:
        return _fail(str(error))
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal (see .env.example)."
        )
    except (aiohttp.ClientError, OSError) as error:
        print(f"farkle-bot: could not reach Discord ({error}); check the network.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
