"""History (session/history.py): every finished deal kept in SQLite, its schema versioned and
migrated, a damaged file set aside, a deal kept once however often it is handed over."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.screens import runner_of, table_of
from vira_desktop.i18n import t
from vira_desktop.scenes.app import App
from vira_desktop.session.factory import played_by_bots
from vira_desktop.session.history import SCHEMA_VERSION, History, HistoryWriter, open_history
from vira_desktop.session.record import read_record, replay
from vira_desktop.session.runner import CommittedDeal, TableRunner
from vira_desktop.session.table import SeatConfig, Table


def _autoplayed(deals: int, seed: int = 3, seats: int = 3) -> tuple[Table, list[CommittedDeal]]:
    return played_by_bots(["Anna", "Bo", "Cilla", "Dan"][:seats], seed, deals)


def _keep(history: History, committed: list[CommittedDeal]) -> list[int]:
    return [
        history.add_deal(d.session_key, d.index, d.record, d.players, d.levels, started=d.started) for d in committed
    ]


def test_every_deal_of_a_session_is_kept_with_its_record_result_seats_and_levels(tmp_path: Path) -> None:
    table, committed = _autoplayed(12, seats=4)
    assert len(committed) == 12
    history = History(tmp_path / "history.sqlite3")
    ids = _keep(history, committed)
    assert history.count() == 12 == len(set(ids))
    (session,) = history.sessions()
    assert session.key == table.key and session.deals == 12
    assert session.seats == ("Anna", "Bo", "Cilla", "Dan") and session.levels["Bo"] == "normal"
    rows = history.deals(session_id=session.id)
    assert [r.number for r in rows] == list(range(12))
    for row, deal in zip(rows, committed, strict=True):
        assert history.record(row.id) == deal.record  # the record's YAML reads back as it was
        assert replay(read_record(history.record(row.id))).result is not None
        assert row.result == deal.record["result"]
        assert (row.game, row.declarer, row.outcome) == (
            deal.record["result"]["game"],
            deal.record["result"]["declarer"],
            deal.record["result"]["outcome"],
        )
        assert len(row.seats) == 3 and row.seats[0] == deal.record["forehand"]
    # the filters agree with the rows
    first = rows[0]
    assert history.deals(game=first.game) == [r for r in rows if r.game == first.game]
    assert history.deals(declarer=first.declarer, outcome=first.outcome) == [
        r for r in rows if r.declarer == first.declarer and r.outcome == first.outcome
    ]
    assert history.deals(since="2000-01-01", until="2000-01-02") == []
    for r in rows:  # pins go round; a result counts the bets paid in too
        assert sum(r.result["pins"].values()) == 0
        assert r.net_pins(r.declarer) == r.result["pins"][r.declarer] - 8 * r.result["pulla"][r.declarer]


def test_a_deal_handed_over_again_is_kept_once(tmp_path: Path) -> None:
    _, committed = _autoplayed(3)
    history = History(tmp_path / "h.sqlite3")
    first = _keep(history, committed)
    assert _keep(history, committed) == first
    assert history.count() == 3


def test_a_resumed_session_offers_its_finished_deals_again(tmp_path: Path) -> None:
    """A deal handed to the writer just before a kill is offered again when its session is
    resumed from the autosave, and kept once."""
    table, committed = _autoplayed(4)
    again = Table.from_json(table.to_json())
    assert again.key == table.key and again.started == table.started
    offered: list[CommittedDeal] = []
    TableRunner(again, pause=0, on_committed=offered.append)
    assert [d.index for d in offered] == [0, 1, 2]  # the deals before the one in play
    assert [d.record for d in offered] == [d.record for d in committed[:3]]


def test_an_older_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (text TEXT)")  # a file of schema 0: what was there stays
    db.execute("INSERT INTO notes VALUES ('kept')")
    db.commit()
    db.close()
    history = History(path)
    assert history.schema == SCHEMA_VERSION
    assert history._db.execute("SELECT text FROM notes").fetchone() == ("kept",)
    assert history._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.parametrize("damage", ["garbage", "newer", "cut"])
def test_a_damaged_file_is_set_aside_and_play_goes_on(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "history.sqlite3"
    _, committed = _autoplayed(2)
    history = History(path)
    _keep(history, committed)
    history.close()
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "newer":
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        db.commit()
        db.close()
    else:
        data = path.read_bytes()  # cut short, as by a full disk
        path.write_bytes(data[: len(data) // 2])
    before = path.read_bytes()
    fresh, aside = open_history(path)
    assert aside is not None and aside.startswith("history.damaged-")
    assert (tmp_path / aside).read_bytes() == before  # kept aside as it was
    assert fresh.count() == 0 and fresh.integrity() == "ok"
    _keep(fresh, committed)
    assert fresh.count() == 2


def test_the_writer_keeps_deals_off_the_caller_thread_and_notes_each(tmp_path: Path) -> None:
    _, committed = _autoplayed(3)
    journal = tmp_path / "journal.jsonl"
    told: list[str] = []
    writer = HistoryWriter(tmp_path / "h.sqlite3", journal, told.append)
    for deal in committed:
        writer(deal)
    assert writer.flush()
    assert writer.kept == 3 and not told
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 3
    assert History(tmp_path / "h.sqlite3").count() == 3


def test_kill_9_at_random_moments_loses_no_deal_and_leaves_the_file_whole() -> None:
    """scripts/kill_resume.py, four rounds: an autoplayed session with autosave and history,
    killed at random moments and resumed (docs/figures.md's figure is of 20 rounds)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "scripts/kill_resume.py", "--rounds", "4", "--seed", "7"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed, 0 failed" in done.stdout and "— ok" in done.stdout.splitlines()[-2]


def _kept_with_a_person(tmp_path: Path, name: str = "a.sqlite3", deals: int = 10) -> History:
    """A history of an autoplayed session in which Anna counts as a person (the others are bots)."""
    _, committed = _autoplayed(deals)
    history = History(tmp_path / name)
    for d in committed:
        levels = {**d.levels, "Anna": "human"}
        history.add_deal(d.session_key, d.index, d.record, d.players, levels, started=d.started)
    return history


def test_export_and_import_give_back_the_same_records_and_statistics(tmp_path: Path) -> None:
    from vira_desktop.session.exchange import export_session, import_records
    from vira_desktop.session.statistics import statistics

    a = _kept_with_a_person(tmp_path)
    (session,) = a.sessions()
    paths = export_session(a, session.id, tmp_path / "out")
    assert len(paths) == 10 and all(p.suffix == ".yaml" for p in paths)
    b = History(tmp_path / "b.sqlite3")
    report = import_records(b, [tmp_path / "out"])
    assert len(report.added) == 10 and report.known == 0 and not report.errors
    assert [a.record(r.id) for r in a.deals()] == [b.record(r.id) for r in b.deals()]
    assert a.deals() == b.deals() and a.sessions() == b.sessions()
    assert statistics(a, "Anna") == statistics(b, "Anna")
    again = import_records(b, [tmp_path / "out"])  # nothing already in history is touched
    assert again.added == [] and again.known == 10 and b.count() == 10


def test_a_malformed_file_is_refused_with_the_replay_error_and_history_is_left_alone(tmp_path: Path) -> None:
    import subprocess
    import sys

    from vira_desktop.session.exchange import import_records

    history = _kept_with_a_person(tmp_path, deals=2)
    bad = tmp_path / "bad.yaml"
    bad.write_text("vira: 1\nplayers: [Anna, Bo]\n", encoding="utf-8")
    report = import_records(history, [bad])
    assert report.added == [] and history.count() == 2
    cli = subprocess.run([sys.executable, "-m", "vira_desktop", "replay", str(bad)], capture_output=True, text=True)
    assert cli.returncode == 2
    assert report.errors == [cli.stderr.strip().replace(str(bad), bad.name)]


def test_the_statistics_count_every_deal_of_the_player_once() -> None:
    import tempfile

    from vira_desktop.session.statistics import players_of, statistics

    with tempfile.TemporaryDirectory() as folder:
        history = _kept_with_a_person(Path(folder), deals=24)
        rows = history.deals()
        assert players_of(history)[0] == "Anna" and set(players_of(history)) == {"Anna", "Bo", "Cilla"}
        stats = statistics(history, "Anna")
        history.close()
    mine = [r for r in rows if r.declarer == "Anna"]
    assert stats.deals == 24 == stats.defended + len(mine)
    assert sum(c.declared for c in stats.contracts) == len(mine)
    for line in stats.contracts:
        assert line.home + line.bet + line.kodilj + line.laid == line.declared
        assert line.bid >= 0
    assert sum(d for _, d, _ in stats.months) == len(mine)
    assert stats.beaten == sum(1 for r in rows if r.declarer != "Anna" and r.outcome != "home")
    (point,) = stats.sessions
    assert point.deals == 24 and point.bets == sum(r.net_pins("Anna") for r in rows) / 8
    assert {line.level for line in stats.levels} == {"normal"}
    assert stats.levels[0].per_100 == pytest.approx(100 * point.bets / 24)
    from vira_desktop.session.history import counted_bid

    counted = sum(len({counted_bid(g, n, r.declarer, r.game) for n, g in r.bids if n == "Anna"}) for r in rows)
    assert sum(line.bid for line in stats.contracts) == counted
    for line in stats.contracts:  # a group bid that won the contract counts for the game played
        assert line.game not in ("gask", "köpmisär", "solo") or line.declared == 0


def test_a_file_of_the_first_schema_is_upgraded_with_its_auctions_and_seats_filled_in(tmp_path: Path) -> None:
    from vira_desktop.session import history as h
    from vira_desktop.session.statistics import statistics

    path = tmp_path / "old.sqlite3"
    new = _kept_with_a_person(tmp_path, "old.sqlite3", deals=3)
    before = statistics(new, "Anna")
    new.close()
    db = sqlite3.connect(path)  # back to the first schema: the game as it was before auctions and seats were kept
    db.execute("DROP TABLE seats")
    db.execute("DROP TABLE bids")
    db.execute("ALTER TABLE deals DROP COLUMN bids")
    db.execute("ALTER TABLE sessions DROP COLUMN bowl")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    upgraded = History(path)
    assert upgraded.schema == SCHEMA_VERSION
    assert upgraded.query("SELECT 1 FROM sqlite_master WHERE name = 'deals_played_again'")
    for row in upgraded.deals():
        assert row.bids == h.auction_of(upgraded.record(row.id)) and row.bids
    assert statistics(upgraded, "Anna") == before  # the seats and bids filled in from the deals kept
    assert all(s.bowl is None for s in upgraded.sessions())  # a bowl not kept then: the default


# ---------------------------------------------------------------------- in the window
def test_from_the_menu_history_lists_the_deals_filters_them_and_replays_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Menu → History: every deal kept is listed, the latest first; the outcome filter keeps
    the deals of that outcome; Enter opens the deal chosen in the replay, and Esc comes back."""
    import pygame

    from tests.test_gui import click, key, make_app, run
    from vira_desktop.i18n import t
    from vira_desktop.paths import history_file
    from vira_desktop.scenes.history import HistoryScene
    from vira_desktop.scenes.menu import MENU
    from vira_desktop.scenes.table import ReplayScene

    app = make_app(tmp_path, monkeypatch)
    kept = _kept_with_a_person(history_file().parent, history_file().name, deals=8)
    kept.close()
    index = [entry.action for entry in MENU].index("history")
    while app.stack.top.focus != index:  # type: ignore[union-attr]
        key(app, pygame.K_DOWN)  # past the entries that are off (Continue: no saved game)
    key(app, pygame.K_RETURN)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene)
    assert [r.number for r in scene.deals.shown] == list(range(7, -1, -1))
    outcome = next(menu for menu, what in scene.dropdowns.items() if what == "outcome")
    wanted = scene.deals.shown[0].outcome
    click(app, outcome.rect.center)  # the menu opens; its options are buttons under it
    items = outcome.current_state.options_selection_list.item_list  # type: ignore[union-attr]
    option = next(item for item in items if item["text"] == t(f"words.outcome.{wanted}"))
    click(app, option["button_element"].rect.center)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene) and scene.deals.shown and all(r.outcome == wanted for r in scene.deals.shown)
    key(app, pygame.K_RETURN)
    replay = app.stack.top
    assert isinstance(replay, ReplayScene)
    assert replay.driver.record.names[0] == scene.deals.shown[0].seats[0]
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene
    click(app, next(b for b, what in scene.buttons.items() if what == "statistics").rect.center)
    stats = app.stack.top
    assert type(stats).__name__ == "StatisticsScene"
    assert stats.player == "Anna" and stats.stats.deals == 8  # type: ignore[attr-defined]
    spots = [spot for chart in stats.charts for spot in chart._spots]  # type: ignore[attr-defined]
    assert spots  # bars and points were drawn
    rect, tip = spots[0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    run(app, 2)
    assert stats.charts[0].hover(rect.center) == tip  # type: ignore[attr-defined]
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    assert type(app.stack.top).__name__ == "MenuScene"


def test_an_empty_history_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_gui import make_app

    app = make_app(tmp_path, monkeypatch)
    scene = _nothing_shown(app)
    assert scene.deals.shown == [] and not scene.message  # type: ignore[attr-defined]


def _nothing_shown(app: object) -> object:
    """History and Statistics opened over an empty history (or one begun anew): no deal in
    either; the History screen."""
    from tests.test_gui import run
    from vira_desktop.scenes.app import App
    from vira_desktop.scenes.history import HistoryScene, StatisticsScene

    assert isinstance(app, App)
    app.push("history")
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene) and not scene.deals.rows
    app.push("statistics")
    run(app, 2)
    stats = app.stack.top
    assert isinstance(stats, StatisticsScene) and stats.stats.deals == 0
    return scene


def test_the_replay_steps_by_trick_jumps_to_the_parts_and_shows_every_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the replay window: PgDn goes from trick to trick, the jump buttons (and the keys 1
    to 4) to the auction, the buy, the first card and the payment, and Tab after the third
    seat shows every hand."""
    import pygame

    from tests.test_gui import click, key, make_app
    from vira_desktop.rules.actions import PlayCard
    from vira_desktop.scenes.table import ReplayScene

    app = make_app(tmp_path, monkeypatch)
    _, committed = _autoplayed(1)
    record = read_record(committed[0].record)
    app.push("replay", record=record, title="a deal", pushed=True)
    scene = app.stack.top
    assert isinstance(scene, ReplayScene)
    driver = scene.driver
    marks = driver.landmarks()
    cards = [i for i, a in enumerate(driver.actions) if isinstance(a, PlayCard)]
    assert marks["play"] == cards[0] and marks["payment"] == len(driver.actions) and marks["auction"] == 0
    key(app, pygame.K_PAGEDOWN)
    assert driver.position == cards[0]  # the first trick
    key(app, pygame.K_PAGEDOWN)
    assert driver.position == cards[3]  # the second, the first trick seen whole in the middle
    for played in driver.actions[cards[0] : cards[3]]:
        assert isinstance(played, PlayCard)
        sprite = scene.view.cards.sprite(played.card)
        assert sprite is not None and (sprite.tx, sprite.ty) == scene.view.seat_place(played.seat).trick
    key(app, pygame.K_PAGEUP)
    assert driver.position == cards[0]
    from vira_desktop.scenes.table.input import Command

    buttons = {w.name + str(w.arg): b for b, w in scene.surface.panel.buttons.items() if isinstance(w, Command)}
    click(app, buttons["jump3"].rect.center)  # the payment
    assert driver.at_end and driver.result() is not None
    click(app, buttons["jump0"].rect.center)  # the auction
    assert driver.position == 0
    click(app, buttons["jump1"].rect.center)  # the buy: what follows the auction
    assert driver.position == marks["buy"] > 0
    key(app, pygame.K_3)  # the keys on the buttons: the first card, and back to the auction
    assert driver.position == marks["play"]
    key(app, pygame.K_1)
    assert driver.position == 0
    for _ in range(3):
        key(app, pygame.K_TAB)
    assert driver.all_hands
    state = driver.state()
    assert all(state.view.open_hands.get(s) for s in range(3) if s != driver.viewer)
    key(app, pygame.K_TAB)
    assert not driver.all_hands and driver.viewer == 0


@pytest.mark.parametrize("good", [True, False])
def test_vira_with_a_record_file_opens_it_in_the_replay_or_says_why_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, good: bool
) -> None:
    """``vira FILE.yaml``: the record in the replay window; a malformed one opens the menu
    with the same one-line error as ``vira replay``."""
    import subprocess
    import sys

    from vira_desktop import cli
    from vira_desktop.scenes.app import App

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = Path(__file__).parent / "records" / "laid_solo8.yaml"
    if not good:
        path = tmp_path / "bad.yaml"
        path.write_text("vira: 1\nplayers: [Anna, Bo]\n", encoding="utf-8")
    seen: list[App] = []
    monkeypatch.setattr(App, "run", lambda self: seen.append(self))  # the window's loop: looked at, not run
    assert cli.main([str(path)]) == 0
    (app,) = seen
    scene = type(app.stack.top).__name__
    if good:
        assert scene == "ReplayScene" and app.stack.top.quit_on_back  # type: ignore[union-attr]
    else:
        cli_error = subprocess.run([sys.executable, "-m", "vira_desktop", "replay", str(path)],
                                   capture_output=True, text=True).stderr.strip()  # fmt: skip
        assert scene == "MenuScene" and cli_error.replace(str(path), path.name) in app.notice


