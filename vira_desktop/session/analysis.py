"""Double-dummy analysis of a deal in trick play, every card known (``vira solve`` and
``vira analyse``).

The window and the bots never see another seat's cards this way: this is for a deal that
is over, or a record, where everything is on the table.
"""

from __future__ import annotations

from typing import Any

from ..ai.native import NATIVE
from ..ai.solver import Position, all_move_values, solve
from ..rules.actions import PlayCard
from ..rules.cards import Card
from ..rules.deal import Deal, Phase
from ..rules.errors import RecordError
from .record import Record, record_actions, replay

__all__ = ["analyse_record", "play_start", "position_of", "solve_record"]


def position_of(deal: Deal) -> Position:
    """The solver's position for a deal in trick play."""
    if deal.phase is not Phase.PLAY or deal.declarer is None:
        raise ValueError("the deal is not in trick play")
    trump = -1 if deal.low or deal.trump is None else int(deal.trump)
    hands = (deal.hands[0], deal.hands[1], deal.hands[2])
    trick = tuple((int(s), int(c)) for s, c in deal.trick)
    left = deal.n_tricks - len(deal.tricks_played)
    return Position(hands, trump, int(deal.to_act), int(deal.declarer), deal.low, deal.aces_low, trick, left)


def play_start(record: Record) -> int:
    """How many of the record's actions come before its first card."""
    for i, action in enumerate(record_actions(record)):
        if isinstance(action, PlayCard):
            return i
    raise RecordError("the record has no card play")


def solve_record(record: Record, at: int | None = None) -> dict[str, Any]:
    """The double-dummy value of each legal card at the record's position: after its first
    ``at`` actions, else after all of them, else (a finished deal) at its first card."""
    upto = at
    deal = replay(record, upto)
    if at is None and deal.phase is Phase.DONE:
        upto = play_start(record)
        deal = replay(record, upto)
    if deal.phase is not Phase.PLAY:
        raise RecordError(f"the position after {upto if upto is not None else 'all the'} actions is not in trick play")
    p = position_of(deal)
    assert deal.declarer is not None
    already = deal.tricks_won[deal.declarer]
    values = {str(Card(c)): already + v for c, v in all_move_values(p).items()}
    wants_tricks = p.wants_tricks(p.to_act)
    best = max(values.values()) if wants_tricks else min(values.values())
    names = record.names
    return {
        "actions": upto if upto is not None else len(record.actions),
        "to_act": names[p.to_act],
        "declarer": names[p.declarer],
        "game": deal.game.name if deal.game else None,
        "trump": deal.trump.name if deal.trump is not None and not deal.low else None,
        "trick": [str(Card(c)) for _, c in p.trick],
        "tricks_won": already,
        "tricks_in_play": deal.n_tricks,
        "best": best,
        "wants": "most" if wants_tricks else "fewest",  # the declarer's tricks, for the seat to play
        "moves": values,
        "compiled": NATIVE is not None,
    }


def analyse_record(record: Record) -> dict[str, Any]:
    """Each card the record plays, with the tricks it gave up: the declarer's tricks with best
    play from the position before it and after it (the seat to play wants them up when he
    is the declarer in a high game or a defender in a misère, down otherwise)."""
    start = play_start(record)
    deal = replay(record, start)
    if deal.phase is not Phase.PLAY or deal.declarer is None:
        raise RecordError("the record does not reach trick play")
    declarer = int(deal.declarer)
    names = record.names
    actions = record_actions(record)[start:]
    first = position_of(deal)
    value = solve(first)  # the declarer's tricks from here with best play
    allowed = value
    tricks: list[dict[str, Any]] = []
    costly: list[dict[str, Any]] = []
    number = 0
    for action in actions:
        if deal.phase is not Phase.PLAY:
            break
        if not isinstance(action, PlayCard):
            deal.apply(action)
            continue
        if not deal.trick:
            number += 1
            tricks.append({"trick": number, "before": deal.tricks_won[declarer] + value, "cards": []})
        seat = int(deal.to_act)
        wants = first.wants_tricks(seat)
        before = deal.tricks_won[declarer] + value
        deal.apply(action)
        value = solve(position_of(deal)) if deal.phase is Phase.PLAY else 0
        after = deal.tricks_won[declarer] + value
        lost = before - after if wants else after - before
        card = {"seat": names[seat], "card": str(action.card), "lost": lost}
        tricks[-1]["cards"].append(card)
        if lost:
            costly.append({"trick": number, **card})
    taken = deal.tricks_won[declarer]
    return {
        "declarer": names[declarer],
        "game": deal.game.name if deal.game else None,
        "low": deal.low,
        "taken": taken,
        "allowed": allowed,  # double dummy at the first card
        "tricks": tricks,
        "costly": costly,
        "compiled": NATIVE is not None,
    }
