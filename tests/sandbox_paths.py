"""Where test sandboxes live, and how their random part is hidden in snapshots.

A sandbox is private to one test (`tempfile.mkdtemp`), so concurrent runs never
wipe each other's stores. daimon derives project slugs and quarantine ids from
the sandbox's path, and both reach the screen; snapshots therefore mask them.
"""

from __future__ import annotations

import re
import tempfile
import zlib
from pathlib import Path

SANDBOX_PREFIX = "dtui-"

# mkdtemp's random part: eight characters from this alphabet.
_SANDBOX_TOKEN = re.compile(r"dtui-[a-z0-9_]{8}(?=[-/])")
# A quarantine id hashes the project slug, which holds the sandbox's path.
_QUARANTINE_ID = re.compile(r"\btr-[0-9a-f]{12}\b")
_SVG_ID = re.compile(r"terminal-\d+")


def sandbox_base() -> str:
    """A base of fixed length, whatever TMPDIR says, so that path-derived text
    keeps its width (and its line breaks) on screen from run to run."""
    fixed = Path("/tmp")
    return str(fixed) if fixed.is_dir() else tempfile.gettempdir()


def mask_svg(svg: str) -> str:
    """The screenshot with every run-specific token replaced by one of equal width.

    Rich names the SVG's styles after a checksum of the text, so that name is
    recomputed from the masked text."""
    masked = _SANDBOX_TOKEN.sub("dtui-XXXXXXXX", svg)
    masked = _QUARANTINE_ID.sub("tr-XXXXXXXXXXXX", masked)
    if masked == svg:
        return svg
    stable = "terminal-" + str(zlib.adler32(_SVG_ID.sub("terminal-", masked).encode()))
    return _SVG_ID.sub(stable, masked)
