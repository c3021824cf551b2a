"""`daimon-tui brief --as-daimon` is `daimon brief` byte for byte and exit code
for exit code in every mode daimon has: project or slug, `--team`, world-check
on, and hostile stores; and it writes nothing (daimon's own verb appends its
usage line and world-check rows). daimon's CLI runs in this process, after ours."""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import cli as daimon_cli

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import reader
from tests.daimon_records import tree_hashes
from tests.team_store import TeamStore


def _same(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, str, str]:
    """Ours (nothing written), then daimon's: the same stdout bytes and exit code."""
    capsys.readouterr()
    before = tree_hashes(root)
    ours_rc = cli.main(["brief", "--as-daimon", *argv])
    ours = capsys.readouterr()
    assert tree_hashes(root) == before, "--as-daimon wrote to the store"
    theirs_rc = daimon_cli.main(["brief", *argv])
    theirs = capsys.readouterr()
    assert ours.out.encode() == theirs.out.encode()
    assert ours_rc == theirs_rc
    return ours_rc, ours.out, ours.err


def test_team_mode_has_the_teammates_section_and_quarantine_line(team_store: TeamStore, capsys) -> None:
    rc, out, _err = _same(capsys, team_store.root / "alice", "--team", "--project", str(team_store.project))
    assert rc == 0 and "Teammates" in out and "a teammate's" in out


def test_slug_with_team_is_refused_as_daimon_refuses_it(demo_store: demo.DemoStore, capsys) -> None:
    slug = reader.resolve_project(str(demo_store.project)).slug
    rc, _out, err = _same(capsys, demo_store.root, f"--slug={slug}", "--team")
    assert rc == 2 and "--team routes by project path" in err


def test_slug_mode_and_a_torn_latest_pointer_exit_as_daimon(demo_store: demo.DemoStore, capsys) -> None:
    slug = reader.resolve_project(str(demo_store.project)).slug
    assert _same(capsys, demo_store.root, f"--slug={slug}")[0] == 0
    (demo_store.checkpoint_dir / slug / "latest.json").write_text("{torn", encoding="utf-8")
    rc, out, _err = _same(capsys, demo_store.root, f"--slug={slug}")
    assert rc == 1 and "no checkpoint bucket for slug" in out
    _same(capsys, demo_store.root, "--project", str(demo_store.project))


def test_a_project_daimon_has_no_bucket_for(demo_store: demo.DemoStore, capsys) -> None:
    other = demo_store.project.parent / "other"
    other.mkdir()
    _same(capsys, demo_store.root, "--project", str(other))


def _git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-c", "user.name=t", "-c", "user.email=t@t.invalid",
                    "-C", str(project), *args], check=True, capture_output=True)


WORLDCHECK_ON = {"DAIMON_WORLDCHECK": "1"}


@pytest.fixture
def world_store(sandbox_root: Path):
    """Carried claims daimon's world-check answers from disk: a file that exists,
    one deleted, a branch that exists and one that does not."""
    with demo.sandboxed(sandbox_root, receipts=False, settings=WORLDCHECK_ON) as store:
        project = store.project
        (project / "src").mkdir()
        (project / "src" / "keep.py").write_text("x = 1\n", encoding="utf-8")
        (project / "src" / "loader.py").write_text("y = 2\n", encoding="utf-8")
        _git(project, "init", "-q", "-b", "main")
        _git(project, "add", "-A")
        _git(project, "commit", "-q", "-m", "init")
        _git(project, "branch", "feature/keep")
        (project / "src" / "loader.py").unlink()  # deleted from the work tree, still tracked
        first = demo.session("S-w1", demo.DEMO_NOW - timedelta(days=2), "World")
        first["working_context"]["recent_decisions"] = [
            {"text": "src/keep.py exists and holds the setting", "trust": "inferred"},
            {"text": "src/loader.py exists with the old loader", "trust": "inferred"},
            {"text": "branch feature/keep is active for the rework", "trust": "inferred"},
            {"text": "branch feature/never is active for the spike", "trust": "inferred"},
        ]
        demo.seed(project, first)
        demo.seed(project, demo.session("S-w2", demo.DEMO_NOW - timedelta(days=1), "World"))
        yield store


