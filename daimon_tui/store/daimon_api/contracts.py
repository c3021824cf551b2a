"""What the adapters assume of daimon, as data: one `Contract` per assumption.

The same list feeds the contract tests (tests/store/test_daimon_contracts.py),
`daimon-tui doctor` and the choice of safe mode (`mode`). Each check runs in
memory against the installed daimon (no store is read or written) and says
which assumption broke and where.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class Broken(Exception):
    """An assumption that does not hold on the installed daimon."""


@dataclass(frozen=True)
class Contract:
    id: str
    concern: str  # the adapter module that relies on it
    where: str  # the daimon name it is about
    assumption: str
    serves: str  # what the app does with it (what is off when it breaks)
    check: Callable[[], None]
    # An optimization only: safe mode turns it off even when it holds.
    optional: bool = False
    # The adapter composes public names only; the contract pins that they
    # still equal daimon's private answer.
    public: bool = False


@dataclass(frozen=True)
class Outcome:
    contract: Contract
    problem: str | None

    @property
    def holds(self) -> bool:
        return self.problem is None


# "module:name" -> daimon's own function, for each one an adapter swapped: the
# contracts are about daimon, never about our stand-ins (a mode decided again
# after a swap must see daimon's).
_originals: dict[str, Any] = {}


def swap(module: Any, name: str, replacement: Any) -> None:
    """Put `replacement` in place of `module.name` (adapters only), daimon's own kept."""
    _originals.setdefault(f"{module.__name__}:{name}", getattr(module, name))
    setattr(module, name, replacement)


def _get(where: str) -> Any:
    module, _, name = where.rpartition(":")
    if where in _originals:
        return _originals[where]
    obj: Any = importlib.import_module(module)
    for part in name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise Broken(f"{module} has no {name}") from exc
    return obj


def _signature(where: str, params: str) -> Callable[[], None]:
    """`where` is callable with exactly these parameter names (`*` before keyword-only ones)."""

    def check() -> None:
        obj = _get(where)
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError) as exc:
            raise Broken(f"{where} is not a function ({type(obj).__name__})") from exc
        got, star = [], False
        for p in sig.parameters.values():
            if p.kind is p.KEYWORD_ONLY and not star:
                got.append("*")
                star = True
            got.append(p.name)
        if " ".join(got) != params:
            raise Broken(f"{where} takes ({', '.join(got)}), we call it with ({', '.join(params.split())})")

    return check


def _source_signature(where: str, params: str) -> Callable[[], None]:
    """`_signature` read from the module's source, not imported: for a module
    whose import costs more than the check (daimon's CLI)."""

    def check() -> None:
        import daimon_briefing

        module, _, name = where.rpartition(":")
        # `find_spec` of a submodule would import its package: found on disk instead
        base = Path(daimon_briefing.__file__).parent.joinpath(*module.split(".")[1:])
        source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:
            raise Broken(f"no readable module {module} ({type(exc).__name__})") from exc
        found = re.search(rf"^def {re.escape(name)}\(([^)]*)\)", text, flags=re.M)
        if found is None:
            raise Broken(f"{module} has no {name}")
        got = [part.split(":")[0].split("=")[0].strip() for part in found.group(1).split(",")]
        got = [p for p in got if p and p != "/"]
        if " ".join(got) != params:
            raise Broken(f"{where} takes ({', '.join(got)}), we call it with ({', '.join(params.split())})")

    return check


def _value(where: str, expected: Any) -> Callable[[], None]:
    def check() -> None:
        got = _get(where)
        if got != expected:
            raise Broken(f"{where} is {got!r}, we rely on {expected!r}")

    return check


def _store_clock() -> None:
    """daimon's store takes the time from its module's `datetime` class (a clock
    swapped in for a test or the demo is still one: a subclass)."""
    import datetime as dt

    clock = _get("daimon_briefing.store:datetime")
    if not (isinstance(clock, type) and issubclass(clock, dt.datetime)):
        raise Broken(f"store.datetime is {clock!r}, we rely on the datetime class")


def _fields(where: str, names: str) -> Callable[[], None]:
    """A dataclass (or named tuple) with at least these fields (or properties)."""

    def check() -> None:
        cls = _get(where)
        have = set(getattr(cls, "__dataclass_fields__", {}) or getattr(cls, "_fields", ()))
        missing = [n for n in names.split() if n not in have and not hasattr(cls, n)]
        if missing:
            raise Broken(f"{where} has no field(s) {', '.join(missing)}")

    return check


