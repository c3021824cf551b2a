"""The built-in demo store, made by daimon's own `testing` helpers.

Everything is written by daimon's code inside `testing.sandbox`, in a temporary
directory: the user's real `~/.daimon` is never read or written. The store holds
several sessions over several days, all three trust classes, carried and stale
items, a question corroborated x3, a resolved and a quarantined item, a standing
ruling, a handoff, signed receipts (real Ed25519 through `signer`) and one tampered
session file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import cryptography

from daimon_tui.store.daimon_api import writing as daimon_writing
from daimon_tui.store.daimon_api.public import Writer, capture, config, serializer, store, testing

DEMO_NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SIGNER_NAME = "vitni-demo"


@dataclass(frozen=True, slots=True)
class DemoStore:
    root: Path
    project: Path
    checkpoint_dir: Path


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_signer(directory: Path) -> Path:
    """An executable wrapper that runs `signer` with this interpreter.

    daimon starts it once per receipt, so it starts lean: isolated and without
    `site` (`-IS`: no .pth files, no editable-install finders), with only the
    directory that holds `cryptography` on its path."""
    path = directory / SIGNER_NAME
    signer = str(Path(__file__).with_name("signer.py"))
    packages = str(Path(cryptography.__file__).resolve().parent.parent)
    path.write_text(
        f"#!{sys.executable} -IS\nimport sys\nsys.path.append({packages!r})\n"
        f"import runpy\nrunpy.run_path({signer!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def demo_settings(root: Path, project: Path, signer: Path | None) -> dict[str, str]:
    settings = {
        "DAIMON_PROJECT_DIR": str(project),
        "DAIMON_AUTHOR": "demo",
        "DAIMON_PLAIN": "1",
    }
    if signer is not None:
        settings["DAIMON_RECEIPTS"] = "1"
        settings["DAIMON_VITNI_CLI"] = str(signer)
    return settings


@dataclass(frozen=True, slots=True)
class ReceiptKit:
    """A signer and the signing keys daimon made with it, shared by stores built
    one after another (the tests'). daimon starts the signer to probe it (once
    per process and signer path) and to derive a store's public key (once per
    keys directory): a kit leaves each store only its own signatures to make."""

    signer: Path
    keys: Path


def make_receipt_kit(directory: Path) -> ReceiptKit:
    """Write the signer into `directory` and have daimon make its keys there,
    by signing one checkpoint in a throwaway sandbox (`directory/daimon`, which
    must suit `testing.sandbox`: empty, outside $HOME and any git work tree)."""
    with sandboxed(directory) as kit_store:
        testing.seed_checkpoint(kit_store.project, session("S-kit", DEMO_NOW, "Signing keys"), session_id="S-kit")
        keys = config.keys_dir()
    if not any(keys.iterdir()):
        raise RuntimeError(f"daimon made no signing keys in {keys}")
    return ReceiptKit(directory / SIGNER_NAME, keys)


@contextlib.contextmanager
def sandboxed(root: Path, *, receipts: bool = True, settings: Mapping[str, str] | None = None,
              kit: ReceiptKit | None = None) -> Iterator[DemoStore]:
    """Enter daimon's sandbox at `root/daimon`, with a project inside it
    (`settings` adds daimon settings, e.g. a byte budget). Receipts are signed
    by the kit's signer with its keys copied in, else by a new signer."""
    sandbox_root = root / "daimon"
    project = sandbox_root / "proj"
    signer = (kit.signer if kit else write_signer(root)) if receipts else None
    with testing.sandbox(sandbox_root, settings={**demo_settings(root, project, signer), **(settings or {})}) as sb:
        if receipts and kit is not None:
            shutil.copytree(kit.keys, config.keys_dir(), dirs_exist_ok=True)
        project.mkdir(exist_ok=True)
        yield DemoStore(sb.root, project.resolve(), sb.checkpoint_dir)


def demo_root(project: Path | str) -> Path:
    """The temporary directory a demo project lives in (`root/daimon/proj`, see `sandboxed`)."""
    return Path(project).parent.parent


def session(session_id: str, created: datetime, topic: str) -> dict:
    cp = testing.sample_checkpoint(topic=topic)
    cp["session_id"] = session_id
    cp["created"] = _stamp(created)
    cp["transcript_hash"] = hashlib.sha256(session_id.encode()).hexdigest()
    cp["working_context"]["recent_decisions"] = []
    cp["working_context"]["open_questions"] = []
    return cp


