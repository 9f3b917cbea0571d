"""Undo at the table: whatever the session, an undo leaves the table exactly as a full replay
of the log before the human's last action of the deal leaves it (its save, ledger, deals,
random state, the deal in play), also at a table resumed from a save; it applies again only
the deal's own actions, however long the session; and the autosave drops what it took back."""

from __future__ import annotations

import copy
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import seeds, tables
from vira_desktop.ai import Bot, make_bot
from vira_desktop.session.autosave import Autosave
from vira_desktop.session.table import LogEntry, SeatConfig, Table

NAMES = ("Anna", "Bertil", "Cecilia", "David")


def step(table: Table, you: Bot) -> bool:
    """One answer at the table (the bots at their seats, ``you`` at the humans'), or the next
    deal when the deal in play is over; ``False`` once the session is over."""
    ask = table.ask()
    if ask is None:
        if table.session.is_over:
            return False
        table.next_deal()
        return True
    bot = table.bot_for(ask)
    table.answer(ask, (bot or you).choose(ask.view).action, human=bot is None)
    return True


def state(table: Table) -> tuple[Any, ...]:
    """Everything an undo or a replay rebuilds, comparable."""
    session = table.session
    assert session.deal is not None
    rest = {k: v for k, v in vars(session).items() if k not in ("deal", "ledger", "rng")}
    deal = session.deal
    return (
        table.to_json(),
        table.deal_index,
        table.finished,
        table.opening_events,
        table.can_undo(),
        table.record(),
        rest,
        vars(session.ledger),
        session.rng.getstate(),
        (deal.number, deal.history, deal.is_over),
    )


def replayed(table: Table, log: list[LogEntry]) -> Table:
    """The table a full replay of ``log`` gives, with ``table``'s header (as a load does)."""
    return Table.from_json({**table.to_json(), "log": [asdict(e) for e in log]})


def undo_and_check(table: Table) -> None:
    """Undo, and check the table against a full replay of the log before the undone action;
    only the deal's own actions were applied again."""
    last = max(i for i, e in enumerate(table.log) if e.human and e.deal == table.deal_index)
    before, generation, deal = list(table.log[:last]), table.generation, table.deal_index
    applied: list[LogEntry] = []
    apply_entry = table._apply_entry

    def counted(entry: LogEntry) -> None:
        applied.append(entry)
        apply_entry(entry)

    table._apply_entry = counted  # type: ignore[method-assign]
    try:
        table.undo()
    finally:
        del table._apply_entry
    assert table.generation > generation  # the runner drops what was asked of the table before
    assert deal in table.undone
    if deal > 0:
        assert all(e.deal == deal for e in applied)
    expected = replayed(table, before)
    while expected.deal_index < deal:  # the deal's first action taken back: it stands dealt, as it began
        expected.next_deal()
    assert table.deal_index == deal and state(table) == state(expected)


@settings(max_examples=30, deadline=None)
@given(
    seed=seeds,
    players=tables,
    humans=st.lists(st.booleans(), min_size=3, max_size=3),
    level=st.sampled_from(["random", "normal"]),
    deals=st.integers(1, 5),
    load_at=st.integers(0, 5),
    end=st.booleans(),
)
def test_an_undo_leaves_the_table_as_a_full_replay_of_the_log_before(
    seed: int, players: int, humans: list[bool], level: str, deals: int, load_at: int, end: bool
) -> None:
    seats = [SeatConfig(name, i == 0 or humans[i - 1], level) for i, name in enumerate(NAMES[:players])]
    table = Table(seats, seed)
    you, chance = make_bot("random", seed), random.Random(seed)
    loaded = 0
    while not (table.deal_index + 1 >= deals and table.deal.is_over) and step(table, you):
        if table.deal_index == load_at and not loaded:  # resumed from its save
            table, loaded = Table.from_json(table.to_json()), 1
        if end and table.deal_index == 1 and table.last_deal is None:
            table.end_session("last round")
        if chance.random() < 0.1 and table.can_undo():
            undo_and_check(table)
    assert state(table) == state(replayed(table, table.log))  # the session dealt on alike after its undos


def test_a_hot_seat_undoes_back_to_the_start_of_the_deal_one_action_at_a_time() -> None:
    """Every seat a person's: each undo takes back one action, down to the deal as it was
    dealt; the deal before, already in history, is never opened again (a review found undoing
    a deal's first action went back into it)."""
    table = Table([SeatConfig(name, True) for name in NAMES[:3]], 7)
    you = make_bot("normal", 7)
    while not (table.deal_index == 2 and len(table.deal.history) > 12) and step(table, you):
        pass
    while table.can_undo():
        undo_and_check(table)
    assert table.deal_index == 2 and table.deal.history == [] and not table.can_undo()
    assert len(table.finished) == 2 and all(e.deal < 2 for e in table.log)


def test_the_autosave_drops_the_actions_an_undo_takes_back(tmp_path: Path) -> None:
    table = Table([SeatConfig("You", True), SeatConfig("Bertil"), SeatConfig("Cecilia")], 12)
    you, saved = make_bot("normal", 12), Autosave(tmp_path / "autosave.sqlite3")
    undos = steps = 0
    while not (table.deal_index == 2 and table.deal.is_over) and step(table, you):
        saved.write(table.snapshot())
        steps += 1
        if steps % 17 == 0 and table.can_undo():
            taken = len(table.log)
            table.undo()
            assert len(table.log) < taken
            saved.write(table.snapshot())
            assert Autosave(saved.path).load().log == table.log
            undos += 1
    assert undos >= 3
    assert Autosave(saved.path).load().to_json() == table.to_json()


def test_a_sessions_copy_is_its_own() -> None:
    """What an undo goes back to is not changed by the play after it."""
    table = Table([SeatConfig(name) for name in NAMES], 3)
    you = make_bot("random", 3)
    while table.deal_index < 2 and step(table, you):
        pass
    mark = table.session.copy()
    assert mark.deal is not None
    kept = (copy.deepcopy(vars(mark.ledger)), mark.rng.getstate(), list(mark.deals), mark.dealer, mark.deal.history)
    while not (table.deal_index == 3 and table.deal.is_over) and step(table, you):
        pass
    assert table.session.ledger.accounts != mark.ledger.accounts
    assert (vars(mark.ledger), mark.rng.getstate(), mark.deals, mark.dealer, mark.deal.history) == kept
