"""Pure functions from a session snapshot to the Components V2 card players see: lobby and game.

Designed for a phone first: one accent-coloured container, read top to bottom: the header (rules and
target), the scoreboard with a bar to the target, whose turn it is, the roll, the dice set aside, the
buttons, the last few moves. Results and closed games are drawn by `render.results`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord
from discord import ui

from bot.engine import LEVELS, Event
from bot.engine.events import Farkled, HotDice, Kept, Rolled
from bot.engine.master import plays_as_expert
from bot.engine.messages import N_
from bot.render.components import Button, ButtonRef, Part, Rendered, card, heading, rows
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.levels import with_skill
from bot.render.words import capped_name, clip, describe, rules_name
from bot.sessions.actions import ButtonAction
from bot.sessions.session import SeatView, Snapshot

RECENT_LINES = 5
BAR_CELLS = 8
TITLE_LIMIT = 256
TEAM_NAMES = (N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"))
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "expert": N_("expert"), "master": N_("master")}


def game_button(snapshot: Snapshot, action: ButtonAction, label: str | None, **kwargs: object) -> Button:
    """A plain button with the game's custom id: the board edge answers it on any message."""
    arg = kwargs.pop("arg", None)
    ref = ButtonRef(snapshot.game_id, snapshot.seq, action, None if arg is None else str(arg))
    return Button(label=label, custom_id=ref.custom_id, **kwargs)  # type: ignore[arg-type]


def seat_name(seat: SeatView, tr: Translator) -> str:
    """A seat as drawn: a member's display name, capped (a payload's can be far longer than Discord's own
    limit); a computer named in the reader's language ("Computer 1 (normal)" is how the session stores it)."""
    if seat.computer is None:
        return capped_name(seat.name)
    level = tr.term(LEVEL_NAMES.get(seat.computer, seat.computer))
    return tr.text("Computer {number} ({level})", number=-seat.user_id, level=level)


def names(snapshot: Snapshot, tr: Translator) -> Callable[[str | int | None], str]:
    """Player ids (as events carry them) to seat names as drawn."""
    seats = {str(seat.user_id): seat for seat in snapshot.seats}

    def name_of(player: str | int | None) -> str:
        seat = seats.get(str(player))
        return seat_name(seat, tr) if seat is not None else tr.text("someone")

    return name_of


def team_name(team: int | None, tr: Translator) -> str:
    return tr.term(TEAM_NAMES[(team or 1) - 1])


def title_block(title: str, *lines: str) -> ui.TextDisplay[ui.LayoutView]:
    """The card's header: a large title, then its lines."""
    return ui.TextDisplay("\n".join([f"### {clip(title, TITLE_LIMIT)}", *lines]))


def recent_lines(snapshot: Snapshot, tr: Translator) -> list[str]:
    lines = [describe(event, names(snapshot, tr), tr) for event in snapshot.recent]
    return [line for line in lines if line][-RECENT_LINES:]


# ---------------------------------------------------------------------- lobby


def lobby(snapshot: Snapshot, tr: Translator) -> Rendered:
    rules = snapshot.rules
    lines = [
        f"{'👑 ' if seat.user_id == snapshot.host_id else '• '}{seat_name(seat, tr)}"
        + (" · " + tr.text("{team} team", team=team_name(seat.team, tr)) if rules.teams else "")
        for seat in snapshot.seats
    ]
    about = [
        tr.text(
            "Target **{target}** · {least}–{most} players\n"
            "Press **Join** to play; the host presses **Start**.",
            target=tr.points(rules.target),
            least=rules.min_players,
            most=snapshot.max_players,
        )
    ]
    if any(seat.computer == "master" for seat in snapshot.seats):
        reason = plays_as_expert(rules, len(snapshot.seats))
        if reason is not None:
            about.append(tr.say(reason))
    players = tr.text("Players ({count}/{most})", count=len(snapshot.seats), most=snapshot.max_players)
    blocks = [heading(players, "\n".join(lines) or tr.text("Nobody yet"))]
    if snapshot.deadline:
        when = tr.text("{when} without a start", when=f"<t:{int(snapshot.deadline)}:R>")
        blocks.append(heading(tr.text("Expires"), when))
    footer = tr.text("Game {game} · /farkle rules shows every rule", game=snapshot.game_id)
    parts: list[Part] = [
        title_block(tr.text("🎲 Farkle lobby · {rules} rules", rules=rules_name(rules.name, tr)), *about),
        ui.Separator(),
        ui.TextDisplay("\n\n".join(blocks)),
        *_lobby_rows(snapshot, tr),
        ui.TextDisplay(f"-# {footer}"),
    ]
    return card(parts)


