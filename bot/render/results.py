"""The end of a game as a Components V2 card: final standings, each player's numbers, Rematch; and
the cards of closed games and of boards that moved down."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.messages import N_, Listing
from bot.render.board import recent_lines
from bot.render.components import GREY, Rendered, card, heading
from bot.render.language import Translator
from bot.render.layout import ActionRow, Part, Separator, TextDisplay
from bot.render.parts import game_button, names, title_block
from bot.render.words import clip, rules_name
from bot.sessions.actions import ButtonAction
from bot.sessions.session import Snapshot

HEADLINE_LIMIT = 200


def results(snapshot: Snapshot, tr: Translator, extra: Sequence[Part] = ()) -> Rendered:
    """The results; `extra` (more buttons in a row, say) goes between the numbers and Rematch."""
    name_of = names(snapshot, tr)
    winners = [name_of(w) for w in snapshot.winners]
    if winners:
        headline = clip(tr.say(Listing(tuple(winners), "and")), HEADLINE_LIMIT)
        title = tr.plural("🏆 {names} wins!", "🏆 {names} win!", len(winners), names=headline)
    else:
        title = tr.text("🏆 Nobody wins!")
    parts: list[Part] = [
        title_block(title),
        TextDisplay(heading(tr.text("Final standings"), "\n".join(_standings(snapshot, tr)) or "—")),
    ]
    numbers = [block for block in (_best_turn(snapshot, tr), _numbers(snapshot, tr)) if block]
    if numbers:
        parts += [Separator(), TextDisplay("\n\n".join(numbers))]
    recent = recent_lines(snapshot, tr)
    if recent:
        parts += [Separator(), TextDisplay(heading(tr.text("Last moves"), "\n".join(recent)))]
    rematch = game_button(
        snapshot, ButtonAction.REMATCH, tr.text("Rematch"), style=discord.ButtonStyle.primary
    )
    footer = tr.text(
        "Game {game} · {rules} rules · press Rematch to play again",
        game=snapshot.game_id,
        rules=rules_name(snapshot.rules.name, tr),
    )
    parts += [*extra, ActionRow(rematch), TextDisplay(f"-# {footer}")]
    return card(parts)


def _standings(snapshot: Snapshot, tr: Translator) -> list[str]:
    """One line per player, in finishing order; a removed player is marked "(out)"."""
    seats = {seat.user_id: seat for seat in snapshot.seats}
    name_of = names(snapshot, tr)
    lines = []
    for place, group in enumerate(snapshot.placements, start=1):
        for user_id in group:
            seat = seats[user_id]
            name = name_of(user_id) if seat.active else tr.text("{name} (out)", name=name_of(user_id))
            lines.append(f"**{place}.** {name} · {tr.points(seat.bank)}")
    return lines


NBSP = "\u00a0"


def _numbers(snapshot: Snapshot, tr: Translator) -> str | None:
    """Each player's game in numbers, each labelled in words: best turn, Farkles, hot dice, turns. An
    item never wraps inside itself (no-break spaces), so a phone breaks a line only between items."""
    if not snapshot.numbers:
        return None
    name_of = names(snapshot, tr)
    lines = []
    for seat, numbers in zip(snapshot.seats, snapshot.numbers, strict=False):
        items = [
            tr.text("best turn {points}", points=tr.points(numbers.best_turn)),
            tr.plural("💥 {count} Farkle", "💥 {count} Farkles", numbers.farkles),
            tr.plural("🔥 {count} hot dice", "🔥 {count} hot dice", numbers.hot_dice),
            tr.plural("🎲 {count} turn", "🎲 {count} turns", numbers.turns),
        ]
        shown = " · ".join(item.replace(" ", NBSP) for item in items)
        lines.append(tr.text("**{name}**: {numbers}", name=name_of(seat.user_id), numbers=shown))
    return heading(tr.text("Numbers"), "\n".join(lines))


def _best_turn(snapshot: Snapshot, tr: Translator) -> str | None:
    """The game's best turn and who played it."""
    if not snapshot.numbers or not max(n.best_turn for n in snapshot.numbers):
        return None
    index = max(range(len(snapshot.numbers)), key=lambda i: snapshot.numbers[i].best_turn)
    seat = snapshot.seats[index]
    return tr.text(
        "⭐ Best turn: **{points}** by {name}",
        points=tr.points(snapshot.numbers[index].best_turn),
        name=names(snapshot, tr)(seat.user_id),
    )


_CLOSED = {
    "expired": N_("This lobby expired: nobody started it in time."),
    "cancelled": N_("The host cancelled this lobby."),
    "ended": N_("This game was ended before anyone won; it does not count."),
    "empty": N_("Everyone left the lobby."),
}


def closed(snapshot: Snapshot, tr: Translator) -> Rendered:
    title = tr.text("🎲 Farkle closed · {rules} rules", rules=rules_name(snapshot.rules.name, tr))
    said = tr.term(_CLOSED.get(snapshot.end_reason or "", N_("This game is closed.")))
    return card([title_block(title, said)], GREY)


def moved_board(tr: Translator) -> Rendered:
    """What an old board becomes when `/farkle board` posts a fresh one below."""
    return card([TextDisplay(tr.text("The board moved down ⬇️"))], GREY)
