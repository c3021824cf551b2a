"""The world's evidence behind a world-check claim, read offline and bounded.

A file claim: the lines it names (or the file's head) from the working tree,
and, when the file changed since the session, a unified diff of the path
from the session's commit (the newest first-parent commit of HEAD at or before
the session's time) to HEAD. A branch or commit claim: the commits involved,
ahead/behind the default branch and whether it is merged.

Everything goes through `gitread` (GitPython over GitDB: raw blobs, no git
process, so no hooks, filters, textconv or external diff) and the file
system inside the project only. A binary file is named, never shown.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from daimon_tui.domain.claims import Claim, ClaimKind, extract_claims
from daimon_tui.store.git.gitread import CommitInfo, NoRepository, RepoUnreadable, RepoView, info, open_repository

MAX_FILE_BYTES = 1024 * 1024  # read at most this much of a file or blob
MAX_LINES = 40  # lines of a file shown
MAX_DIFF_LINES = 200
# Lines of each side compared, at most: difflib's matching grows with lines
# times changes (35 s over 1 MB changed every hundred lines; 2,000: ~0.05 s).
MAX_DIFF_INPUT_LINES = 2000
MAX_COMMITS = 10  # commits listed each side
MAX_WALK = 2000  # commits walked to count ahead/behind


@dataclass(frozen=True, slots=True)
class FileEvidence:
    path: str
    note: str = ""  # why nothing is shown, or what is shown
    start: int = 1  # first line number of `lines`
    lines: tuple[str, ...] = ()
    named: tuple[int, int] | None = None  # the lines the claim names
    binary: bool = False
    size: int = 0
    hidden_after: int = 0
    diff: tuple[str, ...] = ()
    diff_from: str = ""  # "<short> <day>" of the session's commit
    diff_note: str = ""


@dataclass(frozen=True, slots=True)
class RefEvidence:
    subject: str
    note: str = ""
    tip: CommitInfo | None = None
    default: str = ""
    merged: bool | None = None
    ahead: tuple[CommitInfo, ...] = ()
    behind: tuple[CommitInfo, ...] = ()
    ahead_count: int = 0
    behind_count: int = 0
    counts_capped: bool = False


@dataclass(frozen=True, slots=True)
class WorldEvidence:
    files: tuple[FileEvidence, ...] = ()
    refs: tuple[RefEvidence, ...] = ()
    repo_error: str = ""
    session_time: str = ""
    errors: tuple[str, ...] = field(default_factory=tuple)

    @property
    def empty(self) -> bool:
        return not (self.files or self.refs)


def named_lines(text: str, path: str) -> tuple[int, int] | None:
    """The lines a claim names: `path:12`, `path:12-20`, `path#L12`, or
    "line 12" / "lines 12-20" in the same text."""
    esc = re.escape(path)
    for pattern in (esc + r"(?::|#L)(\d{1,7})(?:[-:]L?(\d{1,7}))?", r"\blines?\s+(\d{1,7})(?:\s*[-–]\s*(\d{1,7}))?"):
        m = re.search(pattern, text)
        if m:
            a = int(m.group(1))
            b = int(m.group(2)) if m.group(2) else a
            if a >= 1 and b >= a:
                return a, min(b, a + MAX_LINES - 1)
    return None


_PATH_MENTION = re.compile(r"(?<![\w/.~-])((?:[\w.-]+/)+[\w.-]*\w\.\w{1,10})(?![\w/])")


def mentioned_paths(text: str) -> list[str]:
    """Relative paths an item names without a claim about them ("whether
    src/x.py still reads …"): their lines are evidence too."""
    return [m.group(1) for m in _PATH_MENTION.finditer(text) if ".." not in m.group(1).split("/")]


def _binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


def _decode(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


def _inside(root: Path, rel: str) -> Path | None:
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or rel.startswith("~"):
        return None
    target = root / rel
    resolved = Path(os.path.realpath(target))
    if resolved != root and root not in resolved.parents:
        return None
    return target


def _session_commit(repo: RepoView, when: datetime | None) -> CommitInfo | None:
    head = repo.head_commit()
    if head is None or when is None:
        return None
    stamp = when.timestamp()
    for i, commit in repo.first_parent(head):
        if i > MAX_WALK:
            return None
        if commit.committed_date <= stamp:
            return info(commit)
    return None


def file_evidence(root: Path, repo: RepoView | None, rel: str, text: str, when: datetime | None) -> FileEvidence:
    target = _inside(root, rel)
    if target is None:
        return FileEvidence(path=rel, note="outside the project: not read")
    named = named_lines(text, rel)
    lines: tuple[str, ...] = ()
    start, hidden, size, binary, note = 1, 0, 0, False, ""
    current: bytes | None = None
    try:
        if target.is_file():
            size = target.stat().st_size
            with target.open("rb") as handle:
                current = handle.read(MAX_FILE_BYTES)
            if _binary(current):
                binary, note = True, f"binary file ({size:,} bytes): not shown"
            else:
                all_lines = _decode(current)
                if named is not None:
                    start = max(1, named[0] - 3)
                end = min(len(all_lines), start - 1 + MAX_LINES)
                lines = tuple(all_lines[start - 1:end])
                hidden = len(all_lines) - end
                if size > MAX_FILE_BYTES:
                    note = f"first {MAX_FILE_BYTES:,} of {size:,} bytes read"
        elif os.path.lexists(target):
            note = "not a regular file: not read"
        else:
            note = "not in the working tree"
    except OSError as exc:
        note = f"cannot be read ({type(exc).__name__})"
    diff, diff_from, diff_note = _diff(repo, root, rel, when)
    if repo is not None and current is not None and not _same_as_head(repo, root, rel, current):
        diff_note += "; the working tree differs from HEAD (not committed)"
    return FileEvidence(path=rel, note=note, start=start, lines=lines, named=named, binary=binary, size=size,
                        hidden_after=hidden, diff=diff, diff_from=diff_from, diff_note=diff_note)


def _diff(repo: RepoView | None, root: Path, rel: str, when: datetime | None) -> tuple[tuple[str, ...], str, str]:
    if repo is None:
        return (), "", "no repository: no history to compare"
    base = _session_commit(repo, when)
    head = repo.head_commit()
    if base is None or head is None:
        return (), "", "no commit at or before the session's time"
    try:
        prefix = root.resolve().relative_to(repo.worktree.resolve()).as_posix()
    except ValueError:
        return (), "", "the project is not inside the repository"
    path = rel if prefix in ("", ".") else f"{prefix}/{rel}"
    old_commit = repo.commit(base.hexsha)
    if old_commit is None:
        return (), "", "the session's commit cannot be read"
    since = f"{base.short} {base.day}"
    old_sha, new_sha = repo.blob_of(old_commit, path), repo.blob_of(head, path)
    if old_sha == new_sha:
        return (), since, "unchanged since the session's commit" if old_sha else "not tracked then or now"
    old = repo.read_blob(old_sha, MAX_FILE_BYTES) if old_sha else (b"", 0)
    new = repo.read_blob(new_sha, MAX_FILE_BYTES) if new_sha else (b"", 0)
    if old is None or new is None:
        return (), since, "a blob cannot be read"
    if _binary(old[0]) or _binary(new[0]):
        return (), since, f"binary file changed ({old[1]:,} → {new[1]:,} bytes): not shown"
    before, after = _decode(old[0]), _decode(new[0])
    cut = max(len(before), len(after)) > MAX_DIFF_INPUT_LINES
    lines = list(difflib.unified_diff(before[:MAX_DIFF_INPUT_LINES], after[:MAX_DIFF_INPUT_LINES], f"a/{path}",
                                      f"b/{path}", lineterm="", n=3))
    note = f"{base.short} (the session's commit) → HEAD {head.hexsha[:7]}"
    if cut:
        note += f"; first {MAX_DIFF_INPUT_LINES:,} lines compared"
    if len(lines) > MAX_DIFF_LINES:
        note += f"; first {MAX_DIFF_LINES} of {len(lines)} diff lines"
        lines = lines[:MAX_DIFF_LINES]
    return tuple(lines), since, note


def _same_as_head(repo: RepoView, root: Path, rel: str, current: bytes) -> bool:
    head = repo.head_commit()
    try:
        prefix = root.resolve().relative_to(repo.worktree.resolve()).as_posix()
    except ValueError:
        return True
    sha = repo.blob_of(head, rel if prefix in ("", ".") else f"{prefix}/{rel}") if head is not None else None
    blob = repo.read_blob(sha, MAX_FILE_BYTES) if sha else None
    return blob is not None and blob[0] == current


def _ahead(repo: RepoView, tip, other) -> tuple[list[CommitInfo], int, bool]:
    """Commits reachable from `tip` and not from `other` (bounded walk)."""
    seen_other: set[bytes] = set()
    stack = [other]
    walked = 0
    while stack and walked < MAX_WALK:
        c = stack.pop()
        if c.binsha in seen_other:
            continue
        seen_other.add(c.binsha)
        walked += 1
        try:
            stack.extend(c.parents)
        except Exception:
            continue
    capped = walked >= MAX_WALK
    out: list[CommitInfo] = []
    count = 0
    seen: set[bytes] = set()
    stack = [tip]
    while stack and count < MAX_WALK:
        c = stack.pop()
        if c.binsha in seen or c.binsha in seen_other:
            continue
        seen.add(c.binsha)
        count += 1
        if len(out) < MAX_COMMITS:
            out.append(info(c))
        try:
            stack.extend(c.parents)
        except Exception:
            continue
    return out, count, capped or count >= MAX_WALK


def ref_evidence(repo: RepoView, claim: Claim) -> RefEvidence:
    subject = claim.subject
    if claim.kind is ClaimKind.COMMIT:
        try:
            commit = repo.commit(subject)
        except ValueError:
            return RefEvidence(subject=subject, note="ambiguous abbreviation")
        if commit is None:
            return RefEvidence(subject=subject, note="no such commit in this repository")
        tip = commit
    else:
        tip = repo.heads().get(subject)
        if tip is None:
            sightings = repo.reflog_sightings(subject)
            last = f"; last seen in HEAD's reflog {sightings[-1].when:%Y-%m-%d}" if sightings else ""
            return RefEvidence(subject=subject, note=f"no local branch of that name{last}")
    default = repo.default_branch()
    if default is None:
        return RefEvidence(subject=subject, tip=info(tip), note="no default branch to compare with")
    name, base = default
    ahead, ahead_n, cap1 = _ahead(repo, tip, base)
    behind, behind_n, cap2 = _ahead(repo, base, tip)
    return RefEvidence(subject=subject, tip=info(tip), default=name, merged=ahead_n == 0, ahead=tuple(ahead),
                       behind=tuple(behind), ahead_count=ahead_n, behind_count=behind_n, counts_capped=cap1 or cap2)


def _when(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        return datetime.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def world_evidence(root: Path, text: str, quote: str | None, session_time: str | None) -> WorldEvidence:
    """The evidence for every file, branch and commit claim of an item. Never raises."""
    claims = [c for c in extract_claims(text, quote)
              if c.kind in (ClaimKind.FILE, ClaimKind.BRANCH, ClaimKind.COMMIT)]
    both = text + "\n" + (quote or "")
    named = {c.subject for c in claims if c.kind is ClaimKind.FILE}
    extra = [p for p in dict.fromkeys(mentioned_paths(both)) if p not in named]
    if not claims and not extra:
        return WorldEvidence()
    root = root.resolve()
    repo: RepoView | None = None
    repo_error = ""
    try:
        repo = open_repository(root)
    except (NoRepository, RepoUnreadable) as exc:
        repo_error = str(exc)
    except Exception as exc:  # a corrupt repository never ends the app
        repo_error = type(exc).__name__
    when = _when(session_time)
    files: list[FileEvidence] = []
    refs: list[RefEvidence] = []
    errors: list[str] = []
    seen: set[tuple[str, str]] = set()
    subjects = [(c.kind, c.subject, c) for c in claims] + [(ClaimKind.FILE, p, None) for p in extra]
    for kind, subject, claim in subjects:
        key = (kind.value, subject)
        if key in seen:
            continue
        seen.add(key)
        try:
            if kind is ClaimKind.FILE:
                files.append(file_evidence(root, repo, subject, both, when))
            elif repo is not None and claim is not None:
                refs.append(ref_evidence(repo, claim))
        except Exception as exc:
            errors.append(f"{kind.value} evidence failed ({type(exc).__name__})")
    return WorldEvidence(files=tuple(files), refs=tuple(refs), repo_error=repo_error,
                         session_time=session_time or "", errors=tuple(errors))
