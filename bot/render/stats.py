"""Leaderboards, member statistics, game history and replays as embeds and text. No I/O."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.engine import Game
from bot.engine.events import Kept, Rolled, TurnStarted
from bot.engine.messages import N_
from bot.records import GameSummary, Metric, Period, Ranked, StatsRow
from bot.render.components import GOLD, Button, DrawnView
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.parts import stored_name
from bot.render.words import DESCRIPTION_LIMIT, capped_name, clip, describe, rules_name

PAGE_SIZE = 10
METRIC_NAMES: dict[Metric, str] = {
    "rating": N_("Rating"),
    "wins": N_("Wins"),
    "win_rate": N_("Win rate"),
    "best_turn": N_("Best turn"),
    "points": N_("Points banked"),
    "accuracy": N_("Accuracy"),
}
PERIOD_NAMES: dict[Period, str] = {"all": N_("all time"), "30d": N_("last 30 days")}
# At most a million pages: a forged id with a bigger page matches nothing, so it is ignored.
PAGE_TEMPLATE = r"farkle-lb:(?P<metric>[a-z_]+):(?P<period>all|30d):(?P<page>[0-9]{1,6}):(?P<which>prev|next)"


def metric_value(metric: Metric, row: StatsRow, tr: Translator) -> str:
    if metric == "rating":
        return tr.decimal(row.rating)
    if metric == "win_rate":
        return tr.text("{rate} of {games}", rate=tr.percent(row.win_rate, 0), games=row.games)
    if metric == "accuracy":
        return tr.plural(
            "{accuracy} over {count} game",
            "{accuracy} over {count} games",
            row.games,
            accuracy=tr.percent(row.accuracy, 1),
        )
    return tr.points(getattr(row, metric))


def _line(metric: Metric, ranked: Ranked, tr: Translator) -> str:
    return f"**{ranked.rank}.** {capped_name(ranked.row.name)} · {metric_value(metric, ranked.row, tr)}"


def leaderboard_embed(
    metric: Metric,
    period: Period,
    page: int,
    rows: list[Ranked],
    total: int,
    mine: Ranked | None,
    tr: Translator,
) -> discord.Embed:
    title = tr.text("🏆 Farkle leaderboard · {metric}", metric=tr.term(METRIC_NAMES[metric]))
    embed = discord.Embed(title=title, colour=GOLD)
    embed.description = "\n".join(_line(metric, r, tr) for r in rows) or tr.text(
        "No games counted yet: play one!"
    )
    if mine is not None:
        embed.add_field(name=tr.text("You"), value=_line(metric, mine, tr), inline=False)
    pages = max(1, -(-total // PAGE_SIZE))
    embed.set_footer(
        text=tr.text(
            "{period} · page {page}/{pages} · {count} ranked",
            period=tr.term(PERIOD_NAMES[period]),
            page=page + 1,
            pages=pages,
            count=total,
        )
    )
    return embed


def _page_button(
    metric: Metric, period: Period, page: int, which: str, disabled: bool, tr: Translator
) -> Button:
    """Previous/Next: the id carries the page (`PAGE_TEMPLATE`), so paging works on any leaderboard
    message, even after a restart (the `/farkle` cog's `PageButton` answers it)."""
    label = tr.text("◀ Previous") if which == "prev" else tr.text("Next ▶")
    return Button(label=label, disabled=disabled, custom_id=f"farkle-lb:{metric}:{period}:{page}:{which}")


def leaderboard_view(
    metric: Metric, period: Period, page: int, total: int, tr: Translator
) -> discord.ui.View:
    view = DrawnView(timeout=None)
    last = max(0, -(-total // PAGE_SIZE) - 1)
    view.add_item(_page_button(metric, period, max(page - 1, 0), "prev", page == 0, tr))
    view.add_item(_page_button(metric, period, min(page + 1, last), "next", page >= last, tr))
    return view


def stats_embed(
    name: str,
    row: StatsRow | None,
    tr: Translator,
    accuracy: tuple[float, int] | None = None,
    *,
    everywhere: bool = False,
) -> discord.Embed:
    """A member's totals on one board, or `everywhere` (every server and conversation, asked in a DM), and
    their average review accuracy over their last reviewed games (`accuracy`)."""
    embed = discord.Embed(title=tr.text("📊 {name} at Farkle", name=capped_name(name)), colour=GOLD)
    if everywhere:
        embed.set_footer(text=tr.text("Every server and conversation you played in"))
    if accuracy is not None:
        average, games = accuracy
        shown = tr.plural(
            "{accuracy} (last {count} game)",
            "{accuracy} (last {count} games)",
            games,
            accuracy=tr.percent(average, 1),
        )
        embed.add_field(name=tr.text("Review accuracy"), value=shown, inline=False)
    if row is None:
        embed.description = (
            tr.text("No counted games yet.")
            if everywhere
            else tr.text("No counted games in this server yet.")
        )
        return embed
    values = {
        N_("Games"): tr.number(row.games),
        N_("Wins"): f"{tr.number(row.wins)} ({tr.percent(row.win_rate, 0)})",
        N_("Rating"): tr.decimal(row.rating),
        N_("Points banked"): tr.points(row.points),
        N_("Average turn"): tr.points(round(row.average_turn)),
        N_("Best turn"): tr.points(row.best_turn),
        N_("Best game"): tr.points(row.best_game),
        N_("Farkles"): tr.number(row.farkles),
        N_("Hot dice"): tr.number(row.hot_dice),
    }
    for label, value in values.items():
        embed.add_field(name=tr.term(label), value=value, inline=True)
    return embed


def history_embed(title: str, games: list[GameSummary], tr: Translator) -> discord.Embed:
    embed = discord.Embed(title=title, colour=GOLD)
    lines = []
    for game in games:
        players = ", ".join(
            f"{'🏆 ' if won else ''}{stored_name(name, tr)} {tr.points(bank)}"
            for name, bank, won in game.players
        )
        lines.append(
            f"`{game.game_id}` <t:{int(game.ended_at)}:d> · {rules_name(game.rules_name, tr)} · {players}"
        )
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT) or tr.text("No finished games yet.")
    embed.set_footer(text=tr.text("/farkle replay <game> shows a game move by move"))
    return embed


def replay_lines(
    game: Game,
    names: dict[str, str],
    tr: Translator,
    marks: Mapping[int, str] | None = None,
    art: DiceArt = KEYCAP_ART,
) -> list[str]:
    """The game turn by turn: each roll, what was kept, and how the turn ended; `marks` (a decision's
    cost, by the index of the first event it caused) go before those events. Dice are the die emojis
    (`art`) on the cards, keycaps in the `.txt` (a file shows no Discord emoji)."""
    lines: list[str] = []
    current: list[str] = []
    turn = 0

    def name_of(player: str | None) -> str:
        return stored_name(names.get(player or "", tr.text("someone")), tr)

    for index, event in enumerate(game.events):
        if marks and index in marks and current:
            current.append(marks[index])
        if isinstance(event, TurnStarted):
            if current:
                lines.append(" ".join(current))
            turn += 1
            current = [f"{turn}. {name_of(event.player)}:"]
        elif isinstance(event, Rolled):
            current.append(tr.text("rolled {dice}", dice=art.line(event.dice)))
        elif isinstance(event, Kept):
            kept = tr.text(
                "kept {dice} (+{points}) →", dice=art.line(event.dice), points=tr.points(event.points)
            )
            current.append(kept)
        else:
            line = describe(event, name_of, tr)
            if line and current:
                current.append(f"| {line}")
            elif line:
                lines.append(line)  # the roll-off, before the first turn
    if current:
        lines.append(" ".join(current))
    return lines