def test_a_stored_deal_is_played_again_from_trick_5_with_the_seats_swapped_and_both_are_kept_linked(
    tmp_path: Path,
) -> None:
    """A deal from history, played again from its fifth trick: the person's seat now a bot's
    and a bot's seat the person's; the new deal is kept as a deal of its own, linked to the
    first (its id and the actions taken over), with the same cards and the same first actions."""
    from vira_desktop.ai.normal import NormalBot
    from vira_desktop.rules.actions import PlayCard
    from vira_desktop.session.factory import PlayAgain, new_table
    from vira_desktop.session.record import record_actions

    history = _kept_with_a_person(tmp_path, deals=4)
    original = next(r for r in history.deals() if r.outcome != "laid")  # a deal whose cards were played
    record = read_record(history.record(original.id))
    cards = [i for i, a in enumerate(record_actions(record)) if isinstance(a, PlayCard)]
    upto = cards[12]  # the fifth trick's first card: four tricks played
    names = record.names
    kinds = {names[0]: "normal", names[1]: "normal", names[2]: "normal"}
    person = "Anna"
    swapped = next(n for n in names if n != person)  # the person takes a bot's seat, a bot the person's
    kinds[swapped] = "human"
    seats = [SeatConfig(n, kinds[n] == "human", "normal" if kinds[n] == "human" else kinds[n]) for n in names]
    table = new_table(seats, again=PlayAgain(record, upto, parent=original.id))
    committed: list[CommittedDeal] = []
    runner = TableRunner(table, pause=0, on_committed=committed.append)
    runner.start()
    step = 0
    me = NormalBot(9)
    while not runner.master.deal_over:
        step += 1
        runner.poll(float(step))
        ask = runner.asked()
        if ask is not None:  # the person's turn: answered as a player would
            runner.submit(ask.seat, me.choose(ask.view).action)
    runner.close()
    (again,) = committed
    assert again.parent == (original.id, upto)
    from vira_desktop.session.statistics import statistics

    before = {n: statistics(history, n) for n in names}
    new_id = history.add_deal(again.session_key, again.index, again.record, again.players, again.levels,
                              again.parent, started=again.started)  # fmt: skip
    rows = {r.id: r for r in history.deals()}
    assert rows[new_id].parent_id == original.id and rows[new_id].parent_action == upto
    assert rows[new_id].session_id != original.session_id and rows[new_id].levels[swapped] == "human"
    first, second = history.record(original.id), history.record(new_id)
    assert first["hands"] == second["hands"] and first["stock"] == second["stock"]
    assert first["actions"][:upto] == second["actions"][:upto]
    assert {n: statistics(history, n) for n in names} == before  # practice on a deal counted once already


