"""Drawings of a tournament: its card (Components V2: sign-up, entrants, format, then the live bracket or
standings), a match's call to its players, how a match was decided, the podium, and the server's list.

A card's buttons carry `farkle-tour:<tournament>:<action>[:<match>]`: stable for the tournament's life,
so a press on a card drawn before a restart still works.
"""

from __future__ import annotations

import discord

from bot.engine.messages import N_
from bot.engine.tournament import STAND_IN, TIE_BREAKS, Match, Standing
from bot.render.components import GREY, DrawnView, Rendered, card, heading, rows
from bot.render.language import Translator
from bot.render.layout import ActionRow, Button, Part, Separator, TextDisplay
from bot.render.words import capped_name, clip, rules_name
from bot.sessions.tournament.state import TournamentView

PREFIX = "farkle-tour"
TEMPLATE = (
    rf"{PREFIX}:(?P<tournament>[0-9a-f]{{12}}):(?P<action>join|leave|start|ready)"
    r"(?::(?P<key>[0-9]{1,2}-[0-9]{1,2}))?"
)
STAND_IN_NAME = N_("Computer stand-in")
FORMAT_NAMES = {"single": N_("Single elimination"), "swiss": N_("Swiss")}
TIE_BREAK_NAMES = {
    "Buchholz": N_("Buchholz"),
    "Sonneborn-Berger": N_("Sonneborn-Berger"),
    "matches won": N_("matches won"),
    "seed": N_("seed"),
}
HOW_NAMES = {
    "bye": N_("bye"),
    "forfeit": N_("forfeit"),
    "advanced": N_("advanced by the host"),
    "disqualified": N_("disqualified"),
}
MEDALS = ("🥇", "🥈", "🥉")
# Characters of match lines and of standings on a card, with its header under the 4,000 of a V2 message.
BRACKET_BUDGET = 2400
STANDINGS_BUDGET = 1000
ENTRANTS_BUDGET = 900
PODIUM_BUDGET = 3200


def custom_id(tournament_id: str, action: str, key: str | None = None) -> str:
    return f"{PREFIX}:{tournament_id}:{action}" + (f":{key}" if key else "")


def name(view: TournamentView, user_id: int | None, tr: Translator) -> str:
    if user_id == STAND_IN:
        return tr.text(STAND_IN_NAME)
    return discord.utils.escape_markdown(capped_name(view.name_of(user_id)))


def format_line(view: TournamentView, tr: Translator) -> str:
    """ "Swiss, 3 rounds · best of three · classic rules to 10,000"."""
    parts = [tr.text(FORMAT_NAMES[view.format])]
    if view.format == "swiss" and view.rounds:
        parts[0] = tr.plural("Swiss, {count} round", "Swiss, {count} rounds", view.rounds)
    parts.append(tr.text("best of three") if view.best_of == 3 else tr.text("one game a match"))
    parts.append(
        tr.text(
            "{rules} rules to {target}",
            rules=rules_name(view.rules.name, tr),
            target=tr.points(view.rules.target),
        )
    )
    return " · ".join(parts)


