"""The checks of what the adapters assume of daimon: one per contract of
`registry`, by its id.

They feed the contract tests (tests/store/test_daimon_contracts.py), `daimon-tui
doctor` and the choice of safe mode (`mode`). Each check runs in memory against
the installed daimon (no store is read or written) and says which assumption
broke and where. A check reads daimon's own functions (`originals`, never an
adapter's stand-in) and our public compositions (`composed`), never an adapter:
the adapters ask the mode these checks decide.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from daimon_tui.store.daimon_api import composed, diff_steps_check, machine_stamps_check, originals, registry
from daimon_tui.store.daimon_api.registry import Contract


class Broken(Exception):
    """An assumption that does not hold on the installed daimon."""


@dataclass(frozen=True, slots=True)
class Outcome:
    contract: Contract
    problem: str | None

    @property
    def holds(self) -> bool:
        return self.problem is None


def _get(where: str) -> Any:
    module, _, name = where.rpartition(":")
    if where in originals.kept:
        return originals.kept[where]
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
    # `kept_fold_rows.daimon_reads`: a stamp naming a real instant is read as it
    for text in ("0001-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "9999-12-31T00:00:00Z"):
        if epoch(text) != datetime.fromisoformat(text).timestamp():
            raise Broken(f"store._created_epoch reads {text} as another instant than the one it names")
    rows = [*_rows(), {"item_ref": "a", "status": "reopened", "ts": "2026-01-03T00:00:00Z", "session_id": "s5"},
            {"item_ref": "b", "status": "x", "ts": 7, "session_id": "s6"}]
    latest = {"a": "2026-01-03T00:00:00Z", "b": "2026-01-04T00:00:00Z"}
    reduced = [r for r in rows if r["item_ref"] not in latest or r["ts"] == latest[r["item_ref"]]]
    if fold(reduced, keys=True) != fold(rows, keys=True):
        raise Broken("store._fold picks a row other than one at its ref's latest stamp")


def _standing_from_winners() -> None:
    """The kept fold's standing tombstones (`kept_fold_hooks.standing_tombstones`):
    daimon's answer over the fold's winners whose status says `forgotten` is
    its answer over every row, and the forget walk's keys are its keys."""
    fold = _get("daimon_briefing.store:_fold")
    standing = _get("daimon_briefing.store:standing_tombstones")
    key_ref = _get("daimon_briefing.store:new_key_ref")()
    statuses = ("forgotten:k", " Forgotten: j ", "FORGOTTEN:k", "forgotten about it", "reopened:unforget", "resolved")
    if any(_get("daimon_briefing.store:is_tombstone_status")(s) and "forgotten" not in s.lower() for s in statuses):
        raise Broken("store.is_tombstone_status holds for a status that does not say `forgotten`")
    rows = [*_rows(),
            {"item_ref": "a", "status": "forgotten:k", "ts": "2026-01-05T00:00:00Z", "session_id": "s5"},
            {"item_ref": key_ref, "status": "forgotten:k", "ts": "2026-01-05T00:00:00Z", "session_id": "s5"},
            {"item_ref": "b", "status": " Forgotten: j ", "ts": "2026-01-05T00:00:00Z", "session_id": "s5"},
            {"item_ref": "b", "status": "reopened:unforget", "ts": "2026-01-06T00:00:00Z", "session_id": "s6"},
            {"item_ref": "d", "status": "forgotten about it", "ts": "2026-01-05T00:00:00Z", "session_id": "s5"},
            {"item_ref": "e", "status": "forgotten:m", "ts": None, "session_id": "s5"}]
    whole = standing(rows)
    if set(whole) != {"k", "m"}:
        raise Broken(f"store.standing_tombstones of the probe rows is {sorted(whole)}, not ['k', 'm']")
    winners = [row for row in fold(rows, keys=True).values() if "forgotten" in str(row.get("status") or "").lower()]
    if standing(winners) != whole:
        raise Broken("store.standing_tombstones reads more than the winners that may be tombstones")
    if _get("daimon_briefing.store:_tombstoned_keys")(rows) != set(whole):
        raise Broken("store._tombstoned_keys is no longer the keys of store.standing_tombstones")


