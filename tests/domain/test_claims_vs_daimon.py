"""Differential test, both ways: every claim daimon's own world-check extracts
from a text, our extractor extracts too (same subject, same or a stricter
expectation); and every claim we extract is daimon's, or one of the named,
intended differences below (`OURS_ONLY`, `DAIMON_ONLY`), each with its reason."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

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

# Claims daimon finds that we do not, on purpose.
DAIMON_ONLY = {
    "branch-stop-word": 'daimon reads "the branch is gone" as a claim about a branch named "is"; '
    "we skip stop words after \"branch\" (documented in claims.py)",
}
_STOP_WORDS = {"is", "was", "has", "the", "that", "we", "it", "to", "and"}

# Claims we find that daimon does not, on purpose (claims.py's "superset").
OURS_ONLY = {
    "added-kind": "commits and tags: daimon's world-check has no claim of these kinds",
    "branch-merge": "a branch merged/unmerged: an added class (daimon checks only that a branch exists)",
    "every-subject": "daimon reads the first subject of each kind; we read every one, and daimon's own "
    "extractor reads this one the same way once the others are out of its words",
    "clause-direction": "the direction word comes from the subject's own clause, where daimon's whole-text "
    "fold finds both directions (no claim) or another one; daimon agrees on the clause's words",
}
# The other subjects of a kind, taken out of a claim's words to ask daimon about this one alone.
_OTHER_SUBJECTS = {
    ClaimKind.PR: r"#\d+",
    ClaimKind.FILE: r"[\w./-]+\.\w+|`[^`]*`",
    ClaimKind.BRANCH: r"branch\s+`?[\w./-]+`?",
    ClaimKind.DEPENDENCY: r"(?!)",  # daimon reads one pin per text; the words hold only ours
}

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
    if branch is not None and branch.name.lower() not in _STOP_WORDS:  # DAIMON_ONLY["branch-stop-word"]
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


def _agrees(claim: Claim, theirs: list[tuple[ClaimKind, str, set[str] | None, str | None]]) -> bool:
    return any(_covers([claim], kind, subject, expected, version) for kind, subject, expected, version in theirs)


def why_ours_only(claim: Claim, text: str) -> str | None:
    """Which intended difference (a key of OURS_ONLY) explains a claim daimon
    does not make, or None when daimon makes it too."""
    theirs = daimon_claims(text)
    if _agrees(claim, theirs):
        return None
    if claim.kind in (ClaimKind.COMMIT, ClaimKind.TAG):
        return "added-kind"
    if claim.kind is ClaimKind.BRANCH and claim.expect in (Expect.MERGED, Expect.UNMERGED):
        return "branch-merge"
    alone = re.sub(_OTHER_SUBJECTS[claim.kind], lambda m: m[0] if claim.subject in m[0] else " ", claim.words)
    if _agrees(claim, daimon_claims(alone)):
        others = [subject for kind, subject, *_ in theirs if kind is claim.kind and subject != claim.subject]
        return "every-subject" if others else "clause-direction"
    return "unexplained"


CORPUS = HAND_WRITTEN + _generated()


@pytest.mark.parametrize("text", CORPUS)
def test_every_claim_we_find_is_daimons_or_an_intended_difference(text: str) -> None:
    for claim in claims_in(text):
        why = why_ours_only(claim, text)
        assert why is None or why in OURS_ONLY, (claim, daimon_claims(text))


def test_every_intended_difference_occurs_and_most_claims_agree() -> None:
    """The allow-list holds no dead entry, and it explains the exceptions, not the rule."""
    reasons = Counter(why_ours_only(c, t) for t in CORPUS for c in claims_in(t))
    assert set(reasons) == {None, *OURS_ONLY}, reasons
    assert reasons[None] > sum(n for why, n in reasons.items() if why is not None) / 2, reasons
    daimon_only = [t for t in CORPUS if daimon.branch_claim_of(t) and daimon.branch_claim_of(t).name in _STOP_WORDS]
    assert daimon_only, "DAIMON_ONLY's case no longer occurs: drop it"


NO_CLAIM = [
    "e.g. this is not a file, i.e. prose",
    "see gemini-cli#14715 which is open",
    "/etc/passwd.txt exists",
    "branch a..b deleted",
    "should bump X to 2.1",
    "#48 slice 1",
    "the branch is gone",
    "we talked about retries for an hour",
]


@pytest.mark.parametrize("text", NO_CLAIM)
def test_no_claim_where_daimon_finds_none(text: str) -> None:
    assert [c for c in daimon_claims(text)] == []
    assert claims_in(text) == []


def test_texts_without_a_daimon_claim_are_checked_too() -> None:
    """Texts where daimon finds nothing are in the corpus, so the both-ways test covers them."""
    silent = [t for t in CORPUS if not daimon_claims(t)]
    assert len(silent) > 50
    assert any(claims_in(t) for t in silent) and any(not claims_in(t) for t in silent)


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
    """daimon's one-claim-per-item choice is among ours, but for DAIMON_ONLY's stop-word branch."""
    kinds = {
        daimon.FILE_EXISTS: ClaimKind.FILE,
        daimon.BRANCH_STATE: ClaimKind.BRANCH,
        daimon.DEPENDENCY_VERSION: ClaimKind.DEPENDENCY,
    }
    for text in HAND_WRITTEN:
        picked = daimon.claim_for(text)
        if picked is None:
            continue
        if picked[0] == daimon.BRANCH_STATE and picked[1].name.lower() in _STOP_WORDS:
            assert not [c for c in claims_in(text) if c.kind is ClaimKind.BRANCH], text
            continue
        wanted = kinds.get(picked[0]) or ClaimKind(picked[0])
        assert any(c.kind is wanted for c in claims_in(text)), (text, picked)


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
