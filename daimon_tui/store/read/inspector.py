"""daimon's trust inspector (`why`) for one item, each axis with what its value means."""

from __future__ import annotations

from collections.abc import Mapping

from daimon_tui.models import Axis, Inspection, ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.daimon_api.public import api
from daimon_tui.store.read.reader import field_text
from daimon_tui.store.read.store_notes import store_notes

AXIS_MEANINGS = {
    # `why`'s capture axis reads the item's capture receipt (`quote_provenance`)
    # and nothing else; the checkpoint's `quote_verified` stamp is its own fact.
    "capture": {
        "verified": "the capture receipt says the quote was found in the transcript",
        "not-verified": "the capture receipt says the quote was not found in the transcript",
        "unknown": "no capture receipt recorded for this quote",
    },
    "provenance": {
        "bound": "the item is bound to the session that first stated it",
        "legacy-inferred": "an old item: its origin is inferred, not recorded",
        "legacy-unbound": "an old item with no recorded origin",
    },
    "locator": {
        "resolved": "the source transcript was found on this machine",
        "absent-local": "the source transcript is not on this machine",
        "remote-author": "a teammate's session: the transcript is theirs",
        "ambiguous": "more than one transcript could be the source",
        "unreadable": "the source transcript exists but cannot be read",
        "unsupported": "this host's transcripts cannot be located",
    },
    "bytes": {
        "unchanged": "the transcript still hashes as it did at capture",
        "changed": "the transcript changed since capture",
        "unknown": "the transcript was not hashed",
    },
    "current_support": {
        "message-id-match": "the quote is still in the cited messages",
        "transcript-scan-match": "the quote is still somewhere in the transcript",
        "not-reproduced": "the quote is no longer found",
        "not-checked": "not re-checked now",
        "withheld": "withheld: daimon shows no evidence for it",
    },
    "verifier_comparison": {
        "same-version": "checked by the verifier version daimon runs now",
        "different-version": "checked by another verifier version",
        "unknown": "no verifier version recorded",
    },
    "lifecycle": {
        "active": "live in the briefing",
        "resolved": "closed by a resolution",
        "superseded": "replaced by a newer item",
        "forgotten": "removed by forget",
    },
}


def inspect(project: ProjectRef, item_id: str, now: float | None = None) -> Inspection:
    """daimon's trust inspector (`why`) for one item, each axis with its meaning."""
    item_id = item_id if isinstance(item_id, str) else ""
    if not item_id or store_notes(project, None)[1]:
        return Inspection(item_id=item_id, found=False)
    try:
        result = api.why(project.target, item_id, now=now)
    except Exception as exc:
        return Inspection(item_id=item_id, found=False, lines=(f"why failed: {type(exc).__name__}",))
    if not isinstance(result, Mapping):
        return Inspection(item_id=item_id, found=False)
    try:
        return _inspection(item_id, result)
    except Exception as exc:  # an answer holding a field of an unexpected type
        return Inspection(item_id=item_id, found=False, lines=(
            f"why's answer could not be read ({type(exc).__name__}: {str(exc)[:120]}); "
            f"daimon's files: {paths.bucket_dir(project.slug) or project.slug}",))


def _inspection(item_id: str, result: Mapping) -> Inspection:
    axes_raw = result.get("axes") if isinstance(result.get("axes"), Mapping) else {}
    axes = tuple(
        Axis(
            name=str(name),
            value=str(value),
            meaning=AXIS_MEANINGS.get(str(name), {}).get(str(value), ""),
        )
        for name, value in axes_raw.items()
    )
    corroboration = result.get("corroboration") if isinstance(result.get("corroboration"), Mapping) else {}
    refs = corroboration.get("references") or ()
    lifecycle = result.get("lifecycle_event") if isinstance(result.get("lifecycle_event"), Mapping) else {}
    item = result.get("item") if isinstance(result.get("item"), Mapping) else {}
    occurrences = item.get("occurrences")
    try:
        lines = tuple(api.why_lines(result))
    except Exception:
        lines = ()
    return Inspection(
        item_id=item_id,
        found=True,
        withheld=axes_raw.get("current_support") == "withheld",
        axes=axes,
        corroboration_count=int(corroboration.get("count") or 0),
        corroboration_refs=tuple(str(r.get("session_id", r)) if isinstance(r, Mapping) else str(r) for r in refs),
        lifecycle_status=field_text(lifecycle.get("status")),
        lifecycle_ts=field_text(lifecycle.get("timestamp")),
        lifecycle_source=field_text(lifecycle.get("source")),
        occurrences=occurrences if isinstance(occurrences, int) and not isinstance(occurrences, bool) else 0,
        origin_session=field_text(item.get("origin_session")),
        lines=lines,
    )
