"""Screen 7: where the project's memory is heading. One sparkline per number
across the retained sessions (oldest left, now right), and the numbers
themselves in a table; `daimon-tui stats` prints the same."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Label, ProgressBar, Sparkline, Static

from daimon_tui.domain.inert import inert
from daimon_tui.domain.short_ids import shortest_unique
from daimon_tui.models import ProjectRef
from daimon_tui.services.health import METRICS, HealthReport, health_as_read
from daimon_tui.ui.actions import lead_bindings
from daimon_tui.ui.navigation import GoesBack
from daimon_tui.ui.read_worker import work
from daimon_tui.ui.widgets.key_footer import KeyFooter
from daimon_tui.ui.widgets.row_below import RowBelow

# Numbers where a rise is bad: their trend is said in red.
WORSE_WHEN_UP = frozenset({"untagged", "unverified", "stale", "contradictions", "quarantines", "failing_receipts"})


def trend_text(key: str, values: list[int]) -> Text:
    """The latest value and its change since the first charted point."""
    if not values:
        return Text("—", style="dim")
    last, delta = values[-1], values[-1] - values[0]
    text = Text(f"{last:>5}", style="bold")
    if delta:
        worse = (delta > 0) == (key in WORSE_WHEN_UP)
        text.append(f"  {delta:+d}", style="red" if worse else "green")
    return text


class HealthScreen(GoesBack, Screen):
    VIEW_NAME = "Health"
    BINDINGS: ClassVar[list[BindingType]] = [
        *lead_bindings(),
        Binding("escape", "go_back", "Back", show=False),
        Binding("ctrl+r", "reload", "Reload"),
    ]

    def __init__(self, project: ProjectRef, *, now: float | None = None) -> None:
        super().__init__()
        self.project = project
        self.now = now
        self.report: HealthReport | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Health · reading every retained session as it stood…", style="dim"), id="health-title")
        yield ProgressBar(id="health-progress", show_eta=False)
        with VerticalScroll(id="health-charts"):
            for key, label in METRICS:
                with Horizontal(classes="health-row", id=f"health-{key}"):
                    yield Label(label, classes="health-label")
                    yield Sparkline([], classes="health-spark", id=f"spark-{key}")
                    yield Static("", classes="health-value", id=f"value-{key}")
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
        bar = self.query_one("#health-progress", ProgressBar)
        bar.display = True
        report: HealthReport | None = None
        async for report in health_as_read(self.project, now=self.now):
            if self.is_attached:  # each point as it is read
                total = len(report.sessions)
                bar.update(total=total, progress=sum(1 for s in report.sessions if s.counts))
        if report is not None and self.is_attached:
            self.show(report)

    def show(self, report: HealthReport) -> None:
        self.report = report
        self.query_one("#health-progress", ProgressBar).display = False
        charted = sum(1 for s in report.sessions if s.created is not None)
        title = Text("Health · ", style="bold")
        title.append(inert(self.project.name or self.project.slug, limit=80), style="bold")
        title.append(f"  ·  {charted} of {report.retained} retained session(s), oldest left, then now "
                     "(each as daimon read it then)", style="dim")
        self.query_one("#health-title", Static).update(title)
        for key, _label in METRICS:
            values = report.series(key)
            self.query_one(f"#spark-{key}", Sparkline).data = [float(v) for v in values]
            self.query_one(f"#value-{key}", Static).update(trend_text(key, values))
        table = self.query_one("#health-table", DataTable)
        table.clear(columns=True)
        table.add_column("")
        short = shortest_unique(s.session_id for s in report.sessions)
        for s in report.sessions:
            table.add_column(Text(inert(short.get(s.session_id, s.session_id), limit=40)), key=s.session_id)
        for key, label in METRICS:
            table.add_row(label, *(str(s.counts.get(key, 0)) for s in report.sessions), key=key)
        notes = "\n".join(f"⚠ {inert(d.message, limit=400)}" for d in report.diagnostics)
        self.query_one("#health-notes", Static).update(Text(notes, style="yellow"))
