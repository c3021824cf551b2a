"""daimon's contract, as the adapters (`daimon_tui/store/daimon_api/`) assume it.

Each contract runs against the installed daimon and, when it breaks, says
which assumption broke and where. The same list feeds `daimon-tui doctor` and
the choice of safe mode. Safe mode is run here too: one contract made to fail,
the briefing read again in a fresh process, equal to daimon's and to the full
mode's read, with nothing of daimon's swapped.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from daimon_briefing import briefing, store

import daimon_tui
from daimon_tui.domain import verbs
from daimon_tui.store.daimon_api import contracts, mode
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.judging import judge_service
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


@pytest.mark.parametrize("contract", contracts.CONTRACTS, ids=lambda c: c.id)
def test_the_contract_holds_on_the_installed_daimon(contract: contracts.Contract) -> None:
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
    ids = [c.id for c in contracts.CONTRACTS]
    assert len(ids) == len(set(ids))
    for contract in contracts.CONTRACTS:
        assert (ADAPTERS / f"{contract.concern}.py").is_file(), contract.id
        assert contract.id.startswith(contract.concern + ".")


# -- a broken assumption is named, with where it broke -----------------------------------


def break_daimon(monkeypatch: pytest.MonkeyPatch, module: object, name: str, value: object) -> None:
    """daimon's `module.name` becomes `value` for this test, also where an
    adapter's swap keeps daimon's own (the contracts read that one)."""
    monkeypatch.setattr(module, name, value)
    monkeypatch.setitem(contracts._originals, f"{module.__name__}:{name}", value)  # type: ignore[attr-defined]


def test_a_changed_signature_names_the_function_and_both_signatures(monkeypatch: pytest.MonkeyPatch) -> None:
    real = contracts._originals.get("daimon_briefing.store:_fold", store._fold)
    break_daimon(monkeypatch, store, "_fold", lambda rows, keys, extra=None: real(rows, keys=keys))
    outcome = contracts.check(contracts.by_id("reading.fold-appended"))
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
    outcome = contracts.check(contracts.by_id("reading.fold-appended"))
    assert outcome.problem and "winners plus the rest differs from the full fold" in outcome.problem


def test_a_changed_line_order_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    real = briefing._line

    def badge_first(item, degraded=False, briefable=False, full_quotes=False):
        line = real(item, degraded, briefable, full_quotes)
        return "[×3] " + line

    break_daimon(monkeypatch, briefing, "_line", badge_first)
    outcome = contracts.check(contracts.by_id("rendering.item-line"))
    assert outcome.problem and "not mark, text, corroboration in that order" in outcome.problem


def test_a_missing_name_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(briefing, "_VERBATIM_MARK")
    outcome = contracts.check(contracts.by_id("rendering.item-line"))
    assert outcome.problem == "daimon_briefing.briefing has no _VERBATIM_MARK"


# -- the mode ----------------------------------------------------------------------------


def test_an_untested_daimon_opens_in_safe_mode_and_says_what_is_off(
        monkeypatch: pytest.MonkeyPatch, fresh_mode: None) -> None:
    monkeypatch.setattr(mode, "installed_version", lambda: "0.70.1")
    current = mode.current()
    assert current.safe and not current.broken
    assert not mode.allows("reading.fold-appended") and not mode.allows("judging.swaps")
    assert mode.allows("rendering.item-line")  # no public equivalent; its contract holds
    banner = current.banner()
    assert banner and "daimon-briefing 0.70.1" in banner and "the kept fold" in banner and "verb retract" in banner
    assert plans.verb_off("retract") and "0.70.1" in plans.verb_off("retract")
    assert plans.verb_off("resolve") is None


def test_one_broken_contract_is_safe_mode_too_and_its_reads_are_off(
        monkeypatch: pytest.MonkeyPatch, fresh_mode: None) -> None:
    monkeypatch.delattr(store, "_demotes")
    current = mode.current()
    assert current.tested and current.safe
    assert [o.contract.id for o in current.broken] == ["reading.demotes"]
    assert any(line.startswith("the history's demotion kinds: off (needs store._demotes)") for line in current.off())
    from daimon_tui.store.daimon_api import reading

    with pytest.raises(mode.Unavailable, match="the history's demotion kinds is off in safe mode"):
        reading.demotes({"status": "resolved"}, "resolved")


def test_the_tested_daimon_runs_in_full_mode(fresh_mode: None) -> None:
    current = mode.current()
    assert not current.safe and current.banner() is None and current.off() == ()
    assert plans.verb_off("retract") is None


def test_a_mode_decided_again_after_our_swaps_judges_daimons_own_functions(fresh_mode: None) -> None:
    from daimon_tui.store.judging import kept_fold, snapshot_share
    from daimon_tui.store.read import ledger_lines, recall_generation

    kept_fold.install()
    snapshot_share.install()
    ledger_lines._install()
    recall_generation.install()
    mode.set_current(None)
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


def private_daimon_names(path: Path) -> list[str]:
    """Leading-underscore attributes of names bound to daimon_briefing modules,
    `from daimon_briefing.x import _y`, and assignments (or setattr, or a mock
    patch) onto a daimon module: run-time swaps."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "daimon_briefing":
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


