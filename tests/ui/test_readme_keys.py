"""The key tables in docs/keys.md are what the bindings say, per view, and
every key the README's short table names is one of them."""

from __future__ import annotations

import re
from pathlib import Path

from daimon_tui.ui import readme_keys

ROOT = Path(__file__).resolve().parents[2]
KEYS_PAGE = ROOT / "docs" / "keys.md"
README = ROOT / "README.md"


def test_the_key_page_tables_match_the_bindings() -> None:
    text = KEYS_PAGE.read_text(encoding="utf-8")
    assert readme_keys.block() in text, "docs/keys.md drifted: run scripts/readme_keys.py"


def test_every_view_has_a_table_and_every_key_a_meaning() -> None:
    tables = readme_keys.tables()
    for view in ("Briefing", "History", "Queue", "Audit", "Action log", "Search", "Everywhere"):
        assert f"**{view}**" in tables
    # A key whose description is only its own name says nothing.
    for line in tables.splitlines():
        if line.startswith("| `"):
            keys, does = line.strip("|").split("|")
            assert does.strip() and does.strip() != keys.strip().strip("`")


def _keys_in_first_column(table: str) -> set[str]:
    keys: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            keys.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return keys


def test_the_readme_names_only_bound_keys_and_links_the_full_tables() -> None:
    readme = README.read_text(encoding="utf-8")
    section = readme.split("\n## Keys\n", 1)[1].split("\n## ", 1)[0]
    shown = _keys_in_first_column(section)
    assert len(shown) >= 20, "the README's key table is missing"
    bound = _keys_in_first_column(readme_keys.tables())
    assert shown <= bound, f"the README names keys no view binds: {sorted(shown - bound)}"
    assert "](docs/keys.md)" in section
