"""Game review as drawings: the Review button on the results, the review itself, live odds on a board,
and the cost marks of a replay. No I/O."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.engine.messages import Param
from bot.engine.review import COSTLY, Decision, GameReview, Move, MoveKind, PlayerReview
from bot.render.components import Button
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.parts import seat_name, stored_name
from bot.render.words import FIELD_LIMIT, TITLE_LIMIT, clip
from bot.sessions.session import Snapshot

REVIEW_PREFIX = "farkle-review"
# The game id is what `/farkle review` takes; the id never changes, so the button works on any results.
REVIEW_TEMPLATE = rf"{REVIEW_PREFIX}:(?P<game>[0-9a-f]{{1,16}})"
EMBED_BUDGET = 5800  # of Discord's 6,000 characters per embed, with room for the footer
COLOUR = discord.Colour.blurple()


def review_button(game_id: str, tr: Translator) -> Button:
    """The results' Review button: answered privately to whoever presses it (`cogs/review.py`)."""
    return Button(label=tr.text("Review"), emoji="🔎", custom_id=f"{REVIEW_PREFIX}:{game_id}")


def odds_line(snapshot: Snapshot, tr: Translator) -> str | None:
    """ "📈 Ana 62 % · Ben 38 %": each player's chance to win now, when the session computed them."""
    if not snapshot.chances:
        return None
    names = {seat.user_id: seat_name(seat, tr) for seat in snapshot.seats}
    shown = " · ".join(
        f"{names.get(user_id, '?')} {tr.percent(chance, 0)}" for user_id, chance in snapshot.chances
    )
    return tr.text("📈 Chances to win: {chances}", chances=shown)


def choice_words(kind: MoveKind, total: int, dice: int, tr: Translator) -> str:
    """What a choice does after its keep: "bank 650", "roll 3 dice", "piggyback on 2 dice" (the Hint too)."""
    if kind == "bank":
        return tr.text("bank {points}", points=tr.points(total))
    if kind == "piggyback":
        return tr.plural("piggyback on {count} die", "piggyback on {count} dice", dice)
    return tr.plural("roll {count} die", "roll {count} dice", dice)


def move_words(move: Move, tr: Translator, art: DiceArt = KEYCAP_ART) -> str:
    """A move in the Hint's words: "keep 1️⃣5️⃣5️⃣, roll 3 dice" (the die emojis where the bot has them)."""
    what = choice_words(move.kind, move.total, move.dice, tr)
    return tr.text("keep {dice}, {then}", dice=art.line(move.keep), then=what) if move.keep else what


def cost_words(review: GameReview, loss: float, tr: Translator) -> str:
    if review.measure == "win":
        return tr.text("−{chance} chance to win", chance=tr.percent(loss, 1))
    return tr.text("−{points} expected points", points=tr.decimal(loss, 0))


def decision_line(review: GameReview, decision: Decision, tr: Translator, art: DiceArt = KEYCAP_ART) -> str:
    params: dict[str, Param] = {
        "turn": decision.turn,
        "played": move_words(decision.played, tr, art),
        "best": move_words(decision.best, tr, art),
        "cost": cost_words(review, decision.loss, tr),
    }
    if decision.roll:
        return tr.text(
            "Turn {turn} · {roll}: {played} → best: {best} ({cost})", roll=art.line(decision.roll), **params
        )
    return tr.text("Turn {turn}: {played} → best: {best} ({cost})", **params)


def _measure_line(review: GameReview, tr: Translator) -> str:
    if review.measure == "win":
        return tr.text("Measured in chance to win, from the exact win tables.")
    if len(review.players) == 2:
        return tr.text("Measured in expected points of the turn: these rules have no win tables yet.")
    return tr.text("Measured in expected points of the turn: win tables cover two players only.")


def _player_value(review: GameReview, player: PlayerReview, tr: Translator, art: DiceArt) -> str:
    accuracy = tr.percent(player.accuracy, 1) if player.accuracy is not None else "—"
    head = tr.plural(
        "Accuracy **{accuracy}** · {count} costly mistake",
        "Accuracy **{accuracy}** · {count} costly mistakes",
        player.mistakes,
        accuracy=accuracy,
    )
    decisions = tr.plural("{count} decision", "{count} decisions", player.decisions)
    lines = [f"{head} · {decisions}", f"*{tr.say(player.verdict)}*"]
    lines.extend(f"{i}. {decision_line(review, d, tr, art)}" for i, d in enumerate(player.costliest, start=1))
    return "\n".join(lines)


def review_embed(
    game_id: str, review: GameReview, names: Mapping[str, str], tr: Translator, art: DiceArt = KEYCAP_ART
) -> discord.Embed:
    """Each player's accuracy, costly mistakes, verdict and costliest decisions, inside Discord's limits."""
    title = tr.text("🔎 Review of game {game}", game=game_id)
    embed = discord.Embed(
        title=clip(title, TITLE_LIMIT), colour=COLOUR, description=_measure_line(review, tr)
    )
    threshold = (
        tr.percent(COSTLY["win"], 0)
        if review.measure == "win"
        else tr.text("{points} points", points=tr.decimal(COSTLY["turn"], 0))
    )
    footer = tr.text(
        "Accuracy: the share of each decision's available value kept (best minus worst move). "
        "A costly mistake costs {threshold} or more.",
        threshold=threshold,
    )
    embed.set_footer(text=footer)
    used = len(embed.title or "") + len(embed.description or "") + len(footer)
    budget = min(FIELD_LIMIT, (EMBED_BUDGET - used) // max(len(review.players), 1))
    for player in review.players:
        name = clip(stored_name(names.get(player.player, player.player), tr), budget // 4)
        value = _player_value(review, player, tr, art)
        if len(value) > budget - len(name):  # never clip inside an emoji: keycaps are shorter
            value = _player_value(review, player, tr, KEYCAP_ART)
        embed.add_field(name=name, value=clip(value, budget - len(name)), inline=False)
    return embed


def replay_marks(review: GameReview, tr: Translator) -> dict[int, str]:
    """The cost of each decision, by the index of the first event it caused: "[✓]" for the best move."""
    marks = {}
    for decision in review.decisions:
        if decision.loss < COSTLY[review.measure] / 100:
            marks[decision.event] = "[✓]"
        else:
            marks[decision.event] = f"[{cost_words(review, decision.loss, tr)}]"
    return marks
