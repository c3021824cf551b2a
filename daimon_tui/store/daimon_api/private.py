"""Every private daimon name the app uses, each under the id of the contract
that pins it (`registry`; its check is `contracts.CHECKS[id]`).

Nothing else in the package spells a leading-underscore daimon name
(tests/store/test_daimon_contracts.py scans for it). The adapters beside this
module ask `mode` first, then call here. A name is looked up on daimon's module
at each call, so a release without it fails only where it is asked for (safe
mode asks nowhere); the few held at import are daimon's own functions that a
swap replaces, taken before it (`HELD`). A swapped private function is named
here too (the `*_NAME` strings), so a swap spells no private name either.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from daimon_briefing import briefing, config, receipts, render, store, teamproject, trust, view
from daimon_briefing import recall as daimon_recall

# -- reading.fold-appended: the kept fold's premise ----------------------------
# daimon's events fold and its reading of an event's `ts`, held before any swap.
fold = store._fold
stamp_epoch = store._created_epoch
FOLD_NAME = "_fold"

# -- reading.standing-tombstones: the forget walk's standing tombstones ---------
# daimon's own, held before the kept fold's stand-in takes its place (the
# forget walk reaches it by `store._tombstoned_keys`, looked up at each call).
standing_tombstones = store.standing_tombstones

# -- reading.tombstone-refs: the snapshot's forgotten ids ------------------------
# daimon's own, held before the kept fold's stand-in takes its place (the
# snapshot reaches it by `view.forgotten_ids`, looked up at each call).
tombstone_refs = store.tombstone_refs

# -- reading.machine-stamps: the briefing's supersede and agent-claim stamps -----
# daimon's own, held before the kept fold's stand-in takes its place (the
# briefing's `stamp` reaches it by `briefing._machine_stamps`, looked up at each call).
machine_stamps = briefing._machine_stamps

# -- reading.resolved-refs: a snapshot's resolved refs, handed by the kept fold ----
# where a snapshot keeps `resolved_refs` once made: the cached property's own
# name in its `__dict__` (written only by `reading.hand_resolved_refs`).
RESOLVED_REFS_KEPT = "resolved_refs"

# -- reading.session-files ------------------------------------------------------


def session_files(root: Path) -> list[Path]:
    return store._session_files(root)


def pointer_pattern() -> re.Pattern:
    return store._POINTER_RE


# -- reading.team-ledgers -------------------------------------------------------


def tombstone_ledger_name() -> str:
    return store._TOMBSTONE_NAME


def quarantine_ledger_name() -> str:
    return store._QUARANTINE_NAME


def team_ledger_paths(names: tuple[str, ...], *, include_own: bool, include_local: bool) -> list:
    return store._team_ledger_paths(names, include_own=include_own, include_local=include_local)


def settings_file_values() -> dict:
    return config._file_values()


def clear_team_project_cache() -> None:
    teamproject._cache.clear()


# -- judging.read-judge ---------------------------------------------------------
# daimon's light judge, held before the kept fold's swap; `read_judge` asks the current one.
own_read_judge = view._read_judge
READ_JUDGE_NAME = "_read_judge"


def read_judge(slug: Any, forgotten: Any) -> Any:
    return view._read_judge(slug, forgotten)


# -- judging.trust-index --------------------------------------------------------


def trust_index(project: Any, read: Any) -> tuple:
    return view._trust_index(project, read)


# -- recall.generation ------------------------------------------------------------
# recall's freshness check and the forget walk, held before their swaps.
ensure_fresh = daimon_recall._ensure_fresh
forgotten_walk = store._forgotten_walk
ENSURE_FRESH_NAME = "_ensure_fresh"
FORGOTTEN_WALK_NAME = "_forgotten_walk"


def touch_once(path: Path) -> None:
    daimon_recall._touch_once(path)


# -- evidence.source ----------------------------------------------------------------


def legacy_source(item: dict[str, Any]) -> dict | None:
    from daimon_briefing import inspector  # ~8 ms: only for evidence

    return inspector._legacy_source(item)


def bytes_axis(receipt: dict, resolution: Any, messages: list[dict] | None) -> Any:
    from daimon_briefing import inspector

    return inspector._bytes_axis(receipt, resolution, messages)


# -- receipts.names -------------------------------------------------------------------


def public_key_file_name() -> str:
    return receipts._PUB_FILE


def sidecar_suffix() -> str:
    return receipts._SIDECAR_SUFFIX


def binding() -> str:
    return receipts._BINDING


# -- team.sidecar ---------------------------------------------------------------------


def sidecar_branch(sidecar: Any) -> str:
    from daimon_briefing import teamsync  # only for the team status

    return teamsync._branch(sidecar)


def unpushed_count(sidecar: Any, branch_name: str) -> int:
    from daimon_briefing import teamsync

    return teamsync._unpushed_count(sidecar, branch_name)


def pending_count(sidecar: Any) -> int:
    from daimon_briefing import teamsync

    return teamsync._pending_count(sidecar)


def own_team_dirs(project: Any, *, clones_only: bool) -> list:
    return store._own_team_dirs(project, clones_only=clones_only)


def team_author_dirs(clone: Path) -> list[Path]:
    return store._team_author_dirs(clone)


# -- rendering.item-line ----------------------------------------------------------------


def item_line(item: dict, degraded: bool, briefable: bool) -> str:
    return briefing._line(item, degraded, briefable)


# -- rendering.panel ----------------------------------------------------------------------


def truncation_marker() -> str:
    return briefing._TRUNCATION_MARKER


def selected_line(selection: Any, section: str, item: Any) -> str:
    return briefing._sel_line(selection, section, item)


def withheld_trailer(own: Any, team: Any) -> list:
    from daimon_briefing.cli import brief as cli_brief  # the CLI's import is paid only by its own text

    return cli_brief._withheld_trailer(own, team)


def header_reserve(handoff: Any, checkpoint: Any, drift: Any) -> str:
    return render._format_handoff(handoff) + render._format_version_note(checkpoint) + render._format_drift(drift)


def panel_lines(project_dir: Any, worldcheck_project: Any, snap: Any, notes: Any) -> Any:
    return render._panel_lines(project_dir, worldcheck_project, snap, notes)


# -- allocating.drop-order ------------------------------------------------------------------


def drop_order_terms() -> tuple[Callable[..., Any], ...]:
    """is_flagged, is_carried, stale_days, age_days, decision_floor, split_decisions, collapse_panel."""
    return (briefing._is_flagged, briefing._is_carried, briefing._stale_days_of, briefing._item_age_days,
            briefing._decision_floor, briefing._split_decisions, briefing._collapse_panel)


def share_lines(selection: Any, cache: dict) -> None:
    """A selection's rendered lines are read from its `_lines` cache."""
    selection._lines = cache


