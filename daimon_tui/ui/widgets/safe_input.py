"""A text input that neither a paste nor its replayed tail can drive.

Textual ends a bracketed paste at an ESC byte inside it and replays the rest
as keys, so a pasted ESC, CR or tab would act: cancel the dialog, submit it,
or (once the input lost focus) run the remaining letters as commands. While
such a tail is arriving (keys at machine speed right after a paste) only
printable characters are typed; every other key is swallowed. The length is
capped: a 100 KB paste is cut to fit.
"""

from __future__ import annotations

import time
from typing import ClassVar

from textual import events
from textual.widgets import Input


class SafeInput(Input):
    MAX_LENGTH: ClassVar[int] = 2000
    # A key this soon after a paste (or after the previous key of its tail) belongs to the paste.
    PASTE_TAIL_S: ClassVar[float] = 0.3

    def __init__(self, *args, max_length: int = 0, **kwargs) -> None:
        super().__init__(*args, max_length=max_length or self.MAX_LENGTH, **kwargs)
        self._tail_until = 0.0

    def _on_paste(self, event: events.Paste) -> None:
        self._tail_until = time.monotonic() + self.PASTE_TAIL_S
        event.stop()
        event.prevent_default()  # Input's own handler (next in the MRO) would paste it again, uncut
        # the first line only (a pasted CR never submits), cut to the room left
        line = event.text.splitlines()[0] if event.text else ""
        start, end = sorted(self.selection)
        room = self.max_length - (len(self.value) - (end - start))
        if line and room > 0:
            self.replace(line[:room], start, end)

    def _on_key(self, event: events.Key) -> None:
        # Textual then calls Input's own `_on_key` (the MRO), unless prevented here
        now = time.monotonic()
        if now < self._tail_until:
            self._tail_until = now + self.PASTE_TAIL_S
            if not event.is_printable:
                event.stop()
                event.prevent_default()
