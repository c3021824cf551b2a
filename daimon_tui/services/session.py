"""The briefing session: which project, its first paint and daimon's
confirmation (asked of the judging child), the audit's receipt count, the
kill switch, recovery of an interrupted verb at start, and the judging child's
end with the app (at once: `process_end`). The screens decide what to show;
this module reads.

Live changes are `services.live`; the review's place `services.review`; the
project index `services.projects`."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

# The store's modules (and through them daimon and pydantic) are imported by
# the function that needs them: a later open draws its first frame from the
# kept layout (`services.kept_open`) before any of them is imported.
if TYPE_CHECKING:
    from daimon_tui.models import Briefing, ProjectRef
    from daimon_tui.models.writes import Recovered
    from daimon_tui.settings import Settings
    from daimon_tui.store.action_log import ActionLog


def read_settings() -> tuple[Settings, str | None]:
    """The person's settings, and a one-line problem when the file had to be ignored."""
    from daimon_tui.store.settings_file import load_settings

    return load_settings()


def settings_written() -> bool:
    """A settings file is there to read (else the defaults: no pydantic before the first frame)."""
    from daimon_tui.store.settings_place import config_path

    return os.path.lexists(config_path())


def writes_disabled() -> bool:
    """The kill switch: no verb writes while it is set."""
    from daimon_tui.store import kill_switch

    return kill_switch.writes_disabled()


def bucket_dir(slug: str) -> Path | None:
    """daimon's directory for the project `slug` (named in messages), or None."""
    from daimon_tui.store import paths

    return paths.bucket_dir(slug)


async def resolve_project(path: str | None = None, slug: str | None = None) -> ProjectRef:
    """The project as daimon finds it (a slug reads the bucket's `root` file)."""
    from daimon_tui.store.read import reader

    return await asyncio.to_thread(reader.resolve_project, path, slug)


def _first_look(project: ProjectRef) -> tuple[bool, int]:
    from daimon_tui.store.judging import verdict_cache
    from daimon_tui.store.read import reader

    if not reader.project_exists(project):
        return False, 0
    return True, verdict_cache.kept_receipt_failures(project.slug)


async def first_look(project: ProjectRef) -> tuple[bool, int]:
    """Does the bucket exist, and the audit's kept receipt count, so the
    screen opens with its banner in hand (one layout, one frame)."""
    return await asyncio.to_thread(_first_look, project)


def child_started() -> bool:
    """The judging child runs already (started before Textual): asking it costs the first frame nothing."""
    from daimon_tui.store.child import judge_service

    return judge_service.service().started()


def start_child(path: str | None, slug: str | None) -> None:
    """Start the judging child now, warming the project this open names (a kept
    first frame's open starts it once the frame is drawn, not before it)."""
    from daimon_tui.store.child import early_child

    early_child.spawn(path, slug)


def rest_child_after(seconds: float) -> None:
    """Give the judging child back once unused for `seconds` (0: keep it for the app's life)."""
    from daimon_tui.store.child import judge_service

    judge_service.service().rest_after(seconds)


def close_child() -> None:
    """The app ends: its judging child with it (none if none was ever asked for:
    then its module, and daimon with it, is not imported just to close nothing)."""
    if "daimon_tui.store.child.judge_service" not in sys.modules:
        return
    from daimon_tui.store.child import judge_service

    judge_service.service().close()


def ask_confirmation(project: ProjectRef, now: float | None) -> asyncio.Future[Briefing]:
    """daimon's confirmed briefing, asked of the judging child now (beside the provisional read)."""
    from daimon_tui.store.child import first_paint

    return asyncio.ensure_future(first_paint.confirm_async(project, now))


async def provisional(project: ProjectRef, now: float | None) -> Briefing | None:
    """From the pointer, the trust ledger and the verdict cache (no events fold); None: the confirmation answers."""
    from daimon_tui.store.child import first_paint

    try:
        return await asyncio.to_thread(first_paint.provisional_briefing, project, now)
    except Exception:  # the confirming read still answers
        return None


async def kept_receipt_failures(project: ProjectRef) -> int:
    """The audit's last count, while the session files are as it judged them."""
    from daimon_tui.store.judging import verdict_cache

    return await asyncio.to_thread(verdict_cache.kept_receipt_failures, project.slug)


async def _asked(pending: asyncio.Future[Briefing]) -> Briefing | None:
    """The confirmation the app asked for before the screen opened; None if it failed (it is asked again)."""
    if pending.cancelled():
        return None
    try:
        return await asyncio.shield(pending)
    except Exception:
        return None


async def confirmation(project: ProjectRef, now: float | None, pending: asyncio.Future[Briefing] | None,
                       shown: Callable[[Briefing], object]) -> Briefing:
    """daimon's full read, in the judging child (the fold neither holds our GIL nor adds to our memory)."""
    from daimon_tui.store.child import first_paint

    briefing = await _asked(pending) if pending is not None else None
    if briefing is None:
        briefing = await first_paint.confirm_async(project, now, shown=shown)
    return briefing


async def receipt_failures(project: ProjectRef, audited: tuple | None) -> tuple[tuple | None, int] | None:
    """Every session's receipt, checked natively by the judging child over the
    snapshot it holds: (the session files judged, the failures), or None when
    the files are as `audited` (a ledger write leaves them, and their count, as they were)."""
    from daimon_tui.store import paths
    from daimon_tui.store.child import judge_service
    from daimon_tui.store.judging import verdict_cache

    stamp = await asyncio.to_thread(paths.session_files_stamp)
    if stamp is not None and stamp == audited:
        return None
    report, _failure = await judge_service.read("audit", project)
    await asyncio.to_thread(verdict_cache.save_receipts, project.slug, stamp, report.receipt_failures)
    return stamp, report.receipt_failures


async def recover(log: ActionLog, project: ProjectRef) -> tuple[Recovered, ...]:
    """Settle every intent an earlier run logged but never finished (killed
    between the intent and the outcome), from daimon's ledgers. Never raises."""
    from daimon_tui.store.write import recovery

    return await asyncio.to_thread(recovery.recover, log, project)
