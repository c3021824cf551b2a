"""Shared fixtures: daimon stores built by daimon's own `testing` helpers.

Each store lives in its own temporary directory with daimon's sandbox active for
the whole test, so nothing reads or writes the real `~/.daimon`.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from daimon_tui.store import writer_process
from daimon_tui.store.daimon_api import mode
from daimon_tui.store.demo import builder as demo
from tests.receipt_kit import shared_kit
from tests.sandbox_paths import SANDBOX_PREFIX, sandbox_base
from tests.team_store import TeamStore
from tests.team_store import team_store as build_team_store


@pytest.fixture(autouse=True)
def daimon_mode_decided_clean() -> Iterator[None]:
    """The app decides its mode once, at start, against daimon's own functions.
    A test that swaps one of them (a frozen clock, a changed signature) must not
    be where the run's mode is first decided, nor leave a safe mode nobody asked
    for to the tests after it (one did: a report then kept no fold). First of
    the autouse fixtures, so its teardown runs after the test's monkeypatches
    are undone."""
    mode.current()
    yield
    if mode.current().safe and not os.environ.get(mode.ENV_SAFE):
        mode.set_current(None)
        mode.current()


@pytest.fixture
def sandbox_root(request: pytest.FixtureRequest) -> Iterator[Path]:
    # daimon refuses a sandbox at or below $HOME or inside a git work tree, so
    # the checkout is no place for it. Each test gets a private directory, so two
    # runs on one machine never share a store; it sits at a fixed-length path
    # (/tmp/dtui-XXXXXXXX/<test>) so that slugs derived from it keep their width
    # on screen, and `snapshot_masks` hides the random part in snapshots.
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-120:]
    base = Path(tempfile.mkdtemp(prefix=SANDBOX_PREFIX, dir=sandbox_base()))
    root = base.resolve() / name
    root.mkdir()
    try:
        yield root
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(autouse=True)
def private_action_log(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Keep every test's action log out of the real state directory."""
    path = tmp_path / "state" / "actions.jsonl"
    monkeypatch.setenv("DAIMON_TUI_LOG", str(path))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    # Nor the person's own settings or cache.
    monkeypatch.setenv("DAIMON_TUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("DAIMON_TUI_CACHE", str(tmp_path / "cache"))
    return path


@pytest.fixture(scope="session")
def receipt_kit() -> demo.ReceiptKit:
    """The receipt signer and daimon's keys for it, made once per process (each
    xdist worker): a store then starts the signer only to sign, not to probe it
    and derive its key again (those two starts were most of a store's cost)."""
    return shared_kit()


@pytest.fixture
def empty_store(sandbox_root: Path, receipt_kit: demo.ReceiptKit) -> Iterator[demo.DemoStore]:
    """An active sandbox with a project directory and no checkpoint yet."""
    with demo.sandboxed(sandbox_root, kit=receipt_kit) as store:
        yield store


@pytest.fixture
def budget_store(sandbox_root: Path) -> Iterator[demo.DemoStore]:
    """A handoff, a ruling and an open-loops section daimon trims for its byte budget."""
    from tests.daimon_records import BUDGET_SETTINGS, seed_budgeted

    with demo.sandboxed(sandbox_root, receipts=False, settings=BUDGET_SETTINGS) as store:
        seed_budgeted(store.project)
        yield store


@pytest.fixture
def demo_store(empty_store: demo.DemoStore) -> demo.DemoStore:
    """The demo store: three sessions, receipts, S-day2 tampered."""
    demo.populate(empty_store.project)
    demo.tamper(empty_store.checkpoint_dir, "S-day2")
    return empty_store


@pytest.fixture
def team_store(sandbox_root: Path) -> Iterator[TeamStore]:
    """Two engineers' daimon homes synced through a local bare remote; the reader is alice."""
    with build_team_store(sandbox_root) as store:
        yield store


@pytest.fixture
def writer_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Intents logged in this test name a writer process that no longer runs
    (a pid above the kernel's maximum): as if written by a run since killed."""
    monkeypatch.setattr(writer_process, "_ME", f"{2**22 + 7}:1")
