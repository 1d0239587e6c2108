"""Give memory the process no longer uses back to the host, at quiet moments.

CPython frees objects into glibc's allocator, which keeps the freed pages inside its heaps for later
use: after a start-up (catalogues compiled, games restored, commands synced) and after a burst of
presses, megabytes of them sit free between live objects and still count as the bot's memory (idle:
about 2 MB). A full collection frees the garbage in reference cycles, then `malloc_trim` hands every
free page back. It takes a few milliseconds, so it runs only when nobody is waiting for an answer.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`; None where the C library has none (musl, macOS)."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def release_memory() -> bool:
    """Collect every generation, then return the free pages; False if only the collection could run."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
