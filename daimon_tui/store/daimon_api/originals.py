"""daimon's own functions, kept while an adapter's stand-in is in their place.

The contracts are about daimon, never about our stand-ins: a mode decided
again after a swap must see daimon's own (`contracts` reads them here).
"""

from __future__ import annotations

from typing import Any

# "module:name" -> daimon's own object, for each one swapped.
kept: dict[str, Any] = {}


def swap(module: Any, name: str, replacement: Any) -> None:
    """Put `replacement` in place of `module.name` (adapters only), daimon's own kept."""
    kept.setdefault(f"{module.__name__}:{name}", getattr(module, name))
    setattr(module, name, replacement)
