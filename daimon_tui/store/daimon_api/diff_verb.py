"""daimon's `diff` verb, step by step, without its usage line.

`cli.history._cmd_diff` appends a usage line to the store before it reads; a
headless report writes nothing. So its steps run here in its order, on its
public names (`view.snapshot`, `view.pointers`, `cli.history.changes`,
`SCHEMA_VERSION`, `config.checkpoint_history`), in full and in safe mode. Its
private helpers (`_pointer_entry`, `_pick`, `_endpoint`, `_diff_lines`,
`_chain_line`) are mirrored, each beside its rule; the differential tests
(tests/test_diff_cli.py, tests/store/test_differential.py) hold the mirror to
daimon's bytes and exit codes, plain and `--json`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from daimon_briefing import config, store, view


class Answer(NamedTuple):
    """daimon's answer: `payload` and `lines` when it answered, else its
    refusal `message` and exit code; `ends` the two generations compared
    (`checkpoint` is daimon's `view.Opened`), for what we say beside it."""

    rc: int
    payload: dict[str, Any] | None
    lines: tuple[str, ...]
    message: str | None
    ends: tuple[dict[str, Any], ...]


def _entry(pointer: view.Pointer) -> dict[str, Any]:
    """`_pointer_entry`: 0 is latest.json, N prev-N.json; a torn pointer stays listed, unreadable."""
    meta = pointer.meta
    return {
        "index": 0 if pointer.ref == "latest" else int(pointer.ref.split("-")[1]),
        "pointer": f"{pointer.ref}.json",
        "checkpoint": pointer.opened if pointer.readable else None,
        "session_id": meta.session_id if meta else None,
        "created": meta.created if meta else None,
    }


def _end(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """`_endpoint`: the JSON shape of one end, in its key order."""
    if entry is None:
        return None
    return {key: entry[key] for key in ("index", "pointer", "session_id", "created")}


def _pick(entries: list[dict[str, Any]], frm: int | None, to: int | None
          ) -> tuple[dict | None, dict | None, list[dict], int, str | None]:
    """`_pick`: no address, the latest readable pair (a torn one between skipped
    and listed); a named generation is never substituted: torn is refused (1),
    absent or out of order is refused (2)."""
    by_index = {e["index"]: e for e in entries}
    skipped = [{"index": e["index"], "pointer": e["pointer"], "reason": "unreadable"}
               for e in entries if e["checkpoint"] is None]
    if frm is None and to is None:
        readable = [e for e in entries if e["checkpoint"] is not None]
        if len(readable) < 2:
            return None, None, skipped, 0, None
        return readable[1], readable[0], skipped, 0, None
    frm, to = (1 if frm is None else frm), (0 if to is None else to)
    if frm <= to:
        return None, None, skipped, 2, ("--from must be older than --to: generation 0 is the latest "
                                        "checkpoint and a larger number is further back")
    for index in (frm, to):
        entry = by_index.get(index)
        if entry is None:
            return None, None, skipped, 2, (f"no checkpoint {index} generations back in this project "
                                            f"(retained: {len(entries)})")
        if entry["checkpoint"] is None:
            return None, None, skipped, 1, f"{entry['pointer']} is unreadable, so generation {index} cannot be compared"
    return by_index[frm], by_index[to], skipped, 0, None


_MARKERS = {"added": "+", "restated": "~", "retagged": "~", "withheld": "?"}


def _change_line(row: dict[str, Any]) -> str:
    """`_change_line`: marker, change, [id] [trust] [kind] text (detail) in where."""
    text = row["text"] or "(content unavailable)"
    detail = f" ({row['detail']})" if row["detail"] else ""
    where = f" in {row['where']}" if row["where"] else ""
    return (f"{_MARKERS.get(row['change'], '-')} {row['change']:<10} [{row['item_id']}] "
            f"[{row['trust'] or 'untagged'}] [{row['kind']}] {text}{detail}{where}")


def _lines(payload: dict[str, Any], oldest: str) -> list[str]:
    """`_diff_lines` (with `_chain_line`): the plain text, from the --json payload."""
    lines = [f"Project: {payload['project_slug']}"]
    if payload["truncated"]:
        lines.append(f"Chain: {payload['retained']} retained (DAIMON_CHECKPOINT_HISTORY={payload['history']}) — "
                     f"anything before {oldest} is not in this chain and cannot be read here.")
    lines += [f"skipped {row['pointer']} ({row['reason']})" for row in payload["skipped"]]
    if payload["from"] is None:
        return [*lines, "only one readable checkpoint in this chain — nothing to compare yet"]
    for label, end in (("From", payload["from"]), ("To  ", payload["to"])):
        lines.append(f"{label}: {end['pointer']} ({end['session_id']}, {end['created']})")
    if not payload["changes"]:
        return [*lines, "no changes between these two checkpoints"]
    return lines + [_change_line(row) for row in payload["changes"]]


def answer(target: str, frm: int | None, to: int | None) -> Answer:
    """`daimon diff [--from frm] [--to to]` of the project `target` (a directory or a slug)."""
    from daimon_briefing.cli import history  # daimon's CLI module: imported when a diff is asked for

    snap = view.snapshot(target)
    entries = [_entry(p) for p in view.pointers(target, snap=snap)]
    older, newer, skipped, rc, message = _pick(entries, frm, to)
    if message is not None:
        return Answer(rc, None, (), message, ())
    if not any(e["checkpoint"] is not None for e in entries):
        return Answer(1, None, (), "no checkpoints in this project yet — nothing to compare", ())
    depth = config.checkpoint_history()
    rows = [] if older is None or newer is None else history.changes(older["checkpoint"], newer["checkpoint"], snap)
    payload = {
        "schema_version": history.SCHEMA_VERSION,
        "project_slug": store.project_slug(target),
        "history": depth,
        "retained": len(entries),
        "truncated": len(entries) >= depth,
        "from": _end(older),
        "to": _end(newer),
        "skipped": skipped,
        "changes": rows,
    }
    return Answer(0, payload, tuple(_lines(payload, entries[-1]["pointer"])), None,
                  tuple(e for e in (older, newer) if e is not None))
