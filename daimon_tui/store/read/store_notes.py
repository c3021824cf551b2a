"""The files behind a project's briefing, checked before daimon reads them.

daimon reads a torn, empty or non-object `latest.json` as "no checkpoint", and
skips list fields of the wrong type in silence. A person needs to know which
file is broken; nothing here repairs or rewrites anything.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.store import paths
from daimon_tui.store.daimon_api.public import schema


def _plural(count: int, word: str, words: str) -> str:
    return f"{count} {word if count == 1 else words}"


# An item's fields daimon stores as text (besides `text`, counted above).
_TEXT_FIELDS = ("id", "trust", "quote", "because", "carried_from", "origin_session", "origin_author",
                "first_seen", "anchored_to")


def _shape_notes(checkpoint: Mapping, where: str) -> tuple[Diagnostic, ...]:
    """Item fields daimon skips because they hold the wrong type."""
    out: list[Diagnostic] = []
    for section in ("working_context", "epistemic_snapshot"):
        block = checkpoint.get(section)
        if block is not None and not isinstance(block, Mapping):
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {section} is a "
                                  f"{type(block).__name__}, not an object; its items are not shown"))
    for field, value in schema.iter_fields(dict(checkpoint)):
        name = f"{field.section}.{field.key}"
        if value is None:
            continue
        if field.singleton:
            if not isinstance(value, Mapping):
                out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} is a "
                                      f"{type(value).__name__}, not an item"))
            continue
        if not isinstance(value, list):
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} is a "
                                  f"{type(value).__name__}, not a list; nothing in it is shown"))
            continue
        strings_ok = field.key == "contradictions_flagged"
        odd = sum(1 for v in value if not (isinstance(v, Mapping) or (strings_ok and isinstance(v, str))))
        untexted = sum(1 for v in value if isinstance(v, Mapping) and not isinstance(v.get("text"), str))
        if odd:
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} holds "
                                  f"{_plural(odd, 'entry', 'entries')} that are not items; they are skipped"))
        if untexted:
            out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} holds "
                                  f"{_plural(untexted, 'item', 'items')} whose text is not a string"))
        for key in _TEXT_FIELDS:
            odd_typed = sum(1 for v in value if isinstance(v, Mapping) and v.get(key) is not None
                            and not isinstance(v.get(key), str))
            if odd_typed:
                out.append(Diagnostic(source="daimon-tui", message=f"{where}: {name} holds "
                                      f"{_plural(odd_typed, 'item', 'items')} whose {key} is not a string"))
    sid = checkpoint.get("session_id")
    if sid is not None and not isinstance(sid, str):
        out.append(Diagnostic(level="error", source="daimon-tui",
                              message=f"{where}: session_id is a {type(sid).__name__}, not a string"))
    return tuple(out)


def _read_pointer(path: Path) -> tuple[Mapping | None, str | None]:
    """`latest.json` parsed by us (read-only), or why it cannot be."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read ({type(exc).__name__})"
    if not raw.strip():
        return None, "is empty"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"is not valid UTF-8 (byte {exc.start})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, f"is torn or not JSON ({str(exc)[:80]})"
    if not isinstance(data, dict):
        return None, f"holds a JSON {type(data).__name__}, not a checkpoint"
    return data, None


def store_notes(project: ProjectRef, checkpoint: Mapping | None) -> tuple[tuple[Diagnostic, ...], bool]:
    """Diagnostics about the files behind this project's briefing, and whether
    reading must be refused (a symlink leads outside the store). Never raises."""
    try:
        return _store_notes(project, checkpoint)
    except Exception as exc:  # a diagnostic pass never breaks the read
        failed = f"the store's files could not be checked ({type(exc).__name__})"
        return (Diagnostic(source="daimon-tui", message=failed),), False


def _store_notes(project: ProjectRef, checkpoint: Mapping | None) -> tuple[tuple[Diagnostic, ...], bool]:
    root = paths.checkpoint_root()
    bucket = paths.bucket_dir(project.slug)
    if bucket is None or not bucket.is_dir():
        return (), False
    # the one rule every reader follows (`paths.refusals`): a link out of the store, a FIFO
    notes = [Diagnostic(level="error", source="daimon-tui", message=m) for m in paths.refusals(project.slug)]
    if notes:
        return tuple(notes), True
    _root, why = paths.root_for_slug(project.slug)
    if why:
        notes.append(Diagnostic(source="daimon-tui", message=f"refused the bucket root: {why}"))
    latest = bucket / "latest.json"
    problem = paths.file_problem(latest, root)
    parsed = checkpoint
    if problem is None and checkpoint is None and latest.exists():
        parsed, problem = _read_pointer(latest)
    if problem:
        notes.append(Diagnostic(level="error", source="daimon-tui", message=f"{latest} {problem}: daimon "
                                "reads no checkpoint for this project until the next capture rewrites it"))
    if isinstance(parsed, Mapping):
        notes.extend(_shape_notes(parsed, str(latest)))
        sid = parsed.get("session_id")
        session_file = paths.contained(root, sid, ".json")
        if isinstance(sid, str) and session_file is None:
            notes.append(Diagnostic(level="error", source="daimon-tui", message=f"{latest} names session "
                                    f"{sid!r:.80}, which is not a safe file name: refused"))
        elif session_file is not None and not session_file.is_file():
            notes.append(Diagnostic(source="daimon-tui", message=f"{session_file} is missing: {latest} "
                                    f"points to session {sid}, whose own file (and receipt) is gone"))
    return tuple(notes), False
