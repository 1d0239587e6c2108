"""How a die face is drawn: the bot's die-face application emojis, or keycap digits without them.

The emojis are named by their value (`die_3`), which is what screen readers read aloud.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import discord

from bot.render.words import KEYCAPS, MESSAGE_LIMIT, clip

FACES = (1, 2, 3, 4, 5, 6)


def emoji_name(face: int) -> str:
    return f"die_{face}"


@dataclass(frozen=True)
class DiceArt:
    """Face → application emoji; a face without one is drawn as its keycap digit."""

    emojis: Mapping[int, discord.PartialEmoji] = field(default_factory=dict)

    def face(self, face: int) -> str:
        emoji = self.emojis.get(face)
        return str(emoji) if emoji is not None else KEYCAPS[face]

    def line(self, faces: tuple[int, ...], limit: int = MESSAGE_LIMIT) -> str:
        """The faces in a row; keycaps when the emojis would not fit (a long turn's set-aside dice)."""
        if not faces:
            return "—"
        line = " ".join(self.face(face) for face in faces)
        return line if len(line) <= limit else clip(KEYCAP_ART.line(faces), limit)

    def button(self, face: int) -> tuple[str | None, discord.PartialEmoji | None]:
        """A die button's label and emoji: the face alone, or its digit when there is no artwork."""
        emoji = self.emojis.get(face)
        return (None, emoji) if emoji is not None else (str(face), None)


KEYCAP_ART = DiceArt()
