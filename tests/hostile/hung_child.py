"""A judging child that hangs (run as `python -m tests.hostile.hung_child`).

`DAIMON_TUI_TEST_HANG=before-write`: it never answers anything.
`DAIMON_TUI_TEST_HANG=after-write`: it carries out a write request (the real
`write_request.write`), then never answers: the write landed, nobody was told.
`DAIMON_TUI_TEST_HANG=on-write`: it answers reads as the real child does and
never answers a write.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> None:
    mode = os.environ.get("DAIMON_TUI_TEST_HANG", "before-write")
    answers = sys.stdout.buffer
    calls = None
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if mode == "on-write" and request.get("what") != "write":
            from daimon_tui.store.child import judge_child

            judge_child._warm(request)
            calls = calls or judge_child._calls()
            answers.write(judge_child._answer(calls, request) + b"\n")
            answers.flush()
            continue
        if mode == "after-write" and request.get("what") == "write":
            from daimon_tui.models import ProjectRef
            from daimon_tui.store.child import write_request

            write_request.write(ProjectRef.model_validate(request["project"]), *request.get("args", ()))
        time.sleep(3600)


if __name__ == "__main__":
    main()
