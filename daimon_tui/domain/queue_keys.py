"""The queue's single keys: one key per kind of answer, resolved to the first
of its daimon verbs that fits the entry. The action registry binds each
(`action_specs`, group Queue); the queue's keys line names the verb that fits."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class QueueKey:
    name: str  # its action id is `queue.<name>`
    key: str
    verbs: tuple[str, ...]  # in preference order
    words: str  # what it does, for `?` and the README (the entry's card names the one verb that fits)


QUEUE_KEYS: tuple[QueueKey, ...] = (
    QueueKey("accept", "a", ("claim-confirm", "supersede-confirm", "amend-ratify", "relation-confirm",
                             "trust-confirm", "ruling-ratify", "refutation-ratify", "request-accept"),
             "Accept what the entry proposes (confirm, ratify)"),
    QueueKey("decline", "d", ("supersede-reject", "amend-reject", "relation-reject", "trust-dismiss",
                              "ruling-reject", "refutation-reject", "request-reject"),
             "Decline it (reject, dismiss)"),
    QueueKey("reopen", "o", ("claim-reopen",), "Reopen a claimed resolution, with evidence"),
    QueueKey("resolve", "r", ("resolve", "claim-confirm"), "Resolve (or confirm a claimed resolution)"),
    QueueKey("retract", "x", ("retract",), "Retract"),
    QueueKey("reverify", "v", ("reverify", "supersede-reject"), "Reverify (or reject a supersession)"),
)
KEY_VERBS: dict[str, tuple[str, ...]] = {k.key: k.verbs for k in QUEUE_KEYS}


def verb_for(key: str, fits: Collection[str]) -> str | None:
    """The verb `key` means for an entry whose verbs are `fits` (None: none fits)."""
    return next((v for v in KEY_VERBS.get(key, ()) if v in fits), None)
