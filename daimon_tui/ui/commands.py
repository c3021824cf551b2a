"""Command palette provider fed by the action registry."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from daimon_tui.ui.actions import ACTIONS, ActionSpec
from daimon_tui.ui.key_table import key_label


class ActionCommands(Provider):
    def _specs(self) -> list[ActionSpec]:
        return [spec for spec in ACTIONS if spec.palette]

    async def _run(self, spec: ActionSpec) -> None:
        # Screen actions run on the screen under the palette.
        action = spec.action.removeprefix("screen.")
        if spec.action.startswith("screen."):
            await self.screen.run_action(action)
        else:
            await self.app.run_action(spec.action.removeprefix("app."))

    async def discover(self) -> Hits:
        for spec in self._specs():
            yield DiscoveryHit(f"{spec.description}", partial(self._run, spec), help=f"key: {key_label(spec.keys)}")

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for spec in self._specs():
            score = matcher.match(spec.description)
            if score > 0:
                yield Hit(score, matcher.highlight(spec.description), partial(self._run, spec),
                          help=f"key: {key_label(spec.keys)}")
