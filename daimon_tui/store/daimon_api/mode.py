"""Which daimon is installed, and how far the app may lean on its internals.

Full mode: the tested daimon series and every contract holds; the adapters
make their private calls and swaps. Safe mode: any other daimon release, a
broken contract, or `DAIMON_TUI_SAFE_MODE=1`. Then the app uses daimon's
public API only: no kept fold, no swap, no private call. What an adapter
composes from public names (an item's rendered line, a bucket, the demotion
rule) stays on while its contract, which pins it to daimon's private answer,
holds; everything a private name serves is off, with the reason (`off()`:
the banner, `doctor`, the refusal where it is asked for).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

from daimon_tui.store.daimon_api import contracts, installed, registry

TESTED_SERIES = (0, 61)
KNOWN_GOOD = "0.61.x"
ENV_SAFE = "DAIMON_TUI_SAFE_MODE"


class Unavailable(RuntimeError):
    """A read or verb that needs a private daimon call this daimon does not keep."""


def installed_version() -> str | None:
    return installed.version()  # one way to ask, the one the first frame can afford


def is_tested(version: str | None) -> bool:
    if version is None:
        return False
    try:
        return tuple(int(p) for p in version.split(".")[:2]) == TESTED_SERIES
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Mode:
    version: str | None
    tested: bool
    forced: bool
    outcomes: tuple[contracts.Outcome, ...]
    # Derived once (a slotted class has no cached_property): asked on every private call.
    broken: tuple[contracts.Outcome, ...] = field(init=False, repr=False, compare=False)
    safe: bool = field(init=False, repr=False, compare=False)
    # the contracts whose private calls and swaps the adapters may make
    allowed: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        broken = tuple(o for o in self.outcomes if not o.holds)
        safe = self.forced or not self.tested or bool(broken)
        allowed = (frozenset(o.contract.id for o in self.outcomes if o.holds and o.contract.public) if safe
                   else frozenset(c.id for c in registry.CONTRACTS))
        object.__setattr__(self, "broken", broken)
        object.__setattr__(self, "safe", safe)
        object.__setattr__(self, "allowed", allowed)

    def holds(self, contract_id: str) -> bool:
        return all(o.holds for o in self.outcomes if o.contract.id == contract_id)

    def allows(self, contract_id: str) -> bool:
        """May an adapter make the private call this contract covers?"""
        return contract_id in self.allowed

    def why(self) -> str:
        if self.forced:
            return f"{ENV_SAFE} is set"
        if not self.tested:
            return f"daimon-briefing {self.version} is not the tested {KNOWN_GOOD}"
        return "; ".join(f"{o.contract.id} broke ({o.problem})" for o in self.broken)

    def off(self) -> tuple[str, ...]:
        """What safe mode turns off, one line each (empty in full mode): all
        that a private daimon name serves, and what a broken contract serves."""
        if not self.safe:
            return ()
        lines: dict[str, str] = {}
        for contract in registry.CONTRACTS:
            if contract.id in self.allowed:
                continue
            if not self.holds(contract.id):
                reason = f"its contract broke: {contract.where}"
            elif contract.optional:
                reason = f"an optimization over daimon's internals: {contract.where}"
            else:
                reason = f"needs daimon's private {contract.where}; no public equivalent"
            lines.setdefault(contract.serves, f"{contract.serves}: off ({reason})")
        for verb, where in registry.VERBS_NEEDING_PRIVATE.items():
            if verb not in lines:
                lines[verb] = f"{verb}: off (needs daimon's private {where})"
        return tuple(lines.values())

    def public_equivalents(self) -> tuple[str, ...]:
        """In safe mode, what stays on through daimon's public names (each
        pinned by its contract to daimon's private answer)."""
        if not self.safe:
            return ()
        return tuple(dict.fromkeys(c.serves for c in registry.CONTRACTS if c.id in self.allowed))

    def banner(self) -> str | None:
        if not self.safe:
            return None
        off = sorted({line.split(": off (")[0] for line in self.off()})
        return (f"Safe mode: daimon-briefing {self.version or '?'} ({self.why()}). daimon's public API only: "
                f"no kept fold, no swap, no private call; reads are exact but slower. Off: {'; '.join(off)}. "
                "See `daimon-tui doctor`.")


_lock = threading.Lock()
_current: Mode | None = None


def evaluate() -> Mode:
    version = installed_version()
    return Mode(version=version, tested=is_tested(version), forced=os.environ.get(ENV_SAFE, "") not in ("", "0"),
                outcomes=contracts.check_all())


def current() -> Mode:
    """The mode of this process, decided once (the contracts are checked in memory)."""
    global _current
    found = _current
    if found is not None:
        return found
    with _lock:
        if _current is None:
            _current = evaluate()
        return _current


def set_current(mode: Mode | None) -> None:
    """Decide again on the next `current()` (None), or use `mode` (tests)."""
    global _current
    with _lock:
        _current = mode


def full() -> bool:
    return not current().safe


def allows(contract_id: str) -> bool:
    return current().allows(contract_id)


def require(contract_id: str) -> None:
    """Raise `Unavailable` (with the reason) unless the private call is allowed."""
    mode = current()
    if not mode.allows(contract_id):
        contract = registry.by_id(contract_id)
        raise Unavailable(f"{contract.serves} is off in safe mode: it needs {contract.where} "
                          f"({mode.why()})")


def refusal(*contract_ids: str) -> str | None:
    """Why a private call these contracts cover is off in this mode (safe mode), or None."""
    try:
        for contract_id in contract_ids:
            require(contract_id)
    except Unavailable as exc:
        return str(exc)
    return None


def verb_refusal(verb: str) -> str | None:
    """Why `verb` is off in this mode, or None."""
    where = registry.VERBS_NEEDING_PRIVATE.get(verb)
    mode = current()
    if where is None or not mode.safe:
        return None
    return f"{verb} is off in safe mode: it needs daimon's private {where} ({mode.why()})"
