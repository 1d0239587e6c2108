"""Pure functions from a session snapshot to the embed and buttons players see. No I/O."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.engine import LEVELS, Ruleset
from bot.engine.master import WinAdvice, plays_as_expert
from bot.render.components import ButtonRef, FarkleButton
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.words import FIELD_LIMIT, TITLE_LIMIT, capped_name, clip, describe, percent, points
from bot.sessions.actions import ButtonAction
from bot.sessions.outcome import Hint
from bot.sessions.session import SeatView, Snapshot

GOLD = discord.Colour.gold()
RECENT_LINES = 5
TEAM_NAMES = ("Red", "Blue", "Green", "Yellow")


@dataclass(frozen=True)
class Rendered:
    """What one message shows; an empty view clears the message's buttons."""

    embed: discord.Embed
    view: discord.ui.View


def render(snapshot: Snapshot, art: DiceArt = KEYCAP_ART) -> Rendered:
    if snapshot.stage == "lobby":
        return lobby(snapshot)
    if snapshot.stage == "closed":
        return closed(snapshot)
    if snapshot.stage == "over":
        return results(snapshot)
    return board(snapshot, art)


def _button(snapshot: Snapshot, action: ButtonAction, label: str | None, **kwargs: object) -> FarkleButton:
    arg = kwargs.pop("arg", None)
    ref = ButtonRef(snapshot.game_id, snapshot.seq, action, None if arg is None else str(arg))
    return FarkleButton(ref, label=label, **kwargs)  # type: ignore[arg-type]


def _view(*buttons: FarkleButton) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


def _title(snapshot: Snapshot, what: str) -> str:
    return f"🎲 Farkle {what} · {snapshot.rules.name} rules"


def _names(snapshot: Snapshot) -> Callable[[str | int | None], str]:
    """Seat names as drawn: a payload's display name can be far longer than Discord's own limit."""
    return lambda player: capped_name(snapshot.name_of(player))


def team_name(team: int | None) -> str:
    return TEAM_NAMES[(team or 1) - 1]


# ---------------------------------------------------------------------- lobby


def lobby(snapshot: Snapshot) -> Rendered:
    rules = snapshot.rules
    lines = [
        f"{'👑 ' if seat.user_id == snapshot.host_id else '• '}{capped_name(seat.name)}"
        + (f" · {team_name(seat.team)} team" if rules.teams else "")
        for seat in snapshot.seats
    ]
    embed = discord.Embed(title=_title(snapshot, "lobby"), colour=GOLD)
    embed.description = (
        f"Target **{points(rules.target)}** · {rules.min_players}–{snapshot.max_players} players\n"
        f"Press **Join** to play; the host presses **Start**."
    )
    embed.add_field(
        name=f"Players ({len(snapshot.seats)}/{snapshot.max_players})",
        value="\n".join(lines) or "Nobody yet",
        inline=False,
    )
    if any(seat.computer == "master" for seat in snapshot.seats):
        reason = plays_as_expert(rules, len(snapshot.seats))
        if reason is not None:
            embed.description += f"\n🧠 Master plays as expert {reason}."
    if snapshot.deadline:
        embed.add_field(name="Expires", value=f"<t:{int(snapshot.deadline)}:R> without a start", inline=False)
    embed.set_footer(text=f"Game {snapshot.game_id} · /farkle rules shows every rule")
    if rules.teams:
        joins = [
            _button(
                snapshot,
                ButtonAction.TEAM,
                f"Join {team_name(t)}",
                arg=t,
                style=discord.ButtonStyle.primary,
                row=0,
            )
            for t in range(1, rules.teams + 1)
        ]
    else:
        joins = [_button(snapshot, ButtonAction.JOIN, "Join", style=discord.ButtonStyle.primary, row=0)]
    controls = [
        _button(snapshot, ButtonAction.LEAVE, "Leave", row=0),
        _button(snapshot, ButtonAction.START, "Start", style=discord.ButtonStyle.success, row=1),
        _button(snapshot, ButtonAction.CANCEL, "Cancel", style=discord.ButtonStyle.danger, row=1),
    ]
    computers = [
        _button(snapshot, ButtonAction.CPU, f"Add computer: {level}", arg=level, row=2)
        for level in LEVELS
        if not rules.teams
    ]
    return Rendered(embed, _view(*joins, *controls, *computers))


# ---------------------------------------------------------------------- board


def _standing(snapshot: Snapshot, seat: SeatView) -> str:
    marker = "▶️" if seat.user_id == snapshot.current else ("🛟" if seat.safe else "▫️")
    name = capped_name(seat.name)
    bits = [f"{marker} **{name}**" if seat.active else f"~~{name}~~ (out)"]
    if snapshot.rules.teams:
        bits.append(f"{team_name(seat.team)} team")
    else:
        bits.append(points(seat.bank))
    if snapshot.rules.entry_minimum and not seat.on_board:
        bits.append("not on the board")
    if seat.farkle_streak:
        bits.append("💥" * seat.farkle_streak)
    return " · ".join(bits)


