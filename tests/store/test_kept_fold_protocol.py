"""The kept fold's job modules type against `KeptFoldJobs`, not `KeptFold`:
the object they are handed must still be all the protocol says."""

from __future__ import annotations

import inspect
import typing

from daimon_tui.store.judging import kept_fold
from daimon_tui.store.judging.kept_fold_protocol import KeptFoldJobs


def test_the_kept_fold_is_what_its_jobs_are_told_it_is() -> None:
    fields = typing.get_type_hints(KeptFoldJobs)
    held = kept_fold.KeptFold(kept_fold.KEPT.daimon)
    assert fields and all(hasattr(held, name) for name in fields), sorted(n for n in fields if not hasattr(held, n))
    methods = [name for name, value in vars(KeptFoldJobs).items() if inspect.isfunction(value) and name[0] != "_"]
    assert methods
    for name in methods:
        ours = inspect.signature(getattr(KeptFoldJobs, name))
        theirs = inspect.signature(getattr(kept_fold.KeptFold, name))
        assert list(ours.parameters) == list(theirs.parameters), name


def test_no_job_module_names_the_kept_fold() -> None:
    """The circle the protocol ends: a job importing `kept_fold`, which imports every job."""
    from pathlib import Path

    folder = Path(kept_fold.__file__).parent
    jobs = ["kept_fold_build", "kept_fold_hooks", "kept_fold_persist", "kept_fold_rows", "kept_fold_protocol"]
    named = [job for job in jobs if "judging.kept_fold import" in (folder / f"{job}.py").read_text(encoding="utf-8")
             or "judging.kept_fold_hooks import" in (folder / f"{job}.py").read_text(encoding="utf-8")]
    assert named == []
