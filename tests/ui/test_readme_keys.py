"""The README's key tables are what the bindings say, per view."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.ui import readme_keys

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_key_tables_match_the_bindings() -> None:
    text = README.read_text(encoding="utf-8")
    assert readme_keys.block() in text, "README keys drifted: run scripts/readme_keys.py"


def test_every_view_has_a_table_and_every_key_a_meaning() -> None:
    tables = readme_keys.tables()
    for view in ("Briefing", "History", "Queue", "Audit", "Action log", "Search", "Everywhere"):
        assert f"**{view}**" in tables
    # A key whose description is only its own name says nothing.
    for line in tables.splitlines():
        if line.startswith("| `"):
            keys, does = line.strip("|").split("|")
            assert does.strip() and does.strip() != keys.strip().strip("`")
