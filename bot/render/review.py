"""Game review as drawings: the Review button on the results, the review itself (a card: each player's
accuracy and luck and skill apart, the turning point, the chance-to-win chart), live odds on a board, and
the cost marks of a replay. No I/O."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.core.records import SKILL_DECISIONS, SKILL_MINIMUM
from bot.engine.luck import Moment, Part, split, turning_point
from bot.engine.luck import skill as skill_rating
from bot.engine.messages import Param
from bot.engine.review import COSTLY, Decision, GameReview, Move, MoveKind, PlayerReview
from bot.render.components import MOST_TEXT, Rendered, card, heading
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.layout import Button, MediaGallery, TextDisplay
from bot.render.layout import Part as CardPart
from bot.render.parts import seat_name, stored_name
from bot.render.words import TITLE_LIMIT, clip
from bot.sessions.session import Snapshot

REVIEW_PREFIX = "farkle-review"
# The game id is what `/farkle review` takes; the id never changes, so the button works on any results.
REVIEW_TEMPLATE = rf"{REVIEW_PREFIX}:(?P<game>[0-9a-f]{{1,16}})"
COLOUR = discord.Colour.blurple()
CHART_FILE = "review-chart.png"  # the chart's attachment, shown in the card's media gallery
HEAD_LIMIT = 700  # the title, the measure, the start and the turning point
TEXT_SPARE = 100  # of Discord's 4,000 characters per card, kept spare
MEDIA_DESCRIPTION_LIMIT = 256


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


def signed(review: GameReview, value: float, tr: Translator) -> str:
    """A change in the review's measure with its sign: "+12.4 %", "−450 expected points"."""
    sign = "+" if value >= 0 else "−"
    if review.measure == "win":
        return f"{sign}{tr.percent(abs(value), 1)}"
    return tr.text("{points} expected points", points=f"{sign}{tr.decimal(abs(value), 0)}")


def split_line(review: GameReview, player: str, tr: Translator) -> str | None:
    """ "Decisions cost 6.1 % · the dice gave +12.4 %": what the player's decisions and the dice did."""
    if not review.moments:
        return None
    parts = split(review.measure, review.moments, player)
    if review.measure == "win":
        return tr.text(
            "Decisions cost **{cost}** · the dice gave **{dice}**",
            cost=tr.percent(0.0 - parts.decisions, 1),  # never "-0.0"
            dice=signed(review, parts.dice, tr),
        )
    return tr.text(
        "Decisions cost **{cost}** expected points · the dice gave **{dice}**",
        cost=tr.decimal(0.0 - parts.decisions, 0),
        dice=signed(review, parts.dice, tr),
    )


def _turning_what(
    review: GameReview, moment: Moment, part: Part, name: str, tr: Translator, art: DiceArt
) -> str:
    """What happened at the turning point: the decision taken, or the dice that fell."""
    if part == "decision":
        decision = next((d for d in review.decisions if d.event == moment.event), None)
        if decision is not None:
            played, best = move_words(decision.played, tr, art), move_words(decision.best, tr, art)
            return tr.text("{player} chose {played} over {best}", player=name, played=played, best=best)
        if moment.kind == "timeout":
            return tr.text("{player} ran out of time", player=name)
        return tr.text("{player} left the game", player=name)
    if moment.farkled:
        return tr.text("{player} farkled on {dice}", player=name, dice=art.line(moment.rolled))
    if moment.rolled:
        return tr.text("{player} rolled {dice}", player=name, dice=art.line(moment.rolled))
    return tr.text("after {player}'s move", player=name)


def turning_line(
    review: GameReview, names: Mapping[str, str], tr: Translator, art: DiceArt = KEYCAP_ART
) -> str | None:
    """ "📍 Turning point: turn 14, Ana farkled on ⚂⚃⚄ (−31.0 % for Ana)": the biggest single swing."""
    found = turning_point(review.moments)
    if found is None:
        return None
    moment, part = found
    name = stored_name(names.get(moment.player, moment.player), tr)
    return tr.text(
        "📍 Turning point: turn {turn}, {what} ({swing} for {player})",
        turn=moment.turn,
        what=_turning_what(review, moment, part, name, tr, art),
        swing=signed(review, moment.part(part), tr),
        player=name,
    )


