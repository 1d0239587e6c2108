"""`python -m bot` as an operator runs it: a clear line and exit status, never a traceback."""

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.core.database_url import DatabaseUrl
from bot.storage.schema import revisions


def run_bot(
    tmp_path: Path, *args: str, prefix: tuple[str, ...] = (), **env: str
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "GAME_"))}
    clean.update(env)
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_missing_or_malformed_token_exits_2_with_one_clear_line(tmp_path: Path, token: str | None) -> None:
    result = run_bot(tmp_path, **({"DISCORD_TOKEN": token} if token else {}))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert "Traceback" not in result.stderr


def test_without_a_token_the_line_points_to_make_play(tmp_path: Path) -> None:
    """A newcomer without a Discord application learns they can still try the bot."""
    result = run_bot(tmp_path)
    assert result.stderr.strip().endswith("to try the bot without Discord: make play")


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("GAME_TURN_TIMEOUT", "soon", "valid integer"),
        ("GAME_TURN_TIMEOUT", "5", "a number of seconds from 15 to 3600"),
        ("LOG_LEVEL", "loud", "'DEBUG', 'INFO', 'WARNING', 'ERROR' or 'CRITICAL'"),
        ("GAME_DEFAULT_RULES", "nonsense", "classic, box, doubling, last-loses, family"),
        ("DEV_GUILD_ID", "abc", "valid integer"),
    ],
)
def test_an_invalid_setting_is_one_line_naming_the_variable_as_written(
    tmp_path: Path, variable: str, value: str, says: str
) -> None:
    result = run_bot(tmp_path, "migrate", **{variable: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"farkle-bot: {variable} is invalid ("), result.stderr
    assert says in lines[0]


def test_the_shipped_template_with_only_a_token_passes_the_settings(tmp_path: Path) -> None:
    """The README's first run: `cp .env.example .env`, fill in the token (empty optional values are unset)."""
    template = (Path(__file__).parents[1] / ".env.example").read_text()
    token = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30
    (tmp_path / ".env").write_text(template.replace("DISCORD_TOKEN=", f"DISCORD_TOKEN={token}", 1))
    result = run_bot(tmp_path)
    assert "is invalid" not in result.stderr and "Traceback" not in result.stderr
    assert "could not reach Discord" in result.stderr or "Discord rejected" in result.stderr
    assert (tmp_path / "data" / "farkle.sqlite3").exists(), "the database was opened before Discord"
    # An image's DATABASE_PATH (/data on its volume) survives `docker run --env-file .env`.
    assert not [line for line in template.splitlines() if line.startswith("DATABASE_PATH=")]


def test_migrate_creates_the_database_folder_and_applies_migrations(tmp_path: Path) -> None:
    db_path = tmp_path / "nested" / "dir" / "farkle.sqlite3"
    result = run_bot(tmp_path, "migrate", DATABASE_PATH=str(db_path))
    assert result.returncode == 0, result.stderr
    assert f"Migrations applied: {revisions()}" in result.stdout
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(revisions()[-1],)]
    again = run_bot(tmp_path, "migrate", DATABASE_PATH=str(db_path))
    assert again.returncode == 0 and "up to date" in again.stdout


def test_the_running_bot_never_imports_alembic(tmp_path: Path, blank_database_url: DatabaseUrl) -> None:
    """Alembic (~12 MB resident once imported) migrates a database behind the bot in a child process
    (`python -m bot migrate`), and is not needed at all once the schema is at head: the long-running bot
    never holds it, on its first start or any other."""
    where = blank_database_url
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env.update(
        {"DATABASE_PATH": str(where.sqlite_path)}
        if where.sqlite_path
        else {"DATABASE_URL": str(where.server_url)}
    )
    start = (
        "import sys, bot.__main__ as cli, bot.app.client, cogs.board.boards, cogs.farkle\n"
        "import cogs.server_settings\n"
        "from bot.core.environment import Settings\n"
        "status = cli._prepare(Settings().database)\n"
        "sys.exit(status or ('alembic' in sys.modules and 'alembic was imported'))"
    )
    starts = [
        subprocess.run([sys.executable, "-c", start], cwd=tmp_path, env=env, capture_output=True, text=True)
        for _ in ("a fresh database", "the same, at head")
    ]
    assert [result.returncode for result in starts] == [0, 0], [result.stderr for result in starts]
    assert f"Migrations applied: {revisions()}" in starts[0].stdout, "the child process migrated"
    assert starts[1].stdout == "", "nothing to migrate: no child process"


