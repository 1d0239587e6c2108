"""The review's chance-to-win chart: a PNG of the first player's chance over the game's moves (the other
player's is its complement), each player's costly mistakes and the turning point marked, their names.

The only module that imports Pillow: it is imported when a chart is drawn, in the review's worker thread,
never at start-up (idle memory). The bundled font (DejaVu Sans, bot/assets/fonts/, its licence beside it)
draws the same on every machine. Dark-theme colours; 800 × 400 px stays legible at a phone's width.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from PIL import Image, ImageDraw, ImageFont

from bot.engine.luck import chances, turning_point
from bot.engine.review import COSTLY, GameReview
from bot.render.words import capped_name

WIDTH, HEIGHT = 800, 400
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 52, 52  # the plot's margins: names above and below, ticks on the left
BACKGROUND = (43, 45, 49)  # Discord's dark theme
GRID = (78, 80, 88)
TEXT = (219, 222, 225)
COLOURS = ((88, 101, 242), (240, 178, 50))  # first player blurple, second amber
TURNING = (255, 255, 255)
MARK = 9  # half the size of a mark, in pixels
NAME_LIMIT = 28


@dataclass(frozen=True)
class Plan:
    """What the chart shows, before any pixel: the line's points (first player's chance), the costly
    mistakes (point index, seat 0 or 1) and the turning point's index."""

    first: str
    second: str
    points: tuple[float, ...]
    mistakes: tuple[tuple[int, int], ...]
    turning: int | None


def plan(review: GameReview) -> Plan | None:
    """The chart of a review in chances to win; None without chances (turn points, no moments)."""
    moments = review.moments
    if review.measure != "win" or not moments:
        return None
    first = moments[0].player
    second = next((p.player for p in review.players if p.player != first), first)
    costly = {d.event for d in review.decisions if d.loss >= COSTLY["win"]}
    # point 2i is moment i's `before`, 2i + 1 its `played` (after the decision), 2i + 2 after its dice
    mistakes = tuple((2 * i + 1, int(m.player != first)) for i, m in enumerate(moments) if m.event in costly)
    turning = None
    found = turning_point(moments)
    if found is not None:
        moment, part = found
        index = moments.index(moment)
        turning = 2 * index + (1 if part == "decision" else 2)
    return Plan(first, second, tuple(chances(moments, first)), mistakes, turning)


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = files("bot") / "assets" / "fonts" / "DejaVuSans.ttf"
    return ImageFont.truetype(io.BytesIO(font.read_bytes()), size)


def _xy(plan: Plan, index: int) -> tuple[float, float]:
    width, height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    x = LEFT + width * index / max(len(plan.points) - 1, 1)
    return x, TOP + height * (1.0 - plan.points[index])


def draw(plan: Plan, names: Mapping[str, str]) -> bytes:
    """The chart as PNG bytes (a palette image: a few colours compress to tens of kilobytes)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    small, big = _font(18), _font(24)
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - share)
        pen.line([(LEFT, y), (WIDTH - RIGHT, y)], fill=GRID, width=3 if share == 0.5 else 1)
        pen.text((LEFT - 10, y), f"{round(share * 100)}%", font=small, fill=TEXT, anchor="rm")
    for seat, (player, y, anchor) in enumerate(((plan.first, 6, "la"), (plan.second, HEIGHT - 6, "ld"))):
        name = capped_name(names.get(player, player))[:NAME_LIMIT]
        pen.text((LEFT, y), name, font=big, fill=COLOURS[seat], anchor=anchor)
    pen.line([_xy(plan, i) for i in range(len(plan.points))], fill=COLOURS[0], width=4, joint="curve")
    for index, seat in plan.mistakes:
        x, y = _xy(plan, index)
        for colour, width in ((BACKGROUND, 8), (COLOURS[seat], 4)):  # a dark halo lifts it off the line
            pen.line([(x - MARK, y - MARK), (x + MARK, y + MARK)], fill=colour, width=width)
            pen.line([(x - MARK, y + MARK), (x + MARK, y - MARK)], fill=colour, width=width)
    if plan.turning is not None:
        x, y = _xy(plan, plan.turning)
        diamond = [(x, y - MARK - 4), (x + MARK + 4, y), (x, y + MARK + 4), (x - MARK - 4, y)]
        pen.polygon(diamond, outline=TURNING, width=3)
    out = io.BytesIO()
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def chart(review: GameReview, names: Mapping[str, str]) -> bytes | None:
    """The review's chart as PNG bytes, or None where it has no chances to draw."""
    shown = plan(review)
    return draw(shown, names) if shown is not None else None
