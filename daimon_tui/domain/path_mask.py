"""The demo's paths, shown without its temporary directory.

The demo store lives in a fresh temporary directory (a random name, on a base
that differs by platform), and daimon names files by that path and by its slug
of it. For the demo only, both are shown as `<demo>`: what a person reads, and
what a snapshot records, is then the same wherever it runs. A real store's
paths are always shown as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

LABEL = "<demo>"


@dataclass(frozen=True, slots=True)
class PathMask:
    root: str  # the demo's temporary directory
    slug: str  # daimon's slug of `root`: the start of every bucket slug below it

    def apply(self, text: str) -> str:
        for known in (self.root, self.slug):
            if known:  # "" would match between every two characters
                text = text.replace(known, LABEL)
        return text
