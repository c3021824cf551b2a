"""Command line entry: the interactive app, or a read-only headless report.

Headless subcommands (`brief`, `check`, `audit`, `search`, `diff`, `review`, `stats`) never write; every write
needs a person at the interactive app.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from daimon_tui.models import ProjectRef
    from daimon_tui.services.kept_open import KeptOpen


REPORT_GC_THRESHOLD = 100_000


def daimon_missing() -> str | None:
    """One line when daimon-briefing is not installed at all."""
    # Not `importlib.metadata` (~20 ms, before a later open's first frame): `installed` reads the dist-info.
    from daimon_tui.store.daimon_api import installed

    if installed.version() is None:
        return "daimon-tui: daimon-briefing is not installed (pip install daimon-briefing)"
    return None


def _safe_mode_note() -> str | None:
    """One line on stderr when the app runs in safe mode (an untested daimon
    release, or a contract that broke): the headless reports stay exact."""
    from daimon_tui.store.daimon_api import mode

    current = mode.current()
    if not current.safe:
        return None
    return f"daimon-tui: safe mode ({current.why()}); `daimon-tui doctor` says what is off"


# One line each: what the report answers (`--help` shows it first, the command list beside it).
DESCRIPTIONS = {
    "brief": "The briefing model daimon holds for the project, as text or JSON (read-only).",
    "check": "World-check every carried item against the project's files and repository (read-only, offline).",
    "audit": "Receipts, rejections and ledger health of the project's sessions (read-only).",
    "search": "Search what daimon remembers through daimon's recall, each hit with what it is now (read-only).",
    "review": "The review's summary: what was done since a time and what is new (read-only).",
    "stats": "Where memory is heading: the Health view's numbers per retained session, then now (read-only).",
    "diff": "What changed between two retained checkpoints, as `daimon diff` prints it (read-only).",
    "doctor": "The installed daimon, which of the app's assumptions hold, and what the app does about them.",
}
JSON_HELP = {
    "brief": "machine-readable: project, session, state, handoff, sections with items, withheld, notes",
    "check": "machine-readable: project, repository, counts, items with each claim's result and evidence",
    "audit": "machine-readable: receipts, rejections, ledgers, failures and the exit code",
    "search": "machine-readable: query, hits (each with its state), total, limit, notes",
    "review": "machine-readable: what was done since TIME and what is new",
    "stats": "machine-readable: metrics and one row of numbers per retained session",
    "diff": "daimon diff --json's own bytes: schema_version, history, retained, truncated, from, to, "
            "skipped, changes",
    "doctor": "machine-readable: daimon's version, mode, contracts and what is off",
}
AS_DAIMON_NOTE = (
    "--as-daimon prints daimon's bytes exactly when stdout is a pipe or a file. To a terminal a\n"
    "stored control sequence would act (a title change, a screen clear), so each line is made\n"
    "inert there and stderr says so; --raw passes daimon's bytes to the terminal unchanged."
)


def _sub(sub: argparse._SubParsersAction, name: str, parents: list[argparse.ArgumentParser],
         short: str) -> argparse.ArgumentParser:
    from daimon_tui.headless import exit_codes

    epilog = exit_codes.for_command(name)
    if name == "brief":
        epilog = f"{AS_DAIMON_NOTE}\n\n{epilog}"
    parser = sub.add_parser(name, parents=parents, help=short, description=DESCRIPTIONS[name], epilog=epilog,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help=JSON_HELP[name])
    return parser


def build_parser() -> argparse.ArgumentParser:
    from daimon_tui.headless import exit_codes

    parser = argparse.ArgumentParser(
        prog="daimon-tui", description="Review and curate the memory daimon keeps for your coding agent.",
        epilog=exit_codes.table(), formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = argparse.ArgumentParser(add_help=False)
    group = where.add_mutually_exclusive_group()
    group.add_argument("--project", metavar="PATH", help="project directory (default: the working directory)")
    group.add_argument("--slug", metavar="SLUG", help="a daimon bucket slug (see `daimon projects`)")
    where.add_argument("--demo", action="store_true", help="use a built-in demo store in a temporary directory")
    top = parser.add_mutually_exclusive_group()
    top.add_argument("--project", metavar="PATH", dest="top_project",
                     help="open this project directory (default: the working directory)")
    top.add_argument("--slug", metavar="SLUG", dest="top_slug",
                     help="open a daimon bucket by slug, e.g. -home-me-proj (see `daimon projects`)")
    parser.add_argument("--demo", action="store_true", dest="top_demo", help="open the built-in demo store")
    parser.add_argument("--version", action="version", version=f"daimon-tui {_own_version()}")
    sub = parser.add_subparsers(dest="command")
    brief = _sub(sub, "brief", [where], "print the briefing model (read-only)")
    brief.add_argument("--as-of", metavar="TIME", help="the briefing as it stood then (ISO time or session id)")
    brief.add_argument("--as-daimon", action="store_true",
                       help="exactly what `daimon brief` prints now (without its side effects); see below")
    brief.add_argument("--raw", action="store_true",
                       help="with --as-daimon to a terminal: daimon's bytes unchanged, control sequences included")
    brief.add_argument("--team", action="store_true", help="also the teammates' memory, as `daimon brief --team`")
    _sub(sub, "check", [where], "world-check every carried item (read-only)")
    _sub(sub, "audit", [where], "receipts, rejections and ledger health (read-only)")
    search = _sub(sub, "search", [where], "search what daimon remembers (read-only)")
    search.add_argument("query", help="words and facets (trust:, kind:, state:, project:, since:)")
    search.add_argument("--all-projects", action="store_true", help="every project, not just this one")
    search.add_argument("--limit", type=_positive, default=50, metavar="N",
                        help="show at most N hits (default 50); the answer says how many there are")
    review = _sub(sub, "review", [where],
                  "the review's summary: what was done since TIME and what is new (read-only)")
    review.add_argument("--since", metavar="TIME", help="ISO time (default: when the latest review in the app began)")
    review.add_argument("--markdown", action="store_true", help="for a team lead's notes (not with --json)")
    _sub(sub, "stats", [where], "where memory is heading: numbers per retained session (read-only)")
    diff = _sub(sub, "diff", [where],
                "what changed between two retained checkpoints, as `daimon diff` (read-only)")
    diff.add_argument("--from", dest="frm", type=int, metavar="N",
                      help="the older generation: N writes back (default 1, or the latest readable pair)")
    diff.add_argument("--to", type=int, metavar="M", help="the newer generation (default 0, the latest)")
    _sub(sub, "doctor", [], "the installed daimon, which of our assumptions hold, what the app does")
    return parser


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"takes a whole number of at least 1, not {value!r}")
    return number


def _slug_values_attached(argv: list[str], options: set[str]) -> list[str]:
    """`--slug -home-x-p` as `--slug=-home-x-p`: daimon's slugs begin with `-`,
    which argparse would otherwise take for an option and refuse."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        value = next(args, None) if arg == "--slug" else None
        if value is None:
            out.append(arg)
        elif value in options:  # `--slug --json`: a missing value, reported by argparse
            out.extend((arg, value))
        else:
            out.append(f"--slug={value}")
    return out


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    found: set[str] = set()
    for action in parser._actions:
        found.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _option_strings(sub)
    return found