def _lobby_rows(snapshot: Snapshot, tr: Translator) -> list[Part]:
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
            tr.text("Add computer: {level}", level=with_skill(level, tr.term(LEVEL_NAMES[level]), tr)),
            arg=level,
        )
        for level in LEVELS
        if not rules.teams
    ]
    return [*rows([*joins, *controls]), *rows(computers)]


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
        bits.append(f"{tr.points(seat.bank)} {bar(seat.bank, snapshot.rules.target)}")
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
        status.append(f"⏱️ <t:{int(snapshot.deadline)}:R>")
    return " · ".join(status)


def _six_kept(recent: tuple[Event, ...], index: int) -> tuple[int, ...]:
    """The dice set aside before `recent[index]` (a hot dice), back to the last six."""
    kept: list[int] = []
    for earlier in reversed(recent[:index]):
        if isinstance(earlier, Kept):
            kept[:0] = earlier.dice
        if len(kept) >= 6:
            break
    return tuple(kept[-6:])


def last_throw(snapshot: Snapshot) -> tuple[Farkled | HotDice, tuple[int, ...]] | None:
    """What ended the last throw, with its dice: a Farkle and the roll that farkled, shown until the
    next roll is thrown; hot dice and the six dice that scored, shown with the fresh roll they earned."""
    recent = snapshot.recent
    rolls = 0
    for index in range(len(recent) - 1, -1, -1):
        event = recent[index]
        if isinstance(event, Rolled):
            rolls += 1
            if rolls > 1:
                return None
        elif isinstance(event, Farkled) and rolls == 0:
            rolled = next((e for e in reversed(recent[:index]) if isinstance(e, Rolled)), None)
            return (event, rolled.dice) if rolled is not None else None
        elif isinstance(event, HotDice):
            return event, _six_kept(recent, index)
    return None


def _throw_block(snapshot: Snapshot, tr: Translator, art: DiceArt) -> str | None:
    """The roll on the table, with the hot dice that earned it; or the Farkle that ended the turn."""
    turn = snapshot.turn
    assert turn is not None
    shown = last_throw(snapshot)
    said = ""
    if shown is not None:
        event, dice = shown
        said = f"{art.line(dice)}\n{describe(event, names(snapshot, tr), tr) or ''}"
        if isinstance(event, Farkled):
            return heading(tr.text("Farkle!"), said)
    if turn.roll:
        picked = " ".join("✅" if i in snapshot.selection else "⬛" for i in range(len(turn.roll)))
        roll = heading(tr.text("Roll"), f"{art.line(turn.roll)}\n{picked}")
        return f"{heading(tr.text('Hot dice!'), said)}\n\n{roll}" if said else roll
    return None


