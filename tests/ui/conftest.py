"""UI test defaults."""

from __future__ import annotations

import pytest

from daimon_tui.ui.screens.verb_modals import ConfirmModal


@pytest.fixture(autouse=True)
def instant_confirm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot presses `y` the moment a preview opens; the delay that stops a
    person's stray key is proven by its own test, which sets it back."""
    monkeypatch.setattr(ConfirmModal, "CONFIRM_DELAY_S", 0.0)
