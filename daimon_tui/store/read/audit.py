"""The audit: receipts of every session file, daimon's rejection ledger and
ledger health, read through daimon's view plus our native receipt check.

Read-only: nothing here writes, repairs or re-signs. Session files and their
sidecars are read only from inside daimon's checkpoint directory; a session id
or a symlink that would lead outside it is refused and reported.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from daimon_tui.domain.audit_report import (
    DAIMON_AGREES,
    AffectedItem,
    AuditReport,
    LedgerRow,
    ReceiptRow,
    Rejection,
)
from daimon_tui.domain.receipt_check import ReceiptVerdict, check_receipt
from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.daimon_api import receipts as daimon_receipts
from daimon_tui.store.daimon_api.mode import Unavailable
from daimon_tui.store.daimon_api.public import api, config, receipts, schema, surfaces, view
from daimon_tui.store.judging import kept_fold

# One line per reason code daimon writes to verification.jsonl.
REASONS: Mapping[str, str] = {
    "echo-only": "the quote appears only inside daimon's own injected output, not in what was said",
    "quote-not-in-transcript": "the verbatim quote is nowhere in the session transcript; kept as inferred",
    "no-signal-cited": "an outcome claim cited no tool signal; kept as inferred",
    "receipt-tampered": "the item's checkpoint bytes no longer match its signed receipt",
    "receipt-invalid": "the item's checkpoint receipt failed verification",
    "receipt-valid": "cure: a later check found the receipt valid again",
    "claim-contradicted": "world check: the world contradicts the claim",
    "claim-confirmed": "cure: a later world check confirmed the claim",
}
WORLD_CLASSES: Mapping[str, str] = {
    "file-exists": "a file the item names",
    "branch-state": "a branch the item names",
    "pr-state": "a pull request the item names",
}
CURE_CHECKS = frozenset({"receipt-ok", *(f"{cls}-ok" for cls in WORLD_CLASSES)})


# ---- reading inside the checkpoint dir --------------------------------------


def _read(path: Path) -> tuple[bytes | None, float | None]:
    try:
        return path.read_bytes(), path.stat().st_mtime
    except OSError:
        return None, None


def _public_jwk(diagnostics: list[Diagnostic]) -> dict | None:
    path = config.keys_dir() / daimon_receipts.public_key_file_name()
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, ValueError):
        diagnostics.append(Diagnostic(source="audit", message=f"{path.name} is not a readable public key"))
        return None
    return value if isinstance(value, dict) else None


# ---- what a receipt affects ---------------------------------------------------


def _items(checkpoint: Mapping | None) -> Iterable[tuple[str, dict]]:
    if not isinstance(checkpoint, Mapping):
        return
    for field in schema.ITEM_FIELDS:
        block = checkpoint.get(field.section)
        value = block.get(field.key) if isinstance(block, Mapping) else None
        for item in [value] if field.singleton else (value if isinstance(value, list) else []):
            if isinstance(item, dict):
                yield field.kind, item


def _affected(
    sid: str, latest_sid: str | None, latest: Mapping | None, degrades: bool, closed: frozenset,
    shown: Mapping[str, str],
) -> tuple[AffectedItem, ...]:
    """Items the brief still shows whose label rests on this session's receipt
    (items a resolution closed are not shown, so nothing of theirs degrades).
    `shown` is each item's mark as daimon's brief renders it: a verbatim item
    carried past its staleness budget reads `? unverified`, never degraded."""
    out: list[AffectedItem] = []
    for kind, item in _items(latest):
        text = item.get("text") if isinstance(item.get("text"), str) else ""
        item_id = item.get("id") if isinstance(item.get("id"), str) else None
        if item_id in closed:
            continue
        if sid == latest_sid:
            if item.get("trust") == "verbatim":
                mark = shown.get(item_id or "") if item_id else None
                how: Literal["degrades", "stale", "verbatim"] = "verbatim"
                if mark == "stale":
                    how = "stale"
                elif mark == "unverified-verbatim" or (degrades and mark is None):
                    how = "degrades"
                out.append(AffectedItem(item_id=item_id, kind=kind, text=text, how=how))
        elif item.get("carried_from") and sid in (item.get("carried_from"), item.get("origin_session")):
            out.append(AffectedItem(item_id=item_id, kind=kind, text=text, how="carried"))
    return tuple(out)


# ---- forget hint ---------------------------------------------------------------


def _epoch(ts: str | None) -> float | None:
    for fmt in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S.%fZ"):
        try:
            return datetime.strptime(ts or "", fmt).replace(tzinfo=UTC).timestamp()
        except ValueError:
            continue
    return None


def _forget_hint(row: ReceiptRow, tombstones: tuple[tuple[float, str], ...]) -> str | None:
    """daimon's forget rewrites older session files without re-signing them.
    A mismatch whose file changed at or after a forget that came after the
    signing may be that scrub rather than tampering. Event stamps are whole
    seconds, so the window is widened to whole seconds both ways."""
    if row.state != "mismatch" or row.sidecar_mtime is None or row.file_mtime is None:
        return None
    signed, changed = math.floor(row.sidecar_mtime), math.ceil(row.file_mtime)
    hits = [ts for epoch, ts in tombstones if signed <= epoch <= changed]
    if not hits:
        return None
    return (
        f"a forget at {hits[-1]} is newer than this receipt: daimon's forget rewrites older "
        "session files without re-signing, so this may be the forget, not tampering"
    )


# ---- sections -----------------------------------------------------------------


def _shown_marks(project: ProjectRef) -> dict[str, str]:
    """Each item's mark as daimon's brief renders it now (the briefing's own
    read: `briefing.prepare`'s stamps, then daimon's mark), by id."""
    from daimon_tui.store.read import reader

    read = reader.load_briefing(project, budgeted=False)
    return {i.id: i.mark for i in (*read.items(), *read.resolved) if i.id}


# The states daimon's public byte check answers: the agreement table's keys
# (`test_audit_vocabulary_is_daimons` holds them to `view.receipt_state`'s).
_DAIMON_STATES = frozenset(DAIMON_AGREES)


def _receipt_rows(
    project: ProjectRef, latest: Mapping | None, snap: object, diagnostics: list[Diagnostic]
) -> tuple[ReceiptRow, ...]:
    target = project.target
    listing = view.sessions(target)
    if listing.unreadable:
        diagnostics.append(
            Diagnostic(
                source="audit", message=f"{listing.unreadable} session file(s) in the store cannot be parsed"
            )
        )
    root = config.checkpoint_dir().resolve()
    # safe mode: our signature check needs daimon's private receipt names;
    # daimon's public byte check (`api.receipt_state`) answers alone.
    native_off = daimon_receipts.refusal()
    if native_off:
        diagnostics.append(Diagnostic(level="info", source="audit", message=(
            f"{native_off}; each session shows daimon's own byte check (`api.receipt_state`)")))
    jwk = _public_jwk(diagnostics) if not native_off else None
    latest_sid = latest.get("session_id") if isinstance(latest, Mapping) else None
    closed = frozenset(getattr(snap, "resolved_refs", ()) or ())
    # Only tombstones are wanted: the kept fold hands daimon's reader just the
    # rows that may be one, not the whole events ledger.
    with kept_fold.tombstone_rows():
        events = view.events(target, snap=snap)
    tombstones = tuple(
        (epoch, event.ts)
        for event in events
        if event.tombstone and (epoch := _epoch(event.ts)) is not None
    )
    rows: list[ReceiptRow] = []
    shown: dict[str, str] | None = None
    for entry in listing.rows:
        sid = entry.session_id
        created = entry.created if isinstance(entry.created, str) else None
        base = {"session_id": sid, "created": created, "latest": sid == latest_sid}
        file_path = root / f"{sid}.json"
        sidecar_path = root / f"{sid}{daimon_receipts.sidecar_suffix()}" if not native_off else None
        if not paths.safe_component(sid) or not paths.inside(root, file_path):
            diagnostics.append(
                Diagnostic(
                    level="error",
                    source="audit",
                    message=f"refused session {sid!r}: its file leads outside the checkpoint dir",
                )
            )
            rows.append(
                ReceiptRow(
                    **base, state="unreadable", cause="refused: path escapes the checkpoint dir", refused=True
                )
            )
            continue
        file_bytes, file_mtime = _read(file_path)
        sidecar_bytes: bytes | None = None
        sidecar_mtime: float | None = None
        if sidecar_path is not None and sidecar_path.is_symlink() and not paths.inside(root, sidecar_path):
            diagnostics.append(
                Diagnostic(
                    level="error",
                    source="audit",
                    message=f"refused the sidecar of {sid!r}: it leads outside the checkpoint dir",
                )
            )
            rows.append(
                ReceiptRow(
                    **base,
                    state="unreadable",
                    cause="refused: sidecar escapes the checkpoint dir",
                    file_mtime=file_mtime,
                    refused=True,
                )
            )
            continue
        if sidecar_path is not None and (sidecar_path.exists() or sidecar_path.is_symlink()):
            sidecar_bytes, sidecar_mtime = _read(sidecar_path)
            if sidecar_bytes is None:
                sidecar_bytes = b""  # present but unreadable: not the same as absent
        daimon_state, daimon_detail = None, None
        try:
            parsed = json.loads(file_bytes) if file_bytes is not None else None
            answer = api.receipt_state(parsed if isinstance(parsed, dict) else None)
            daimon_state, daimon_detail = answer.get("state"), answer.get("detail")
        except ValueError:
            daimon_state = "unsigned"  # daimon reads an unparsable file as carrying no marker
        if native_off:
            verdict = ReceiptVerdict(state=daimon_state if daimon_state in _DAIMON_STATES else "unreadable",
                                     cause=daimon_detail or "daimon's byte check (the signature is not checked)")
        else:
            verdict = check_receipt(file_bytes, sidecar_bytes, jwk, binding=daimon_receipts.binding(),
                                    method=receipts.METHOD, kid=receipts.KID)
        degrades = sid == latest_sid and daimon_state in {"missing", "mismatch"}
        if shown is None and sid == latest_sid and (verdict.failed or degrades):
            shown = _shown_marks(project)
        row = ReceiptRow(
            **base,
            state=verdict.state,
            cause=verdict.cause,
            daimon_state=daimon_state,
            daimon_detail=daimon_detail,
            file_mtime=file_mtime,
            sidecar_mtime=sidecar_mtime,
            affects=_affected(sid, latest_sid, latest, degrades, closed, shown or {})
            if verdict.failed or degrades
            else (),
        )
        hint = _forget_hint(row, tombstones)
        if hint:
            row = row.model_copy(update={"forget_hint": hint})
        if not row.agrees:
            diagnostics.append(
                Diagnostic(
                    source="audit",
                    message=f"session {sid}: daimon reads {daimon_state}, "
                    f"the native check reads {verdict.state}",
                )
            )
        rows.append(row)
    return tuple(rows)


def _explain(check: str | None, reason: str | None) -> str:
    base = check.removesuffix("-ok") if check else None
    if base in WORLD_CLASSES:
        what = WORLD_CLASSES[base]
        if reason == "claim-contradicted":
            return f"world check on {what}: the world contradicts the claim"
        if reason == "claim-confirmed":
            return f"cure: a later world check confirmed {what}"
    if reason in REASONS:
        return REASONS[reason]
    return f"unknown reason code from check {check or '?'}"


def _retained(item_ref: str | None, latest: Mapping | None, withheld: Mapping[str, str], snap: object) -> str:
    if not item_ref:
        return "not retained"
    if item_ref in withheld:
        return f"withheld ({withheld[item_ref]})"
    word = view.lifecycle_word(getattr(snap, "resolutions", {}).get(item_ref))
    present = any(item.get("id") == item_ref for _kind, item in _items(latest))
    if present:
        return "retained" if word == "active" else word
    return "forgotten" if word == "forgotten" else "not retained"


def _rejections(
    project: ProjectRef, latest: Mapping | None, withheld: Mapping[str, str], snap: object
) -> tuple[Rejection, ...]:
    return tuple(
        Rejection(
            ts=row.ts,
            item_ref=row.item_ref,
            check=row.check,
            reason=row.reason,
            explanation=_explain(row.check, row.reason),
            cure=row.check in CURE_CHECKS,
            retained=_retained(row.item_ref, latest, withheld, snap),
        )
        for row in view.verifications(project.target)
    )


def _ledgers(project: ProjectRef) -> tuple[LedgerRow, ...]:
    health = api.ledger_health(project.target)
    states = view.ledger_states(project.target)
    rows = []
    for name, word in health.items():
        state = states.get(name)
        detail = state.detail if state else ""
        unscannable = state.unscannable if state else ""
        hint = None if word in {"ok", "absent"} else surfaces.ledger_hint(name, word, detail, unscannable)
        rows.append(LedgerRow(name=name, state=word, detail=detail, unscannable=unscannable, hint=hint))
    return tuple(rows)


def _failed(diagnostics: list[Diagnostic], part: str, exc: Exception) -> None:
    why = type(exc).__name__
    if isinstance(exc, Unavailable):  # safe mode: the part is off, and why
        why = str(exc)
    elif isinstance(exc, OSError):  # name the file and the OS error
        why = f"{exc.filename or ''}: {exc.strerror or why} (errno {exc.errno})".lstrip(": ")
    diagnostics.append(Diagnostic(level="error", source="audit", message=f"could not read {part}: {why}"))


def _bucket_gone(project: ProjectRef) -> Diagnostic | None:
    """daimon reads a missing bucket as every ledger `absent`, which reads as
    fine; a project whose bucket was deleted is said to be so."""
    bucket = paths.bucket_dir(project.slug)
    if bucket is not None and bucket.is_dir():
        return None
    where = bucket or f"the bucket {project.slug!r}"
    return Diagnostic(level="error", source="audit",
                      message=f"{where} does not exist: none of this project's ledgers can be read")


def load_audit(project: ProjectRef) -> AuditReport:
    """The audit of one project. Never raises for bad data: a part that cannot
    be read becomes a diagnostic and the rest is still reported."""
    refused = paths.refusals(project.slug)
    if refused:  # the one rule: nothing is read through a link out of the store (each named)
        return AuditReport(project=project, diagnostics=tuple(
            Diagnostic(level="error", source="daimon-tui", message=m) for m in refused))
    gone = _bucket_gone(project)
    diagnostics: list[Diagnostic] = [gone] if gone else []
    latest: Mapping | None = None
    withheld: dict[str, str] = {}
    snap: object = None
    notes: tuple[str, ...] = ()
    try:
        opened = view.open(project.target, live=False)
        latest, snap = opened.checkpoint, opened.snapshot
        withheld = {w.item_id: w.reason for w in opened.withheld if getattr(w, "item_id", None)}
        notes = tuple(snap.notes())
    except Exception as exc:
        _failed(diagnostics, "the latest checkpoint", exc)
    receipts_rows: tuple[ReceiptRow, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    ledgers: tuple[LedgerRow, ...] = ()
    try:
        receipts_rows = _receipt_rows(project, latest, snap, diagnostics)
    except Exception as exc:
        _failed(diagnostics, "session receipts", exc)
    try:
        rejections = _rejections(project, latest, withheld, snap)
    except Exception as exc:
        _failed(diagnostics, "the rejection ledger", exc)
    try:
        ledgers = _ledgers(project)
    except Exception as exc:
        _failed(diagnostics, "ledger health", exc)
    try:
        enabled = bool(config.receipts_enabled())
    except Exception:
        enabled = False
    latest_sid = latest.get("session_id") if isinstance(latest, Mapping) else None
    if latest_sid is not None and not isinstance(latest_sid, str):
        diagnostics.append(Diagnostic(level="error", source="audit", message=(
            f"{paths.bucket_dir(project.slug) or project.slug}/latest.json: session_id is a "
            f"{type(latest_sid).__name__}, not a string")))
        latest_sid = json.dumps(latest_sid, default=str)
    return AuditReport(
        project=project,
        receipts_enabled=enabled,
        latest_session=latest_sid,
        receipts=receipts_rows,
        rejections=rejections,
        ledgers=ledgers,
        notes=notes,
        diagnostics=tuple(diagnostics),
    )