@contextlib.contextmanager
def _events_at(when: datetime) -> Iterator[None]:
    """daimon's event writer stamps the wall clock; the demo's rows read `when`."""

    class At(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[override]
            return when.astimezone(tz) if tz else when.replace(tzinfo=None)

    with daimon_writing.store_clock(At):
        yield


def seed(project: Path, checkpoint: dict) -> None:
    """Seed one session the way capture does: carry the previous one forward.
    The rows the capture writes (its corroborations) are stamped when the
    session ended, as a capture at the session's end stamps them."""
    with _events_at(datetime.fromisoformat(checkpoint["created"].replace("Z", "+00:00"))):
        carried = capture.carry_forward(checkpoint, str(project))
    testing.seed_checkpoint(project, carried, session_id=checkpoint["session_id"])


RETRY_QUESTION = {
    "text": "Should uploads retry on HTTP 429 with exponential backoff?",
    "trust": "verbatim",
    "quote": "retry on 429 with exponential backoff",
}
SINGLE_THREAD = {
    "text": "Keep the upload worker single-threaded for now",
    "trust": "verbatim",
    "quote": "keep it single-threaded for now",
}

# What the person said in each demo session: a verbatim item is verbatim only
# if daimon's own matcher finds its quote here, as capture would.
TRANSCRIPTS = {
    "S-day1": "user: Uploads fail under load. We should retry on 429 with exponential backoff.\n"
    "user: And keep it single-threaded for now, until we profile it.",
    "S-day2": "user: Still: retry on 429 with exponential backoff. Keep it single-threaded for now.",
    "S-day3": "user: Retry on 429 with exponential backoff, as agreed.\n"
    "user: Let's ship it behind the UPLOAD_RETRY flag and watch the dashboards.",
}


def witnessed(checkpoint: dict, *, receipts: bool = False) -> dict:
    """Each verbatim quote checked against the session's transcript by daimon's
    matcher (`serializer.quote_matches`): verified if found, else inferred.
    With `receipts` (host transcripts written), each verified quote also gets
    the receipt capture stamps, binding the turn that holds it."""
    transcript = TRANSCRIPTS[checkpoint["session_id"]]
    for section in (checkpoint["working_context"], checkpoint["epistemic_snapshot"]):
        for value in section.values():
            for item in value if isinstance(value, list) else ():
                if isinstance(item, dict) and item.get("trust") == "verbatim":
                    item["quote_verified"] = serializer.quote_matches(item.get("quote"), transcript)
                    if not item["quote_verified"]:
                        item["trust"] = "inferred"
                    elif receipts:
                        from daimon_tui.store.demo.transcripts import receipt_for

                        receipt = receipt_for(checkpoint["session_id"], item.get("quote"), checkpoint["created"])
                        if receipt is not None:
                            item["quote_provenance"] = receipt
    return checkpoint


DEMO_HANDOFF = "Run the retry tests before touching the ceiling\nShip behind UPLOAD_RETRY once the nightly job moves"


def leave_handoff(project: Path, note: str, when: datetime) -> None:
    """A baton, through daimon's own event writer (what `daimon handoff` calls).
    That writer stamps the wall clock; the demo renders the same every run,
    so its clock reads `when` for this one append."""
    with _events_at(when):
        store.append_event("", "active", note=note, kind="handoff", project_dir=str(project), writer=Writer.HUMAN)


def populate(project: Path, now: datetime = DEMO_NOW, *, transcripts: bool = False) -> None:
    """Write the demo sessions into the active sandbox (with `transcripts`, the
    host transcripts daimon's locator finds for them too)."""
    if transcripts:
        from daimon_tui.store.demo.transcripts import write_demo_transcripts

        write_demo_transcripts({"S-day1": now - timedelta(days=10), "S-day2": now - timedelta(days=5),
                                "S-day3": now - timedelta(days=1)})
    day1 = session("S-day1", now - timedelta(days=10), "Upload retry policy")
    wc, es = day1["working_context"], day1["epistemic_snapshot"]
    wc["open_questions"] = [
        dict(RETRY_QUESTION),
        {"text": "Whether the staging bucket is shared with the nightly job", "trust": "inferred"},
        {"text": "Does the upload API send Retry-After headers when throttling?", "trust": "inferred"},
        {
            "text": "Branch feature/retry-backoff is waiting for review as PR #42",
            "trust": "inferred",
            "external_state": True,
        },
    ]
    wc["recent_decisions"] = [
        dict(SINGLE_THREAD),
        {
            "text": "Use a 30 second ceiling for upload retries",
            "trust": "inferred",
            "because": "the gateway times out at 60s",
        },
    ]
    es["uncertainties"] = [{"text": "Whether gzip uploads count twice against quota", "trust": "inferred"}]
    seed(project, witnessed(day1, receipts=transcripts))

    day2 = session("S-day2", now - timedelta(days=5), "Retry policy rollout")
    day2["working_context"]["open_questions"] = [dict(RETRY_QUESTION)]
    day2["working_context"]["recent_decisions"] = [
        dict(SINGLE_THREAD),
        {"text": "Log every retry attempt with its attempt number", "trust": "inferred"},
    ]
    seed(project, witnessed(day2, receipts=transcripts))

    day3 = session("S-day3", now - timedelta(days=1), "Retry policy rollout")
    day3["working_context"]["open_questions"] = [dict(RETRY_QUESTION)]
    day3["working_context"]["recent_decisions"] = [
        {"text": "Switch the nightly job to its own bucket prefix", "trust": "inferred"},
        {
            "text": "Ship the retry change behind the UPLOAD_RETRY flag",
            "trust": "verbatim",
            "quote": "ship it behind the UPLOAD_RETRY flag",
        },
    ]
    day3["epistemic_snapshot"]["strong_beliefs"] = [
        {"text": "The nightly job writes to the same bucket prefix"}
    ]
    day3["epistemic_snapshot"]["uncertainties"] = [
        {"text": "Whether the CDN caches 429 responses from the upload API", "trust": "inferred"},
        {"text": "Whether src/upload/retry.py still reads the old RETRY_MAX setting", "trust": "inferred"},
    ]
    day3["epistemic_snapshot"]["contradictions_flagged"] = [
        {"text": "The runbook says 3 retries but the config says 5", "trust": "inferred"}
    ]
    seed(project, witnessed(day3, receipts=transcripts))

    testing.seed_ruling(
        project, subject="uploads", verdict="Never retry non-idempotent uploads automatically"
    )
    leave_handoff(project, DEMO_HANDOFF, now - timedelta(hours=2))
    latest = store.read_latest_body(project_dir=str(project), route=store.Route.OWN, admit=store.Admit.ANY)
    by_text = {
        item.get("text"): item.get("id")
        for section in (latest.get("working_context", {}), latest.get("epistemic_snapshot", {}))
        for value in section.values()
        if isinstance(value, list)
        for item in value
        if isinstance(item, dict)
    }
    resolved = by_text["Does the upload API send Retry-After headers when throttling?"]
    store.append_event(
        resolved,
        "resolved",
        note="API docs say Retry-After is sent",
        source="ui",
        project_dir=str(project),
        writer=Writer.HUMAN,
    )
    from daimon_tui.store.daimon_api.public import trust

    uncertainty = "Whether the CDN caches 429 responses from the upload API"
    trust.propose(
        text=uncertainty,
        kind="uncertainty",
        reason="the CDN is bypassed for uploads",
        evidence=["issue:42"],
        channel="ui",
        item_id=by_text[uncertainty],
        project_dir=str(project),
    )


def _git(project: Path, when: datetime, *args: str) -> None:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(project),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "P. Nolan",
        "GIT_AUTHOR_EMAIL": "pn@example.invalid",
        "GIT_COMMITTER_NAME": "P. Nolan",
        "GIT_COMMITTER_EMAIL": "pn@example.invalid",
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_DATE": stamp,
    }
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-C", str(project), *args], env=env, check=True,
                   capture_output=True)