def _all(*checks: Callable[[], None]) -> Callable[[], None]:
    def check() -> None:
        for one in checks:
            one()

    return check


# -- behaviour checks (in memory) ----------------------------------------------


def _rows() -> list[dict]:
    return [
        {"item_ref": "a", "status": "resolved", "ts": "2026-01-01T00:00:00Z", "session_id": "s1"},
        {"item_ref": "b", "status": "resolved", "ts": "2026-01-02T00:00:00Z", "session_id": "s1"},
        {"item_ref": "a", "status": "active", "ts": "2026-01-03T00:00:00Z", "session_id": "s2"},
        {"item_ref": "a", "status": "resolved", "ts": "2026-01-02T12:00:00Z", "session_id": "s3"},
        {"item_ref": "c", "status": "superseded-by:x", "ts": None, "session_id": "s3"},
        {"item_ref": "b", "status": "resolved", "ts": "2026-01-04T00:00:00Z", "session_id": "s4"},
    ]


def _fold_of_appended() -> None:
    """The kept fold's premise: folding each ref's winner plus the appended
    rows gives what folding every row gives."""
    fold = _get("daimon_briefing.store:_fold")
    rows = _rows()
    for cut in range(len(rows) + 1):
        head, tail = rows[:cut], rows[cut:]
        winners = list(fold(head, keys=True).values())
        if fold(winners + tail, keys=True) != fold(rows, keys=True):
            raise Broken(f"store._fold of the first {cut} rows' winners plus the rest differs from the full fold")


def _fold_of_latest_stamps() -> None:
    """The kept fold's shortcut (`kept_fold.latest_per_ref`): `_fold` reads
    `ts` as a UTC stamp of exactly `YYYY-MM-DDTHH:MM:SSZ` (later wins, a row it
    cannot read never displaces one it can), so only each ref's rows at its
    latest such stamp, and rows stamped another way, can win."""
    fold = _get("daimon_briefing.store:_fold")
    epoch = _get("daimon_briefing.store:_created_epoch")
    if epoch("2026-01-02T00:00:00Z") != 1767312000.0 or epoch("2026-13-01T00:00:00Z") is not None:
        raise Broken("store._created_epoch no longer reads YYYY-MM-DDTHH:MM:SSZ as a UTC stamp")
    rows = [*_rows(), {"item_ref": "a", "status": "reopened", "ts": "2026-01-03T00:00:00Z", "session_id": "s5"},
            {"item_ref": "b", "status": "x", "ts": 7, "session_id": "s6"}]
    latest = {"a": "2026-01-03T00:00:00Z", "b": "2026-01-04T00:00:00Z"}
    reduced = [r for r in rows if r["item_ref"] not in latest or r["ts"] == latest[r["item_ref"]]]
    if fold(reduced, keys=True) != fold(rows, keys=True):
        raise Broken("store._fold picks a row other than one at its ref's latest stamp")


def _demotes_rule() -> None:
    demotes = _get("daimon_briefing.store:_demotes")
    row = {"item_ref": "a", "status": "resolved", "ts": "2026-01-01T00:00:00Z"}
    if not isinstance(demotes(row, "resolved"), bool):
        raise Broken("store._demotes does not answer a bool")


def _bucket_is_public() -> None:
    """Our public composition of the bucket directory is daimon's own (asked
    of a slug: a path would be resolved to its git top-level first)."""
    from daimon_briefing import config, store

    slug = "-daimon-tui-contract-probe"
    slugged = store.project_slug(config.resolve_project_dir(slug))
    ours = config.checkpoint_dir() / slugged if slugged else None
    if _get("daimon_briefing.view:_bucket")(slug) != ours:
        raise Broken("view._bucket(p) is no longer checkpoint_dir() / project_slug(resolve_project_dir(p))")


def _marks() -> None:
    for name in ("_VERBATIM_MARK", "_INFERRED_MARK", "_UNTAGGED_MARK", "_DEGRADED_MARK"):
        _get(f"daimon_briefing.briefing:{name}")
    mark = _get("daimon_briefing.briefing:_mark")
    for trust, name in (("verbatim", "_VERBATIM_MARK"), ("inferred", "_INFERRED_MARK"), (None, "_UNTAGGED_MARK")):
        if mark({"trust": trust}) != _get(f"daimon_briefing.briefing:{name}"):
            raise Broken(f"briefing._mark of a {trust or 'untagged'} item is not briefing.{name}")
    if mark({"trust": "verbatim"}, True) != _get("daimon_briefing.briefing:_DEGRADED_MARK"):
        raise Broken("briefing._mark of a degraded verbatim item is not briefing._DEGRADED_MARK")


