"""The styles ship inside the package: top-level `styles/` is their source, and
the wheel carries a copy as `daimon_tui/styles/` (see `daimon_tui.ui.style_sheets.STYLES`)."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "styles"


class BuildWithStyles(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "daimon_tui" / "styles"
        target.mkdir(parents=True, exist_ok=True)
        for sheet in sorted(SOURCE.glob("*.tcss")):
            self.copy_file(str(sheet), str(target / sheet.name))


setup(cmdclass={"build_py": BuildWithStyles})
