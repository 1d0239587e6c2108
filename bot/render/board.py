"""Pure functions from a session snapshot to the embed and buttons players see. No I/O."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import LEVELS, Ruleset
from bot.engine.master import WinAdvice, plays_as_expert
from bot.engine.messages import N_, Listing
from bot.render.components import Button, ButtonRef, DrawnView
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.review import choice_words, odds_line, review_button
from bot.render.words import FIELD_LIMIT, TITLE_LIMIT, capped_name, clip, describe
from bot.sessions.actions import ButtonAction
from bot.sessions.outcome import Hint
from bot.sessions.session import SeatView, Snapshot

GOLD = discord.Colour.gold()
RECENT_LINES = 5
TEAM_NAMES = (N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"))
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "expert": N_("expert"), "master": N_("master")}


@dataclass(frozen=True)
class Rendered:
    """What one message shows; an empty view clears the message's buttons."""

    embed: discord.Embed
    view: discord.ui.View

    @property
    def message(self) -> dict[str, Any]:
        """The keyword arguments that send or edit a message to show this drawing (one place for all)."""
        return {"embed": self.embed, "view": self.view}


def render(snapshot: Snapshot, tr: Translator, art: DiceArt = KEYCAP_ART) -> Rendered:
    if snapshot.stage == "lobby":
        return lobby(snapshot, tr)
    if snapshot.stage == "closed":
        return closed(snapshot, tr)
    if snapshot.stage == "over":
        return results(snapshot, tr)
    return board(snapshot, tr, art)


def _button(snapshot: Snapshot, action: ButtonAction, label: str | None, **kwargs: object) -> Button:
    """A plain button with the game's custom id: the board edge's `GameButton` answers it on any message."""
    arg = kwargs.pop("arg", None)
    ref = ButtonRef(snapshot.game_id, snapshot.seq, action, None if arg is None else str(arg))
    return Button(label=label, custom_id=ref.custom_id, **kwargs)  # type: ignore[arg-type]


def _view(*buttons: Button) -> discord.ui.View:
    view = DrawnView(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


def seat_name(seat: SeatView, tr: Translator) -> str:
    """A seat as drawn: a member's display name, capped (a payload's can be far longer than Discord's own
    limit); a computer named in the reader's language ("Computer 1 (normal)" is how the session stores it)."""
    if seat.computer is None:
        return capped_name(seat.name)
    level = tr.term(LEVEL_NAMES.get(seat.computer, seat.computer))
    return tr.text("Computer {number} ({level})", number=-seat.user_id, level=level)


def _names(snapshot: Snapshot, tr: Translator) -> Callable[[str | int | None], str]:
    """Player ids (as events carry them) to seat names as drawn."""
    seats = {str(seat.user_id): seat for seat in snapshot.seats}

    def name_of(player: str | int | None) -> str:
        seat = seats.get(str(player))
        return seat_name(seat, tr) if seat is not None else tr.text("someone")

    return name_of


def team_name(team: int | None, tr: Translator) -> str:
    return tr.term(TEAM_NAMES[(team or 1) - 1])


# ---------------------------------------------------------------------- lobby


def lobby(snapshot: Snapshot, tr: Translator) -> Rendered:
    rules = snapshot.rules
    lines = [
        f"{'👑 ' if seat.user_id == snapshot.host_id else '• '}{seat_name(seat, tr)}"
        + (" · " + tr.text("{team} team", team=team_name(seat.team, tr)) if rules.teams else "")
        for seat in snapshot.seats
    ]
    title = tr.text("🎲 Farkle lobby · {rules} rules", rules=rules.name)
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=GOLD)
    embed.description = tr.text(
        "Target **{target}** · {least}–{most} players\nPress **Join** to play; the host presses **Start**.",
        target=tr.points(rules.target),
        least=rules.min_players,
        most=snapshot.max_players,
    )
    embed.add_field(
        name=tr.text("Players ({count}/{most})", count=len(snapshot.seats), most=snapshot.max_players),
        value="\n".join(lines) or tr.text("Nobody yet"),
        inline=False,
    )
    if any(seat.computer == "master" for seat in snapshot.seats):
        reason = plays_as_expert(rules, len(snapshot.seats))
        if reason is not None:
            embed.description += "\n" + tr.say(reason)
    if snapshot.deadline:
        embed.add_field(
            name=tr.text("Expires"),
            value=tr.text("{when} without a start", when=f"<t:{int(snapshot.deadline)}:R>"),
            inline=False,
        )
    embed.set_footer(text=tr.text("Game {game} · /farkle rules shows every rule", game=snapshot.game_id))
    if rules.teams:
        joins = [
            _button(
                snapshot,
                ButtonAction.TEAM,
                tr.text("Join {team}", team=team_name(t, tr)),
                arg=t,
                style=discord.ButtonStyle.primary,
                row=0,
            )
            for t in range(1, rules.teams + 1)
        ]
    else:
        joins = [
            _button(snapshot, ButtonAction.JOIN, tr.text("Join"), style=discord.ButtonStyle.primary, row=0)
        ]
    controls = [
        _button(snapshot, ButtonAction.LEAVE, tr.text("Leave"), row=0),
        _button(snapshot, ButtonAction.START, tr.text("Start"), style=discord.ButtonStyle.success, row=1),
        _button(snapshot, ButtonAction.CANCEL, tr.text("Cancel"), style=discord.ButtonStyle.danger, row=1),
    ]
    computers = [
        _button(
            snapshot,
            ButtonAction.CPU,
            tr.text("Add computer: {level}", level=tr.term(LEVEL_NAMES[level])),
            arg=level,
            row=2,
        )
        for level in LEVELS
        if not rules.teams
    ]
    return Rendered(embed, _view(*joins, *controls, *computers))


