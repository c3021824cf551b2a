"""The action registry (`daimon_tui.action_specs`) as Textual key bindings."""

from __future__ import annotations

from textual.binding import Binding

from daimon_tui.action_specs import ACTIONS, ActionSpec, spec

__all__ = ["ACTIONS", "ActionSpec", "bindings", "everywhere_bindings", "filter_binding", "lead_bindings",
           "row_filter_bindings", "spec"]


def bindings(group_filter: set[str] | None = None) -> list[Binding]:
    return [
        Binding(spec.keys, spec.action, spec.short or spec.description, show=spec.show, id=spec.id,
                tooltip=spec.description if spec.short else "", priority=spec.priority)
        for spec in ACTIONS
        if group_filter is None or spec.group in group_filter
    ]


def lead_bindings(back_word: str = "back") -> list[Binding]:
    """`?` and `q` lead a screen's own bindings, so the footer shows them
    first and they stay in view at 80 columns."""
    out = []
    for spec_ in (spec("help"), spec("back")):
        word = back_word if spec_.id == "back" else spec_.short
        out.append(Binding(spec_.keys, spec_.action, word, id=spec_.id, tooltip=spec_.description))
    return out


def everywhere_bindings() -> list[Binding]:
    """The app's keys (views, help, palette, quit) for a modal screen to bind:
    Textual stops the app's bindings at a modal screen, so the keys the footer
    beneath and `?` show would do nothing there. `q` and Esc are left to the
    screen's own Close."""
    return [b for b in bindings({"Views", "App"}) if b.id not in {"back", "escape"}]


def filter_binding() -> Binding:
    """`/` under the registry's `filter` id, so a remap in settings `[keys]` moves
    it on every table view too; a table's rows take the short word and hint."""
    filter_spec = spec("filter")
    return Binding(filter_spec.keys, filter_spec.action, "filter", id=filter_spec.id,
                   tooltip="Filter the rows by words (-word leaves rows out)", priority=filter_spec.priority)


def row_filter_bindings() -> list[Binding]:
    """A table view's filter keys (its controller: `ui.table_filter.TableFilter`): Esc, then `/`."""
    return [*bindings({"Rows"}), filter_binding()]
