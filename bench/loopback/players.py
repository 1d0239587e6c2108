"""Members at the tables: they set up a game in every channel and press what the board shows them.

A press is chosen from the message as the server stores it now, like a member reading their screen: the
custom ids, which buttons are enabled, whose turn the board names. Nothing is read from the bot.

Two kinds of play: `next_move` plays a game on (mostly die taps), and the Roll-and-Bank shape asks for one
named press (`named_move`: Roll at a turn's start, Bank once there is something to bank) after `prepare`
has brought every game there with presses that are not measured.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Protocol

from bot.engine import Ruleset, scoring_options

from .payloads import JSONDict, Person, Table, components_of, text_of
from .server import Interaction, LoopbackDiscord, Outcome
from .trivial_bot import BUTTONS, board_message

BANK_AT = 350  # bank once the turn is worth this much (and Bank is enabled)
SETUP_CHUNK = 50  # interactions in flight at once while setting up: setting up is not measured
PREPARE_PRESSES = 60  # at most, per game, to bring it to the next Roll or Bank (a turn is far shorter)
ROLL, BANK = "roll", "bank"  # the presses of the Roll-and-Bank shape
CLASSIC = Ruleset.preset("classic")  # the bot's default rules, which every bench game plays


class SetupFailed(RuntimeError):
    pass


@dataclass
class Board:
    """One table and the message its game is played on."""

    table: Table
    message_id: int = 0
    presses: int = 0


@dataclass(frozen=True)
class Move:
    person: Person
    custom_id: str


class Players(Protocol):
    async def set_up(self, boards: list[Board]) -> None: ...

    def next_move(self, board: Board) -> Move | None:
        """A legal press on the board as stored now, or None when there is none (a game over)."""
        ...

    async def prepare(self, boards: list[Board], action: str) -> None:
        """Unmeasured presses that make `action` (ROLL or BANK) the next press in every game that can."""
        ...

    def named_move(self, board: Board, action: str) -> Move | None:
        """`action` on the board as stored now, or None when it is not there to press."""
        ...


async def all_answered(server: LoopbackDiscord, what: str, interactions: list[Interaction]) -> None:
    outcomes = await asyncio.gather(*(interaction.done for interaction in interactions))
    failed = sum(outcome is not Outcome.ANSWERED for outcome in outcomes)
    if failed:
        raise SetupFailed(
            f"{failed} of {len(interactions)} {what} failed; unknown routes: {server.unknown_routes}"
        )


class TrivialPlayers:
    """The baseline's boards are seeded on the server; a member presses each button in turn."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server

    async def set_up(self, boards: list[Board]) -> None:
        for board in boards:
            board.message_id = int(self.server.post(board.table, board_message(board.table.index))["id"])
        await self.server.settled()

    def next_move(self, board: Board) -> Move | None:
        return self.named_move(board, BUTTONS[board.presses % len(BUTTONS)])

    async def prepare(self, boards: list[Board], action: str) -> None:
        """The baseline's buttons are always there."""

    def named_move(self, board: Board, action: str) -> Move | None:
        return Move(board.table.host, f"trivial:{board.table.index}:{action}")


