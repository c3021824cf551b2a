"""Containment: paths read from the store stay inside the store.

Session ids, slugs, the bucket's `root` file and receipt locators are data
written by models, agents, teammates' sync and hand edits. Before any of them
becomes a path we read, it must name one component (no separator, no `..`)
and, symlinks resolved, land inside the directory it belongs to. daimon guards
its own session reads (its private contained-path check); these helpers guard ours and
tell the person what was refused.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from daimon_tui.store.daimon_api.public import config, store

# Names that are never a single, ordinary path component.
_BAD_COMPONENTS = frozenset({"", ".", ".."})


def inside(base: Path | str, candidate: Path | str) -> bool:
    """True when `candidate`, every symlink resolved, is `base` or below it
    (`base` resolved too). A symlink loop or an unresolvable path is outside."""
    try:
        root = Path(os.path.realpath(base))
        try:
            target = Path(os.path.realpath(candidate, strict=True))
        except FileNotFoundError:  # not there (yet): where it would land
            target = Path(os.path.realpath(candidate))
    except (OSError, ValueError, RuntimeError):  # ELOOP: a loop vouches for nothing
        return False
    return target == root or target.is_relative_to(root)


def safe_component(name: object, *, limit: int = 255) -> bool:
    """True when `name` can stand as ONE file name: a non-empty str, not `.`
    or `..`, no separator, no NUL or other control character, not absurdly long."""
    if not isinstance(name, str) or name in _BAD_COMPONENTS or len(name) > limit:
        return False
    return not any(ch in "/\\" or ord(ch) < 0x20 or ch == "\x7f" for ch in name)


def contained(base: Path | str, name: object, suffix: str = "") -> Path | None:
    """`base/<name><suffix>` when `name` is one safe component and the result,
    symlinks resolved, is inside `base`; else None (the caller reports it)."""
    if not safe_component(name):
        return None
    path = Path(base) / f"{name}{suffix}"
    return path if inside(base, path) else None


def slug_of(directory: Path | str) -> str:
    """daimon's slug of a directory (`-home-x-p` for /home/x/p)."""
    return store.project_slug(str(directory)) or ""


def checkpoint_root() -> Path:
    """The checkpoint dir daimon reads now (the sandbox's in tests)."""
    return Path(config.checkpoint_dir())


def bucket_dir(slug: str) -> Path | None:
    """The bucket directory for `slug`, or None when the slug is not daimon's
    own slug shape (the transform of `store.project_slug` leaves it unchanged)
    or the directory would fall outside the checkpoint dir."""
    if not safe_component(slug) or store.project_slug(slug) != slug:
        return None
    return contained(checkpoint_root(), slug)


def escaping_links(directory: Path, base: Path) -> Iterator[Path]:
    """Entries directly in `directory` that are symlinks resolving outside
    `base` (dangling links included: they point nowhere we vouch for)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if entry.is_symlink() and not inside(base, entry.path):
            yield Path(entry.path)


LINK_OUT = "is a symlink leading outside the store: refused, this project is not read until the link is removed"
NOT_REGULAR = ("is not a regular file (a FIFO, socket or device would block daimon's reader): refused, this project "
               "is not read until it is removed")


def refusals(slug: str | None, *, every_bucket: bool = False) -> tuple[str, ...]:
    """The one rule every reader follows before daimon opens a file: each
    entry of the checkpoint dir, and of the bucket `slug` (or of every bucket),
    that is a symlink leading outside the store or a file that would block a
    reader, named in one line. Empty: the store may be read. Never follows a
    link (only `realpath`, which opens nothing)."""
    try:
        root = checkpoint_root()
        dirs = [root]
        if every_bucket:
            with os.scandir(root) as entries:
                dirs += [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
        elif slug:
            bucket = bucket_dir(slug)
            if bucket is not None and bucket.is_dir() and not bucket.is_symlink():
                dirs.append(bucket)
    except OSError:
        return ()
    said = [f"{link} {LINK_OUT}" for d in dirs for link in escaping_links(d, root)]
    said += [f"{odd} {NOT_REGULAR}" for d in dirs for odd in special_files(d)]
    return tuple(said)


def root_for_slug(slug: str) -> tuple[str | None, str | None]:
    """The project directory a bucket's `root` file names, checked: `(root,
    None)` when it is an existing directory that daimon would file under this
    very slug, else `(None, why)`. A `root` pointing elsewhere (another
    project, `/etc`) would make every read follow it out of this bucket."""
    bucket = bucket_dir(slug)
    if bucket is None:
        return None, f"bucket name {slug!r} is not a daimon slug"
    root_file = bucket / "root"
    if not (root_file.exists() or root_file.is_symlink()):
        return None, None
    if not inside(checkpoint_root(), root_file):
        return None, f"{root_file} leads outside the checkpoint dir"
    raw = store.bucket_root(slug)
    if not raw:
        return None, f"{root_file} cannot be read"
    if "\n" in raw or "\x00" in raw or not os.path.isabs(raw):
        return None, f"{root_file} does not hold one absolute directory"
    if not os.path.isdir(raw):
        return None, f"{root_file} names a directory that does not exist"
    if store.project_slug(os.path.realpath(raw)) != slug and store.project_slug(raw) != slug:
        return None, f"{root_file} names a directory outside this project (it belongs to another bucket)"
    return raw, None


def file_problem(path: Path, base: Path) -> str | None:
    """Why `path` cannot be read as a plain file inside `base`, in words, or
    None when it can (or is simply absent: absence is daimon's to judge)."""
    if not (path.exists() or path.is_symlink()):
        return None
    if path.is_symlink() and not inside(base, path):
        return "is a symlink leading outside the store; refused"
    if path.is_dir():
        return "is a directory, not a file"
    if not path.is_file():
        return "is not a regular file" if path.exists() else "is a dangling symlink"
    try:
        with path.open("rb") as handle:
            handle.read(1)
    except OSError as exc:
        return f"cannot be read ({type(exc).__name__}: {exc.strerror or exc})"
    return None


def special_files(directory: Path) -> Iterator[Path]:
    """Entries directly in `directory` that are neither regular files nor
    directories once followed: FIFOs, sockets, devices. Opening a FIFO blocks
    a reader forever, so daimon must never be pointed at one."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        try:
            if not (entry.is_file() or entry.is_dir()) and os.path.exists(entry.path):
                yield Path(entry.path)
        except OSError:
            continue


def session_files_stamp() -> tuple | None:
    """What the receipt audit reads besides the ledgers: every file directly in
    the checkpoint dir (session checkpoints, their receipt sidecars) as (name,
    inode, size, mtime_ns). Equal stamps: the receipts judge the same. None
    when the directory cannot be listed (then the audit runs)."""
    try:
        with os.scandir(checkpoint_root()) as entries:
            files = [(e.name, st.st_ino, st.st_size, st.st_mtime_ns)
                     for e in entries if e.is_file(follow_symlinks=False) and (st := e.stat(follow_symlinks=False))]
    except OSError:
        return None
    return tuple(sorted(files))


def file_stamp(path: str | os.PathLike[str]) -> tuple | None:
    """A file's identity for "has it changed": inode, mtime, ctime (a chmod
    moves it) and size; None when it cannot be statted."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)