def test_world_check_on_warnings_and_badges(world_store: demo.DemoStore, capsys) -> None:
    rc, out, _err = _same(capsys, world_store.root, "--project", str(world_store.project))
    assert rc == 0
    assert "[✓ world-checked]" in out and "state changed since capture" in out


def test_world_check_that_would_start_a_program_is_refused(sandbox_root: Path, capsys) -> None:
    """The demo's receipts are verified by the signer program: offline, that text is not ours to print."""
    with demo.sandboxed(sandbox_root, settings=WORLDCHECK_ON) as store:
        demo.populate(store.project)
        capsys.readouterr()
        before = tree_hashes(store.root)
        assert cli.main(["brief", "--as-daimon", "--project", str(store.project)]) == 2
        assert "not reproducible offline" in capsys.readouterr().err
        assert tree_hashes(store.root) == before


# -- world-check programs: never started; daimon's text wherever their answer does not reach it ----------


def _fake_program(directory: Path, name: str, answer: str) -> Path:
    """A program on PATH that says it was started (a file beside it) and answers `answer`."""
    directory.mkdir(parents=True, exist_ok=True)
    started = directory / f"{name}.started"
    program = directory / name
    program.write_text(f"#!/bin/sh\necho started >> '{started}'\necho '{answer}'\n", encoding="utf-8")
    program.chmod(0o755)
    return started


def _path_without(monkeypatch: pytest.MonkeyPatch, *programs: str, first: Path | None = None) -> None:
    """PATH with no directory holding `programs` (and `first` in front)."""
    import os
    import shutil

    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not any(shutil.which(p, path=d) for p in programs)]
    monkeypatch.setenv("PATH", os.pathsep.join(([str(first)] if first else []) + keep))


def _signer(path: Path):
    """daimon's settings as they are, with its receipt signer at `path`."""
    from daimon_briefing import config

    return config.settings_override({**(config.active_settings() or {}), "DAIMON_VITNI_CLI": str(path)})