class FarklePlayers:
    """`/farkle new` by ana, Join by ben, Start by ana; then the current player rolls, picks the
    best-scoring dice one by one and banks at BANK_AT."""

    def __init__(self, server: LoopbackDiscord) -> None:
        self.server = server

    async def set_up(self, boards: list[Board]) -> None:
        for chunk in _chunks(boards):
            opened = [self.server.slash(b.table, b.table.host, "farkle", "new") for b in chunk]
            await all_answered(self.server, "/farkle new", opened)
            for board, interaction in zip(chunk, opened, strict=True):
                board.message_id = interaction.response_message_id or 0
        await self.server.settled()  # the bot attaches each lobby to its message after answering
        for action, who in (("join", "guest"), ("start", "host")):
            for chunk in _chunks(boards):
                presses = [self._lobby_press(board, action, who) for board in chunk]
                await all_answered(self.server, action, presses)
            await self.server.settled()

    def _lobby_press(self, board: Board, action: str, who: str) -> Interaction:
        buttons = _buttons(self.server.messages[board.message_id])
        person = board.table.guest if who == "guest" else board.table.host
        return self.server.press(board.table, person, board.message_id, buttons[action]["custom_id"])

    def next_move(self, board: Board) -> Move | None:
        seen = self._board(board)
        if seen is None:
            return None
        person, buttons = seen
        action = _choose(buttons)
        return Move(person, buttons[action]["custom_id"]) if action else None

    async def prepare(self, boards: list[Board], action: str) -> None:
        """Every game played on, one press answered before the next, until `action` is the next press:
        ROLL at a turn's start; BANK once the best dice are set aside (rolling on while Bank is disabled,
        say below an entry minimum), unless the roll scored nothing and the turn has passed."""
        for chunk in _chunks(boards):
            await asyncio.gather(*(self._play_until(board, action) for board in chunk))
        await self.server.settled()

    async def _play_until(self, board: Board, action: str) -> None:
        for _ in range(PREPARE_PRESSES):
            seen = self._board(board)
            if seen is None:
                return
            person, buttons = seen
            if _at_turn_start(buttons):
                return
            step = _choose(buttons, bank_at=0)
            if step is None or (action == BANK and step == BANK):
                return
            board.presses += 1
            pressed = self.server.press(board.table, person, board.message_id, buttons[step]["custom_id"])
            if await pressed.done is not Outcome.ANSWERED:  # too late on a loaded machine: read it again
                await self.server.settled()  # the bot redraws the board by its id
        raise SetupFailed(f"game {board.table.index} reached no {action} in {PREPARE_PRESSES} presses")

    def named_move(self, board: Board, action: str) -> Move | None:
        seen = self._board(board)
        if seen is None:
            return None
        person, buttons = seen
        if action == ROLL and not _at_turn_start(buttons):
            return None
        return Move(person, buttons[action]["custom_id"]) if _enabled(buttons, action) else None

    def _board(self, board: Board) -> tuple[Person, dict[str, JSONDict]] | None:
        """Whose turn the stored board names and its buttons; None when it names nobody (a game over)."""
        stored = self.server.messages.get(board.message_id)
        if stored is None:
            return None
        description = text_of(stored)
        person = next(
            (p for p in (board.table.host, board.table.guest) if f"**{p.name}'s turn**" in description), None
        )
        return None if person is None else (person, _buttons(stored))


def _chunks(boards: list[Board]) -> list[list[Board]]:
    return [boards[i : i + SETUP_CHUNK] for i in range(0, len(boards), SETUP_CHUNK)]


def _buttons(stored: JSONDict) -> dict[str, JSONDict]:
    """Farkle's buttons by what they do: `roll`, `bank`, `pick:2`, `drop:0`, ... (`farkle:<game>:<seq>:…`)."""
    found = {}
    for component in components_of(stored):
        parts = str(component.get("custom_id", "")).split(":")
        if parts[0] == "farkle" and len(parts) >= 4:
            found[":".join(parts[3:])] = component
    return found


def _face(component: JSONDict) -> int:
    """A die button shows its face as the `die_N` emoji, or as a keycap label without emojis."""
    emoji = component.get("emoji") or {}
    match = re.search(r"[1-6]", str(emoji.get("name", "")) or str(component.get("label", "")))
    if match is None:
        raise ValueError(f"no face on the die button {component}")
    return int(match.group())


def _enabled(buttons: dict[str, JSONDict], action: str) -> bool:
    return action in buttons and not buttons[action].get("disabled")


def _at_turn_start(buttons: dict[str, JSONDict]) -> bool:
    """No dice on the table and nothing to bank: the turn's first Roll is the press."""
    return not any(a.startswith(("pick:", "drop:")) for a in buttons) and not _enabled(buttons, BANK)


def _choose(buttons: dict[str, JSONDict], bank_at: int = BANK_AT) -> str | None:
    dice: dict[int, tuple[int, bool]] = {}  # position → (face, selected)
    for action, component in buttons.items():
        verb, _, position = action.partition(":")
        if verb in ("pick", "drop"):
            dice[int(position)] = (_face(component), verb == "drop")
    bank = (
        _enabled(buttons, "bank") and int(re.sub(r"\D", "", buttons["bank"].get("label", "")) or 0) >= bank_at
    )
    if not dice:  # a new turn, or hot dice
        return "bank" if bank else ("roll" if _enabled(buttons, "roll") else None)
    options = scoring_options([dice[position][0] for position in sorted(dice)], CLASSIC)
    if not options:  # never drawn: a roll that scores nothing ends the turn at once
        return None
    best = max(options, key=lambda option: (option.points, len(option.dice)))
    free = sorted(dice)
    for face in best.dice:
        position = next(p for p in free if dice[p][0] == face)
        free.remove(position)
        if not dice[position][1]:
            return f"pick:{position}"
    if bank or (_enabled(buttons, "bank") and not _enabled(buttons, "roll")):
        return "bank"
    return "roll" if _enabled(buttons, "roll") else None
