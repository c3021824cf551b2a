"""Read a git repository's refs and objects without running anything it configures.

GitPython is opened with its pure-python object database (`odbt=GitDB`), so
reading refs, commits and trees spawns no process at all: no `git` binary, so
no fsmonitor, hooks, pager, external diff, filters or aliases can ever run.
Nothing here calls GitPython's porcelain wrappers (`iter_commits`, `is_dirty`,
`untracked_files`, `repo.git.*`), which would spawn git. As a second line of
defence the `Git` command object still gets a neutralising environment and
`-c` options, should any code path ever reach it.

Hostile repositories are also refused when they could hang a reader: the
repository config is read without `include`/`includeIf` (an include of
/dev/zero or a FIFO blocks forever) and only when it is a small regular file;
refs, packed-refs, the reflog and loose objects must be regular files.
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import gitdb
from git import Repo
from git.config import GitConfigParser
from git.exc import GitError
from git.objects import Commit, Tree

from daimon_tui.store.git.worktree import NoRepository as NoRepository  # named here too, for
from daimon_tui.store.git.worktree import RepoUnreadable as RepoUnreadable  # gitread's readers
from daimon_tui.store.git.worktree import find_worktree

# Environment and `-c` options for any git process GitPython might start.
SAFE_GIT_ENV: dict[str, str] = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_ALLOW_PROTOCOL": "file",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_EXTERNAL_DIFF": "",
    "GIT_ASKPASS": "",
    "SSH_ASKPASS": "",
}
SAFE_GIT_CONFIG: tuple[str, ...] = (
    "core.fsmonitor=false",
    f"core.hooksPath={os.devnull}",
    "core.pager=cat",
    "diff.external=",
    "core.untrackedCache=false",
    "protocol.allow=never",
)

_MAX_SMALL_FILE = 8 * 1024 * 1024  # config, packed-refs, reflog: larger is refused
_MAX_REF_ENTRIES = 200_000
_MAX_LOOSE_OBJECTS = 500_000


def _regular(path: Path, limit: int | None = _MAX_SMALL_FILE) -> bool:
    """True for a regular file (after symlinks) within `limit` bytes."""
    try:
        st = path.stat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and (limit is None or st.st_size <= limit)


class _SafeRepo(Repo):
    """GitPython's Repo, reading only the repository-level config, with no
    includes, and only when it is a small regular file."""

    def _config_reader(self, config_level=None, git_dir=None):  # type: ignore[override]
        path = Path(self._get_config_path("repository", git_dir))
        files = [str(path)] if _regular(path) else []
        return GitConfigParser(files, read_only=True, repo=self, merge_includes=False)


def _preflight(git_dir: Path, common_dir: Path) -> None:
    """Refuse a repository where reading a ref or object could block."""
    for base in {git_dir, common_dir}:
        for name in ("HEAD", "packed-refs", "logs/HEAD", "commondir", "shallow", "objects/info/alternates"):
            path = base / name
            if os.path.lexists(path) and not _regular(path):
                raise RepoUnreadable(f"{name} is not a small regular file")
    for top, limit in (
        (common_dir / "refs", _MAX_REF_ENTRIES),
        (git_dir / "refs", _MAX_REF_ENTRIES),
        (common_dir / "logs" / "refs", _MAX_REF_ENTRIES),
        (common_dir / "objects", _MAX_LOOSE_OBJECTS),
    ):
        count = 0
        for dirpath, dirnames, filenames in os.walk(top):
            # os.walk does not follow directory symlinks; a symlinked ref dir is refused below.
            for name in (*filenames, *dirnames):
                count += 1
                if count > limit:
                    raise RepoUnreadable(f"too many entries under {top.name}")
                full = Path(dirpath) / name
                if name in dirnames and not full.is_symlink():
                    continue
                if top.name == "objects" and name in dirnames:
                    raise RepoUnreadable("a symlinked object directory")
                if not _regular(full, limit=None):
                    raise RepoUnreadable(f"{full.relative_to(top.parent)} is not a regular file")


@dataclass(frozen=True, slots=True)
class CommitInfo:
    hexsha: str
    summary: str
    message: str
    author: str
    when: datetime

    @property
    def short(self) -> str:
        return self.hexsha[:7]

    @property
    def day(self) -> str:
        return self.when.strftime("%Y-%m-%d")


def info(commit: Commit) -> CommitInfo:
    message = commit.message if isinstance(commit.message, str) else commit.message.decode("utf-8", "replace")
    return CommitInfo(
        hexsha=commit.hexsha,
        summary=message.split("\n", 1)[0],
        message=message,
        author=str(commit.author.name or ""),
        when=datetime.fromtimestamp(commit.authored_date, UTC),
    )


@dataclass(frozen=True, slots=True)
class ReflogSighting:
    when: datetime
    message: str


# mutable because it holds the run's caches, filled as the probes ask
@dataclass(slots=True)
class RepoView:
    """One safely opened repository with the per-run caches the probes share:
    the first-parent walk of each start commit, ref name sets, path lookups."""

    repo: Repo
    worktree: Path
    git_dir: Path
    common_dir: Path
    _walks: dict[str, list[Commit]] = field(default_factory=dict)
    _walk_iters: dict[str, Iterator[Commit]] = field(default_factory=dict)
    _heads: dict[str, Commit | None] | None = None
    _tags: dict[str, str] | None = None
    _remotes: set[str] | None = None
    _subtrees: dict[tuple[bytes, str], tuple[bytes, int] | None] = field(default_factory=dict)
    _ancestors: dict[str, tuple[set[bytes], list[Commit]]] = field(default_factory=dict)
    _default: tuple[str, Commit] | bool | None = False

    # --- refs ---

    def heads(self) -> dict[str, Commit | None]:
        if self._heads is None:
            heads: dict[str, Commit | None] = {}
            for head in self.repo.heads:
                try:
                    heads[head.name] = head.commit
                except (ValueError, GitError, OSError, KeyError):
                    heads[head.name] = None  # a ref pointing at a missing object
            self._heads = heads
        return self._heads

    def tags(self) -> dict[str, str]:
        if self._tags is None:
            tags = {}
            for tag in self.repo.tags:
                try:
                    tags[tag.name] = tag.commit.hexsha
                except (ValueError, GitError, OSError, KeyError):
                    tags[tag.name] = ""
            self._tags = tags
        return self._tags

    def remote_branches(self) -> set[str]:
        if self._remotes is None:
            names = set()
            for ref in self.repo.refs:
                path = ref.path
                if path.startswith("refs/remotes/") and not path.endswith("/HEAD"):
                    names.add(path[len("refs/remotes/") :])
            self._remotes = names
        return self._remotes

    def default_branch(self) -> tuple[str, Commit] | None:
        """origin/HEAD's target when a local branch of that name exists, else
        main, master, trunk, develop, else the checked-out branch."""
        if self._default is not False:
            return self._default  # type: ignore[return-value]
        heads = self.heads()
        candidates = []
        origin_head = self.common_dir / "refs" / "remotes" / "origin" / "HEAD"
        if _regular(origin_head, 4096):
            text = origin_head.read_text("utf-8", "replace").strip()
            if text.startswith("ref: refs/remotes/origin/"):
                candidates.append(text[len("ref: refs/remotes/origin/") :])
        candidates += ["main", "master", "trunk", "develop"]
        try:
            if not self.repo.head.is_detached:
                candidates.append(self.repo.head.reference.name)
        except (TypeError, ValueError, GitError, OSError):
            pass
        self._default = next(((n, heads[n]) for n in candidates if heads.get(n) is not None), None)  # type: ignore[misc]
        return self._default  # type: ignore[return-value]

    def head_commit(self) -> Commit | None:
        try:
            return self.repo.head.commit
        except (ValueError, GitError, OSError, KeyError):
            return None

    def is_shallow(self) -> bool:
        return (self.common_dir / "shallow").exists()

    # --- history ---

    def first_parent(self, start: Commit) -> Iterator[tuple[int, Commit]]:
        """The first-parent chain from `start`, newest first, read lazily and
        cached per start commit for the whole run."""
        key = start.hexsha
        walk = self._walks.setdefault(key, [])
        if key not in self._walk_iters:
            self._walk_iters[key] = self._chain(start)
        i = 0
        while True:
            if i < len(walk):
                yield i, walk[i]
                i += 1
                continue
            nxt = next(self._walk_iters[key], None)
            if nxt is None:
                return
            walk.append(nxt)

    @staticmethod
    def _chain(start: Commit) -> Iterator[Commit]:
        commit: Commit | None = start
        seen: set[bytes] = set()
        while commit is not None and commit.binsha not in seen:
            seen.add(commit.binsha)
            yield commit
            try:
                commit = commit.parents[0] if commit.parents else None
            except (ValueError, GitError, OSError, KeyError):
                return  # shallow boundary or a missing object

    def nth(self, start: Commit, n: int) -> Commit | None:
        for i, commit in self.first_parent(start):
            if i == n:
                return commit
        return None

    def chain_length(self, start: Commit) -> int:
        count = 0
        for count, _ in self.first_parent(start):  # noqa: B007
            pass
        return count + 1

    def is_ancestor(self, candidate: Commit, of: Commit) -> bool:
        """Whether `candidate` is reachable from `of` (any parent), walking
        from `of` only as far back as `candidate`'s date allows (a day of
        clock skew tolerated). The visited set is cached per `of`."""
        if candidate.binsha == of.binsha:
            return True
        seen, frontier = self._ancestors.setdefault(of.hexsha, ({of.binsha}, [of]))
        if candidate.binsha in seen:
            return True
        floor = candidate.committed_date - 86400
        pending: list[Commit] = []
        while frontier:
            commit = frontier.pop()
            if commit.committed_date < floor:
                pending.append(commit)  # may be needed by an older candidate later
                continue
            try:
                parents = commit.parents
            except (ValueError, GitError, OSError, KeyError):
                continue
            for parent in parents:
                if parent.binsha not in seen:
                    seen.add(parent.binsha)
                    frontier.append(parent)
                    if parent.binsha == candidate.binsha:
                        frontier.extend(pending)
                        return True
        frontier.extend(pending)
        return candidate.binsha in seen

    # --- trees ---

    def has_path(self, commit: Commit, path: str) -> bool:
        """Whether `path` (repository-relative) is in `commit`'s tree; subtree
        lookups are cached by tree id, so walking history re-reads little."""
        return self._entry(commit, path) is not None

    def blob_of(self, commit: Commit, path: str) -> bytes | None:
        """The object id of `path`'s blob in `commit`'s tree, or None (absent, or a tree)."""
        found = self._entry(commit, path)
        return None if found is None or found[1] >> 12 == Tree.tree_id else found[0]

    def _entry(self, commit: Commit, path: str) -> tuple[bytes, int] | None:
        """`path`'s (object id, mode) in `commit`'s tree, or None."""
        try:
            sha, mode = commit.tree.binsha, Tree.tree_id << 12
        except (ValueError, GitError, OSError, KeyError):
            return None
        for part in path.split("/"):
            if not part or mode >> 12 != Tree.tree_id:
                return None
            key = (sha, part)
            if key not in self._subtrees:
                self._subtrees[key] = self._child(sha, part)
            found = self._subtrees[key]
            if found is None:
                return None
            sha, mode = found
        return sha, mode

    def read_blob(self, binsha: bytes, limit: int) -> tuple[bytes, int] | None:
        """Up to `limit` bytes of a blob, raw (no filter, no textconv), and its size."""
        try:
            stream = self.repo.odb.stream(binsha)
            return stream.read(limit), int(stream.size)
        except (ValueError, GitError, OSError, KeyError, gitdb.exc.BadObject):
            return None

    def _child(self, tree_sha: bytes, name: str) -> tuple[bytes, int] | None:
        try:
            tree = Tree(self.repo, tree_sha)
            for entry_sha, mode, entry_name in tree._cache:
                if entry_name == name:
                    return entry_sha, mode
        except (ValueError, GitError, OSError, KeyError):
            return None
        return None

    def commit(self, rev: str) -> Commit | None:
        """A commit by full or abbreviated id; None when absent. Raises
        ValueError for an ambiguous abbreviation."""
        try:
            obj = self.repo.rev_parse(rev)
        except gitdb.exc.AmbiguousObjectName as exc:
            raise ValueError("ambiguous") from exc
        except (ValueError, GitError, OSError, KeyError, gitdb.exc.BadObject, gitdb.exc.BadName):
            return None
        return obj if isinstance(obj, Commit) else None

    # --- reflog ---

    def reflog_sightings(self, branch: str) -> list[ReflogSighting]:
        """Entries of HEAD's reflog naming `branch` (checkouts, merges, resets),
        read straight from the file: deleting a branch deletes its own reflog
        but not HEAD's."""
        path = self.git_dir / "logs" / "HEAD"
        if not _regular(path):
            return []
        pattern = re.compile(r"(?<![\w./-])" + re.escape(branch) + r"(?![\w./-])")
        out = []
        for line in path.read_text("utf-8", "replace").splitlines():
            head, _, message = line.partition("\t")
            fields = head.rsplit(" ", 2)
            if len(fields) != 3 or not pattern.search(message):
                continue
            try:
                when = datetime.fromtimestamp(int(fields[1]), UTC)
            except (ValueError, OverflowError, OSError):
                continue
            out.append(ReflogSighting(when, message))
        return out


