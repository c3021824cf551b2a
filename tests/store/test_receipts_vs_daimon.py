"""Receipts written by daimon's own receipt writer (the demo store signs through
`DAIMON_VITNI_CLI`), judged by our audit and by daimon's `verify_receipt`: the
two must agree on every session, whatever was done to the files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from daimon_briefing import receipts

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.read.audit import load_audit

SESSIONS = ("S-day1", "S-day2", "S-day3")


def _sidecar(session_id: str) -> Path:
    return receipts._sidecar_path(receipts._checkpoint_file(session_id))


def _flip_signature(session_id: str) -> None:
    path = _sidecar(session_id)
    sidecar = json.loads(path.read_text(encoding="utf-8"))
    head, payload, signature = sidecar["jws"].split(".")
    sidecar["jws"] = ".".join((head, payload, ("A" if signature[0] != "A" else "B") + signature[1:]))
    path.write_text(json.dumps(sidecar), encoding="utf-8")


DAMAGE: dict[str, Callable[[demo.DemoStore], None]] = {
    "as built": lambda d: None,
    "bytes edited": lambda d: demo.tamper(d.checkpoint_dir, "S-day3"),
    "sidecar removed": lambda d: _sidecar("S-day3").unlink(),
    "sidecar corrupt": lambda d: _sidecar("S-day3").write_text("{not json", encoding="utf-8"),
    "signature flipped": lambda d: _flip_signature("S-day3"),
}

# daimon's verify-receipt exit codes: 0 verified, 1 failed, 2 unable to verify.
VERIFIED, FAILED, UNABLE = 0, 1, 2


@pytest.mark.parametrize("damage", DAMAGE)
def test_our_audit_agrees_with_daimons_verify_receipt(demo_store: demo.DemoStore, damage: str) -> None:
    DAMAGE[damage](demo_store)
    report = load_audit(reader.resolve_project(str(demo_store.project)))
    rows = {r.session_id: r for r in report.receipts}
    assert set(SESSIONS) <= set(rows)
    verdicts = {}
    for session_id in SESSIONS:
        rc, lines = receipts.verify_receipt(session_id)
        row = rows[session_id]
        verdicts[session_id] = rc
        if rc == VERIFIED:
            assert row.state == "signature-valid", (session_id, row.state, lines)
        elif rc == FAILED:
            assert row.failed, (session_id, row.state, lines)
        else:
            assert row.state in {"unsigned", "key-missing"}, (session_id, row.state, lines)
    # The fixture damages S-day2; the parameter damages S-day3: daimon must see both.
    assert verdicts["S-day1"] == VERIFIED and verdicts["S-day2"] == FAILED
    assert verdicts["S-day3"] == (VERIFIED if damage == "as built" else FAILED)
