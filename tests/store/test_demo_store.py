"""The demo store is built the way capture builds a store: its verbatim items
are verbatim because daimon's own quote matcher found them in the session's
transcript, not because the builder says so."""

from __future__ import annotations

import base64
import copy
import json
import subprocess
from pathlib import Path

import pytest
from daimon_briefing import config, schema, serializer, view

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.read.audit import load_audit


def test_every_verbatim_item_was_found_by_daimons_matcher(demo_store: demo.DemoStore) -> None:
    target = reader.resolve_project(str(demo_store.project)).target
    opened = view.open_sessions(target, list(demo.TRANSCRIPTS), live=False)
    verbatim = 0
    for session_id, transcript in demo.TRANSCRIPTS.items():
        for _field, item in schema.iter_items(opened[session_id].checkpoint):
            # A carried copy was matched in the session that stated it.
            if item.get("trust") == "verbatim" and not item.get("carried_from"):
                verbatim += 1
                assert item.get("quote_verified") is True, item
                assert serializer.quote_matches(item["quote"], transcript), item
    assert verbatim >= 4  # stated in every session: the question, the worker, the flag


def test_a_quote_the_person_never_said_is_not_verbatim() -> None:
    day = demo.session("S-day3", demo.DEMO_NOW, "Retry policy rollout")
    day["working_context"]["recent_decisions"] = [
        {"text": "Ship it", "trust": "verbatim", "quote": "ship it behind the flag"},
        {"text": "Retry", "trust": "verbatim", "quote": "retry on 429 with exponential backoff"},
    ]
    made = demo.witnessed(copy.deepcopy(day))["working_context"]["recent_decisions"]
    assert [(i["trust"], i["quote_verified"]) for i in made] == [("inferred", False), ("verbatim", True)]


# RFC 8032 §7.1 TEST 1: the secret key and the public key it derives.
RFC8032_SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
RFC8032_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"


def test_the_signer_derives_the_rfc8032_public_key_when_started_as_daimon_starts_it(tmp_path: Path) -> None:
    # daimon trusts the signer's keygen only on this exact answer, and falls back
    # to openssl without a word otherwise: a wrong keygen would go unseen.
    signer = demo.write_signer(tmp_path)
    request = json.dumps({"seed_b64": base64.b64encode(bytes.fromhex(RFC8032_SEED)).decode()})
    done = subprocess.run([str(signer), "keygen"], input=request.encode(), capture_output=True, timeout=60,
                          check=True)
    x = json.loads(done.stdout)["jwk"]["x"]
    assert base64.urlsafe_b64decode(x + "=" * (-len(x) % 4)).hex() == RFC8032_PUBLIC


def test_a_store_built_with_the_receipt_kit_starts_the_signer_only_to_sign(
        sandbox_root: Path, receipt_kit: demo.ReceiptKit, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    run = subprocess.run

    def counted(args, *rest, **kwargs):
        if isinstance(args, list) and args and args[0] == str(receipt_kit.signer):
            started.append(args[1])
        return run(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "run", counted)
    with demo.sandboxed(sandbox_root, kit=receipt_kit) as store:
        demo.populate(store.project)
        assert started == ["sign"] * 3  # one per session, no probe and no key derived
        assert (config.keys_dir() / "signing.seed").read_bytes() == (receipt_kit.keys / "signing.seed").read_bytes()
        rows = {r.session_id: r.state for r in load_audit(reader.resolve_project(str(store.project))).receipts}
    # Signed with the kit's key, and its public half found in the store.
    assert [rows.get(s) for s in ("S-day1", "S-day2", "S-day3")] == ["signature-valid"] * 3
