"""Dice sources: the only randomness in the engine, kept behind a small protocol.

A game stores its dice source's state with the rest of its JSON, so a saved game continues with exactly the
rolls it would have had, and the same seed with the same actions replays to the same state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bot.engine.saved import JSON, json_dict, json_int, json_list


class DiceSource(Protocol):
    """Where a game's dice come from."""

    def roll(self, n: int) -> tuple[int, ...]:
        """n dice, each 1-6, in the order they are shown."""
        ...

    def state(self) -> dict[str, JSON]:
        """Everything needed to continue the same sequence of rolls (see `dice_from_state`)."""
        ...


def _nth_roll(index: int, n: int) -> tuple[int, ...]:
    """The `index`-th of the 6^n ordered rolls of n dice, (1, …, 1) first: one random() per roll instead of
    one per die, without a table of 46,656 rolls kept in memory (and walked by every garbage collection)."""
    faces = [0] * n
    for position in range(n - 1, -1, -1):
        index, face = divmod(index, 6)
        faces[position] = face + 1
    return tuple(faces)


# The generator that rolled last, by (seed, draws): a game rolling on (a simulation, a replay, a review)
# takes it back instead of rebuilding it. One, not one per game: see `SeededDice`.
_LAST_USED: dict[tuple[int, int], random.Random] = {}


class SeededDice:
    """Fair dice from `random.Random(seed)`; the state is the seed and how many numbers were drawn.

    That is all a saved game keeps, and all a live game keeps in memory too: the bot holds hundreds of
    games whose dice wait minutes between rolls, so the generator's 2.5 KB state is rebuilt when another
    game rolled since (seeded, the numbers drawn so far skipped in one call: a few microseconds).
    """

    __slots__ = ("_draws", "_seed")

    def __init__(self, seed: int, draws: int = 0) -> None:
        self._seed = seed
        self._draws = draws

    def roll(self, n: int) -> tuple[int, ...]:
        generator = _LAST_USED.pop((self._seed, self._draws), None)
        if generator is None:
            generator = random.Random(self._seed)
            if self._draws:
                generator.getrandbits(64 * self._draws)  # each random() takes two 32-bit words
        if n <= 6:
            self._draws += 1
            faces = _nth_roll(int(generator.random() * 6**n), n)
        else:
            self._draws += n
            faces = tuple(int(generator.random() * 6) + 1 for _ in range(n))
        _LAST_USED.clear()
        _LAST_USED[self._seed, self._draws] = generator
        return faces

    def state(self) -> dict[str, JSON]:
        return {"kind": "seeded", "seed": self._seed, "draws": self._draws}

    @classmethod
    def _from_state(cls, data: dict[str, JSON]) -> SeededDice:
        return cls(json_int(data["seed"]), json_int(data["draws"]))


class ScriptedDice:
    """Rolls given in advance (tests force exact situations), then fair seeded dice.

    Each scripted roll must have exactly the number of dice asked for: a mismatch means the test's script
    is out of step with the game, which should fail loudly rather than shift every later roll.
    """

    __slots__ = ("_fallback", "_next", "_rolls")

    def __init__(self, rolls: Sequence[Sequence[int]], seed: int = 0) -> None:
        self._rolls = [tuple(r) for r in rolls]
        for r in self._rolls:
            if not all(isinstance(face, int) and 1 <= face <= 6 for face in r):
                raise ValueError(f"A scripted roll holds faces 1 to 6, not {list(r)}.")
        self._next = 0
        self._fallback = SeededDice(seed)

    @property
    def scripted_left(self) -> int:
        """Scripted rolls not used yet (tests check that a script was played to its end)."""
        return len(self._rolls) - self._next

    def roll(self, n: int) -> tuple[int, ...]:
        if self._next >= len(self._rolls):
            return self._fallback.roll(n)
        scripted = self._rolls[self._next]
        if len(scripted) != n:
            raise ValueError(f"Scripted roll {self._next} has {len(scripted)} dice; the game rolled {n}.")
        self._next += 1
        return scripted

    def state(self) -> dict[str, JSON]:
        rolls: list[JSON] = [list(r) for r in self._rolls]
        return {"kind": "scripted", "rolls": rolls, "next": self._next, "fallback": self._fallback.state()}

    @classmethod
    def _from_state(cls, data: dict[str, JSON]) -> ScriptedDice:
        dice = cls([[json_int(face) for face in json_list(r)] for r in json_list(data["rolls"])])
        dice._next = json_int(data["next"])
        dice._fallback = SeededDice._from_state(json_dict(data["fallback"]))
        return dice


def dice_from_state(data: dict[str, JSON]) -> DiceSource:
    """The dice source whose `state()` was `data`, continuing where it stopped."""
    kind = data.get("kind")
    if kind == "seeded":
        return SeededDice._from_state(data)
    if kind == "scripted":
        return ScriptedDice._from_state(data)
    raise ValueError(f"Unknown dice source {kind!r}.")
