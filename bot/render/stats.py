"""Leaderboards, member statistics, game history and replays as embeds and text. No I/O."""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from bot.engine import Game
from bot.engine.events import Kept, Rolled, TurnStarted
from bot.records import METRICS, GameSummary, Metric, Period, Ranked, StatsRow
from bot.render.board import GOLD
from bot.render.words import DESCRIPTION_LIMIT, FACES, capped_name, clip, describe, points

PAGE_SIZE = 10
METRIC_NAMES: dict[Metric, str] = {
    "rating": "Rating",
    "wins": "Wins",
    "win_rate": "Win rate",
    "best_turn": "Best turn",
    "points": "Points banked",
}
PERIOD_NAMES: dict[Period, str] = {"all": "all time", "30d": "last 30 days"}
# At most a million pages: a forged id with a bigger page matches nothing, so it is ignored.
PAGE_TEMPLATE = r"farkle-lb:(?P<metric>[a-z_]+):(?P<period>all|30d):(?P<page>[0-9]{1,6}):(?P<which>prev|next)"


def metric_value(metric: Metric, row: StatsRow) -> str:
    if metric == "rating":
        return f"{row.rating:.1f}"
    if metric == "win_rate":
        return f"{row.win_rate:.0%} of {row.games}"
    return points(getattr(row, metric))


def _line(metric: Metric, ranked: Ranked) -> str:
    return f"**{ranked.rank}.** {capped_name(ranked.row.name)} · {metric_value(metric, ranked.row)}"


def leaderboard_embed(
    metric: Metric, period: Period, page: int, rows: list[Ranked], total: int, mine: Ranked | None
) -> discord.Embed:
    embed = discord.Embed(title=f"🏆 Farkle leaderboard · {METRIC_NAMES[metric]}", colour=GOLD)
    embed.description = "\n".join(_line(metric, r) for r in rows) or "No games counted yet: play one!"
    if mine is not None:
        embed.add_field(name="You", value=_line(metric, mine), inline=False)
    pages = max(1, -(-total // PAGE_SIZE))
    embed.set_footer(text=f"{PERIOD_NAMES[period]} · page {page + 1}/{pages} · {total} ranked")
    return embed


@runtime_checkable
class PagePresses(Protocol):
    """The client as a leaderboard page button sees it."""

    async def on_page_press(
        self, interaction: discord.Interaction, metric: Metric, period: Period, page: int
    ) -> None: ...


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_TEMPLATE):
    """Previous/Next: stateless, so paging works on any leaderboard message, even after a restart.

    A press goes to the client's `on_page_press` (`PagePresses`).
    """

    def __init__(
        self, metric: Metric, period: Period, page: int, which: str, *, disabled: bool = False
    ) -> None:
        label = "◀ Previous" if which == "prev" else "Next ▶"
        custom_id = f"farkle-lb:{metric}:{period}:{page}:{which}"
        super().__init__(discord.ui.Button(label=label, disabled=disabled, custom_id=custom_id))
        self.metric, self.period, self.page = metric, period, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardPage:
        metric = match["metric"] if match["metric"] in METRICS else "rating"
        period: Period = "30d" if match["period"] == "30d" else "all"
        return cls(metric, period, int(match["page"]), match["which"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Only a button press turns the page: a select payload carrying this id was forged."""
        pressed = interaction.data.get("component_type") if interaction.data else None
        return pressed == discord.ComponentType.button.value

    async def callback(self, interaction: discord.Interaction) -> None:
        if isinstance(interaction.client, PagePresses):
            await interaction.client.on_page_press(interaction, self.metric, self.period, self.page)


def leaderboard_view(metric: Metric, period: Period, page: int, total: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = max(0, -(-total // PAGE_SIZE) - 1)
    view.add_item(LeaderboardPage(metric, period, max(page - 1, 0), "prev", disabled=page == 0))
    view.add_item(LeaderboardPage(metric, period, min(page + 1, last), "next", disabled=page >= last))
    return view


def stats_embed(name: str, row: StatsRow | None) -> discord.Embed:
    embed = discord.Embed(title=f"📊 {capped_name(name)} at Farkle", colour=GOLD)
    if row is None:
        embed.description = "No counted games in this server yet."
        return embed
    values = {
        "Games": f"{row.games:,}",
        "Wins": f"{row.wins:,} ({row.win_rate:.0%})",
        "Rating": f"{row.rating:.1f}",
        "Points banked": points(row.points),
        "Average turn": points(round(row.average_turn)),
        "Best turn": points(row.best_turn),
        "Best game": points(row.best_game),
        "Farkles": f"{row.farkles:,}",
        "Hot dice": f"{row.hot_dice:,}",
    }
    for label, value in values.items():
        embed.add_field(name=label, value=value, inline=True)
    return embed


def history_embed(title: str, games: list[GameSummary]) -> discord.Embed:
    embed = discord.Embed(title=title, colour=GOLD)
    lines = []
    for game in games:
        players = ", ".join(
            f"{'🏆 ' if won else ''}{capped_name(name)} {points(bank)}" for name, bank, won in game.players
        )
        lines.append(f"`{game.game_id}` <t:{int(game.ended_at)}:d> · {game.rules_name} · {players}")
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT) or "No finished games yet."
    embed.set_footer(text="/farkle replay <game> shows a game move by move")
    return embed


def _faces(dice: tuple[int, ...]) -> str:
    """Unicode die faces: a replay is plain text (a code block or a file), where emojis can't show."""
    return "".join(FACES[face] for face in dice)


def replay_lines(game: Game, names: dict[str, str]) -> list[str]:
    """The game turn by turn: each roll, what was kept, and how the turn ended."""
    lines: list[str] = []
    current: list[str] = []
    turn = 0

    def name_of(player: str | None) -> str:
        return capped_name(names.get(player or "", "someone"))

    for event in game.events:
        if isinstance(event, TurnStarted):
            if current:
                lines.append(" ".join(current))
            turn += 1
            current = [f"{turn}. {name_of(event.player)}:"]
        elif isinstance(event, Rolled):
            current.append(f"rolled {_faces(event.dice)}")
        elif isinstance(event, Kept):
            current.append(f"kept {_faces(event.dice)} (+{event.points}) →")
        else:
            line = describe(event, name_of)
            if line and current:
                current.append(f"| {line}")
            elif line:
                lines.append(line)  # the roll-off, before the first turn
    if current:
        lines.append(" ".join(current))
    return lines
