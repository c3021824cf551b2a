"""Search what daimon remembers, through daimon's own recall index.

`recall.query` does the matching: its FTS5 index is a derived cache daimon
freshens (and rebuilds, by its own `rebuild`) whenever its fingerprint is
stale, quotes every token so no operator is interpreted, and judges every row
(`view.judge`) before it is returned. Nothing here opens daimon's database.

Each hit then says what it is now, in daimon's words: recall's own status
phrase (`recall.describe_status`: resolved, superseded by …, contradicted by …
at …); else the lifecycle of its id in its bucket (`view.closing_event` →
`view.lifecycle_word`); else whether its bucket's latest checkpoint still
holds it, as daimon's view opens that checkpoint (`view.open`): carried,
active, withheld (quarantined, forgotten) or only in the session that said it.

Teammates: daimon files a teammate's items under their own checkout's slug.
Their copies of this project are found by origin, as `daimon brief --team`
finds them (`store.read_team`), and grouped under it: with the team shown, a
project search also asks recall for each teammate's slug, and each of those
hits names the shared project. A resolution or withholding in this project's
own ledgers closes their copy too (as `brief --team` withholds it); their
newest checkpoint says whether it stands.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from daimon_tui.domain.search_query import SearchQuery, hit_matches, parse_query
from daimon_tui.models import Diagnostic, ProjectRef
from daimon_tui.models.search import LIMIT, HitState, SearchHit, SearchResult
from daimon_tui.store import paths
from daimon_tui.store.daimon_api import rendering
from daimon_tui.store.daimon_api.public import briefing, config, display, recall, schema, store, view
from daimon_tui.store.judging import kept_fold, snapshot_share
from daimon_tui.store.read import marks, recall_generation

# Facets filter after the fetch (`LIMIT` hits, the model's), so it over-fetches.
FACET_FETCH = 400
# A counted search (`count=True`, the headless report's "50 of N") reads this many hits at most.
COUNT_CAP = 1000
# daimon's FTS query is one phrase per token; a query longer than this is cut
# (the cut is said in a note), never sent whole.
MAX_QUERY_CHARS = 500

def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _iso(created: Any) -> str | None:
    if isinstance(created, (int, float)) and not isinstance(created, bool):
        return datetime.fromtimestamp(created, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return None


def _mark(row: Mapping) -> str:
    # daimon's own mark rule on the stored trust class (never degraded here).
    word = rendering.mark_words().get(rendering.mark({"trust": row.get("trust")}))
    return word if word in ("verbatim", "inferred") else "untagged"


class _Bucket:
    """What the latest checkpoint of one bucket holds, judged by daimon's view
    and stamped as the briefing stamps it (`briefing.prepare`), so an item the
    briefing holds carries the briefing's own mark (`? unverified` past its
    staleness budget, `⚠ unverified (verbatim)` on a failed receipt)."""

    def __init__(self, target: str, now: float) -> None:
        prepared = briefing.prepare(target, now, live=False, route=store.Route.OWN)
        self.snap = prepared.snapshot
        self.live: dict[str, Mapping] = {}
        self.marks: dict[str, str] = {}
        checkpoint = prepared.checkpoint if isinstance(prepared.checkpoint, Mapping) else {}
        degraded = briefing.receipt_degraded(checkpoint) if checkpoint else False
        self.session_id = checkpoint.get("session_id")
        for field in schema.ITEM_FIELDS:
            block = checkpoint.get(field.section)
            raw = block.get(field.key) if isinstance(block, Mapping) else None
            for item in [raw] if field.singleton else (raw if isinstance(raw, list) else ()):
                if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                    self.live[item["id"]] = item
                    self.marks[item["id"]] = marks.shown_mark(item, degraded)
        # daimon's reason and its own marker: a quarantine, a forget, or a trust
        # ledger that cannot be read (daimon then withholds, and says why).
        reasons = {"quarantine": "quarantined", "forgotten": "forgotten", "closed": "withheld"}
        self.withheld = {w.item_id: (reasons.get(display.withheld_json(w)["reason"], "withheld"),
                                     display.withheld_marker(w))
                         for w in prepared.withheld if w.item_id}


def _state(row: Mapping, bucket: _Bucket | None) -> tuple[HitState, str | None, bool]:
    """(state word, daimon's phrase, live in the latest checkpoint)."""
    item_id = _str(row.get("item_id"))
    phrase = recall.describe_status(dict(row))
    if row.get("superseded_by"):
        return ("resolved" if row.get("superseded_by") == "resolved" else "superseded"), phrase, False
    if bucket is not None and item_id:
        if item_id in bucket.withheld:
            word, marker = bucket.withheld[item_id]
            return word, phrase or marker, False  # type: ignore[return-value]
        event = view.closing_event({"id": item_id, "text": row.get("text")}, bucket.snap)
        word = view.lifecycle_word(event) if event else "active"
        if word in ("resolved", "superseded", "forgotten"):
            return word, phrase or _closing_phrase(event), False  # type: ignore[return-value]
    if row.get("invalidated_by"):
        return "contradicted", phrase, bool(bucket and item_id in bucket.live)
    if bucket is not None and item_id in bucket.live:
        carried = bucket.live[item_id].get("carried_from")
        return ("carried" if carried else "active"), phrase, True
    if bucket is not None and bucket.session_id and row.get("session_id") == bucket.session_id:
        return "active", phrase, False  # an id-less item (the topic) of the latest session
    return "not carried", phrase, False


def _closing_phrase(event: Any) -> str | None:
    if not isinstance(event, Mapping):
        return None
    status, ts = _str(event.get("status")), _str(event.get("ts"))
    return " ".join(p for p in (status, f"at {ts}" if ts else None) if p) or None


def _bucket_key(slug: str, now: float) -> tuple | None:
    """What a bucket's judged latest checkpoint depends on: its ledgers and
    daimon's forgotten stamp (the snapshot memo's key), its latest pointer, and
    the minute it is judged at (an item's age past its staleness budget is
    `? unverified`)."""
    key = snapshot_share.memo_key(slug)
    folder = paths.bucket_dir(slug)
    if key is None or folder is None:
        return None
    try:
        st = os.stat(folder / "latest.json")
        latest: tuple = (st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        latest = ()
    return (key, latest, int(now // 60))


# Judged latest checkpoints, across searches, until a file they depend on changes.
_held: dict[tuple, _Bucket | None] = {}
_held_lock = threading.Lock()
_HELD_SIZE = 64


def _bucket(cache: dict[str, _Bucket | None], slug: str | None, now: float) -> _Bucket | None:
    if not slug:
        return None
    if slug in cache:
        return cache[slug]
    key = _bucket_key(slug, now)
    with _held_lock:
        if key is not None and key in _held:
            cache[slug] = _held[key]
            return cache[slug]
    try:
        got: _Bucket | None = _Bucket(slug, now)
    except Exception:  # an unreadable bucket: the hit keeps recall's own words
        got = None
    cache[slug] = got
    if key is not None and got is not None:
        with _held_lock:
            for stale in [k for k in _held if k[0][:2] == key[0][:2]]:
                del _held[stale]
            while len(_held) >= _HELD_SIZE:
                _held.pop(next(iter(_held)))
            _held[key] = got
    return got


def _notes(codes: tuple, cut: bool) -> tuple[Diagnostic, ...]:
    notes: list[Diagnostic] = []
    text = display.recall_note(codes)
    if text:
        notes.extend(Diagnostic(message=line) for line in text.splitlines() if line.strip())
    if cut:
        notes.append(Diagnostic(level="info", source="daimon-tui",
                                message=f"the query was cut to its first {MAX_QUERY_CHARS} characters"))
    return tuple(notes)


def search(project: ProjectRef, text: str, all_projects: bool = False, team: bool = True,
           now: float | None = None, limit: int = LIMIT, by_slug: bool = False, count: bool = False
           ) -> SearchResult:
    """Hits for `text` (words plus facets) in `project`, or everywhere. An
    empty query lists nothing. Never raises for query text. `now`: the moment
    marks are judged at, the briefing's own (default: the clock). `by_slug`: the
    person named one bucket, and the answer is `daimon recall --slug`'s, that
    bucket's rows only (no teammate's copy filed under another slug). `count`:
    also count every hit past `limit` (to COUNT_CAP), so the answer can say
    "50 of N"; the hits shown are the same first `limit`."""
    if by_slug:
        project, team = project.model_copy(update={"path": None}), False
    started = time.perf_counter()
    now = time.time() if now is None else now
    parsed: SearchQuery = parse_query(text)
    words = " ".join(parsed.words.split())
    cut = len(words) > MAX_QUERY_CHARS
    words = words[:MAX_QUERY_CHARS]
    if not words.strip():
        return SearchResult(query=text, all_projects=all_projects, team=team)
    refused = paths.refusals(project.slug, every_bucket=all_projects)
    if refused:  # the one rule: nothing is read through a link out of the store (each named)
        return SearchResult(query=text, all_projects=all_projects, team=team, limit=limit, total=0 if count else None,
                            notes=tuple(Diagnostic(level="error", source="daimon-tui", message=m) for m in refused))
    scope: dict[str, Any] = {"all_projects": True} if all_projects else (
        {"project_dir": project.path} if project.path else {"slug": project.slug})
    me = config.author()
    fetch = FACET_FETCH if parsed.facets else limit
    counted = _Count(words, parsed, me, team, limit) if count else None
    with recall_generation.held():
        recalled = _recall(words, fetch, scope)
        if isinstance(recalled, Diagnostic):
            return SearchResult(query=text, notes=(recalled,), all_projects=all_projects, team=team,
                                total=0 if count else None, limit=limit)
        mates = recall_generation.kept(("teammates", project.path, me), lambda: _teammates(project, me)) if team else {}
        hits = _hits(recalled.rows, project, parsed, me, team, limit, mates, now)
        if counted is not None:
            counted.add(recalled.rows, hits, scope, lambda rows: _hits(rows, project, parsed, me, team,
                                                                      FACET_FETCH, mates, now))
        codes = list(recalled.notes)
        errors: list[Diagnostic] = []
        if team and not all_projects:
            # Their copies are filed under their checkouts' slugs: asked for by slug, grouped after ours.
            for (author, slug) in mates:
                theirs = _recall(words, fetch, {"slug": slug})
                if isinstance(theirs, Diagnostic):
                    errors.append(theirs)
                    continue
                codes.extend(theirs.notes)
                rows = [row for row in theirs.rows if row.get("author") == author]
                found = _hits(rows, project, parsed, me, team, limit, mates, now)
                hits.extend(found)
                if counted is not None:
                    counted.add(rows, found, {"slug": slug}, lambda rows: _hits(
                        rows, project, parsed, me, team, FACET_FETCH, mates, now), author=author)
    notes = (*errors, *_notes(tuple(dict.fromkeys(codes)), cut))
    return SearchResult(query=text, hits=tuple(hits), notes=notes, all_projects=all_projects, team=team,
                        seconds=time.perf_counter() - started, limit=limit,
                        total=counted.total if counted is not None else None,
                        total_capped=counted.capped if counted is not None else False)


class _Count:
    """How many hits a search has past its limit, counted as cheaply as it can
    be. Words alone: every row recall has for them (to COUNT_CAP: recall's own
    judged rows, no state built for them). Words with facets: the facets
    applied to every row already fetched (FACET_FETCH), past the limit only
    when the limit was reached."""

    def __init__(self, words: str, parsed: SearchQuery, me: str, team: bool, limit: int) -> None:
        self.words, self.parsed, self.me, self.team, self.limit = words, parsed, me, team, limit
        self.total = 0
        self.capped = False

    def _kept(self, row: Mapping, author: str | None) -> bool:
        by = _str(row.get("author"))
        if author is not None:
            return by == author
        return self.team or not (by and by != self.me)

    def add(self, rows: list, hits: list[SearchHit], scope: dict[str, Any],
            every_hit: Callable[[list], list[SearchHit]], author: str | None = None) -> None:
        if self.parsed.facets:
            self.total += len(every_hit(rows)) if len(hits) >= self.limit else len(hits)
            self.capped = self.capped or len(rows) >= FACET_FETCH
            return
        recalled = _recall(self.words, COUNT_CAP, scope) if rows else None
        if recalled is None or isinstance(recalled, Diagnostic):
            self.total += len(hits)
            return
        kept = sum(1 for row in recalled.rows if self._kept(row, author))
        self.total += max(kept, len(hits))
        self.capped = self.capped or len(recalled.rows) >= COUNT_CAP


def _recall(words: str, limit: int, scope: dict[str, Any]) -> recall.Recalled | Diagnostic:
    try:
        return recall.query(words, limit=limit, **scope)
    except recall.RecallError as exc:
        return Diagnostic(level="error", message=f"daimon's recall index is unavailable: {exc}")
    except (sqlite3.Error, OSError) as exc:
        # daimon answers a hostile query with no rows; anything that still
        # escapes is said as a note, never raised at the person.
        return Diagnostic(level="error", message=f"daimon's recall index could not answer ({type(exc).__name__})")
    except Exception as exc:  # daimon's index build over a file holding a field of an unexpected type
        where = scope.get("slug") or scope.get("project_dir") or "every project"
        return Diagnostic(level="error", message=(
            f"daimon's recall could not read the checkpoints of {where} ({type(exc).__name__}: {str(exc)[:120]}): "
            "one of them holds a field of a type daimon does not expect; nothing else was affected"))


_Mates = dict[tuple[str, str], tuple[str | None, frozenset[str]]]


def _team_dir_used() -> bool:
    try:
        with os.scandir(config.team_dir()) as entries:
            return any(True for _ in entries)
    except OSError:
        return False


def _teammates(project: ProjectRef, me: str) -> _Mates:
    """(author, the slug their checkout files this project under) -> their
    newest checkpoint's (session, ids), for each teammate whose copy daimon
    reads as this project's by origin (`store.read_team`, newest first)."""
    if not project.path or not _team_dir_used():
        return {}
    mates: _Mates = {}
    self_slug = store.project_slug(me)
    with kept_fold.active():  # read_team first judges this bucket's events ledger: only its appended rows again
        team = store.read_team(project_dir=project.path)
    for author, checkpoint in team:
        slug = _str(checkpoint.get("project_slug"))
        if slug is None or slug == project.slug or store.project_slug(author) == self_slug:
            continue
        ids = frozenset(item["id"] for _field, item in schema.iter_items(checkpoint) if isinstance(item.get("id"), str))
        mates.setdefault((author, slug), (_str(checkpoint.get("session_id")), ids))
    return mates


def _shared_state(row: Mapping, bucket: _Bucket | None, newest: tuple[str | None, frozenset[str]]
                  ) -> tuple[HitState, str | None, bool]:
    """A teammate's copy of this project: this project's ledgers say what
    closed it, their newest checkpoint whether it stands."""
    state, detail, _live = _state(row, bucket)
    session_id, ids = newest
    if state == "not carried" and (row.get("item_id") in ids or (session_id and row.get("session_id") == session_id)):
        state = "active"
    return state, detail, False


def _hits(rows: list, project: ProjectRef, parsed: SearchQuery, me: str, team: bool, limit: int,
          mates: _Mates, now: float) -> list[SearchHit]:
    cache: dict[str, _Bucket | None] = {}
    hits: list[SearchHit] = []
    for row in rows:
        author = _str(row.get("author"))
        teammate = bool(author and author != me)
        if teammate and not team:
            continue
        slug = _str(row.get("project_slug"))
        newest = mates.get((author, slug)) if teammate and author and slug else None
        held = _bucket(cache, project.slug if newest is not None else slug, now)
        if newest is not None:
            state, detail, live = _shared_state(row, held, newest)
        else:
            state, detail, live = _state(row, held)
        item_id = _str(row.get("item_id"))
        # An item the briefing holds: the briefing's mark; else recall's stored trust.
        shown = held.marks.get(item_id) if held is not None and item_id and newest is None else None
        hit = SearchHit(
            item_id=_str(row.get("item_id")),
            text=str(row.get("text") or ""),
            quote=_str(row.get("quote")),
            kind=str(row.get("kind") or ""),
            trust=_str(row.get("trust")),
            mark=shown or _mark(row),
            project_slug=slug,
            session_id=_str(row.get("session_id")),
            created=_iso(row.get("created")),
            author=author,
            stated_by=_str(row.get("stated_by")),
            teammate=teammate,
            shared_project=project.slug if newest is not None else None,
            state=state,
            state_detail=detail,
            live=live and slug == project.slug and not teammate,
            score=float(row.get("match_score") or 0.0),
        )
        if hit_matches(hit, parsed):
            hits.append(hit)
        if len(hits) >= limit:
            break
    return hits


def prepare(project: ProjectRef) -> SearchResult:
    """Pay daimon's cold costs before the first keystroke: freshen the index
    (`recall.warm`, daimon's own rebuild when stale) and fold the verdict
    source recall judges every row with (`view.judge`, memoized by daimon)."""
    started = time.perf_counter()
    with recall_generation.held():
        recall.warm()
        view.judge(project.slug)
    return SearchResult(query="", seconds=time.perf_counter() - started)
