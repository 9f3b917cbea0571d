"""Nothing lost: a damaged autosave is read up to its last good action (the damaged file
kept aside, the player told what was lost)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.test_history import _autoplayed
from vira_desktop.session.table import SaveError, Table


def _saved(tmp_path: Path) -> tuple[Path, Table]:
    table, _ = _autoplayed(3, seed=5)
    path = tmp_path / "autosave.json"
    table.save(path)
    return path, table


def _same_up_to(table: Table, original: Table, n: int) -> bool:
    return [(e.deal, e.player, e.action) for e in table.log] == [(e.deal, e.player, e.action) for e in original.log[:n]]


def test_a_save_damaged_at_20_random_places_is_recovered_up_to_its_last_good_action(tmp_path: Path) -> None:
    path, original = _saved(tmp_path)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    total = len(data["log"])
    rng = random.Random(23)
    log_at = text.index('"log"')
    ends: list[int] = []  # where each entry of the log ends in the file
    decoder, i = json.JSONDecoder(), text.index("[", log_at) + 1
    while len(ends) < total:
        while text[i] in " ,":
            i += 1
        _, i = decoder.raw_decode(text, i)
        ends.append(i)
    kinds = ["cut", "bad action", "wrong type", "missing key"] * 5
    for i, kind in enumerate(kinds):
        damaged = tmp_path / f"damaged-{i}.json"
        if kind == "cut":  # a file cut short anywhere after its header
            at = rng.randrange(log_at + 10, len(text))
            damaged.write_text(text[:at], encoding="utf-8")
            expected = sum(end <= at for end in ends)  # the entries written to their end
        else:
            n = rng.randrange(total)
            bad = json.loads(text)
            entry = bad["log"][n]
            if kind == "bad action":
                entry["action"] = "buy 2S 2S 2S"
            elif kind == "wrong type":
                entry[rng.choice(["deal", "human", "action"])] = [1, 2]
            else:
                del entry["player"]
            damaged.write_text(json.dumps(bad), encoding="utf-8")
            expected = n
        with pytest.raises(SaveError):
            Table.load(damaged)
        table, recovered = Table.recover(damaged)
        assert recovered.kept == expected, (kind, recovered)
        assert _same_up_to(table, original, expected)
        assert recovered.cut == (kind == "cut")
        assert recovered.problem or kind == "cut"
        assert table.session.ledger.conserved()


def test_continue_after_a_damaged_save_goes_on_from_its_last_good_action_and_keeps_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_gui import make_app, run
    from vira_desktop.paths import autosave_file
    from vira_desktop.scenes.table import TableScene

    app = make_app(tmp_path, monkeypatch)
    path, original = _saved(tmp_path)
    bad = json.loads(path.read_text(encoding="utf-8"))
    bad["log"][40]["action"] = "not an action"
    autosave_file().parent.mkdir(parents=True, exist_ok=True)
    autosave_file().write_text(json.dumps(bad), encoding="utf-8")
    app.resume_autosave()
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, TableScene)
    assert _same_up_to(scene.table, original, 40) and len(scene.table.log) == 40
    assert "40" in app.notice and scene.view.log[-1] == app.notice  # said at the table, as the log's last line
    aside = list(autosave_file().parent.glob("autosave.json.damaged-*"))
    assert len(aside) == 1 and json.loads(aside[0].read_text(encoding="utf-8")) == bad
