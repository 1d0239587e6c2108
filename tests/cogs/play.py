"""What a player does and sees in a channel, as small helpers over SimCord."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord
import simcord
from sqlalchemy import text

from bot.app.client import FarkleBot

BOARD_TITLE = "🎲 Farkle"

# Scripted rolls the tests reuse.
ROLL_OFF = (6, 2)  # two seats: the first (ana, the host) starts
SIX_ONES = (1, 1, 1, 1, 1, 1)
FARKLE = (2, 3, 4, 6, 2, 3)  # scores nothing under any preset


def parts(message: discord.Message) -> list[Any]:
    """Every component of a message, nested ones included (a V2 card: container, sections, rows)."""
    found: list[Any] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            found.append(item)
            walk(list(getattr(item, "children", [])))
            accessory = getattr(item, "accessory", None)
            if accessory is not None:
                walk([accessory])

    walk(list(message.components))
    return found


def texts(message: discord.Message) -> list[str]:
    """The text displays of a V2 card, in reading order."""
    return [part.content for part in parts(message) if isinstance(part, discord.TextDisplay)]


def title(message: discord.Message) -> str:
    """The card's title (its first line, a `###` heading), or an old embed's."""
    if message.embeds:
        return message.embeds[0].title or ""
    shown = texts(message)
    return shown[0].splitlines()[0].removeprefix("### ") if shown else ""


def description(message: discord.Message) -> str:
    """What the card says under its title, and who is to play (the old embed's description)."""
    if message.embeds:
        return message.embeds[0].description or ""
    shown = texts(message)
    lines = shown[0].splitlines()[1:] if shown else []
    turn = [text for text in shown if "turn total" in text or "Nobody's turn" in text]
    return "\n".join([line for line in lines if not line.startswith("-# ")] + turn)


HEADING = re.compile(r"^\*\*([^*]+)\*\*$")


def fields(message: discord.Message) -> dict[str, str]:
    """The card's blocks by their bold heading line ("Standings", "Roll", ...), as embed fields were."""
    if message.embeds:
        return {f.name or "": f.value or "" for f in message.embeds[0].fields}
    found: dict[str, str] = {}
    for shown in texts(message):
        name: str | None = None
        for line in shown.splitlines():
            match = HEADING.match(line)
            if match:
                name = match[1]
                found[name] = ""
            elif name is not None and line:
                found[name] = f"{found[name]}\n{line}" if found[name] else line
            elif not line:
                name = None
    return found


def is_board(message: discord.Message) -> bool:
    return title(message).startswith(("🎲 Farkle", "🏆"))


def board_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The newest lobby, board or results message: what a player scrolls to."""
    for message in reversed(channel.history()):
        if is_board(message):
            return message
    raise AssertionError("no Farkle board in the channel")


def buttons(message: discord.Message) -> dict[str, discord.Button]:
    """Buttons by custom id tail ("roll", "bank", "join", ...); die N is "die:N" (it picks or drops)."""
    found: dict[str, discord.Button] = {}
    for item in parts(message):
        if isinstance(item, discord.Button) and item.custom_id:
            if not item.custom_id.startswith("farkle:"):  # the results' Review ("farkle-review")
                found[item.custom_id.split(":")[0]] = item
                continue
            action = item.custom_id.split(":", 3)[3]
            found[re.sub(r"^(pick|drop):", "die:", action)] = item
    return found


DIE_EMOJI = re.compile(r"<:die_([1-6]):\d+>")


def read_dice(text: str) -> str:
    """Die-face emojis as the digits a player reads (`<:die_3:…>` → 3): the board must show emojis."""
    assert "\u20e3" not in text, f"dice drawn as keycaps, not faces: {text}"
    return DIE_EMOJI.sub(lambda match: match[1], text)


def die_face(button: discord.Button) -> int:
    """The face a die button shows: its emoji, named by value."""
    assert button.emoji is not None and button.emoji.name.startswith("die_"), button
    return int(button.emoji.name.removeprefix("die_"))


def rolled(message: discord.Message) -> list[int]:
    """The roll on the table, as its die buttons show it (the board draws the roll nowhere else)."""
    dice = buttons(message)
    return [die_face(dice[f"die:{i}"]) for i in range(6) if f"die:{i}" in dice]


def selected(message: discord.Message) -> list[int]:
    """The positions of the dice shown selected (a green button)."""
    dice = buttons(message)
    return [i for i in range(6) if f"die:{i}" in dice and dice[f"die:{i}"].style.name == "success"]


def last_turn(message: discord.Message) -> str:
    """How the previous turn ended: the quoted block above the current player's heading ("" if none)."""
    for shown in texts(message):
        if shown.startswith("> "):
            return "\n".join(line.removeprefix("> ") for line in shown.splitlines())
    return ""


def set_aside(message: discord.Message) -> str:
    """The turn's set-aside line, dice read as digits ("" with nothing set aside)."""
    for shown in texts(message):
        for line in shown.splitlines():
            if line.startswith("Set aside: "):
                return read_dice(line.removeprefix("Set aside: "))
    return ""


def labels(message: discord.Message) -> dict[str, str]:
    return {key: button.label or "" for key, button in buttons(message).items()}


async def press(
    member: simcord.MemberActor, channel: simcord.ChannelHandle, action: str
) -> simcord.InteractionResult:
    """Press a button of the current board by its action ("roll", "bank", "die:2", "join", ...)."""
    message = board_message(channel)
    button = buttons(message)[action]
    return await member.click(message, custom_id=button.custom_id)


async def keep(member: simcord.MemberActor, channel: simcord.ChannelHandle, *positions: int) -> None:
    for position in positions:
        result = await press(member, channel, f"die:{position}")
        assert not result.ephemeral, result.response and result.response.content


def field(message: discord.Message, name: str) -> str:
    return fields(message)[name]


def pings(channel: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in channel.history() if "it's your turn" in m.content]


async def act(member: simcord.MemberActor, channel: simcord.ChannelHandle, action: str) -> None:
    """Press a button that must be accepted (the board is edited, nobody gets a private refusal)."""
    result = await press(member, channel, action)
    assert not result.ephemeral, result.response and result.response.content


async def refused(member: simcord.MemberActor, channel: simcord.ChannelHandle, action: str) -> str:
    """Press a button that must be refused: the private answer the member reads."""
    result = await press(member, channel, action)
    assert result.ephemeral and result.response is not None, "expected a private refusal"
    return result.response.content


async def keep_all(member: simcord.MemberActor, channel: simcord.ChannelHandle) -> None:
    dice = [key for key in buttons(board_message(channel)) if key.startswith("die:")]
    await keep(member, channel, *range(len(dice)))


async def big_turn(
    member: simcord.MemberActor, channel: simcord.ChannelHandle, rolls: int, *, then: str = "bank"
) -> None:
    """Roll and keep all six dice `rolls` times (the script decides what they score), then bank."""
    for _ in range(rolls):
        await act(member, channel, "roll")
        await keep_all(member, channel)
    await act(member, channel, then)


async def open_game(
    channel: simcord.ChannelHandle, host: simcord.MemberActor, *others: simcord.MemberActor, **options: str
) -> None:
    """The host opens a lobby, the others press Join, the host presses Start."""
    result = await host.slash(channel, "farkle new", **options)
    assert not result.ephemeral, result.response and result.response.content
    for member in others:
        await act(member, channel, "join")
    await act(host, channel, "start")


def latest(channel: simcord.ChannelHandle) -> str:
    """The board's last few events: how the last turn ended and "Latest" while playing, "Last moves" on
    the results (the board draws each event once, in one of them)."""
    board = board_message(channel)
    shown = fields(board)
    if "Last moves" in shown:
        return shown["Last moves"]
    return "\n".join(text for text in (last_turn(board), shown.get("Latest", "")) if text)


def disabled(message: discord.Message) -> set[str]:
    return {key for key, button in buttons(message).items() if button.disabled}


MakeBot = Callable[[], FarkleBot]


async def query(env: simcord.Env, sql: str, **params: object) -> list[tuple[Any, ...]]:
    """Rows straight from the bot's database (a test looking behind the scenes)."""
    return [
        tuple(row)
        for row in await farkle(env).services.database.read(lambda c: c.execute(text(sql), params).all())
    ]


async def execute(env: simcord.Env, sql: str, **params: object) -> None:
    """A change made behind the bot's back, as an operator or another process would."""
    await farkle(env).services.database.write(lambda c: c.execute(text(sql), params))


def farkle(env: simcord.Env) -> FarkleBot:
    bot = env.bot
    assert isinstance(bot, FarkleBot)
    return bot


async def restart(env: simcord.Env, make_bot: MakeBot) -> None:
    """A deploy: a fresh bot on the same database; the old one is closed like a stopped process.

    SimCord's `restart_bot` detaches the old bot without closing it, and its database threads would
    keep the test process alive at exit.
    """
    old = farkle(env)
    await env.restart_bot(make_bot())
    await old.close()


def assert_within_discord_limits(message: discord.Message) -> None:
    """What Discord refuses outright: long texts, too many fields, rows or buttons, long custom ids."""
    assert len(message.content) <= 2000, message.content
    for embed in message.embeds:
        title, description = embed.title or "", embed.description or ""
        footer = embed.footer.text or ""
        assert len(title) <= 256 and len(description) <= 4096 and len(footer) <= 2048, embed.to_dict()
        assert len(embed.fields) <= 25
        for each in embed.fields:
            assert len(each.name or "") <= 256 and len(each.value or "") <= 1024, (each.name, each.value)
        assert len(embed) <= 6000, embed.to_dict()
    if message.flags.components_v2:
        assert len(parts(message)) <= 40, "at most 40 components in a V2 message"
        assert sum(len(text) for text in texts(message)) <= 4000, "at most 4,000 characters of text"
    else:
        assert len(message.components) <= 5, "at most five rows"
    for item in parts(message):
        if isinstance(item, discord.ActionRow):
            assert len(item.children) <= 5, "at most five buttons a row"
        if isinstance(item, discord.Button):
            assert len(item.label or "") <= 80, item.label
            assert item.custom_id is None or len(item.custom_id) <= 100, item.custom_id
