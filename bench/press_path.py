"""How far one Roll press travels through our code: the modules and functions of `bot/` and `cogs/` that
run while the SimCord bot answers it (a profiler trace, from the interaction to the edited board).

    .venv/bin/python bench/press_path.py [--list]

The count is what a newcomer follows on the map (docs/ARCHITECTURE.md, "A Roll press"); `--list` prints
the path, one module a line with its functions, in the order they were first entered.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

import simcord

from bot.engine import ScriptedDice

ROOT = Path(__file__).resolve().parents[1]
OURS = (str(ROOT / "bot") + "/", str(ROOT / "cogs") + "/")
# Comprehensions and lambdas are frames of their own (CPython 3.11) but not steps a reader follows.
INLINE = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>", "<lambda>"}


def _bot_types() -> tuple[Any, Any, Any]:
    """FarkleBot and its settings, wherever this checkout keeps them (the path is measured before and after
    a move of the modules)."""
    for client, env in (("bot.app.client", "bot.core.environment"), ("bot.client", "bot.settings")):
        try:
            settings = importlib.import_module(env)
            return importlib.import_module(client).FarkleBot, settings.Settings, settings.GameSettings
        except ModuleNotFoundError:
            continue
    raise SystemExit("no FarkleBot found")


class _Trace:
    """Every function of ours entered, in the order first entered, by module."""

    def __init__(self) -> None:
        self.order: dict[str, list[str]] = {}

    def __call__(self, frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename
        if not path.startswith(OURS):
            return
        module = str(Path(path).relative_to(ROOT))
        functions = self.order.setdefault(module, [])
        name = frame.f_code.co_qualname
        if name.rsplit(".", 1)[-1] in INLINE:
            return
        if name not in functions:
            functions.append(name)


async def trace_one_roll() -> _Trace:
    farkle_bot, settings_type, game_settings = _bot_types()
    with tempfile.TemporaryDirectory() as folder:
        settings = settings_type(
            _env_file=None,
            discord_token=None,
            database_path=Path(folder) / "farkle.sqlite3",
            solve_win_tables=False,
            shard_count=1,
            game=game_settings(_env_file=None, computer_pause=0),
        )
        rolls = [(6, 2), (1, 2, 3, 4, 6, 6), (5, 2, 3, 4, 6)]  # the roll-off: ana starts; a 1 to keep
        bot = farkle_bot(settings, dice=lambda: ScriptedDice(rolls, seed=1))
        env = simcord.Env(bot)
        await env.start()
        try:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            ana, ben = (guild.add_member(env.create_user(name)) for name in ("ana", "ben"))
            await ana.slash(channel, "farkle new")
            for member, action in ((ben, "join"), (ana, "start")):
                await _press(member, channel, action)
            await _press(ana, channel, "roll")  # the first roll of the game warms what a roll loads
            await _press(ana, channel, "pick:0")
            trace = _Trace()
            sys.setprofile(trace)
            try:
                await _press(ana, channel, "roll")
            finally:
                sys.setprofile(None)
            return trace
        finally:
            await env.shutdown()
            await bot.close()


def _board(channel: simcord.ChannelHandle) -> Any:
    return next(m for m in channel.history() if m.components)


async def _press(member: simcord.MemberActor, channel: simcord.ChannelHandle, action: str) -> None:
    board = _board(channel)
    ids = [c.custom_id for row in _walk(board.components) for c in [row] if getattr(c, "custom_id", None)]
    wanted = [i for i in ids if i.endswith(f":{action}") or f":{action}:" in i]
    if not wanted:
        raise SystemExit(f"no {action} button on the board: {ids}")
    await member.click(board, custom_id=wanted[0])


def _walk(components: Any) -> list[Any]:
    found: list[Any] = []
    for component in components:
        found.append(component)
        for attr in ("children", "components"):
            found.extend(_walk(getattr(component, attr, None) or []))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            found.append(accessory)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print the path, module by module")
    args = parser.parse_args()
    trace = asyncio.run(trace_one_roll())
    functions = sum(len(f) for f in trace.order.values())
    print(f"one Roll press: {len(trace.order)} modules, {functions} functions of bot/ and cogs/")
    if args.list:
        for module, names in trace.order.items():
            print(f"  {module}: {', '.join(names)}")


if __name__ == "__main__":
    main()
