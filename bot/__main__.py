"""`python -m bot` runs the bot; `migrate` only applies migrations; `backup PATH` copies a SQLite database;
`copy-db --to postgresql://...` copies it into an empty PostgreSQL one."""

from __future__ import annotations

import argparse
import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import discord
from pydantic import ValidationError

from bot.app.logs import setup_logging
from bot.core.database_url import DatabaseUrl
from bot.core.environment import Settings, settings_problem
from bot.storage import DatabaseUnavailable, SchemaBehind, SchemaTooNew, open_database
from bot.storage.backup import BackupRefused, backup
from bot.storage.copy import Copied, CopyRefused, copy_database


def _fail(message: str) -> int:
    print(f"farkle-bot: {message}", file=sys.stderr)
    return 2


async def _migrate(where: DatabaseUrl, *, upgrade: bool = True) -> list[str]:
    """Open and migrate the database, then close it: a bad database is reported before Discord is."""
    db, applied = await open_database(where, upgrade=upgrade)
    await db.close()
    return applied


def _prepare(where: DatabaseUrl) -> int:
    """Before the bot connects: check the database, and migrate one behind this bot with `migrate` in a
    child process, so Alembic (~12 MB resident once imported) never stays in the long-running bot."""
    try:
        asyncio.run(_migrate(where, upgrade=False))
    except SchemaBehind:
        return subprocess.run([sys.executable, "-m", "bot", "migrate"], check=False).returncode
    return 0


async def _copy(source: DatabaseUrl, target: DatabaseUrl) -> list[Copied]:
    """Both sides migrated to this bot's schema first, then every row across."""
    if source.dialect != "sqlite":
        raise CopyRefused(f"copy-db copies a SQLite database; {source.setting} is not one")
    origin, _ = await open_database(source)
    try:
        destination, _ = await open_database(target)
        try:
            return await copy_database(origin, destination, _report)
        finally:
            await destination.close()
    finally:
        await origin.close()


def _report(copied: Copied) -> None:
    print(f"  {copied.table}: {copied.rows} rows")


async def _run(settings: Settings, token: str) -> None:
    """Run until the bot stops; SIGTERM (`docker stop`, systemd) closes it as Ctrl+C does, so the answers
    in flight finish and the database closes cleanly."""
    from bot.app.client import FarkleBot

    loop = asyncio.get_running_loop()
    async with FarkleBot(settings) as bot:
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        try:
            await bot.start(token)
        finally:
            loop.remove_signal_handler(signal.SIGTERM)


def _connect(settings: Settings, token: str) -> int:
    """Run the bot until it stops; only here does a network error mean Discord could not be reached."""
    try:
        asyncio.run(_run(settings, token))
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal (see .env.example)."
        )
    except (aiohttp.ClientError, OSError) as error:
        print(f"farkle-bot: could not reach Discord ({error}); check the network.", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="farkle-bot", description="Farkle for Discord")
    parser.add_argument("command", nargs="?", choices=["run", "migrate", "backup", "copy-db"], default="run")
    parser.add_argument("path", nargs="?", type=Path, help="backup: the new file to write")
    parser.add_argument("--to", help="copy-db: the empty PostgreSQL database, postgresql://user@host/db")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        return _fail(settings_problem(error))
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    setup_logging(settings.log_level, secret=token)
    try:
        where = settings.database
        if args.command == "backup":
            if args.path is None:
                return _fail("backup needs the file to write: python -m bot backup PATH")
            if where.sqlite_path is None:
                return _fail("backup copies a SQLite database; back up PostgreSQL with pg_dump")
            pages = backup(where.sqlite_path, args.path)
            print(f"Backed up {where.sqlite_path} to {args.path} ({pages} pages).")
            return 0
        if args.command == "copy-db":
            if not args.to:
                return _fail("copy-db needs the target: python -m bot copy-db --to postgresql://user@host/db")
            try:
                target = DatabaseUrl.parse(args.to)
            except ValueError as error:
                return _fail(f"--to is invalid ({error})")
            print(f"Copying {where.setting} into {target.setting.removeprefix('DATABASE_URL=')}:")
            copied = asyncio.run(_copy(where, target))
            print(f"Copied {sum(entry.rows for entry in copied)} rows in {len(copied)} tables; counts match.")
            return 0
        if args.command == "migrate":
            applied = asyncio.run(_migrate(where))
            print(f"Migrations applied: {applied or 'none (up to date)'}")
            return 0
        problem = settings.token_problem()
        if problem:
            return _fail(problem)
        return _prepare(where) or _connect(settings, token)
    except (SchemaTooNew, DatabaseUnavailable, BackupRefused, CopyRefused) as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
