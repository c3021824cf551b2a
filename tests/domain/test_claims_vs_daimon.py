"""Differential test: every claim daimon's own world-check extracts from a text,
our extractor extracts too (same subject, same or a stricter expectation)."""

from __future__ import annotations

import itertools
import random

import pytest
from daimon_briefing import worldcheck as daimon

from daimon_tui.domain.claims import Claim, ClaimKind, Expect, claims_in

# What each of our expectations asserts, in daimon's state vocabulary.
_STATES = {
    Expect.OPEN: {"OPEN"},
    Expect.MERGED: {"MERGED"},
    Expect.CLOSED: {"CLOSED", "MERGED"},
    Expect.EXISTS: {"EXISTS"},
    Expect.MISSING: {"MISSING"},
}

# Deliberate deviation (documented in claims.py): "the branch is gone" names no branch.
_STOP_WORDS = {"is", "was", "has", "the", "that", "we", "it", "to", "and"}

HAND_WRITTEN = [
    "PR #42 awaiting review",
    "pull request #7 merged yesterday",
    "issue #12 is still open",
    "#88 closed",
    "#48 slice 1",
    "PR #3 merged and closed",
    "PR #42 merged; issue #13 closed",
    "see gemini-cli#14715 which is open",
    "branch feat/x is the current one",
    "branch `spike/sqlite-wal` was deleted after the experiment",
    "work lives on branch release/1.2, checked out on the build box",
    "the branch is gone",
    "branch fix-123 gone",
    "branch a..b deleted",
    "the parser lives in src/parser.py",
    "src/legacy/old_api.py was removed",
    "config in settings.toml is missing",
    "e.g. this is not a file, i.e. prose",
    "/etc/passwd.txt exists",
    "docs at https://host/docs/x.md exist",
    "Moved logic from src/a.py to src/b.py; old one deleted",
    "requests==2.31.0",
    "httpx is now pinned to 0.27",
    "we bumped pydantic to v2.7.1",
    "downgraded numpy to 1.26",
    "should bump X to 2.1",
    "react was upgraded to 18.2.0 and PR #9 merged",
    "branch feat/x deleted, src/x.py removed, PR #5 merged, httpx==0.27",
    "src/a.py added and src/b.py deleted",
    "The fix is implemented in lib/core.rs; branch main is active",
]


def _generated(count: int = 400) -> list[str]:
    rng = random.Random(20261120)
    subjects = [
        "PR #42",
        "#17",
        "issue #3",
        "pull request #99",
        "branch feat/x",
        "branch `spike/a-b`",
        "src/x.py",
        "pkg/mod/util.ts",
        "README.md",
        "httpx==0.27",
        "bumped rich to 13.7",
        "requests pinned to 2.31.0",
        "commit 3f2a1c9",
        "tagged v1.2",
    ]
    words = [
        "awaiting",
        "open",
        "merged",
        "closed",
        "review",
        "unmerged",
        "active",
        "current",
        "checked out",
        "deleted",
        "gone",
        "lives in",
        "implemented in",
        "added",
        "created",
        "exists",
        "removed",
        "missing",
        "landed",
        "is",
        "was",
        "and then",
        "so",
    ]
    joins = [" ", "; ", ". ", ", ", "\n", " and "]
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 4)):
            chunk = [rng.choice(subjects), rng.choice(words)]
            rng.shuffle(chunk)
            parts.append(" ".join(chunk))
        texts.append(
            "".join(
                itertools.chain.from_iterable(zip(parts, [rng.choice(joins) for _ in parts], strict=True))
            )
        )
    return texts


def _covers(
    ours: list[Claim], kind: ClaimKind, subject: str, expected: set[str] | None, version: str | None = None
) -> bool:
    for claim in ours:
        if claim.kind is not kind or claim.subject != subject:
            continue
        if kind is ClaimKind.DEPENDENCY:
            if claim.version == version:
                return True
        elif expected is not None and _STATES.get(claim.expect, {"?"}) <= expected:
            return True
    return False


def daimon_claims(text: str) -> list[tuple[ClaimKind, str, set[str] | None, str | None]]:
    out = []
    pr = daimon.claim_of(text)
    if pr is not None:
        out.append((ClaimKind.PR, f"#{pr.num}", set(pr.expected), None))
    branch = daimon.branch_claim_of(text)
    if branch is not None and branch.name.lower() not in _STOP_WORDS:
        out.append((ClaimKind.BRANCH, branch.name, set(branch.expected), None))
    path = daimon.path_claim_of(text)
    if path is not None:
        out.append((ClaimKind.FILE, path.path, set(path.expected), None))
    dep = daimon.dep_claim_of(text)
    if dep is not None:
        out.append((ClaimKind.DEPENDENCY, dep.name, None, dep.version))
    return out


@pytest.mark.parametrize("text", HAND_WRITTEN + _generated())
def test_we_find_every_claim_daimon_finds(text: str) -> None:
    ours = claims_in(text)
    for kind, subject, expected, version in daimon_claims(text):
        assert _covers(ours, kind, subject, expected, version), (kind, subject, expected, version, ours)


def test_daimon_finds_claims_in_the_corpus() -> None:
    """The differential test is only meaningful if daimon finds plenty."""
    found = [c for t in HAND_WRITTEN + _generated() for c in daimon_claims(t)]
    kinds = {c[0] for c in found}
    assert len(found) > 300 and kinds == {
        ClaimKind.PR,
        ClaimKind.BRANCH,
        ClaimKind.FILE,
        ClaimKind.DEPENDENCY,
    }


def test_claim_for_is_covered() -> None:
    """daimon's one-claim-per-item choice is among ours."""
    for text in HAND_WRITTEN:
        picked = daimon.claim_for(text)
        if picked is None:
            continue
        assert (
            any(
                c.kind.value == picked[0]
                or (picked[0] == daimon.FILE_EXISTS and c.kind is ClaimKind.FILE)
                or (picked[0] == daimon.BRANCH_STATE and c.kind is ClaimKind.BRANCH)
                or (picked[0] == daimon.DEPENDENCY_VERSION and c.kind is ClaimKind.DEPENDENCY)
                for c in claims_in(text)
            )
            or "branch is" in text
        )


def test_we_refuse_what_daimon_refuses() -> None:
    for text in (
        "see gemini-cli#14715 which is open",
        "/etc/passwd.txt exists",
        "branch a..b deleted",
        "should bump X to 2.1",
        "#48 slice 1",
    ):
        assert [c for c in claims_in(text) if c.kind is not ClaimKind.COMMIT] == [], text


def test_spans_are_the_words() -> None:
    text = "branch spike/wal is gone; src/old.py was removed and PR #42 merged"
    for claim in claims_in(text):
        assert text[claim.start : claim.end] == claim.words
        assert claim.subject in claim.words or claim.subject.lstrip("#") in claim.words
    quoted = claims_in("httpx==0.27", "quote")[0]
    assert quoted.source == "quote" and quoted.words == "httpx==0.27"
