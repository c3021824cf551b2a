"""Screen 7: where the project's memory is heading. One table, a column per
charted session (oldest left), then now apart; per number, a row of bars
(each under its own session's column, from zero on the scale its label
states) above the row of the numbers themselves. The columns are drawn at
once and fill point by point as each session is read (a point not read yet
is blank); `daimon-tui stats` prints the same numbers."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import DataTable, ProgressBar, Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import ProjectRef
from daimon_tui.services.health import METRICS, NOW, HealthReport, SessionHealth, health_as_read
from daimon_tui.ui.actions import bindings, lead_bindings
from daimon_tui.ui.health.state import HealthState
from daimon_tui.ui.navigation import GoesBack
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.widgets.column_bar import LINES, ColumnBar, scale_label, scale_top
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_below import RowBelow

# Numbers where a rise is bad: their trend is said in red.
WORSE_WHEN_UP = frozenset({"untagged", "unverified", "stale", "contradictions", "quarantines", "failing_receipts"})
LABEL, GAP = "label", "gap"  # the first column (what each row is), the column setting now apart
NOW_STYLE = "magenta"


def chart_key(key: str) -> str:
    return f"{key}-chart"


def trend_text(key: str, label: str, values: list[int]) -> Text:
    """The row's label, and its change from the first point read to the last."""
    text = Text(label)
    if len(values) > 1 and values[-1] != values[0]:
        delta = values[-1] - values[0]
        worse = (delta > 0) == (key in WORSE_WHEN_UP)
        text.append(f"  {delta:+d}", style="red" if worse else "green")
    return text


def _number(value: int | None, style: str = "") -> Text:
    return Text("" if value is None else str(value), justify="right", style=style)


def table_rows(report: HealthReport) -> list[tuple[str, int, list[RenderableType]]]:
    """(row key, height, cells in column order: label, each session, gap, now) for each number:
    its bars, then its numbers. A number not in a point's counts is not known: blank."""
    history = [s for s in report.sessions if s.session_id != NOW]
    now = next((s for s in report.sessions if s.session_id == NOW), SessionHealth(session_id=NOW))
    rows: list[tuple[str, int, list[RenderableType]]] = []
    for key, label in METRICS:
        values = [s.counts.get(key) for s in history]
        at_now = now.counts.get(key)
        top = scale_top(values, at_now)
        rows.append((chart_key(key), LINES, [
            scale_label(top), *(ColumnBar(v, top) for v in values),
            Text("\n".join("┊" * LINES), style="dim"), ColumnBar(at_now, top, style=NOW_STYLE)]))
        known = [v for v in (*values, at_now) if v is not None]
        rows.append((key, 1, [trend_text(key, label, known), *(_number(v) for v in values), "",
                              _number(at_now, f"bold {NOW_STYLE}")]))
    return rows


class HealthScreen(GoesBack, Screen):
    CSS_PATH = sheet("health")  # read when first opened, not at the first frame
    VIEW_NAME = "Health"
    BINDINGS: ClassVar[list[BindingType]] = [*lead_bindings(), *bindings({"Health"})]

    def __init__(self, project: ProjectRef, *, now: float | None = None) -> None:
        super().__init__()
        self.project = project
        self.now = now
        self.state = HealthState()

    def compose(self) -> ComposeResult:
        yield Static(Text("Health · reading every charted session as it stood…", style="dim"), id="health-title")
        yield ProgressBar(id="health-progress", show_eta=False)
        yield DataTable(id="health-table", zebra_stripes=True, cursor_type="row")
        yield RowBelow("health-table", id="health-row")  # the sessions past the right edge, for the cursor row
        yield Static(id="health-notes")
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.load()

    def action_reload(self) -> None:
        self.load()

    def on_resize(self) -> None:
        self.query_one(RowBelow).follow_later()

    @work(exclusive=True, group="health")
    async def load(self) -> None:
        self.state.reading()
        bar = self.query_one("#health-progress", ProgressBar)
        bar.display = True
        report: HealthReport | None = None
        async for report in health_as_read(self.project, now=self.now):
            if not self.is_attached:
                return
            self.fill(report)  # each point as it is read
            bar.update(total=len(report.sessions), progress=sum(1 for s in report.sessions if s.counts))
        if report is not None and self.is_attached:
            self.show(report)

    def show(self, report: HealthReport) -> None:
        self.fill(report)
        self.state.read(report)
        self.query_one("#health-progress", ProgressBar).display = False

    def fill(self, report: HealthReport) -> None:
        """Draw what is read so far: the columns once, then each cell in place (the cursor stays)."""
        charted = sum(1 for s in report.sessions if s.session_id != NOW)
        title = Text("Health · ", style="bold")
        title.append(inert(self.project.name or self.project.slug, limit=80), style="bold")
        title.append(f"  ·  {charted} of {report.retained} retained session(s), oldest left, then now "
                     "(each as daimon read it then; now on today's clock)", style="dim")
        self.query_one("#health-title", Static).update(title)
        table = self.query_one("#health-table", DataTable)
        keys = [LABEL, *(s.session_id for s in report.sessions if s.session_id != NOW), GAP, NOW]
        rows = table_rows(report)
        if [str(k.value) for k in table.columns] != keys:
            table.clear(columns=True)
            short = shortest_unique(s.session_id for s in report.sessions)
            table.add_column("", key=LABEL)
            for sid in keys[1:-2]:
                table.add_column(Text(inert(short.get(sid, sid), limit=40)), key=sid)
            table.add_column("", key=GAP)
            table.add_column(NOW, key=NOW)
            for row_key, height, cells in rows:
                table.add_row(*cells, key=row_key, height=height)
        else:
            for row_key, height, cells in rows:
                for column, cell in zip(keys, cells, strict=True):  # a number may widen its column
                    table.update_cell(row_key, column, cell, update_width=height == 1)
        notes = Text()
        if report.retained > charted:  # the series is cut: say so
            left = report.retained - charted
            notes.append(f"{left} older retained session(s) are not charted (the newest {charted} are)\n"
                         if charted else f"{left} retained session(s) are not charted\n", style="dim")
        notes.append("\n".join(f"⚠ {inert(d.message, limit=400)}" for d in report.diagnostics), style="yellow")
        self.query_one("#health-notes", Static).update(notes)
