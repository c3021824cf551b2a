"""The audit over real daimon stores: receipts (native and daimon's cheap
check), the forget hint, rejections, ledger health and the headless report."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from daimon_briefing import api, config, forget, normalize, view
from daimon_briefing import store as dstore

from daimon_tui.domain import audit_report
from daimon_tui.headless import audit as headless
from daimon_tui.models import ProjectRef
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.demo import signer as demo_signer
from daimon_tui.store.read import audit


def ref(store: demo.DemoStore) -> ProjectRef:
    return ProjectRef(slug=api.project_slug(str(store.project)), name="proj", path=str(store.project))


def bucket(store: demo.DemoStore) -> Path:
    return store.checkpoint_dir / api.project_slug(str(store.project))


def rows(report: audit.AuditReport) -> dict[str, audit.ReceiptRow]:
    return {row.session_id: row for row in report.receipts}


@pytest.fixture
def clean_store(empty_store: demo.DemoStore) -> demo.DemoStore:
    demo.populate(empty_store.project)
    return empty_store


def test_clean_store_verifies(clean_store: demo.DemoStore) -> None:
    report = audit.load_audit(ref(clean_store))
    found = rows(report)
    assert set(found) == {"S-day1", "S-day2", "S-day3"}
    assert {row.state for row in report.receipts} == {"signature-valid"}
    assert all(row.daimon_state == "match" and row.agrees for row in report.receipts)
    assert found["S-day3"].latest and report.latest_session == "S-day3"
    assert report.receipts_enabled
    assert report.exit_code == 0
    assert report.diagnostics == ()


def test_demo_store_tampered_session(demo_store: demo.DemoStore) -> None:
    report = audit.load_audit(ref(demo_store))
    found = rows(report)
    day2 = found["S-day2"]
    assert (day2.state, day2.cause, day2.daimon_state) == (
        "mismatch",
        "bytes changed after signing",
        "mismatch",
    )
    assert day2.since == day2.file_mtime and day2.since_iso
    assert day2.forget_hint is None  # an edit, not a forget
    carried = {item.text for item in day2.affects}
    assert "Log every retry attempt with its attempt number" in carried
    assert all(item.how == "carried" for item in day2.affects)
    assert found["S-day1"].state == found["S-day3"].state == "signature-valid"
    assert found["S-day1"].affects == ()
    assert report.exit_code == 1


def test_agrees_with_daimon_on_every_row(demo_store: demo.DemoStore) -> None:
    (demo_store.checkpoint_dir / "S-day1.receipt").unlink()
    for row in audit.load_audit(ref(demo_store)).receipts:
        raw = json.loads((demo_store.checkpoint_dir / f"{row.session_id}.json").read_bytes())
        assert row.daimon_state == api.receipt_state(raw)["state"]
        assert row.agrees


def _daimon_brief(store: demo.DemoStore) -> str:
    from daimon_briefing import cli as daimon_cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert daimon_cli.main(["brief", "--project", str(store.project)]) == 0
    return out.getvalue()


def test_hand_edited_latest_degrades_the_labels_daimon_degrades(clean_store: demo.DemoStore) -> None:
    demo.tamper(clean_store.checkpoint_dir, "S-day3")
    latest = rows(audit.load_audit(ref(clean_store)))["S-day3"]
    assert latest.state == "mismatch" and latest.cause == "bytes changed after signing"
    texts = {item.text: item.how for item in latest.affects}
    assert texts["Should uploads retry on HTTP 429 with exponential backoff?"] == "degrades"
    assert texts["Ship the retry change behind the UPLOAD_RETRY flag"] == "degrades"
    # A verbatim item carried past its staleness budget is `[? unverified]` in daimon's brief.
    assert texts["Keep the upload worker single-threaded for now"] == "stale"
    printed = _daimon_brief(clean_store)
    for item in latest.affects:
        line = next(line for line in printed.splitlines() if f"] {item.text}" in line)
        label = {"degrades": audit_report.DEGRADED_MARK, "stale": audit_report.STALE_MARK}[item.how]
        assert line.startswith(f"- [{label}] "), (item.text, line)
    assert sum(how == "degrades" for how in texts.values()) == printed.count(f"[{audit_report.DEGRADED_MARK}]")
    described = {item.how: item.describe for item in latest.affects}
    assert described["degrades"] == "label degrades to ⚠ unverified (verbatim)"
    assert described["stale"].startswith("daimon shows it as ? unverified")


def test_deleted_sidecar_is_missing(clean_store: demo.DemoStore) -> None:
    (clean_store.checkpoint_dir / "S-day1.receipt").unlink()
    row = rows(audit.load_audit(ref(clean_store)))["S-day1"]
    assert (row.state, row.cause, row.daimon_state) == ("missing", "sidecar missing", "missing")
    assert row.failed and row.sidecar_mtime is None


def test_sidecar_signed_by_another_key(clean_store: demo.DemoStore) -> None:
    path = clean_store.checkpoint_dir / "S-day2.receipt"
    sidecar = json.loads(path.read_text())
    other = base64.b64encode(os.urandom(32)).decode()
    sidecar["jws"] = demo_signer._sign(
        {"receipt": sidecar["receipt"], "kid": "daimon-1", "private_key_b64": other}
    )["signed_receipt"]
    path.write_text(json.dumps(sidecar))
    report = audit.load_audit(ref(clean_store))
    row = rows(report)["S-day2"]
    assert (row.state, row.cause) == ("signature-invalid", "signature invalid")
    assert row.daimon_state == "match" and row.agrees  # daimon's cheap check cannot see it
    assert report.exit_code == 1


def test_corrupt_sidecar_is_unreadable(clean_store: demo.DemoStore) -> None:
    (clean_store.checkpoint_dir / "S-day1.receipt").write_text("{torn")
    row = rows(audit.load_audit(ref(clean_store)))["S-day1"]
    assert row.state == "unreadable" and row.cause == "sidecar unreadable"
    assert row.daimon_state == "missing" and row.agrees


def test_missing_public_key_is_not_a_failure(clean_store: demo.DemoStore) -> None:
    (config.keys_dir() / "signing.pub.json").unlink()
    report = audit.load_audit(ref(clean_store))
    assert {row.state for row in report.receipts} == {"key-missing"}
    assert report.exit_code == 0


def test_forget_after_signing_gives_the_forget_hint(clean_store: demo.DemoStore) -> None:
    project = str(clean_store.project)
    latest = dstore.read_latest_body(project_dir=project, route=dstore.Route.OWN, admit=dstore.Admit.ANY)
    item = next(
        i
        for i in latest["working_context"]["recent_decisions"]
        if i["text"] == "Keep the upload worker single-threaded for now"
    )
    key = normalize.content_key(item["text"])
    target = forget.Target(
        key,
        item["id"],
        forget.siblings(project, key, item["id"]),
        project,
        item["text"],
        latest,
        latest["session_id"],
        "secret-adjacent",
    )
    outcome = forget.run(target, approve_rulings=lambda ids: "refused")
    assert not outcome.refused and not outcome.refusal
    found = rows(audit.load_audit(ref(clean_store)))
    assert found["S-day3"].state == "signature-valid"  # forget re-signs the live checkpoint
    assert found["S-day3"].forget_hint is None
    for sid in ("S-day1", "S-day2"):  # the older sessions that held the value
        row = found[sid]
        assert row.state == "mismatch" and row.daimon_state == "mismatch"
        assert row.forget_hint and "forget" in row.forget_hint and "without re-signing" in row.forget_hint


def test_garbage_event_line_is_unreadable_with_repair(clean_store: demo.DemoStore) -> None:
    with (bucket(clean_store) / "events.jsonl").open("a") as handle:
        handle.write("this is not json\n")
    report = audit.load_audit(ref(clean_store))
    ledgers = {row.name: row for row in report.ledgers}
    events = ledgers["events.jsonl"]
    assert events.state == "unreadable" and events.failed
    assert events.command == "daimon ledger repair events"
    assert ledgers["trust.jsonl"].state == "ok" and ledgers["trust.jsonl"].command is None
    assert any("daimon ledger repair events" in note for note in report.notes)
    assert report.exit_code == 1


def test_trust_ledger_repair_is_daimon_trust_repair(clean_store: demo.DemoStore) -> None:
    with (bucket(clean_store) / "trust.jsonl").open("a") as handle:
        handle.write("<<<<<<< conflict\n")
    ledgers = {row.name: row for row in audit.load_audit(ref(clean_store)).ledgers}
    assert ledgers["trust.jsonl"].state == "unreadable"
    assert ledgers["trust.jsonl"].command == "daimon trust repair"


def test_rejections_explained_with_retention(clean_store: demo.DemoStore) -> None:
    project = str(clean_store.project)
    opened = view.open(project, live=False)
    question = opened.checkpoint["working_context"]["open_questions"][0]["id"]
    assert dstore.append_verification(question, "quote", "echo-only", project_dir=project)
    assert dstore.append_verification("o-0000000000", "outcome", "no-signal-cited", project_dir=project)
    assert dstore.append_verification(question, "receipt", "receipt-tampered", project_dir=project)
    assert dstore.append_verification(question, "receipt-ok", "receipt-valid", project_dir=project)
    found = audit.load_audit(ref(clean_store)).rejections
    assert [(r.check, r.reason) for r in found] == [
        ("quote", "echo-only"),
        ("outcome", "no-signal-cited"),
        ("receipt", "receipt-tampered"),
        ("receipt-ok", "receipt-valid"),
    ]
    assert "injected output" in found[0].explanation
    assert found[0].retained == "retained" and found[0].is_retained
    assert found[1].retained == "not retained" and not found[1].is_retained
    assert "signed receipt" in found[2].explanation and not found[2].cure
    assert found[3].cure


def test_world_class_explanations() -> None:
    assert "file the item names" in audit._explain("file-exists", "claim-contradicted")
    assert audit._explain("pr-state-ok", "claim-confirmed").startswith("cure:")
    assert audit._explain("quote", "brand-new-code").startswith("unknown reason code")


def test_symlink_escaping_checkpoint_dir_is_refused(clean_store: demo.DemoStore) -> None:
    outside = clean_store.root.parent / "outside.json"
    body = json.loads((clean_store.checkpoint_dir / "S-day1.json").read_text())
    body["session_id"] = "S-evil"
    outside.write_text(json.dumps(body))
    (clean_store.checkpoint_dir / "S-evil.json").symlink_to(outside)
    report = audit.load_audit(ref(clean_store))
    # the one rule (`paths.refusals`, issue 40 §5): the link is named and nothing is read through it
    assert report.receipts == () and report.ledgers == ()
    assert any("S-evil.json" in d.message and "outside the store" in d.message and d.level == "error"
               for d in report.diagnostics)


def test_sidecar_symlink_escaping_is_refused(clean_store: demo.DemoStore) -> None:
    sidecar = clean_store.checkpoint_dir / "S-day1.receipt"
    outside = clean_store.root.parent / "outside.receipt"
    outside.write_bytes(sidecar.read_bytes())
    sidecar.unlink()
    sidecar.symlink_to(outside)
    report = audit.load_audit(ref(clean_store))  # the one rule, as for a session file linked out
    assert report.receipts == ()
    assert any("S-day1.receipt" in d.message and "outside the store" in d.message for d in report.diagnostics)


def test_never_raises(clean_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(view, "sessions", boom)
    report = audit.load_audit(ref(clean_store))
    assert report.receipts == ()
    assert report.ledgers  # the other parts still read
    assert any("session receipts" in d.message for d in report.diagnostics)


def test_receipts_off_store_is_unsigned(sandbox_root: Path) -> None:
    with demo.sandboxed(sandbox_root, receipts=False) as store:
        demo.populate(store.project)
        report = audit.load_audit(ref(store))
    assert {row.state for row in report.receipts} == {"unsigned"}
    assert all(row.daimon_state == "unsigned" for row in report.receipts)
    assert not report.receipts_enabled and report.exit_code == 0


# ---- headless ---------------------------------------------------------------


@pytest.mark.parametrize("receipts", [False, True], ids=["receipts-off", "signed"])
def test_the_signature_library_is_loaded_only_to_check_a_signature(sandbox_root: Path, receipts: bool) -> None:
    """Issue 29.1: `cryptography` (~16 ms to import) is loaded when a
    receipt's signature is checked, not for a store that has none."""
    import subprocess
    import sys

    from daimon_tui.store.child import judge_service

    probe = ("import sys\nfrom daimon_tui.cli import main\ncode = main(sys.argv[1:])\nsys.stdout.flush()\n"
             "print('cryptography' in sys.modules, file=sys.stderr)\n")
    with demo.sandboxed(sandbox_root, receipts=receipts) as store:
        demo.populate(store.project)
        done = subprocess.run([sys.executable, "-c", probe, "audit", "--project", str(store.project)],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
                              env=judge_service.child_env())
    assert done.returncode == 0, done.stderr
    assert ("✓ signature-valid" if receipts else "· unsigned") in done.stdout
    assert done.stderr.splitlines()[-1] == str(receipts)


