"""The table as the Activity draws it: one game's snapshot as JSON, from the same snapshot and the same
words as the chat board (`render.board`, `render.turn`), for one member (what they may press).

The page (`activity/`) lays it out; every word in it comes from here, in the member's language, so the
page holds no catalogue of its own.
"""

from __future__ import annotations

from typing import Any

from bot.engine.messages import N_
from bot.render.board import recent_lines
from bot.render.dice import KEYCAP_ART
from bot.render.language import Translator
from bot.render.parts import names, seat_name, team_name
from bot.render.turn import bank_label, last_turn, piggyback_label, roll_label
from bot.render.words import rules_name
from bot.sessions.session import Snapshot

# The page's own words (buttons, headings, the screen without a game), by the key the page reads.
PAGE_WORDS = {
    "standings": N_("Standings"),
    "latest": N_("Latest"),
    "join": N_("Join"),
    "leave": N_("Leave"),
    "start": N_("Start"),
    "hint": N_("Hint"),
    "rematch": N_("Rematch"),
    "new_game": N_("Start a game"),
    "no_game": N_("No game in this channel yet."),
    "watching": N_("You are watching this game."),
    "your_turn": N_("Your turn"),
    "final_round": N_("🏁 Final round"),
    "offline": N_("Reconnecting…"),
}


def page_words(tr: Translator) -> dict[str, str]:
    return {key: tr.term(word) for key, word in PAGE_WORDS.items()}


def die_name(position: int, picked: bool, tr: Translator) -> str:
    """A die button's accessible name: "die 3, picked"."""
    if picked:
        return tr.text("die {number}, picked", number=position + 1)
    return tr.text("die {number}", number=position + 1)


def table(snapshot: Snapshot | None, viewer: int, tr: Translator) -> dict[str, Any]:
    """The table JSON for `viewer` (a member id): everyone sees the same game; `moves` are theirs."""
    if snapshot is None:
        return {
            "stage": "none",
            "version": None,
            "moves": ["new"],
            "words": page_words(tr),
            "language": tr.language,
        }
    chances = dict(snapshot.chances)
    players = [
        {
            "id": str(seat.user_id),
            "name": seat_name(seat, tr),
            "bank": seat.bank,
            "points": tr.points(seat.bank),
            "team": team_name(seat.team, tr) if snapshot.rules.teams else None,
            "computer": seat.computer is not None,
            "active": seat.active,
            "current": seat.user_id == snapshot.current,
            "host": seat.user_id == snapshot.host_id,
            "chance": tr.percent(chances[seat.user_id], 0) if seat.user_id in chances else None,
        }
        for seat in snapshot.seats
    ]
    drawn: dict[str, Any] = {
        "game_id": snapshot.game_id,
        "version": snapshot.version,
        "stage": snapshot.stage,
        "rules": rules_name(snapshot.rules.name, tr),
        "target": tr.points(snapshot.rules.target),
        "players": players,
        "current": str(snapshot.current) if snapshot.current is not None else None,
        "deadline": snapshot.deadline,
        "final_round": snapshot.final_round,
        "winners": [str(winner) for winner in snapshot.winners],
        "recent": recent_lines(snapshot, tr),
        "moves": moves(snapshot, viewer),
        "words": page_words(tr),
        "language": tr.language,
    }
    if snapshot.stage == "playing":
        drawn.update(_turn(snapshot, tr))
    return drawn


def _turn(snapshot: Snapshot, tr: Translator) -> dict[str, Any]:
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    ended = last_turn(snapshot, tr, KEYCAP_ART, names(snapshot, tr))
    return {
        "turn": {
            "total": turn.total,
            "roll": list(turn.roll),
            "picked": list(snapshot.selection),
            "die_names": [die_name(i, i in snapshot.selection, tr) for i in range(len(turn.roll))],
            "set_aside": list(turn.set_aside),
            "hot_dice": turn.hot_dice and not turn.roll,
        },
        "labels": _labels(snapshot, tr),
        "bank_blocked": tr.say(preview.bank_blocked) if preview.bank_blocked and turn.roll else None,
        "last_turn": [line.removeprefix("> ") for line in ended.block.splitlines()] if ended.block else [],
    }


def _labels(snapshot: Snapshot, tr: Translator) -> dict[str, str]:
    """The turn's buttons' words, as the board writes them."""
    turn = snapshot.turn
    assert turn is not None
    found = {"roll": roll_label(snapshot, tr), "bank": bank_label(snapshot, tr)}
    if turn.piggyback_dice is not None and not turn.roll:
        found["piggyback"] = piggyback_label(turn.piggyback_dice, tr)
    return found


def moves(snapshot: Snapshot, viewer: int) -> list[str]:
    """What `viewer` may do now, as the API names actions: a spectator's list is empty while a game is
    played (but for joining a lobby, or opening a new game once it ended)."""
    seated = any(seat.user_id == viewer for seat in snapshot.seats)
    if snapshot.stage == "lobby":
        found = ["leave"] if seated else ["join"]
        return [*found, "start"] if viewer == snapshot.host_id else found
    if snapshot.stage != "playing":
        return ["rematch", "new"]
    current = snapshot.current_seat
    if current is None or current.user_id != viewer or current.computer is not None:
        return []
    turn, preview = snapshot.turn, snapshot.preview
    assert turn is not None and preview is not None
    found = []
    if turn.roll:
        found += ["pick", "drop"]
    if preview.can_roll:
        found.append("roll")
    if snapshot.bank_all is not None:
        found.append("bank_all")
    elif preview.can_bank:
        found.append("bank")
    if turn.piggyback_dice is not None and not turn.roll:
        found.append("piggyback")
    if snapshot.hints:
        found.append("hint")
    return found
