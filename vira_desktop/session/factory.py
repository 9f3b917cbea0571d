"""Every new table is built here: the new-game form's, a deal played again from history, a
practice hand, a lesson's deal and an autoplayed session. What a table takes from the
player's settings (house rules, the bowl, how long the strong bot thinks) is read in one
place, :func:`new_table`; a saved game brings its own (:meth:`~.table.Table.load`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules.deal import Deal
from ..rules.houserules import HouseRules
from ..rules.session import Session
from .record import Record, replay
from .runner import CommittedDeal, TableRunner
from .table import SeatConfig, Table
from .thinking import DEFAULT_THINK

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["PlayAgain", "SeatConfig", "TableOrder", "new_table", "played_by_bots", "table_runner"]

PRACTICE_SEEDS = 1_000_003  # a practice hand's number, folded into the seed of its bots


@dataclass(frozen=True)
class PlayAgain:
    """A deal of a record played again from after its first ``upto`` actions: ``parent`` its
    id in history (the new deal is linked to it); ``before`` the table as the deal began (its
    bowls and pulla; None: a fresh table)."""

    record: Record
    upto: int
    parent: int | None = None
    before: Session | None = None


@dataclass(frozen=True)
class TableOrder:
    """A new table as a screen asks for it (the new-game form, a deal played again, autoplay,
    practice); the app builds it (:meth:`build`) and hands the screen only its port."""

    seats: tuple[SeatConfig, ...]
    seed: int = 0
    seating: str = "draw"
    number: int | None = None  # a practice hand
    again: PlayAgain | None = None
    players_settings: bool = True  # the player's house rules, bowl and thinking time (else the game's own)

    def build(self, settings: Settings | None) -> Table:
        """The table, with ``settings`` where the order takes the player's."""
        use = settings if self.players_settings else None
        return new_table(self.seats, self.seed, use, seating=self.seating, number=self.number, again=self.again)


def new_table(
    seats: Sequence[SeatConfig],
    seed: int = 0,
    settings: Settings | None = None,
    *,
    seating: str = "draw",
    deal: Deal | None = None,
    number: int | None = None,
    pulla: int | None = None,
    again: PlayAgain | None = None,
    rules: HouseRules | None = None,
) -> Table:
    """A new table of ``seats`` (3 or 4; listed from forehand when the deal is given).

    ``settings``: the player's (house rules, bowl, the strong bot's thinking time); None: the
    game's own, as a lesson, a practice hand and an autoplayed session are played. A deal
    played again keeps its own rules and table (``again``: only the thinking time is the
    player's). The session is dealt by ``seed`` and seated by ``seating`` ("draw" or
    "first-come"), unless it plays one given deal: ``deal`` (a lesson's, with ``pulla`` bets in
    the pulla as it opens; by default the åla), the practice hand ``number`` stands for, or
    ``again``. ``rules``: these house rules (a network host's), whatever ``settings`` say."""
    think = DEFAULT_THINK if settings is None else settings.bots.strong_seconds
    listed = list(seats)
    if again is not None:
        link = None if again.parent is None else (again.parent, again.upto)
        given = replay(again.record, again.upto)
        return Table(listed, again.upto, given=given, think=think, parent=link, before=again.before)
    if number is not None:
        deal, seed = Deal.from_number(number), number % PRACTICE_SEEDS
    if rules is None:
        rules = HouseRules() if settings is None else settings.house_rules
    bowl = None if settings is None else dict(settings.session.bowl)
    return Table(listed, seed, rules, bowl, seating, given=deal, pulla=pulla, think=think)


def played_by_bots(names: Sequence[str], seed: int, deals: int) -> tuple[Table, list[CommittedDeal]]:
    """A session of normal bots named ``names`` played headless, at once, to ``deals`` deals
    (or its end): the table, and each deal as it was committed (what history keeps). For
    tests, benchmarks and screenshots that need a history."""
    table = new_table([SeatConfig(n, False, "normal") for n in names], seed)
    committed: list[CommittedDeal] = []
    runner = TableRunner(table, pause=0, autoplay=deals, on_committed=committed.append)
    runner.start()
    moment = 0
    while not runner.master.finished:
        moment += 1
        runner.poll(float(moment))  # no pause to wait out: each poll a second later
    runner.close()
    return table, committed


def table_runner(
    table: Table,
    settings: Settings,
    autoplay: int | None = None,
    hints: bool = False,
    save: Callable[[Table], object] | None = None,
    on_committed: Callable[[CommittedDeal], None] | None = None,
    on_settled: Callable[[], None] | None = None,
) -> TableRunner:
    """The runner of ``table`` at a window: its own worker process for the bots and the coach,
    ``save`` after every change (the autosave; its end: ``on_settled``), every finished deal to
    ``on_committed`` (history), the coach's colours in the bid grid as ``settings`` say
    (practice: one person at the table; always; never)."""
    from .worker import Worker

    runner = TableRunner(
        table,
        Worker(),
        autoplay=autoplay,
        save=save,
        hint_every_decision=hints,
        on_committed=on_committed,
        on_settled=on_settled,
    )
    mode = settings.display.coach_grid
    runner.coach_bids = mode == "always" or (mode == "practice" and len(runner.master.humans) < 2)
    return runner
