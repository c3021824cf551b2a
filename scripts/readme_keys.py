"""Regenerate the README's key tables from the bindings:
`.venv/bin/python scripts/readme_keys.py` (tests/ui/test_readme_keys.py fails
while the README differs)."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.ui.readme_keys import rewrite

README = Path(__file__).resolve().parents[1] / "README.md"

if __name__ == "__main__":
    README.write_text(rewrite(README.read_text(encoding="utf-8")), encoding="utf-8")
