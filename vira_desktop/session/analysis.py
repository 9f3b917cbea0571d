"""Double-dummy analysis of a deal in trick play, every card known (``vira solve`` and
``vira analyse``).

The window and the bots never see another seat's cards this way: this is for a deal that
is over, or a record, where everything is on the table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..ai.native import NATIVE
from ..ai.solver import Position, all_move_values, position_of, solve
from ..rules.actions import PlayCard
from ..rules.cards import Card
from ..rules.deal import Phase
from ..rules.errors import RecordError
from ..rules.seat import Seat
from .record import Record, record_actions, replay

__all__ = ["analyse_record", "best_line", "play_start", "position_of", "solve_record"]


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


def analyse_record(record: Record, side: frozenset[str] | None = None) -> dict[str, Any]:
    """Each card the record plays, with the tricks it gave up: the declarer's tricks with best
    play from the position before it and after it (the seat to play wants them up when he
    is the declarer in a high game or a defender in a misère, down otherwise); and the best
    line ("show me how"): the play as it went up to the first card that gave up a trick
    (the first of a player of ``side``, by name, where one did), then best play by all."""
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
    played = 0  # cards played so far
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
        won = deal.tricks_won[declarer]
        deal.apply(action)
        # the positions follow one another: the solver keeps what it learned, and starts from
        # the value before (less the trick just won)
        guess = max(0, value - (deal.tricks_won[declarer] - won))
        value = solve(position_of(deal), keep=True, guess=guess) if deal.phase is Phase.PLAY else 0
        after = deal.tricks_won[declarer] + value
        lost = before - after if wants else after - before
        card = {"seat": names[seat], "card": str(action.card), "lost": lost}
        tricks[-1]["cards"].append(card)
        if lost:
            costly.append({"trick": number, "index": played, "before": before, **card})
        played += 1
        if not deal.trick:  # the trick is complete (or play is over)
            tricks[-1]["declarer_tricks"] = deal.tricks_won[declarer]
    taken = deal.tricks_won[declarer]
    mine = [c for c in costly if side is not None and c["seat"] in side]
    turns = mine or costly
    turn = turns[0] if turns else None
    return {
        "declarer": names[declarer],
        "game": deal.game.name if deal.game else None,
        "low": deal.low,
        "need": deal.game.tricks if deal.game and not deal.low else 0,
        "taken": taken,
        "allowed": allowed,  # double dummy at the first card
        "tricks": tricks,
        "costly": costly,
        "best_line": best_line(record, turn["index"] if turn else None),
        "other_games": other_games(first, allowed),
        "diverges": None if turn is None else {"trick": turn["trick"], "index": turn["index"], "seat": turn["seat"]},
        "compiled": NATIVE is not None,
    }


def other_games(first: Position, value: int) -> dict[str, int]:
    """What the declarer's cards as they lay at the first card would take double dummy with
    each trump, with none, and in a misère (his tricks: the fewest he can be held to there):
    "was my bid too high?" by the tricks each kind of game would have made. ``value``: the
    game played's own (not solved again)."""
    out = {}
    if len({h.bit_count() for h in first.hands}) == 1:  # a misère's cards set aside leave no trump game
        for name, trump in (("S", 0), ("H", 1), ("D", 2), ("C", 3), ("none", -1)):
            same = not first.low and trump == first.trump
            out[name] = value if same else solve(replace(first, trump=trump, low=False, aces_low=False))
    same = first.low and not first.aces_low
    out["misère"] = value if same else solve(replace(first, trump=-1, low=True, aces_low=False))
    return out


def best_line(record: Record, diverge: int | None) -> list[dict[str, Any]]:
    """The tricks of the record's play, card for card as played up to its card number
    ``diverge`` (from 0; None: to the end), and from there on each card the best for its
    seat with every card known (of equal cards the lowest): each trick's cards, its
    winner, and the declarer's tricks after it."""
    deal = replay(record, play_start(record))
    declarer = deal.declarer
    assert declarer is not None
    names = record.names
    actions = [a for a in record_actions(record)[play_start(record) :]]
    line: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    played = 0
    queue = iter(actions)
    while deal.phase is Phase.PLAY:
        seat = int(deal.to_act)
        if diverge is None or played < diverge:
            action = next(queue, None)
            if action is None:
                break
            if not isinstance(action, PlayCard):
                deal.apply(action)
                continue
            card, best = action.card, False
        else:
            p = position_of(deal)
            values = all_move_values(p, keep=played > diverge)  # one deal's positions, one after another
            aim = max if p.wants_tricks(seat) else min
            target = aim(values.values())
            card, best = Card(min(c for c, v in values.items() if v == target)), True
        before = len(deal.tricks_played)
        deal.apply(PlayCard(Seat(seat), card))
        cards.append({"seat": names[seat], "card": str(card), "best": best})
        played += 1
        if len(deal.tricks_played) > before or deal.phase is not Phase.PLAY:
            winner = int(deal.tricks_played[-1][0]) if deal.tricks_played else seat
            line.append({"cards": cards, "winner": names[winner], "declarer_tricks": deal.tricks_won[declarer]})
            cards = []
    return line