def _own_version() -> str:
    from daimon_tui import __version__

    return __version__


@contextlib.contextmanager
def _store_context(demo: bool) -> Iterator[str | None]:
    """The demo runs inside daimon's sandbox; otherwise daimon's own config."""
    if not demo:
        yield None
        return
    from daimon_tui.store.demo.builder import demo_store

    with demo_store() as store:
        yield str(store.project)


def _quiet_daimon_logs() -> None:
    # daimon logs warnings (a failed signer, a torn line) through `logging`;
    # unconfigured they would land on stderr, across the terminal UI or the
    # JSON. Its notes reach the person as diagnostics instead.
    for name in ("daimon_briefing", "daimon"):
        logger = logging.getLogger(name)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False


def _no_project(what: str) -> int:
    """One line saying what is not there, then the projects daimon holds to pick from."""
    from daimon_tui.domain.inert import inert
    from daimon_tui.headless.exit_codes import Exit
    from daimon_tui.store.read import locate

    print(f"daimon-tui: {inert(what)}", file=sys.stderr)
    known = locate.known_projects()
    if known:
        print("daimon holds checkpoints for (pass one with --project PATH or --slug SLUG):", file=sys.stderr)
        for name in known[:KNOWN_SHOWN]:
            print(f"  {inert(name)}", file=sys.stderr)
        if len(known) > KNOWN_SHOWN:
            print(f"  … and {len(known) - KNOWN_SHOWN} more (`daimon projects` lists them all)", file=sys.stderr)
    else:
        print("daimon holds no checkpoint for any project yet", file=sys.stderr)
    return Exit.NO_PROJECT


KNOWN_SHOWN = 20


