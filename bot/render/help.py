"""Private answers about playing: the rules summary, `/farkle help` and the Hint button's advice."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.engine import Ruleset
from bot.engine.master import WinAdvice
from bot.engine.messages import N_
from bot.render.components import GOLD
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.review import choice_words
from bot.render.words import TITLE_LIMIT, clip
from bot.sessions.outcome import Hint
from bot.sessions.session import Snapshot

# Where each slash command sits on the help card, in order. What it says of a command is that command's
# own description (a message id), read from the command tree: written once, where the command is.
SECTIONS = (
    (
        N_("Play"),
        (
            "farkle new",
            "farkle join",
            "farkle leave",
            "farkle start",
            "farkle computer",
            "farkle end",
            "farkle board",
            "farkle watch",
            "farkle rules",
            "farkle help",
        ),
    ),
    (
        N_("Statistics"),
        (
            "farkle leaderboard",
            "farkle stats",
            "farkle history",
            "farkle replay",
            "farkle review",
            "farkle daily",
            "farkle daily-standings",
            "farkle forget-me",
            "farkle reset-leaderboard",
        ),
    ),
    (
        N_("Tournaments"),
        (
            "farkle tournament new",
            "farkle tournament start",
            "farkle tournament list",
            "farkle tournament show",
            "farkle tournament cancel",
            "farkle tournament advance",
            "farkle tournament disqualify",
        ),
    ),
    (
        N_("Server settings"),
        (
            "farkle-config show",
            "farkle-config preset",
            "farkle-config set",
            "farkle-config reset",
            "farkle-config save",
            "farkle-config delete",
            "farkle-config default",
            "farkle-config history",
        ),
    ),
)


def rules_embed(rules: Ruleset, tr: Translator, *, title: str) -> discord.Embed:
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=GOLD)
    for section, lines in rules.summary_sections():
        embed.add_field(
            name=tr.term(section),
            value="\n".join(f"• {tr.say(line)}" for line in lines) or "—",
            inline=False,
        )
    return embed


def help_embed(tr: Translator, descriptions: Mapping[str, str]) -> discord.Embed:
    """`descriptions`: each slash command's description (a message id) by its full name, from the tree."""
    embed = discord.Embed(title=tr.text("How to play Farkle"), colour=GOLD)
    embed.description = tr.text(
        "Roll six dice and set aside scoring dice: 1s, 5s, three of a kind and the combinations in "
        "`/farkle rules`. Then **roll** the rest to add more or **bank** the turn total. A roll with "
        "nothing that scores is a **Farkle**: the turn scores nothing. Score with all six dice and you "
        "have **hot dice**: roll all six again. Reach the target, then everyone gets one last turn."
    )
    for section, names in SECTIONS:
        lines = [f"`/{name}` {tr.term(descriptions[name])}" for name in names if name in descriptions]
        embed.add_field(name=tr.term(section), value="\n".join(lines), inline=False)
    embed.add_field(
        name=tr.text("On your turn"),
        value=tr.text(
            "**Bank all** banks the best of a roll in one tap; to keep fewer dice, tap them (they turn "
            "green), then **Roll** or **Bank**. 💡 **Hint** shows the best play."
        ),
        inline=False,
    )
    return embed


def hint_text(hint: Hint, snapshot: Snapshot, tr: Translator, art: DiceArt = KEYCAP_ART) -> str:
    """The Hint button's private answer: the best keep, roll-on versus bank, the Farkle risk and, in a
    two-player game, the chance to win after each choice."""
    advice = hint.advice
    turn = snapshot.turn
    lines = []
    if advice.keep and turn is not None:
        kept = art.line(tuple(turn.roll[i] for i in advice.keep))
        lines.append(
            tr.text(
                "💡 Keep {dice} for **{points}** (turn total {total}).",
                dice=kept,
                points=tr.points(advice.keep_points),
                total=tr.points(advice.turn_total),
            )
        )
    verbs = {
        "roll": N_("Best play: **Roll on**."),
        "bank": N_("Best play: **Bank now**."),
        "piggyback": N_("Best play: **Piggyback**."),
    }
    lines.append(tr.term(verbs[advice.recommendation]))
    lines.append(
        tr.plural(
            "Rolling {count} die: expect about **{points}** in all.",
            "Rolling {count} dice: expect about **{points}** in all.",
            advice.dice_to_roll,
            points=tr.points(round(advice.expected_if_rolling)),
        )
    )
    if advice.bank_points is not None:
        lines.append(tr.text("Banking now: **{points}** for sure.", points=tr.points(advice.bank_points)))
    lines.append(
        tr.text("Chance the next roll farkles: **{chance}**.", chance=tr.percent(advice.farkle_chance))
    )
    if hint.chances is not None:
        lines.append(f"🏆 {_chances(hint.chances, tr, art)}.")
    elif hint.warming_up:
        lines.append(
            tr.text(
                "🏆 Chances to win: warming up (these rules' win tables are being solved); try again soon."
            )
        )
    return "\n".join(lines)


def _chances(chances: WinAdvice, tr: Translator, art: DiceArt, most: int = 3) -> str:
    """'Bank 650: you win 61.2 %; roll 3 dice: 58.9 %', the best choices first."""
    with_keep = len({choice.keep for choice in chances.choices}) > 1
    parts = []
    for choice in chances.choices[:most]:
        what = choice_words(choice.kind, choice.turn_total, choice.dice, tr)
        if with_keep and choice.keep:
            what = tr.text("keep {dice}, {then}", dice=art.line(choice.keep), then=what)
        parts.append(
            tr.text("{choice}: you win **{percent}**", choice=what, percent=tr.percent(choice.chance))
        )
    text = parts[0]
    for then in parts[1:]:  # "; " is spaced as each language spaces it (French: " ; ")
        text = tr.text("{first}; {then}", first=text, then=then)
    return text[0].upper() + text[1:]
