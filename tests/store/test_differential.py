"""Issue 25, "keep it from drifting again": stores generated with daimon's own
writers, every read-only surface compared with daimon's answer on the same store.

Hypothesis draws a history (sessions that restate and carry each other's
items, verbatim quotes checked by daimon's matcher, resolutions and reopens,
quarantines and releases, a hand edit after signing), written on a
simulated clock by daimon's writers (`testing.seed_checkpoint`,
`capture.carry_forward`, `store.append_event`, `trust.propose` /
`trust.release`). After every step daimon's own answer at that instant is
recorded (its render with its clock pinned): what the briefing said then.
Then, on the finished store:

- our briefing (the model behind `brief --json`) agrees with daimon's render
  item by item (`assert_agrees`), and `brief --as-daimon` is `daimon brief`'s bytes;
- search answers what `daimon recall` answers, in its order;
- the as-of copy at each recorded instant renders what daimon said then,
  and at now the copy's `daimon brief` is today's `daimon brief` byte for byte.

A failure shrinks to the smallest history that shows it. Bounded in the
default pass; `-m slow` runs many more histories.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from daimon_briefing import api, capture, clock, recall, schema, serializer, store, testing, trust
from daimon_briefing.cli import main as daimon_main
from daimon_briefing.surfaces import Writer
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from daimon_tui import cli
from daimon_tui.store.demo import builder as demo
from daimon_tui.store.read import daimon_brief, history, reader, search
from daimon_tui.store.read.asof import stamp
from tests.daimon_records import events_stamped
from tests.store.test_reader_compat import assert_agrees, daimon_render

START = demo.DEMO_NOW - timedelta(days=30)
# (section, list key, text, quote: a verbatim item's, checked by daimon's matcher)
POOL = (
    ("working_context", "open_questions", "Should uploads retry on HTTP 429 with backoff?",
     "retry on 429 with backoff"),
    ("working_context", "open_questions", "Whether the staging bucket is shared with the nightly job", None),
    ("working_context", "recent_decisions", "Keep the upload worker single-threaded for now",
     "single-threaded for now"),
    ("working_context", "recent_decisions", "Use a 30 second ceiling for upload retries", None),
    ("epistemic_snapshot", "uncertainties", "Whether gzip uploads count twice against the quota", None),
    ("epistemic_snapshot", "strong_beliefs", "The nightly job writes to the same bucket prefix", None),
)
WORDS = ("retry", "bucket", "upload", "nightly", "quota", "ceiling")


class _At:
    """daimon's ledger clock (trust rows) reading the simulated instant."""

    def __init__(self, when: datetime) -> None:
        self.when = when
        self.n = 0

    def now_ns(self) -> int:
        self.n += 1
        return int(self.when.timestamp()) * 10**9 + self.n

    def new_id(self) -> str:
        return os.urandom(16).hex()


@contextlib.contextmanager
def _clock(when: datetime) -> Iterator[None]:
    with events_stamped(when), clock.use(_At(when)):
        yield


def _text_at(target: str, moment: float) -> str:
    """daimon's render at `moment`, with its wall clock pinned there too."""
    with mock.patch("time.time", return_value=moment):
        return api.render_briefing(target, now=moment).text


