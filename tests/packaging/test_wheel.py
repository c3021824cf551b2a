"""The wheel carries the styles: built, installed into a fresh venv (not
editable) and run headless from there, the briefing has its borders."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run inside the fresh venv, away from the checkout: the installed package only.
SMOKE = textwrap.dedent("""
    import asyncio, pathlib, sys
    import daimon_tui
    from daimon_tui.store.demo import builder as demo
    from daimon_tui.ui.app import DaimonTUI
    from daimon_tui.ui.style_sheets import STYLES

    installed = pathlib.Path(daimon_tui.__file__).resolve()
    assert pathlib.Path(sys.prefix).resolve() in installed.parents, installed
    assert STYLES == installed.parent / "styles", STYLES
    assert sorted(p.name for p in STYLES.glob("*.tcss")), "no style sheet shipped"

    async def main() -> None:
        with demo.demo_store() as store:
            app = DaimonTUI(project_path=str(store.project), now=demo.DEMO_NOW.timestamp())
            async with app.run_test(size=(120, 40)) as pilot:
                for _ in range(50):
                    await pilot.pause(0.1)
                    if app.screen.query("#items-box"):
                        break
                box = app.screen.query_one("#items-box")
                assert box.styles.border_top[0] == "round", box.styles.border_top
                print("STYLED", box.styles.border_top[0])

    asyncio.run(main())
""")


@pytest.mark.slow
def test_the_wheel_ships_the_styles_and_the_installed_app_uses_them(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q", "-w", str(wheels),
         str(ROOT)], capture_output=True, text=True, timeout=600,
    )
    if built.returncode != 0 and "setuptools" in built.stderr and "find" in built.stderr.lower():
        pytest.skip(f"the build backend cannot be fetched here: {built.stderr[-300:]}")
    assert built.returncode == 0, built.stderr
    wheel = next(wheels.glob("daimon_tui-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # The dependencies come from this environment (offline), after the venv's own packages;
    # this environment's editable daimon_tui is not on that path (its .pth files are not read).
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check",
                    "-q", "--target", str(site), str(wheel)], check=True, timeout=300)
    # Nor a PYTHONPATH naming a checkout (a worktree's tests run that way): the installed package only.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([python, "-c", SMOKE], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "STYLED round" in run.stdout
