"""A read that raises ends nothing: a detail read's failure is said in the
detail pane that asked (found by its class, `read_worker.FAILURE_PANE`), any
other read's as a notice; the rest keeps working."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App, ComposeResult

from daimon_tui.ui.read_worker import work
from daimon_tui.ui.widgets.item_detail import ItemDetail


class Reads(App[None]):
    def compose(self) -> ComposeResult:
        yield ItemDetail(id="detail")

    @work(group="detail")
    async def read_detail(self) -> None:
        raise ValueError("a field of a type nobody expected")

    @work(group="team")
    async def read_team(self) -> None:
        raise KeyError("members")


def _pane_text(app: Reads) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(app.query_one(ItemDetail).content)
    return console.export_text()


async def test_a_detail_read_that_fails_says_so_in_the_detail_pane() -> None:
    app = Reads()
    async with app.run_test() as pilot:
        await app.read_detail().wait()
        await pilot.pause()
        text = _pane_text(app)
        assert "detail failed while reading" in text and "ValueError" in text, text
        assert app.is_running and not app._notifications


async def test_another_read_that_fails_is_a_notice_and_the_pane_is_left_alone() -> None:
    app = Reads()
    async with app.run_test() as pilot:
        await app.read_team().wait()
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any("team failed while reading" in m and "KeyError" in m for m in said), said
        assert "failed" not in _pane_text(app)
        assert app.is_running