def _tombstone_refs_from_maybe() -> None:
    """The kept fold's forgotten ids (`kept_fold_hooks.tombstone_refs`):
    daimon's answer over the refs whose latest event says `forgotten` is its
    answer over the whole item fold."""
    tombstone_refs = _get("daimon_briefing.store:tombstone_refs")
    statuses = ("forgotten:k", " Forgotten: j ", "FORGOTTEN:k", "forgotten about it", "reopened:unforget", "resolved",
                "supersede-candidate:i-1", "resolving-candidate")
    if any(_get("daimon_briefing.store:is_tombstone_status")(s) and "forgotten" not in s.lower() for s in statuses):
        raise Broken("store.is_tombstone_status holds for a status that does not say `forgotten`")
    resolutions = {f"r{n}": {"item_ref": f"r{n}", "status": status, "ts": "2026-01-05T00:00:00Z", "session_id": "s5"}
                   for n, status in enumerate(statuses)}
    resolutions["u"] = {"item_ref": "u", "status": "forgotten:m", "ts": None, "session_id": "s5"}
    whole = tombstone_refs(resolutions)
    if whole != frozenset({"r0", "r1", "r2", "u"}):
        raise Broken(f"store.tombstone_refs of the probe is {sorted(whole)}, not ['r0', 'r1', 'r2', 'u']")
    maybe = {ref: evt for ref, evt in resolutions.items() if "forgotten" in str(evt.get("status") or "").lower()}
    if tombstone_refs(maybe) != whole:
        raise Broken("store.tombstone_refs reads more than the refs that may be tombstones")


def _machine_stamps() -> None:
    found = machine_stamps_check.problem(_get)
    if found is not None:
        raise Broken(found)


def _resolved_refs_cached() -> None:
    """The kept fold's resolved refs (`kept_fold_hooks.resolved_refs`): a
    snapshot's `resolved_refs` is made once, over its item fold, by
    `store.is_resolved`, and kept where the kept fold hands it."""
    snapshot = _get("daimon_briefing.view:Snapshot")
    prop = vars(snapshot).get("resolved_refs")
    if not isinstance(prop, functools.cached_property) or prop.attrname != "resolved_refs":
        raise Broken("view.Snapshot.resolved_refs is no longer a cached property")
    is_resolved = _get("daimon_briefing.store:is_resolved")
    statuses = ("resolved", "Resolved", "reopened", "superseded-by:i-2", "supersede-candidate:i-2",
                "resolving-candidate", "forgotten:k", "done", "")
    resolutions = {f"r{n}": {"item_ref": f"r{n}", "status": status, "ts": "2026-01-05T00:00:00Z"}
                   for n, status in enumerate(statuses)}
    probe = snapshot.empty()
    made = prop.func(types.SimpleNamespace(resolutions=types.MappingProxyType(resolutions)))
    if made != frozenset(ref for ref, evt in resolutions.items() if is_resolved(evt)):
        raise Broken("view.Snapshot.resolved_refs is no longer the refs whose latest event store.is_resolved")
    vars(probe)["resolved_refs"] = frozenset({"kept"})
    if probe.resolved_refs != {"kept"}:
        raise Broken("view.Snapshot.resolved_refs is not read back from where it is kept")


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
    """Our public render of one item (`composed.rendered_line`, `rendered_mark`, `field_of`)
    gives the bytes `briefing._line`, `_mark` and `_section_field` give."""
    line, mark = _get("daimon_briefing.briefing:_line"), _get("daimon_briefing.briefing:_mark")
    field = _get("daimon_briefing.briefing:_section_field")
    for item in _SAMPLE_ITEMS:
        for degraded in (False, True):
            if composed.rendered_mark(item, degraded) != mark(item, degraded):
                raise Broken(f"the public render's mark of {item.get('trust')!r} is not briefing._mark's")
            for briefable in (False, True):
                if composed.rendered_line(dict(item), degraded, briefable) != line(dict(item), degraded, briefable):
                    raise Broken(f"briefing.render_selection of one item is not briefing._line "
                                 f"(degraded={degraded}, briefable={briefable})")
    from daimon_briefing import briefing

    for section in briefing.SECTION_ORDER:
        if composed.field_of(section) != field(section):
            raise Broken(f"schema.ITEM_FIELDS[SECTION_FIELD[{section!r}]] is not briefing._section_field's")


