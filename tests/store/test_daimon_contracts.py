"""daimon's contract, as the adapters (`daimon_tui/store/daimon_api/`) assume it.

Each contract runs against the installed daimon and, when it breaks, says
which assumption broke and where. The same list feeds `daimon-tui doctor` and
the choice of safe mode. Safe mode is run here too: one contract made to fail,
the briefing read again in a fresh process, equal to daimon's and to the full
mode's read, with nothing of daimon's swapped.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from daimon_briefing import briefing, store, view

import daimon_tui
from daimon_tui.domain import verbs
from daimon_tui.store.child import judge_service
from daimon_tui.store.daimon_api import contracts, mode, originals, registry
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from daimon_tui.store.write import plans

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(daimon_tui.__file__).parent
ADAPTERS = PACKAGE / "store" / "daimon_api"
NOW = demo.DEMO_NOW.timestamp()


@pytest.fixture
def fresh_mode() -> Iterator[None]:
    """The mode decided again for this test, and again after it."""
    mode.set_current(None)
    yield
    mode.set_current(None)


# -- every contract holds on the pinned daimon ---------------------------------------


@pytest.mark.parametrize("contract", registry.CONTRACTS, ids=lambda c: c.id)
def test_the_contract_holds_on_the_installed_daimon(contract: registry.Contract) -> None:
    outcome = contracts.check(contract)
    assert outcome.holds, f"{contract.id} broke at daimon_briefing {contract.where}: {outcome.problem}"


def test_the_tested_daimon_is_the_one_the_test_extra_pins_and_the_one_installed() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = [d for d in project["optional-dependencies"]["test"] if d.startswith("daimon-briefing==")]
    assert pinned == [f"daimon-briefing=={metadata.version('daimon-briefing')}"]
    assert mode.is_tested(pinned[0].split("==")[1])
    # newer daimon releases install beside the reviewer (safe mode), never refused by pip
    assert "daimon-briefing>=0.61" in project["dependencies"]


def test_contract_ids_are_unique_and_name_an_adapter() -> None:
    ids = [c.id for c in registry.CONTRACTS]
    assert len(ids) == len(set(ids))
    for contract in registry.CONTRACTS:
        assert (ADAPTERS / f"{contract.concern}.py").is_file(), contract.id
        assert contract.id.startswith(contract.concern + ".")


def test_the_registry_and_the_checks_name_the_same_contracts() -> None:
    assert set(contracts.CHECKS) == {c.id for c in registry.CONTRACTS}


# -- a broken assumption is named, with where it broke -----------------------------------


def break_daimon(monkeypatch: pytest.MonkeyPatch, module: object, name: str, value: object) -> None:
    """daimon's `module.name` becomes `value` for this test, also where an
    adapter's swap keeps daimon's own (the contracts read that one)."""
    monkeypatch.setattr(module, name, value)
    monkeypatch.setitem(originals.kept, f"{module.__name__}:{name}", value)


def test_a_changed_signature_names_the_function_and_both_signatures(monkeypatch: pytest.MonkeyPatch) -> None:
    real = originals.kept.get("daimon_briefing.store:_fold", store._fold)
    break_daimon(monkeypatch, store, "_fold", lambda rows, keys, extra=None: real(rows, keys=keys))
    outcome = contracts.check(registry.by_id("reading.fold-appended"))
    assert not outcome.holds
    assert "store:_fold takes (rows, keys, extra), we call it with (rows, *, keys)" in outcome.problem


def test_a_fold_that_is_not_per_ref_latest_breaks_the_kept_folds_premise(monkeypatch: pytest.MonkeyPatch) -> None:
    def counting(rows, *, keys):  # not a per-ref maximum: it counts rows, which the winners alone cannot
        out: dict = {}
        for row in rows:
            ref = row["item_ref"]
            out[ref] = {**row, "rows": out.get(ref, {}).get("rows", 0) + 1}
        return out

    break_daimon(monkeypatch, store, "_fold", counting)
    outcome = contracts.check(registry.by_id("reading.fold-appended"))
    assert outcome.problem and "winners plus the rest differs from the full fold" in outcome.problem


def test_a_stamp_read_as_another_instant_breaks_the_folds_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fold's shortcut takes a stamp of daimon's shape that names a real
    instant as read (`kept_fold_rows.daimon_reads`): a daimon that reads
    such a stamp otherwise (here: no year before 1970) breaks the contract."""
    real = originals.kept.get("daimon_briefing.store:_created_epoch", store._created_epoch)
    break_daimon(monkeypatch, store, "_created_epoch",
                 lambda created: None if str(created) < "1970" else real(created))
    outcome = contracts.check(registry.by_id("reading.fold-appended"))
    assert outcome.problem == "store._created_epoch reads 0001-01-01T00:00:00Z as another instant than the one it names"