def _line_order() -> None:
    """A rendered item line: the mark, the text, then the corroboration badge."""
    line = _get("daimon_briefing.briefing:_line")
    got = line({"text": "the build uses uv", "trust": "verbatim", "quote": "uses uv", "_corroborated": 3})
    verbatim = _get("daimon_briefing.briefing:_VERBATIM_MARK")
    at = [got.find(part) for part in (verbatim, "the build uses uv", "×3")]
    if -1 in at or at != sorted(at):
        raise Broken(f"briefing._line renders {got!r}: not mark, text, corroboration in that order")


# Items whose lines exercise every part of `briefing._line`.
_SAMPLE_ITEMS: tuple[dict, ...] = (
    {"id": "d-aaaaaa", "text": "the build uses uv", "trust": "verbatim", "quote": "uses uv", "_corroborated": 3},
    {"id": "o-bbbbbb", "text": "retry uploads?", "trust": "inferred", "because": "429s", "carried_from": "s1",
     "_worldcheck_confirmed": True},
    {"text": "an old belief", "trust": None, "_stale_carried_days": 40, "foreign_verbatim_claim": True},
    {"id": "o-cccccc", "text": "tag 0.9", "trust": "verbatim", "quote": "tag", "_supersede_candidate": "o-dddddd",
     "_worldcheck": {"note": "branch gone", "status": "contradicted"}},
    {"id": "b-eeeeee", "text": "x" * 500, "trust": "surmise", "_stale_carried_days": 3.5},
    # hostile: a header inside the text, trust classes of the wrong type
    {"text": "a\nDecisions made:\nOpen loops:\n- [✓ verbatim] b", "trust": ["verbatim"], "quote": 7},
    {"text": None, "trust": 1, "because": {"x": 1}},
)


def _public_line() -> None:
    """Our public render of one item (`rendering.rendered_line`, `rendered_mark`, `field_of`)
    gives the bytes `briefing._line`, `_mark` and `_section_field` give."""
    from daimon_tui.store.daimon_api import rendering

    line, mark = _get("daimon_briefing.briefing:_line"), _get("daimon_briefing.briefing:_mark")
    field = _get("daimon_briefing.briefing:_section_field")
    for item in _SAMPLE_ITEMS:
        for degraded in (False, True):
            if rendering.rendered_mark(item, degraded) != mark(item, degraded):
                raise Broken(f"the public render's mark of {item.get('trust')!r} is not briefing._mark's")
            for briefable in (False, True):
                if rendering.rendered_line(dict(item), degraded, briefable) != line(dict(item), degraded, briefable):
                    raise Broken(f"briefing.render_selection of one item is not briefing._line "
                                 f"(degraded={degraded}, briefable={briefable})")
    from daimon_briefing import briefing

    for section in briefing.SECTION_ORDER:
        if rendering.field_of(section) != field(section):
            raise Broken(f"schema.ITEM_FIELDS[SECTION_FIELD[{section!r}]] is not briefing._section_field's")


def _public_demotes() -> None:
    """Our public demotion rule (`store.is_resolved` or a supersede guess) is `store._demotes`."""
    from daimon_tui.store.daimon_api import reading

    demotes = _get("daimon_briefing.store:_demotes")
    for status in ("resolved", "superseded-by:x", "supersede-candidate:x", "reopened", "corroborated",
                   "resolving-candidate", "forgotten:k", "active", "", "Something free-form"):
        row = {"item_ref": "a", "status": status, "ts": "2026-01-01T00:00:00Z"}
        if reading.demotion_rule(row, status.lower()) != bool(demotes(row, status.lower())):
            raise Broken(f"store._demotes of a {status!r} row differs from is_resolved-or-supersede-candidate")


def _public_clone_of() -> None:
    """Our public clone name (the first segment under `config.team_dir()`) is `store._remote_of`'s."""
    from daimon_briefing import config

    from daimon_tui.store.daimon_api import team

    remote_of = _get("daimon_briefing.store:_remote_of")
    base = config.team_dir()
    for path in (base / "acme" / "authors" / "ana" / "q.jsonl", base / "acme", base, base.parent / "elsewhere",
                 Path("relative/path")):
        if team.clone_of(path) != remote_of(path):
            raise Broken(f"store._remote_of({path}) is not the first segment under config.team_dir()")


