"""The receipt audit after a confirmation runs again only when the session
files changed: a ledger write (a verb, a resolution from elsewhere) leaves the
receipts, and their count, as they were."""

from __future__ import annotations

from daimon_briefing import store
from daimon_briefing.surfaces import Writer

from daimon_tui.store.child import judge_service
from daimon_tui.store.demo import builder as demo
from daimon_tui.ui.app import DaimonTUI
from daimon_tui.ui.briefing.screen import BriefingScreen
from tests.ui.settle import settle

NOW = demo.DEMO_NOW.timestamp()


async def test_the_audit_reruns_only_when_session_files_change(demo_store: demo.DemoStore, monkeypatch) -> None:
    audits: list[str] = []
    read = judge_service.read

    async def counted(what, project, *args):
        if what == "audit":
            audits.append(what)
        return await read(what, project, *args)

    monkeypatch.setattr(judge_service, "read", counted)
    app = DaimonTUI(project_path=str(demo_store.project), now=NOW)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, rounds=6)
        screen = app.screen
        assert isinstance(screen, BriefingScreen)
        assert len(audits) == 1 and screen.receipt_failures == 1  # S-day2 is tampered
        item = screen.briefing.items()[0].id
        assert store.append_event(item, "resolved", source="ui", project_dir=str(demo_store.project),
                                  writer=Writer.HUMAN)
        screen.load()
        await settle(pilot, rounds=6)
        assert item not in {i.id for i in screen.briefing.items()}
        assert len(audits) == 1 and screen.receipt_failures == 1  # events only: not audited again
        demo.tamper(demo_store.checkpoint_dir, "S-day1")
        screen.load()
        await settle(pilot, rounds=6)
        assert len(audits) == 2 and screen.receipt_failures == 2
