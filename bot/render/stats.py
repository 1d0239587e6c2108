"""Leaderboards, member statistics, game history and replays as embeds and text. No I/O."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.core.records import GameSummary, Metric, Period, Ranked, SeasonPlace, SeasonStanding, StatsRow
from bot.engine import Game
from bot.engine.history import Kept, Rolled, TurnStarted
from bot.engine.messages import N_
from bot.render.components import GOLD, DrawnView
from bot.render.dice import KEYCAP_ART, DiceArt
from bot.render.language import Translator
from bot.render.layout import ActionRow, Button
from bot.render.parts import stored_name
from bot.render.review import skill_board_value, skill_qualifying, skill_value
from bot.render.words import DESCRIPTION_LIMIT, capped_name, clip, describe, rules_name

PAGE_SIZE = 10
METRIC_NAMES: dict[Metric, str] = {
    "rating": N_("Rating"),
    "wins": N_("Wins"),
    "win_rate": N_("Win rate"),
    "best_turn": N_("Best turn"),
    "points": N_("Points banked"),
    "accuracy": N_("Accuracy"),
    "skill": N_("Skill"),
}
PERIOD_NAMES: dict[Period, str] = {
    "all": N_("all time"),
    "30d": N_("last 30 days"),
    "week": N_("this week"),
    "month": N_("this month"),
    "season": N_("this season"),
}
# At most a million pages: a forged id with a bigger page matches nothing, so it is ignored.
PAGE_TEMPLATE = (
    r"farkle-lb:(?P<metric>[a-z_]+):(?P<period>all|30d|week|month|season):(?P<page>[0-9]{1,6}):"
    r"(?P<which>prev|next)"
)


def metric_value(metric: Metric, row: StatsRow, tr: Translator) -> str:
    if metric == "rating":
        return tr.number(round(row.rating))
    if metric == "win_rate":
        return tr.text("{rate} of {games}", rate=tr.percent(row.win_rate, 0), games=row.games)
    if metric == "accuracy":
        return tr.plural(
            "{accuracy} over {count} game",
            "{accuracy} over {count} games",
            row.games,
            accuracy=tr.percent(row.accuracy, 1),
        )
    if metric == "skill":
        return skill_board_value(row.given_away, row.games, tr)
    return tr.points(getattr(row, metric))


def _line(metric: Metric, ranked: Ranked, tr: Translator) -> str:
    return f"**{ranked.rank}.** {capped_name(ranked.row.name)} · {metric_value(metric, ranked.row, tr)}"


def qualifying(metric: Metric, minimum: int, tr: Translator) -> str:
    """Who a board ranks and which games it counts: every board states its minimum."""
    if metric == "skill":
        return skill_qualifying(minimum, tr)
    if metric == "accuracy":
        return tr.plural(
            "Ranks members with {count} reviewed game or more (games against computers count too).",
            "Ranks members with {count} reviewed games or more (games against computers count too).",
            minimum,
        )
    return tr.plural(
        "Ranks members with {count} rated game or more: games between at least two members here "
        "(games against computers don't count).",
        "Ranks members with {count} rated games or more: games between at least two members here "
        "(games against computers don't count).",
        minimum,
    )


def _not_ranked(metric: Metric, minimum: int, counted: int, tr: Translator) -> str:
    """The asking member's progress towards the board's minimum."""
    if metric == "skill":
        return tr.text("Not ranked yet: {have} of {count} decisions.", have=counted, count=minimum)
    if metric == "accuracy":
        return tr.plural(
            "Not ranked yet: {have} of {count} reviewed game.",
            "Not ranked yet: {have} of {count} reviewed games.",
            minimum,
            have=counted,
        )
    return tr.plural(
        "Not ranked yet: {have} of {count} rated game.",
        "Not ranked yet: {have} of {count} rated games.",
        minimum,
        have=counted,
    )


def leaderboard_embed(
    metric: Metric,
    period: Period,
    page: int,
    rows: list[Ranked],
    total: int,
    mine: Ranked | None,
    tr: Translator,
    *,
    minimum: int,
    counted: int,
    season: str | None = None,
) -> discord.Embed:
    """A page of a board; its minimum and what it counts under the lines, the asker's rank or progress;
    `season` names the season a season board shows."""
    title = tr.text("🏆 Farkle leaderboard · {metric}", metric=tr.term(METRIC_NAMES[metric]))
    embed = discord.Embed(title=title, colour=GOLD)
    lines = "\n".join(_line(metric, r, tr) for r in rows) or tr.text("Nobody is ranked yet.")
    embed.description = f"{lines}\n\n*{qualifying(metric, minimum, tr)}*"
    you = _line(metric, mine, tr) if mine is not None else _not_ranked(metric, minimum, counted, tr)
    embed.add_field(name=tr.text("You"), value=you, inline=False)
    pages = max(1, -(-total // PAGE_SIZE))
    over = tr.term(PERIOD_NAMES[period])
    embed.set_footer(
        text=tr.text(
            "{period} · page {page}/{pages} · {count} ranked",
            period=f"{over} ({season})" if season else over,
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


def leaderboard_view(metric: Metric, period: Period, page: int, total: int, tr: Translator) -> DrawnView:
    last = max(0, -(-total // PAGE_SIZE) - 1)
    previous = _page_button(metric, period, max(page - 1, 0), "prev", page == 0, tr)
    following = _page_button(metric, period, min(page + 1, last), "next", page >= last, tr)
    return DrawnView(ActionRow(previous, following))


def stats_embed(
    name: str,
    row: StatsRow | None,
    tr: Translator,
    accuracy: tuple[float, int] | None = None,
    *,
    everywhere: bool = False,
    skill: tuple[float, int] | None = None,
) -> discord.Embed:
    """A member's totals on one board, or `everywhere` (every server and conversation, asked in a DM), their
    average review accuracy over their last reviewed games (`accuracy`) and their skill, always: the
    figure, or how many of the decisions it needs they have. The card says which games each number
    counts: totals and rating count rated games, accuracy and skill every reviewed game."""
    embed = discord.Embed(title=tr.text("📊 {name} at Farkle", name=capped_name(name)), colour=GOLD)
    if everywhere:
        embed.set_footer(text=tr.text("Every server and conversation you played in"))
    counts = [
        tr.text(
            "Rated games are games between at least two members; the totals and the rating count only "
            "those, not games against computers."
        )
    ]
    if accuracy is not None:
        average, games = accuracy
        shown = tr.plural(
            "{accuracy} (last {count} reviewed game)",
            "{accuracy} (last {count} reviewed games)",
            games,
            accuracy=tr.percent(average, 1),
        )
        embed.add_field(name=tr.text("Review accuracy"), value=shown, inline=False)
        counts.append(tr.text("Review accuracy counts every reviewed game, games against computers too."))
    embed.add_field(name=tr.term(N_("Skill")), value=skill_value(skill, tr), inline=False)  # render/review.py
    counts.append(tr.text("Skill counts every decision reviewed in chances to win, against computers too."))
    if row is None:
        empty = (
            tr.text("No rated games yet.") if everywhere else tr.text("No rated games in this server yet.")
        )
        embed.description = "\n".join([empty, *counts])
        return embed
    embed.description = "\n".join(counts)
    values = {
        N_("Rated games"): tr.number(row.games),
        N_("Wins"): f"{tr.number(row.wins)} ({tr.percent(row.win_rate, 0)})",
        N_("Rating"): tr.number(round(row.rating)),
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


def add_seasons(embed: discord.Embed, places: list[SeasonPlace], tr: Translator) -> None:
    """The seasons a member placed in, newest first, under their numbers."""
    if not places:
        return
    lines = [
        tr.text("{season} · #{rank} of {ranked}", season=p.season, rank=p.rank, ranked=tr.number(p.ranked))
        for p in places
    ]
    embed.add_field(name=tr.text("Seasons"), value="\n".join(lines), inline=False)


def season_embed(season: str, standings: list[SeasonStanding], tr: Translator) -> discord.Embed:
    """A season's final standings, posted once when it ends: ranked by rating at its end, among the
    members with a rated game in it."""
    embed = discord.Embed(title=tr.text("🏁 Season {season}: final standings", season=season), colour=GOLD)
    lines = [
        f"**{s.rank}.** {capped_name(s.name)} · {tr.number(round(s.rating))} · "
        + tr.plural("{count} rated game", "{count} rated games", s.games)
        for s in standings
    ]
    embed.description = "\n".join(lines) or tr.text("Nobody played a rated game this season.")
    embed.set_footer(
        text=tr.text("Ranked by rating at the season's end, among members with a rated game in it")
    )
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
