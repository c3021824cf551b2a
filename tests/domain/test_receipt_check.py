"""The native receipt check against real Ed25519 JWS built by the demo signer."""

from __future__ import annotations

import base64
import json
import os
import random
import typing

import pytest
from daimon_briefing import receipts

from daimon_tui.domain import receipt_check as rc
from daimon_tui.store.demo import signer as demo_signer


def _seed() -> str:
    return base64.b64encode(os.urandom(32)).decode("ascii")


def _signed(file_bytes: bytes, seed: str, **changes: object) -> tuple[bytes, dict]:
    """A sidecar as daimon writes it, signed over `file_bytes`; `changes`
    alter the receipt before signing."""
    receipt = {
        "v": "vitni/0.2",
        "binding": "local",
        "action_ref": None,
        "performer_id": "tester",
        "method": "local:daimon.serialize",
        "outputs_hash": receipts._multibase_sha256(file_bytes),
        "ts": "2026-12-01T09:00:00Z",
        **changes,
    }
    jws = demo_signer._sign({"receipt": receipt, "kid": "daimon-1", "private_key_b64": seed})[
        "signed_receipt"
    ]
    sidecar = {"jws": jws, "receipt": receipt, "kid": "daimon-1", "performer_id": "tester"}
    return json.dumps(sidecar).encode(), demo_signer._keygen({"seed_b64": seed})["jwk"]


FILE = json.dumps({"session_id": "S-1", "receipts": True, "working_context": {}}, indent=2).encode()


# Fixed bytes, not os.urandom: under pytest-xdist every worker must collect the same test ids.
NOISE = random.Random(4096).randbytes(4096)


@pytest.mark.parametrize("data", [b"", b"x", FILE, NOISE], ids=["empty", "one-byte", "session-file", "noise"])
def test_multihash_matches_daimon(data: bytes) -> None:
    assert rc.multihash_sha256(data) == receipts._multibase_sha256(data)


def test_protocol_constants_are_daimons() -> None:
    assert (rc.BINDING, rc.METHOD, rc.KID) == (receipts._BINDING, receipts.METHOD, receipts.KID)


def test_valid_receipt() -> None:
    sidecar, jwk = _signed(FILE, _seed())
    verdict = rc.check_receipt(FILE, sidecar, jwk)
    assert verdict.state == "signature-valid"
    assert not verdict.failed
    assert verdict.kid == "daimon-1" and verdict.performer_id == "tester"


def test_bytes_changed_after_signing() -> None:
    sidecar, jwk = _signed(FILE, _seed())
    verdict = rc.check_receipt(FILE + b" ", sidecar, jwk)
    assert verdict.state == "mismatch"
    assert verdict.cause == "bytes changed after signing"
    assert verdict.failed


def test_missing_sidecar_on_a_receipt_era_file() -> None:
    verdict = rc.check_receipt(FILE, None, None)
    assert (verdict.state, verdict.cause) == ("missing", "sidecar missing")


def test_unsigned_file_without_marker() -> None:
    plain = json.dumps({"session_id": "S-1"}).encode()
    verdict = rc.check_receipt(plain, None, None)
    assert verdict.state == "unsigned"
    assert not verdict.failed


@pytest.mark.parametrize("sidecar", [b"{not json", b"[]", b'{"jws": 1, "receipt": {}}', b"\xff\xfe"])
def test_corrupt_sidecar_is_unreadable(sidecar: bytes) -> None:
    verdict = rc.check_receipt(FILE, sidecar, None)
    assert verdict.state == "unreadable"
    assert verdict.cause.startswith("sidecar unreadable")


def test_signed_by_another_key() -> None:
    sidecar, _ = _signed(FILE, _seed())
    _, other_jwk = _signed(FILE, _seed())
    verdict = rc.check_receipt(FILE, sidecar, other_jwk)
    assert (verdict.state, verdict.cause) == ("signature-invalid", "signature invalid")


