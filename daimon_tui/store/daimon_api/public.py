"""daimon's public API as the store calls it: each daimon module, imported once.

The store imports these module objects from here, never from daimon, and
calls `store.project_slug(...)` at call time: a run-time swap (`originals`)
or a test's monkeypatch of a daimon attribute then reaches every caller, as
a function bound here at import would not. `SURFACE` names every public
attribute the store calls on each module; tests/store/test_daimon_public.py
checks each is in the installed daimon (`CHECKED_AGAINST`) and that the
store calls nothing beyond it. daimon's command line (~23 ms more to import)
is apart, in `public_cli`.
"""

from __future__ import annotations

import daimon_briefing
from daimon_briefing import (
    amendments,  # amendment proposals on briefed items: list, ratify, reject
    anchor,  # items anchored to code symbols: drift
    api,  # the read-side surface for other programs: lookups, receipts, health
    briefing,  # the briefing: selection, sections, its text
    capture,  # the capture pipeline (the demo carries items forward)
    config,  # settings from the environment and the settings file
    display,  # foreign text in a title or a line
    forget,  # the forget verb and its lift
    jsonl,  # ledger rows: reads, their health, the write guard
    normalize,  # the shared text normalization (content keys)
    pending,  # the `decide` queue
    provenance,  # quote receipts and transcript source refs
    recall,  # the recall search index
    receipts,  # signed checkpoint receipts
    refutations,  # the negative-knowledge ledger
    relations,  # the typed-relation ledger
    requests,  # the cross-project request ledger
    schema,  # the checkpoint item fields
    scoring,  # an item's effective weight
    serializer,  # transcript -> checkpoint (quote matching)
    store,  # the checkpoint store: ledgers, routes, appends
    surfaces,  # the declared file shapes and their writers
    teamproject,  # which team project a session belongs to
    teamsync,  # the team mirror's remotes
    testing,  # daimon's test helpers (the demo's sandbox and seeds)
    transcript,  # transcript files
    trust,  # the human quarantine ledger
    view,  # the judged read of a project
)
from daimon_briefing.jsonl import Health  # a ledger read's health (a type: never swapped)
from daimon_briefing.surfaces import ReadPosture, Writer  # who reads, who writes (types: never swapped)

__all__ = [
    "CHECKED_AGAINST", "SURFACE", "Health", "ReadPosture", "Writer", "amendments", "anchor", "api", "briefing",
    "capture", "config", "daimon_version", "display", "forget", "jsonl", "normalize", "pending", "provenance",
    "recall", "receipts", "refutations", "relations", "requests", "schema", "scoring", "serializer", "store",
    "surfaces", "teamproject", "teamsync", "testing", "transcript", "trust", "view",
]

CHECKED_AGAINST = "0.61.0"


def daimon_version() -> str:
    """The installed daimon's version, asked at each call (a test may fake a release)."""
    return str(daimon_briefing.__version__)


# Every public attribute the store calls on each module above (the test keeps it exact).
SURFACE: dict[str, frozenset[str]] = {
    "amendments": frozenset({"AmendmentError", "events", "get", "ratify", "reject", "row_content_keys"}),
    "anchor": frozenset({"check", "drifted"}),
    "api": frozenset({"ledger_health", "lookup", "project_slug", "read_meta", "receipt_state", "why", "why_lines"}),
    "briefing": frozenset({
        "Annotated", "CORROBORATION_MIN", "FOREIGN_VERBATIM_NOTE", "GREETING", "SECTION_HEADERS", "SECTION_ORDER",
        "Selection", "build", "corroboration_badge", "effective_budget", "listing_age_days", "noted_suffix", "prepare",
        "receipt_degraded", "render_selection", "ruling_lines", "rulings_read", "section_note", "select",
        "teammates_text",
    }),
    "capture": frozenset({"carry_forward"}),
    "config": frozenset({
        "active_settings", "author", "checkpoint_dir", "checkpoint_dir_override", "checkpoint_history",
        "claude_projects_dir", "is_disabled", "keys_dir", "log_dir", "log_dir_override", "max_briefing_decisions",
        "recall_db", "receipts_enabled", "resolve_project_dir", "resolve_read_project", "settings_override",
        "stale_days", "team_dir", "team_enabled", "team_project", "team_retention_days", "worldcheck_enabled",
    }),
    "display": frozenset({"merge_notes", "recall_note", "withheld_json", "withheld_marker"}),
    "forget": frozenset({"Target", "key_of", "lift", "run", "siblings"}),
    "jsonl": frozenset({
        "Posture", "ROW", "Read", "Refused", "TORN", "classify_line", "read", "require_writable", "surface_refusals",
    }),
    "normalize": frozenset({"content_key"}),
    "pending": frozenset({"queue_with_notes"}),
    "provenance": frozenset({
        "SourceResolution", "SourceResolver", "binding_message_ids", "capture_source_ref", "quote_receipt",
        "source_digest", "valid_quote_receipt", "valid_source_ref",
    }),
    "recall": frozenset({"RecallError", "Recalled", "describe_status", "query", "warm"}),
    "receipts": frozenset({"KID", "METHOD"}),
    "refutations": frozenset({
        "RefutationError", "active_rulings_reached", "events", "get", "overturn", "ratify", "retire",
        "row_content_keys",
    }),
    "relations": frozenset({"RelationError", "confirm", "get", "reject"}),
    "requests": frozenset({
        "RequestError", "accept", "events", "join", "recipient_join", "reject", "row_content_keys", "sent",
    }),
    "schema": frozenset({
        "ITEM_FIELDS", "ITEM_LISTS", "ItemField", "compare_format_versions", "iter_fields", "iter_items",
    }),
    "scoring": frozenset({"effective_weight"}),
    "serializer": frozenset({"quote_matches", "strip_injected", "stripped_transcript"}),
    "store": frozenset({
        "Admit", "LIFT_STATUS", "ORIGIN_SESSION_INTROSPECTION_PREFIX", "Route", "active_handoff", "append_event",
        "bucket_root", "corroboration_origins_for", "corroboration_ref", "fold_resolutions", "forgotten_stamp",
        "is_key_ref", "is_resolved", "is_tombstone_status", "items_for_project", "latest_invalidation_verdicts",
        "ledger_file", "project_slug", "project_standing", "read_latest_body", "read_team", "unpublished_quarantines",
    }),
    "surfaces": frozenset({"bucket_ledger_names", "ledger_hint"}),
    "teamproject": frozenset({"config_error", "scope_entries"}),
    "teamsync": frozenset({"list_remotes"}),
    "testing": frozenset({"sample_checkpoint", "sandbox", "seed_checkpoint", "seed_ruling"}),
    "transcript": frozenset({"file_sha256", "from_file"}),
    "trust": frozenset({
        "TrustError", "confirm", "dismiss", "get", "make_id", "propose", "redact_content_key", "release",
        "standing_claims", "value_key",
    }),
    "view": frozenset({
        "Event", "Found", "Opened", "Pointer", "Snapshot", "Withheld", "buckets", "closing_event", "events",
        "item_events", "judge", "ledger_states", "lifecycle_word", "lineage", "live", "machine_sets", "masked",
        "match", "open", "open_sessions", "pointers", "posture", "projects", "projects_notes", "prose_verdict",
        "receipt_state", "relations", "sessions", "snapshot", "team", "team_notes", "team_quarantines",
        "verifications", "withheld_in",
    }),
}