# -- writing.trust-rules ----------------------------------------------------------------------


def check_reason(reason: str) -> None:
    trust._text("reason", reason)


def check_evidence(evidence: list[str]) -> None:
    trust._evidence(evidence)


# -- brief_verb.verb --------------------------------------------------------------------------
RUN_PROBES_NAME = "_run_probes"
REMOTE_STATE_NAME = "_remote_state"


def known_gh_states() -> Any:
    from daimon_briefing import worldcheck

    return worldcheck._KNOWN_STATES


def brief_verb_body() -> Callable[..., Any]:
    """`daimon brief`'s body, under its `committing` decorator (nothing commits here)."""
    from daimon_briefing.cli import brief as cli_brief  # ~70 ms: only when asked

    return cli_brief._cmd_brief.__wrapped__


# -- diff_verb.steps ---------------------------------------------------------------------------
# `daimon diff`'s own steps (cli.history), looked up per call: the CLI's import is paid only by a diff.


def diff_pointer_entry(pointer: Any) -> dict:
    from daimon_briefing.cli import history

    return history._pointer_entry(pointer)


def diff_pick(entries: list[dict], args: Any) -> tuple:
    from daimon_briefing.cli import history

    return history._pick(entries, args)


def diff_endpoint(entry: dict | None) -> dict | None:
    from daimon_briefing.cli import history

    return history._endpoint(entry)


def diff_lines(payload: dict, oldest: str) -> list[str]:
    from daimon_briefing.cli import history

    return history._diff_lines(payload, oldest)


# The names above held at import, by contract id (the rest are looked up per call).
HELD: dict[str, tuple[str, ...]] = {
    "reading.fold-appended": ("fold", "stamp_epoch"),
    "reading.standing-tombstones": ("standing_tombstones",),
    "reading.tombstone-refs": ("tombstone_refs",),
    "reading.machine-stamps": ("machine_stamps",),
    "judging.read-judge": ("own_read_judge",),
    "recall.generation": ("ensure_fresh", "forgotten_walk"),
}