def test_standing_tombstones_that_read_more_than_the_tombstone_winners_break_their_contract(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept fold answers the forget walk's `standing_tombstones` over the
    winners that may be tombstones: a daimon whose answer reads other rows
    (here: any tombstone ever written, even one a later reopen lifted, or a
    ref's rows counted) is not the one it answers for."""
    real = originals.kept.get("daimon_briefing.store:standing_tombstones", store.standing_tombstones)

    def ever_written(rows):
        return {store.tombstone_key(r.get("status")): store.Standing((r["item_ref"],), ()) for r in rows
                if store.is_tombstone_status(r.get("status"))}

    break_daimon(monkeypatch, store, "standing_tombstones", ever_written)
    outcome = contracts.check(registry.by_id("reading.standing-tombstones"))
    assert outcome.problem and "store.standing_tombstones of the probe rows" in outcome.problem

    def counting(rows):
        rows = list(rows)
        return {**real(rows), **({"rows": len(rows)} if real(rows) else {})}

    break_daimon(monkeypatch, store, "standing_tombstones", counting)
    outcome = contracts.check(registry.by_id("reading.standing-tombstones"))
    assert outcome.problem == "store.standing_tombstones of the probe rows is ['k', 'm', 'rows'], not ['k', 'm']"


def test_a_forget_walk_that_is_no_view_of_standing_tombstones_breaks_their_contract(
        monkeypatch: pytest.MonkeyPatch) -> None:
    break_daimon(monkeypatch, store, "_tombstoned_keys", lambda rows: set())
    outcome = contracts.check(registry.by_id("reading.standing-tombstones"))
    assert outcome.problem == "store._tombstoned_keys is no longer the keys of store.standing_tombstones"


def test_tombstone_refs_that_read_more_than_the_maybe_tombstones_break_their_contract(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept fold answers the snapshot's `tombstone_refs` over the refs whose
    latest event says `forgotten`: a daimon whose answer reads other refs (here:
    one that also counts resolved refs, or the map's size) is not the one it answers for."""
    real = originals.kept.get("daimon_briefing.store:tombstone_refs", store.tombstone_refs)

    def with_resolved(resolutions):
        return real(resolutions) | {ref for ref, evt in resolutions.items() if evt["status"] == "resolved"}

    break_daimon(monkeypatch, store, "tombstone_refs", with_resolved)
    outcome = contracts.check(registry.by_id("reading.tombstone-refs"))
    assert outcome.problem == ("store.tombstone_refs of the probe is ['r0', 'r1', 'r2', 'r5', 'u'], "
                               "not ['r0', 'r1', 'r2', 'u']")

    def sized(resolutions):
        return real(resolutions) | ({f"n{len(resolutions)}"} if len(resolutions) < 9 else set())

    break_daimon(monkeypatch, store, "tombstone_refs", sized)
    outcome = contracts.check(registry.by_id("reading.tombstone-refs"))
    assert outcome.problem == "store.tombstone_refs reads more than the refs that may be tombstones"

    break_daimon(monkeypatch, store, "is_tombstone_status", lambda status: str(status or "").startswith("resolv"))
    outcome = contracts.check(registry.by_id("reading.tombstone-refs"))
    assert outcome.problem == "store.is_tombstone_status holds for a status that does not say `forgotten`"


def test_the_kept_fold_leaves_daimons_tombstone_refs_when_their_contract_is_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from daimon_tui.store.daimon_api import reading

    monkeypatch.setattr(mode, "allows", lambda contract_id: contract_id != "reading.tombstone-refs")
    own = store.tombstone_refs
    stand_in = dict.fromkeys(reading.KeptFoldHooks.__slots__, lambda *a, **k: None)
    before = originals.snapshot()
    try:
        assert reading.install_kept_fold(reading.KeptFoldHooks(**stand_in))  # the rest of the kept fold is on
        assert store.tombstone_refs is own
    finally:
        originals.put_back(before)  # every swap above put back


def test_machine_stamps_that_read_more_than_the_maybe_candidates_break_their_contract(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept fold hands the briefing's `_machine_stamps` the refs whose
    status says `candidate`, and a snapshot of three names: a daimon whose
    answer reads other refs (here: the item fold's size), another name of the
    snapshot, or stamps nothing of the probe is not the one it answers for."""
    real = originals.kept.get("daimon_briefing.briefing:_machine_stamps", briefing._machine_stamps)

    def sized(checkpoint, snap):
        out, candidates = real(checkpoint, snap)
        return out, candidates + ([] if len(snap.resolutions) > 5 else [("k", {"id": "n"}, None)])

    break_daimon(monkeypatch, briefing, "_machine_stamps", sized)
    outcome = contracts.check(registry.by_id("reading.machine-stamps"))
    assert outcome.problem == "briefing._machine_stamps reads more than the refs that may be candidates"

    def with_corroborations(checkpoint, snap):
        snap.corroborations  # noqa: B018 (a name the kept fold does not hand it)
        return real(checkpoint, snap)

    break_daimon(monkeypatch, briefing, "_machine_stamps", with_corroborations)
    outcome = contracts.check(registry.by_id("reading.machine-stamps"))
    assert outcome.problem and outcome.problem.startswith("briefing._machine_stamps reads more of the snapshot")

    break_daimon(monkeypatch, briefing, "_machine_stamps", lambda checkpoint, snap: (checkpoint, []))
    outcome = contracts.check(registry.by_id("reading.machine-stamps"))
    assert outcome.problem == ("briefing._machine_stamps of the probe stamps [], claims [] and amends [], "
                               "not ['r0', 'r1'], ['r2'] and ['r5']")


def test_resolved_refs_made_otherwise_break_their_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept fold hands a snapshot its `resolved_refs` (`kept_fold_hooks.resolved_refs`):
    a daimon whose `Snapshot.resolved_refs` is no longer `store.is_resolved`
    over the item fold, or no longer a cached property, breaks the contract."""

    class Every(view.Snapshot):
        @functools.cached_property
        def resolved_refs(self) -> frozenset:  # not only the resolved: every ref
            return frozenset(self.resolutions)

    class Property(view.Snapshot):
        @property
        def resolved_refs(self) -> frozenset:  # made at each ask: nothing kept to hand
            return frozenset()

    for snapshot, problem in ((Every, "view.Snapshot.resolved_refs is no longer the refs whose latest event "
                                      "store.is_resolved"),
                              (Property, "view.Snapshot.resolved_refs is no longer a cached property")):
        break_daimon(monkeypatch, view, "Snapshot", snapshot)
        assert contracts.check(registry.by_id("reading.resolved-refs")).problem == problem


def test_the_kept_fold_hands_no_resolved_refs_when_their_contract_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import MappingProxyType

    from daimon_tui.store.daimon_api import reading

    monkeypatch.setattr(mode, "allows", lambda contract_id: contract_id != "reading.resolved-refs")
    snap = view.Snapshot.empty()
    snap = type(snap)(**{**vars(snap), "resolutions": MappingProxyType({"i-1": {"status": "resolved"}})})
    reading.hand_resolved_refs(snap, frozenset())
    assert snap.resolved_refs == frozenset({"i-1"})  # daimon's own


def test_the_kept_fold_leaves_daimons_machine_stamps_when_their_contract_is_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from daimon_tui.store.daimon_api import reading

    monkeypatch.setattr(mode, "allows", lambda contract_id: contract_id != "reading.machine-stamps")
    own = briefing._machine_stamps
    stand_in = dict.fromkeys(reading.KeptFoldHooks.__slots__, lambda *a, **k: None)
    before = originals.snapshot()
    try:
        assert reading.install_kept_fold(reading.KeptFoldHooks(**stand_in))  # the rest of the kept fold is on
        assert briefing._machine_stamps is own
    finally:
        originals.put_back(before)  # every swap above put back


def test_the_kept_fold_leaves_daimons_standing_tombstones_when_their_contract_is_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from daimon_tui.store.daimon_api import reading

    monkeypatch.setattr(mode, "allows", lambda contract_id: contract_id != "reading.standing-tombstones")
    own = store.standing_tombstones
    stand_in = dict.fromkeys(reading.KeptFoldHooks.__slots__, lambda *a, **k: None)
    before = originals.snapshot()
    try:
        assert reading.install_kept_fold(reading.KeptFoldHooks(**stand_in))  # the rest of the kept fold is on
        assert store.standing_tombstones is own
    finally:
        originals.put_back(before)  # every swap above put back


def test_a_changed_line_order_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    real = briefing._line

    def badge_first(item, degraded=False, briefable=False, full_quotes=False):
        line = real(item, degraded, briefable, full_quotes)
        return "[×3] " + line

    break_daimon(monkeypatch, briefing, "_line", badge_first)
    outcome = contracts.check(registry.by_id("rendering.item-line"))
    assert outcome.problem and "not mark, text, corroboration in that order" in outcome.problem


def test_a_missing_name_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(briefing, "_VERBATIM_MARK")
    outcome = contracts.check(registry.by_id("rendering.item-line"))
    assert outcome.problem == "daimon_briefing.briefing has no _VERBATIM_MARK"


@pytest.mark.parametrize(("old", "new", "said"), [
    ("    snap = view.snapshot(project)\n", "    store.stamp(project)\n    snap = view.snapshot(project)\n",
     "cli.history._cmd_diff's steps changed (new: ['store.stamp'], gone: [])"),
    ("def _pick(entries: list[dict], args) -> tuple:", "def _pick(entries: list[dict], args, strict) -> tuple:",
     "cli.history._pick takes (entries args strict), we call it with (entries args)"),
    ('    _cli._note_usage("diff")\n', "", "cli.history._cmd_diff no longer starts with _cli._note_usage('diff')"),
])
def test_a_changed_diff_verb_breaks_its_contract(monkeypatch: pytest.MonkeyPatch, old: str, new: str,
                                                 said: str) -> None:
    """`diff` runs daimon's diff steps without the usage line: a verb that gains a step
    (another write), a step that takes another argument, or a usage line that moved is
    no longer the verb `diff_verb` replays."""
    from daimon_tui.store.daimon_api import diff_steps_check

    source = diff_steps_check._source()
    assert old in source
    monkeypatch.setattr(diff_steps_check, "_source", lambda: source.replace(old, new, 1))
    assert contracts.check(registry.by_id("diff_verb.steps")).problem == said


# -- the mode ----------------------------------------------------------------------------


def test_an_untested_daimon_opens_in_safe_mode_and_says_what_is_off(
        monkeypatch: pytest.MonkeyPatch, fresh_mode: None) -> None:
    monkeypatch.setattr(mode, "installed_version", lambda: "0.70.1")
    current = mode.current()
    assert current.safe and not current.broken
    assert not mode.allows("reading.fold-appended") and not mode.allows("judging.swaps")
    # daimon's public API only: what composes public names stays on, every private name is off
    assert current.allowed == {c.id for c in registry.CONTRACTS if c.public}
    assert mode.allows("rendering.item-line") and not mode.allows("rendering.panel")
    banner = current.banner()
    assert banner and "daimon-briefing 0.70.1" in banner and "public API only" in banner
    off = [line.split(": off (")[0] for line in current.off()]
    assert {"the kept fold", "retract", "the briefing as of a time", "the team status",
            "the receipt audit's own signature check",
            "the witnesses' words and reading transcripts ahead",
            "`brief --as-daimon` (daimon's own bytes and exit code)",
            "`diff` (daimon's own steps, bytes and exit codes)",
            "the demo store's dates"} <= set(off)
    assert all(what in banner for what in off)
    assert "the briefing's item lines" in current.public_equivalents()
    assert plans.verb_off("retract") and "0.70.1" in plans.verb_off("retract")
    assert plans.verb_off("resolve") is None


def test_one_broken_contract_is_safe_mode_too_and_its_reads_are_off(
        monkeypatch: pytest.MonkeyPatch, fresh_mode: None) -> None:
    monkeypatch.delattr(store, "_demotes")
    current = mode.current()
    assert current.tested and current.safe
    assert [o.contract.id for o in current.broken] == ["reading.demotes"]
    assert any(line.startswith("the history's demotion kinds: off (its contract broke: store._demotes)")
               for line in current.off())
    from daimon_tui.store.daimon_api import reading

    with pytest.raises(mode.Unavailable, match="the history's demotion kinds is off in safe mode"):
        reading.demotes({"status": "resolved"}, "resolved")


def test_the_tested_daimon_runs_in_full_mode(fresh_mode: None) -> None:
    current = mode.current()
    assert not current.safe and current.banner() is None and current.off() == ()
    assert plans.verb_off("retract") is None


def test_a_mode_decided_again_after_our_swaps_judges_daimons_own_functions(fresh_mode: None) -> None:
    from daimon_tui.store.child.swaps import install_swaps

    install_swaps()
    mode.set_current(None)
    assert not mode.current().safe, mode.current().why()


def test_a_mode_decided_under_a_frozen_clock_is_full_mode(monkeypatch: pytest.MonkeyPatch, fresh_mode: None) -> None:
    """A test's (or the demo's) clock swapped into daimon's store is still daimon's
    clock: a mode decided then is not safe mode for the rest of the process (a
    snapshot test froze the clock, and every later test in the run opened in safe mode)."""
    from datetime import datetime

    from daimon_briefing import store

    class _FrozenClock(datetime):
        pass

    monkeypatch.setattr(store, "datetime", _FrozenClock)
    assert not mode.current().safe, mode.current().why()


def test_retract_is_refused_in_safe_mode_with_the_reason(monkeypatch: pytest.MonkeyPatch, fresh_mode: None) -> None:
    monkeypatch.setenv(mode.ENV_SAFE, "1")
    guard = verbs.StoreGuard(ledgers={"events.jsonl": "ok", "trust.jsonl": "ok"},
                             verbs_off={"retract": plans.verb_off("retract") or ""})
    facts = verbs.ItemFacts(item_id="o-aaaaaa", kind="question", text="Should uploads retry on HTTP 429?",
                            in_live=True, lifecycle="active")
    plan = verbs.plan_retract("p", [facts], guard, verbs.RetractInput(reason="wrong", evidence=("issue:1",)))
    assert not plan.allowed
    assert plan.refusals[0].code == "safe-mode" and "trust._text" in plan.refusals[0].reason
    assert plans.retract_input_refusal("", ()) is None  # the modal's check stays quiet: the plan refuses


# -- no private daimon name outside the adapters ---------------------------------------------


# The store's door to daimon's public modules: a name imported from it is daimon's module.
PUBLIC_DOORS = ("daimon_tui.store.daimon_api.public", "daimon_tui.store.daimon_api.public_cli")


def private_daimon_names(path: Path) -> list[str]:
    """Leading-underscore attributes of names bound to daimon_briefing modules,
    `from daimon_briefing.x import _y`, and assignments (or setattr, or a mock
    patch) onto a daimon module: run-time swaps."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module.split(".")[0] == "daimon_briefing" or node.module in PUBLIC_DOORS):
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{path.name}:{node.lineno}: from {node.module} import {alias.name}")
                bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names
                         if a.name.split(".")[0] == "daimon_briefing")

    def on_daimon(node: ast.AST) -> bool:
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in bound

    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and on_daimon(node.value)):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else [])
        found += [f"{path.name}:{node.lineno}: swap {ast.unparse(t)}" for t in targets
                  if isinstance(t, ast.Attribute) and on_daimon(t.value)]
        if isinstance(node, ast.Call) and node.args and on_daimon(node.args[0]):
            name = ast.unparse(node.func)
            if name in ("setattr", "delattr") or name.endswith(("patch.object", ".setattr")):
                found.append(f"{path.name}:{node.lineno}: swap {ast.unparse(node)[:80]}")
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "getattr" and len(node.args) > 1:
            name = node.args[1]
            if isinstance(name, ast.Constant) and str(name.value).startswith("_") and on_daimon(node.args[0]):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_private_daimon_name_or_swap_outside_the_door() -> None:
    """daimon's private names are spelled in `daimon_api/private.py` only, and
    a daimon module is assigned onto in `daimon_api/originals.py` only."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == ADAPTERS / "private.py":
            continue
        found += [f"{path.relative_to(PACKAGE.parent)}: {hit.split(': ', 1)[1]}" for hit in private_daimon_names(path)]
    assert found == []
    setters = [str(path.relative_to(PACKAGE)) for path in sorted((PACKAGE / "store").rglob("*.py"))
               if "setattr(" in path.read_text(encoding="utf-8")]
    # swaps.py puts back our installers' own records of what they installed (never a daimon name)
    assert setters == ["store/child/swaps.py", "store/daimon_api/originals.py"]


def test_each_private_name_sits_under_its_contract_id() -> None:
    from daimon_tui.store.daimon_api import private

    text = (ADAPTERS / "private.py").read_text(encoding="utf-8")
    sections = re.findall(r"^# -- ([\w.-]+)", text, flags=re.M)
    ids = {c.id for c in registry.CONTRACTS}
    assert sections and set(sections) <= ids, set(sections) - ids
    # every contract that names a private daimon name has its section (the public ones compose public names)
    assert {c.id for c in registry.CONTRACTS if not c.public} - {"writing.demo-clock", "reading.kept-fold-swaps",
                                                                  "judging.swaps"} <= set(sections)
    assert set(private.HELD) <= set(sections)
    for names in private.HELD.values():
        assert all(callable(getattr(private, name)) for name in names)


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from daimon_briefing import store, view as v\n"
        "from daimon_briefing.briefing import _line\n"
        "import daimon_briefing.jsonl\n"
        "x = store._fold\n"
        "v.snapshot = None\n"
        "daimon_briefing.jsonl.read = None\n"
        "setattr(store, 'item_events', None)\n"
        "y = getattr(v, '_bucket')\n"
        "z = store.fold_resolutions\n",
        encoding="utf-8")
    hits = [h.split(": ", 1)[1] for h in private_daimon_names(sample)]
    assert sorted(hits) == sorted(["from daimon_briefing.briefing import _line", "store._fold", "swap v.snapshot",
                                   "swap daimon_briefing.jsonl.read", "swap setattr(store, 'item_events', None)",
                                   "getattr(v, '_bucket')"])
    assert private_daimon_names(ADAPTERS / "private.py")  # the door does hold them
    # a daimon module handed out by the public door is daimon's all the same
    sample.write_text("from daimon_tui.store.daimon_api.public import config, store as s\n"
                      "x = s._fold\nconfig.team_dir = None\nz = s.fold_resolutions\n", encoding="utf-8")
    assert sorted(h.split(": ", 1)[1] for h in private_daimon_names(sample)) == ["s._fold", "swap config.team_dir"]


# -- safe mode reads exactly what daimon reads --------------------------------------------

SAFE_MODE_READ = r'''
import json, sys
from daimon_briefing import jsonl, recall, store, view

# One assumption breaks: the fold takes another parameter (it still folds the same).
real_fold = store._fold
def _fold(rows, *, keys, since=None):
    return real_fold(rows, keys=keys)
store._fold = _fold

SWAPPED = [(jsonl, "read"), (jsonl, "posture"), (store, "_fold"), (store, "fold_corroborations"),
           (store, "item_events"), (store, "forgotten_stamp"), (store, "_forgotten_walk"),
           (store, "forgotten_incomplete"), (view, "snapshot"), (view, "judge"), (view, "_read_judge"),
           (view, "item_events"), (view, "ledger_states"), (view, "team_notes"), (view, "machine_sets"),
           (recall, "_ensure_fresh")]
before = {(m.__name__, n): getattr(m, n) for m, n in SWAPPED}

from daimon_tui.store.daimon_api import brief_verb, mode
from daimon_tui.store.child import first_paint
from daimon_tui.store.judging import kept_fold, snapshot_share
from daimon_tui.store.read import asof, audit, details, history, reader, search, team, transcripts
from tests.store import private_guard
from tests.store.test_reader_compat import assert_agrees

import contextlib, os
from pathlib import Path
from daimon_briefing import config

# daimon's settings as the parent exported them, held as its sandbox holds them
# (the compatibility helper overrides settings on top of the active ones).
held = contextlib.ExitStack()
held.enter_context(config.settings_override(
    {k: v for k, v in os.environ.items() if k.startswith("DAIMON_") and not k.startswith("DAIMON_TUI_")}))
held.enter_context(config.checkpoint_dir_override(Path(os.environ["DAIMON_CHECKPOINT_DIR"])))
held.enter_context(config.log_dir_override(Path(os.environ["DAIMON_LOG_DIR"])))
current = mode.current()  # the contracts probe daimon's private names to decide: before the guard
private_guard.install()  # from here on, any private daimon name our code reaches raises and is recorded
now = float(sys.argv[2])
ref = reader.resolve_project(sys.argv[1])
ours = reader.load_briefing(ref, now)
assert_agrees(ref, now, ours)
confirmed = first_paint.confirm(ref, now)  # the judging child, told it runs in safe mode too
assert_agrees(ref, now, confirmed)

def refused(call):
    try:
        call()
    except mode.Unavailable as exc:
        return str(exc)
    return None

first = refused(lambda: first_paint.provisional_briefing(ref, now))
item = next(i for i in ours.items() if i.id)
detail = details.read_details(ref, item.id, now)
quoted = next(i for i in ours.items() if i.id and any(b.kind == "corroborated" for b in i.badges))
evidence = transcripts.read_evidence(ref, quoted.id, brief=True)
pager = transcripts.read_full_transcript(ref, quoted.id)
found = search.search(ref, "upload")
listing = history.sessions(ref)
timelines = [history.timeline(ref, i.id) for i in ours.items() if i.id]
diff = history.diff_generations(ref, None, None)
audited = audit.load_audit(ref)
teamed = team.load_team(ref, now)
from daimon_tui.store.read import health, queue
witnessed = [history.witnesses(ref, i.id) for i in ours.items() if i.id]
triage = queue.build_queue(ref, now)
charted = health.health(ref, now=now)
listed = reader.list_projects()
import io
from daimon_tui import cli
headless = {}
for argv in (["brief", "--json"], ["brief", "--team", "--json"], ["check", "--json"], ["audit", "--json"],
             ["search", "retry", "--json"], ["review", "--json"], ["stats", "--json"]):
    said = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
        headless[" ".join(argv)] = [cli.main([*argv, "--project", sys.argv[1]]), said.getvalue()[-300:]]
diffed = {}
for argv in (["diff"], ["diff", "--json"]):
    said, printed = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said):
        diffed[" ".join(argv)] = [cli.main([*argv, "--project", sys.argv[1]]), printed.getvalue(), said.getvalue()]
print(json.dumps({
    "safe": current.safe,
    "broken": [o.contract.id for o in current.broken],
    "swapped": [f"{m}.{n}" for (m, n), f in before.items() if getattr(sys.modules[m], n) is not f],
    "kept_fold_installed": kept_fold.KEPT.installed,
    "private": private_guard.seen,
    "first_paint": first,
    "as_of": refused(lambda: asof.as_of(ref, "2020-01-01T00:00:00Z").__enter__()),
    "as_daimon": refused(lambda: brief_verb.brief(str(ref.path))),
    "briefing": json.loads(ours.model_dump_json()),
    "detail": json.loads(detail.model_dump_json()) if detail else None,
    "evidence": json.loads(evidence.model_dump_json()),
    "pager": json.loads(pager.model_dump_json()),
    "search": json.loads(found.model_dump_json()),
    "sessions": json.loads(listing.model_dump_json()),
    "timelines": [json.loads(t.model_dump_json()) for t in timelines],
    "diff": json.loads(diff.model_dump_json()),
    "audit": [d.message for d in audited.diagnostics],
    "receipts": [[r.session_id, r.state, r.daimon_state] for r in audited.receipts],
    "team": json.loads(teamed.model_dump_json()),
    "witnesses": [json.loads(w.model_dump_json()) for w in witnessed],
    "queue": [e.ref for e in triage.entries],
    "health": [n.message for n in charted.diagnostics],
    "headless": headless,
    "diffed": diffed,
}))
'''


def _without_the_split(briefing: dict) -> dict:
    """A briefing read without which items `daimon brief` prints (off in safe mode)."""
    out = json.loads(json.dumps(briefing))
    out["notes"] = []
    for section in out["sections"]:
        for item in section["items"]:
            item["briefed"] = item["briefed_line"] = None
    return out


def test_safe_mode_reads_equal_daimons_with_the_kept_fold_off(demo_store: demo.DemoStore) -> None:
    """Safe mode (one contract broken) uses daimon's public API only: the guard
    (`private_guard`) records no private daimon name reached and no swap, the
    reads shown equal daimon's and the full mode's, and what needs a private
    name is refused with the reason."""
    env = judge_service.child_env()  # this sandbox's daimon settings, for a fresh process
    env.pop(mode.ENV_SAFE, None)
    done = subprocess.run([sys.executable, "-c", SAFE_MODE_READ, str(demo_store.project), str(NOW)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    got = json.loads(done.stdout.splitlines()[-1])
    assert got["safe"] and got["broken"] == ["reading.fold-appended"]
    assert got["private"] == []
    # the headless reports answer as in full mode (the stderr line aside)
    from daimon_tui import cli

    for argv, (rc, _err) in got["headless"].items():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert cli.main([*argv.split(), "--project", str(demo_store.project)]) == rc, (argv, _err)
    # `diff` prints daimon's own diff, whose steps are private: refused, with a code none of daimon's diff gives
    from daimon_tui.headless.exit_codes import Exit

    for argv, (rc, printed, said) in got["diffed"].items():
        assert rc == Exit.REFUSED and rc not in (0, 1, 2), (argv, rc, said)
        line = next(line for line in said.splitlines() if "diff is off in safe mode" in line)
        assert "cli.history._pick" in line and line.endswith("nothing was read")
        assert "reading.fold-appended broke" in line  # why this daimon is not the tested one
        if "--json" in argv:
            assert json.loads(printed) == {"refused": [line.removeprefix("daimon-tui: ")]}
        else:
            assert printed == ""
    assert got["swapped"] == [] and got["kept_fold_installed"] is False
    assert got["first_paint"] and "the first paint is off in safe mode" in got["first_paint"]
    for off, needs in (("as_of", "store._session_files"), ("as_daimon", "cli.brief._cmd_brief")):
        assert got[off] and "off in safe mode" in got[off] and needs in got[off], (off, got[off])
    assert any("the receipt audit's own signature check is off in safe mode" in line for line in got["audit"])
    # the audit still lists every session, with daimon's own (public) byte check
    from daimon_tui.store.read import audit

    assert [sid for sid, _s, _d in got["receipts"]] == [r.session_id for r in audit.load_audit(
        reader.resolve_project(str(demo_store.project))).receipts]
    assert got["receipts"] and all(state == daimon for _sid, state, daimon in got["receipts"])
    assert any(state == "mismatch" for _sid, state, _d in got["receipts"])  # the demo's edited session
    # The same reads in full mode, here: equal (the briefed split aside, which is off and says so).
    from daimon_tui.store.read import details, history, search

    ref = reader.resolve_project(str(demo_store.project))
    full = reader.load_briefing(ref, NOW)
    assert got["briefing"]["notes"][0]["message"].startswith("which items `daimon brief` prints")
    assert {**got["briefing"], "notes": []} == _without_the_split(json.loads(full.model_dump_json()))
    item = next(i for i in full.items() if i.id)
    assert got["detail"] == json.loads(details.read_details(ref, item.id, NOW).model_dump_json())
    # the item's transcript excerpt: where `why` (public) names it, as full mode shows it; each
    # witness's words need `why`'s private steps for that session's copy, and say so
    from daimon_tui.store.read import transcripts

    quoted = next(i for i in full.items() if i.id and any(b.kind == "corroborated" for b in i.badges))
    evidence = json.loads(transcripts.read_evidence(ref, quoted.id, brief=True).model_dump_json())
    assert got["evidence"]["item"] == evidence["item"]  # the demo keeps no transcript: said alike
    assert got["pager"] == json.loads(transcripts.read_full_transcript(ref, quoted.id).model_dump_json())
    assert evidence["witnesses"] and len(got["evidence"]["witnesses"]) == len(evidence["witnesses"])
    for words in got["evidence"]["witnesses"]:
        assert "off in safe mode" in words["excerpt"]["unavailable"] and "inspector._legacy_source" in words[
            "excerpt"]["unavailable"]
    assert {**got["search"], "seconds": 0} == {**json.loads(search.search(ref, "upload").model_dump_json()),
                                               "seconds": 0}
    assert got["sessions"] == json.loads(history.sessions(ref).model_dump_json())
    assert got["timelines"] == [json.loads(history.timeline(ref, i.id).model_dump_json()) for i in full.items() if i.id]
    assert got["diff"] == json.loads(history.diff_generations(ref, None, None).model_dump_json())
    assert got["witnesses"] == [json.loads(history.witnesses(ref, i.id).model_dump_json())
                                for i in full.items() if i.id]
    from daimon_tui.store.read import queue

    assert got["queue"] == [e.ref for e in queue.build_queue(ref, NOW).entries]
    assert any("the briefing as of a time is off in safe mode" in line for line in got["health"])


GUARD_CHECK = r'''
import json
from daimon_tui.store.daimon_api import mode, reading, recall
from tests.store import private_guard

mode.current()
private_guard.install()
for call in (lambda: reading.tombstone_ledger_name(), lambda: recall.daimon_ensure_fresh(),
             lambda: reading.swap(reading.store, "project_slug", len)):
    try:
        call()
    except private_guard.PrivateAccess:
        pass
print(json.dumps(private_guard.seen))
'''


def test_the_private_name_guard_sees_a_read_a_held_function_and_a_swap() -> None:
    done = subprocess.run([sys.executable, "-c", GUARD_CHECK], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen == ["daimon_tui.store.daimon_api.private read daimon_briefing.store._TOMBSTONE_NAME",
                    "daimon_tui.store.daimon_api.recall.daimon_ensure_fresh called "
                    "(daimon_briefing.recall._ensure_fresh)",
                    "daimon_tui.store.daimon_api.originals swapped daimon_briefing.store.project_slug"], seen


def test_a_public_render_that_drifts_from_daimons_own_line_breaks_its_contract(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = briefing.render_selection
    monkeypatch.setattr(briefing, "render_selection", lambda sel: real(sel).replace(" [carried]", " [old]"))
    outcome = contracts.check(registry.by_id("rendering.item-line"))
    assert not outcome.holds
    assert "briefing.render_selection of one item is not briefing._line" in (outcome.problem or "")
