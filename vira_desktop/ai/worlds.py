"""Whole deals a seat cannot tell from its own, to search the decisions before trick play.

A world is a :class:`~..rules.deal.Deal` standing at the seat's decision: its own cards and
everything public as its view shows them, the hidden cards (the others' hands, the order of
the stock) dealt anew. It is built by dealing and replaying: the public bids, then the seat's
own earlier choices, worked out from its view (the cards it kept, laid aside and bought). The
engine plays every step, so a world keeps the rules by construction. The others' hands are
drawn in proportion to how well they fit their bids and passes (:func:`.sampling.auction_weight`).

Worlds are built for every decision before play: every seat's bids, the declarer's choices,
and the defenders' buying (not after a repurchase or a turn again, whose two purchases the
view does not tell apart). The others' cards laid aside are dealt among the hidden ones too.

:func:`playout` plays a world on from a candidate action: the normal bot in every seat up to
the first lead, then trick play double dummy; the deal's own settlement gives what it is worth.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.actions import (
    Action,
    Bid,
    Buy,
    ChooseLevel,
    ChooseTrump,
    Decide,
    Discard,
    HighLow,
    Keep,
    Pass,
    SetAside,
    Turn,
)
from ..rules.cards import Card, bit_indices, cards_from_mask, mask_of
from ..rules.deal import Deal
from ..rules.decision import Phase
from ..rules.errors import IllegalAction
from ..rules.games import Family
from ..rules.scoring import DealResult, Outcome
from ..rules.view import View
from . import solver
from .base import Bot
from .sampling import auction_weight

__all__ = ["Played", "playout", "supported", "world"]

# The declarer's chances of home, bet and kodilj as the bots play, by his double-dummy tricks
# at the first lead over those he needs (a misère: none less those he takes), from 3 short to
# 1 over (a misère: 1 short to none). Double dummy the defenders see each other's cards and the
# declarer never misguesses: in 743 deals the normal bots bid (one seat strong), the declarer
# went home in 76.3% double dummy and 82.4% as played. Fitted by benchmarks/as_played.py
# over those and 499 deals in contracts drawn at random (for the hands short of them).
AS_PLAYED: dict[tuple[bool, int], tuple[float, float, float]] = {
    (False, 1): (0.99, 0.01, 0.0),
    (False, 0): (0.87, 0.11, 0.02),
    (False, -1): (0.52, 0.38, 0.10),
    (False, -2): (0.16, 0.46, 0.38),
    (False, -3): (0.08, 0.22, 0.70),
    (True, 0): (0.98, 0.02, 0.0),
    (True, -1): (0.28, 0.41, 0.31),
}
TRIES = 20  # hands dealt to the others at most, each kept with the chance that it fits their bids
_BEFORE_PLAY = frozenset(Phase) - {Phase.PLAY, Phase.DONE}
_FULL = (1 << 52) - 1


def supported(view: View) -> bool:
    """Whether worlds can be built for ``view``'s decision (see the module's docstring)."""
    if view.phase is Phase.AUCTION:
        return True
    if view.repurchased:  # how the two purchases split is not in the view
        return False
    if view.phase is Phase.OPPONENT_BUY:
        return view.seat != view.declarer
    return view.phase in _BEFORE_PLAY and view.seat == view.declarer  # the declarer's own choices


def _said(action: Action) -> str:
    return action.text if isinstance(action, Bid) else "pass"


def _own_cards(view: View) -> tuple[int, int, int, list[Card]]:
    """The seat's hand as dealt, the cards it kept and discarded in a gask, vira or gök, and
    the cards it has taken from the stock in the order they lay there (the turned ones first).
    Which of its cards came from the stock cannot matter after the auction: any split that
    fits the view gives a world it cannot tell from its own."""
    hand, aside = mask_of(view.hand), mask_of(view.own_laid_aside)
    game = view.game
    if (hand | aside).bit_count() > 13 and game is not None and game.family.takes_stock:
        done = hand.bit_count() == 13  # discarded already: some cards laid aside came from the stock
        if game.family is Family.GASK:
            kept = _first(hand, game.level)
            not_kept = _first(aside, 13 - game.level) if done else aside
            dealt, discarded = kept | not_kept, aside & ~not_kept
        else:  # vira, gök: the whole stock taken onto the dealt hand
            kept = 0
            dealt = aside if done else _first(hand, 13)
            discarded = aside
        drawn = (hand | aside) & ~dealt
        return dealt, kept, discarded, list(cards_from_mask(drawn))
    taken = (hand | aside).bit_count() - 13
    turned = [c for c in view.turned if hand >> c & 1][:taken]  # drawn first, as they lay
    drawn = mask_of(turned)
    drawn |= _first(hand & ~drawn, taken - len(turned))
    order = turned + [c for c in cards_from_mask(drawn) if c not in turned]
    return (hand & ~drawn) | aside, 0, 0, order


def _first(mask: int, n: int) -> int:
    out = 0
    for i in bit_indices(mask)[:n]:
        out |= 1 << i
    return out


@dataclass(slots=True)
class _Steps:
    """A seat's choices before play as card sets: kept and discarded (a gask, vira or gök),
    bought away, set aside (a misère)."""

    kept: int = 0
    discarded: int = 0
    away: int = 0
    set_aside: int = 0


def world(view: View, rng: random.Random) -> Deal | None:
    """A deal standing at ``view``'s decision, its hidden cards dealt with ``rng``; None where
    the replay does not reach the view (not seen in the tests' deals)."""
    seat = view.seat
    dealt_own, kept, discarded, order = _own_cards(view)
    hand, aside = mask_of(view.hand), mask_of(view.own_laid_aside)
    steps: dict[int, _Steps] = {seat: _Steps(kept, discarded, away=aside)}
    others = [s for s in range(3) if s != seat]
    known = [mask_of(view.open_hands.get(s, ())) for s in range(3)]
    declarer = view.declarer
    drawn_turned: list[Card] = []
    if declarer is not None and declarer != seat:  # the stock's turned cards he bought are his
        drawn_turned = [c for c in view.turned[: view.bought[declarer]] if not (hand | aside) >> c & 1]
        known[declarer] |= mask_of(drawn_turned)
    on_stock = [c for c in view.turned if not (hand | aside | mask_of(drawn_turned)) >> c & 1]
    if on_stock and any(view.bought[s] for s in others if s != declarer):
        return None  # turned cards a defender may have bought: not followed
    seen = hand | aside | known[0] | known[1] | known[2] | mask_of(on_stock)
    pool = [Card(i) for i in bit_indices(_FULL & ~seen)]
    held = {s: view.hand_sizes[s] - known[s].bit_count() for s in others}
    away = {s: view.aside_sizes[s] for s in others}
    if sum(held.values()) + sum(away.values()) + view.stock_left - len(on_stock) != len(pool):
        return None
    for _ in range(TRIES):  # the others' hands drawn in proportion to how well they fit their bids
        rng.shuffle(pool)
        cut = 0
        now: dict[int, int] = {}
        laid: dict[int, int] = {}
        for s in others:
            now[s] = known[s] | mask_of(pool[cut : cut + held[s]])
            laid[s] = mask_of(pool[cut + held[s] : cut + held[s] + away[s]])
            cut += held[s] + away[s]
        dealt = {s: _dealt_from(view, s, now[s], laid[s], drawn_turned, steps) for s in others}
        if rng.random() < auction_weight(view, others[0], dealt[others[0]][0]) * auction_weight(
            view, others[1], dealt[others[1]][0]
        ):
            break
    hands: list[list[Card]] = [[], [], []]
    hands[seat] = list(cards_from_mask(dealt_own))
    for s in others:
        hands[s] = list(cards_from_mask(dealt[s][0]))
    bought_order = [dealt[s][1] for s in sorted(others, key=lambda s: s != declarer)]  # the declarer bought first
    stock = order + bought_order[0] + bought_order[1] + on_stock + pool[cut:]
    deal = Deal(hands, stock, view.highest, view.rules)
    try:
        _replay(deal, view, steps)
    except (IllegalAction, ValueError, StopIteration):
        return None
    if deal.hand(seat) != view.hand or mask_of(deal.laid_aside(seat)) != aside or deal.stock_left != view.stock_left:
        return None
    return deal


def _dealt_from(
    view: View, seat: int, now: int, laid: int, drawn_turned: list[Card], steps: dict[int, _Steps]
) -> tuple[int, list[Card]]:
    """Another seat's hand as dealt, from the cards it holds now and has laid aside (a draw of
    the hidden cards), and the cards it bought, in the order they lay in the stock; its
    choices go into ``steps``."""
    bought = view.bought[seat]
    turned = drawn_turned if seat == view.declarer else []
    drawn = mask_of(turned) | _first(now & ~mask_of(turned), bought - len(turned))
    away = _first(laid, bought)
    steps[seat] = _Steps(away=away, set_aside=laid & ~away)
    order = turned + [c for c in cards_from_mask(drawn) if c not in turned]
    return (now & ~drawn) | laid, order


def _replay(deal: Deal, view: View, steps: dict[int, _Steps]) -> None:
    """Play ``deal`` on to ``view``'s decision: the bids as the view shows them, then each
    seat's choices (raises where an action is refused)."""
    seat = view.seat
    bids = iter(view.bids)
    while not (deal.phase is view.phase and deal.to_act == seat and len(deal.bids) == len(view.bids)):
        phase = deal.phase
        if phase is Phase.AUCTION:
            who, text = next(bids)
            deal.apply(next(a for a in deal.legal_actions() if a.seat == who and _said(a) == text))
            continue
        deal.apply(_step(deal, view, steps[deal.to_act]))


def _step(deal: Deal, view: View, steps: _Steps) -> Action:
    """The choice of the seat asked in ``deal.phase``, as ``view`` shows it was made."""
    seat, phase = deal.to_act, deal.phase
    if phase is Phase.LEVEL and view.game is not None:
        return ChooseLevel(seat, view.game)
    if phase is Phase.KEEP:
        return Keep(seat, tuple(cards_from_mask(steps.kept)))
    if phase is Phase.DISCARD:
        return Discard(seat, tuple(cards_from_mask(steps.discarded)))
    if phase is Phase.HIGH_LOW:
        return HighLow(seat, view.low)
    if phase is Phase.TRUMP and view.trump is not None:
        return ChooseTrump(seat, view.trump)
    if phase is Phase.TURN:
        return Turn(seat)
    if phase is Phase.BUY or phase is Phase.OPPONENT_BUY:
        return Buy(seat, tuple(cards_from_mask(steps.away)))
    if phase is Phase.DECIDE:
        return Decide(seat, True)
    if phase is Phase.SET_ASIDE:
        return SetAside(seat, tuple(cards_from_mask(steps.set_aside)))
    raise ValueError(f"no earlier choice of seat {seat} in {phase.value}")


@dataclass(frozen=True, slots=True)
class Played:
    """One world played out: what it paid the seat deciding (bets, pins at 1/8), the
    declarer's chance of going home, and whether the seat deciding was the declarer."""

    bets: float
    home: float  # the declarer's chance of going home: 0 or 1 double dummy, between as played
    declarer: bool


def playout(
    deal: Deal,
    seat: int,
    action: Action,
    policy: Sequence[Bot],
    nodes: int = 0,
    bidding: bool = False,
    as_played: bool = False,
    rollout: bool = False,
) -> Played | None:
    """``action`` in a copy of ``deal``, then ``policy`` (a bot a seat; in the auction the
    others pass: the seat bidding wins the contract; with ``bidding``, every seat bids on as
    its policy would) up to the first lead, and double-dummy trick play (``as_played``: its
    tricks taken as the outcomes the bots' own play reaches from them, :data:`AS_PLAYED`;
    ``rollout``: the tricks played by ``policy`` too, each seat seeing only its own cards);
    None when the search would need more than ``nodes`` nodes (0: no limit).

    Where the declarer is to play or lay down, he does what pays him best in this world
    (play, lay down, or the policy's repurchase or turn again): a candidate is not valued
    by the policy's misjudging a hand it would have laid down."""
    w = deal.clone()
    w.apply(action)
    while w.phase in _BEFORE_PLAY:
        s = w.to_act
        if w.phase is Phase.AUCTION and s != seat and not bidding:
            w.apply(Pass(s))
            continue
        choice = policy[s].choose(w.view(s))
        assert choice.action is not None
        if w.phase is Phase.DECIDE:  # play, lay down, or the policy's repurchase or turn again
            options = dict.fromkeys((Decide(s, True), Decide(s, False), choice.action))
            outcomes = [playout(w, seat, a, policy, nodes, as_played=as_played, rollout=rollout) for a in options]
            if any(p is None for p in outcomes):
                return None
            sign = 1.0 if seat == s else -1.0
            return max((p for p in outcomes if p is not None), key=lambda p: sign * p.bets)
        w.apply(choice.action)
    if rollout:  # single dummy: every card chosen by its seat's policy on what it sees
        while w.phase is Phase.PLAY:
            played = policy[w.to_act].choose(w.view(w.to_act)).action
            assert played is not None
            w.apply(played)
        assert w.result is not None
        return _played(w.result, seat)
    return _settle(w, seat, policy, nodes, as_played)


def _settle(w: Deal, seat: int, policy: Sequence[Bot], nodes: int, as_played: bool) -> Played | None:
    """What ``w`` (at the first lead, or laid down) pays ``seat``, its trick play double dummy
    (``as_played``: the declarer's tricks taken as the outcomes the bots reach from them)."""
    declarer = w.declarer
    assert declarer is not None
    if w.phase is Phase.DONE:  # laid down
        assert w.result is not None
        return _played(w.result, seat)
    view = w.view(declarer)
    if view.decision is not None and view.decision.optional:  # four aces as ones
        said = policy[declarer].choose(view).action
        if said is not None:
            w.apply(said)
    game = w.game
    assert game is not None
    p = solver.position_of(w)
    need = 0 if w.low else game.tricks
    if as_played:  # the band AS_PLAYED tells apart
        floor, ceiling = (0, 1) if w.low else (max(0, need - 3), min(w.n_tricks, need + 1))
    else:
        floor, ceiling = (0, 2) if w.low else (max(0, need - 2), need)
    taken = solver.solve(p, False, need, floor, ceiling, nodes)
    if taken < 0:
        return None
    if not as_played:
        return _played(_result(w, declarer, taken), seat)
    over = max(-1, -taken) if w.low else max(-3, min(1, taken - need))
    chances = AS_PLAYED[(w.low, over)]
    step = 1 if w.low else -1  # home at the need; bet and kodilj a trick more taken in a misère, less in a high game
    pins = [_result(w, declarer, need + k * step).net_pins(seat) for k in range(3)]
    bets = sum(c * x for c, x in zip(chances, pins, strict=True)) / 8
    return Played(bets, chances[0], seat == declarer)


def _played(result: DealResult, seat: int) -> Played:
    """A world's one result, as it pays ``seat``."""
    return Played(result.net_pins(seat) / 8, float(result.outcome is Outcome.HOME), seat == result.declarer)


def _result(w: Deal, declarer: int, taken: int) -> DealResult:
    """What ``w`` pays when its declarer takes ``taken`` tricks."""
    tricks = [0, 0, 0]
    tricks[declarer] = taken
    tricks[next(s for s in range(3) if s != declarer)] = w.n_tricks - taken
    return w.settled((tricks[0], tricks[1], tricks[2]))
