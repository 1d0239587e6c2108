"""The load bench's profiler: the cycle collector runs no bytecode, so no timer tick lands in it; its CPU
time must still show, in a bucket of its own, rather than fall on whichever code allocated last."""

from __future__ import annotations

import gc
from pathlib import Path

from loopback.profiling import COLLECTING, GARBAGE, StackSampler, from_stacks


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_a_collection_is_charged_to_garbage_collection(tmp_path: Path) -> None:
    sampler = StackSampler()
    sampler.start()
    try:
        garbage = [Node() for _ in range(200_000)]
        del garbage
        gc.collect()
    finally:
        sampler.stop(str(tmp_path / "stacks"))
    assert sampler._collection not in gc.callbacks  # stopping unhooks it

    profile = from_stacks(tmp_path / "stacks", presses=1)
    assert profile.buckets[GARBAGE] > 0
    assert any(row.key == COLLECTING and row.bucket == GARBAGE for row in profile.top)
