"""UI test defaults."""

from __future__ import annotations

import pytest

from daimon_tui.ui.screens.verb_modals import ConfirmModal
from tests.sandbox_paths import mask_svg


@pytest.fixture(autouse=True)
def snapshot_masks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Snapshots never depend on the run's private sandbox path (see `mask_svg`)."""
    from textual import _doc

    take = _doc.take_svg_screenshot

    def masked(*args, **kwargs) -> str:
        return mask_svg(take(*args, **kwargs))

    monkeypatch.setattr(_doc, "take_svg_screenshot", masked)


@pytest.fixture(autouse=True)
def instant_confirm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot presses `y` the moment a preview opens; the delay that stops a
    person's stray key is proven by its own test, which sets it back."""
    monkeypatch.setattr(ConfirmModal, "CONFIRM_DELAY_S", 0.0)


@pytest.fixture(autouse=True)
def frozen_review_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's dwell clock stands still: a row counts as read only when a
    test moves the clock (`app.review_clock`), never because the machine was slow."""
    from daimon_tui.ui.briefing import review as review_tracker

    monkeypatch.setattr(review_tracker, "monotonic", lambda: 0.0)
