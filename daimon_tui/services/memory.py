"""Memory given back at rest (issue 42): the app's idle collector asks here,
so the view reaches the process's allocator through a service, as it reaches
everything else."""

from __future__ import annotations


def give_back(collect: bool = True) -> bool:
    """Collect cycles (unless the caller just did), then return the allocator's
    free pages to the system. True when memory was returned."""
    from daimon_tui.store import process_memory  # here: ctypes waits for the first rest, not the first frame

    return process_memory.give_back(collect)
