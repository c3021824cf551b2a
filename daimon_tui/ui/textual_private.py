"""The one place this app reaches into Textual's private API, for what its
public API does not offer. Checked against Textual 8.2.8
(`tests/ui/test_textual_private.py` fails on any other release: look here
again before moving the pin)."""

from __future__ import annotations

from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets._footer import FooterKey

CHECKED_AGAINST = "8.2.8"


def is_footer_key(widget: Widget) -> bool:
    """One of the keys a Footer lists (Textual exports no name for its class)."""
    return isinstance(widget, FooterKey)


def drop_footer_key_watchers(footer: DOMNode) -> None:
    """Drop the watchers Textual's `data_bind` left on `footer` for keys a
    recompose removed. Textual keeps a node's watchers as (node, callback)
    pairs under the attribute `__watchers` and lets one go only when the
    watched value changes; the footer's `compact` never does."""
    watchers = getattr(footer, "__watchers", None)
    if not isinstance(watchers, dict):
        return
    current = set(footer.children)
    for name, pairs in watchers.items():
        if isinstance(pairs, list):
            watchers[name] = [(node, callback) for node, callback in pairs
                              if not isinstance(node, FooterKey) or node in current]
