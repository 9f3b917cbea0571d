"""History behind its own thread (session/history_service.py): the window's screens ask and
never touch the database; a damaged file is set aside there and reported in the answer; and
every new table comes from one factory (session/factory.py)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.test_history import _autoplayed, _kept_with_a_person
from vira_desktop.config import Settings
from vira_desktop.rules.houserules import HouseRules
from vira_desktop.rules.ledger import Kind
from vira_desktop.session.factory import PlayAgain, new_table
from vira_desktop.session.history import History, Pending
from vira_desktop.session.history_service import HistoryService
from vira_desktop.session.record import read_record
from vira_desktop.session.table import SeatConfig, Table
from vira_desktop.session.thinking import DEFAULT_THINK

READS = ("sessions", "deals", "record_text", "query", "count", "add_deal")  # every way into the file


def _answer(pending: Pending[Any], service: HistoryService) -> Any:
    assert service.flush()
    return pending.result()


def _threads_of_every_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread of each call into the database from now on."""
    seen: list[str] = []

    def noted(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen.append(threading.current_thread().name)
            return original(*args, **kwargs)

        return call

    for name in READS:
        monkeypatch.setattr(History, name, noted(getattr(History, name)))
    return seen


# ---------------------------------------------------------------------- the service alone
@pytest.mark.parametrize("damage", ["garbage", "cut"])
def test_a_damaged_file_is_set_aside_by_the_service_and_said_in_its_answer(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "history.sqlite3"
    _kept_with_a_person(tmp_path, path.name, deals=3).close()
    data = path.read_bytes()
    damaged = b"not a database" * 99 if damage == "garbage" else data[: len(data) // 2]
    path.write_bytes(damaged)
    told: list[str] = []
    service = HistoryService(path, told=told.append)
    pending = service.browse()
    browse = _answer(pending, service)
    assert pending.aside is not None and pending.aside.startswith("history.damaged-")
    assert (tmp_path / pending.aside).read_bytes() == damaged  # kept aside as it was
    assert browse.sessions == [] and browse.deals == []  # a new history begun
    assert not told  # a question's damage is said in its answer, not as the writer's notice
    again = service.browse()
    assert _answer(again, service).deals == [] and again.aside is None  # said once


def test_damage_found_while_reading_sets_the_file_aside_and_asks_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Damage the quick opening does not see (a page read later): the file is checked whole,
    set aside, and the question asked again of a new history."""
    path = tmp_path / "history.sqlite3"
    _kept_with_a_person(tmp_path, path.name, deals=2).close()
    reads = {"n": 0}
    deals = History.deals

    def damaged_once(self: History, *args: Any, **kwargs: Any) -> Any:
        reads["n"] += 1
        if reads["n"] == 1:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return deals(self, *args, **kwargs)

    monkeypatch.setattr(History, "deals", damaged_once)
    broken = "*** in database main *** Page 5: btreeInitPage() returns error code 11"
    monkeypatch.setattr(History, "integrity", lambda self: broken)
    service = HistoryService(path)
    pending = service.browse()
    assert _answer(pending, service).deals == []
    assert pending.aside is not None and (tmp_path / pending.aside).exists()


def test_a_question_asked_after_a_deal_was_handed_over_sees_it(tmp_path: Path) -> None:
    """One thread keeps the deals and answers the questions, in the order handed over."""
    _, committed = _autoplayed(2)
    service = HistoryService(tmp_path / "h.sqlite3")
    for deal in committed:
        service(deal)
    pending = service.browse()  # asked at once, before the deals are written
    assert [r.number for r in _answer(pending, service).deals] == [0, 1]
    figures = _answer(service.figures(), service)
    assert figures.player == figures.players[0] and figures.stats.deals == 2


def test_what_a_question_raises_is_raised_to_the_asker_and_the_thread_goes_on(tmp_path: Path) -> None:
    service = HistoryService(tmp_path / "h.sqlite3")
    with pytest.raises(KeyError):
        _answer(service.open_deal(12345), service)
    assert _answer(service.browse(), service).deals == []


# ---------------------------------------------------------------------- in the window
def test_the_history_screens_touch_the_database_only_on_historys_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History, an export, an import, a replay opened, the statistics and another player's:
    every read and write of the file happens on history's thread, none on the frame loop."""
    import pygame

    from tests.test_gui import key, make_app, run
    from vira_desktop.i18n import t
    from vira_desktop.paths import export_dir, history_file
    from vira_desktop.scenes.history import HistoryScene, StatisticsScene
    from vira_desktop.scenes.table import ReplayScene

    app = make_app(tmp_path, monkeypatch)
    _kept_with_a_person(history_file().parent, history_file().name, deals=4).close()
    seen = _threads_of_every_read(monkeypatch)
    app.push("history")
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene) and len(scene.deals.shown) == 4
    key(app, pygame.K_e)
    (exported,) = export_dir().iterdir()
    assert exported.name in scene.message
    scene._import(exported)
    run(app, 2)
    assert scene.message == t("history.imported", count=0, known=1)
    key(app, pygame.K_RETURN)
    assert isinstance(app.stack.top, ReplayScene)
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_s)
    stats = app.stack.top
    assert isinstance(stats, StatisticsScene) and stats.stats.deals == 4
    key(app, pygame.K_RIGHT)
    assert stats.stats.player == stats.player != "Anna"
    assert seen and set(seen) == {"vira-history"}, seen


def test_a_slow_history_does_not_hold_the_frame_loop_and_an_idle_screen_sleeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading takes half a second: the frames go on meanwhile (the screen asks for them while
    it waits), the lists come in the frame after the answer, and then the window sleeps."""
    from tests.test_gui import make_app
    from vira_desktop.paths import history_file
    from vira_desktop.scenes.history import HistoryScene

    app = make_app(tmp_path, monkeypatch)
    _kept_with_a_person(history_file().parent, history_file().name, deals=3).close()
    deals = History.deals

    def slow(self: History, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.5)
        return deals(self, *args, **kwargs)

    monkeypatch.setattr(History, "deals", slow)
    start = time.perf_counter()
    app.push("history")
    for _ in range(5):
        app.step(1 / 60)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene)
    assert time.perf_counter() - start < 0.4 and not scene.deals.loaded and app.next_wake() == 0.0
    assert app.wait_for_history()
    app.step(1 / 60)
    assert scene.deals.loaded and len(scene.deals.shown) == 3
    app.step(1 / 60)
    assert app.next_wake() is None  # nothing to do: the window sleeps until input


# ---------------------------------------------------------------------- one table factory
def _settings() -> Settings:
    return Settings.from_data(
        {
            "house_rules": {"gok_reentry": True},
            "session": {"bowl": {"triangle": 1, "bet": 10, "round": 5, "pin": 10}},
            "bots": {"strong_seconds": 1.5},
        }
    )


SEATS = [SeatConfig("You", True), SeatConfig("Bertil", False, "strong"), SeatConfig("Cecilia", False, "strong")]


def test_a_new_game_takes_the_house_rules_bowl_seating_and_thinking_time_from_the_settings() -> None:
    table = new_table(SEATS, 7, _settings(), seating="first-come")
    assert table.rules == HouseRules(gok_reentry=True) and table.seating == "first-come"
    assert table.bowl == {Kind.TRIANGLE: 1, Kind.BET: 10, Kind.ROUND: 5, Kind.PIN: 10}
    assert {spec[3] for spec in table.bot_specs.values()} == {1.5}  # the bots made with it
    assert table.to_json() == Table.from_json(table.to_json()).to_json()  # and saved with it
    plain = new_table(SEATS, 7)  # no settings: the game's own (lessons, practice, autoplay)
    assert plain.rules == HouseRules() and plain.bowl is None and plain.think == DEFAULT_THINK


def test_a_deal_played_again_keeps_its_own_table_and_takes_the_thinking_time(tmp_path: Path) -> None:
    history = _kept_with_a_person(tmp_path, deals=2)
    row = history.deals()[-1]
    record = read_record(history.record(row.id))
    seats = [SeatConfig(n, n == "Anna", "strong") for n in record.names]
    table = new_table(seats, settings=_settings(), again=PlayAgain(record, 6, row.id))
    assert table.parent == (row.id, 6) and len(table.deal.history) == 6 and table.seed == 6
    assert table.rules == HouseRules() and table.bowl is None  # the deal's own, not the settings'
    assert {spec[3] for spec in table.bot_specs.values()} == {1.5}


def test_a_practice_hand_and_a_given_deal() -> None:
    practice = new_table(SEATS, number=123_456_789)
    again = new_table(SEATS, number=123_456_789)
    assert practice.seed == 123_456_789 % 1_000_003 and practice.deal.as_dealt().hands == again.deal.as_dealt().hands
    lesson = new_table(SEATS, deal=practice.deal.as_dealt(), pulla=9)
    assert lesson.deal.hands == practice.deal.as_dealt().hands and lesson.session.seats[0] == "You"
