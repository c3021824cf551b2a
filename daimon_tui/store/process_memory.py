"""Give freed memory back to the operating system once a process rests.

CPython frees an object's memory to its allocator, not to the system: glibc's
malloc keeps freed blocks in its arenas for reuse, so a process that once held
a large fold (the judging child after a first open) or filled its caches (the
app after a burst of verbs) keeps that resident size while it sits idle.
`malloc_trim(0)` hands the free pages of every arena back (`madvise`), which is
what "memory is given back at rest" needs; it is glibc's own call, looked up
once, and where the C library has none (musl, macOS) nothing happens. When
to call it is `domain.at_rest`'s rule; this is the adapter that does it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def can_give_back() -> bool:
    """Whether this C library can hand freed memory back (glibc)."""
    return _trim() is not None


def give_back(collect: bool = True) -> bool:
    """Collect cycles (unless the caller just did), then return the
    allocator's free pages to the system. True when memory was returned."""
    if collect:
        gc.collect()
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
