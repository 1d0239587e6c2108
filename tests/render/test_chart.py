"""The review's chance-to-win chart: its size, its marks where the review says (read back from its pixels),
nothing without chances, and Pillow loaded only when a chart is drawn."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from PIL import Image

from bot.engine.review import COSTLY, GameReview, review
from bot.engine.rules import Ruleset
from bot.render.chart import COLOURS, HEIGHT, TURNING, WIDTH, Plan, chart, plan
from bot.render.chart import _xy as position
from bot.sessions.win_tables import shipped_tables
from tests.engine.test_review import SMALL, play, small_tables
from tests.solved import policies_for

NAMES = {"1": "Ana", "2": "Benjamin"}
MOST_BYTES = 100_000


def reviewed(levels: tuple[str, ...], seed: int) -> GameReview:
    tables = small_tables()
    game, start = play(SMALL, levels, seed, tables)
    return review(SMALL, [p.id for p in game.players], start, game.history, policies_for(SMALL), tables)


def near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 24 for a, b in zip(pixel, colour, strict=False))


@pytest.mark.parametrize("seed", [0, 4])
def test_the_chart_marks_each_costly_mistake_and_the_turning_point(seed: int) -> None:
    result = reviewed(("easy", "easy"), seed)
    shown = plan(result)
    assert shown is not None
    costly = [d for d in result.decisions if d.loss >= COSTLY["win"]]
    assert costly, "a seeded game between two easy players has costly mistakes"
    assert len(shown.mistakes) == len(costly)
    assert [seat for _, seat in shown.mistakes] == [int(d.player != shown.first) for d in costly]
    assert len(shown.points) == 2 * len(result.moments) + 1 and shown.turning is not None
    png = chart(result, NAMES)
    assert png is not None and len(png) < MOST_BYTES
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    for index, seat in shown.mistakes:  # an ✕ of the mistaken player's colour centred on the point
        x, y = position(shown, index)
        assert near(image.getpixel((round(x), round(y))), COLOURS[seat]), (index, seat)
    x, y = position(shown, shown.turning)  # a white diamond around the turning point
    top = [image.getpixel((round(x), round(y) - dy)) for dy in range(10, 16)]
    assert any(near(pixel, TURNING) for pixel in top), top


def test_a_long_game_draws_within_the_size_limit() -> None:
    rules = Ruleset.preset("classic")  # its tables ship with the bot
    game, start = play(rules, ("easy", "normal"), 2)
    players, tables = [p.id for p in game.players], shipped_tables(rules)
    result = review(rules, players, start, game.history, policies_for(rules), tables)
    shown = plan(result)
    assert shown is not None and len(shown.points) > 100
    png = chart(result, {"1": "W" * 200, "2": "名前"})
    assert png is not None and len(png) < MOST_BYTES


def test_no_chart_without_chances() -> None:
    rules = Ruleset.preset("classic")
    game, start = play(rules, ("easy", "normal", "expert"), 0)
    result = review(rules, [p.id for p in game.players], start, game.history, policies_for(rules), None)
    assert result.measure == "turn" and plan(result) is None and chart(result, NAMES) is None


def test_a_plan_without_a_turning_point_draws_only_the_line() -> None:
    flat = Plan("1", "2", (0.5, 0.5, 1.0), (), None)
    from bot.render.chart import draw

    image = Image.open(io.BytesIO(draw(flat, NAMES))).convert("RGB")
    assert not any(near(pixel, TURNING) for pixel in image.get_flattened_data())


def test_the_bot_starts_without_pillow() -> None:
    """Pillow (several MB resident) is imported by the chart module alone, when a review is charted."""
    check = "import sys, bot.app.client, cogs.farkle, bot.services.stats; sys.exit('PIL' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0