# ---------------------------------------------------------------------- board


def _standing(snapshot: Snapshot, seat: SeatView, tr: Translator) -> str:
    marker = "▶️" if seat.user_id == snapshot.current else ("🛟" if seat.safe else "▫️")
    name = seat_name(seat, tr)
    bits = [f"{marker} **{name}**" if seat.active else tr.text("~~{name}~~ (out)", name=name)]
    if snapshot.rules.teams:
        bits.append(tr.text("{team} team", team=team_name(seat.team, tr)))
    else:
        bits.append(tr.points(seat.bank))
    if snapshot.rules.entry_minimum and not seat.on_board:
        bits.append(tr.text("not on the board"))
    if seat.farkle_streak:
        bits.append("💥" * seat.farkle_streak)
    return " · ".join(bits)


def _team_banks(snapshot: Snapshot, tr: Translator) -> str:
    banks: dict[int, int] = {}
    for seat in snapshot.seats:
        banks[seat.team or 1] = seat.bank
    return "\n".join(f"**{team_name(team, tr)}**: {tr.points(bank)}" for team, bank in sorted(banks.items()))


def recent_lines(snapshot: Snapshot, tr: Translator) -> list[str]:
    lines = [describe(event, _names(snapshot, tr), tr) for event in snapshot.recent]
    return [line for line in lines if line][-RECENT_LINES:]


def board(snapshot: Snapshot, tr: Translator, art: DiceArt = KEYCAP_ART) -> Rendered:
    turn, current, preview = snapshot.turn, snapshot.current_seat, snapshot.preview
    assert turn is not None and preview is not None
    title = tr.text("🎲 Farkle game · {rules} rules", rules=snapshot.rules.name)
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=GOLD)
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
    embed.description = "\n".join(filter(None, (" · ".join(status), odds_line(snapshot, tr))))
    if preview.bank_blocked and turn.roll:
        embed.description += f"\n🔒 {tr.say(preview.bank_blocked)}"  # why Bank is disabled for this selection
    if turn.roll:
        picked = " ".join("✅" if i in snapshot.selection else "⬛" for i in range(len(turn.roll)))
        embed.add_field(name=tr.text("Roll"), value=f"{art.line(turn.roll)}\n{picked}", inline=False)
    embed.add_field(
        name=tr.text("Set aside this turn"), value=art.line(turn.set_aside, FIELD_LIMIT), inline=True
    )
    if snapshot.next_farkle_chance is not None:
        embed.add_field(
            name=tr.text("Next roll"),
            value=tr.plural(
                "{count} die · {chance} Farkle chance",
                "{count} dice · {chance} Farkle chance",
                preview.dice_to_roll,
                chance=tr.percent(snapshot.next_farkle_chance),
            ),
            inline=True,
        )
    if snapshot.rules.teams:
        embed.add_field(name=tr.text("Team banks"), value=_team_banks(snapshot, tr), inline=False)
    embed.add_field(
        name=tr.text("Standings"),
        value="\n".join(_standing(snapshot, s, tr) for s in snapshot.seats),
        inline=False,
    )
    recent = recent_lines(snapshot, tr)
    if recent:
        embed.add_field(name=tr.text("Latest"), value="\n".join(recent), inline=False)
    embed.set_footer(
        text=tr.text(
            "Game {game} · move {move} · first to {target}",
            game=snapshot.game_id,
            move=snapshot.version,
            target=snapshot.rules.target,
        )
    )
    return Rendered(embed, _view(*_turn_buttons(snapshot, tr, art)))


def _die_button(snapshot: Snapshot, art: DiceArt, i: int, face: int) -> Button:
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