def test_no_private_daimon_name_or_swap_outside_the_adapters() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ADAPTERS in path.parents:
            continue
        found += [f"{path.relative_to(PACKAGE.parent)}: {hit.split(': ', 1)[1]}" for hit in private_daimon_names(path)]
    assert found == []


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
    assert private_daimon_names(ADAPTERS / "reading.py")  # the adapters do hold them


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

from daimon_tui.store.daimon_api import mode
from daimon_tui.store.judging import first_paint, kept_fold, snapshot_share
from daimon_tui.store.read import details, reader
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
now = float(sys.argv[2])
ref = reader.resolve_project(sys.argv[1])
ours = reader.load_briefing(ref, now)
assert_agrees(ref, now, ours)
confirmed = first_paint.confirm(ref, now)  # the judging child, told it runs in safe mode too
assert_agrees(ref, now, confirmed)
first = None
try:
    first_paint.provisional_briefing(ref, now)
except mode.Unavailable as exc:
    first = str(exc)
item = next(i for i in ours.items() if i.id)
detail = details.read_details(ref, item.id, now)
current = mode.current()
print(json.dumps({
    "safe": current.safe,
    "broken": [o.contract.id for o in current.broken],
    "swapped": [f"{m}.{n}" for (m, n), f in before.items() if getattr(sys.modules[m], n) is not f],
    "kept_fold_installed": kept_fold._installed,
    "first_paint": first,
    "briefing": json.loads(ours.model_dump_json()),
    "detail": json.loads(detail.model_dump_json()) if detail else None,
}))
'''


def test_safe_mode_reads_equal_daimons_with_the_kept_fold_off(demo_store: demo.DemoStore) -> None:
    env = judge_service.child_env()  # this sandbox's daimon settings, for a fresh process
    env.pop(mode.ENV_SAFE, None)
    done = subprocess.run([sys.executable, "-c", SAFE_MODE_READ, str(demo_store.project), str(NOW)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    got = json.loads(done.stdout.splitlines()[-1])
    assert got["safe"] and got["broken"] == ["reading.fold-appended"]
    assert got["swapped"] == [] and got["kept_fold_installed"] is False
    assert got["first_paint"] and "the first paint is off in safe mode" in got["first_paint"]
    # The same reads in full mode, here: equal.
    ref = reader.resolve_project(str(demo_store.project))
    full = reader.load_briefing(ref, NOW)
    assert got["briefing"] == json.loads(full.model_dump_json())
    item = next(i for i in full.items() if i.id)
    from daimon_tui.store.read import details

    assert got["detail"] == json.loads(details.read_details(ref, item.id, NOW).model_dump_json())
