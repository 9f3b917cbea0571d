"""Nothing lost: a damaged autosave is read up to its last good action (the damaged file
kept aside, the player told what was lost)."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.screens import table_of
from tests.test_history import _autoplayed
from vira_desktop.session.autosave import Autosave
from vira_desktop.session.table import SaveError, Table


def _same_up_to(table: Table, original: Table, n: int) -> bool:
    return [(e.deal, e.player, e.action) for e in table.log] == [(e.deal, e.player, e.action) for e in original.log[:n]]


def _saved_in_database(path: Path) -> Table:
    table, _ = _autoplayed(3, seed=5)
    saved = Autosave(path)
    saved.write(table.snapshot())
    saved.close()  # the journal checkpointed into the file: it is whole on its own
    return table


def _log_rows_by_page(data: bytes, game_root: int) -> dict[int, list[int]]:
    """The rowids (the log's ``n``) on each leaf page of an SQLite file, read from the file
    format itself (the game table's root page left out)."""
    size = int.from_bytes(data[16:18], "big")
    out: dict[int, list[int]] = {}
    for page in range(2, len(data) // size + 1):
        at = (page - 1) * size
        if data[at] != 0x0D or page == game_root:  # a table's leaf page
            continue
        cells = int.from_bytes(data[at + 3 : at + 5], "big")
        rows = []
        for c in range(cells):
            i = at + int.from_bytes(data[at + 8 + 2 * c : at + 10 + 2 * c], "big")
            for _ in range(2):  # the payload's length, then the rowid
                value = 0
                while True:
                    value, i = (value << 7) | (data[i] & 0x7F), i + 1
                    if data[i - 1] < 0x80:
                        break
            rows.append(value)
        out[page] = rows
    return out


def test_a_database_save_damaged_at_20_random_places_is_recovered_up_to_its_last_good_action(tmp_path: Path) -> None:
    path = tmp_path / "autosave.sqlite3"
    original = _saved_in_database(path)
    total = len(original.log)
    data = path.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    with closing(sqlite3.connect(path)) as db:
        roots = dict(db.execute("SELECT name, rootpage FROM sqlite_master"))
    game_root = roots["game"]
    pages = _log_rows_by_page(data, game_root)
    assert sorted(n for rows in pages.values() for n in rows) == list(range(total)) and len(pages) >= 3
    rng = random.Random(29)
    kinds = ["cut", "bad action", "wrong type", "missing action", "unreadable action"] * 4
    for i, kind in enumerate(kinds):
        damaged = tmp_path / f"damaged-{i}.sqlite3"
        if kind == "cut":  # a file cut short anywhere after its tables' first pages
            at = rng.randrange(max(roots.values()) * size, len(data))
            damaged.write_bytes(data[:at])
            whole = {n for page, rows in pages.items() if page * size <= at for n in rows}
            expected = next(n for n in range(total + 1) if n not in whole)  # the actions on whole pages
        else:
            damaged.write_bytes(data)
            expected = rng.randrange(total)
            with closing(sqlite3.connect(damaged, isolation_level=None)) as db:
                entry = json.loads(db.execute("SELECT entry FROM log WHERE n = ?", (expected,)).fetchone()[0])
                if kind == "bad action":
                    entry["action"] = "buy 2S 2S 2S"
                elif kind == "wrong type":
                    entry[rng.choice(["deal", "human", "action"])] = [1, 2]
                text = json.dumps(entry)[:-9] if kind == "unreadable action" else json.dumps(entry)
                if kind == "missing action":
                    db.execute("DELETE FROM log WHERE n = ?", (expected,))
                else:
                    db.execute("UPDATE log SET entry = ? WHERE n = ?", (text, expected))
        with pytest.raises(SaveError):
            Autosave(damaged).load()
        table, recovered = Autosave(damaged).recover()
        assert recovered.kept == expected, (kind, recovered)
        assert _same_up_to(table, original, expected)
        assert recovered.cut == (kind in ("cut", "missing action", "unreadable action"))
        assert recovered.problem or recovered.cut
        assert table.session.ledger.conserved()


def test_continue_after_a_damaged_save_goes_on_from_its_last_good_action_and_keeps_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_gui import make_app, run
    from vira_desktop.paths import autosave_file
    from vira_desktop.scenes.table import TableScene

    app = make_app(tmp_path, monkeypatch)
    original = _saved_in_database(autosave_file())
    with closing(sqlite3.connect(autosave_file(), isolation_level=None)) as db:
        db.execute("UPDATE log SET entry = json_set(entry, '$.action', 'not an action') WHERE n = 40")
    damaged = autosave_file().read_bytes()
    app.resume_autosave()
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, TableScene)
    assert _same_up_to(table_of(scene), original, 40) and len(table_of(scene).log) == 40
    assert "40" in app.notice and scene.view.shown.log[-1] == app.notice  # said at the table, as the log's last line
    aside = list(autosave_file().parent.glob("autosave.sqlite3.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    app.flush_saves()  # and the game goes on in a new save, from the last good action
    assert [e.action for e in Autosave(autosave_file()).load().log][:40] == [e.action for e in original.log[:40]]


def test_the_database_save_follows_undo_and_a_new_game(tmp_path: Path) -> None:
    path = tmp_path / "autosave.sqlite3"
    table, _ = _autoplayed(2, seed=8)
    saved = Autosave(path)
    snapshot = table.snapshot()
    for n in (10, len(table.log), 30, 31, len(table.log)):  # on, taken back, on again
        saved.write(type(snapshot)(snapshot.header, tuple(table.log[:n])))
        assert Autosave(path).load().log == table.log[:n]
    rebuilt = [type(e)(**vars(e)) for e in table.log]  # equal entries, not the same ones (a replay)
    saved.write(type(snapshot)(snapshot.header, tuple(rebuilt[:20])))
    assert Autosave(path).load().log == table.log[:20]
    other, _ = _autoplayed(1, seed=9)
    saved.write(other.snapshot())  # a new game replaces the old one whole
    assert Autosave(path).load().key == other.key and Autosave(path).load().log == other.log
    saved.clear()
    assert not Autosave(path).exists() and not list(tmp_path.glob("autosave.sqlite3*"))
