"""The check of contract `diff_verb.steps`: `daimon diff` is still its usage
line followed by the steps `diff_verb` runs, and those steps take what we pass.

Read from daimon's CLI source, never imported (its import costs more than the
check). `problem()` says what broke, or None; `contracts` turns it into its
`Broken`.
"""

from __future__ import annotations

import ast
from pathlib import Path

# Each step `diff_verb` calls, with its parameters as daimon's source spells them.
STEPS = {"_pointer_entry": "pointer", "_pick": "entries args", "_endpoint": "entry", "_diff_lines": "payload oldest",
         "changes": "older newer snap"}
# Every call `_cmd_diff` makes: a new one (another write, another read) is a verb we no longer replay.
CALLS = frozenset({"_cli._note_usage", "_cli._slug_route", "view.snapshot", "view.pointers", "_pointer_entry", "_pick",
                   "_refuse", "config.checkpoint_history", "changes", "store.project_slug", "_endpoint",
                   "len", "json.dumps", "print", "render.render_history_lines", "_diff_lines"})
USAGE_LINE = "_cli._note_usage('diff')"


def _source() -> str:
    import daimon_briefing

    return (Path(daimon_briefing.__file__).parent / "cli" / "history.py").read_text(encoding="utf-8")


def _functions(source: str, names: set[str]) -> dict[str, ast.FunctionDef]:
    """The top-level functions `names` of `source`, each parsed alone (the whole module costs ~5 ms, at every start)."""
    lines = source.splitlines()
    found = {}
    for i, line in enumerate(lines):
        name = line[4:].split("(", 1)[0] if line.startswith("def ") else None
        if name not in names:
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j][:1] not in ("", " ", "\t", ")")), len(lines))
        node = ast.parse("\n".join(lines[i:end])).body[0]
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
    return found


def problem() -> str | None:
    """What no longer holds of `cli.history`'s diff, or None."""
    try:
        functions = _functions(_source(), {*STEPS, "_cmd_diff"})
    except (OSError, ValueError, SyntaxError) as exc:
        return f"no readable daimon_briefing.cli.history ({type(exc).__name__})"
    for name, params in STEPS.items():
        if name not in functions:
            return f"daimon_briefing.cli.history has no {name}"
        got = " ".join(a.arg for a in functions[name].args.args)
        if got != params:
            return f"cli.history.{name} takes ({got}), we call it with ({params})"
    verb = functions.get("_cmd_diff")
    if verb is None:
        return "daimon_briefing.cli.history has no _cmd_diff"
    body = [node for node in verb.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    if not body or ast.unparse(body[0]) != USAGE_LINE:
        return f"cli.history._cmd_diff no longer starts with {USAGE_LINE}"
    calls = {ast.unparse(node.func) for node in ast.walk(verb) if isinstance(node, ast.Call)}
    if calls != CALLS:
        return (f"cli.history._cmd_diff's steps changed (new: {sorted(calls - CALLS)}, "
                f"gone: {sorted(CALLS - calls)})")
    return None