def test_headless_clean_exit_0(clean_store: demo.DemoStore) -> None:
    out = io.StringIO()
    assert headless.run_audit(ref(clean_store), as_json=False, out=out) == 0
    text = out.getvalue()
    assert "✓ signature-valid" in text and "exit 0" in text


def test_headless_failures_exit_1_json(demo_store: demo.DemoStore) -> None:
    out = io.StringIO()
    assert headless.run_audit(ref(demo_store), as_json=True, out=out) == 1
    doc = json.loads(out.getvalue())
    assert doc["exit_code"] == 1 and doc["receipt_failures"] == 1
    day2 = next(r for r in doc["receipts"] if r["session_id"] == "S-day2")
    assert day2["state"] == "mismatch" and day2["failed"] and day2["since_iso"]
    assert {"ledgers", "rejections", "notes", "diagnostics"} <= set(doc)


def test_json_report_keeps_its_shape_and_the_report_its_round_trip(demo_store: demo.DemoStore) -> None:
    """The JSON report lists each record's fields, then its computed values
    (as it did when the report was pydantic models); the judging child's
    round trip sends the fields alone and the values are recomputed."""
    report = audit.load_audit(ref(demo_store))
    doc = headless.report_json(report)
    assert list(doc) == ["project", "receipts_enabled", "latest_session", "receipts", "rejections", "ledgers",
                         "notes", "diagnostics", "receipt_failures", "ledger_failures", "exit_code"]
    day2 = next(r for r in doc["receipts"] if r["session_id"] == "S-day2")
    assert list(day2)[-5:] == ["refused", "failed", "agrees", "since", "since_iso"]
    assert list(day2["affects"][0]) == ["item_id", "kind", "text", "how", "describe"]
    assert isinstance(day2["affects"], list) and day2["forget_hint"] is None
    assert list(doc["ledgers"][0])[-2:] == ["command", "failed"]
    sent = report.model_dump_json(round_trip=True)
    assert "receipt_failures" not in sent and '"failed"' not in sent
    back = audit.AuditReport.model_validate(json.loads(sent))
    assert back == report and back.receipt_failures == 1 and back.exit_code == 1
    assert headless.report_json(back) == doc