def test_in_the_window_a_deal_from_history_is_played_again_from_the_point_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History → replay → PgDn ×5 → P: the seats form (as the deal was played: Anna's seat a
    person's, the others bots'); Enter starts a table at that point of the deal, linked to it
    in history."""
    import pygame

    from tests.test_gui import key, make_app, run
    from vira_desktop.paths import history_file
    from vira_desktop.scenes.history import PlayAgainScene
    from vira_desktop.scenes.table import ReplayScene, TableScene

    app = make_app(tmp_path, monkeypatch)
    kept = _kept_with_a_person(history_file().parent, history_file().name, deals=3)
    chosen = [r for r in kept.deals() if r.outcome != "laid"][-1]
    kept.close()
    app.push("history")
    run(app, 2)
    history = app.stack.top
    for _ in range([r.id for r in history.deals.shown].index(chosen.id)):  # type: ignore[union-attr]
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    replay = app.stack.top
    assert isinstance(replay, ReplayScene) and replay.deal_id == chosen.id
    key(app, pygame.K_p)  # at the deal as dealt: from the start, the deal shown not over
    assert (
        isinstance(app.stack.top, PlayAgainScene)
        and app.stack.top.where() == "From the start: the same cards and seats."
    )
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_END)
    key(app, pygame.K_p)  # at its end: from the start, as the deal shown is over
    assert isinstance(app.stack.top, PlayAgainScene) and "(the deal shown is over)" in app.stack.top.where()
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_HOME)
    for _ in range(5):
        key(app, pygame.K_PAGEDOWN)
    at = replay.driver.position
    key(app, pygame.K_p)
    form = app.stack.top
    anna = replay.driver.record.names.index("Anna")
    assert isinstance(form, PlayAgainScene) and form.kinds == ["human" if i == anna else "normal" for i in range(3)]
    assert form.row == anna
    key(app, pygame.K_DOWN)
    key(app, pygame.K_LEFT)  # the next seat: a person too (normal → human)
    other = replay.driver.record.names[(anna + 1) % 3]
    assert form.kinds[(anna + 1) % 3] == "human"
    key(app, pygame.K_RETURN)
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert table_of(table).parent == (chosen.id, at) and len(table_of(table).deal.history) == at
    assert {s.name for s in table_of(table).seats if s.human} == {"Anna", other}
    assert table.view.state is not None and table.view.state.again  # the panel heads it "Played again", not "Deal 1"
    head = runner_of(table).port.heading(seating=True)  # no seating drawn, no åla: the table as the deal began
    assert head[0] == t("log.again") and len(head) == 2 and head[1].startswith("Played again — dealer: ")  # no "Deal 1"


def bad_at_5(folder: Path) -> Path:
    """A copy of a good record whose fifth action is nonsense."""
    good = (Path(__file__).parent / "records" / "laid_solo8.yaml").read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(good) if line.startswith("actions:"))
    bad_line = first + 5
    lines = [*good[:bad_line], good[bad_line].split(":")[0] + ": AS AS", *good[bad_line + 1 :]]
    path = folder / "bad_at_5.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def opened_in_a_window(monkeypatch: pytest.MonkeyPatch, *argv: str) -> App:
    """The app ``vira ARGV…`` opens (its window not run: the test looks at what it holds)."""
    from vira_desktop import cli

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    seen: list[App] = []
    monkeypatch.setattr(App, "run", lambda self: seen.append(self))
    assert cli.main(list(argv)) == 0
    return seen[0]


def test_a_record_bad_at_action_n_opens_in_the_replay_up_to_the_action_before_with_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    from vira_desktop.scenes.table import ReplayScene

    path = bad_at_5(tmp_path)
    scene = opened_in_a_window(monkeypatch, str(path)).stack.top
    assert isinstance(scene, ReplayScene)
    assert len(scene.driver.actions) == 4 and scene.driver.at_end  # shown at the last good action
    said = subprocess.run([sys.executable, "-m", "vira_desktop", "replay", str(path)], capture_output=True, text=True)
    assert said.stderr.strip() == f"{path}: {scene.problem}"  # the same error as vira replay gives
    assert scene.problem in scene.view.shown.message and "action 5" in scene.problem


def test_esc_over_an_open_filter_closes_the_list_and_the_filters_stay_when_history_is_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pygame

    from tests.test_gui import click, key, make_app, run
    from vira_desktop.paths import history_file
    from vira_desktop.scenes.history import HistoryScene

    app = make_app(tmp_path, monkeypatch)
    _kept_with_a_person(history_file().parent, history_file().name, deals=4).close()
    app.push("history")
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene)
    outcome = next(menu for menu, what in scene.dropdowns.items() if what == "outcome")
    click(app, outcome.rect.center)
    assert scene._expanded()
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene and not scene._expanded()
    key(app, pygame.K_RIGHT)  # a session chosen
    key(app, pygame.K_ESCAPE)
    assert type(app.stack.top).__name__ == "MenuScene"
    app.push("history")
    run(app, 2)
    again = app.stack.top
    assert isinstance(again, HistoryScene) and again.deals.session_at == 1


@pytest.mark.parametrize("damage", ["garbage", "cut"])
def test_history_opened_on_a_damaged_file_sets_it_aside_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    from tests.test_gui import make_app
    from vira_desktop.paths import history_file

    app = make_app(tmp_path, monkeypatch)
    _kept_with_a_person(history_file().parent, history_file().name, deals=6).close()
    data = history_file().read_bytes()
    history_file().write_bytes(b"not a database" * 99 if damage == "garbage" else data[: len(data) // 2])
    scene = _nothing_shown(app)
    assert "history.damaged-" in scene.message  # type: ignore[attr-defined]
    assert list(history_file().parent.glob("history.damaged-*"))


def test_e_writes_the_deal_just_finished_as_a_record_and_not_a_deal_in_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pygame

    from tests.test_gui import key, make_app, play_to_end_of_deal, start_game
    from vira_desktop.paths import export_dir
    from vira_desktop.session.record import load_record

    app = make_app(tmp_path, monkeypatch)
    scene = start_game(app)
    key(app, pygame.K_e)  # in play: not yet
    assert not export_dir().exists() and "over" in scene.view.shown.message
    play_to_end_of_deal(app, scene)
    key(app, pygame.K_e)
    (path,) = export_dir().glob("*.yaml")
    record = load_record(path)
    assert replay(record).result == table_of(scene).deal.result and path.name in scene.view.shown.message


def test_a_deal_played_again_ends_with_a_way_back_to_history_which_shows_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played again with bots in every seat: after the deal the one button goes back to
    history (no next deal follows), and there the new deal is marked and says its origin."""
    import pygame

    from tests.test_gui import key, make_app, run, wait_for_human
    from vira_desktop.i18n import t
    from vira_desktop.paths import history_file
    from vira_desktop.scenes.history import HistoryScene
    from vira_desktop.scenes.table import TableScene
    from vira_desktop.scenes.table.input import Command

    app = make_app(tmp_path, monkeypatch)
    kept = _kept_with_a_person(history_file().parent, history_file().name, deals=2)
    chosen = [r for r in kept.deals() if r.outcome != "laid"][-1]
    record = read_record(kept.record(chosen.id))
    kept.close()
    app.push("play_again", record=record, upto=10, parent=chosen.id)
    form = app.stack.top
    form.kinds = ["normal", "normal", "normal"]  # type: ignore[union-attr]
    key(app, pygame.K_RETURN)
    table = app.stack.top
    assert isinstance(table, TableScene)
    assert wait_for_human(app, table) and table_of(table).deal.is_over
    run(app, 5)
    buttons = table.play.surface.panel.buttons
    assert next(what for what in buttons.values() if isinstance(what, Command)) == Command("next")
    assert t("button.played_again_back") in [b.text for b in table.play.surface.panel.buttons]
    key(app, pygame.K_RETURN)
    app.flush_saves()
    history = app.stack.top
    assert isinstance(history, HistoryScene)
    history.enter()  # read again, the deal just kept in it
    again = next(r for r in history.deals.rows if r.parent_id == chosen.id)
    assert again.parent_action == 10
    assert history.deals.origin(again).startswith(f"Played again from deal {chosen.number + 1} of ")