def _gh_states() -> None:
    states = _get("daimon_briefing.worldcheck:_KNOWN_STATES")
    if not states or not all(isinstance(s, str) for s in states):
        raise Broken(f"worldcheck._KNOWN_STATES is {states!r}, not the state words `gh` may answer")


def _section_field() -> None:
    field = _get("daimon_briefing.briefing:_section_field")("decisions")
    for name in ("section", "key", "briefable"):
        if not hasattr(field, name):
            raise Broken(f"briefing._section_field(...) has no {name}")


def _trust_rules() -> None:
    from daimon_briefing import trust

    text, evidence = _get("daimon_briefing.trust:_text"), _get("daimon_briefing.trust:_evidence")
    try:
        text("reason", "")
    except trust.TrustError:
        pass
    else:
        raise Broken("trust._text accepts an empty required reason")
    if text("reason", "stale") != "stale" or not isinstance(evidence(["issue:42"]), list):
        raise Broken("trust._text / trust._evidence no longer return the checked values")


def _pointer_names() -> None:
    pattern = _get("daimon_briefing.store:_POINTER_RE")
    if not (pattern.match("latest.json") and pattern.match("prev-3.json") and not pattern.match("s-1.json")):
        raise Broken("store._POINTER_RE no longer matches exactly latest.json and prev-N.json")


def _cache_dict() -> None:
    cache = _get("daimon_briefing.teamproject:_cache")
    if not callable(getattr(cache, "clear", None)):
        raise Broken("teamproject._cache has no clear()")


def _file_values() -> None:
    if not isinstance(_get("daimon_briefing.config:_file_values")(), dict):
        raise Broken("config._file_values() is not a dict")


def _truncation_marker() -> None:
    marker = _get("daimon_briefing.briefing:_TRUNCATION_MARKER")
    if not isinstance(marker, str) or "truncated" not in marker:
        raise Broken(f"briefing._TRUNCATION_MARKER is {marker!r}")


def _receipt_names() -> None:
    for name in ("_PUB_FILE", "_SIDECAR_SUFFIX", "_BINDING"):
        if not isinstance(_get(f"daimon_briefing.receipts:{name}"), str):
            raise Broken(f"receipts.{name} is not a string")
    if not re.fullmatch(r"\.\w+", _get("daimon_briefing.receipts:_SIDECAR_SUFFIX")):
        raise Broken("receipts._SIDECAR_SUFFIX is not a file suffix")


def _drop_order_constants() -> None:
    """Our copy of the drop order's constants and sections is daimon's."""
    from daimon_tui.store.daimon_api import allocating

    for name, ours in (("_TIE_SECTION_RANK", allocating.TIE_SECTION_RANK), ("_BACKGROUND", allocating.BACKGROUND),
                       ("_TEAMMATE_FLOOR", allocating.TEAMMATE_FLOOR),
                       ("_ITEM_TRUNCATE_CHARS", allocating.ITEM_TRUNCATE_CHARS),
                       ("_PANEL_POINTERS", allocating.PANEL_POINTERS)):
        _value(f"daimon_briefing.briefing:{name}", ours)()
    if allocating.item_sections() != _get("daimon_briefing.briefing:_ITEM_SECTIONS"):
        raise Broken("briefing._ITEM_SECTIONS is not SECTION_ORDER's non-singleton fields")
    weights = _get("daimon_briefing.briefing:_WEIGHT_TYPE")
    if {s: allocating.weight_type(s) for s in allocating.item_sections()} != weights:
        raise Broken("briefing._WEIGHT_TYPE is not each section field's scoring type (else its kind)")


def _rank_fractions() -> None:
    """Our bisection's rank percentiles are daimon's pairwise ones."""
    from daimon_tui.store.read.brief_allocation import rank_fractions

    items = [{"importance": n % 4 + 1, "trust": "inferred" if n % 3 else "verbatim"} for n in range(9)]
    scored = _get("daimon_briefing.briefing:_rank_pcts")(items, "beliefs", 0.0)
    from daimon_briefing import scoring

    ours = rank_fractions([scoring.effective_weight(i, "strong_belief", 0.0) for i in items])
    if ours != scored:
        raise Broken(f"briefing._rank_pcts gives {scored}, our bisection {ours}")


