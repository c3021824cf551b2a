"""Hostile stores: items full of terminal escapes and markup, and broken files.

Every store is written by daimon's own code (`daimon_briefing.testing`, the
demo helpers) inside its sandbox; the damage is then done by hand, the way a
crash, a bad sync or a hand edit would do it.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

import pytest
from daimon_briefing import store as dstore
from daimon_briefing.surfaces import Writer

from daimon_tui.domain.inert import is_unsafe
from daimon_tui.store.demo import builder as demo

NOW = demo.DEMO_NOW.timestamp()

# One of each way text can act on a terminal or a markup parser.
PAYLOADS = {
    "csi": "\x1b[2J\x1b[31mred",
    "osc8": "\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\",
    "osc52": "\x1b]52;c;cm0gLXJmIH4K\x07",
    "c1": "\x9b31m\x9d0;title\x9c",
    "backspace-cr": "safe\x08\x08\x08\x08evil\rOVERWRITTEN",
    "bidi": "\u202eexe.txt\u202c \u2066isolate\u2069",
    "zero-width": "zero\u200bwidth\u200d\ufeffjoin",
    "markup": "[bold red]x[/] [@click=app.quit]quit[/] [link=https://evil.example]l[/link]",
}
MARKUP = "[bold red]x[/]"
HOSTILE_SESSION = "S-\x1b[31mevil\u202e"


def hostile_text(name: str) -> str:
    return f"Question {name} {PAYLOADS[name]} {MARKUP} end"


def unsafe_chars(text: str, *, allow: str = "\n") -> set[str]:
    """Characters in `text` that could act on a terminal or hide text."""
    return {ch for ch in text if ch not in allow and is_unsafe(ch)}


def seed_hostile(project: Path) -> dict[str, str]:
    """One session whose every text field carries a payload; returns item ids by payload name."""
    cp = demo.session(HOSTILE_SESSION, demo.DEMO_NOW - timedelta(days=1), f"topic {PAYLOADS['osc52']} {MARKUP}")
    cp["working_context"]["open_questions"] = [
        {"text": hostile_text(name), "trust": "verbatim", "quote": f"quote {payload} {MARKUP}",
         "quote_verified": True, "because": f"because {payload}"}
        for name, payload in PAYLOADS.items()
    ]
    cp["working_context"]["recent_decisions"] = [
        {"text": f"Decision to close {PAYLOADS['csi']} {MARKUP}", "trust": "inferred"},
    ]
    cp["epistemic_snapshot"]["contradictions_flagged"] = [f"bare string {PAYLOADS['c1']} {MARKUP}"]
    demo.seed(project, cp)
    latest = dstore.read_latest_body(project_dir=str(project), route=dstore.Route.OWN, admit=dstore.Admit.ANY)
    ids = {}
    for item in latest["working_context"]["open_questions"]:
        for name in PAYLOADS:
            if item["text"] == hostile_text(name):
                ids[name] = item["id"]
    decision = latest["working_context"]["recent_decisions"][0]["id"]
    assert dstore.append_event(decision, "resolved", note=f"note {PAYLOADS['osc8']} {MARKUP}", source="ui",
                               project_dir=str(project), writer=Writer.HUMAN) is not False
    return ids


@pytest.fixture
def hostile_store(empty_store: demo.DemoStore) -> demo.DemoStore:
    seed_hostile(empty_store.project)
    return empty_store


def tree_hashes(root: Path) -> dict[str, str]:
    """SHA-256 of every file under `root` (symlinks by target text), to prove nothing was rewritten."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = "link:" + str(path.readlink())
        elif path.is_file():
            try:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                out[rel] = "unreadable"
        elif path.is_dir():
            out[rel] = "dir"
    return out