def _refused(slug: str | None, *, as_json: bool, out: TextIO, every_bucket: bool = False) -> int | None:
    """The one rule before any report reads (`paths.refusals`): a symlink leading
    outside the store, or a FIFO, is named and nothing is read (exit 4)."""
    import json

    from daimon_tui.domain.inert import inert
    from daimon_tui.headless.exit_codes import Exit
    from daimon_tui.store import paths

    said = [inert(line, limit=None) for line in paths.refusals(slug, every_bucket=every_bucket)]
    if not said:
        return None
    for line in said:
        print(f"daimon-tui: {line}", file=sys.stderr)
    print("daimon-tui: nothing was read", file=sys.stderr)
    if as_json:
        out.write(json.dumps({"refused": said}, indent=2, ensure_ascii=False) + "\n")
    return Exit.REFUSED


def _missing_directory(project_path: str | None) -> int | None:
    if project_path is None or os.path.isdir(project_path):
        return None
    return _no_project(f"no such directory: {project_path}")


def _search(args: argparse.Namespace, project_path: str | None, out: TextIO) -> int:
    from daimon_tui.domain.search_query import parse_query
    from daimon_tui.headless.exit_codes import Exit
    from daimon_tui.headless.search import run_search
    from daimon_tui.services import search
    from daimon_tui.store.read import locate

    if args.all_projects and args.slug:
        print("daimon-tui: --slug names one project; drop it or drop --all-projects", file=sys.stderr)
        return Exit.USAGE
    parsed = parse_query(args.query)
    if parsed.problems:
        print(f"daimon-tui: {'; '.join(parsed.problems)}", file=sys.stderr)
        return Exit.USAGE
    if not parsed.words.strip():
        print("daimon-tui: the query is empty: give at least one word (facets only narrow the words' hits)",
              file=sys.stderr)
        return Exit.USAGE
    if not args.all_projects:
        missing = _missing_directory(project_path)
        if missing is not None:
            return missing
    project = locate.resolve_project(project_path, args.slug)
    if not args.all_projects and not locate.project_exists(project):
        return _no_project(f"no daimon checkpoint for {project.target}")
    refused = _refused(project.slug, as_json=args.json, out=out, every_bucket=args.all_projects)
    if refused is not None:
        return refused
    found = asyncio.run(search.search_here(project, args.query, all_projects=args.all_projects,
                                           by_slug=bool(args.slug), limit=args.limit))
    return run_search(found, as_json=args.json, out=out)


def _review(args: argparse.Namespace, project: ProjectRef, out: TextIO) -> int:
    from daimon_tui.headless.review import review_of, run_review
    from daimon_tui.store import review_file
    from daimon_tui.store.action_log import ActionLog
    from daimon_tui.store.read import reader
    from daimon_tui.store.read.asof import parse_time, stamp
    from daimon_tui.store.review_place import review_path

    if args.json and args.markdown:
        print("daimon-tui: review prints --json or --markdown, not both", file=sys.stderr)
        return 2
    since = None
    if args.since:
        try:
            since = stamp(parse_time(args.since))
        except ValueError:
            print(f"daimon-tui: --since takes an ISO time, not {args.since!r}", file=sys.stderr)
            return 2
    state, problem = review_file.peek(review_path(project.slug))  # read only: nothing set aside
    if since is None and state is not None:
        since = state.runs[-1] if state.runs else None
    try:
        entries = ActionLog().entries()
    except OSError as exc:
        problem = f"the action log cannot be read: {exc}"
        entries = []
    briefing = reader.load_briefing(project)
    summary = review_of(briefing, state, entries, since)
    return run_review(summary, briefing, as_json=args.json, markdown=args.markdown, out=out, problem=problem)


def _as_daimon(args: argparse.Namespace, project_path: str | None, out: TextIO) -> int:
    """daimon's own brief: its bytes, its messages and its exit code, in every
    mode it has (daimon decides a missing bucket, `--slug` with `--team`, …)."""
    from daimon_tui.domain.inert import inert
    from daimon_tui.headless.brief import run_as_daimon
    from daimon_tui.store.daimon_api import brief_verb, mode
    from daimon_tui.store.read import daimon_brief, locate

    if args.json or args.as_of:
        print("daimon-tui: --as-daimon prints daimon's own text now; it takes no --json or --as-of", file=sys.stderr)
        return 2
    refused = _refused(locate.resolve_project(project_path, args.slug).slug, as_json=False, out=out)
    if refused is not None:
        return refused
    try:
        # the baton from the rows that spell `handoff`, not daimon's read of every events row
        printed = brief_verb.brief(project_path, args.slug, team=args.team, handoff=daimon_brief.active_handoff)
    except (brief_verb.NotReproducible, mode.Unavailable) as exc:
        print(f"daimon-tui: {exc}", file=sys.stderr)
        return 2
    run_as_daimon(printed.out, out, sys.stderr, raw=args.raw)
    for line in printed.err.splitlines():
        print(inert(line, limit=None), file=sys.stderr)
    return printed.rc


