"""Quiet moments give memory back: cyclic garbage is collected and free pages return to the host."""

from __future__ import annotations

import gc
import weakref

import pytest

from bot.app import memory


class Node:
    def __init__(self) -> None:
        self.partner: Node | None = None


def test_release_collects_cycles_then_trims(monkeypatch: pytest.MonkeyPatch) -> None:
    trimmed: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: lambda pad: trimmed.append(pad) or 1)
    gc.disable()  # only the release may collect the cycle
    try:
        first, second = Node(), Node()
        first.partner, second.partner = second, first
        alive = weakref.ref(first)
        del first, second
        assert alive() is not None, "a cycle waits for the collector"
        assert memory.release_memory()
        assert alive() is None
    finally:
        gc.enable()
    assert trimmed == [0], "every free page, no padding kept"


def test_without_malloc_trim_only_the_collection_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "_malloc_trim", lambda: None)
    assert not memory.release_memory()


def test_glibc_hands_back_pages() -> None:
    """This machine's C library (the Docker image's too: Debian) has `malloc_trim`."""
    assert memory._malloc_trim() is not None
    assert memory.release_memory()
