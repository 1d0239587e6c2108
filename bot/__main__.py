"""`python -m bot` runs the bot; `migrate` only applies migrations; `backup PATH` copies the database."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import aiohttp
import discord

from bot.logs import setup_logging
from bot.settings import Settings, SettingsError, load_settings
from bot.storage import DatabaseUnavailable, SchemaTooNew, backup, open_database


def _fail(message: str) -> int:
    print(f"farkle-bot: {message}", file=sys.stderr)
    return 2


async def _migrate_only(settings: Settings) -> list[int]:
    db, applied = await open_database(settings.database_path)
    await db.close()
    return applied


async def _run(settings: Settings, token: str) -> None:
    from bot.client import FarkleBot

    async with FarkleBot(settings) as bot:
        await bot.ensure_database()  # before logging in, so a bad database is reported even offline
        await bot.start(token)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="farkle-bot", description="Farkle for Discord")
    commands = parser.add_subparsers(dest="command", title="commands (default: run)")
    commands.add_parser("run", help="run the bot")
    commands.add_parser("migrate", help="only apply database migrations")
    copy = commands.add_parser("backup", help="copy the database consistently, even while the bot runs")
    copy.add_argument("path", type=Path, help="the new backup file (never overwritten)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(str(error))
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    setup_logging(settings.log_level, secret=token)
    try:
        if args.command == "migrate":
            applied = asyncio.run(_migrate_only(settings))
            print(f"Migrations applied: {applied or 'none (up to date)'}")
            return 0
        if args.command == "backup":
            pages = backup(settings.database_path, args.path)
            print(f"Backed up {settings.database_path} to {args.path} ({pages} pages, integrity checked).")
            return 0
        problem = settings.token_problem()
        if problem:
            return _fail(problem)
        asyncio.run(_run(settings, token))
    except (SchemaTooNew, DatabaseUnavailable) as error:
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
