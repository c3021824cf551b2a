"""Answer one claim against the project: confirmed, contradicted or unknown,
with evidence a person can check by hand.

Git is read through `gitread` (refs and objects only, no process); files only
inside the project root. Every untrusted name that reaches evidence (branch,
tag, path, author, commit summary) goes through `inert`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from daimon_tui.domain.claims import Claim, ClaimKind, Expect
from daimon_tui.domain.inert import inert
from daimon_tui.domain.probes import Finding, Outcome
from daimon_tui.store.git.worktree import NoRepository, RepoUnreadable, find_worktree
from daimon_tui.store.world import manifests

if TYPE_CHECKING:  # GitPython is imported only once there is a repository to read (`Prober`)
    from git.objects import Commit

    from daimon_tui.store.git.gitread import CommitInfo, RepoView


def info(commit: Commit) -> CommitInfo:
    """`gitread.info`, imported with GitPython when a probe first reads a commit."""
    from daimon_tui.store.git.gitread import info as commit_info

    return commit_info(commit)


def _n(value: object, limit: int = 200) -> str:
    return inert(value, limit=limit)


def _commit_words(c: CommitInfo) -> str:
    return f"{c.short} on {c.day} by {_n(c.author, 80)} (\u201c{_n(c.summary, 80)}\u201d)"


# Offline traces of a PR on the default branch: GitHub's merge-commit title and
# its squash-merge title suffix; issue-closing keywords.
_MERGE_PR = re.compile(r"^Merge pull request #(\d{1,7}) from (\S+)")
_SQUASH_PR = re.compile(r"\(#(\d{1,7})\)\s*$")
_CLOSES = re.compile(r"(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d{1,7})\b")
_MERGE_BRANCH = re.compile(r"^Merge (?:remote-tracking )?branch '([^']+)'")


# mutable because it is a builder: the walk of the default branch fills it commit by commit
@dataclass(slots=True)
class _PrIndex:
    merged: dict[str, CommitInfo]
    closed: dict[str, CommitInfo]
    merged_branches: dict[str, CommitInfo]
    scanned: int


class Prober:
    """Probes for one project, sharing one opened repository and its caches
    for a whole run. Never raises on a probe: a failure is `unknown`."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.repo: RepoView | None = None
        self.repo_error: str | None = None
        try:
            find_worktree(self.root)  # no repository: said without importing GitPython
            from daimon_tui.store.git.gitread import open_repository

            self.repo = open_repository(self.root)
        except (NoRepository, RepoUnreadable) as exc:
            self.repo_error = str(exc)
        except Exception as exc:  # a corrupt repository must not crash a check
            self.repo_error = f"{type(exc).__name__}: {exc}"
        self._pr_index: _PrIndex | None = None
        self._cache: dict[tuple[str, str, str, str | None], Finding] = {}

    def probe(self, claim: Claim) -> Finding:
        key = claim.key
        if key not in self._cache:
            try:
                self._cache[key] = self._probe(claim)
            except Exception as exc:
                self._cache[key] = Finding(
                    Outcome.UNKNOWN, "probe-error", f"probe failed: {_n(type(exc).__name__)}"
                )
        return self._cache[key]

    def _probe(self, claim: Claim) -> Finding:
        if claim.kind is ClaimKind.FILE:
            return self._file(claim)
        if claim.kind is ClaimKind.DEPENDENCY:
            return self._dependency(claim)
        if self.repo is None:
            return Finding(
                Outcome.UNKNOWN, "no-repository", f"repository not readable: {_n(self.repo_error)}"
            )
        if claim.kind is ClaimKind.BRANCH:
            return self._branch(self.repo, claim)
        if claim.kind is ClaimKind.TAG:
            return self._tag(self.repo, claim)
        if claim.kind is ClaimKind.COMMIT:
            return self._commit(self.repo, claim)
        return self._pr(self.repo, claim)

    # --- branches ---

    def _branch(self, repo: RepoView, claim: Claim) -> Finding:
        name, shown = claim.subject, _n(claim.subject)
        tip = repo.heads().get(name)
        exists = name in repo.heads()
        if claim.expect in (Expect.EXISTS, Expect.MISSING):
            if exists:
                at = f" at {info(tip).short} ({info(tip).day})" if tip is not None else ""
                outcome = Outcome.CONFIRMED if claim.expect is Expect.EXISTS else Outcome.CONTRADICTED
                return Finding(outcome, "ref-exists", f"branch {shown} exists{at}")
            outcome = Outcome.CONFIRMED if claim.expect is Expect.MISSING else Outcome.CONTRADICTED
            return Finding(outcome, "no-such-ref", self._gone_words(repo, name))
        merged_by = self._merge_trace(repo, name)
        default = repo.default_branch()
        if default is None:
            return Finding(Outcome.UNKNOWN, "no-default-branch", "no default branch to compare with")
        base_name, base = default
        if name == base_name:
            return Finding(Outcome.UNKNOWN, "is-default-branch", f"{shown} is the default branch")
        in_base = tip is not None and repo.is_ancestor(tip, base)
        if in_base or merged_by:
            how = (
                f"tip {info(tip).short} is in {_n(base_name)}"
                if in_base and tip is not None
                else f"merged into {_n(base_name)} by {_commit_words(merged_by)}"
            )  # type: ignore[arg-type]
            outcome = Outcome.CONFIRMED if claim.expect is Expect.MERGED else Outcome.CONTRADICTED
            return Finding(outcome, "merged", f"branch {shown}: {how}")
        if tip is None:
            return Finding(
                Outcome.UNKNOWN,
                "no-such-ref",
                f"{self._gone_words(repo, name)}; no merge commit names it on {_n(base_name)}",
            )
        if claim.expect is Expect.UNMERGED:
            return Finding(
                Outcome.CONFIRMED,
                "not-merged",
                f"branch {shown} tip {info(tip).short} is not in {_n(base_name)}",
            )
        return Finding(
            Outcome.UNKNOWN,
            "not-in-history",
            f"branch {shown} tip {info(tip).short} is not in {_n(base_name)}; "
            "a squash or rebase merge leaves no trace offline",
        )

    def _gone_words(self, repo: RepoView, name: str) -> str:
        words = f"no ref {_n(name)}"
        sightings = repo.reflog_sightings(name)
        if sightings:
            last = sightings[-1]
            words += (
                f"; HEAD's reflog last shows it {last.when:%Y-%m-%d} (\u201c{_n(last.message, 120)}\u201d)"
            )
        remote = sorted(r for r in repo.remote_branches() if r.split("/", 1)[-1] == name)
        if remote:
            words += f"; {_n(remote[0])} still exists"
        return words

    def _merge_trace(self, repo: RepoView, branch: str) -> CommitInfo | None:
        index = self._prs(repo)
        return index.merged_branches.get(branch) if index else None

    # --- tags and commits ---

    def _tag(self, repo: RepoView, claim: Claim) -> Finding:
        shown = _n(claim.subject)
        target = repo.tags().get(claim.subject)
        if target is not None:
            outcome = Outcome.CONFIRMED if claim.expect is Expect.EXISTS else Outcome.CONTRADICTED
            return Finding(
                outcome, "ref-exists", f"tag {shown} exists (\u2192 {target[:7] or 'unreadable object'})"
            )
        outcome = Outcome.CONFIRMED if claim.expect is Expect.MISSING else Outcome.CONTRADICTED
        return Finding(outcome, "no-such-ref", f"no tag {shown}")

    def _commit(self, repo: RepoView, claim: Claim) -> Finding:
        try:
            commit = repo.commit(claim.subject)
        except ValueError:
            return Finding(Outcome.UNKNOWN, "ambiguous", f"{_n(claim.subject)} names more than one object")
        if commit is None:
            if repo.is_shallow():
                return Finding(
                    Outcome.UNKNOWN, "shallow", f"no commit {_n(claim.subject)} in this shallow clone"
                )
            return Finding(
                Outcome.CONTRADICTED, "no-such-object", f"no commit {_n(claim.subject)} in this repository"
            )
        words = f"commit {_commit_words(info(commit))}"
        default = repo.default_branch()
        if default is not None:
            on = repo.is_ancestor(commit, default[1])
            words += f"; {'on' if on else 'not on'} {_n(default[0])}"
        return Finding(Outcome.CONFIRMED, "object-exists", words)

    # --- PRs and issues, inferred from the default branch's history ---

    def _prs(self, repo: RepoView) -> _PrIndex | None:
        if self._pr_index is None:
            default = repo.default_branch()
            if default is None:
                return None
            index = _PrIndex({}, {}, {}, 0)
            for i, commit in repo.first_parent(default[1]):
                c = info(commit)
                index.scanned = i + 1
                m = _MERGE_PR.match(c.summary)
                if m:
                    index.merged.setdefault(m.group(1), c)
                    source = m.group(2)
                    index.merged_branches.setdefault(source.split("/", 1)[-1], c)
                else:
                    s = _SQUASH_PR.search(c.summary)
                    if s:
                        index.merged.setdefault(s.group(1), c)
                b = _MERGE_BRANCH.match(c.summary)
                if b:
                    index.merged_branches.setdefault(b.group(1), c)
                for num in _CLOSES.findall(c.message):
                    index.closed.setdefault(num, c)
            self._pr_index = index
        return self._pr_index

    def _pr(self, repo: RepoView, claim: Claim) -> Finding:
        index = self._prs(repo)
        if index is None:
            return Finding(Outcome.UNKNOWN, "no-default-branch", "no default branch to read merges from")
        num = claim.subject.lstrip("#")
        base = _n(repo.default_branch()[0])  # type: ignore[index]
        merged = index.merged.get(num)
        if merged is not None:
            outcome = Outcome.CONTRADICTED if claim.expect is Expect.OPEN else Outcome.CONFIRMED
            return Finding(
                outcome, "merged-offline", f"PR #{num} merged in {_commit_words(merged)} on {base}"
            )
        closed = index.closed.get(num)
        if closed is not None and claim.expect is not Expect.MERGED:
            outcome = Outcome.CONTRADICTED if claim.expect is Expect.OPEN else Outcome.CONFIRMED
            return Finding(outcome, "closed-offline", f"#{num} closed by {_commit_words(closed)} on {base}")
        return Finding(
            Outcome.UNKNOWN,
            "no-trace",
            f"no merge, squash or closing commit for #{num} in {index.scanned} commits of {base}; "
            "its state lives on the forge",
        )

    # --- files ---

    def _file(self, claim: Claim) -> Finding:
        rel, shown = claim.subject, _n(claim.subject)
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts or rel.startswith("~"):
            return Finding(Outcome.UNKNOWN, "escapes-root", f"{shown} is not inside the project")
        target = self.root / rel
        resolved = Path(os.path.realpath(target))
        if resolved != self.root and self.root not in resolved.parents:
            return Finding(Outcome.UNKNOWN, "escapes-root", f"{shown} resolves outside the project")
        exists = os.path.lexists(target)
        if exists:
            outcome = Outcome.CONFIRMED if claim.expect is Expect.EXISTS else Outcome.CONTRADICTED
            return Finding(outcome, "path-exists", f"{shown} exists in the working tree")
        outcome = Outcome.CONFIRMED if claim.expect is Expect.MISSING else Outcome.CONTRADICTED
        return Finding(outcome, "no-such-path", f"no {shown} in the working tree{self._removal_words(rel)}")

    def _removal_words(self, rel: str) -> str:
        repo = self.repo
        if repo is None:
            return ""
        head = repo.head_commit()
        if head is None:
            return ""
        try:
            prefix = self.root.relative_to(repo.worktree.resolve()).as_posix()
        except ValueError:
            return ""
        path = rel if prefix in ("", ".") else f"{prefix}/{rel}"
        if repo.has_path(head, path):
            return f"; still tracked at HEAD {head.hexsha[:7]} (deleted, not committed)"
        removal = self._find_removal(repo, head, path)
        if removal is None:
            return "; not at HEAD and no trace of it in the history searched"
        return f"; removed in {_commit_words(info(removal))}"

    def _find_removal(self, repo: RepoView, head: Commit, path: str) -> Commit | None:
        """The first-parent commit that dropped `path`: gallop back from HEAD
        (1, 2, 4, ... commits) to a commit that still has it, then bisect the
        gap. O(log n) tree lookups; if the path came and went several times in
        one gap, the removal found is one of them."""
        absent, step, present = 0, 1, None
        length = repo.chain_length(head)
        while present is None:
            probe = min(absent + step, length - 1)
            commit = repo.nth(head, probe)
            if commit is None:
                return None
            if repo.has_path(commit, path):
                present = probe
            elif probe == length - 1:
                return None
            else:
                absent, step = probe, step * 2
        while present - absent > 1:
            mid = (absent + present) // 2
            commit = repo.nth(head, mid)
            if commit is not None and repo.has_path(commit, path):
                present = mid
            else:
                absent = mid
        return repo.nth(head, absent)

    # --- dependencies ---

    def _dependency(self, claim: Claim) -> Finding:
        name, claimed = _n(claim.subject, 80), claim.version or ""
        for pins in manifests.pins_for(self.root, claim.subject):
            where = _n(pins[0].file)
            versions = sorted({p.version for p in pins})
            if len(versions) > 1:
                return Finding(
                    Outcome.UNKNOWN,
                    "ambiguous",
                    f"{where} names {name} at {', '.join(_n(v, 40) for v in versions)}",
                )
            pin = pins[0]
            spec = _n(pin.spec, 120)
            if manifests.version_matches(pin.version, claimed):
                return Finding(Outcome.CONFIRMED, "version-match", f"{where}: {name} {spec}")
            if pin.exact:
                return Finding(
                    Outcome.CONTRADICTED, "version-mismatch", f"{where}: {name} {spec}, not {_n(claimed, 40)}"
                )
            return Finding(
                Outcome.UNKNOWN, "range", f"{where}: {name} {spec} is a range and no lockfile pins it"
            )
        return Finding(Outcome.UNKNOWN, "not-declared", f"no manifest or lockfile names {name}")
