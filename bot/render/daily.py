"""Drawings of the daily challenge (the private board, the public result, the standings) and of
achievements (the "earned" announcement and the `/farkle stats` section).

A daily button's custom id is `farkle-daily:<day>:<seq>:<action>[:<arg>]`; like a game board's, `seq`
moves only when dice are thrown or a turn passes, and a die says what a tap does (`pick:3` / `drop:3`).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import discord

from bot.core.records import Award, DailyStanding
from bot.engine.daily import DAY_SECONDS, TURNS, TurnEnd
from bot.render.components import Rendered, card, heading, rows
from bot.render.dice import DiceArt
from bot.render.language import Translator
from bot.render.layout import Button, Part, Separator, TextDisplay
from bot.render.parts import title_block
from bot.render.turn import DICE_PER_ROW, aside_text, with_odds
from bot.render.words import FIELD_LIMIT, capped_name, clip
from bot.sessions.achievements import BY_ID
from bot.sessions.daily.attempt import DailyAttempt
from bot.sessions.daily.door import Profile

PREFIX = "farkle-daily"
TEMPLATE = (
    rf"{PREFIX}:(?P<day>[0-9]{{1,6}}):(?P<seq>[0-9a-z-]{{1,8}}):(?P<action>pick|drop|roll|bank)"
    r"(?::(?P<arg>[0-5]))?"
)
TURN_EMOJI: dict[TurnEnd, str] = {"banked": "🟩", "farkled": "🟥", "hot": "🔥"}
DAILY_COLOUR = discord.Colour.blurple()


def day_text(day: int) -> str:
    """The UTC date of a day number, as ISO (2026-11-25): the same in every language."""
    return datetime.datetime.fromtimestamp(day * DAY_SECONDS, datetime.UTC).date().isoformat()


def emoji_line(ends: Sequence[TurnEnd]) -> str:
    """One emoji a turn, spoiler-free: banked, farkled, banked after hot dice; ⬜ for turns not played."""
    return "".join(TURN_EMOJI[end] for end in ends) + "⬜" * (TURNS - len(ends))


def custom_id(attempt: DailyAttempt, action: str, arg: int | None = None) -> str:
    tail = f":{arg}" if arg is not None else ""
    return f"{PREFIX}:{attempt.day}:{attempt.seq}:{action}{tail}"


def daily_board(attempt: DailyAttempt, tr: Translator, art: DiceArt) -> Rendered:
    """The player's private board, drawn like a game's: the turn, the dice set aside with their score,
    the roll as die buttons (green when picked), Roll and Bank with what they would do."""
    header = tr.text(
        "Turn {turn} of {turns} · score {score}",
        turn=min(attempt.turn_number, TURNS),
        turns=TURNS,
        score=tr.points(attempt.score),
    )
    title = tr.text("🗓️ Daily challenge, {date}", date=day_text(attempt.day))
    parts: list[Part] = [
        title_block(title, f"-# {header}"),
        TextDisplay(heading(tr.text("Turns"), emoji_line(attempt.ends))),
        Separator(),
    ]
    if attempt.finished:
        final = heading(tr.text("Final score"), tr.points(attempt.score))
        tomorrow = tr.text("Come back tomorrow for new dice.")
        parts.append(TextDisplay(f"{final}\n-# {tomorrow}"))
        return card(parts, DAILY_COLOUR)
    status = [tr.text("Turn total **{total}**", total=tr.points(attempt.turn_total))]
    aside = aside_text(attempt.set_aside, attempt.turn_total, False, tr, art)
    parts.append(TextDisplay("\n".join([*status, *([aside] if aside else [])])))
    dice = [_die(attempt, art, position, face) for position, face in enumerate(attempt.roll)]
    parts += [*rows(dice, width=DICE_PER_ROW), *rows(_controls(attempt, tr))]
    return card(parts, DAILY_COLOUR)


def _controls(attempt: DailyAttempt, tr: Translator) -> list[Button]:
    """Roll and Bank, labelled with what they would do with the dice picked so far."""
    points, picked = attempt.selection_points, bool(attempt.selected)
    if attempt.roll and points is None:
        roll = bank = tr.text("Doesn't score")
    elif attempt.roll and not picked:
        roll = tr.text("Pick dice to keep")
        bank = tr.text("Bank {points}", points=tr.points(attempt.turn_total))
    else:
        count = attempt.dice_to_roll
        rolling = (
            tr.plural(
                "Roll {count} die (+{points})",
                "Roll {count} dice (+{points})",
                count,
                points=tr.points(points or 0),
            )
            if picked
            else tr.plural("Roll {count} die", "Roll {count} dice", count)
        )
        roll = with_odds(rolling, attempt.farkle_chance, tr)
        bank = tr.text("Bank {points}", points=tr.points(attempt.turn_total + (points or 0)))
    controls = [
        Button(
            label=roll,
            custom_id=custom_id(attempt, "roll"),
            style=discord.ButtonStyle.primary,
            disabled=bool(attempt.roll) and not (picked and points),
        )
    ]
    if attempt.roll:
        controls.append(
            Button(
                label=bank,
                custom_id=custom_id(attempt, "bank"),
                style=discord.ButtonStyle.success,
                disabled=not (picked and points),
            )
        )
    return controls


def _die(attempt: DailyAttempt, art: DiceArt, position: int, face: int) -> Button:
    selected = position in attempt.selected
    label, emoji = art.button(face)
    return Button(
        label=label,
        emoji=emoji,
        custom_id=custom_id(attempt, "drop" if selected else "pick", position),
        style=discord.ButtonStyle.success if selected else discord.ButtonStyle.secondary,
    )


def daily_result(attempt: DailyAttempt, expert: int, tr: Translator) -> str:
    """The public, spoiler-free result: score, how it compares with expert, one emoji a turn."""
    score, versus = tr.points(attempt.score), tr.points(expert)
    if attempt.score > expert:
        comparison = tr.text("beats expert ({points})", points=versus)
    elif attempt.score == expert:
        comparison = tr.text("ties with expert ({points})", points=versus)
    else:
        comparison = tr.text("expert scored {points}", points=versus)
    heading = tr.text(
        "🗓️ **{name}** scored **{score}** on the daily of {date}: {comparison}",
        name=capped_name(attempt.name),
        score=score,
        date=day_text(attempt.day),
        comparison=comparison,
    )
    return f"{heading}\n{emoji_line(attempt.ends)}"


def standings_embed(rows: list[DailyStanding], week: bool, server: bool, tr: Translator) -> discord.Embed:
    if week:
        title = (
            tr.text("🗓️ Daily standings this week (server)")
            if server
            else tr.text("🗓️ Daily standings this week (everyone)")
        )
    else:
        title = (
            tr.text("🗓️ Daily standings today (server)")
            if server
            else tr.text("🗓️ Daily standings today (everyone)")
        )
    lines = [f"**{row.rank}.** {capped_name(row.name)} · {tr.points(row.score)}" for row in rows]
    description = "\n".join(lines) or tr.text("Nobody has finished a daily yet: `/farkle daily`.")
    return discord.Embed(title=title, description=description, colour=DAILY_COLOUR)


def achievement_name(achievement: str, tr: Translator) -> str:
    known = BY_ID.get(achievement)
    return tr.term(known.name) if known is not None else achievement


def awarded_text(name: str, awards: list[Award], tr: Translator) -> str:
    """The announcement of new achievements: one line per achievement, with what earns it."""
    lines = [tr.text("🏅 **{name}** earned:", name=capped_name(name))]
    for award in awards:
        known = BY_ID.get(award.achievement)
        if known is not None:
            lines.append(f"**{tr.term(known.name)}**: {tr.term(known.description)}")
    return clip("\n".join(lines), 2000)


def add_profile(embed: discord.Embed, profile: Profile, tr: Translator) -> None:
    """The `/farkle stats` part of the daily and achievements: streaks, then each achievement and date."""
    embed.add_field(
        name=tr.text("Daily streak"),
        value=tr.text(
            "{current} now · best {best}",
            current=tr.plural("{count} day", "{count} days", profile.current_streak),
            best=tr.plural("{count} day", "{count} days", profile.best_streak),
        ),
        inline=False,
    )
    earned = [
        f"🏅 {achievement_name(award.achievement, tr)} · {day_text(int(award.earned_at // DAY_SECONDS))}"
        for award in profile.awards
    ]
    embed.add_field(
        name=tr.text("Achievements ({count})", count=len(profile.awards)),
        value=clip("\n".join(earned), FIELD_LIMIT) if earned else tr.text("None yet."),
        inline=False,
    )