def _roll_label(snapshot: Snapshot, tr: Translator) -> str:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    if not turn.roll and turn.piggyback_dice is None:
        return tr.plural("Roll {count} die", "Roll {count} dice", preview.dice_to_roll)
    if not turn.roll:
        return tr.text("Roll 6 fresh dice")
    if preview.points:
        return tr.plural(
            "Roll {count} die (+{points})",
            "Roll {count} dice (+{points})",
            preview.dice_to_roll,
            points=tr.points(preview.points),
        )
    return tr.text("Pick dice to keep")


def _turn_buttons(snapshot: Snapshot, tr: Translator, art: DiceArt) -> list[Button]:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    buttons = [_die_button(snapshot, art, i, face) for i, face in enumerate(turn.roll)]
    buttons.append(
        _button(
            snapshot,
            ButtonAction.ROLL,
            _roll_label(snapshot, tr),
            style=discord.ButtonStyle.primary,
            row=2,
            disabled=not preview.can_roll,
        )
    )
    if turn.piggyback_dice is not None and not turn.roll:
        label = tr.plural("Piggyback on {count} die", "Piggyback on {count} dice", turn.piggyback_dice)
        buttons.append(_button(snapshot, ButtonAction.PIGGYBACK, label, row=2))
    bank_total = preview.turn_total if preview.points or not turn.roll else turn.total
    buttons.append(
        _button(
            snapshot,
            ButtonAction.BANK,
            tr.text("Bank {points}", points=tr.points(bank_total)),
            style=discord.ButtonStyle.success,
            row=2,
            disabled=not preview.can_bank,
        )
    )
    if snapshot.hints:
        buttons.append(_button(snapshot, ButtonAction.HINT, tr.text("Hint"), emoji="💡", row=2))
    return buttons


# ---------------------------------------------------------------------- end


def results(snapshot: Snapshot, tr: Translator) -> Rendered:
    name_of = _names(snapshot, tr)
    winners = [name_of(w) for w in snapshot.winners]
    if winners:
        headline = clip(tr.say(Listing(tuple(winners), "and")), TITLE_LIMIT - 40)
        title = tr.plural("🏆 {names} wins!", "🏆 {names} win!", len(winners), names=headline)
    else:
        title = tr.text("🏆 Nobody wins!")
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=GOLD)
    banks = {seat.user_id: seat.bank for seat in snapshot.seats}
    lines = []
    for place, group in enumerate(snapshot.placements, start=1):
        for user_id in group:
            lines.append(f"**{place}.** {name_of(user_id)} · {tr.points(banks.get(user_id, 0))}")
    embed.add_field(name=tr.text("Final standings"), value="\n".join(lines) or "—", inline=False)
    recent = recent_lines(snapshot, tr)
    if recent:
        embed.add_field(name=tr.text("Last moves"), value="\n".join(recent), inline=False)
    embed.set_footer(
        text=tr.text(
            "Game {game} · {rules} rules · press Rematch to play again",
            game=snapshot.game_id,
            rules=snapshot.rules.name,
        )
    )
    rematch = _button(snapshot, ButtonAction.REMATCH, tr.text("Rematch"), style=discord.ButtonStyle.primary)
    return Rendered(embed, _view(rematch, review_button(snapshot.game_id, tr)))


_CLOSED = {
    "expired": N_("This lobby expired: nobody started it in time."),
    "cancelled": N_("The host cancelled this lobby."),
    "ended": N_("This game was ended before anyone won; it does not count."),
    "empty": N_("Everyone left the lobby."),
}


def closed(snapshot: Snapshot, tr: Translator) -> Rendered:
    title = tr.text("🎲 Farkle closed · {rules} rules", rules=snapshot.rules.name)
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=discord.Colour.dark_grey())
    embed.description = tr.term(_CLOSED.get(snapshot.end_reason or "", N_("This game is closed.")))
    return Rendered(embed, _view())


# ---------------------------------------------------------------------- reference


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
    embed.add_field(
        name=tr.text("Commands"),
        value=tr.text(
            "`/farkle new` open a lobby · `/farkle join` · `/farkle leave` · `/farkle start`\n"
            "`/farkle board` bring the board back down · `/farkle rules` · `/farkle end`"
        ),
        inline=False,
    )
    embed.add_field(
        name=tr.text("On your turn"),
        value=tr.text(
            "Tap dice to select them (✅), then **Roll** or **Bank**. 💡 **Hint** shows the best play."
        ),
        inline=False,
    )
    return embed


def moved_board(tr: Translator) -> Rendered:
    """What an old board becomes when `/farkle board` posts a fresh one below."""
    embed = discord.Embed(description=tr.text("The board moved down ⬇️"), colour=discord.Colour.dark_grey())
    return Rendered(embed, _view())


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
            tr.text("{choice}: you win **{percent} %**", choice=what, percent=tr.decimal(choice.chance * 100))
        )
    text = "; ".join(parts)
    return text[0].upper() + text[1:]
