"""A tournament as the door holds it (settings, entrants, bracket, open matches) and the frozen view the
cards are drawn from; stored as a `TournamentRow` with the bracket and open matches as JSON."""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Literal

from bot.core.records import EntrantRow, TournamentRow
from bot.engine import Ruleset
from bot.engine.tournament import STAND_IN, Bracket, Format, Match, Standing

Stage = Literal["signup", "running", "over", "cancelled"]


STAND_IN_LEVEL = "normal"  # the stand-in's level unless the host chose a skill
STAND_IN_NAME = "Computer stand-in"  # drawn translated (`bot.render.tournament`)


def new_tournament_id() -> str:
    return secrets.token_hex(6)


@dataclass
class LiveMatch:
    """An open match: when it opened, its deadline to check in, where it is played, who pressed Ready,
    and the game being played for it (the next one starts in the same place in a best of three)."""

    opened_at: float
    deadline: float
    place: int | None = None  # the channel or thread id the match is played in
    in_thread: bool = False
    ready: list[int] = field(default_factory=list)
    game_id: str | None = None


@dataclass
class Tournament:
    tournament_id: str
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    format: Format
    rounds: int
    best_of: int
    rules: Ruleset
    match_deadline: int  # seconds from a match's opening to press Ready
    signup_until: float | None
    created_at: float
    stage: Stage = "signup"
    entrants: dict[int, str] = field(default_factory=dict)  # in the order they joined
    bracket: Bracket | None = None
    live: dict[str, LiveMatch] = field(default_factory=dict)
    ended_at: float | None = None
    revision: int = 0
    stand_in_level: str = STAND_IN_LEVEL  # the computer a bye plays: a level, or "skill:NN"

    def name_of(self, user_id: int | None) -> str:
        if user_id is None:
            return "—"
        return self.entrants.get(user_id, "?")

    def forget(self, user_id: int, name: str) -> None:
        if user_id in self.entrants:
            self.entrants[user_id] = name

    def row(self) -> TournamentRow:
        state = {
            "bracket": json.loads(self.bracket.to_json()) if self.bracket else None,
            "live": {key: asdict(match) for key, match in self.live.items()},
            "stand_in": self.stand_in_level,
        }
        return TournamentRow(
            tournament_id=self.tournament_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            name=self.name,
            format=self.format,
            rounds=self.rounds,
            best_of=self.best_of,
            rules=json.dumps(self.rules.model_dump(mode="json")),
            match_deadline=self.match_deadline,
            signup_until=self.signup_until,
            stage=self.stage,
            state=json.dumps(state, separators=(",", ":")),
            created_at=self.created_at,
            ended_at=self.ended_at,
            revision=self.revision,
        )

    @classmethod
    def from_row(cls, row: TournamentRow, entrants: list[EntrantRow]) -> Tournament:
        """Names live only in the entrants' rows (forget-me rewrites them there)."""
        state = json.loads(row.state)
        bracket = Bracket.from_json(json.dumps(state["bracket"])) if state.get("bracket") else None
        names = {e.user_id: e.name for e in entrants}
        if bracket is not None and bracket.stand_in:
            names[STAND_IN] = STAND_IN_NAME
        return cls(
            tournament_id=row.tournament_id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            name=row.name,
            format="swiss" if row.format == "swiss" else "single",
            rounds=row.rounds,
            best_of=row.best_of,
            rules=Ruleset.model_validate(json.loads(row.rules)),
            match_deadline=row.match_deadline,
            signup_until=row.signup_until,
            created_at=row.created_at,
            stage=_stage(row.stage),
            entrants=names,
            bracket=bracket,
            live={key: LiveMatch(**match) for key, match in state.get("live", {}).items()},
            ended_at=row.ended_at,
            revision=row.revision,
            stand_in_level=state.get("stand_in", STAND_IN_LEVEL),  # tournaments saved before it: normal
        )

    def view(self) -> TournamentView:
        """A copy at this revision for drawing: the bracket and open matches copied, the rules shared
        (a ruleset never changes)."""
        copied = Bracket.from_json(self.bracket.to_json()) if self.bracket else None
        live = {key: LiveMatch(**asdict(match)) for key, match in self.live.items()}
        return replace(self, entrants=dict(self.entrants), bracket=copied, live=live)

    # ------------------------------------------------------------------ what drawings read

    @property
    def rounds_played(self) -> list[list[Match]]:
        return self.bracket.rounds if self.bracket else []

    @property
    def standings(self) -> list[Standing]:
        return self.bracket.standings() if self.bracket else []

    def match(self, key: str) -> Match | None:
        return self.bracket.match(key) if self.bracket else None


# A tournament copied at one revision (`Tournament.view`): what the card, match calls and podium are
# drawn from; nobody changes it.
TournamentView = Tournament


def _stage(text: str) -> Stage:
    for stage in ("signup", "running", "over", "cancelled"):
        if text == stage:
            return stage
    raise ValueError(f"unknown tournament stage {text!r}")