def _headless(args: argparse.Namespace, project_path: str | None, out: TextIO) -> int:
    """daimon's reads of a large events ledger are answered from the kept fold,
    as in the app, but only from a fold proved whole: one this run built from
    daimon's full read, or one on disk whose seal says this app checked it
    (`kept_fold.sealed_only`). A report has no later moment to check a fold
    against daimon's, so it never prints from one nobody checked. The fold it
    builds goes to our own cache (numbers, never text), so the next report
    folds only the rows appended since; daimon's files are never written."""
    from daimon_tui.store.child.swaps import install_swaps
    from daimon_tui.store.judging import kept_fold

    install_swaps()
    with kept_fold.sealed_only():
        return _report(args, project_path, out)


def _report(args: argparse.Namespace, project_path: str | None, out: TextIO) -> int:
    # before the briefing's reader: neither a search nor daimon's own brief needs its models (pydantic)
    if args.command == "search":
        return _search(args, project_path, out)
    if args.command == "brief" and args.as_daimon:
        return _as_daimon(args, project_path, out)
    if args.command == "brief" and args.raw:
        print("daimon-tui: --raw goes with --as-daimon (daimon's bytes to a terminal)", file=sys.stderr)
        return 2
    from daimon_tui.store.read import reader

    if args.command != "diff":  # daimon's diff answers a missing directory itself (its own exit code)
        missing = _missing_directory(project_path)
        if missing is not None:
            return missing
    project = reader.resolve_project(project_path, args.slug)
    refused = _refused(project.slug, as_json=args.json, out=out)
    if refused is not None:
        return refused
    if args.command == "diff":  # daimon's own answer for a project with no checkpoint (exit 1)
        from daimon_tui.headless.diff import run_diff
        from daimon_tui.services.diff import daimon_diff

        answer = asyncio.run(daimon_diff(project, args.frm, args.to))
        return run_diff(answer, as_json=args.json, out=out, err=sys.stderr)
    if not reader.project_exists(project):
        return _no_project(f"no daimon checkpoint for {project.target}")
    if args.command == "brief":
        from daimon_tui.headless.brief import run_brief

        if args.as_of:
            from daimon_tui.services.as_of import briefing_as_of
            from daimon_tui.store.daimon_api import mode

            try:
                briefing = asyncio.run(briefing_as_of(project, args.as_of))
            except (ValueError, mode.Unavailable) as exc:  # a bad time, or safe mode (the copy is off)
                print(f"daimon-tui: {exc}", file=sys.stderr)
                return 2
        else:
            # A one-shot report waits for daimon's allocator at any size, as `daimon brief` does.
            briefing = reader.load_briefing(project)
        if args.team:
            from daimon_tui.headless.team import run_brief_team

            return run_brief_team(briefing, project, as_json=args.json, out=out, when=args.as_of)
        return run_brief(briefing, as_json=args.json, out=out)
    if args.command == "review":
        return _review(args, project, out)
    if args.command == "stats":
        from daimon_tui.headless.stats import stats

        return stats(project, as_json=args.json, out=out)
    if args.command == "audit":
        from daimon_tui.headless.audit import run_audit

        return run_audit(project, as_json=args.json, out=out)
    from daimon_tui.headless.check import run_check

    # Every carried item of the briefing, checked against the project's own directory. Which
    # of them `daimon brief` would print for its byte budget does not matter here: no split.
    briefing = reader.load_briefing(project, budgeted=False)
    items = [(i.id or "", i.text, i.quote) for i in briefing.items() if i.has_badge("carried")]
    return run_check(Path(project.path or ""), items, as_json=args.json, out=out)


def _read_failed(command: str, exc: Exception) -> str:
    from daimon_tui.domain.inert import inert
    from daimon_tui.store import paths

    try:
        where = str(paths.checkpoint_root())
    except Exception:
        where = "daimon's checkpoint dir"
    return (f"daimon-tui: {command} could not finish reading daimon's store in {inert(where)} "
            f"({type(exc).__name__}: {inert(str(exc), limit=200)}); nothing was written")


