"""Which keys a screen binds and what each does, read from the bindings
themselves: `?` and the README's key tables are generated from here, so
neither can drift from what the keys really do."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from textual.actions import parse
from textual.binding import Binding, BindingsMap

KEY_NAMES = {"question_mark": "?", "slash": "/", "colon": ":", "space": "space", "escape": "esc",
             "full_stop": ".", "at": "@", "enter": "enter"}
# Textual's own focus and copy keys: not this app's vocabulary.
TEXTUAL_ACTIONS = frozenset({"app.focus_next", "app.focus_previous", "screen.copy_text", "help_quit"})


def key_label(keys: str) -> str:
    return ", ".join(KEY_NAMES.get(k, k) for k in keys.split(","))


# `?` and `q` lead every view's footer but work everywhere: help lists them
# once, with the keys that work everywhere.
LEAD_IDS = frozenset({"help", "back"})


def class_bindings(cls: type) -> BindingsMap:
    """A screen's or the app's bindings as Textual merges them from each
    class's own `BINDINGS`, base classes first (a later class's key wins).
    This app never binds a key at run time, so these are a live node's too."""
    keys: dict[str, list[Binding]] = {}
    for base in reversed(cls.__mro__):
        keys.update(BindingsMap(base.__dict__.get("BINDINGS", [])).key_to_bindings)
    return BindingsMap.from_keys(keys)


def with_keymap(bindings: BindingsMap, keymap: Mapping[str, str]) -> BindingsMap:
    """The bindings as the person remapped them (settings `[keys]`, by action id)."""
    mapped = bindings.copy()
    if keymap:
        mapped.apply_keymap(dict(keymap))
    return mapped


def key_rows(bindings: BindingsMap | Iterable[tuple[str, Binding]],
             enabled: Callable[[str, tuple[object, ...]], bool | None] | None = None,
             skip_ids: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(keys, description) per action, keys joined, in binding order; keys
    without a description and actions `enabled` refuses are left out."""
    return [(keys, does) for keys, does, _id in id_rows(bindings, enabled, skip_ids)]


def id_rows(bindings: BindingsMap | Iterable[tuple[str, Binding]],
            enabled: Callable[[str, tuple[object, ...]], bool | None] | None = None,
            skip_ids: frozenset[str] = frozenset()) -> list[tuple[str, str, str]]:
    """`key_rows` with each action's id (what settings `[keys]` remaps)."""
    grouped: dict[tuple[str, str], list[str]] = {}
    ids: dict[tuple[str, str], str] = {}
    for key, binding in bindings:
        if not binding.description or binding.action in TEXTUAL_ACTIONS or binding.id in skip_ids:
            continue
        if enabled is not None:
            _namespace, name, params = parse(binding.action)
            if enabled(name, params) is False:
                continue
        # The long form where the footer shows a short word.
        group = (binding.action, binding.tooltip or binding.description)
        keys = grouped.setdefault(group, [])
        if key not in keys:
            keys.append(key)
        ids.setdefault(group, binding.id or "")
    return [(key_label(",".join(keys)), group[1], ids[group]) for group, keys in grouped.items()]


def screen_rows(bindings: BindingsMap,
                enabled: Callable[[str, tuple[object, ...]], bool | None] | None = None) -> list[tuple[str, str]]:
    """A screen's own keys, the everywhere keys it leads with left out."""
    return key_rows(bindings, enabled, skip_ids=LEAD_IDS)


def global_rows(app_bindings: BindingsMap, screen_bindings: BindingsMap | None = None) -> list[tuple[str, str]]:
    """The app's keys a screen does not take over for something else."""
    return [(keys, does) for keys, does, _id in global_id_rows(app_bindings, screen_bindings)]


def global_id_rows(app_bindings: BindingsMap, screen_bindings: BindingsMap | None = None) -> list[tuple[str, str, str]]:
    taken = {key for key, b in screen_bindings or () if b.id not in LEAD_IDS}
    return id_rows((k, b) for k, b in app_bindings if k not in taken)


def markdown_table(rows: list[tuple[str, str]]) -> str:
    lines = ["| key | does |", "|---|---|"]
    lines += [f"| {' '.join(f'`{k.strip()}`' for k in keys.split(', '))} | {does} |" for keys, does in rows]
    return "\n".join(lines)
