"""Paths read from the store stay inside the store."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from daimon_tui.store import paths
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import inspector, reader

from .conftest import NOW, tree_hashes


def test_inside_resolves_symlinks(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    (base / "a").write_text("x")
    (base / "in").symlink_to(base / "a")
    (base / "out").symlink_to("/etc/passwd")
    (base / "loop").symlink_to(base / "loop")
    assert paths.inside(base, base / "a") and paths.inside(base, base / "in") and paths.inside(base, base)
    assert not paths.inside(base, base / "out")
    assert not paths.inside(base, base / ".." / "x")
    assert not paths.inside(base, base / "loop")
    assert {p.name for p in paths.escaping_links(base, base)} == {"out", "loop"}


@pytest.mark.parametrize("name", ["", ".", "..", "../x", "a/b", "a\\b", "x\x00y", "\x1b[2J", "x" * 300, 42, None])
def test_unsafe_components_are_refused(tmp_path: Path, name: object) -> None:
    assert not paths.safe_component(name)
    assert paths.contained(tmp_path, name, ".json") is None


def test_a_safe_session_id_is_contained(tmp_path: Path) -> None:
    assert paths.contained(tmp_path, "S-day1", ".json") == tmp_path / "S-day1.json"


@pytest.mark.parametrize("slug", ["../../etc", "a/b", "..", "/etc"])
def test_hostile_slug_never_names_a_directory_outside(demo_store: demo.DemoStore, slug: str) -> None:
    project = reader.resolve_project(None, slug)
    assert paths.safe_component(project.slug) and "/" not in project.slug and project.slug not in {".", ".."}
    assert project.path is None or paths.inside(demo_store.root, project.path)
    assert not reader.project_exists(project)


def _bucket(store: demo.DemoStore) -> Path:
    return store.checkpoint_dir / reader.resolve_project(str(store.project)).slug


@pytest.mark.parametrize("root_text", ["/etc\n", "relative/dir\n", "/nonexistent/dir\n", "/tmp\n/etc\n"])
def test_a_root_file_pointing_elsewhere_is_refused_and_reported(demo_store: demo.DemoStore, root_text: str) -> None:
    bucket = _bucket(demo_store)
    slug = bucket.name
    (bucket / "root").write_text(root_text)
    project = reader.resolve_project(None, slug)
    assert project.path is None  # the slug itself is read, never /etc
    assert project.name == slug
    briefing = reader.load_briefing(reader.resolve_project(str(demo_store.project)), now=NOW)
    assert any("refused the bucket root" in n.message for n in briefing.notes)


def test_the_genuine_root_is_used(demo_store: demo.DemoStore) -> None:
    slug = _bucket(demo_store).name
    assert reader.resolve_project(None, slug).path == str(demo_store.project)


@pytest.mark.parametrize("name", ["latest.json", "events.jsonl", "trust.jsonl", "root"])
def test_a_symlink_out_of_the_store_is_refused(demo_store: demo.DemoStore, tmp_path: Path, name: str) -> None:
    bucket = _bucket(demo_store)
    outside = tmp_path / f"outside-{name}"
    outside.write_bytes((bucket / name).read_bytes())
    (bucket / name).unlink()
    (bucket / name).symlink_to(outside)
    before = tree_hashes(demo_store.root)
    opened: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", spy)
        project = reader.resolve_project(str(demo_store.project))
        briefing = reader.load_briefing(project, now=NOW)
        inspector.inspect(project, "o-anything", now=NOW)
        _projects, notes = reader.list_projects()
    assert briefing.state == "unavailable"
    assert any(name in n.message and "outside the store" in n.message for n in briefing.notes)
    assert any(bucket.name in n.message for n in notes)
    assert not any(str(outside) in p for p in opened)
    assert outside.read_bytes()  # untouched
    assert tree_hashes(demo_store.root) == before


def test_a_session_file_symlinked_out_is_refused(demo_store: demo.DemoStore, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    (demo_store.checkpoint_dir / "S-evil.json").symlink_to(target)
    briefing = reader.load_briefing(reader.resolve_project(str(demo_store.project)), now=NOW)
    assert briefing.state == "unavailable"
    assert any("S-evil.json" in n.message for n in briefing.notes)


def test_a_hostile_session_id_in_the_pointer_is_refused(demo_store: demo.DemoStore) -> None:
    import json

    latest = _bucket(demo_store) / "latest.json"
    data = json.loads(latest.read_text())
    data["session_id"] = "../../../etc/passwd"
    latest.write_text(json.dumps(data))
    briefing = reader.load_briefing(reader.resolve_project(str(demo_store.project)), now=NOW)
    assert any("not a safe file name: refused" in n.message for n in briefing.notes)
