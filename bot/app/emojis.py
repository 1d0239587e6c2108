"""Die-face application emojis: found by name, created once if missing, keycaps if neither works.

Application emojis belong to the bot, not to a server: they show in every server without a permission.
Only the process that owns the application's set-up (the one that syncs commands) creates them, so shard
processes starting together never upload the same face twice; a restart finds them by name.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.resources import files

import discord

from bot.core.clock import Clock
from bot.render.dice import FACES, KEYCAP_ART, DiceArt, emoji_name

log = logging.getLogger(__name__)

# A shard process that started before the die emojis were uploaded looks again this often, this many times.
ART_LOOK_EVERY = 60.0
ART_LOOKS = 30


async def load_dice_art(client: discord.Client, *, create: bool, warn: bool = True) -> DiceArt:
    """The die faces as emojis, or keycaps with one warning: a game never fails because of artwork."""
    try:
        found = await _by_name(client)
        missing = [face for face in FACES if emoji_name(face) not in found]
        if missing and create:
            for face in missing:
                found[emoji_name(face)] = await client.create_application_emoji(
                    name=emoji_name(face), image=face_image(face)
                )
            log.info("Uploaded die-face emojis %s", ", ".join(emoji_name(face) for face in missing))
    except discord.HTTPException as error:
        if warn:
            log.warning(
                "Die-face emojis unavailable (%s); drawing dice as keycaps", error.text or error.status
            )
        return KEYCAP_ART
    if any(emoji_name(face) not in found for face in FACES):
        if warn:
            log.warning("Die-face emojis not uploaded yet (the process that syncs commands does it); keycaps")
        return KEYCAP_ART
    return DiceArt({face: _partial(found[emoji_name(face)]) for face in FACES})


async def await_dice_art(client: discord.Client, clock: Clock, found: Callable[[DiceArt], None]) -> None:
    """Another shard process uploads the faces at its first start: look for them again now and then."""
    for _ in range(ART_LOOKS):
        await clock.sleep_until(clock.now() + ART_LOOK_EVERY)
        art = await load_dice_art(client, create=False, warn=False)
        if art is not KEYCAP_ART:
            found(art)
            log.info("Die-face emojis found; boards draw them from now on")
            return


async def _by_name(client: discord.Client) -> dict[str, discord.Emoji]:
    """The bot's emojis by name; of two with one name (an older race) the oldest, as every process picks."""
    found: dict[str, discord.Emoji] = {}
    for emoji in sorted(await client.fetch_application_emojis(), key=lambda emoji: emoji.id, reverse=True):
        found[emoji.name] = emoji
    return found


def face_image(face: int) -> bytes:
    """The committed PNG of a face (drawn by scripts/draw_dice.py): package data, so no Pillow at run time."""
    return (files("bot") / "assets" / f"{emoji_name(face)}.png").read_bytes()


def _partial(emoji: discord.Emoji) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=emoji.name, id=emoji.id, animated=emoji.animated)
