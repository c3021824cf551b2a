"""Health's pass keeps one as-of copy for all its moments (`as_of(into=)`):
the session files and receipts a moment holds unchanged since the last are
kept, not deleted and copied again (issue 42 point 2). Every moment's copy is
still, file for file and byte for byte, a fresh copy of the store then, also
after daimon (or anyone) changed a file in the copy, or the store changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import asof, reader

_ORDERS = (("S-day1", "S-day2", "S-day3"), ("S-day3", "S-day1", "S-day2", "S-day2"))


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("order", _ORDERS, ids=["oldest-first", "any-order"])
def test_each_moment_of_a_kept_copy_is_a_fresh_copy(demo_store: demo.DemoStore, tmp_path: Path,
                                                     order: tuple[str, ...]) -> None:
    project = reader.resolve_project(str(demo_store.project))
    into = tmp_path / "pass"
    into.mkdir(mode=0o700)
    for n, sid in enumerate(order):
        with asof.as_of(project, sid) as fresh:
            assert fresh.sessions
            want = _tree(Path(asof.team_dir()).parent)
        with asof.as_of(project, sid, into=into) as cut:
            assert cut.sessions == fresh.sessions
            assert _tree(into) == want, sid
            copied = sorted((into / "checkpoints").glob("*.json"))
            if n == 0:  # something in the copy changed (a write inside the read): the next moment has it back
                copied[0].write_bytes(b"{}")
                (into / "checkpoints" / "stray.json").write_bytes(b"{}")
            if n == 1:  # the store's own file changed, same size and time: copied again
                source = demo_store.checkpoint_dir / sorted((into / "checkpoints").glob("*.receipt"))[-1].name
                st, data = source.stat(), source.read_bytes()
                source.write_bytes(data[:-1] + (b"y" if data.endswith(b"x") else b"x"))
                os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_later_moment_writes_no_session_file_again(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    project = reader.resolve_project(str(demo_store.project))
    into = tmp_path / "pass"
    into.mkdir(mode=0o700)
    with asof.as_of(project, "S-day2", into=into) as cut:
        held = len(cut.sessions)
    files = sorted(p for p in (into / "checkpoints").iterdir() if p.is_file())
    assert len(files) >= 2 * held  # each session file and its receipt
    before = {p.name: (p.stat().st_ino, p.stat().st_ctime_ns) for p in files}
    with asof.as_of(project, "S-day3", into=into) as cut:
        assert len(cut.sessions) > held
        after = {p.name: (p.stat().st_ino, p.stat().st_ctime_ns) for p in files}
    assert after == before  # today: each deleted and written again