def _cannot_draw() -> str | None:
    """Why the interactive app cannot draw here, or None."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return ("daimon-tui: the interactive app needs a terminal; use `daimon-tui brief --json` "
                "for a read-only report")
    if os.environ.get("TERM", "") == "dumb":
        return ("daimon-tui: this terminal (TERM=dumb) cannot draw the app; "
                "`daimon-tui brief` prints the briefing as plain text")
    return None


def bare() -> argparse.Namespace:
    """What the parser makes of `daimon-tui` alone, the everyday open: made without building it
    (its 9 commands' options, ~4 ms of a later open's first frame). Kept equal to the parser's
    answer by tests/test_cli.py."""
    return argparse.Namespace(top_project=None, top_slug=None, top_demo=False, command=None)


def main(argv: list[str] | None = None) -> int:
    console = argv is None  # run as the `daimon-tui` command: the process ends when this returns
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv:
        parser = build_parser()
        try:
            args = parser.parse_args(_slug_values_attached(argv, _option_strings(parser)))
        except SystemExit as exc:
            return int(exc.code or 0) if exc.code in (0, None) else 2
    else:
        args = bare()
    if console and args.command is not None:
        # A report is one short burst that ends the process: the collector walks its
        # young objects (daimon's import and read make hundreds of thousands) every
        # 700 allocations by default, ~10% of a small store's report. Rarely is enough.
        gc.set_threshold(REPORT_GC_THRESHOLD, 50, 100)
    collecting = gc.isenabled()
    if args.command is None and not _cannot_draw():
        # The app's imports (and the demo's store) make most of the objects it will ever hold, all alive
        # until it ends: no collection walks them on the way to the first frame (a full pass and dozens
        # of young ones did). The app's idle collector freezes them at mount and collects at rest.
        gc.disable()
    try:
        return _run(args, console)
    finally:
        if collecting:
            gc.enable()  # as the process found it, however the start ended


def _run(args: argparse.Namespace, console: bool) -> int:
    problem = daimon_missing()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    kept: KeptOpen | None = None
    kept_read = False
    if args.command is None and not args.top_demo and not _cannot_draw():
        # Before anything heavy is imported: the judging child starts, and warms
        # this project, while the app imports Textual and paints (`early_child`).
        from daimon_tui.services import kept_open

        # A later open whose kept layout stands draws its first frame without daimon (the app is handed
        # this read: not read twice): the child, competing for the cores (~0.4 s of that frame on two
        # loaded cores), starts once it is drawn.
        kept, kept_read = kept_open.read_now(args.top_project, args.top_slug), True
        if kept is None:
            from daimon_tui.store.child import early_child

            early_child.spawn(args.top_project, args.top_slug)
    _quiet_daimon_logs()
    if args.command == "doctor":
        from daimon_tui.headless.doctor import run_doctor

        return run_doctor(as_json=args.json, out=sys.stdout)
    # Reports only: the app's banner says it, once its first frame is drawn (the check imports daimon).
    note = _safe_mode_note() if args.command is not None else None
    if note:
        print(note, file=sys.stderr)
    if args.command is None:
        args.project, args.slug, args.demo = args.top_project, args.top_slug, args.top_demo
    with _store_context(args.demo) as demo_project:
        project_path = demo_project or args.project
        if args.command is not None:
            try:
                return _headless(args, project_path, sys.stdout)
            except BrokenPipeError:
                # `daimon-tui brief | head`: the reader left; say nothing more.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 0
            except Exception as exc:  # a read nobody foresaw: one line, never a traceback
                print(_read_failed(args.command, exc), file=sys.stderr)
                return 5  # exit_codes.Exit.READ_FAILED (not imported here: the import itself may be what failed)
            finally:
                if console:
                    # The report is written and the process ends: the collector need not walk
                    # everything daimon folded once more at exit (~40 ms of a small store's search).
                    gc.freeze()
        cannot = _cannot_draw()
        if cannot:
            print(cannot, file=sys.stderr)
            return 2
        from daimon_tui.ui import terminal_end
        from daimon_tui.ui.app import DaimonTUI

        log = None
        if demo_project:  # the demo keeps its action log beside its temporary store (others open theirs when used)
            from daimon_tui.store.action_log import ActionLog

            log = ActionLog(Path(demo_project).parent / "daimon-tui-actions.jsonl")
        app = DaimonTUI(project_path=project_path, slug=args.slug, demo=args.demo, action_log=log, kept=kept,
                        kept_read=kept_read)
        app.launched_from_terminal = True
        app.run()
        code = terminal_end.exit_code(app.return_code or 0)
    terminal_end.finish()  # the terminal went: the process ends now (the demo store removed above)
    return code


if __name__ == "__main__":
    sys.exit(main())
