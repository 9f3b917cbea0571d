"""Undo at the table (``Table.undo``) early and late in a session: bots at two seats and one
human seat whose actions a bot of its own chooses (deterministic by seed). At the end of deal
1, 10 and N the human's last action of the deal is taken back (the bots' answers and the
payments with it) and applied again with the rest, so the session stays the same; the median
of several undos. Before issue 37 an undo replayed the whole session from its log.
Run: ``python benchmarks/undo.py [--deals 30] [--repeat 15] [--seed 5] [--json]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _figures import print_figures

from vira_desktop.ai import Bot, make_bot
from vira_desktop.rules.actions import parse_action
from vira_desktop.session.table import LogEntry, SeatConfig, Table


def play_deal(table: Table, you: Bot) -> None:
    """Play the deal in play to its end: the bots at their seats, ``you`` at the human's."""
    while (ask := table.ask()) is not None:
        bot = table.bot_for(ask)
        choice = (bot or you).choose(ask.view)
        table.answer(ask, choice.action, human=bot is None)


def redo(table: Table, entries: list[LogEntry]) -> None:
    """Apply the log's ``entries`` again (offers the log does not hold are declined)."""
    for entry in entries:
        seat = table.session.seats.index(entry.player)
        while (ask := table.ask()) is not None and ask.seat != seat and ask.optional:
            table.answer(ask, None)
        assert ask is not None
        table.answer(ask, parse_action(entry.action, seat), human=entry.human)


def undo_ms(table: Table, repeat: int) -> float:
    """The median time of an undo at this point (each followed by the actions it took back)."""
    before = (list(table.log), table.session.ledger.accounts)
    times = []
    for _ in range(repeat):
        taken = table.log[max(i for i, e in enumerate(table.log) if e.human) :]
        start = time.perf_counter()
        table.undo()
        times.append(time.perf_counter() - start)
        redo(table, taken)
    assert (table.log, table.session.ledger.accounts) == before, "the session changed"
    return round(1000 * statistics.median(times), 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seats = [SeatConfig("You", True), SeatConfig("Bertil"), SeatConfig("Cecilia")]
    table = Table(seats, args.seed)
    you = make_bot("normal", args.seed)
    figures: dict[str, object] = {}
    for deal in range(1, args.deals + 1):
        if deal > 1:
            table.next_deal()
        play_deal(table, you)
        if deal in (1, 10, args.deals):
            figures[f"undo_ms_after_{deal}_deal{'s' if deal > 1 else ''}"] = undo_ms(table, args.repeat)
    figures["log_entries"] = len(table.log)
    print_figures(figures, args.json)


if __name__ == "__main__":
    main()