def _public_demotes() -> None:
    """Our public demotion rule (`store.is_resolved` or a supersede guess) is `store._demotes`."""
    demotes = _get("daimon_briefing.store:_demotes")
    for status in ("resolved", "superseded-by:x", "supersede-candidate:x", "reopened", "corroborated",
                   "resolving-candidate", "forgotten:k", "active", "", "Something free-form"):
        row = {"item_ref": "a", "status": status, "ts": "2026-01-01T00:00:00Z"}
        if composed.demotion_rule(row, status.lower()) != bool(demotes(row, status.lower())):
            raise Broken(f"store._demotes of a {status!r} row differs from is_resolved-or-supersede-candidate")
        others = ({"item_ref": "corroboration:b", "status": status}, {"status": status, "ts": None, "source": "agent",
                                                                      "note": "resolved", "session_id": "s1"})
        is_resolved = _get("daimon_briefing.store:is_resolved")
        if any(is_resolved(other) != is_resolved(row) for other in others):  # `kept_fold_rows.witness_key`
            raise Broken(f"store.is_resolved of a {status!r} row reads more of it than its status")


def _public_clone_of() -> None:
    """Our public clone name (the first segment under `config.team_dir()`) is `store._remote_of`'s."""
    from daimon_briefing import config

    remote_of = _get("daimon_briefing.store:_remote_of")
    base = config.team_dir()
    for path in (base / "acme" / "authors" / "ana" / "q.jsonl", base / "acme", base, base.parent / "elsewhere",
                 Path("relative/path")):
        if composed.clone_of(path) != remote_of(path):
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
    for name, ours in (("_TIE_SECTION_RANK", composed.TIE_SECTION_RANK), ("_BACKGROUND", composed.BACKGROUND),
                       ("_TEAMMATE_FLOOR", composed.TEAMMATE_FLOOR),
                       ("_ITEM_TRUNCATE_CHARS", composed.ITEM_TRUNCATE_CHARS),
                       ("_PANEL_POINTERS", composed.PANEL_POINTERS)):
        _value(f"daimon_briefing.briefing:{name}", ours)()
    if composed.item_sections() != _get("daimon_briefing.briefing:_ITEM_SECTIONS"):
        raise Broken("briefing._ITEM_SECTIONS is not SECTION_ORDER's non-singleton fields")
    weights = _get("daimon_briefing.briefing:_WEIGHT_TYPE")
    if {s: composed.weight_type(s) for s in composed.item_sections()} != weights:
        raise Broken("briefing._WEIGHT_TYPE is not each section field's scoring type (else its kind)")


def _rank_fractions() -> None:
    """Our bisection's rank percentiles are daimon's pairwise ones."""
    items = [{"importance": n % 4 + 1, "trust": "inferred" if n % 3 else "verbatim"} for n in range(9)]
    scored = _get("daimon_briefing.briefing:_rank_pcts")(items, "beliefs", 0.0)
    from daimon_briefing import scoring

    ours = composed.rank_fractions([scoring.effective_weight(i, "strong_belief", 0.0) for i in items])
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


def _diff_steps() -> None:
    found = diff_steps_check.problem()
    if found is not None:
        raise Broken(found)


_READ = "daimon_briefing.jsonl:read"
_READ_PARAMS = "path * retries backoff sleep tail_bytes"