def _git_dirs(worktree: Path) -> tuple[Path, Path]:
    """The git dir and common dir of `worktree`, resolved by hand so they can be
    checked before GitPython reads anything in them."""
    dot = worktree / ".git"
    git_dir = dot
    if dot.is_file():
        text = dot.read_text("utf-8", "replace").strip()
        if not text.startswith("gitdir:"):
            raise RepoUnreadable(".git file does not name a gitdir")
        git_dir = Path(text.split(":", 1)[1].strip())
        if not git_dir.is_absolute():
            git_dir = worktree / git_dir
    common = git_dir / "commondir"
    if os.path.lexists(common):
        if not _regular(common, 4096):
            raise RepoUnreadable("commondir is not a small regular file")
        rel = common.read_text("utf-8", "replace").strip()
        return git_dir, (git_dir / rel) if rel else git_dir
    return git_dir, git_dir


def open_repository(root: Path) -> RepoView:
    """Open the repository holding `root` read-only and without running
    anything. Raises NoRepository or RepoUnreadable."""
    worktree = find_worktree(root)
    _preflight(*_git_dirs(worktree))
    try:
        with warnings.catch_warnings():
            # GitPython flags GitDB as slower; it is the backend that never spawns git.
            warnings.simplefilter("ignore", DeprecationWarning)
            repo = _SafeRepo(str(worktree), odbt=gitdb.GitDB, search_parent_directories=False)
    except (GitError, OSError, ValueError) as exc:
        raise RepoUnreadable(f"{type(exc).__name__}: {exc}") from exc
    repo.git.update_environment(**SAFE_GIT_ENV)
    repo.git.set_persistent_git_options(c=list(SAFE_GIT_CONFIG), no_pager=True)
    git_dir, common_dir = Path(repo.git_dir), Path(repo.common_dir)
    return RepoView(repo=repo, worktree=worktree, git_dir=git_dir, common_dir=common_dir)
