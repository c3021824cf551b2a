"""`./scripts/demo` installs once: a second launch with nothing changed skips pip."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A stand-in venv: its python logs each pip run and answers the import check.
FAKE_PYTHON = """#!/usr/bin/env bash
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo pip >> "$(dirname "$0")/../calls"; exit 0; fi
exit 0
"""


def run_demo(checkout: Path) -> None:
    subprocess.run(["bash", str(checkout / "scripts" / "demo")], check=True, capture_output=True, timeout=60,
                   env={**os.environ, "PATH": os.environ.get("PATH", "")})


def test_the_demo_script_skips_pip_when_the_install_is_current(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "demo", checkout / "scripts" / "demo")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    bin_dir = checkout / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, body in (("python", FAKE_PYTHON), ("daimon-tui", "#!/usr/bin/env bash\nexit 0\n")):
        (bin_dir / name).write_text(body)
        (bin_dir / name).chmod((bin_dir / name).stat().st_mode | stat.S_IEXEC)
    calls = checkout / ".venv" / "calls"
    run_demo(checkout)
    assert calls.read_text().split() == ["pip"]
    run_demo(checkout)
    assert calls.read_text().split() == ["pip"], "the second launch ran pip again"
    # A changed project file is a new install.
    (checkout / "pyproject.toml").write_text((checkout / "pyproject.toml").read_text() + "\n# changed\n")
    run_demo(checkout)
    assert calls.read_text().split() == ["pip", "pip"]
