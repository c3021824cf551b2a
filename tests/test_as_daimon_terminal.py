"""Issue 40 §8: `brief --as-daimon` to a terminal. daimon's bytes go to a pipe
or a file unchanged; to a terminal a control sequence daimon's text holds (a
title change, a screen clear) would act, so it is shown inert and stderr says
so, unless `--raw` asks for daimon's bytes there too."""

from __future__ import annotations

import io

import pytest

from daimon_tui import cli
from daimon_tui.store.daimon_api import brief_verb

HOSTILE = "Project: p\n- [✓ verbatim] renamed \x1b]0;pwned\x07 and cleared \x1b[2J the screen\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(brief_verb, "brief", lambda *a, **kw: brief_verb.Printed(0, HOSTILE, ""))


def _run(monkeypatch: pytest.MonkeyPatch, out: io.StringIO, *extra: str) -> tuple[int, str, str]:
    err = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    code = cli.main(["brief", "--as-daimon", "--project", "/", *extra])
    return code, out.getvalue(), err.getvalue()


def test_to_a_terminal_control_sequences_are_named_on_stderr(printed, monkeypatch) -> None:
    code, out, err = _run(monkeypatch, _Terminal())
    assert code == 0 and "\x1b" not in out and "\\x1b]0;pwned\\x07" in out
    assert "control sequence" in err and "--raw" in err and "2" in err


def test_raw_passes_daimons_bytes_to_the_terminal(printed, monkeypatch) -> None:
    code, out, err = _run(monkeypatch, _Terminal(), "--raw")
    assert code == 0 and out == HOSTILE and "control sequence" in err


def test_to_a_pipe_the_bytes_are_daimons_and_nothing_is_said(printed, monkeypatch) -> None:
    code, out, err = _run(monkeypatch, io.StringIO())
    assert code == 0 and out == HOSTILE and err == ""


def test_help_says_what_reaches_a_terminal(capsys) -> None:
    assert cli.main(["brief", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "--raw" in shown and "control sequence" in shown and "pipe" in shown
