"""daimon's confirmation held back, as while the judging child still folds."""

from __future__ import annotations

import asyncio

import pytest

from daimon_tui.store.child import first_paint


def hold_confirmation(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Every confirmation asked from now on waits until the returned event is set."""
    release = asyncio.Event()
    confirm = first_paint.confirm_async

    async def held(project, now=None, **kw):
        await release.wait()
        return await confirm(project, now, **kw)

    monkeypatch.setattr(first_paint, "confirm_async", held)
    return release
