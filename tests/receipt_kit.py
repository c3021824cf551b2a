"""One receipt kit per test process (each xdist worker), for every store a
test builds: the signer written once and the keys daimon made with it (see
`demo.ReceiptKit`). Helpers and Hypothesis tests, which build stores without
fixtures, take it from here; the `receipt_kit` fixture is the same kit."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from daimon_tui.store.demo import builder as demo
from tests.sandbox_paths import SANDBOX_PREFIX, sandbox_base


@functools.cache
def shared_kit() -> demo.ReceiptKit:
    base = Path(tempfile.mkdtemp(prefix=SANDBOX_PREFIX, dir=sandbox_base())).resolve()
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    return demo.make_receipt_kit(base)