# Contract id -> the check of its assumption (`registry.CONTRACTS` names each).
CHECKS: dict[str, Callable[[], None]] = {
    # -- reading and folding ---------------------------------------------------
    "reading.fold-appended": _all(_signature("daimon_briefing.store:_fold", "rows * keys"), _fold_of_appended,
                                 _signature("daimon_briefing.store:_created_epoch", "created"),
                                 _fold_of_latest_stamps),
    "reading.kept-fold-swaps": _all(_signature(_READ, _READ_PARAMS),
                                    _signature("daimon_briefing.store:fold_corroborations", "rows"),
                                    _signature("daimon_briefing.store:item_events", "item_ref project_dir"),
                                    _signature("daimon_briefing.view:item_events", "project item_id * snap"),
                                    _signature("daimon_briefing.view:ledger_states", "project names"),
                                    _signature("daimon_briefing.view:team_notes", "project"),
                                    _signature("daimon_briefing.jsonl:posture", "path name writer * tail_bytes"),
                                    _fields("daimon_briefing.jsonl:Read", "health rows detail cannot_scan")),
    "reading.standing-tombstones": _all(_signature("daimon_briefing.store:standing_tombstones", "rows"),
                                        _signature("daimon_briefing.store:_tombstoned_keys", "rows"),
                                        _standing_from_winners),
    "reading.tombstone-refs": _all(_signature("daimon_briefing.store:tombstone_refs", "resolutions"),
                                   _tombstone_refs_from_maybe),
    "reading.resolved-refs": _resolved_refs_cached,
    "reading.machine-stamps": _all(_signature("daimon_briefing.briefing:_machine_stamps", "checkpoint snap"),
                                   _machine_stamps),
    "reading.demotes": _all(_signature("daimon_briefing.store:_demotes", "evt status"), _demotes_rule, _public_demotes),
    "reading.bucket": _bucket_is_public,
    "reading.session-files": _all(_signature("daimon_briefing.store:_session_files", "d"), _pointer_names),
    "reading.team-ledgers": _all(_signature("daimon_briefing.store:_team_ledger_paths",
                                            "names * include_own include_local"),
                                 _value("daimon_briefing.store:_TOMBSTONE_NAME", "tombstones.jsonl"),
                                 _value("daimon_briefing.store:_QUARANTINE_NAME", "quarantines.jsonl"),
                                 _file_values, _cache_dict),
    # -- judging ---------------------------------------------------------------
    "judging.read-judge": _signature("daimon_briefing.view:_read_judge", "slug forgotten"),
    "judging.trust-index": _all(_signature("daimon_briefing.view:_trust_index", "project read"),
                                _signature("daimon_briefing.view:_frozen", "mapping"),
                                _fields("daimon_briefing.view:Snapshot",
                                        "rulings quarantined quarantine_ids quarantine_items forgotten_ids health "
                                        "details closed unscannable")),
    "judging.swaps": _all(_signature("daimon_briefing.view:snapshot", "project"),
                          _signature("daimon_briefing.view:judge", "slug * stamp forgotten incomplete"),
                          _signature("daimon_briefing.view:machine_sets", ""),
                          _signature("daimon_briefing.store:forgotten_incomplete", "")),
    # -- writing ---------------------------------------------------------------
    "writing.trust-rules": _all(_signature("daimon_briefing.trust:_text", "name value * required"),
                                _signature("daimon_briefing.trust:_evidence", "values"), _trust_rules),
    "writing.demo-clock": _store_clock,
    # -- recall ----------------------------------------------------------------
    "recall.generation": _all(_signature("daimon_briefing.recall:_ensure_fresh", ""),
                              _signature("daimon_briefing.recall:_touch_once", "path"),
                              _signature("daimon_briefing.store:_forgotten_walk", ""),
                              _signature("daimon_briefing.store:forgotten_stamp", "")),
    # -- evidence --------------------------------------------------------------
    "evidence.source": _all(_signature("daimon_briefing.inspector:_legacy_source", "item"),
                            _signature("daimon_briefing.inspector:_bytes_axis", "receipt resolution messages")),
    # -- receipts --------------------------------------------------------------
    "receipts.names": _receipt_names,
    # -- team ------------------------------------------------------------------
    "team.sidecar": _all(_signature("daimon_briefing.teamsync:_branch", "sidecar"),
                         _signature("daimon_briefing.teamsync:_unpushed_count", "sidecar branch"),
                         _signature("daimon_briefing.teamsync:_pending_count", "sidecar"),
                         _signature("daimon_briefing.store:_own_team_dirs", "project_dir * clones_only"),
                         _signature("daimon_briefing.store:_team_author_dirs", "remote")),
    "team.clone-of": _all(_signature("daimon_briefing.store:_remote_of", "path"), _public_clone_of),
    # -- rendering -------------------------------------------------------------
    "rendering.item-line": _all(_marks, _signature("daimon_briefing.briefing:_mark", "item degraded"),
                                _signature("daimon_briefing.briefing:_line", "item degraded briefable full_quotes"),
                                _signature("daimon_briefing.briefing:_section_field", "section"),
                                _line_order, _section_field, _public_line),
    "rendering.panel": _all(_signature("daimon_briefing.render:_panel_lines",
                                       "project_dir worldcheck_project snap notes"),
                            _signature("daimon_briefing.render:_format_handoff", "handoff"),
                            _signature("daimon_briefing.render:_format_version_note", "checkpoint"),
                            _signature("daimon_briefing.render:_format_drift", "drift"),
                            _signature("daimon_briefing.briefing:_sel_line", "sel section item"),
                            _source_signature("daimon_briefing.cli.brief:_withheld_trailer", "own team"),
                            _truncation_marker),
    # -- allocating --------------------------------------------------------------
    "allocating.drop-order": _all(_signature("daimon_briefing.briefing:_is_flagged", "item"),
                                  _signature("daimon_briefing.briefing:_is_carried", "item"),
                                  _signature("daimon_briefing.briefing:_stale_days_of", "item"),
                                  _signature("daimon_briefing.briefing:_item_age_days", "item now"),
                                  _signature("daimon_briefing.briefing:_decision_floor", "cap"),
                                  _signature("daimon_briefing.briefing:_split_decisions", "decisions cap now"),
                                  _signature("daimon_briefing.briefing:_collapse_panel", "lines pointer"),
                                  _signature("daimon_briefing.briefing:select",
                                             "b budget now * degraded rulings request_lines verdict_lines owed_lines "
                                             "decision_count reserved teammate_blocks teammate_header loops_pointer "
                                             "full_quotes notes cards"),
                                  _drop_order_constants, _rank_fractions, _shared_lines),
    # -- brief_verb -------------------------------------------------------------
    "brief_verb.verb": _all(_source_signature("daimon_briefing.cli.brief:_cmd_brief", "args fx"),
                            _signature("daimon_briefing.effects_commit:Pending", "usage"),
                            _signature("daimon_briefing.effects_commit:Pending.add", "self more"),
                            _signature("daimon_briefing.worldcheck:_run_probes", "probes cwd deadline why"),
                            _signature("daimon_briefing.worldcheck:_remote_state", "project"),
                            _signature("daimon_briefing.store:active_handoff", "project_dir"),
                            _fields("daimon_briefing.worldcheck:Probe", "argv stdin parse"), _gh_states),
    # -- diff_verb ----------------------------------------------------------------
    "diff_verb.steps": _diff_steps,
}


def check(contract: Contract) -> Outcome:
    try:
        CHECKS[contract.id]()
    except Broken as exc:
        return Outcome(contract, str(exc))
    except Exception as exc:  # the assumption broke in a way we did not foresee: still a broken contract
        return Outcome(contract, f"{contract.where}: {type(exc).__name__}: {exc}")
    return Outcome(contract, None)


def check_all() -> tuple[Outcome, ...]:
    return tuple(check(c) for c in registry.CONTRACTS)