def start_line(review: GameReview, names: Mapping[str, str], tr: Translator) -> str | None:
    """ "Ana moved first with a 53.5 % chance to win.": where the chance to win started."""
    if review.measure != "win" or not review.moments:
        return None
    first = review.moments[0]
    name = stored_name(names.get(first.player, first.player), tr)
    return tr.text(
        "{player} moved first with a {chance} chance to win.", player=name, chance=tr.percent(first.before, 1)
    )


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
    split_words = split_line(review, player.player, tr)
    if split_words is not None:
        lines.insert(1, split_words)
    lines.extend(f"{i}. {decision_line(review, d, tr, art)}" for i, d in enumerate(player.costliest, start=1))
    return "\n".join(lines)


def review_card(
    game_id: str,
    review: GameReview,
    names: Mapping[str, str],
    tr: Translator,
    art: DiceArt = KEYCAP_ART,
    *,
    chart: bool = False,
) -> Rendered:
    """Each player's accuracy, luck and skill apart, costly mistakes, verdict and costliest decisions, the
    turning point and (`chart`) the chance-to-win chart attached as `CHART_FILE`, inside Discord's limits."""
    title = clip(tr.text("🔎 Review of game {game}", game=game_id), TITLE_LIMIT)
    lines = [f"### {title}", _measure_line(review, tr)]
    lines += [line for line in (start_line(review, names, tr), turning_line(review, names, tr, art)) if line]
    head = clip("\n".join(lines), HEAD_LIMIT)
    threshold = (
        tr.percent(COSTLY["win"], 0)
        if review.measure == "win"
        else tr.text("{points} points", points=tr.decimal(COSTLY["turn"], 0))
    )
    footer = "-# " + tr.text(
        "Accuracy: the share of each decision's available value kept (best minus worst move). "
        "A costly mistake costs {threshold} or more. Decisions: what each choice gave away against the best "
        "one; dice: what the rolls did after it.",
        threshold=threshold,
    )
    parts: list[CardPart] = [TextDisplay(head)]
    budget = (MOST_TEXT - TEXT_SPARE - len(head) - len(footer)) // max(len(review.players), 1)
    for player in review.players:
        name = clip(stored_name(names.get(player.player, player.player), tr), budget // 4)
        room = budget - len(name) - len("****\n")
        value = _player_value(review, player, tr, art)
        if len(value) > room:  # never clip inside an emoji: keycaps are shorter
            value = _player_value(review, player, tr, KEYCAP_ART)
        value = clip(value, room)
        parts.append(TextDisplay(heading(name, value)))
    if chart:
        item = discord.MediaGalleryItem(
            f"attachment://{CHART_FILE}", description=chart_words(review, names, tr)
        )
        parts.append(MediaGallery(item))
    parts.append(TextDisplay(footer))
    return card(parts, COLOUR)


def chart_words(review: GameReview, names: Mapping[str, str], tr: Translator) -> str:
    """The chart's description (read aloud, shown on hover): whose chance the line is, what the marks are."""
    first = review.moments[0].player if review.moments else ""
    words = tr.text(
        "{player}'s chance to win over the game; ✕ costly mistakes, ◆ the turning point.",
        player=stored_name(names.get(first, first), tr),
    )
    return clip(words, MEDIA_DESCRIPTION_LIMIT)


def replay_marks(review: GameReview, tr: Translator) -> dict[int, str]:
    """The cost of each decision, by the index of the first event it caused: "[✓]" for the best move."""
    marks = {}
    for decision in review.decisions:
        if decision.loss < COSTLY[review.measure] / 100:
            marks[decision.event] = "[✓]"
        else:
            marks[decision.event] = f"[{cost_words(review, decision.loss, tr)}]"
    return marks


def skill_value(skill: tuple[float, int] | None, tr: Translator) -> str:
    """The stats card's skill: "72 (last 50 decisions)", or how far a member is from the minimum."""
    given_away, decisions = skill or (0.0, 0)
    if decisions < SKILL_MINIMUM:
        return tr.text("not yet: {count} of {minimum} decisions", count=decisions, minimum=SKILL_MINIMUM)
    return tr.text(
        "{skill} (last {count} decisions)", skill=tr.decimal(skill_rating(given_away), 0), count=decisions
    )


def skill_board_value(given_away: float, decisions: int, tr: Translator) -> str:
    """A skill board line's value: "72 over 50 decisions"."""
    return tr.text(
        "{skill} over {count} decisions", skill=tr.decimal(skill_rating(given_away), 0), count=decisions
    )


def skill_qualifying(minimum: int, tr: Translator) -> str:
    """Who the skill board ranks: members with `minimum` decisions in reviewed games, in chances to win."""
    return tr.text(
        "Ranks members with {count} decisions or more (their last {last}, in chances to win; games against "
        "computers count too).",
        count=minimum,
        last=SKILL_DECISIONS,
    )
