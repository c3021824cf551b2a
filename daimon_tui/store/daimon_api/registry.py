"""What the adapters assume of daimon, as data: one `Contract` per assumption,
named by an id, with the daimon names it is about and what it serves.

The checks of each assumption are apart (`contracts.CHECKS`, same ids): this
registry is read by the mode, `doctor` and safe mode's list of what is off,
and imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Contract:
    id: str
    concern: str  # the adapter module that relies on it
    where: str  # the daimon name it is about
    assumption: str
    serves: str  # what the app does with it (what is off when it breaks)
    # An optimization only: safe mode turns it off even when it holds.
    optional: bool = False
    # The adapter composes public names only (`composed`); the contract pins
    # that they still equal daimon's private answer.
    public: bool = False


CONTRACTS: tuple[Contract, ...] = (
    # -- reading and folding ---------------------------------------------------
    Contract("reading.fold-appended", "reading",
             where="store._fold, store._created_epoch",
             assumption="folding each ref's winner plus the appended rows equals the full fold, only rows at a "
                        "ref's latest stamp can win, and a YYYY-MM-DDTHH:MM:SSZ stamp naming a real instant is read "
                        "as that instant",
             serves="the kept fold", optional=True),
    Contract("reading.kept-fold-swaps", "reading",
             where="jsonl.read, store.fold_corroborations, store.item_events, view.item_events, view.ledger_states, "
                   "view.team_notes, jsonl.posture",
             assumption="the functions the kept fold wraps keep their signatures",
             serves="the kept fold", optional=True),
    Contract("reading.standing-tombstones", "reading",
             where="store.standing_tombstones, store._tombstoned_keys, store._fold, store.is_tombstone_status",
             assumption="standing_tombstones(rows) reads each ref's fold winner only, and only one whose status is a "
                        "tombstone (which says `forgotten`); the forget walk's _tombstoned_keys is its keys",
             serves="the kept fold's standing tombstones", optional=True),
    Contract("reading.tombstone-refs", "reading",
             where="store.tombstone_refs, view.forgotten_ids, store.is_tombstone_status",
             assumption="tombstone_refs(resolutions) judges each ref's latest event alone, and keeps only one whose "
                        "status is a tombstone (which says `forgotten`)",
             serves="the kept fold's forgotten ids", optional=True),
    Contract("reading.machine-stamps", "reading",
             where="briefing._machine_stamps, capture._pending_agent_candidates",
             assumption="_machine_stamps(checkpoint, snap) reads only snap.resolutions, snap.resolved_refs and "
                        "snap.amendments, and of snap.resolutions only the refs whose status says `candidate`",
             serves="the kept fold's briefing stamps", optional=True),
    Contract("reading.resolved-refs", "reading",
             where="view.Snapshot.resolved_refs, store.is_resolved",
             assumption="Snapshot.resolved_refs is a cached property, kept in the snapshot's __dict__ under its own "
                        "name, whose answer is the refs of snap.resolutions whose latest event store.is_resolved",
             serves="the kept fold's resolved refs", optional=True),
    Contract("reading.demotes", "reading",
             where="store._demotes",
             assumption="store._demotes(row, status) is store.is_resolved(row) or a supersede-candidate status, and "
                        "store.is_resolved reads a row's status alone",
             serves="the history's demotion kinds", public=True),
    Contract("reading.bucket", "reading",
             where="view._bucket",
             assumption="a bucket is checkpoint_dir() / project_slug(resolve_project_dir(project))",
             serves="the bucket of a project", public=True),
    Contract("reading.session-files", "reading",
             where="store._session_files, store._POINTER_RE",
             assumption="a bucket's session files and its pointer names (latest.json, prev-N.json)",
             serves="the briefing as of a time"),
    Contract("reading.team-ledgers", "reading",
             where="store._team_ledger_paths, store._TOMBSTONE_NAME, store._QUARANTINE_NAME, config._file_values, "
                   "teamproject._cache",
             assumption="the machine's tombstone and quarantine ledgers, daimon's settings file, its team-project "
                        "cache",
             serves="the briefing as of a time"),
    # -- judging ---------------------------------------------------------------
    Contract("judging.read-judge", "judging",
             where="view._read_judge",
             assumption="view._read_judge(slug, forgotten) -> (Judge, memoizable)",
             serves="the kept fold", optional=True),
    Contract("judging.trust-index", "judging",
             where="view._trust_index, view._frozen, view.Snapshot",
             assumption="the trust ledger folds to (ids, items, health, detail); a Snapshot holds these fields",
             serves="the first paint", optional=True),
    Contract("judging.swaps", "judging",
             where="view.snapshot, view.judge, view.machine_sets, store.forgotten_incomplete",
             assumption="the functions the shared snapshot and the provisional reads wrap keep their signatures",
             serves="the shared snapshot and provisional details", optional=True),
    # -- writing ---------------------------------------------------------------
    Contract("writing.trust-rules", "writing",
             where="trust._text, trust._evidence",
             assumption="daimon's own checks of a quarantine's reason and evidence",
             serves="retract"),
    Contract("writing.demo-clock", "writing",
             where="store.datetime",
             assumption="daimon's store reads the time through its module's `datetime`",
             serves="the demo store's dates"),
    # -- recall ----------------------------------------------------------------
    Contract("recall.generation", "recall",
             where="recall._ensure_fresh, recall._touch_once, store._forgotten_walk",
             assumption="recall's freshness check and the forget walk can be answered again while their sources stand",
             serves="the search's reuse of recall's checks", optional=True),
    # -- evidence --------------------------------------------------------------
    Contract("evidence.source", "evidence",
             where="inspector._legacy_source, inspector._bytes_axis",
             assumption="how `why` names an old item's transcript and judges the transcript's bytes",
             serves="the witnesses' words and reading transcripts ahead"),
    # -- receipts --------------------------------------------------------------
    Contract("receipts.names", "receipts",
             where="receipts._PUB_FILE, receipts._SIDECAR_SUFFIX, receipts._BINDING",
             assumption="where the public key and a receipt live, and the binding a receipt signs",
             serves="the receipt audit's own signature check"),
    # -- team ------------------------------------------------------------------
    Contract("team.sidecar", "team",
             where="teamsync._branch, teamsync._unpushed_count, teamsync._pending_count, "
                   "store._own_team_dirs, store._team_author_dirs",
             assumption="a team sidecar's branch and counts, a clone's authors, the author's own team directories",
             serves="the team status"),
    Contract("team.clone-of", "team",
             where="store._remote_of",
             assumption="the clone a path under the team dir belongs to is its first segment under config.team_dir()",
             serves="which team clones hold a quarantine", public=True),
    # -- rendering -------------------------------------------------------------
    Contract("rendering.item-line", "rendering",
             where="briefing._mark, briefing._line, briefing._section_field, the four mark constants",
             assumption="an item's mark and line as daimon renders them (mark, text, badges in that order)",
             serves="the briefing's item lines", public=True),
    Contract("rendering.panel", "rendering",
             where="render._panel_lines, render._format_handoff, render._format_version_note, render._format_drift, "
                   "briefing._sel_line, briefing._TRUNCATION_MARKER, cli.brief._withheld_trailer",
             assumption="the pieces of `daimon brief`'s text",
             serves="which items `daimon brief` prints (the briefed split, the rows as daimon prints them)"),
    # -- allocating --------------------------------------------------------------
    Contract("allocating.drop-order", "allocating",
             where="briefing._is_flagged, _is_carried, _stale_days_of, _item_age_days, _decision_floor, "
                   "_split_decisions, "
                   "_collapse_panel, _rank_pcts, _sel_line, Selection._lines and the drop order's constants",
             assumption="daimon's allocator's terms, constants and rank percentiles are what our allocator orders by",
             serves="the briefed split's own fast allocator", optional=True),
    # -- brief_verb -------------------------------------------------------------
    Contract("brief_verb.verb", "brief_verb",
             where="cli.brief._cmd_brief (its body under `committing`), effects_commit.Pending, "
                   "worldcheck._run_probes, "
                   "worldcheck._remote_state, worldcheck._KNOWN_STATES, store.active_handoff (swapped for one call)",
             assumption="daimon's brief verb runs with an effects collector nobody commits; the world-check's programs "
                        "(`git remote -v`, `gh`, the receipt signer) are answered from a table, never started; each "
                        "probe "
                        "carries the parser of its program's output",
             serves="`brief --as-daimon` (daimon's own bytes and exit code)"),
    # -- diff_verb ----------------------------------------------------------------
    Contract("diff_verb.steps", "diff_verb",
             where="cli.history._pointer_entry, cli.history._pick, cli.history._endpoint, cli.history._diff_lines "
                   "(with its _chain_line, _change_line)",
             assumption="`daimon diff` is its usage line, then these steps on view.snapshot, view.pointers and "
                        "cli.history.changes; run in its order without the usage line, they print its bytes and "
                        "codes",
             serves="`diff` (daimon's own steps, bytes and exit codes)"),
)

# Verbs that need a private daimon call: off in safe mode.
VERBS_NEEDING_PRIVATE = {"retract": "trust._text and trust._evidence (its reason and evidence rules)"}


def by_id(contract_id: str) -> Contract:
    return next(c for c in CONTRACTS if c.id == contract_id)
