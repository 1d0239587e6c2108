"""`make play` as a player feels it: a whole game in the page against two computers, timed from the page.

    .venv/bin/python bench/play_page.py [--target 3000] [--seed 5] [--levels easy,normal]

Chromium (Debian's `chromium`, through Playwright) opens the page; the member plays every one of their turns
by clicking the board's buttons. The page logs, in its own clock, each time the board it shows changes.
Printed:
- press to update: from a click to the first change of the board on the page (p50 / p99 / max);
- lost taps: die taps sent in quick succession (no wait between them) that the game never counted or
  the page never showed selected;
- each computer step's visible time: how long each board of a computer's turn stayed on the page
  before the next one replaced it (min / p50; the target is ≥ 0.5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from percentile import percentile
from play import YOUR_NAME, Table, play_world
from playwright.async_api import Page, async_playwright
from playwright.async_api import TimeoutError as PageTimeout
from screenshots import CHROMIUM, NO_CHROMIUM, browser_page
from table_moves import board, button_on_page, enabled, free_dice, game_over, keepers, until

# In the page: every change of the newest message's text (the board is the channel's last message with
# buttons; it is the newest while a game runs), with the page's own time. A die image still loading
# (drawn as "Custom emoji unavailable" for a moment) is the same board, not a new one.
WATCH_THE_BOARD = """() => {
  window.boardLog = [];
  const newest = () => {
    const boards = [...document.querySelectorAll('article.channel-message')]
      .filter((article) => article.querySelector('button.component-button'));
    const text = boards.length ? boards[boards.length - 1].innerText : '';
    return text.replaceAll('Custom emoji unavailable', '');
  };
  let shown = newest();
  window.boardLog.push([performance.now(), shown]);
  new MutationObserver(() => {
    const now = newest();
    if (now !== shown) { shown = now; window.boardLog.push([performance.now(), now]); }
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
TURN = re.compile(r"^(.+)'s turn", re.MULTILINE)
GIVE_UP = 15.0  # seconds a press may take before it counts as never shown


class Measures:
    def __init__(self) -> None:
        self.presses: list[float] = []
        self.taps_sent = 0
        self.taps_lost = 0


async def page_now(page: Page) -> float:
    return float(await page.evaluate("performance.now()"))


async def timed_press(page: Page, table: Table, action: str, measures: Measures) -> None:
    """Click the button doing `action` and wait until the page's board changes."""
    button = await button_on_page(page, table, action)
    logged = await page.evaluate("window.boardLog.length")
    start = await page_now(page)
    await button.click()
    try:
        await page.wait_for_function(
            "(logged) => window.boardLog.length > logged", arg=logged, timeout=GIVE_UP * 1000
        )
        shown = await page.evaluate("(logged) => window.boardLog[logged][0]", logged)
        measures.presses.append((shown - start) / 1000)
    except PageTimeout:
        measures.presses.append(GIVE_UP)
    print(f"{action}: {measures.presses[-1]:.3f} s", file=sys.stderr)


async def quick_taps(page: Page, table: Table, positions: list[int], measures: Measures) -> None:
    """Tap every die in `positions` as fast as the page takes clicks; count the taps the game and the page
    never showed."""
    buttons = [await button_on_page(page, table, f"pick:{position}") for position in positions]
    for button in buttons:
        await button.click()
    measures.taps_sent += len(positions)
    wanted = set(positions)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GIVE_UP
    counted: set[int] = set()
    while loop.time() < deadline:
        snapshot = table.bot.services.sessions.snapshot(table.channel.id)
        counted = set(snapshot.selection) if snapshot is not None else set()
        if counted >= wanted and await selected_on_page(page, table) >= len(wanted):
            return
        await asyncio.sleep(0.05)
    lost = len(wanted - counted) or len(wanted)
    measures.taps_lost += lost
    print(f"taps {sorted(wanted)}: counted {sorted(counted)}, lost {lost}", file=sys.stderr)


async def selected_on_page(page: Page, table: Table) -> int:
    """How many dice the page draws as selected: the bot's selected style (a success-styled die button)."""
    drawn = page.locator(f"article[data-message-id='{board(table).id}'] button.component-button")
    return int(
        await drawn.evaluate_all(
            "(buttons) => buttons.filter((b) => b.querySelector('img.custom-emoji')"
            " && b.classList.contains('button-style-3')).length"
        )
    )


async def play_my_turn(page: Page, table: Table, measures: Measures) -> None:
    # The page shows the member's turn before they press: a press is timed from a settled page.
    await page.wait_for_function(
        "(name) => (window.boardLog.at(-1) || [0, ''])[1].includes(`${name}'s turn`)", arg=YOUR_NAME
    )
    await timed_press(page, table, "roll", measures)
    while not game_over(table) and mine(table):
        if not free_dice(table):
            await until(lambda: bool(free_dice(table)) or not mine(table), 30)
            continue
        keep = keepers(table)
        await quick_taps(page, table, keep, measures)
        left = len(free_dice(table)) - len(keep)
        action = "roll" if left >= 3 and enabled(table, "roll") is not None else "bank"
        if enabled(table, action) is None:
            action = "roll" if action == "bank" else "bank"
        if enabled(table, action) is None:  # taps lost: the selection doesn't score yet
            continue
        await timed_press(page, table, action, measures)
        if action == "bank":
            return


def mine(table: Table) -> bool:
    snapshot = table.bot.services.sessions.snapshot(table.channel.id)
    return snapshot is not None and snapshot.stage == "playing" and snapshot.current == table.you.id


def computer_steps(log: list[tuple[float, str]]) -> list[float]:
    """How long each board of a computer's turn stayed on the page (the last board of the game aside)."""
    shown = []
    for (at, text), (replaced_at, then) in itertools.pairwise(log):
        turn = TURN.search(text)
        if turn and turn.group(1).strip() != YOUR_NAME:
            shown.append((replaced_at - at) / 1000)
            if replaced_at - at < 500:
                changed = [line for line in then.splitlines() if line not in text.splitlines()]
                print(f"shown {(replaced_at - at) / 1000:.2f} s, then: {changed[:4]}", file=sys.stderr)
    return shown


async def main(target: int, seed: int, levels: list[str]) -> None:
    measures = Measures()
    with tempfile.TemporaryDirectory() as scratch:
        async with (
            play_world(Path(scratch) / "farkle.sqlite3", seed=seed) as table,
            async_playwright() as playwright,
        ):
            async with table.gate:
                await table.you.slash(table.channel, "farkle-config set", option="target", value=str(target))
                await table.you.slash(table.channel, "farkle new")
            page = await browser_page(playwright, Path(scratch) / "chromium", {"width": 1280, "height": 900})
            await page.goto(table.url)
            await until(lambda: True)
            await page.locator("article.channel-message button.component-button").first.wait_for()
            await page.evaluate(WATCH_THE_BOARD)
            for level in levels:
                await timed_press(page, table, f"cpu:{level}", measures)
            await timed_press(page, table, "start", measures)
            while not game_over(table):
                await until(lambda: game_over(table) or (mine(table) and enabled(table, "roll")), 300)
                if not game_over(table):
                    await play_my_turn(page, table, measures)
            log = [(at, text) for at, text in await page.evaluate("window.boardLog")]
            await page.context.close()
    steps = computer_steps(log)
    presses = measures.presses
    print(f"make play, one game to {target:,} against {' and '.join(levels)} (seed {seed}), {CHROMIUM}")
    print(
        f"press to update: {len(presses)} presses, p50 {percentile(presses, 0.5):.3f} s, "
        f"p99 {percentile(presses, 0.99):.3f} s, max {max(presses):.3f} s (target p99 <= 1 s)"
    )
    print(f"quick taps: {measures.taps_sent} sent, {measures.taps_lost} lost (target 0)")
    if steps:
        print(
            f"computer steps: {len(steps)} boards, visible min {min(steps):.2f} s, "
            f"p50 {percentile(steps, 0.5):.2f} s, under 0.5 s: {sum(s < 0.5 for s in steps)} (target 0)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=3000, help="the game's target (a whole game to it)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--levels", default="easy,normal", help="the two computers' levels")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit(f"play_page: {NO_CHROMIUM}")
    asyncio.run(main(args.target, args.seed, args.levels.split(",")))
