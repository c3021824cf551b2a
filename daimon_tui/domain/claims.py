"""Checkable claims in an item's words: what an item says about the repository.

A claim names a subject (a branch, a path, a commit, a tag, a PR or issue
number, a dependency) and what the item asserts about it. Each claim keeps the
exact words it came from, so a person can see why it was checked.

Recognition is a superset of daimon's own world-check (`worldcheck.claim_for`
and its four extractors): the same patterns and the same direction vocabulary,
but every subject in the text is read, not just the first, and the direction
words are taken from the subject's own clause before falling back to the whole
text (the fallback is daimon's rule, kept for the first subject only so that a
second path in "moved a.py to b.py; old one deleted" is not read as deleted).
Added classes: branch merged/unmerged, commit exists, tag exists/missing,
`name@version` pins, backticked paths and "`x` branch".

Deliberate deviation: daimon reads "the branch is gone" as a claim about a
branch named "is"; we skip stop words after "branch".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class ClaimKind(StrEnum):
    BRANCH = "branch"
    FILE = "file"
    COMMIT = "commit"
    TAG = "tag"
    PR = "pr-state"  # a PR or issue number: which one is a hint (`ref_kind`)
    DEPENDENCY = "dependency"


class Expect(StrEnum):
    EXISTS = "exists"
    MISSING = "missing"
    MERGED = "merged"  # branch merged into the default branch / PR merged
    UNMERGED = "unmerged"
    OPEN = "open"
    CLOSED = "closed"  # closed or merged (daimon: {CLOSED, MERGED})
    VERSION = "version"


Source = Literal["text", "quote"]


@dataclass(frozen=True, slots=True)
class Claim:
    kind: ClaimKind
    subject: str  # branch/tag name, path, sha, "#42", dependency name (raw, untrusted)
    expect: Expect
    words: str  # the exact words that made the claim
    start: int  # span of `words` in its source
    end: int
    source: Source = "text"
    version: str | None = None  # dependency claims only
    ref_kind: str | None = None  # pr-state: "pr" or "issue", as daimon would guess

    @property
    def key(self) -> tuple[str, str, str, str | None]:
        return (self.kind.value, self.subject, self.expect.value, self.version)


# --- daimon-compatible patterns (same shapes as daimon_briefing.worldcheck) ---

_REF_RE = re.compile(r"(?i)(?:\b(?P<kind>pr|pull request|issue)\s+)?(?<![\w/#-])#(?P<num>\d{1,6})\b")
_PR_STATE_RE = re.compile(r"(?i)\b(awaiting|open|merged|closed|review)\b")
_PR_OPEN = frozenset({"awaiting", "open", "review"})
_PR_DONE = frozenset({"merged", "closed"})

_PATH_EXT = "tsx|jsx|toml|yaml|json|html|java|lock|yml|txt|cfg|ini|sql|css|md|py|js|ts|go|rs|sh|rb|c|h"
_PATH_RE = re.compile(r"(?<![\w/~.-])(?P<path>(?:[\w-]{1,40}/){0,6}[\w-]{1,40}\.(?:" + _PATH_EXT + r"))\b")
_PATH_TICK_RE = re.compile(r"`(?P<path>(?!/|~)[\w@+-][\w./@+-]{0,200})`")
_PATH_STATE_RE = re.compile(
    r"(?i)\b(lives in|implemented in|added|created|exists|deleted|removed|missing|gone)\b"
)
_PATH_PRESENT = frozenset({"lives in", "implemented in", "added", "created", "exists"})
_PATH_ABSENT = frozenset({"deleted", "removed", "missing", "gone"})

_BRANCH_RE = re.compile(r"(?i)\bbranch\s+`?(?P<name>[\w][\w./-]{0,80})")
_BRANCH_TICK_RE = re.compile(r"(?i)`(?P<name>[\w][\w./-]{0,80})`\s+branch\b")
_BRANCH_STATE_RE = re.compile(r"(?i)\b(unmerged|active|current|checked out|deleted|gone)\b")
_BRANCH_PRESENT = frozenset({"unmerged", "active", "current", "checked out"})
_BRANCH_ABSENT = frozenset({"deleted", "gone"})
_MERGED_RE = re.compile(r"(?i)\b(merged|landed)\b")
_UNMERGED_RE = re.compile(r"(?i)\b(unmerged|not\s+(?:yet\s+)?merged)\b")
_STOP_WORDS = frozenset(
    [
        "is",
        "was",
        "has",
        "had",
        "the",
        "a",
        "an",
        "that",
        "this",
        "it",
        "its",
        "to",
        "of",
        "in",
        "on",
        "and",
        "or",
        "for",
        "which",
        "we",
        "i",
        "you",
        "be",
        "been",
        "are",
        "were",
        "will",
        "would",
        "should",
        "can",
        "could",
        "from",
        "with",
    ]
)

_VER = r"\d{1,4}(?:\.\d{1,4}){0,3}"
_DEP_RES = (
    re.compile(r"(?i)(?<![\w.-])(?P<name>[A-Za-z][\w.-]{0,39})==(?P<ver>" + _VER + r")\b"),
    re.compile(
        r"(?i)(?<![\w.-])(?P<name>[A-Za-z][\w.-]{0,39})\s+(?:is\s+|was\s+|now\s+){0,2}"
        r"(?:pinned|bumped|upgraded|downgraded)\s+(?:to|at)\s+v?(?P<ver>" + _VER + r")\b"
    ),
    re.compile(
        r"(?i)\b(?:pinned|bumped|upgraded|downgraded)\s+(?P<name>[A-Za-z][\w.-]{0,39})\s+"
        r"(?:to|at)\s+v?(?P<ver>" + _VER + r")\b"
    ),
    re.compile(r"(?<![\w.@/-])(?P<name>[A-Za-z][\w-]{0,39})@v?(?P<ver>" + _VER + r")\b(?![.@]\w)"),
)

# --- classes daimon does not have ---

_COMMIT_RE = re.compile(
    r"(?i)(?:\b(?:commit|sha|revision|rev)\s+`?|`)(?P<sha>(?=[0-9a-f]*\d)[0-9a-f]{7,40})\b`?"
)
_TAG_RE = re.compile(r"(?i)\btag(?:ged)?\s+(?:as\s+)?(?:`(?P<q>[^`\s]{1,100})`|(?P<name>v?\d[\w.+-]{0,60}))")
_TAG_ABSENT_RE = re.compile(r"(?i)\b(deleted|removed|gone|missing)\b")

# Clause boundaries: direction words are read from the subject's own clause.
_CLAUSE_END_RE = re.compile(r"[;\n]|(?<=[.!?])\s+")


def _clauses(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _CLAUSE_END_RE.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return spans


def _clause_of(clauses: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    for lo, hi in clauses:
        if lo <= pos <= hi:
            return lo, hi
    return 0, 0


@dataclass(frozen=True, slots=True)
class _Direction:
    present: bool
    words: frozenset[str]
    cue: re.Match[str]  # the word nearest the subject, for the claim's span


def _direction(
    text: str,
    lo: int,
    hi: int,
    state_re: re.Pattern[str],
    present: frozenset[str],
    absent: frozenset[str],
    near: int,
) -> _Direction | None:
    """daimon's direction fold over text[lo:hi]: no vocabulary means no claim,
    both directions at once means an ambiguous one."""
    found = list(state_re.finditer(text, lo, hi))
    words = frozenset(m.group(1).lower() for m in found)
    if not words or (words & present and words & absent):
        return None
    cue = min(found, key=lambda m: abs(m.start() - near))
    return _Direction(bool(words & present), words, cue)


def _scoped_direction(
    text: str,
    clauses: list[tuple[int, int]],
    match: re.Match[str],
    first: bool,
    state_re: re.Pattern[str],
    present: frozenset[str],
    absent: frozenset[str],
) -> _Direction | None:
    lo, hi = _clause_of(clauses, match.start())
    found = _direction(text, lo, hi, state_re, present, absent, match.start())
    if found is None and first:
        found = _direction(text, 0, len(text), state_re, present, absent, match.start())
    return found


def _claim(
    kind: ClaimKind,
    subject: str,
    expect: Expect,
    text: str,
    source: Source,
    spans: Iterable[tuple[int, int]],
    **extra: str | None,
) -> Claim:
    points = list(spans)
    start, end = min(p[0] for p in points), max(p[1] for p in points)
    return Claim(kind, subject, expect, text[start:end], start, end, source, **extra)


def _pr_claims(text: str, source: Source, clauses: list[tuple[int, int]]) -> Iterator[Claim]:
    all_words = {w.lower() for w in _PR_STATE_RE.findall(text)}
    for index, m in enumerate(_REF_RE.finditer(text)):
        d = _scoped_direction(text, clauses, m, index == 0, _PR_STATE_RE, _PR_OPEN, _PR_DONE)
        if d is None:
            continue
        if d.present:
            expect = Expect.OPEN
        elif "merged" in d.words and "closed" not in d.words:
            expect = Expect.MERGED
        else:
            expect = Expect.CLOSED
        named = (m.group("kind") or "").lower()
        if named in ("pr", "pull request"):
            ref_kind = "pr"
        elif named == "issue":
            ref_kind = "issue"
        else:  # daimon's guess, from the whole text's vocabulary
            ref_kind = "pr" if all_words & {"merged", "review", "awaiting"} else "issue"
        yield _claim(
            ClaimKind.PR,
            f"#{m.group('num')}",
            expect,
            text,
            source,
            [m.span(), d.cue.span()],
            ref_kind=ref_kind,
        )


def _branch_claims(text: str, source: Source, clauses: list[tuple[int, int]]) -> Iterator[Claim]:
    matches = sorted([*_BRANCH_RE.finditer(text), *_BRANCH_TICK_RE.finditer(text)], key=lambda m: m.start())
    first_primary = next(_BRANCH_RE.finditer(text), None)
    for m in matches:
        name = m.group("name").rstrip("./-")
        if not name or ".." in name or name.lower() in _STOP_WORDS:
            continue
        d = _scoped_direction(
            text,
            clauses,
            m,
            m is first_primary or _same(m, first_primary),
            _BRANCH_STATE_RE,
            _BRANCH_PRESENT,
            _BRANCH_ABSENT,
        )
        if d is not None:
            expect = Expect.EXISTS if d.present else Expect.MISSING
            yield _claim(ClaimKind.BRANCH, name, expect, text, source, [m.span(), d.cue.span()])
        lo, hi = _clause_of(clauses, m.start())
        unmerged = _UNMERGED_RE.search(text, lo, hi)
        if unmerged:
            yield _claim(ClaimKind.BRANCH, name, Expect.UNMERGED, text, source, [m.span(), unmerged.span()])
        else:
            merged = _MERGED_RE.search(text, lo, hi)
            if merged:
                yield _claim(ClaimKind.BRANCH, name, Expect.MERGED, text, source, [m.span(), merged.span()])


def _same(a: re.Match[str], b: re.Match[str] | None) -> bool:
    return b is not None and a.re is b.re and a.span() == b.span()


def _path_claims(text: str, source: Source, clauses: list[tuple[int, int]]) -> Iterator[Claim]:
    first_primary = next(_PATH_RE.finditer(text), None)
    primary = list(_PATH_RE.finditer(text))
    # A backticked name next to "branch" is that branch's name, not a path.
    covered = [m.span("path") for m in primary]
    covered += [m.span("name") for m in (*_BRANCH_RE.finditer(text), *_BRANCH_TICK_RE.finditer(text))]
    ticked = [
        m
        for m in _PATH_TICK_RE.finditer(text)
        if _looks_like_path(m.group("path")) and not any(lo <= m.start("path") < hi for lo, hi in covered)
    ]
    for m in sorted([*primary, *ticked], key=lambda m: m.start()):
        path = m.group("path")
        d = _scoped_direction(
            text, clauses, m, _same(m, first_primary), _PATH_STATE_RE, _PATH_PRESENT, _PATH_ABSENT
        )
        if d is None:
            continue
        expect = Expect.EXISTS if d.present else Expect.MISSING
        yield _claim(ClaimKind.FILE, path, expect, text, source, [m.span("path"), d.cue.span()])


def _looks_like_path(token: str) -> bool:
    if "://" in token or ".." in token.split("/") or token.startswith(("/", "~", "-")):
        return False
    last = token.rsplit("/", 1)[-1]
    return "/" in token or ("." in last.strip(".") and not last.replace(".", "").isdigit())


def _dep_claims(text: str, source: Source) -> Iterator[Claim]:
    for pattern in _DEP_RES:
        for m in pattern.finditer(text):
            yield _claim(
                ClaimKind.DEPENDENCY,
                m.group("name"),
                Expect.VERSION,
                text,
                source,
                [m.span()],
                version=m.group("ver"),
            )


def _commit_claims(text: str, source: Source) -> Iterator[Claim]:
    for m in _COMMIT_RE.finditer(text):
        yield _claim(ClaimKind.COMMIT, m.group("sha").lower(), Expect.EXISTS, text, source, [m.span()])


def _tag_claims(text: str, source: Source, clauses: list[tuple[int, int]]) -> Iterator[Claim]:
    for m in _TAG_RE.finditer(text):
        name = m.group("q") or m.group("name").rstrip(".,")
        lo, hi = _clause_of(clauses, m.start())
        absent = _TAG_ABSENT_RE.search(text, lo, hi)
        expect = Expect.MISSING if absent else Expect.EXISTS
        yield _claim(
            ClaimKind.TAG, name, expect, text, source, [m.span(), *([absent.span()] if absent else [])]
        )


def claims_in(text: str | None, source: Source = "text") -> list[Claim]:
    """Every checkable claim in one piece of text, in order of appearance."""
    text = text or ""
    if not text.strip():
        return []
    clauses = _clauses(text)
    found = [
        *_pr_claims(text, source, clauses),
        *_branch_claims(text, source, clauses),
        *_path_claims(text, source, clauses),
        *_dep_claims(text, source),
        *_commit_claims(text, source),
        *_tag_claims(text, source, clauses),
    ]
    return _dedupe(sorted(found, key=lambda c: c.start))


def extract_claims(text: str | None, quote: str | None = None) -> list[Claim]:
    """Claims in an item's text and its quote; a claim both make is kept once
    (the text's)."""
    return _dedupe([*claims_in(text, "text"), *claims_in(quote, "quote")])


def _dedupe(claims: Iterable[Claim]) -> list[Claim]:
    seen: set[tuple[str, str, str, str | None]] = set()
    out = []
    for claim in claims:
        key = (
            claim.kind.value,
            claim.subject.lower() if claim.kind is ClaimKind.DEPENDENCY else claim.subject,
            claim.expect.value,
            claim.version,
        )
        if key not in seen:
            seen.add(key)
            out.append(claim)
    return out