def test_world_check_with_no_program_to_start_is_daimons_text(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The demo with world-check on, no `gh` on PATH and no signer: daimon's own
    code takes its "unavailable" path, and so does ours, byte for byte."""
    with demo.sandboxed(sandbox_root, settings=WORLDCHECK_ON) as store:
        demo.populate(store.project)
        _path_without(monkeypatch, "gh")
        with _signer(sandbox_root / "no-such-signer"):
            rc, out, _err = _same(capsys, store.root, "--project", str(store.project))
    assert rc == 0 and "While you were away" in out


def test_a_signer_whose_answer_reaches_the_text_is_refused_and_never_started(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The demo with world-check on and its signer: daimon verifies one carried
    origin's receipt with it, and a valid receipt marks items `[✓ world-checked]`:
    those bytes are the signer's, so the app refuses and says whose."""
    with demo.sandboxed(sandbox_root, settings=WORLDCHECK_ON) as store:
        demo.populate(store.project)
        started = _fake_program(sandbox_root / "bin", "vitni", '{"valid": true}')
        _path_without(monkeypatch, "gh")
        capsys.readouterr()
        with _signer(sandbox_root / "bin" / "vitni"):
            assert cli.main(["brief", "--as-daimon", "--project", str(store.project)]) == 2
            err = capsys.readouterr().err
            assert not started.exists()
            assert "the receipt signer about session" in err and "changes what `daimon brief` prints" in err
            # daimon itself starts the signer, and its answer is in the text
            assert daimon_cli.main(["brief", "--project", str(store.project)]) == 0
            assert started.exists() and "[✓ world-checked]" in capsys.readouterr().out


def test_gh_on_path_is_never_started_and_daimons_text_is_printed_when_its_answer_cannot_matter(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """`gh` on PATH and a carried PR claim: daimon asks git for a GitHub remote
    and then `gh`. The app starts neither; it refuses only when an answer of
    `gh`'s would change the text, and names the claim."""
    with demo.sandboxed(sandbox_root, settings=WORLDCHECK_ON) as store:
        demo.populate(store.project)
        started = _fake_program(sandbox_root / "bin", "gh", '{"state": "MERGED"}')
        _path_without(monkeypatch, "gh", first=sandbox_root / "bin")
        capsys.readouterr()
        with _signer(sandbox_root / "no-such-signer"):
            rc = cli.main(["brief", "--as-daimon", "--project", str(store.project)])
            err = capsys.readouterr().err
            assert not started.exists()
            # the demo carries "waiting for review as PR #42": a "merged" from `gh` would flag it
            assert rc == 2 and "`gh` about PR #42" in err and "changes what `daimon brief` prints" in err


def test_a_signer_whose_answer_never_reaches_the_text_is_not_needed(
        sandbox_root: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """World-check on, receipts on, and the one carried item of the sampled
    origin already flagged by its own claim (its file is gone): daimon starts
    the signer, but whatever it answers, the first flag stands and no badge is
    added. The app starts nothing and prints daimon's bytes."""
    with demo.sandboxed(sandbox_root, settings=WORLDCHECK_ON) as store:
        project = store.project
        (project / "src").mkdir()
        first = demo.session("S-w1", demo.DEMO_NOW - timedelta(days=2), "World")
        first["working_context"]["recent_decisions"] = [
            {"text": "src/loader.py exists with the old loader", "trust": "inferred"}]
        demo.seed(project, first)
        demo.seed(project, demo.session("S-w2", demo.DEMO_NOW - timedelta(days=1), "World"))
        started = _fake_program(sandbox_root / "bin", "vitni", '{"valid": true}')
        _path_without(monkeypatch, "gh")
        with _signer(sandbox_root / "bin" / "vitni"):
            capsys.readouterr()
            before = tree_hashes(store.root)
            ours_rc = cli.main(["brief", "--as-daimon", "--project", str(project)])
            ours = capsys.readouterr()
            assert tree_hashes(store.root) == before and not started.exists(), ours.err
            theirs_rc = daimon_cli.main(["brief", "--project", str(project)])
            theirs = capsys.readouterr()
    assert started.exists(), "daimon's own brief did not ask the signer: this store tests nothing"
    assert ours.out.encode() == theirs.out.encode() and ours_rc == theirs_rc == 0
    assert "src/loader.py missing" in ours.out


def test_the_baton_is_daimons_and_read_from_its_rows_alone(demo_store: demo.DemoStore, capsys, monkeypatch) -> None:
    """Issue 29: a warm `--as-daimon` spent most of its time in daimon's
    `active_handoff` reading every events row; it is daimon's own function
    run over the rows that spell `handoff`, and prints what daimon prints."""
    from daimon_briefing import store
    from daimon_briefing.surfaces import Writer

    from daimon_tui.store.daimon_api import brief_verb
    from daimon_tui.store.judging import kept_fold

    project = str(demo_store.project)
    assert store.append_event("", "active", note="the newest baton", kind="handoff", project_dir=project,
                              writer=Writer.HUMAN)
    kept_fold.install()
    batons: list[list[int]] = []  # per call of daimon's `active_handoff`: the sizes of its events reads
    read, daimons = kept_fold.KEPT.daimon.read, brief_verb.daimon_active_handoff

    def spied(path, **options):  # type: ignore[no-untyped-def]
        got = read(path, **options)
        if batons and Path(path).name == "events.jsonl":
            batons[-1].append(len(got.rows))
        return got

    def baton(project_dir=None):  # type: ignore[no-untyped-def]
        batons.append([])
        return daimons(project_dir)

    monkeypatch.setattr(kept_fold.KEPT.daimon, "read", spied)
    monkeypatch.setattr(kept_fold, "KEEP_MIN_BYTES", 1 << 40)  # no kept fold: every events read is daimon's own
    monkeypatch.setattr(brief_verb, "daimon_active_handoff", baton)
    capsys.readouterr()
    assert cli.main(["brief", "--as-daimon", "--project", project]) == 0
    assert "the newest baton" in capsys.readouterr().out
    # daimon's function ran, over the baton rows alone (`events_as`): no read of the events ledger
    assert batons == [[]]
    monkeypatch.undo()
    _same(capsys, demo_store.root, "--project", project)
