"""Regenerate the key tables of docs/keys.md from the bindings:
`.venv/bin/python scripts/readme_keys.py` (tests/ui/test_readme_keys.py fails
while the page differs)."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.ui.readme_keys import rewrite

KEYS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "keys.md"

if __name__ == "__main__":
    KEYS_PAGE.write_text(rewrite(KEYS_PAGE.read_text(encoding="utf-8")), encoding="utf-8")
