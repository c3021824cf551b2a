"""The demo's temporary directory is shown as `<demo>`, as a path and as daimon's slug of it."""

from __future__ import annotations

from daimon_tui.domain.path_mask import PathMask


def test_masks_the_root_and_its_slug() -> None:
    mask = PathMask("/var/folders/x1/T/tmpab_c", "-var-folders-x1-T-tmpab_c")
    note = "/var/folders/x1/T/tmpab_c/daimon/checkpoints/-var-folders-x1-T-tmpab_c-daimon-proj/latest.json is torn"
    assert mask.apply(note) == "<demo>/daimon/checkpoints/<demo>-daimon-proj/latest.json is torn"
    assert mask.apply("/home/me/proj/latest.json") == "/home/me/proj/latest.json"


def test_an_empty_root_masks_nothing() -> None:
    assert PathMask("", "").apply("/tmp/x") == "/tmp/x"
    assert PathMask("/tmp/d", "").apply("/tmp/d/x -y") == "<demo>/x -y"