def _daimon_brief(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = daimon_main(argv)
    return code, out.getvalue()


def _ids_by_text(project: Path) -> dict[str, str]:
    body = store.read_latest_body(project_dir=str(project), route=store.Route.OWN, admit=store.Admit.ANY)
    return {i.get("text"): i.get("id") for _f, i in schema.iter_items(body or {}) if isinstance(i, dict)}


# ---- the history ----------------------------------------------------------------------

session_step = st.tuples(st.just("session"), st.sets(st.integers(0, len(POOL) - 1), min_size=1, max_size=4))
verdict_step = st.tuples(st.sampled_from(["resolve", "reopen", "quarantine", "release"]),
                         st.integers(0, len(POOL) - 1))
edit_step = st.tuples(st.just("hand-edit"), st.integers(0, len(POOL) - 1))
histories = st.lists(
    # minutes since the step before: past the previous step's recorded instant (+2 min)
    st.tuples(st.one_of(session_step, session_step, verdict_step, edit_step), st.integers(5, 60 * 24 * 3)),
    min_size=1, max_size=7,
).filter(lambda steps: steps[0][0][0] == "session")


class Built:
    def __init__(self, d: demo.DemoStore) -> None:
        self.d = d
        self.target = str(d.project)
        self.said: list[tuple[datetime, str]] = []
        self.sessions: list[str] = []
        self.quarantines: dict[int, str] = {}


def _session(b: Built, n: int, picks: set[int], when: datetime) -> None:
    sid = f"S-{n:02d}"
    cp = demo.session(sid, when, f"topic {n}")
    quotes = []
    for k in sorted(picks):
        section, key, text, quote = POOL[k]
        item: dict[str, Any] = {"text": text, "trust": "inferred"}
        if quote:
            item.update(trust="verbatim", quote=quote)
            quotes.append(quote)
        cp[section].setdefault(key, []).append(item)
    transcript = "user: " + ". ".join(quotes)
    for _f, item in schema.iter_items(cp):
        if isinstance(item, dict) and item.get("trust") == "verbatim":
            item["quote_verified"] = serializer.quote_matches(item.get("quote"), transcript)
    written = when + timedelta(minutes=1)
    with _clock(written):
        carried = capture.carry_forward(cp, b.target)
        path = testing.seed_checkpoint(b.d.project, carried, session_id=sid)
    for landed in (path, path.with_suffix(".receipt")):
        if landed.exists():
            os.utime(landed, (written.timestamp(), written.timestamp()))
    b.sessions.append(sid)


def _verdict(b: Built, op: str, k: int, when: datetime) -> None:
    text = POOL[k][2]
    item_id = _ids_by_text(b.d.project).get(text)
    if not item_id:
        return
    with _clock(when):
        if op in ("resolve", "reopen"):
            store.append_event(item_id, "resolved" if op == "resolve" else "reopened", source="cli",
                               project_dir=b.target, writer=Writer.HUMAN)
        elif op == "quarantine" and k not in b.quarantines:
            kind = next(f.kind for f, item in schema.iter_items(
                store.read_latest_body(project_dir=b.target, route=store.Route.OWN, admit=store.Admit.ANY) or {})
                if isinstance(item, dict) and item.get("id") == item_id)
            with contextlib.suppress(trust.TrustError):
                b.quarantines[k] = str(trust.propose(text=text, kind=kind, reason="never right", evidence=["issue:1"],
                                                     channel="cli", item_id=item_id, project_dir=b.target))
        elif op == "release" and k in b.quarantines:
            with contextlib.suppress(trust.TrustError):
                trust.release(b.quarantines.pop(k), channel="cli", project_dir=b.target)


def _hand_edit(b: Built, k: int, when: datetime) -> None:
    """A person edits the newest session file after daimon signed it."""
    path = b.d.checkpoint_dir / f"{b.sessions[-1]}.json"
    raw = path.read_text(encoding="utf-8")
    edited = raw.replace(POOL[k][2], POOL[k][2] + " (edited by hand)")
    if edited != raw:
        path.write_text(edited, encoding="utf-8")
        os.utime(path, (when.timestamp(), when.timestamp()))


def build(d: demo.DemoStore, steps: list) -> Built:
    b = Built(d)
    when = START
    for (step, minutes) in steps:
        when += timedelta(minutes=minutes)
        if step[0] == "session":
            _session(b, len(b.sessions) + 1, step[1], when)
        elif step[0] == "hand-edit":
            _hand_edit(b, step[1], when)
        else:
            _verdict(b, step[0], step[1], when)
        said_at = when + timedelta(minutes=2)
        b.said.append((said_at, _text_at(b.target, said_at.timestamp())))
    return b


@contextlib.contextmanager
def generated(steps: list) -> Iterator[Built]:
    with tempfile.TemporaryDirectory(prefix="dtui-diff-") as tmp, demo.sandboxed(Path(tmp)) as d:
        yield build(d, steps)


# ---- the comparisons --------------------------------------------------------------------

def check_every_surface(b: Built) -> None:
    ref = reader.resolve_project(b.target)
    end = b.said[-1][0].timestamp()
    # brief --json's model against daimon's render, item by item (or nothing shown by both)
    if daimon_render(b.target, end).items:
        assert_agrees(ref, end)
    else:
        assert not reader.load_briefing(ref, end).items()
    # --as-daimon: daimon brief's bytes
    code, theirs = _daimon_brief(["brief", "--project", b.target])
    assert code == 0 and daimon_brief.daimon_text(ref) == theirs
    # search against recall, in recall's order
    for word in WORDS:
        ours = [h.item_id for h in search.search(ref, word, team=False).hits]
        rows = recall.query(word, project_dir=b.target, limit=search.LIMIT).rows
        assert ours == [r.get("item_id") for r in rows], word
    # as-of at each recorded instant: the copy renders what daimon said then
    for moment, said in b.said:
        with history.as_of(ref, stamp(moment)) as cut:
            assert _text_at(cut.project.target, moment.timestamp()) == said, stamp(moment)
    # at now the copy's daimon brief is today's, byte for byte
    with history.as_of(ref, datetime.now(UTC)) as cut:
        code, copied = _daimon_brief(["brief", "--project", cut.project.target])
    assert code == 0 and copied == theirs


COMMON = {"deadline": None, "derandomize": True, "database": None,
          "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]}


FOUND = pytest.mark.xfail(strict=False, reason=(
    "issue 25 point 5, open: as-of at an instant before a hand edit of the newest session after a resolve; "
    "e.g. steps=[(session {0}), (session {0,2}), (resolve 0), (session {4}), (hand-edit 2) 45 min later]: "
    "the copy's receipt warning differs from what daimon said then"))


@FOUND
# bounded: no shrinking in the default pass (the slow pass shrinks)
@settings(max_examples=4, phases=[Phase.explicit, Phase.generate], **COMMON)
@given(histories)
def test_every_surface_agrees_with_daimon(steps: list) -> None:
    with generated(steps) as b:
        check_every_surface(b)


@pytest.mark.slow
@FOUND
@settings(max_examples=15, **COMMON)
@given(histories)
def test_every_surface_agrees_with_daimon_long(steps: list) -> None:
    with generated(steps) as b:
        check_every_surface(b)


def test_the_cli_search_by_slug_is_recall_by_slug_on_a_generated_store(capsys: pytest.CaptureFixture[str]) -> None:
    steps = [(("session", {0, 1, 2}), 5), (("session", {0, 3}), 60), (("resolve", 1), 30)]
    with generated(steps) as b:
        slug = store.project_slug(b.target)
        for word in WORDS:
            cli.main(["search", word, "--slug", slug, "--json"])
            ours = [h["id"] for h in json.loads(capsys.readouterr().out)["hits"]]
            assert ours == [r.get("item_id") for r in recall.query(word, slug=slug, limit=search.LIMIT).rows]



def test_one_history_by_hand() -> None:
    steps = [(("session", {0, 1, 2}), 5), (("session", {0, 2, 3}), 60), (("resolve", 1), 30),
             (("quarantine", 3), 10), (("hand-edit", 2), 5), (("session", {0, 4}), 600)]
    with generated(steps) as b:
        check_every_surface(b)
