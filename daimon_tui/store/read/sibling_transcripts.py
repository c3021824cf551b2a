"""The project's other transcripts, where the app looks for a quote its named
transcript does not hold (the app's own search, never daimon's verdict): a
Claude Code project folder's other files; for a Codex rollout, the rollouts
Codex started in the same working directory (`session_meta.cwd`), on any day,
since Codex files every project's rollouts by date in one tree."""

from __future__ import annotations

from pathlib import Path

from daimon_tui.store.read import transcript_rows, transcript_source

# The project's other transcripts searched for a quote its named one lacks, at most.
MAX_ELSEWHERE = 200

Stamp = tuple[int, int, int] | None
Others = tuple[tuple[Path, Stamp], ...]
_cwds: dict[tuple[str, Stamp], str | None] = {}


def _cwd(path: Path, stamp: Stamp) -> str | None:
    """A rollout's working directory, kept per file identity (None: not a rollout)."""
    key = (str(path), stamp)
    if key not in _cwds:
        if len(_cwds) > 64 * transcript_source.KEPT:
            _cwds.clear()
        try:
            _cwds[key] = transcript_rows.rollout_cwd(path) if path.name.startswith("rollout-") else None
        except OSError:
            _cwds[key] = None
    return _cwds[key]


def _newest(found: list[tuple[Path, Stamp]]) -> list[tuple[Path, Stamp]]:
    return sorted(found, key=lambda f: f[1][2] if f[1] else 0, reverse=True)


def others(path: Path) -> Others:
    """The project's other transcripts, newest first, each with its identity
    (a file changed, added or removed changes the answer)."""
    try:
        cwd = _cwd(path, transcript_source.stamp_of(path))
        if cwd is None:
            return tuple(_newest([(p, transcript_source.stamp_of(p)) for p in path.parent.glob("*.jsonl")
                                  if p != path])[:MAX_ELSEWHERE])
        root = next((p for p in path.parents[:4] if p.name in ("sessions", "archived_sessions")), path.parent)
        rollouts = _newest([(p, transcript_source.stamp_of(p)) for p in root.rglob("rollout-*.jsonl") if p != path])
        return tuple(f for f in rollouts if _cwd(*f) == cwd)[:MAX_ELSEWHERE]
    except OSError:
        return ()