def test_truncated_signature_is_invalid() -> None:
    sidecar, jwk = _signed(FILE, _seed())
    doc = json.loads(sidecar)
    doc["jws"] = doc["jws"][:-4]
    assert rc.check_receipt(FILE, json.dumps(doc).encode(), jwk).state == "signature-invalid"


def test_key_missing() -> None:
    sidecar, _ = _signed(FILE, _seed())
    verdict = rc.check_receipt(FILE, sidecar, None)
    assert verdict.state == "key-missing"
    assert not verdict.failed
    assert rc.check_receipt(FILE, sidecar, {"kty": "OKP", "x": "short"}).state == "key-missing"


def test_malformed_jws_is_unreadable() -> None:
    sidecar, jwk = _signed(FILE, _seed())
    doc = json.loads(sidecar)
    doc["jws"] = "only.two"
    verdict = rc.check_receipt(FILE, json.dumps(doc).encode(), jwk)
    assert verdict.state == "unreadable"


def test_sidecar_receipt_edited_to_claim_new_bytes() -> None:
    """A forger edits the file and the sidecar's plain receipt, but cannot re-sign:
    the signed payload still binds the old bytes."""
    seed = _seed()
    sidecar, jwk = _signed(FILE, seed)
    edited = FILE.replace(b'"S-1"', b'"S-2"')
    doc = json.loads(sidecar)
    doc["receipt"]["outputs_hash"] = rc.multihash_sha256(edited)
    verdict = rc.check_receipt(edited, json.dumps(doc).encode(), jwk)
    assert (verdict.state, verdict.cause) == ("not-bound", "payload does not bind this file")


def test_wrong_method_is_not_bound() -> None:
    sidecar, jwk = _signed(FILE, _seed(), method="remote:other")
    verdict = rc.check_receipt(FILE, sidecar, jwk)
    assert verdict.state == "not-bound"
    assert "binding/method" in verdict.cause


def test_sidecar_receipt_differs_from_signed_payload() -> None:
    sidecar, jwk = _signed(FILE, _seed())
    doc = json.loads(sidecar)
    doc["receipt"]["performer_id"] = "someone-else"
    verdict = rc.check_receipt(FILE, json.dumps(doc).encode(), jwk)
    assert verdict.state == "not-bound"
    assert "sidecar receipt differs" in verdict.cause


def test_unexpected_alg_is_invalid() -> None:
    sidecar, jwk = _signed(FILE, _seed())
    doc = json.loads(sidecar)
    _, payload, sig = doc["jws"].split(".")
    head = base64.urlsafe_b64encode(b'{"alg":"none","kid":"daimon-1"}').decode().rstrip("=")
    doc["jws"] = f"{head}.{payload}.{sig}"
    verdict = rc.check_receipt(FILE, json.dumps(doc).encode(), jwk)
    assert verdict.state == "signature-invalid"


def test_unreadable_file() -> None:
    assert rc.check_receipt(None, None, None).state == "unreadable"


def test_state_label_has_shape() -> None:
    assert rc.state_label("mismatch") == "✗ mismatch"
    assert rc.state_label("signature-valid") == "✓ signature-valid"


def test_every_state_has_its_label_and_every_failure_is_labelled_broken() -> None:
    """All nine states pinned: a failure relabelled `?` ("unable to tell") or `✓` must fail here."""
    labels = {
        "signature-valid": "✓ signature-valid",
        "match": "✓ match",
        "unsigned": "· unsigned",
        "key-missing": "? key-missing",
        "missing": "✗ missing",
        "unreadable": "✗ unreadable",
        "mismatch": "✗ mismatch",
        "signature-invalid": "✗ signature-invalid",
        "not-bound": "✗ not-bound",
    }
    assert set(labels) == set(typing.get_args(rc.ReceiptState))
    assert {state: rc.state_label(state) for state in labels} == labels
    broken = {state for state, label in labels.items() if label.startswith("✗ ")}
    assert broken == rc.FAILURE_STATES
    assert all(rc.state_label(state).startswith("✗ ") for state in rc.FAILURE_STATES)
    assert all(rc.ReceiptVerdict(state=state, cause="").failed == (labels[state][0] == "✗") for state in labels)
