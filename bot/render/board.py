"""Pure functions from a session snapshot to the Components V2 card players see: lobby and game.

Designed for a phone first: one accent-coloured container, read top to bottom: the header (rules and
target), the scoreboard with a bar to the target, how the last turn ended, whose turn it is with the dice
set aside, the roll as buttons, Roll and Bank, the last few moves (the turn itself: `render.turn`).
Results and closed games are drawn by `render.results`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.core.records import SKILL_MINIMUM
from bot.engine import LEVELS
from bot.engine.master import plays_as_expert
from bot.render.components import Rendered, card, heading, rows
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.layout import Button, Part, Section, Separator, TextDisplay
from bot.render.levels import with_skill
from bot.render.parts import game_button, level_name, names, seat_name, team_name, title_block
from bot.render.turn import last_turn, set_aside_line, turn_rows
from bot.render.words import describe, rules_name
from bot.sessions.actions import ButtonAction
from bot.sessions.session import SeatView, Snapshot
from bot.sessions.skill_levels import YOUR_LEVEL, your_level

RECENT_LINES = 5
BAR_CELLS = 8
BARS_UP_TO = 4  # players: a longer table's lines would wrap on a 390-px phone with a bar each


def recent_lines(snapshot: Snapshot, tr: Translator, hide: frozenset[int] = frozenset()) -> list[str]:
    """The last notable moves, leaving out those the board shows elsewhere (`hide`: their indices)."""
    name_of = names(snapshot, tr)
    lines = [describe(event, name_of, tr) for i, event in enumerate(snapshot.recent) if i not in hide]
    return [line for line in lines if line][-RECENT_LINES:]


def countdown(deadline: float) -> str:
    """A deadline as Discord's relative timestamp, to the nearest second (a float's fraction is not
    dropped: truncating drew a deadline up to a second early)."""
    return f"<t:{round(deadline)}:R>"


# ---------------------------------------------------------------------- lobby


def lobby(snapshot: Snapshot, tr: Translator, more: Sequence[Button] = ()) -> Rendered:
    """`more`: buttons after Join, Leave, Start and Cancel."""
    rules = snapshot.rules
    lines = [
        f"{'👑 ' if seat.user_id == snapshot.host_id else '• '}{seat_name(seat, tr)}"
        + (" · " + tr.text("{team} team", team=team_name(seat.team, tr)) if rules.teams else "")
        for seat in snapshot.seats
    ]
    about = [
        tr.text(
            "Target **{target}** · {least}–{most} players\n"
            "Press **Join** to play; the host presses **Start** (✖️ removes a computer).",
            target=tr.points(rules.target),
            least=rules.min_players,
            most=snapshot.max_players,
        )
    ]
    if snapshot.host_skill is None and not rules.teams:
        about.append(
            tr.text(
                "🎯 *Your level* plays at normal's skill until the host has {count} decisions reviewed.",
                count=SKILL_MINIMUM,
            )
        )
    if any(seat.computer == "master" for seat in snapshot.seats):
        reason = plays_as_expert(rules, len(snapshot.seats))
        if reason is not None:
            about.append(tr.say(reason))
    players = tr.text("Players ({count}/{most})", count=len(snapshot.seats), most=snapshot.max_players)
    blocks = [heading(players, "\n".join(lines) or tr.text("Nobody yet"))]
    if snapshot.deadline:
        when = tr.text("{when} without a start", when=countdown(snapshot.deadline))
        blocks.append(heading(tr.text("Expires"), when))
    footer = tr.text("Game {game} · /farkle rules shows every rule", game=snapshot.game_id)
    parts: list[Part] = [
        title_block(tr.text("🎲 Farkle lobby · {rules} rules", rules=rules_name(rules.name, tr)), *about),
        Separator(),
        TextDisplay("\n\n".join(blocks)),
        *_lobby_rows(snapshot, tr, more),
        TextDisplay(f"-# {footer}"),
    ]
    return card(parts)


def _lobby_rows(snapshot: Snapshot, tr: Translator, more: Sequence[Button]) -> list[Part]:
    """Joining and starting in one row (two with four teams), adding computers in the next."""
    rules = snapshot.rules
    if rules.teams:
        joins = [
            game_button(
                snapshot,
                ButtonAction.TEAM,
                tr.text("Join {team}", team=team_name(t, tr)),
                arg=t,
                style=discord.ButtonStyle.primary,
            )
            for t in range(1, rules.teams + 1)
        ]
    else:
        joins = [game_button(snapshot, ButtonAction.JOIN, tr.text("Join"), style=discord.ButtonStyle.primary)]
    controls = [
        game_button(snapshot, ButtonAction.LEAVE, tr.text("Leave")),
        game_button(snapshot, ButtonAction.START, tr.text("Start"), style=discord.ButtonStyle.success),
        game_button(snapshot, ButtonAction.CANCEL, tr.text("Cancel"), style=discord.ButtonStyle.danger),
    ]
    computers = [
        game_button(
            snapshot,
            ButtonAction.CPU,
            tr.text("Add computer: {level}", level=with_skill(level, level_name(level, tr), tr)),
            arg=level,
        )
        for level in LEVELS
        if not rules.teams
    ]
    if not rules.teams:
        level = tr.text("your level · skill {skill}", skill=your_level(snapshot.host_skill))
        computers.append(
            game_button(
                snapshot, ButtonAction.CPU, tr.text("Add computer: {level}", level=level), arg=YOUR_LEVEL
            )
        )
    removals = [
        game_button(snapshot, ButtonAction.UNSEAT, seat_name(seat, tr), emoji="✖️", arg=-seat.user_id)
        for seat in snapshot.seats
        if seat.computer is not None
    ]
    return [*rows([*joins, *controls, *more]), *rows(computers), *rows(removals, width=4)]


# ---------------------------------------------------------------------- board


def bar(bank: int, target: int) -> str:
    """How close a bank is to the target, in eight cells."""
    filled = max(0, min(BAR_CELLS, bank * BAR_CELLS // max(target, 1)))
    return "▰" * filled + "▱" * (BAR_CELLS - filled)


def _standing(snapshot: Snapshot, seat: SeatView, tr: Translator) -> str:
    marker = "▶️" if seat.user_id == snapshot.current else ("🛟" if seat.safe else "▫️")
    name = seat_name(seat, tr)
    bits = [f"{marker} **{name}**" if seat.active else tr.text("~~{name}~~ (out)", name=name)]
    if snapshot.rules.teams:
        bits.append(tr.text("{team} team", team=team_name(seat.team, tr)))
    else:
        bits.append(tr.points(seat.bank))
        if len(snapshot.seats) <= BARS_UP_TO:
            bits[-1] += f" {bar(seat.bank, snapshot.rules.target)}"
    if snapshot.rules.entry_minimum and not seat.on_board:
        bits.append(tr.text("not on the board"))
    if seat.farkle_streak:
        bits.append("💥" * seat.farkle_streak)
    return " · ".join(bits)


def _team_banks(snapshot: Snapshot, tr: Translator) -> str:
    banks: dict[int, int] = {}
    for seat in snapshot.seats:
        banks[seat.team or 1] = seat.bank
    target = snapshot.rules.target
    return "\n".join(
        f"**{team_name(team, tr)}**: {tr.points(bank)} {bar(bank, target)}"
        for team, bank in sorted(banks.items())
    )


def header_line(snapshot: Snapshot, tr: Translator) -> str:
    footer = tr.text(
        "Game {game} · move {move} · first to {target}",
        game=snapshot.game_id,
        move=snapshot.version,
        target=tr.points(snapshot.rules.target),
    )
    return f"-# {footer}"


def _status(snapshot: Snapshot, tr: Translator) -> str:
    turn, current = snapshot.turn, snapshot.current_seat
    assert turn is not None
    total = tr.points(turn.total)
    if current:
        status = [
            tr.text("**{name}'s turn** · turn total **{total}**", name=seat_name(current, tr), total=total)
        ]
    else:
        status = [tr.text("**Nobody's turn** · turn total **{total}**", total=total)]
    if snapshot.final_round:
        status.append(tr.text("🏁 Final round"))
    if snapshot.deadline and current and not current.computer:
        status.append(f"⏱️ {countdown(snapshot.deadline)}")
    return " · ".join(status)


def board(
    snapshot: Snapshot,
    tr: Translator,
    art: DiceArt = KEYCAP_ART,
    extra_lines: Sequence[str] = (),
    *,
    watching: bool = False,
    more: Sequence[Button] = (),
) -> Rendered:
    """A game in play; `extra_lines` go under the turn's numbers (other features' one-liners), `more`
    buttons after Roll and Bank."""
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    title = tr.text("🎲 Farkle game · {rules} rules", rules=rules_name(snapshot.rules.name, tr))
    scores = [heading(tr.text("Standings"), "\n".join(_standing(snapshot, s, tr) for s in snapshot.seats))]
    if snapshot.rules.teams:
        scores.insert(0, heading(tr.text("Team banks"), _team_banks(snapshot, tr)))
    ended = last_turn(snapshot, tr, art, names(snapshot, tr))
    play = [_status(snapshot, tr)]
    if preview.bank_blocked and turn.roll:
        play.append(f"🔒 {tr.say(preview.bank_blocked)}")  # why Bank is disabled for this selection
    play.extend(extra_lines)
    aside = set_aside_line(snapshot, tr, art)
    if aside:
        play.append(aside)
    parts: list[Part] = [
        title_block(title, header_line(snapshot, tr)),
        TextDisplay("\n\n".join(scores)),
        Separator(),
        *([TextDisplay(ended.block)] if ended.block else []),
        _with_hint(snapshot, tr, "\n".join(play)),
        *turn_rows(snapshot, tr, art, watching=watching, more=more),
    ]
    recent = recent_lines(snapshot, tr, ended.shown)
    if recent:
        parts += [Separator(), TextDisplay(heading(tr.text("Latest"), "\n".join(recent)))]
    return card(parts)


def _with_hint(snapshot: Snapshot, tr: Translator, text: str) -> Part:
    """Whose turn it is, with the Hint button beside it when the server allows hints."""
    if not snapshot.hints:
        return TextDisplay(text)
    hint = game_button(snapshot, ButtonAction.HINT, tr.text("Hint"), emoji="💡")
    return Section(TextDisplay(text), accessory=hint)
