"""The load bench says by itself whether a run meets issue 48's targets: one verdict per shape and one for
memory, each able to say MISSED. No timings are measured here: the runs are made up."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from discord_load import Memory, Presses, Run, verdicts
from verdict import Against, memory_verdict, shape_verdict


@dataclass
class Timed(Presses):
    """Presses with made-up latencies (ms) instead of interactions."""

    latencies: list[float] = field(default_factory=list)

    def latencies_ms(self) -> list[float]:
        return sorted(self.latencies)


def run(kind: str, shape: str, p99_ms: float, cpu_ms: float, memory: Memory | None = None) -> Run:
    latencies = [1.0] * 99 + [p99_ms]  # the nearest-rank p99 of 100 presses is the largest
    return Run(kind, shape, 300, Timed(cpu_seconds=cpu_ms * 100 / 1000, latencies=latencies), memory)


@pytest.mark.parametrize(
    ("cpu", "p99", "said"),
    [(1.8, 1.5, "met"), (1.81, 1.0, "MISSED"), (1.0, 1.51, "MISSED"), (0.5, 0.5, "met")],
)
def test_a_shape_meets_its_targets_only_within_both(cpu: float, p99: float, said: str) -> None:
    line = shape_verdict(Against("bank burst", 300, cpu, p99))
    assert line.startswith("verdict bank burst, 300 games: ") and line.endswith(f": {said}")


@pytest.mark.parametrize(
    ("all_in", "restored", "said"),
    [(20.0, 25.0, "met"), (20.1, 10.0, "MISSED"), (10.0, 25.1, "MISSED"), (10.0, None, "MISSED")],
)
def test_memory_meets_its_targets_only_within_both(all_in: float, restored: float | None, said: str) -> None:
    assert memory_verdict(300, all_in, restored).endswith(f": {said}")


def test_each_farkle_shape_is_judged_against_the_message_bot_of_its_run() -> None:
    kb = 1024
    memory = Memory(300, idle=0, started=19 * 300 * kb, played=21 * 300 * kb, restored_played=24 * 300 * kb)
    runs = [
        run("message", "one at a time", p99_ms=10.0, cpu_ms=2.0),
        run("trivial", "one at a time", p99_ms=1.0, cpu_ms=0.1),  # not the baseline the targets name
        run("farkle", "one at a time", p99_ms=14.0, cpu_ms=3.0, memory=memory),
        run("message", "bank burst", p99_ms=10.0, cpu_ms=1.0),
        run("farkle", "bank burst", p99_ms=10.0, cpu_ms=3.0),
        run("farkle", "roll burst", p99_ms=10.0, cpu_ms=1.0),  # no baseline measured: no verdict
    ]
    assert verdicts(runs) == [
        "verdict one at a time, 300 games: CPU 1.50× the message bot (≤ 1.8), p99 1.40× (≤ 1.5): met",
        "verdict bank burst, 300 games: CPU 3.00× the message bot (≤ 1.8), p99 1.00× (≤ 1.5): MISSED",
        "verdict memory, 300 games: 21.0 KB a game all in (≤ 20), 24.0 KB after a restart and one press"
        " each (≤ 25): MISSED",
    ]
