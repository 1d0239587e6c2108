"""Private answers about playing: the rules summary, `/farkle help` and the Hint button's advice."""

from __future__ import annotations

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

# Every command, by group, with the description its slash command carries (one catalogue entry each).
COMMANDS = (
    (
        N_("Play"),
        (
            ("/farkle new", N_("Open a Farkle lobby in this channel")),
            ("/farkle join", N_("Join the lobby in this channel")),
            ("/farkle leave", N_("Leave the lobby or the game in this channel")),
            ("/farkle start", N_("Start the game (host only)")),
            ("/farkle end", N_("End the lobby or game in this channel (host or Manage Messages)")),
            ("/farkle board", N_("Post the game board again at the bottom of the channel")),
            ("/farkle watch", N_("Follow a game of this server here: its board, read-only")),
            ("/farkle rules", N_("The rules of this channel's game, in plain words")),
            ("/farkle help", N_("How to play Farkle with this bot")),
        ),
    ),
    (
        N_("Statistics"),
        (
            ("/farkle leaderboard", N_("This server's best Farkle players")),
            ("/farkle stats", N_("A member's Farkle numbers in this server")),
            ("/farkle history", N_("The last finished games in this channel or server")),
            ("/farkle replay", N_("A finished game, move by move")),
            ("/farkle review", N_("How well each player of a finished game played")),
            ("/farkle daily", N_("Play today's daily challenge: the same dice for everyone")),
            ("/farkle daily-standings", N_("The best daily scores today or this week")),
            ("/farkle forget-me", N_("Delete your Farkle statistics and your name in past games")),
            ("/farkle reset-leaderboard", N_("Reset this server's leaderboard (Manage Server)")),
        ),
    ),
    (
        N_("Tournaments"),
        (
            ("/farkle tournament new", N_("Open sign-up for a tournament in this channel")),
            ("/farkle tournament start", N_("Close sign-up and start this channel's tournament")),
            ("/farkle tournament list", N_("This server's tournaments, running and past")),
            ("/farkle tournament show", N_("A tournament's card: its bracket or standings")),
            ("/farkle tournament cancel", N_("Cancel a tournament (its host or Manage Server)")),
            ("/farkle tournament advance", N_("Decide a stuck match for one of its players")),
            ("/farkle tournament disqualify", N_("Remove a player from a running tournament")),
        ),
    ),
    (
        N_("Server settings"),
        (
            ("/farkle-config show", N_("This server's Farkle rules and settings")),
            ("/farkle-config preset", N_("Start from one of the preset rulesets")),
            ("/farkle-config set", N_("Change one rule or server setting")),
            ("/farkle-config reset", N_("Put every rule and setting back to the bot's defaults")),
            ("/farkle-config save", N_("Keep the current rules under a name, for /farkle new rules:")),
            ("/farkle-config delete", N_("Forget a saved ruleset")),
            ("/farkle-config default", N_("Make a preset or saved ruleset this server's rules")),
            ("/farkle-config history", N_("Who changed which setting, and when")),
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


def help_embed(tr: Translator) -> discord.Embed:
    embed = discord.Embed(title=tr.text("How to play Farkle"), colour=GOLD)
    embed.description = tr.text(
        "Roll six dice and set aside scoring dice: 1s, 5s, three of a kind and the combinations in "
        "`/farkle rules`. Then **roll** the rest to add more or **bank** the turn total. A roll with "
        "nothing that scores is a **Farkle**: the turn scores nothing. Score with all six dice and you "
        "have **hot dice**: roll all six again. Reach the target, then everyone gets one last turn."
    )
    for group, commands in COMMANDS:
        lines = [f"`{name}` {tr.term(description)}" for name, description in commands]
        embed.add_field(name=tr.term(group), value="\n".join(lines), inline=False)
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