def tournament_card(view: TournamentView, tr: Translator) -> Rendered:
    """The card in the tournament's channel, redrawn as it moves on."""
    lines = [f"### 🏆 {discord.utils.escape_markdown(clip(view.name, 100))}", format_line(view, tr)]
    minutes = max(1, view.match_deadline // 60)
    lines.append(
        tr.plural(
            "-# Press Ready within {count} minute of your match opening, or forfeit it.",
            "-# Press Ready within {count} minutes of your match opening, or forfeit it.",
            minutes,
        )
    )
    parts: list[Part] = [TextDisplay("\n".join(lines)), Separator()]
    if view.stage == "signup":
        parts.extend(_signup(view, tr))
    elif view.stage == "cancelled":
        parts.append(TextDisplay(tr.text("This tournament was cancelled.")))
    else:
        parts.append(TextDisplay(_bracket(view, tr)))
        if view.format == "swiss" or view.stage == "over":
            standings = _standings(view, tr, 16, STANDINGS_BUDGET)
            parts.append(TextDisplay(heading(tr.text("Standings"), standings)))
    return card(parts, GREY if view.stage in ("over", "cancelled") else discord.Colour.gold())


def _signup(view: TournamentView, tr: Translator) -> list[Part]:
    names = [name(view, user, tr) for user in view.entrants]
    shown = clip(", ".join(names), ENTRANTS_BUDGET) if names else tr.text("Nobody yet: press Join!")
    title = tr.text("Entrants ({count}/64)", count=len(names))
    if view.signup_until is not None:
        until = tr.text("Sign-up closes {when}.", when=f"<t:{int(view.signup_until)}:R>")
    else:
        until = tr.text("Sign-up is open until the host starts (4 to 64 players).")
    buttons = [
        Button(
            label=tr.text("Join"),
            style=discord.ButtonStyle.success,
            custom_id=custom_id(view.tournament_id, "join"),
        ),
        Button(
            label=tr.text("Leave"),
            style=discord.ButtonStyle.secondary,
            custom_id=custom_id(view.tournament_id, "leave"),
        ),
        Button(
            label=tr.text("Start"),
            style=discord.ButtonStyle.primary,
            custom_id=custom_id(view.tournament_id, "start"),
        ),
    ]
    return [TextDisplay(f"{heading(title, shown)}\n-# {until}"), *rows(buttons)]


def match_line(view: TournamentView, match: Match, tr: Translator) -> str:
    """One match on one line: both players and, once decided, its result."""
    first = name(view, match.first, tr)
    if match.second is None:
        return f"`{match.key}` **{first}** · {tr.text(HOW_NAMES['bye'])}"
    second = name(view, match.second, tr)
    if not match.decided:
        games = f" ({match.wins_of(match.first)}–{match.wins_of(match.second)})" if match.games else ""
        return f"`{match.key}` {_versus(first, second, tr)}{games}"
    if match.winner is None:
        both = _versus(f"~~{first}~~", f"~~{second}~~", tr)
        return f"`{match.key}` {both} · {tr.text(HOW_NAMES['forfeit'])}"
    winner, loser = (first, second) if match.winner == match.first else (second, first)
    result = f"{match.wins_of(match.winner)}–{len(match.games) - match.wins_of(match.winner)}"
    how = match.how or "played"
    said = result if how == "played" else tr.text(HOW_NAMES[how])
    if how == "played":
        beat = tr.text("{winner} beat {loser}", winner=f"**{winner}**", loser=loser)
        return f"`{match.key}` {beat} · {said}"
    return f"`{match.key}` {_versus(f'**{winner}**', f'~~{loser}~~', tr)} · {said}"


def _versus(first: str, second: str, tr: Translator) -> str:
    return tr.text("{first} vs {second}", first=first, second=second)


def _bracket(view: TournamentView, tr: Translator) -> str:
    """The rounds, newest first, each match on a line, within the card's budget."""
    blocks: list[str] = []
    used = 0
    for rnd in reversed(view.rounds_played):
        number = rnd[0].round if rnd else 0
        title = tr.text("Round {round} of {rounds}", round=number, rounds=view.rounds)
        lines = [match_line(view, m, tr) for m in rnd]
        block = heading(title, "\n".join(lines))
        if used + len(block) > BRACKET_BUDGET:
            decided = sum(1 for m in rnd if m.decided)
            block = heading(
                title, tr.text("{done} of {count} matches decided.", done=decided, count=len(rnd))
            )
            if used + len(block) > BRACKET_BUDGET:
                break
        blocks.append(block)
        used += len(block)
    return "\n\n".join(blocks) or tr.text("The first round is being drawn.")


def _standings(view: TournamentView, tr: Translator, most: int, budget: int) -> str:
    """The best `most` lines of the standings that fit in `budget` characters, then how many more."""
    lines: list[str] = []
    used = 0
    for line in view.standings[:most]:
        drawn = _standing(view, line, tr)
        if used + len(drawn) > budget:
            break
        lines.append(drawn)
        used += len(drawn) + 1
    if len(view.standings) > len(lines):
        lines.append(tr.text("…and {count} more", count=len(view.standings) - len(lines)))
    breaks = ", ".join(tr.text(TIE_BREAK_NAMES[b]) for b in TIE_BREAKS)
    if view.format == "swiss":
        lines.append(tr.text("-# Ties broken by {breaks}.", breaks=breaks))
    return "\n".join(lines)


def _standing(view: TournamentView, line: Standing, tr: Translator) -> str:
    medal = (
        MEDALS[line.place - 1] if line.place <= len(MEDALS) and view.stage == "over" else f"**{line.place}.**"
    )
    record = tr.text("{won}–{lost}", won=line.won, lost=line.lost)
    if view.format == "swiss":
        return tr.text(
            "{place} {name} · {points} pts · Buchholz {buchholz} · {record}",
            place=medal,
            name=name(view, line.player, tr),
            points=tr.decimal(line.points, 0),
            buchholz=tr.decimal(line.buchholz, 0),
            record=record,
        )
    return f"{medal} {name(view, line.player, tr)} · {record}"


def podium(view: TournamentView, tr: Translator) -> Rendered:
    """The final post: the podium and every entrant's record."""
    top = [s for s in view.standings if s.place <= 3]
    lines = [
        f"### 🏆 {tr.text('{name}: the results', name=discord.utils.escape_markdown(clip(view.name, 100)))}"
    ]
    lines += [f"{MEDALS[s.place - 1]} **{name(view, s.player, tr)}**" for s in top]
    parts: list[Part] = [TextDisplay("\n".join(lines)), Separator()]
    records = _standings(view, tr, 64, PODIUM_BUDGET)
    parts.append(TextDisplay(heading(tr.text("Every entrant's record"), records)))
    return card(parts)


def match_call(view: TournamentView, match: Match, tr: Translator) -> tuple[str, DrawnView]:
    """The message opening a match: both players pinged once, and the Ready button."""
    players = " ".join(f"<@{p}>" for p in match.players if p != STAND_IN)
    live = view.live.get(match.key)
    deadline = f"<t:{int(live.deadline)}:R>" if live else ""
    text = tr.text(
        "⚔️ {players}: your match {key} of **{tournament}** is open ({first} vs {second}). Press Ready; "
        "the game starts when both of you have. Whoever hasn't pressed by {deadline} forfeits.",
        players=players,
        key=match.key,
        tournament=discord.utils.escape_markdown(clip(view.name, 100)),
        first=name(view, match.first, tr),
        second=name(view, match.second, tr),
        deadline=deadline,
    )
    ready = Button(
        label=tr.text("Ready"),
        style=discord.ButtonStyle.success,
        custom_id=custom_id(view.tournament_id, "ready", match.key),
    )
    return clip(text, 2000), DrawnView(ActionRow(ready))


def thread_title(view: TournamentView, match: Match, tr: Translator) -> str:
    players = _versus(name(view, match.first, tr), name(view, match.second, tr), tr)
    return clip(f"{view.name} · {match.key}: {players}", 100)


def decided_line(view: TournamentView, match: Match, tr: Translator) -> str:
    """How a match ended, said in its place."""
    if match.winner is None:
        return tr.text(
            "Neither player pressed Ready in time: match {key} counts as lost for both.", key=match.key
        )
    winner = name(view, match.winner, tr)
    if match.how == "forfeit":
        return tr.text(
            "⏰ {name} wins match {key}: the opponent didn't press Ready in time.", name=winner, key=match.key
        )
    if match.how == "advanced":
        return tr.text("The host advanced {name} in match {key}.", name=winner, key=match.key)
    if match.how == "disqualified":
        return tr.text("{name} wins match {key}: the opponent was disqualified.", name=winner, key=match.key)
    return tr.text("🏁 {name} wins match {key}.", name=winner, key=match.key)


def tournament_list(views: list[TournamentView], tr: Translator) -> str:
    """A server's tournaments, newest first, one line each."""
    stages = {
        "signup": tr.text("signing up"),
        "running": tr.text("running"),
        "over": tr.text("over"),
        "cancelled": tr.text("cancelled"),
    }
    if not views:
        return tr.text("No tournaments on this server yet: start one with `/farkle tournament new`.")
    lines = []
    for view in views:
        champion = (
            next((s.player for s in view.standings if s.place == 1), None) if view.stage == "over" else None
        )
        won = f" · 🏆 {name(view, champion, tr)}" if champion is not None else ""
        lines.append(
            f"`{view.tournament_id}` **{discord.utils.escape_markdown(clip(view.name, 60))}** · "
            f"{tr.text(FORMAT_NAMES[view.format])} · {stages[view.stage]} · <#{view.channel_id}>{won}"
        )
    return clip("\n".join(lines), 4000)
