"""The Health view's single truth: the whole report, once every charted
session is read (None while they are read: the table then shows each point as
it comes)."""

from __future__ import annotations

from dataclasses import dataclass

from daimon_tui.services.health import HealthReport


# mutable because it is the view's one state: each read (and reload) moves it
@dataclass(slots=True)
class HealthState:
    report: HealthReport | None = None

    def reading(self) -> None:
        """A read has begun: the report shown is not whole until it ends."""
        self.report = None

    def read(self, report: HealthReport) -> None:
        self.report = report
