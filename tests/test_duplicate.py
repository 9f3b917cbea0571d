"""benchmarks/duplicate.py: the duplicate match against an older commit's bot, without a git export.

Both sides the same code with the same seeds must play every table alike, so
every deal's difference is exactly 0: once with both sides in this process,
once with one side a server subprocess importing this tree as its "baseline"
folder (the JSON-lines protocol, replay from the actions sent, the result check).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def duplicate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("duplicate", ROOT / "benchmarks" / "duplicate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["duplicate"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_same_bot_on_both_sides_scores_exactly_zero(duplicate: ModuleType) -> None:
    here = duplicate.SideSpec("normal")
    scores, _ = duplicate.run_match(2, 5, here, here)
    info = duplicate.summary(scores, 1.0)
    assert [s.seat_diffs for s in scores] == [(0, 0, 0)] * 2
    assert info["tables_as_baseline"] == 6
    assert info["ci95_pins_per_deal"] == [0.0, 0.0]
    assert info["new"] == info["baseline"]
    assert info["new"]["declared"] == 2


def test_a_server_subprocess_plays_as_this_process_does(duplicate: ModuleType) -> None:
    local = duplicate.Local("normal")
    remote = duplicate.Remote(ROOT, "normal")  # this tree as the "baseline" folder
    try:
        for index, number in enumerate(duplicate.deal_numbers(1, 3)):
            score = duplicate.play_deal([local, remote], index, number, 3)
            assert score.seat_diffs == (0, 0, 0) and score.same_play == 3
        with pytest.raises(RuntimeError, match="dealt differently"):
            remote.request({"op": "deal", "table": "x", "number": 1, "hands": [[]] * 3, "seeds": [0] * 3, "level": ""})
    finally:
        remote.close()
    assert remote.proc.returncode == 0
