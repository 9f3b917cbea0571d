"""The History screen's lists without a window (scenes/deal_list.py): the filters, the session
chosen, the deal chosen and the page, and where a deal played again came from."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from vira_desktop.i18n import t
from vira_desktop.scenes.deal_list import DealList, Filters
from vira_desktop.session.history import DealRow, SessionRow
from vira_desktop.session.history_service import Browse

ROOT = Path(__file__).resolve().parents[1]


def _deal(
    id_: int, session: int, game: str, outcome: str, played: str, parent: tuple[int, int] | None = None
) -> DealRow:
    seats = ["Anna", "Bo", "Cissi"]
    result = {"tricks": {"Anna": 6}, "pins": {}, "pulla": {}}
    parent_id, action = parent if parent is not None else (None, None)
    return DealRow(
        (id_, session, id_ - 1, played, json.dumps(seats), json.dumps({"Anna": "human"}), game, "Anna", outcome,
         json.dumps(result), parent_id, action, "[]")
    )  # fmt: skip


def _session(id_: int, started: str) -> SessionRow:
    return SessionRow(id_, f"key{id_}", started, ("Anna", "Bo", "Cissi"), {}, 0)


def _browse() -> Browse:
    """Two sessions (the latest first, as history lists them) and their deals, oldest first."""
    deals = [
        _deal(1, 1, "vingel 6", "home", "2026-10-30T19:00"),
        _deal(2, 1, "gök", "bet", "2026-10-30T19:05"),
        _deal(3, 1, "vingel 6", "kodilj", "2026-11-01T19:10"),
        _deal(4, 2, "gök", "home", "2026-11-02T10:00", parent=(2, 7)),
        _deal(5, 2, "vingel 6", "home", "2026-11-02T10:05", parent=(99, 3)),
    ]
    return Browse([_session(2, "2026-11-02T10:00"), _session(1, "2026-10-30T19:00")], deals)


def _loaded(page: int = 25, filters: Filters | None = None, session_at: int = 0) -> DealList:
    deals = DealList(page, filters, session_at)
    deals.take(_browse())
    return deals


def test_every_deal_is_shown_the_latest_first_and_a_session_chosen_shows_its_own() -> None:
    deals = _loaded()
    assert [r.id for r in deals.shown] == [5, 4, 3, 2, 1] and deals.again == {2}
    deals.choose_session(2)  # the second listed: session 1
    assert [r.id for r in deals.shown] == [3, 2, 1]
    deals.choose_session(9)  # past the last: the last
    assert deals.session_at == 2
    deals.choose_session(0)
    assert len(deals.shown) == 5


def test_the_filters_keep_their_deals_and_offer_the_sessions_values_and_their_own() -> None:
    deals = _loaded()
    deals.set_filter("game", "gök")
    assert [r.id for r in deals.shown] == [4, 2]
    deals.set_filter("month", "2026-10")
    assert [r.id for r in deals.shown] == [2]
    deals.choose_session(1)  # session 2 played in November only: none left
    assert deals.shown == []
    choices = dict(deals.choices())
    assert choices["month"] == ["", "2026-11", "2026-10"]  # the month set stays offered
    assert choices["outcome"] == ["", "home", "bet", "kodilj", "laid"]
    deals.step_filter("month", 1)
    assert deals.filters.month == "" and [r.id for r in deals.shown] == [4]  # the game still gök
    deals.step_filter("month", -1)
    assert deals.filters.month == "2026-11"  # the session's one month: October, no longer set, is not offered


def test_choosing_a_deal_moves_the_page_and_scrolling_keeps_to_the_list() -> None:
    deals = _loaded(page=2)
    deals.select(3)
    assert (deals.deal_at, deals.top, deals.chosen.id) == (3, 2, 2)
    deals.select(99)
    assert (deals.deal_at, deals.top) == (4, 3)
    deals.select(-5)
    assert (deals.deal_at, deals.top) == (0, 0)
    deals.scroll(10)
    assert deals.top == 3 and deals.deal_at == 0  # the page moves, the deal chosen stays
    deals.scroll(-10)
    assert deals.top == 0


def test_lists_read_again_keep_the_session_chosen_by_its_id_and_the_first_keep_the_filters_left() -> None:
    deals = _loaded()
    deals.choose_session(2)  # session 1
    newer = _browse()
    newer.sessions.insert(0, _session(3, "2026-12-01T10:00"))
    deals.take(newer)
    assert deals.session_at == 3 and deals.sessions[2].id == 1
    left = _loaded(filters=Filters(outcome="home"), session_at=1)  # as the player left them
    assert left.session_at == 1 and [r.id for r in left.shown] == [5, 4]


def test_a_deal_played_again_says_where_it_came_from() -> None:
    deals = _loaded()
    fresh, again, orphan = deals.by_id[1], deals.by_id[4], deals.by_id[5]
    assert deals.origin(fresh) == ""
    assert deals.origin(again) == t("history.again_from", position=7, number=2, date="2026-10-30 19:05", session=1)
    assert deals.origin(orphan) == t("history.again_from_gone", position=3)


def test_the_list_model_imports_no_pygame() -> None:
    code = "import sys, vira_desktop.scenes.deal_list; sys.exit('pygame' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0
