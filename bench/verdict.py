"""Issue 48's targets, said by the load bench itself: a run tells whether it meets them, one line per shape
and one for memory (`discord_load.py` prints them after the tables).

Every press shape costs at most `CPU_TIMES` the small-message bot's CPU per press, with a p99 at most
`P99_TIMES` its p99, measured in the same run; at `MEMORY_GAMES` games a live game holds at most
`ALL_IN_KB` of RSS (over the bot with no game, after one press each) and at most `RESTORED_KB` after a
restart and one press each."""

from __future__ import annotations

from dataclasses import dataclass

CPU_TIMES = 1.8
P99_TIMES = 1.5
ALL_IN_KB = 20.0
RESTORED_KB = 25.0
MEMORY_GAMES = 300
SHAPES = ("one at a time", "roll burst", "bank burst")


@dataclass(frozen=True)
class Against:
    """One Farkle shape over the small-message bot's same shape and size: CPU per press and p99, as ratios."""

    shape: str
    games: int
    cpu: float
    p99: float


def _said(met: bool) -> str:
    return "met" if met else "MISSED"


def shape_verdict(ratio: Against) -> str:
    met = ratio.cpu <= CPU_TIMES and ratio.p99 <= P99_TIMES
    return (
        f"verdict {ratio.shape}, {ratio.games} games: CPU {ratio.cpu:.2f}× the message bot (≤ {CPU_TIMES}),"
        f" p99 {ratio.p99:.2f}× (≤ {P99_TIMES}): {_said(met)}"
    )


def memory_verdict(games: int, all_in_kb: float, restored_kb: float | None) -> str:
    """RSS KB per live game, all in after one press each, and after a restart and one press each."""
    restored = restored_kb if restored_kb is not None else float("nan")
    met = all_in_kb <= ALL_IN_KB and restored <= RESTORED_KB  # no restart measured: not met
    return (
        f"verdict memory, {games} games: {all_in_kb:.1f} KB a game all in (≤ {ALL_IN_KB:g}),"
        f" {restored:.1f} KB after a restart and one press each (≤ {RESTORED_KB:g}): {_said(met)}"
    )