def test_migrate_on_a_postgresql_server(tmp_path: Path, blank_postgres_url: DatabaseUrl) -> None:
    assert blank_postgres_url.server_url is not None
    result = run_bot(tmp_path, "migrate", DATABASE_URL=blank_postgres_url.server_url)
    assert result.returncode == 0, result.stderr
    assert f"Migrations applied: {revisions()}" in result.stdout
    assert not (tmp_path / "data").exists(), "no SQLite file beside a PostgreSQL database"


@pytest.mark.parametrize("command", ["run", "migrate"])
def test_a_postgresql_server_that_cant_be_reached_is_one_line_without_its_password(
    tmp_path: Path, command: str
) -> None:
    url = "postgresql://farkle:s3cret@127.0.0.1:1/farkle"  # nothing listens on port 1
    result = run_bot(tmp_path, command, DATABASE_URL=url, DISCORD_TOKEN=TOKEN_SHAPE)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert "DATABASE_URL=postgresql://farkle:***@127.0.0.1:1/farkle can't be used" in lines[0]
    assert "s3cret" not in result.stderr and "could not reach Discord" not in lines[0]


def test_unreachable_or_rejecting_discord_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    token = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30  # the right shape, but no real bot's token
    result = run_bot(tmp_path, DISCORD_TOKEN=token, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert "Traceback" not in result.stderr
    # Offline (as in CI) the bot cannot reach Discord; online, Discord rejects the token.
    expected = {1: "could not reach Discord", 2: "Discord rejected DISCORD_TOKEN"}
    assert result.returncode in expected
    assert expected[result.returncode] in result.stderr
    assert token not in result.stderr


# ---------------------------------------------------------------------- a database that can't be used

TOKEN_SHAPE = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30


def garbage(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(os.urandom(8192))
    return path


def truncated(tmp_path: Path) -> Path:
    path = tmp_path / "truncated.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(path)).returncode == 0
    path.write_bytes(path.read_bytes()[:1500])
    (tmp_path / "truncated.sqlite3-wal").unlink(missing_ok=True)
    return path


def _overwrite_the_middle(path: Path) -> Path:
    """Pages in the middle of the file overwritten, the header left valid: a failing disk or a bad copy."""
    assert not path.with_name(f"{path.name}-wal").exists(), "every write is in the file itself"
    data = bytearray(path.read_bytes())
    page = 4096
    middle = len(data) // page // 2 * page
    data[middle : middle + 2 * page] = bytes(range(256)) * (2 * page // 256)
    path.write_bytes(bytes(data))
    return path


def damaged_fresh(tmp_path: Path) -> Path:
    """A freshly migrated database, nothing in it yet."""
    path = tmp_path / "fresh.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(path)).returncode == 0
    return _overwrite_the_middle(path)


def damaged_with_data(tmp_path: Path) -> Path:
    """A database in use: hundreds of pages of solved policies."""
    path = tmp_path / "used.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(path)).returncode == 0
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO solver_cache (rules_key, on_board, policy) VALUES (?, 0, ?)",
            [(f"rules-{n}", f"{n}" * 2000) for n in range(400)],
        )
    db.close()
    return _overwrite_the_middle(path)


def folder(tmp_path: Path) -> Path:
    (tmp_path / "a-folder").mkdir()
    return tmp_path / "a-folder"


def under_proc(tmp_path: Path) -> Path:
    return Path("/proc/farkle/farkle.sqlite3")


def under_sys(tmp_path: Path) -> Path:
    return Path("/sys/farkle.sqlite3")


@contextmanager
def small_disk(tmp_path: Path, options: str) -> Iterator[Path]:
    """A tiny tmpfs (root only, as on the project's machines and CI): a full or read-only volume."""
    mount = tmp_path / "volume"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24k", "tmpfs", str(mount)]).returncode != 0:
        pytest.skip("this machine can't mount a small file system to fill up")
    try:
        if options == "ro":
            assert subprocess.run(["mount", "-o", "remount,ro", str(mount)]).returncode == 0
        yield mount / "farkle.sqlite3"
    finally:
        subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.parametrize("command", ["run", "migrate"])
@pytest.mark.parametrize("make", [damaged_fresh, damaged_with_data])
def test_a_damaged_database_is_refused_at_start_pointing_to_the_backups(
    tmp_path: Path, command: str, make: Callable[[Path], Path]
) -> None:
    path = make(tmp_path)
    result = run_bot(tmp_path, command, DATABASE_PATH=str(path), DISCORD_TOKEN=TOKEN_SHAPE)
    expect_database_problem(result, path)
    assert "is damaged" in result.stderr and "restore the last backup" in result.stderr


@pytest.mark.parametrize("command", ["run", "migrate"])
@pytest.mark.parametrize("make", [garbage, truncated, folder, under_proc, under_sys])
def test_a_database_that_cant_be_used_is_one_line_and_exit_2(
    tmp_path: Path, command: str, make: Callable[[Path], Path]
) -> None:
    path = make(tmp_path)
    expect_database_problem(
        run_bot(tmp_path, command, DATABASE_PATH=str(path), DISCORD_TOKEN=TOKEN_SHAPE), path
    )


@pytest.mark.parametrize("options", ["full", "ro"])
def test_a_full_or_read_only_volume_is_one_line_and_exit_2(tmp_path: Path, options: str) -> None:
    with small_disk(tmp_path, options) as path:
        result = run_bot(tmp_path, "migrate", DATABASE_PATH=str(path))
    expect_database_problem(result, path)


def without_root_override() -> tuple[str, ...]:
    """Root writes any file whatever its mode: run the bot without that power so permissions apply."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file permissions would not apply")
    return ("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--")


def read_only_file(tmp_path: Path) -> Path:
    """Up to date, so no migration writes: only a write probe finds out before the first move."""
    path = tmp_path / "farkle.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(path)).returncode == 0
    path.chmod(0o444)
    return path


def in_a_locked_folder(tmp_path: Path) -> Path:
    (tmp_path / "locked").mkdir(mode=0o555)
    return tmp_path / "locked" / "farkle.sqlite3"


@pytest.mark.parametrize("command", ["run", "migrate"])
@pytest.mark.parametrize("make", [read_only_file, in_a_locked_folder])
def test_a_database_the_bot_may_not_write_is_one_line_and_exit_2(
    tmp_path: Path, command: str, make: Callable[[Path], Path]
) -> None:
    path = make(tmp_path)
    result = run_bot(
        tmp_path,
        command,
        prefix=without_root_override(),
        DATABASE_PATH=str(path),
        DISCORD_TOKEN=TOKEN_SHAPE,
    )
    expect_database_problem(result, path)
    assert "readonly" in result.stderr or "unable to open" in result.stderr


def expect_database_problem(result: subprocess.CompletedProcess[str], path: Path) -> None:
    """`run_bot` has a timeout: a process that never exits fails the test."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1, result.stderr
    assert f"DATABASE_PATH={path}" in lines[0]
    assert "could not reach Discord" not in lines[0]


# ---------------------------------------------------------------------- backups


def test_backup_copies_the_live_database_and_never_overwrites(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(live)).returncode == 0
    writer = sqlite3.connect(live)  # the running bot: WAL, with a write not yet checkpointed
    writer.execute("INSERT INTO command_sync (scope, tree_hash) VALUES ('global', 'abc')")
    writer.commit()

    result = run_bot(tmp_path, "backup", str(copy), DATABASE_PATH=str(live))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT tree_hash FROM command_sync").fetchall() == [("abc",)]
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    again = run_bot(tmp_path, "backup", str(copy), DATABASE_PATH=str(live))
    assert again.returncode == 2 and "already exists" in again.stderr
    writer.close()


def test_backup_reads_the_database_at_its_exact_path(tmp_path: Path) -> None:
    """`?` and `#` in a file name are not a URI's query or fragment: never a silent empty copy."""
    live, copy = tmp_path / "farkle?mode=rw#1.sqlite3", tmp_path / "copy.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(live)).returncode == 0
    result = run_bot(tmp_path, "backup", str(copy), DATABASE_PATH=str(live))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT COUNT(*) FROM alembic_version").fetchone()[0] == 1


@pytest.mark.parametrize("make", [garbage, truncated])
def test_backup_of_a_damaged_database_is_one_line_and_leaves_no_copy(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    path = make(tmp_path)
    result = run_bot(tmp_path, "backup", str(tmp_path / "copy.sqlite3"), DATABASE_PATH=str(path))
    expect_database_problem(result, path)
    assert not list(tmp_path.glob("copy*"))


def test_backup_to_a_place_that_cant_be_written_is_one_line(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(live)).returncode == 0
    result = run_bot(tmp_path, "backup", "/proc/farkle-backup.sqlite3", DATABASE_PATH=str(live))
    expect_database_problem(result, live)
    assert "/proc/farkle-backup.sqlite3" in result.stderr


def closed_folder(tmp_path: Path) -> Path:
    """A folder the bot may not even look into (as /root is to another user)."""
    (tmp_path / "closed").mkdir(mode=0o000)
    return tmp_path / "closed" / "backup.sqlite3"


def read_only_folder(tmp_path: Path) -> Path:
    (tmp_path / "read-only").mkdir(mode=0o555)
    return tmp_path / "read-only" / "backup.sqlite3"


def existing_file(tmp_path: Path) -> Path:
    (tmp_path / "taken.sqlite3").write_bytes(b"an older backup")
    return tmp_path / "taken.sqlite3"


@pytest.mark.parametrize("make", [closed_folder, read_only_folder, existing_file])
def test_backup_to_a_path_it_cant_use_is_one_line_naming_it_and_exit_2(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    live = tmp_path / "live.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(live)).returncode == 0
    target = make(tmp_path)
    result = run_bot(tmp_path, "backup", str(target), prefix=without_root_override(), DATABASE_PATH=str(live))
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert str(target) in lines[0] and "could not reach Discord" not in lines[0]
    if make is existing_file:
        assert target.read_bytes() == b"an older backup"


def test_backup_leaves_nothing_but_the_copy_behind(tmp_path: Path) -> None:
    """No empty -wal or -shm beside the database or the copy once the backup is done."""
    live, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    assert run_bot(tmp_path, "migrate", DATABASE_PATH=str(live)).returncode == 0
    assert run_bot(tmp_path, "backup", str(copy), DATABASE_PATH=str(live)).returncode == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["copy.sqlite3", "live.sqlite3"]


def test_backup_of_a_missing_database_is_refused(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "backup", str(tmp_path / "copy"), DATABASE_PATH=str(tmp_path / "none"))
    assert result.returncode == 2 and "there is no database" in result.stderr
    assert not (tmp_path / "none").exists()


async def test_sigterm_closes_the_bot_as_ctrl_c_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """`docker stop` and systemd send SIGTERM: the bot closes (answers in flight finish), not killed."""
    import asyncio
    import signal

    import bot.app.client
    from bot.__main__ import _run
    from bot.core.environment import Settings

    closed: list[bool] = []

    class Bot:
        def __init__(self, settings: Settings) -> None:
            self._stopped = asyncio.Event()

        async def __aenter__(self) -> "Bot":
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def start(self, token: str) -> None:
            asyncio.get_running_loop().call_soon(os.kill, os.getpid(), signal.SIGTERM)
            await self._stopped.wait()

        async def close(self) -> None:
            closed.append(True)
            self._stopped.set()

    monkeypatch.setattr(bot.app.client, "FarkleBot", Bot)
    await asyncio.wait_for(_run(Settings(_env_file=None), "token"), 5)
    assert closed == [True]
