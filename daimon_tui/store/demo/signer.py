"""A stand-in for daimon's `vitni` signer CLI, with real Ed25519.

daimon signs receipts by spawning the CLI named in `DAIMON_VITNI_CLI`
(`sign`, `verify`, `keygen`; JSON on stdin, one JSON object on stdout). No vitni
ships on PyPI, so the demo and the tests point daimon at this module. It signs
for real, so the app's native receipt check is exercised end to end.
"""

from __future__ import annotations

import base64
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _private_key(seed_b64: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(seed_b64))


def _keygen(req: dict) -> dict:
    public = _private_key(req["seed_b64"]).public_key()
    raw = public.public_bytes_raw()
    return {"jwk": {"kty": "OKP", "crv": "Ed25519", "x": _b64url(raw)}}


def _sign(req: dict) -> dict:
    header = {"alg": "EdDSA", "typ": "JWT", "kid": req.get("kid", "daimon-1")}
    signing_input = (
        _b64url(json.dumps(header, separators=(",", ":")).encode())
        + "."
        + _b64url(json.dumps(req["receipt"], separators=(",", ":"), sort_keys=True).encode())
    )
    signature = _private_key(req["private_key_b64"]).sign(signing_input.encode("ascii"))
    return {"signed_receipt": signing_input + "." + _b64url(signature)}


def _verify(req: dict) -> dict:
    head, payload, sig = req["signed_receipt"].split(".")
    kid = json.loads(_unb64url(head)).get("kid")
    for keys in req.get("keys", {}).values():
        x = (keys.get(kid) or {}).get("x") if isinstance(keys.get(kid), dict) else keys.get(kid)
        if not x:
            continue
        try:
            Ed25519PublicKey.from_public_bytes(_unb64url(x)).verify(
                _unb64url(sig), f"{head}.{payload}".encode("ascii")
            )
        except InvalidSignature:
            return {"valid": False, "reason": "signature"}
        return {"valid": True}
    return {"valid": False, "reason": "no-key"}


COMMANDS = {"keygen": _keygen, "sign": _sign, "verify": _verify}


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[1] not in COMMANDS:
        print(json.dumps({"error": "usage: sign|verify|keygen"}))
        return 2
    try:
        print(json.dumps(COMMANDS[argv[1]](json.loads(sys.stdin.read()))))
    except (ValueError, KeyError, TypeError) as exc:
        print(json.dumps({"error": type(exc).__name__}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
