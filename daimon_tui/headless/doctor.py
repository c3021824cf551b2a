"""`daimon-tui doctor`: the installed daimon, which of our assumptions about it
hold (the same contracts the tests check), and what the app will do."""

from __future__ import annotations

import json
from typing import TextIO

from daimon_tui.domain.daimon_check import DaimonCheck
from daimon_tui.services.health import daimon_check


def report(current: DaimonCheck) -> dict:
    return {
        "daimon_version": current.version,
        "tested": current.known_good,
        "mode": "safe" if current.safe else "full",
        "why": current.why,
        "contracts": [
            {"id": c.id, "concern": c.concern, "where": c.where, "assumption": c.assumption,
             "serves": c.serves, "optional": c.optional, "holds": c.holds, "problem": c.problem}
            for c in current.contracts
        ],
        "off": list(current.off),
        "public_equivalents": list(current.public_equivalents),
    }


def run_doctor(*, as_json: bool, out: TextIO) -> int:
    """0 in full mode, 1 in safe mode (the app still opens; something is off)."""
    current = daimon_check()
    data = report(current)
    if as_json:
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 1 if current.safe else 0
    tested = "tested" if current.tested else f"not tested (known good: {current.known_good})"
    out.write(f"daimon-briefing {current.version or '?'}: {tested}\n\ncontracts:\n")
    for row in data["contracts"]:
        word = "holds " if row["holds"] else "BROKEN"
        out.write(f"  {word}  {row['id']}  ({row['where']})\n")
        if not row["holds"]:
            out.write(f"          {row['problem']}\n")
    out.write("\n")
    if not current.safe:
        out.write("the app runs in full mode: the kept fold, the shared snapshot and every verb are on\n")
        return 0
    out.write(f"the app runs in SAFE MODE: {current.why}\n"
              "daimon's public API only: no kept fold, no swap of daimon's functions, no private call; "
              "reads are exact, but slower; off:\n")
    for line in data["off"]:
        out.write(f"  - {line}\n")
    if data["public_equivalents"]:
        out.write("on, through daimon's public names (each contract pins them to daimon's own answer):\n")
        for what in data["public_equivalents"]:
            out.write(f"  - {what}\n")
    return 1