def _team_banks(snapshot: Snapshot) -> str:
    banks: dict[int, int] = {}
    for seat in snapshot.seats:
        banks[seat.team or 1] = seat.bank
    return "\n".join(f"**{team_name(team)}**: {points(bank)}" for team, bank in sorted(banks.items()))


def recent_lines(snapshot: Snapshot) -> list[str]:
    lines = [describe(event, _names(snapshot)) for event in snapshot.recent]
    return [line for line in lines if line][-RECENT_LINES:]


def board(snapshot: Snapshot, art: DiceArt = KEYCAP_ART) -> Rendered:
    turn, current, preview = snapshot.turn, snapshot.current_seat, snapshot.preview
    assert turn is not None and preview is not None
    name = capped_name(current.name) if current else "Nobody"
    embed = discord.Embed(title=_title(snapshot, "game"), colour=GOLD)
    status = [f"**{name}'s turn** · turn total **{points(turn.total)}**"]
    if snapshot.final_round:
        status.append("🏁 Final round")
    if snapshot.deadline and current and not current.computer:
        status.append(f"⏱️ <t:{int(snapshot.deadline)}:R>")
    embed.description = " · ".join(status)
    if preview.bank_blocked and turn.roll:
        embed.description += f"\n🔒 {preview.bank_blocked}"  # why Bank is disabled for this selection
    if turn.roll:
        picked = " ".join("✅" if i in snapshot.selection else "⬛" for i in range(len(turn.roll)))
        embed.add_field(name="Roll", value=f"{art.line(turn.roll)}\n{picked}", inline=False)
    embed.add_field(name="Set aside this turn", value=art.line(turn.set_aside, FIELD_LIMIT), inline=True)
    if snapshot.next_farkle_chance is not None:
        embed.add_field(
            name="Next roll",
            value=f"{preview.dice_to_roll} dice · {percent(snapshot.next_farkle_chance)} Farkle chance",
            inline=True,
        )
    if snapshot.rules.teams:
        embed.add_field(name="Team banks", value=_team_banks(snapshot), inline=False)
    embed.add_field(
        name="Standings", value="\n".join(_standing(snapshot, s) for s in snapshot.seats), inline=False
    )
    recent = recent_lines(snapshot)
    if recent:
        embed.add_field(name="Latest", value="\n".join(recent), inline=False)
    embed.set_footer(
        text=f"Game {snapshot.game_id} · move {snapshot.version} · first to {snapshot.rules.target:,}"
    )
    return Rendered(embed, _view(*_turn_buttons(snapshot, art)))


def _die_button(snapshot: Snapshot, art: DiceArt, i: int, face: int) -> FarkleButton:
    """A die of the roll: its face, highlighted while selected; a tap means the same twice (pick, drop)."""
    selected = i in snapshot.selection
    label, emoji = art.button(face)
    return _button(
        snapshot,
        ButtonAction.DROP if selected else ButtonAction.PICK,
        label,
        emoji=emoji,
        arg=i,
        row=i // 3,
        style=discord.ButtonStyle.success if selected else discord.ButtonStyle.secondary,
    )


def _turn_buttons(snapshot: Snapshot, art: DiceArt) -> list[FarkleButton]:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    buttons = [_die_button(snapshot, art, i, face) for i, face in enumerate(turn.roll)]
    if not turn.roll and turn.piggyback_dice is None:
        roll_label = f"Roll {preview.dice_to_roll} dice"
    elif not turn.roll:
        roll_label = "Roll 6 fresh dice"
    elif preview.points:
        roll_label = f"Roll {preview.dice_to_roll} dice (+{points(preview.points)})"
    else:
        roll_label = "Pick dice to keep"
    buttons.append(
        _button(
            snapshot,
            ButtonAction.ROLL,
            roll_label,
            style=discord.ButtonStyle.primary,
            row=2,
            disabled=not preview.can_roll,
        )
    )
    if turn.piggyback_dice is not None and not turn.roll:
        buttons.append(
            _button(snapshot, ButtonAction.PIGGYBACK, f"Piggyback on {turn.piggyback_dice} dice", row=2)
        )
    bank_total = preview.turn_total if preview.points or not turn.roll else turn.total
    buttons.append(
        _button(
            snapshot,
            ButtonAction.BANK,
            f"Bank {points(bank_total)}",
            style=discord.ButtonStyle.success,
            row=2,
            disabled=not preview.can_bank,
        )
    )
    if snapshot.hints:
        buttons.append(_button(snapshot, ButtonAction.HINT, "Hint", emoji="💡", row=2))
    return buttons


# ---------------------------------------------------------------------- end


