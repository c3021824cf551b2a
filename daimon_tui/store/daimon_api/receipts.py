"""Receipts: where daimon keeps its public key and a session's receipt, and
the binding a receipt signs."""

from __future__ import annotations

from daimon_briefing import receipts

from daimon_tui.store.daimon_api import mode


def refusal() -> str | None:
    """Why our own receipt check is off in this mode (safe mode), or None."""
    return mode.refusal("receipts.names")


def public_key_file_name() -> str:
    mode.require("receipts.names")
    return receipts._PUB_FILE


def sidecar_suffix() -> str:
    mode.require("receipts.names")
    return receipts._SIDECAR_SUFFIX


def binding() -> str:
    mode.require("receipts.names")
    return receipts._BINDING
