"""The cost curve as a chart and a table, from `bench_curve.py`'s numbers.

    python benchmarks/curve_chart.py benchmarks/results/curve.json

Writes `curve.svg` (three log-log panels against the events ledger's rows:
the app's steps and daimon's CLI in seconds, the events ledger read alone in
seconds, and peak MB) and `curve.md` (every number, the load average of each
run) next to the JSON. Only measured numbers are drawn; a missing one is a gap.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

# (label, colour, how to read it from one store's result)
SECONDS: list[tuple[str, str, Any]] = [
    ("daimon brief", "#555555", lambda r: (r.get("daimon_brief") or {}).get("wall_s")),
    ("daimon why", "#999999", lambda r: r.get("daimon_why_s")),
    ("confirmation, first open", "#d62728", lambda r: (r.get("first_open") or {}).get("confirmed_s")),
    ("confirmation, later open", "#1f77b4", lambda r: (r.get("later_open") or {}).get("confirmed_s")),
    ("confirmation, later open after the append", "#17becf",
     lambda r: (r.get("after_append_open") or {}).get("confirmed_s")),
    ("first paint, later open", "#2ca02c", lambda r: (r.get("later_open") or {}).get("first_paint_s")),
    ("item at rest, later open", "#9467bd", lambda r: (r.get("later_open") or {}).get("at_rest_idle_s")),
    ("write + acknowledgement, later open", "#ff7f0e", lambda r: (r.get("later_open") or {}).get("write_ack_s")),
    ("search keystroke p95", "#8c564b", lambda r: (r.get("search") or {}).get("keystroke_p95_s")),
]


# The events ledger's read alone (`bench_curve`'s fold probe, a fresh process):
# does a later open's read follow the ledger or the bytes appended?
FOLD: list[tuple[str, str, Any]] = [
    ("daimon's full read", "#555555", lambda r: (r.get("fold_probe") or {}).get("daimon_read_s")),
    ("kept fold, fresh process (a later open)", "#1f77b4",
     lambda r: (r.get("fold_probe") or {}).get("kept_fresh_s")),
    ("kept fold, rows appended, same process", "#17becf",
     lambda r: (r.get("fold_probe") or {}).get("kept_after_append_s")),
]


def _peak(run: dict | None) -> float | None:
    if not run or run.get("self_rss_mb") is None or run.get("children_rss_mb") is None:
        return None
    return run["self_rss_mb"] + run["children_rss_mb"]


MEMORY: list[tuple[str, str, Any]] = [
    ("daimon brief", "#555555", lambda r: (r.get("daimon_brief") or {}).get("rss_mb")),
    ("app + child, first open", "#d62728", lambda r: _peak(r.get("first_open"))),
    ("app + child, later open", "#1f77b4", lambda r: _peak(r.get("later_open"))),
]


def _rows(result: dict) -> int:
    return int(result["shape"]["main_events_rows"])


def _label(result: dict) -> str:
    shape = result["shape"]
    stopped = " (run stopped midway)" if result.get("complete") is False else ""
    if shape.get("rows_mode"):
        return f"{shape['latest_items']:,}-item briefing{stopped}"
    return f"{shape['main_events_rows']:,} rows, {shape['main_sessions']} sessions{stopped}"


def _load_end(result: dict) -> Any:
    return result.get("load_end", result.get("load_now"))


def _panel(results: list[dict], series: list[tuple[str, str, Any]], x0: float, y0: float, w: float, h: float,
           unit: str) -> list[str]:
    points = [(label, colour, [(_rows(r), get(r)) for r in results]) for label, colour, get in series]
    xs = [x for _l, _c, pts in points for x, y in pts if y]
    ys = [y for _l, _c, pts in points for _x, y in pts if y]
    if not xs:
        return []
    lx0, lx1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    lx1, ly1 = max(lx1, lx0 + 1), max(ly1, ly0 + 1)

    def px(x: float) -> float:
        return x0 + w * (math.log10(x) - lx0) / (lx1 - lx0)

    def py(y: float) -> float:
        return y0 + h - h * (math.log10(y) - ly0) / (ly1 - ly0)

    out = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#ccc"/>']
    for e in range(lx0, lx1 + 1):
        out.append(f'<line x1="{px(10**e):.1f}" y1="{y0}" x2="{px(10**e):.1f}" y2="{y0 + h}" stroke="#eee"/>')
        out.append(f'<text x="{px(10**e):.1f}" y="{y0 + h + 14}" font-size="10" text-anchor="middle">'
                   f'{10**e:,}</text>')
    for e in range(ly0, ly1 + 1):
        out.append(f'<line x1="{x0}" y1="{py(10**e):.1f}" x2="{x0 + w}" y2="{py(10**e):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 4}" y="{py(10**e) + 3:.1f}" font-size="10" text-anchor="end">'
                   f'{10**e:g} {unit}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 28}" font-size="11" text-anchor="middle">'
               f'events ledger rows (log)</text>')
    for n, (label, colour, pts) in enumerate(points):
        drawn = sorted((x, y) for x, y in pts if y)
        if len(drawn) > 1:
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in drawn)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        for x, y in drawn:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        out.append(f'<rect x="{x0 + w + 12}" y="{y0 + 4 + 15 * n}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{x0 + w + 26}" y="{y0 + 13 + 15 * n}" font-size="11">{label}</text>')
    return out


def svg(results: list[dict]) -> str:
    curve = sorted((r for r in results if not r["shape"].get("rows_mode")), key=_rows)
    width, height = 900, 840
    body = ['<text x="20" y="22" font-size="14" font-weight="bold">Cost against store size '
            '(benchmarks/bench_curve.py; log-log; one run per size)</text>',
            '<text x="20" y="40" font-size="11">'
            + " · ".join(f"{_label(r)}: load {r.get('load_start')}→{_load_end(r)}" for r in curve)
            + "</text>"]
    body += _panel(curve, SECONDS, 90, 60, 480, 300, "s")
    body.append('<text x="90" y="414" font-size="12" font-weight="bold">The events ledger read alone '
                '(a fresh process, as a later open starts)</text>')
    body += _panel(curve, FOLD, 90, 424, 480, 170, "s")
    body += _panel(curve, MEMORY, 90, 640, 480, 150, "MB")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>'
            + "".join(body) + "</svg>\n")


def _fmt(value: Any, unit: str) -> str:
    if value is None:
        return "—"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.2f} s" if value >= 0.1 else f"{value * 1000:.0f} ms"


def _kept_share(result: dict) -> str:
    probe = result.get("fold_probe") or {}
    kept, rows = probe.get("kept_fresh_rows"), probe.get("ledger_rows")
    return "—" if kept is None or not rows else f"{kept:,} / {rows:,} ({kept / rows:.0%})"


def table(results: list[dict]) -> str:
    ordered = sorted(results, key=lambda r: (bool(r["shape"].get("rows_mode")), _rows(r)))
    head = "| | " + " | ".join(_label(r) for r in ordered) + " |"
    lines = [head, "|---" * (len(ordered) + 1) + "|"]
    lines.append("| load average, start → end | "
                 + " | ".join(f"{r.get('load_start')} → {_load_end(r)}" for r in ordered) + " |")
    lines.append("| events ledger | " + " | ".join(f"{(r.get('events_bytes_at_start') or 0) / 1e6:.1f} MB"
                                                   for r in ordered) + " |")
    for label, _c, get in SECONDS:
        lines.append(f"| {label} | " + " | ".join(_fmt(get(r), "s") for r in ordered) + " |")
    for label, _c, get in FOLD:
        lines.append(f"| events read alone, {label} | " + " | ".join(_fmt(get(r), "s") for r in ordered) + " |")
    lines.append("| rows the kept fold holds / ledger rows | " + " | ".join(_kept_share(r) for r in ordered) + " |")
    for label, _c, get in MEMORY:
        lines.append(f"| peak memory, {label} | " + " | ".join(_fmt(get(r), "MB") for r in ordered) + " |")
    lines.append("| rows appended before the last open | " + " | ".join(
        f"{(r.get('appended') or {}).get('rows', '—')} ({((r.get('appended') or {}).get('bytes') or 0) / 1e3:.0f} kB)"
        for r in ordered) + " |")
    errors = [f"- {_label(r)}: {e}" for r in ordered for e in r.get("errors") or []]
    return "\n".join(lines + (["", *errors] if errors else [])) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    args = parser.parse_args(argv)
    results = json.loads(args.results.read_text())
    args.results.with_name("curve.svg").write_text(svg(results))
    args.results.with_name("curve.md").write_text(table(results))
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