def results(snapshot: Snapshot) -> Rendered:
    name_of = _names(snapshot)
    winners = [name_of(w) for w in snapshot.winners]
    headline = clip(" and ".join(winners), TITLE_LIMIT - 10) if winners else "Nobody"
    embed = discord.Embed(title=f"🏆 {headline} {'wins' if len(winners) == 1 else 'win'}!", colour=GOLD)
    banks = {seat.user_id: seat.bank for seat in snapshot.seats}
    lines = []
    for place, group in enumerate(snapshot.placements, start=1):
        for user_id in group:
            lines.append(f"**{place}.** {name_of(user_id)} · {points(banks.get(user_id, 0))}")
    embed.add_field(name="Final standings", value="\n".join(lines) or "—", inline=False)
    recent = recent_lines(snapshot)
    if recent:
        embed.add_field(name="Last moves", value="\n".join(recent), inline=False)
    embed.set_footer(
        text=f"Game {snapshot.game_id} · {snapshot.rules.name} rules · press Rematch to play again"
    )
    return Rendered(
        embed, _view(_button(snapshot, ButtonAction.REMATCH, "Rematch", style=discord.ButtonStyle.primary))
    )


_CLOSED = {
    "expired": "This lobby expired: nobody started it in time.",
    "cancelled": "The host cancelled this lobby.",
    "ended": "This game was ended before anyone won; it does not count.",
    "empty": "Everyone left the lobby.",
}


def closed(snapshot: Snapshot) -> Rendered:
    embed = discord.Embed(title=_title(snapshot, "closed"), colour=discord.Colour.dark_grey())
    embed.description = _CLOSED.get(snapshot.end_reason or "", "This game is closed.")
    return Rendered(embed, _view())


# ---------------------------------------------------------------------- reference


def rules_embed(rules: Ruleset, *, title: str) -> discord.Embed:
    embed = discord.Embed(title=title, colour=GOLD)
    for section, lines in rules.summary_sections():
        embed.add_field(name=section, value="\n".join(f"• {line}" for line in lines) or "—", inline=False)
    return embed


def help_embed() -> discord.Embed:
    embed = discord.Embed(title="How to play Farkle", colour=GOLD)
    embed.description = (
        "Roll six dice and set aside scoring dice: 1s, 5s, three of a kind and the combinations in "
        "`/farkle rules`. Then **roll** the rest to add more or **bank** the turn total. A roll with "
        "nothing that scores is a **Farkle**: the turn scores nothing. Score with all six dice and you "
        "have **hot dice**: roll all six again. Reach the target, then everyone gets one last turn."
    )
    embed.add_field(
        name="Commands",
        value=(
            "`/farkle new` open a lobby · `/farkle join` · `/farkle leave` · `/farkle start`\n"
            "`/farkle board` bring the board back down · `/farkle rules` · `/farkle end`"
        ),
        inline=False,
    )
    embed.add_field(
        name="On your turn",
        value="Tap dice to select them (✅), then **Roll** or **Bank**. 💡 **Hint** shows the best play.",
        inline=False,
    )
    return embed


def moved_board() -> Rendered:
    """What an old board becomes when `/farkle board` posts a fresh one below."""
    embed = discord.Embed(description="The board moved down ⬇️", colour=discord.Colour.dark_grey())
    return Rendered(embed, _view())


def hint_text(hint: Hint, snapshot: Snapshot, art: DiceArt = KEYCAP_ART) -> str:
    """The Hint button's private answer: the best keep, roll-on versus bank, the Farkle risk and, in a
    two-player game, the chance to win after each choice."""
    advice = hint.advice
    turn = snapshot.turn
    lines = []
    if advice.keep and turn is not None:
        kept = art.line(tuple(turn.roll[i] for i in advice.keep))
        lines.append(
            f"💡 Keep {kept} for **{points(advice.keep_points)}** (turn total {points(advice.turn_total)})."
        )
    verb = {"roll": "Roll on", "bank": "Bank now", "piggyback": "Piggyback"}[advice.recommendation]
    lines.append(f"Best play: **{verb}**.")
    lines.append(
        f"Rolling {advice.dice_to_roll} dice: expect about **{advice.expected_if_rolling:,.0f}** in all."
    )
    if advice.bank_points is not None:
        lines.append(f"Banking now: **{points(advice.bank_points)}** for sure.")
    lines.append(f"Chance the next roll farkles: **{percent(advice.farkle_chance)}**.")
    if hint.chances is not None:
        lines.append(f"🏆 {_chances(hint.chances, art)}.")
    elif hint.warming_up:
        lines.append(
            "🏆 Chances to win: warming up (these rules' win tables are being solved); try again soon."
        )
    return "\n".join(lines)


def _chances(chances: WinAdvice, art: DiceArt, most: int = 3) -> str:
    """'Bank 650: you win 61.2 %; roll 3 dice: 58.9 %', the best choices first."""
    with_keep = len({choice.keep for choice in chances.choices}) > 1
    parts = []
    for choice in chances.choices[:most]:
        kept = f"keep {art.line(choice.keep)}, " if with_keep and choice.keep else ""
        if choice.kind == "bank":
            what = f"bank {points(choice.turn_total)}"
        elif choice.kind == "piggyback":
            what = f"piggyback on {choice.dice} dice"
        else:
            what = f"roll {choice.dice} dice"
        parts.append(f"{kept}{what}: you win **{choice.chance * 100:.1f} %**")
    text = "; ".join(parts)
    return text[0].upper() + text[1:]