def init_repo(project: Path, now: datetime = DEMO_NOW) -> None:
    """A small git history for the demo's world-checks to read: the retry
    branch was merged as PR #42 yesterday, and the RETRY_MAX module changed
    since the last session."""
    (project / "src" / "upload").mkdir(parents=True, exist_ok=True)
    (project / "src" / "upload" / "retry.py").write_text("RETRY_MAX = 5\n", encoding="utf-8")
    (project / "pyproject.toml").write_text('[project]\nname = "uploader"\ndependencies = ["httpx==0.27.0"]\n',
                                            encoding="utf-8")
    _git(project, now - timedelta(days=12), "init", "-q", "-b", "main")
    _git(project, now - timedelta(days=12), "add", "-A")
    _git(project, now - timedelta(days=12), "commit", "-q", "-m", "Initial uploader")
    _git(project, now - timedelta(days=9), "checkout", "-q", "-b", "feature/retry-backoff")
    (project / "src" / "upload" / "backoff.py").write_text("BASE = 0.5\n", encoding="utf-8")
    _git(project, now - timedelta(days=9), "add", "-A")
    _git(project, now - timedelta(days=9), "commit", "-q", "-m", "Exponential backoff on 429")
    _git(project, now - timedelta(days=1), "checkout", "-q", "main")
    _git(project, now - timedelta(days=1), "merge", "-q", "--no-ff", "-m",
         "Merge pull request #42 from feature/retry-backoff", "feature/retry-backoff")
    _git(project, now - timedelta(days=1), "branch", "-q", "-d", "feature/retry-backoff")
    # After the last session: the retry module reads its ceiling from settings now.
    (project / "src" / "upload" / "retry.py").write_text(
        "from upload.settings import SETTINGS\n\nRETRY_MAX = SETTINGS.retry_max\nCEILING_S = 30\n", encoding="utf-8")
    _git(project, now - timedelta(hours=12), "commit", "-q", "-a", "-m", "Read RETRY_MAX from settings")


def tamper(checkpoint_dir: Path, session_id: str) -> None:
    """Edit a signed session file after signing: its receipt no longer binds it."""
    path = checkpoint_dir / f"{session_id}.json"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(" ")


@contextlib.contextmanager
def demo_store(now: datetime = DEMO_NOW, *, transcripts: bool = True) -> Iterator[DemoStore]:
    """A fresh demo store in a temporary directory, active for this context."""
    with tempfile.TemporaryDirectory(prefix="daimon-tui-demo-") as tmp:
        os.chmod(tmp, 0o700)
        with sandboxed(Path(tmp).resolve()) as demo:
            populate(demo.project, now, transcripts=transcripts)
            tamper(demo.checkpoint_dir, "S-day2")
            init_repo(demo.project, now)
            yield demo