def _shared_lines() -> None:
    """A selection's rendered lines come from its `_lines` cache, and a
    shortened copy's `_quote_in_text` hides its quote."""
    from daimon_briefing import briefing

    item = {"text": "x", "trust": "inferred"}
    sel = briefing.Selection({}, {}, {}, order=(), totals={}, cap=0, stale_days=7.0, budget=None, degraded=False,
                             rulings=(), count_line=None, panels=(), overage=0, now=0.0)
    if not isinstance(getattr(sel, "_lines", None), dict):
        raise Broken("briefing.Selection has no _lines cache")
    sel._lines = {id(item): "cached"}
    if _get("daimon_briefing.briefing:_sel_line")(sel, "beliefs", item) != "cached":
        raise Broken("briefing._sel_line does not read the selection's _lines")
    if briefing.item_quote({"quote": "the quote", "_quote_in_text": True}, "other text"):
        raise Broken("briefing.item_quote shows a quote stamped _quote_in_text")


_READ = "daimon_briefing.jsonl:read"
_READ_PARAMS = "path * retries backoff sleep tail_bytes"

CONTRACTS: tuple[Contract, ...] = (
    # -- reading and folding ---------------------------------------------------
    Contract("reading.fold-appended", "reading", "store._fold, store._created_epoch",
             "folding each ref's winner plus the appended rows equals the full fold, and only rows at a ref's "
             "latest stamp can win",
             "the kept fold", _all(_signature("daimon_briefing.store:_fold", "rows * keys"), _fold_of_appended,
                                  _signature("daimon_briefing.store:_created_epoch", "created"),
                                  _fold_of_latest_stamps),
             optional=True),
    Contract("reading.kept-fold-swaps", "reading",
             "jsonl.read, store.fold_corroborations, store.item_events, view.item_events, view.ledger_states, "
             "view.team_notes, jsonl.posture",
             "the functions the kept fold wraps keep their signatures", "the kept fold",
             _all(_signature(_READ, _READ_PARAMS),
                  _signature("daimon_briefing.store:fold_corroborations", "rows"),
                  _signature("daimon_briefing.store:item_events", "item_ref project_dir"),
                  _signature("daimon_briefing.view:item_events", "project item_id * snap"),
                  _signature("daimon_briefing.view:ledger_states", "project names"),
                  _signature("daimon_briefing.view:team_notes", "project"),
                  _signature("daimon_briefing.jsonl:posture", "path name writer * tail_bytes"),
                  _fields("daimon_briefing.jsonl:Read", "health rows detail cannot_scan")),
             optional=True),
    Contract("reading.demotes", "reading", "store._demotes",
             "store._demotes(row, status) is store.is_resolved(row) or a supersede-candidate status",
             "the history's demotion kinds",
             _all(_signature("daimon_briefing.store:_demotes", "evt status"), _demotes_rule, _public_demotes),
             public=True),
    Contract("reading.bucket", "reading", "view._bucket",
             "a bucket is checkpoint_dir() / project_slug(resolve_project_dir(project))",
             "the bucket of a project", _bucket_is_public, public=True),
    Contract("reading.session-files", "reading", "store._session_files, store._POINTER_RE",
             "a bucket's session files and its pointer names (latest.json, prev-N.json)", "the briefing as of a time",
             _all(_signature("daimon_briefing.store:_session_files", "d"), _pointer_names)),
    Contract("reading.team-ledgers", "reading",
             "store._team_ledger_paths, store._TOMBSTONE_NAME, store._QUARANTINE_NAME, config._file_values, "
             "teamproject._cache",
             "the machine's tombstone and quarantine ledgers, daimon's settings file, its team-project cache",
             "the briefing as of a time",
             _all(_signature("daimon_briefing.store:_team_ledger_paths", "names * include_own include_local"),
                  _value("daimon_briefing.store:_TOMBSTONE_NAME", "tombstones.jsonl"),
                  _value("daimon_briefing.store:_QUARANTINE_NAME", "quarantines.jsonl"),
                  _file_values, _cache_dict)),
    # -- judging ---------------------------------------------------------------
    Contract("judging.read-judge", "judging", "view._read_judge",
             "view._read_judge(slug, forgotten) -> (Judge, memoizable)", "the kept fold",
             _signature("daimon_briefing.view:_read_judge", "slug forgotten"), optional=True),
    Contract("judging.trust-index", "judging", "view._trust_index, view._frozen, view.Snapshot",
             "the trust ledger folds to (ids, items, health, detail); a Snapshot holds these fields",
             "the first paint",
             _all(_signature("daimon_briefing.view:_trust_index", "project read"),
                  _signature("daimon_briefing.view:_frozen", "mapping"),
                  _fields("daimon_briefing.view:Snapshot",
                          "rulings quarantined quarantine_ids quarantine_items forgotten_ids health details "
                          "closed unscannable")),
             optional=True),
    Contract("judging.swaps", "judging", "view.snapshot, view.judge, view.machine_sets, store.forgotten_incomplete",
             "the functions the shared snapshot and the provisional reads wrap keep their signatures",
             "the shared snapshot and provisional details",
             _all(_signature("daimon_briefing.view:snapshot", "project"),
                  _signature("daimon_briefing.view:judge", "slug * stamp forgotten incomplete"),
                  _signature("daimon_briefing.view:machine_sets", ""),
                  _signature("daimon_briefing.store:forgotten_incomplete", "")),
             optional=True),
    # -- writing ---------------------------------------------------------------
    Contract("writing.trust-rules", "writing", "trust._text, trust._evidence",
             "daimon's own checks of a quarantine's reason and evidence", "retract",
             _all(_signature("daimon_briefing.trust:_text", "name value * required"),
                  _signature("daimon_briefing.trust:_evidence", "values"), _trust_rules)),
    Contract("writing.demo-clock", "writing", "store.datetime",
             "daimon's store reads the time through its module's `datetime`", "the demo store's dates",
             _store_clock),
    # -- recall ----------------------------------------------------------------
    Contract("recall.generation", "recall", "recall._ensure_fresh, recall._touch_once, store._forgotten_walk",
             "recall's freshness check and the forget walk can be answered again while their sources stand",
             "the search's reuse of recall's checks",
             _all(_signature("daimon_briefing.recall:_ensure_fresh", ""),
                  _signature("daimon_briefing.recall:_touch_once", "path"),
                  _signature("daimon_briefing.store:_forgotten_walk", ""),
                  _signature("daimon_briefing.store:forgotten_stamp", "")),
             optional=True),
    # -- evidence --------------------------------------------------------------
    Contract("evidence.source", "evidence", "inspector._legacy_source, inspector._bytes_axis",
             "how `why` names an old item's transcript and judges the transcript's bytes",
             "the witnesses' words and reading transcripts ahead",
             _all(_signature("daimon_briefing.inspector:_legacy_source", "item"),
                  _signature("daimon_briefing.inspector:_bytes_axis", "receipt resolution messages"))),
    # -- receipts --------------------------------------------------------------
    Contract("receipts.names", "receipts", "receipts._PUB_FILE, receipts._SIDECAR_SUFFIX, receipts._BINDING",
             "where the public key and a receipt live, and the binding a receipt signs",
             "the receipt audit's own signature check",
             _receipt_names),
    # -- team ------------------------------------------------------------------
    Contract("team.sidecar", "team",
             "teamsync._branch, teamsync._unpushed_count, teamsync._pending_count, "
             "store._own_team_dirs, store._team_author_dirs",
             "a team sidecar's branch and counts, a clone's authors, the author's own team directories",
             "the team status",
             _all(_signature("daimon_briefing.teamsync:_branch", "sidecar"),
                  _signature("daimon_briefing.teamsync:_unpushed_count", "sidecar branch"),
                  _signature("daimon_briefing.teamsync:_pending_count", "sidecar"),
                  _signature("daimon_briefing.store:_own_team_dirs", "project_dir * clones_only"),
                  _signature("daimon_briefing.store:_team_author_dirs", "remote"))),
    Contract("team.clone-of", "team", "store._remote_of",
             "the clone a path under the team dir belongs to is its first segment under config.team_dir()",
             "which team clones hold a quarantine",
             _all(_signature("daimon_briefing.store:_remote_of", "path"), _public_clone_of), public=True),
    # -- rendering -------------------------------------------------------------
    Contract("rendering.item-line", "rendering",
             "briefing._mark, briefing._line, briefing._section_field, the four mark constants",
             "an item's mark and line as daimon renders them (mark, text, badges in that order)",
             "the briefing's item lines",
             _all(_marks, _signature("daimon_briefing.briefing:_mark", "item degraded"),
                  _signature("daimon_briefing.briefing:_line", "item degraded briefable full_quotes"),
                  _signature("daimon_briefing.briefing:_section_field", "section"),
                  _line_order, _section_field, _public_line),
             public=True),
    Contract("rendering.panel", "rendering",
             "render._panel_lines, render._format_handoff, render._format_version_note, render._format_drift, "
             "briefing._sel_line, briefing._TRUNCATION_MARKER, cli.brief._withheld_trailer",
             "the pieces of `daimon brief`'s text",
             "which items `daimon brief` prints (the briefed split, the rows as daimon prints them)",
             _all(_signature("daimon_briefing.render:_panel_lines", "project_dir worldcheck_project snap notes"),
                  _signature("daimon_briefing.render:_format_handoff", "handoff"),
                  _signature("daimon_briefing.render:_format_version_note", "checkpoint"),
                  _signature("daimon_briefing.render:_format_drift", "drift"),
                  _signature("daimon_briefing.briefing:_sel_line", "sel section item"),
                  _source_signature("daimon_briefing.cli.brief:_withheld_trailer", "own team"),
                  _truncation_marker)),
    # -- allocating --------------------------------------------------------------
    Contract("allocating.drop-order", "allocating",
             "briefing._is_flagged, _is_carried, _stale_days_of, _item_age_days, _decision_floor, _split_decisions, "
             "_collapse_panel, _rank_pcts, _sel_line, Selection._lines and the drop order's constants",
             "daimon's allocator's terms, constants and rank percentiles are what our allocator orders by",
             "the briefed split's own fast allocator",
             _all(_signature("daimon_briefing.briefing:_is_flagged", "item"),
                  _signature("daimon_briefing.briefing:_is_carried", "item"),
                  _signature("daimon_briefing.briefing:_stale_days_of", "item"),
                  _signature("daimon_briefing.briefing:_item_age_days", "item now"),
                  _signature("daimon_briefing.briefing:_decision_floor", "cap"),
                  _signature("daimon_briefing.briefing:_split_decisions", "decisions cap now"),
                  _signature("daimon_briefing.briefing:_collapse_panel", "lines pointer"),
                  _signature("daimon_briefing.briefing:select",
                             "b budget now * degraded rulings request_lines verdict_lines owed_lines decision_count "
                             "reserved teammate_blocks teammate_header loops_pointer full_quotes notes cards"),
                  _drop_order_constants, _rank_fractions, _shared_lines),
             optional=True),
    # -- brief_verb -------------------------------------------------------------
    Contract("brief_verb.verb", "brief_verb",
             "cli.brief._cmd_brief (its body under `committing`), effects_commit.Pending, worldcheck._run_probes, "
             "worldcheck._remote_state, worldcheck._KNOWN_STATES, store.active_handoff (swapped for one call)",
             "daimon's brief verb runs with an effects collector nobody commits; the world-check's programs "
             "(`git remote -v`, `gh`, the receipt signer) are answered from a table, never started; each probe "
             "carries the parser of its program's output",
             "`brief --as-daimon` (daimon's own bytes and exit code)",
             _all(_source_signature("daimon_briefing.cli.brief:_cmd_brief", "args fx"),
                  _signature("daimon_briefing.effects_commit:Pending", "usage"),
                  _signature("daimon_briefing.effects_commit:Pending.add", "self more"),
                  _signature("daimon_briefing.worldcheck:_run_probes", "probes cwd deadline why"),
                  _signature("daimon_briefing.worldcheck:_remote_state", "project"),
                  _signature("daimon_briefing.store:active_handoff", "project_dir"),
                  _fields("daimon_briefing.worldcheck:Probe", "argv stdin parse"), _gh_states)),
)

# Verbs that need a private daimon call: off in safe mode.
VERBS_NEEDING_PRIVATE = {"retract": "trust._text and trust._evidence (its reason and evidence rules)"}


def by_id(contract_id: str) -> Contract:
    return next(c for c in CONTRACTS if c.id == contract_id)


def check(contract: Contract) -> Outcome:
    try:
        contract.check()
    except Broken as exc:
        return Outcome(contract, str(exc))
    except Exception as exc:  # the assumption broke in a way we did not foresee: still a broken contract
        return Outcome(contract, f"{contract.where}: {type(exc).__name__}: {exc}")
    return Outcome(contract, None)


def check_all() -> tuple[Outcome, ...]:
    return tuple(check(c) for c in CONTRACTS)