def test_g_in_history_explains_the_games_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from tests.test_gui import key, make_app, run
    from vira_desktop.scenes.history import HistoryScene
    from vira_desktop.scenes.overlays import GlossaryScene

    app = make_app(tmp_path, monkeypatch)
    app.push("history")
    run(app, 2)
    key(app, pygame.K_g)
    assert isinstance(app.stack.top, GlossaryScene)
    key(app, pygame.K_g)
    assert isinstance(app.stack.top, HistoryScene)


def test_the_filters_and_buttons_of_history_answer_the_keyboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tab moves to each filter in turn, ↑ ↓ change it, Esc goes back to the list; E exports
    the deal chosen, Shift+E its session, S opens the statistics and I the file dialog, which
    lists the record files alone and is driven by the keys too; in the statistics ← → choose
    whose."""
    import pygame

    from tests.test_gui import key, make_app, run
    from vira_desktop.i18n import t
    from vira_desktop.paths import export_dir, history_file
    from vira_desktop.scenes.history import HistoryScene

    app = make_app(tmp_path, monkeypatch)
    _kept_with_a_person(history_file().parent, history_file().name, deals=6).close()
    app.push("history")
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene) and len(scene.deals.shown) == 6
    for _ in range(3):  # game, declarer, outcome
        key(app, pygame.K_TAB)
    assert scene.focus == 3
    key(app, pygame.K_DOWN)
    first = scene.choices[2][1][1]
    shown = scene.deals.shown
    assert scene.deals.filters.outcome == first and shown and all(r.outcome == first for r in shown)
    key(app, pygame.K_UP)
    assert scene.deals.filters.outcome == "" and len(scene.deals.shown) == 6
    key(app, pygame.K_TAB, mod=pygame.KMOD_LSHIFT)
    assert scene.focus == 2
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene and scene.focus == 0
    key(app, pygame.K_DOWN)
    key(app, pygame.K_e)
    exported = set(export_dir().iterdir())
    assert len(exported) == 1 and next(iter(exported)).name in scene.message and not scene.message_bad
    key(app, pygame.K_e, mod=pygame.KMOD_LSHIFT)
    assert len(set(export_dir().iterdir()) - exported) >= 1 and not scene.message_bad
    (export_dir() / "notes.txt").write_text("not a record", encoding="utf-8")
    key(app, pygame.K_i)
    assert scene.dialog is not None
    listed = [item[0] if isinstance(item, tuple) else item for item in scene.dialog.current_file_list or []]
    assert sorted(p.name for p in export_dir().glob("*.yaml")) == sorted(n for n in listed if "." in n)
    key(app, pygame.K_LEFT)  # up a folder, and back into it
    assert scene.dialog.current_directory_path == str(export_dir().parent.resolve())
    while scene.dialog.current_file_path is None or scene.dialog.current_file_path.name != export_dir().name:
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)
    assert scene.dialog.current_directory_path == str(export_dir().resolve())
    key(app, pygame.K_DOWN)
    chosen = scene.dialog.current_file_path
    assert chosen is not None and chosen.suffix == ".yaml"
    key(app, pygame.K_RETURN)  # imported: already in history, so none added
    assert scene.dialog is None and not scene.message_bad and scene.message == t("history.imported", count=0, known=1)
    key(app, pygame.K_i)
    key(app, pygame.K_ESCAPE)
    assert scene.dialog is None and app.stack.top is scene
    key(app, pygame.K_s)
    stats = app.stack.top
    assert type(stats).__name__ == "StatisticsScene"
    players = stats.players
    assert stats.player == "Anna" and len(players) == 3
    key(app, pygame.K_RIGHT)  # the next player's statistics, and the chooser shows him
    assert stats.player == players[1] == stats.chooser.selected_option[0]
    assert stats.stats.deals == 6
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)
    assert stats.player == players[2]