def board(
    snapshot: Snapshot, tr: Translator, art: DiceArt = KEYCAP_ART, extra_lines: Sequence[str] = ()
) -> Rendered:
    """A game in play; `extra_lines` go under the turn's numbers (other features' one-liners)."""
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    title = tr.text("🎲 Farkle game · {rules} rules", rules=rules_name(snapshot.rules.name, tr))
    scores = [heading(tr.text("Standings"), "\n".join(_standing(snapshot, s, tr) for s in snapshot.seats))]
    if snapshot.rules.teams:
        scores.insert(0, heading(tr.text("Team banks"), _team_banks(snapshot, tr)))
    play = [_status(snapshot, tr)]
    if preview.bank_blocked and turn.roll:
        play.append(f"🔒 {tr.say(preview.bank_blocked)}")  # why Bank is disabled for this selection
    play.extend(extra_lines)
    blocks = [block for block in (_throw_block(snapshot, tr, art),) if block]
    if turn.set_aside:
        blocks.append(heading(tr.text("Set aside this turn"), art.line(turn.set_aside)))
    if snapshot.next_farkle_chance is not None:
        chance = tr.plural(
            "{count} die · {chance} Farkle chance",
            "{count} dice · {chance} Farkle chance",
            preview.dice_to_roll,
            chance=tr.percent(snapshot.next_farkle_chance),
        )
        blocks.append(heading(tr.text("Next roll"), chance))
    parts: list[Part] = [
        title_block(title, header_line(snapshot, tr)),
        ui.TextDisplay("\n\n".join(scores)),
        ui.Separator(),
        _with_hint(snapshot, tr, "\n".join(play)),
        ui.TextDisplay("\n\n".join(blocks)),
        *_turn_rows(snapshot, tr, art),
    ]
    recent = recent_lines(snapshot, tr)
    if recent:
        parts += [ui.Separator(), ui.TextDisplay(heading(tr.text("Latest"), "\n".join(recent)))]
    return card(parts)


def _with_hint(snapshot: Snapshot, tr: Translator, text: str) -> Part:
    """Whose turn it is, with the Hint button beside it when the server allows hints."""
    if not snapshot.hints:
        return ui.TextDisplay(text)
    hint = game_button(snapshot, ButtonAction.HINT, tr.text("Hint"), emoji="💡")
    return ui.Section(ui.TextDisplay(text), accessory=hint)


def _die_button(snapshot: Snapshot, art: DiceArt, i: int, face: int) -> Button:
    """A die of the roll: its face, highlighted while selected; a tap means the same twice (pick, drop)."""
    selected = i in snapshot.selection
    label, emoji = art.button(face)
    return game_button(
        snapshot,
        ButtonAction.DROP if selected else ButtonAction.PICK,
        label,
        emoji=emoji,
        arg=i,
        style=discord.ButtonStyle.success if selected else discord.ButtonStyle.secondary,
    )


def _scores(snapshot: Snapshot) -> bool:
    """Whether the dice selected so far score (nothing selected yet is not a mistake)."""
    preview = snapshot.preview
    return preview is not None and not (snapshot.selection and preview.error)


def _roll_label(snapshot: Snapshot, tr: Translator) -> str:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if not turn.roll and turn.piggyback_dice is None:
        return tr.plural("Roll {count} die", "Roll {count} dice", preview.dice_to_roll)
    if not turn.roll:
        return tr.text("Roll 6 fresh dice")
    if not _scores(snapshot):
        return tr.text("Doesn't score")
    if preview.points:
        return tr.plural(
            "Roll {count} die (+{points})",
            "Roll {count} dice (+{points})",
            preview.dice_to_roll,
            points=tr.points(preview.points),
        )
    return tr.text("Pick dice to keep")


def _bank_label(snapshot: Snapshot, tr: Translator) -> str:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if turn.roll and not _scores(snapshot):
        return tr.text("Doesn't score")
    total = preview.turn_total if preview.points or not turn.roll else turn.total
    return tr.text("Bank {points}", points=tr.points(total))


def _turn_rows(snapshot: Snapshot, tr: Translator, art: DiceArt) -> list[Part]:
    """Dice in rows of three (thumb-sized on a phone), then Roll / Piggyback / Bank."""
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    dice = [_die_button(snapshot, art, i, face) for i, face in enumerate(turn.roll)]
    controls = [
        game_button(
            snapshot,
            ButtonAction.ROLL,
            _roll_label(snapshot, tr),
            style=discord.ButtonStyle.primary,
            disabled=not preview.can_roll,
        )
    ]
    if turn.piggyback_dice is not None and not turn.roll:
        label = tr.plural("Piggyback on {count} die", "Piggyback on {count} dice", turn.piggyback_dice)
        controls.append(game_button(snapshot, ButtonAction.PIGGYBACK, label))
    controls.append(
        game_button(
            snapshot,
            ButtonAction.BANK,
            _bank_label(snapshot, tr),
            style=discord.ButtonStyle.success,
            disabled=not preview.can_bank,
        )
    )
    return [*rows(dice, width=3), *rows(controls)]
