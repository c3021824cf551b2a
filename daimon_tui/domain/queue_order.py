"""The triage queue's order and progress: pure, no daimon, no Textual.

Order mirrors daimon's decide queue (`pending._order_key`): blocking first,
then by lane, then the oldest / stalest first within a lane (a backlog, where
the oldest undecided thing is the one rotting), then append order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Literal

QueueKind = Literal[
    "request",
    "contradicted",
    "agent-claim",
    "supersede-candidate",
    "amendment",
    "ruling",
    "refutation",
    "trust",
    "relation",
    "carried-external",
    "carried-open-loop",
    "carried-stale",
    "open-loop",
]

# Lanes that already mislead a reader of the briefing come first (a claim the
# world contradicts, an unverified agent claim, a machine supersede guess, a
# verified-but-unconfirmed amendment: all render today); ledger candidates
# next (daimon ranks them after amendments: they render nothing until a person
# acts); plain carried items next; the rest of `daimon loops` last.
KIND_RANK: dict[str, int] = {
    "request": 0,
    "contradicted": 1,
    "agent-claim": 2,
    "supersede-candidate": 3,
    "amendment": 4,
    "ruling": 5,
    "refutation": 5,
    "trust": 5,
    "relation": 6,
    "carried-external": 7,
    "carried-open-loop": 8,
    "carried-stale": 9,
    "open-loop": 10,
}

KIND_TITLES: dict[str, str] = {
    "request": "Request addressed to this project",
    "contradicted": "The world contradicts this item",
    "agent-claim": "Agent claims this is resolved",
    "supersede-candidate": "Likely superseded (machine suggestion)",
    "amendment": "Agent-proposed amendment (quote-verified)",
    "ruling": "Candidate ruling",
    "refutation": "Candidate refutation",
    "trust": "Quarantine proposed by the agent",
    "relation": "Relation proposal",
    "carried-external": "Carried: VERIFY BEFORE TRUSTING",
    "carried-open-loop": "Carried open loop",
    "carried-stale": "Carried and ? unverified (decision, belief or uncertainty)",
    "open-loop": "Open loop (as `daimon loops` lists it)",
}


def order_key(
    *, kind: str, blocking: bool, stale_days: float | None, waiting_since: str | None, seq: int
) -> tuple:
    """Blocking first, then lane, then stalest (most days) / oldest
    `waiting_since`, then append order."""
    stale = -(stale_days or 0.0)
    return (not blocking, KIND_RANK.get(kind, 99), stale, waiting_since or "", seq)


# What each verdict counts as in the progress line.
TALLY_WORD: dict[str, str] = {
    "resolve": "resolved",
    "claim-confirm": "resolved",
    "supersede-confirm": "resolved",
    "retract": "retracted",
    "reverify": "reverified",
    "claim-reopen": "reopened",
    "supersede-reject": "reopened",
    "amend-ratify": "ratified",
    "ruling-ratify": "ratified",
    "refutation-ratify": "ratified",
    "amend-reject": "rejected",
    "relation-reject": "rejected",
    "ruling-reject": "rejected",
    "refutation-reject": "rejected",
    "relation-confirm": "confirmed",
    "trust-confirm": "confirmed",
    "trust-dismiss": "dismissed",
    "request-accept": "accepted",
    "request-reject": "rejected",
    "skip": "skipped",
}
TALLY_ORDER = (
    "resolved",
    "retracted",
    "reverified",
    "reopened",
    "ratified",
    "confirmed",
    "accepted",
    "rejected",
    "dismissed",
    "not activated",
    "refused",
    "skipped",
)


def tally(done: Mapping[str, str]) -> Counter[str]:
    """`done` maps entry key -> the last verb applied to it (or `skip`, or an
    outcome word such as `not activated` / `refused`)."""
    return Counter(TALLY_WORD.get(verb, verb) for verb in done.values())


def progress_line(position: int, total: int, done: Mapping[str, str]) -> str:
    """ "7 of 19; 4 resolved, 1 retracted, 2 skipped". `position` is 1-based."""
    counts = tally(done)
    parts = [f"{counts[word]} {word}" for word in TALLY_ORDER if counts.get(word)]
    parts += [f"{n} {word}" for word, n in sorted(counts.items()) if word not in TALLY_ORDER and n]
    head = f"{position} of {total}" if total else "queue empty"
    return head + ("; " + ", ".join(parts) if parts else "")


def lane_counts(kinds: Iterable[str]) -> str:
    """ "lanes: contradicted 2 · carried open loop 3": each lane with its count,
    in queue order (a lane with nothing waiting is left out)."""
    counts = Counter(kinds)
    lanes = sorted(counts, key=lambda kind: (KIND_RANK.get(kind, 99), kind))
    return "lanes: " + " · ".join(f"{kind} {counts[kind]}" for kind in lanes) if lanes else ""


def summary_lines(verbs_done: Iterable[tuple[str, str]]) -> list[str]:
    """One line per (verb, outcome) pair with its count, for the end-of-queue
    summary. Input comes from the action log (ids and codes only)."""
    counts = Counter(verbs_done)
    return [f"{n} × {verb} ({outcome})" for (verb, outcome), n in sorted(counts.items())]
