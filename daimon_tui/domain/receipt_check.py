"""Native verification of one daimon checkpoint receipt, with no subprocess.

daimon's own check at brief time is cheap (sidecar present, bytes hash match);
its full check shells out to the vitni CLI, which may not exist. This module
does the full check in-process: it parses the compact JWS in the sidecar,
verifies the Ed25519 signature over `header.payload` with the local public
JWK, and proves the signed payload binds these exact file bytes (daimon's
multihash of sha256), daimon's binding and method, and equals the receipt the
sidecar shows. Pure: bytes and a JWK in, a verdict out; never raises.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from daimon_tui.models.records import Record

if TYPE_CHECKING:  # imported where a signature is verified: a store with no receipts never loads it
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ReceiptState = Literal[
    "unsigned",
    "missing",
    "unreadable",
    "match",
    "mismatch",
    "signature-valid",
    "signature-invalid",
    "key-missing",
    "not-bound",
]

# States that mean the receipt does not hold. `key-missing` is "unable to
# verify" (daimon's verify-receipt exits 2 for it), `match` is daimon's cheap
# answer with no signature check, `unsigned` has nothing to hold.
FAILURE_STATES: frozenset[str] = frozenset(
    {"missing", "unreadable", "mismatch", "signature-invalid", "not-bound"}
)

# A shape per state, so the table reads in monochrome: ✓ holds, ✗ broken,
# ? unable to tell, · nothing to check.
STATE_GLYPHS: dict[str, str] = {
    "signature-valid": "✓",
    "match": "✓",
    "unsigned": "·",
    "key-missing": "?",
    "missing": "✗",
    "unreadable": "✗",
    "mismatch": "✗",
    "signature-invalid": "✗",
    "not-bound": "✗",
}


def state_label(state: str) -> str:
    """`✗ mismatch`: glyph and word, never colour alone."""
    return f"{STATE_GLYPHS.get(state, '?')} {state}"


# daimon's protocol constants (its binding, METHOD, KID); the store
# passes daimon's own values and a test pins them equal.
BINDING = "local"
METHOD = "local:daimon.serialize"
KID = "daimon-1"

_MULTIHASH_SHA256 = bytes([0x12, 0x20])  # multicodec sha2-256, 32-byte length


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ReceiptVerdict(Record):
    state: ReceiptState
    cause: str
    marked: bool = False
    kid: str | None = None
    performer_id: str | None = None
    signed_ts: str | None = None

    @property
    def failed(self) -> bool:
        return self.state in FAILURE_STATES


def multihash_sha256(data: bytes) -> str:
    """daimon's `outputs_hash` encoding: multibase base64url-nopad ("u") over a
    sha2-256 multihash (0x12, 0x20, digest)."""
    digest = hashlib.sha256(data).digest()
    return "u" + base64.urlsafe_b64encode(_MULTIHASH_SHA256 + digest).decode("ascii").rstrip("=")


def _unb64url(text: str) -> bytes:
    if not text or any(c in text for c in "=+/ \n"):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json_object(raw: bytes) -> dict | None:
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _public_key(jwk: Mapping | None) -> Ed25519PublicKey | None:
    if not isinstance(jwk, Mapping):
        return None
    if jwk.get("kty", "OKP") != "OKP" or jwk.get("crv", "Ed25519") != "Ed25519":
        return None
    x = jwk.get("x")
    if not isinstance(x, str):
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        raw = _unb64url(x)
        return Ed25519PublicKey.from_public_bytes(raw) if len(raw) == 32 else None
    except (ValueError, binascii.Error):
        return None


def check_receipt(
    file_bytes: bytes | None,
    sidecar_bytes: bytes | None,
    jwk: Mapping | None,
    *,
    binding: str = BINDING,
    method: str = METHOD,
    kid: str = KID,
) -> ReceiptVerdict:
    """The verdict on one session file (`file_bytes`, None when it cannot be
    read) against its `.receipt` sidecar (None when absent) and the local
    public key (None when absent). Checks run cheapest and most telling first:
    a changed file is reported as such even when the signature would fail too."""
    if file_bytes is None:
        return ReceiptVerdict(state="unreadable", cause="session file unreadable")
    payload = _json_object(file_bytes)
    marked = payload is not None and payload.get("receipts") is True
    if sidecar_bytes is None:
        if marked:
            return ReceiptVerdict(state="missing", cause="sidecar missing", marked=True)
        if payload is None:
            return ReceiptVerdict(state="unreadable", cause="session file is not a JSON object")
        return ReceiptVerdict(state="unsigned", cause="no receipt: written before receipts or with them off")

    sidecar = _json_object(sidecar_bytes)
    receipt = sidecar.get("receipt") if sidecar else None
    jws = sidecar.get("jws") if sidecar else None
    if not isinstance(receipt, dict) or not isinstance(jws, str):
        return ReceiptVerdict(state="unreadable", cause="sidecar unreadable", marked=marked)
    expected = receipt.get("outputs_hash")
    if not isinstance(expected, str) or not expected:
        return ReceiptVerdict(state="unreadable", cause="sidecar unreadable: no outputs_hash", marked=marked)
    side_kid = sidecar.get("kid") if isinstance(sidecar.get("kid"), str) else None
    performer = sidecar.get("performer_id") or receipt.get("performer_id")
    facts = {
        "marked": marked,
        "kid": side_kid,
        "performer_id": performer if isinstance(performer, str) else None,
        "signed_ts": receipt.get("ts") if isinstance(receipt.get("ts"), str) else None,
    }

    actual = multihash_sha256(file_bytes)
    if actual != expected:
        cause = "bytes changed after signing"
        if not marked:
            cause += " (and the receipt marker is gone)"
        return ReceiptVerdict(state="mismatch", cause=cause, **facts)

    parts = jws.split(".")
    try:
        if len(parts) != 3:
            raise ValueError("not a compact JWS")
        header = _json_object(_unb64url(parts[0]))
        signed = _json_object(_unb64url(parts[1]))
        signature = _unb64url(parts[2])
    except (ValueError, binascii.Error):
        return ReceiptVerdict(state="unreadable", cause="sidecar unreadable: malformed JWS", **facts)
    if header is None or signed is None:
        return ReceiptVerdict(state="unreadable", cause="sidecar unreadable: malformed JWS", **facts)

    public = _public_key(jwk)
    if public is None:
        return ReceiptVerdict(state="key-missing", cause="key missing: no usable local public key", **facts)
    if header.get("alg") != "EdDSA":
        return ReceiptVerdict(state="signature-invalid", cause="signature invalid: alg is not EdDSA", **facts)
    if header.get("kid") != (side_kid or kid):
        return ReceiptVerdict(
            state="signature-invalid", cause="signature invalid: unexpected key id", **facts
        )
    from cryptography.exceptions import InvalidSignature

    try:
        public.verify(signature, f"{parts[0]}.{parts[1]}".encode("ascii"))
    except (InvalidSignature, ValueError):
        return ReceiptVerdict(state="signature-invalid", cause="signature invalid", **facts)

    if signed.get("outputs_hash") != actual:
        return ReceiptVerdict(state="not-bound", cause="payload does not bind this file", **facts)
    if signed.get("binding") != binding or signed.get("method") != method:
        return ReceiptVerdict(
            state="not-bound", cause="payload does not bind this file: not daimon's binding/method", **facts
        )
    if signed != receipt:
        return ReceiptVerdict(
            state="not-bound", cause="payload does not bind this file: sidecar receipt differs", **facts
        )
    return ReceiptVerdict(state="signature-valid", cause="signature valid, bytes match", **facts)
