"""The check of contract `reading.machine-stamps`: daimon's briefing stamps
(`briefing._machine_stamps`) read only what the kept fold hands them
(`kept_fold_hooks.machine_stamps`). `problem(get)` says what broke, or None
(`get` looks a name of daimon's up as `contracts` does); `contracts` turns it
into its `Broken`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_STATUSES = ("supersede-candidate:i-abcdef12", "Supersede-Candidate: i-0123456", "resolving-candidate", "resolved",
             "forgotten:k", "reopened", "supersede-candidate:not an id", "superseded-by:i-abcdef12")
# an amendment daimon renders, on a resolved ref (r3) and a live one (r5)
_AMENDED = {"r3", "r5"}
_AMENDMENT = {"rows": [{"amendment_id": "a1", "change": "changed", "evidence": "the quote", "state": "verified"}],
              "overflow": 0}


class _ProbeSnap:
    """A snapshot with only the three names the kept fold hands `_machine_stamps`."""

    __slots__ = ("amendments", "resolutions", "resolved_refs")

    def __init__(self, resolutions: dict, resolved_refs: frozenset) -> None:
        self.resolutions, self.resolved_refs = resolutions, resolved_refs
        self.amendments = {ref: _AMENDMENT for ref in sorted(_AMENDED)}


def problem(get: Callable[[str], Any]) -> str | None:
    """daimon's answer over the refs whose status says `candidate` is its
    answer over the whole item fold, and it reads no other name of the snapshot."""
    machine_stamps = get("daimon_briefing.briefing:_machine_stamps")
    is_resolved = get("daimon_briefing.store:is_resolved")
    resolutions = {f"r{n}": {"item_ref": f"r{n}", "status": status, "ts": "2026-01-05T00:00:00Z", "source": "agent",
                             "note": "the quote"} for n, status in enumerate(_STATUSES)}
    resolved = frozenset(ref for ref, evt in resolutions.items() if is_resolved(evt))
    section, key = get("daimon_briefing.schema:ITEM_LISTS")[0]  # the probe's items: daimon's first item list
    checkpoint = {section: {key: [{"id": ref, "text": ref} for ref in resolutions]}}
    try:
        whole = machine_stamps(checkpoint, _ProbeSnap(resolutions, resolved))
        maybe = machine_stamps(checkpoint, _ProbeSnap({ref: evt for ref, evt in resolutions.items()
                                                       if "candidate" in str(evt.get("status") or "").lower()},
                                                      resolved))
    except AttributeError as exc:
        return f"briefing._machine_stamps reads more of the snapshot ({exc})"
    stamped = [item["id"] for _key, item, _evt in whole[1]]
    claimed = [item["id"] for item in whole[0][section][key] if "_agent_claim" in item]
    amended = [item["id"] for item in whole[0][section][key] if "_amend" in item]
    if stamped != ["r0", "r1"] or claimed != ["r2"] or amended != ["r5"]:
        return (f"briefing._machine_stamps of the probe stamps {stamped}, claims {claimed} and amends {amended}, "
                "not ['r0', 'r1'], ['r2'] and ['r5']")
    if maybe != whole:
        return "briefing._machine_stamps reads more than the refs that may be candidates"
    return None
