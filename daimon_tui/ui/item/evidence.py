"""Into the person's own tools: copy an item's id, text or quote, open its
transcript at the quoted turn in `$PAGER` (else `$EDITOR`), or the file it names at its line
in `$EDITOR`, read-only, with the app suspended.

The pager gets a masked, inert copy of the transcript (written to a private
temporary file and deleted after), never the transcript file: the file still
holds what daimon forgot or quarantined. A named file is the project's own
file, opened read-only; it is never outside the project.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from daimon_tui.domain.inert import inert
from daimon_tui.ui.controller import Controller
from daimon_tui.ui.suspend import suspended

# `services.evidence` is imported where it is used, not here: it brings git and our world and
# transcript readers, and the first frame waits for every module imported at start.

if TYPE_CHECKING:
    from textual.app import App

    from daimon_tui.models import Item, ProjectRef

# Programs known to take `+LINE`; a read-only flag for the editors that have one.
_PLUS_LINE = {"less", "more", "most", "vi", "vim", "nvim", "view", "nano", "emacs", "micro", "kak", "hx", "helix"}
_READ_ONLY = {"vi": "-R", "vim": "-R", "nvim": "-R", "nano": "-v", "emacs": "--eval=(setq buffer-read-only t)"}


def command(program: str | None, path: Path, line: int, *, fallback: str = "less") -> list[str]:
    """The argv that shows `path` at `line` read-only in `program` (a `$PAGER`
    or `$EDITOR` value, split as a shell would, never run by a shell)."""
    argv = shlex.split(program or "") or [fallback]
    name = Path(argv[0]).name
    if name in _READ_ONLY:
        argv.append(_READ_ONLY[name])
    if name in _PLUS_LINE:
        argv.append(f"+{max(1, line)}")
    return [*argv, str(path)]


# What a program that could not be started returns (as a shell's "not found").
NOT_STARTED = 127


def run_suspended(app: App, argv: list[str]) -> int:
    """Run `argv` in the terminal, the app suspended and always taken back
    (`suspend.suspended`); headless (no terminal to hand over), it runs
    without one. A program that cannot be started is said, not raised."""
    try:
        try:
            with suspended(app):
                return subprocess.run(argv, check=False).returncode
        except SuspendNotSupported:
            return subprocess.run(argv, check=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode
    except OSError as error:
        app.notify(f"Could not run {inert(argv[0], limit=80)}: {error.strerror or type(error).__name__}",
                   severity="error")
        return NOT_STARTED


class EvidenceController(Controller):
    """The `Evidence` keys (registry group) of a screen with an item under its
    cursor: the screen's `action_copy`, `action_open_transcript` and
    `action_open_file` hand them here. The briefing and the item view own one each."""

    def __init__(self, project: ProjectRef, current_item: Callable[[], Item | None]) -> None:
        super().__init__()
        self.project = project  # whose transcripts and files are read
        self.current_item = current_item

    def _item_or_say(self) -> Item | None:
        item = self.current_item()
        if item is None:
            self.app.notify("No item under the cursor (daimon shows nothing of a withheld one).")
        return item

    def copy(self, what: str) -> None:
        item = self._item_or_say()
        if item is None:
            return
        value = {"id": item.id, "text": item.text, "quote": item.quote}.get(what)
        if not value:
            self.app.notify(f"This item has no {what} to copy.", severity="warning")
            return
        self.app.copy_to_clipboard(value)
        self.app.notify(f"Copied the {what} ({len(value):,} chars).")

    async def open_transcript(self) -> None:
        from daimon_tui.services import evidence as evidence_service
        item = self._item_or_say()
        if item is None or not item.id:
            return
        full = await evidence_service.full_transcript(self.project, item.id)
        if full.unavailable:
            self.app.notify(f"Transcript not shown: {inert(full.unavailable, limit=200)}", severity="warning")
            return
        with tempfile.TemporaryDirectory(prefix="daimon-tui-") as folder:
            path = Path(folder) / f"transcript-{item.id}.txt"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(full.text)
            # No $PAGER: the person's $EDITOR (read-only) before a `less` they may not have.
            program = os.environ.get("PAGER") or os.environ.get("EDITOR")
            run_suspended(self.app, command(program, path, full.line))

    async def open_file(self) -> None:
        from daimon_tui.services import evidence as evidence_service
        item = self._item_or_say()
        if item is None:
            return
        if not self.project.path:
            self.app.notify("The project directory is not known (opened by slug).", severity="warning")
            return
        root = Path(self.project.path)
        world = await evidence_service.world_evidence(root, item)
        shown = next((f for f in world.files if f.lines), None)
        if shown is None:
            self.app.notify("This item names no readable text file in the project.", severity="warning")
            return
        line = shown.named[0] if shown.named else 1
        program = os.environ.get("EDITOR") or os.environ.get("PAGER")
        run_suspended(self.app, command(program, root / shown.path, line))
