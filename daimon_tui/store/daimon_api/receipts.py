"""Receipts: where daimon keeps its public key and a session's receipt, and
the binding a receipt signs."""

from __future__ import annotations

from daimon_tui.store.daimon_api import mode, private


def refusal() -> str | None:
    """Why our own receipt check is off in this mode (safe mode), or None."""
    return mode.refusal("receipts.names")


def public_key_file_name() -> str:
    mode.require("receipts.names")
    return private.public_key_file_name()


def sidecar_suffix() -> str:
    mode.require("receipts.names")
    return private.sidecar_suffix()


def binding() -> str:
    mode.require("receipts.names")
    return private.binding()