def test_headless_plain_names_repair(clean_store: demo.DemoStore) -> None:
    with (bucket(clean_store) / "events.jsonl").open("a") as handle:
        handle.write("garbage\n")
    out = io.StringIO()
    assert headless.run_audit(ref(clean_store), as_json=False, out=out) == 1
    assert "daimon ledger repair events" in out.getvalue()


def test_headless_cannot_run_exit_5(clean_store: demo.DemoStore, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(project: ProjectRef) -> None:
        raise RuntimeError("\x1b]8;;evil\x07boom")

    monkeypatch.setattr(audit, "load_audit", broken)
    out = io.StringIO()
    assert headless.run_audit(ref(clean_store), as_json=True, out=out) == 5  # Exit.READ_FAILED
    assert "cannot run" in out.getvalue() and "\x1b" not in out.getvalue()


def test_headless_output_is_inert(empty_store: demo.DemoStore) -> None:
    """Item text with terminal escapes is shown as escapes, in both formats."""
    project = empty_store.project
    day1 = demo.session("S-a", demo.DEMO_NOW.replace(day=1), "topic")
    day1["working_context"]["recent_decisions"] = [
        {"text": "Evil \x1b[31mred\x1b[0m decision", "trust": "inferred"}
    ]
    demo.seed(project, day1)
    demo.seed(project, demo.session("S-b", demo.DEMO_NOW, "topic"))
    demo.tamper(empty_store.checkpoint_dir, "S-a")
    for as_json in (False, True):
        out = io.StringIO()
        assert headless.run_audit(ref(empty_store), as_json=as_json, out=out) == 1
        assert "\x1b" not in out.getvalue()
        assert "\\x1b[31mred" in out.getvalue().replace("\\\\", "\\")


def test_stripped_marker_is_caught_where_daimon_reads_unsigned(clean_store: demo.DemoStore) -> None:
    """Removing the `receipts` marker makes daimon's cheap check go quiet; the
    sidecar is still there, so the native check still holds the file to it."""
    path = clean_store.checkpoint_dir / "S-day1.json"
    body = json.loads(path.read_text())
    del body["receipts"]
    path.write_text(json.dumps(body, indent=2))
    report = audit.load_audit(ref(clean_store))
    row = rows(report)["S-day1"]
    assert row.daimon_state == "unsigned"
    assert row.state == "mismatch" and "marker is gone" in row.cause
    assert not row.agrees
    assert any("daimon reads unsigned" in d.message for d in report.diagnostics)


def test_a_deleted_bucket_is_said_not_read_as_every_ledger_fine(demo_store: demo.DemoStore) -> None:
    import shutil

    where = bucket(demo_store)
    project = ref(demo_store)
    shutil.rmtree(where)
    report = audit.load_audit(project)
    errors = [d.message for d in report.diagnostics if d.level == "error"]
    assert any(str(where) in m and "does not exist" in m for m in errors)
