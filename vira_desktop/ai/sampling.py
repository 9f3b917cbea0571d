"""Deals a seat cannot tell from the one it is in: the hidden cards dealt anew, consistent
with everything its view shows, and weighed by how well each fits what the others did.

A layout gives every seat of trick play its hand. What a seat knows is kept:

- its own hand, an open hand, the cards played and its own cards laid away;
- how many cards each other seat holds (the rest of the hidden cards are out of play:
  the stock's last cards and the cards others laid away);
- the suits a seat has shown void in (it did not follow suit, or its open hand has none);
- the cards turned up from the stock that the declarer then bought (the first ones drawn).

Each layout is weighed by what the others' choices tell (the inference that made PIMC
bots play Skat at expert level):

- the declarer chose to play his contract with the cards he holds now, and the cards he
  has played: the more likely his hand is to go home (by the normal bot's own estimate of
  a hand), the likelier the layout;
- an Ågren marking: a defender who marked strength in a suit is likelier to hold one of its
  top cards (queen or better), one who marked weakness likelier not to;
- the cards out of play (:func:`_top_out`, where asked): in a high buying game whose stock is all
  bought they are the cards the others bought away, low side cards by every habit of play, so
  most layouts are dealt with no trump, queen, king or ace among them;
- the auction (:func:`auction_weight`): a seat that passed seldom held a hand that goes home
  in a 7-spel by its own count, and a seat that bid a trump game likely held one that could;
- the cards the others played (:func:`play_weight`, where asked): each card a seat chose that
  the normal bot's whist principles would not have chosen with its hand in the layout (top of
  a sequence, third hand high, second hand low, ...) makes the layout so many times less likely.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from ..rules.actions import Bid, parse_action
from ..rules.cards import SUIT_MASKS, Card, bit_indices, cards_from_mask, mask_of
from ..rules.seat import Seat
from ..rules.view import View
from .evaluate import home_chance, misere_chance_mask, trump_tricks_mask
from .knowledge import Knowledge, discards, read_markings
from .native import NATIVE
from .play import choose_card

__all__ = [
    "CANDIDATES",
    "DECLARER_POWER",
    "PLAIN_CANDIDATES",
    "PLAIN_POWER",
    "Layout",
    "auction_weight",
    "layouts",
    "play_weight",
]

PASS_DROP = 0.8  # how much less likely a pass is with a hand sure of a 7-spel by its count
BUY_GAIN = 1.0  # tricks a bidder of a buying game counts on from the stock
MARKING_ODDS = 3.0  # how much likelier a layout is when it fits a marking than when it does not
FLOOR = 0.05  # the least weight a declarer's hand gets: bots and people play bad hands too
# The strong bot's own card search weighs the declarer's hand by its chance of going home cubed,
# its layouts drawn from ten times as many dealt (the defaults of layouts(): the chance itself,
# three times as many; the coach and the analysis keep those, so their verdicts stand as reviewed).
# A defender given the declarer's real hand gains +10.5 bets a 100 deals over the strong bot
# (benchmarks/oracle.py --know declarer); this finds 15% more of his cards, and paired
# (benchmarks/bid_search.py --whole, 150 deals) it gained +7.50 bets a 100 deals, 95% CI
# [+1.48, +13.52], on tuning seed 5 and +1.56 [-4.09, +7.20] on tuning seed 22.
DECLARER_POWER = 3.0
CANDIDATES = 10
PLAIN_POWER = 1.0  # the coach's and the analysis's: layouts()'s defaults
PLAIN_CANDIDATES = 3
_HONOURS = [sum(1 << (13 * s + r) for r in (10, 11, 12)) for s in range(4)]  # Q, K, A of each suit


@dataclass(frozen=True, slots=True)
class Layout:
    """Every seat's hand (bitmasks), and how many of the layouts drawn it stands for."""

    hands: tuple[int, int, int]
    weight: int


def _fixed(view: View, k: Knowledge) -> list[int]:
    """The cards each seat is known to hold."""
    fixed = [0, 0, 0]
    fixed[view.seat] = k.hand
    for seat, cards in view.open_hands.items():
        fixed[seat] |= mask_of(cards)
    declarer = view.declarer
    if declarer is not None and declarer != view.seat and view.turned and not view.repurchased:
        drawn = view.turned[: view.bought[declarer]]  # the stock's top cards go to the first buyer
        held = mask_of(drawn) & k.unseen
        if (fixed[declarer] | held).bit_count() <= view.hand_sizes[declarer]:
            fixed[declarer] |= held
    return fixed


def _deal_once(
    rng: random.Random, pool: list[int], need: dict[int, int], takers: dict[int, tuple[int, ...]], in_order: bool
) -> dict[int, int] | None:
    """One dealing of ``pool`` to the seats of ``need`` (so many cards each; the key -1: the
    cards out of play), a card only to its ``takers`` (the seats not void in its suit);
    ``in_order``: the pool is sorted with the cards fewest seats may hold first, so a void
    never leaves a card nowhere to go (stable: the shuffle decides among equals); None when it
    deals itself into a corner."""
    cards = pool[:]
    rng.shuffle(cards)
    if not in_order:
        cards.sort(key=lambda c: len(takers[c]))
    room = dict(need)
    got = dict.fromkeys(room, 0)
    for card in cards:
        open_ = [s for s in takers[card] if room[s]]
        total = sum(room[s] for s in open_)
        if not total:
            return None
        pick = rng.randrange(total)
        for s in open_:
            pick -= room[s]
            if pick < 0:
                room[s] -= 1
                got[s] |= 1 << card
                break
    return got


def _dealer(
    pool: list[int], need: dict[int, int], takers: dict[int, tuple[int, ...]], in_order: bool
) -> Callable[[random.Random], dict[int, int] | None]:
    """:func:`_deal_once` for these arguments, in C where built (the same draws)."""
    native = getattr(NATIVE, "deal_once", None) if NATIVE is not None else None
    if native is None:
        return lambda rng: _deal_once(rng, pool, need, takers, in_order)
    slots = list(need)
    room = [need[s] for s in slots]
    allowed = [sum(1 << slots.index(s) for s in takers[c]) for c in pool]

    def deal(rng: random.Random) -> dict[int, int] | None:
        got = native(rng.getrandbits, pool, room, allowed, in_order)
        return None if got is None else dict(zip(slots, got, strict=True))

    return deal


def _declarer_weight(view: View, hand: int, played: int) -> float:
    """How likely the declarer was to play his contract with ``hand`` (the cards he holds
    now and those he has played), by the normal bot's raw estimate of a hand."""
    game = view.game
    assert game is not None
    start = hand | played
    if view.low:
        open_hand = bool(game.misere and game.misere.open)
        chance = misere_chance_mask(start, open_hand, view.aces_low, 0)
    else:
        trump = -1 if view.trump is None else int(view.trump)
        chance = home_chance(trump_tricks_mask(start, trump), game.tricks)
    return max(FLOOR, chance)


_parsed = lru_cache(maxsize=512)(parse_action)


def auction_weight(view: View, seat: int, hand: int) -> float:
    """How likely ``seat``'s bids and passes (as ``view`` shows them) were with ``hand`` (a
    bitmask of the cards it held in the auction), by its own best count of trump tricks: a
    pass ``1 - PASS_DROP`` times its chance in a 7-spel, a named trump game its chance there
    (a game that buys counting on ``BUY_GAIN`` tricks from the stock), at least ``FLOOR``."""
    said = [text for s, text in view.bids if s == seat]
    if not said:
        return 1.0
    best = max(trump_tricks_mask(hand, t) for t in range(4))
    weight = 1.0
    for text in said:
        if text == "pass":
            weight *= 1.0 - PASS_DROP * home_chance(best, 7)
            continue
        bid = _parsed(text, seat)
        game = bid.game if isinstance(bid, Bid) else None
        if game is None or game.misere is not None or game.family.takes_stock:
            continue  # a gask, a misère: what the auction says of such hands is left alone
        gain = 0.0 if game.family.is_solo else BUY_GAIN
        weight *= max(FLOOR, home_chance(best + gain, game.tricks))
    return weight


def _top_out(view: View) -> int:
    """In a high buying game with the stock all bought, the cards the layouts keep in play: the
    cards out of play are those the others bought away (the declarer's side cards below the
    queen, a defender's low side cards), never a trump, queen, king or ace; 0 elsewhere, and
    after a repurchase or a turn again (a whole hand laid away, or cards laid away before the
    trump they now belong to was turned)."""
    game = view.game
    if game is None or view.low or view.trump is None or not game.family.is_buying or view.repurchased:
        return 0
    if view.stock_left:  # cards never drawn lie out of play too: any card
        return 0
    return SUIT_MASKS[int(view.trump)] | sum(_HONOURS)


def _marks(view: View) -> list[tuple[int, int, bool]]:
    """The others' Ågren markings as a layout is weighed by them: the marker, the top cards
    (queen or better) of the marked suits less the marking cards themselves, and strength."""
    thrown = discards(replace(view, trick=()))  # the marking cards of the tricks finished
    out = []
    for mark in read_markings(view):
        if mark.seat != view.seat:
            gone = mask_of(c for c in thrown[mark.seat] if c.suit in mark.suits)
            out.append((mark.seat, sum(_HONOURS[int(s)] for s in mark.suits) & ~gone, mark.strong))
    return out


Play = tuple[int, int, Seat, Card]  # a card played: its trick's index, its place in the trick, seat, card


def _plays(view: View) -> list[Play]:
    """Every card played so far, in order: its trick's index, its place in the trick, seat, card."""
    tricks = [cards for _, cards in view.tricks] + ([view.trick] if view.trick else [])
    return [(t, n, Seat(seat), card) for t, cards in enumerate(tricks) for n, (seat, card) in enumerate(cards)]


def _open_then(view: View, later: list[int], mine_open: bool) -> dict[int, tuple[Card, ...]]:
    """The hands lying open at a past play (each with the cards it has played since): those open
    to the viewer, and the viewer's own where it lies open to the others (an open misère's)."""
    out = {s: tuple(cards_from_mask(mask_of(h) | later[s])) for s, h in view.open_hands.items()}
    if mine_open:
        out[view.seat] = tuple(cards_from_mask(mask_of(view.hand) | later[view.seat]))
    return out


def play_weight(view: View, hands: list[int], odds: float, plays: list[Play] | None = None) -> float:
    """How likely the others' cards played so far were with ``hands`` (each seat's hand now) by
    the normal bot's play: ``odds`` for each card it would not have played with the hand the
    seat then held, seeing what it then saw (a card of the same worth to it counts as its own:
    no card still in play lies between them), 1 for each it would. A seat's own and open
    hands, forced cards and a first lead made knowing cards laid aside tell nothing."""
    plays = _plays(view) if plays is None else plays
    later = [0, 0, 0]  # the cards each seat played from a play on, that play's card included
    sizes = view.hand_sizes
    game = view.game
    mine_open = view.seat == view.declarer and bool(game and game.misere and game.misere.open)  # to the others
    count = int.bit_count
    weight = 1.0
    for t, n, seat, card in reversed(plays):
        later[seat] |= 1 << card
        if seat == view.seat or seat in view.open_hands or (t == n == 0 and view.aside_sizes[seat]):
            continue  # the first card of all was chosen knowing the cards its seat laid aside: not known here
        held = tuple(cards_from_mask(hands[seat] | later[seat]))
        trick = (view.tricks[t][1] if t < len(view.tricks) else view.trick)[:n]
        legal = [c for c in held if c.suit is trick[0][1].suit] if trick else []
        legal = legal or list(held)
        if len(legal) == 1:
            continue
        tricks = view.tricks[:t]
        winners = [w for w, _ in tricks]
        then = replace(
            view,
            seat=seat,
            to_act=seat,
            hand=held,
            own_laid_aside=(),
            hand_sizes=(sizes[0] + count(later[0]), sizes[1] + count(later[1]), sizes[2] + count(later[2])),
            open_hands=_open_then(view, later, mine_open),
            tricks=tricks,
            trick=trick,
            tricks_won=(winners.count(0), winners.count(1), winners.count(2)),
            decision=None,
        )
        k = Knowledge(then)
        rule, _ = choose_card(legal, k)
        if rule == card or (
            rule.suit is card.suit
            and not (view.aces_low and 14 in (rule.rank, card.rank))
            and not k.outside_between(max(rule, card), min(rule, card), trick=True)
        ):
            continue
        weight *= odds
    return weight


def _weight(
    view: View,
    hands: list[int],
    plays: list[int],
    marks: list[tuple[int, int, bool]],
    odds: float,
    order: list[Play],
    power: float,
) -> float:
    weight = 1.0 if odds >= 1.0 else play_weight(view, hands, odds, order)
    declarer = view.declarer
    if declarer is not None and declarer != view.seat and declarer not in view.open_hands and view.game:
        weight *= _declarer_weight(view, hands[declarer], plays[declarer]) ** power
    for seat in range(3):  # the defenders' auction (the declarer's is weighed by his play above)
        if seat not in (view.seat, declarer) and seat not in view.open_hands:
            weight *= auction_weight(view, seat, hands[seat] | plays[seat])
    for seat, honours, strong in marks:
        held = bool((hands[seat] | plays[seat]) & honours)
        weight *= MARKING_ODDS if held == strong else 1.0
    return weight


def layouts(
    view: View,
    count: int,
    rng: random.Random,
    candidates: int = PLAIN_CANDIDATES,
    play_odds: float = 1.0,
    declarer_power: float = PLAIN_POWER,
    out_mix: float = 0.0,
) -> list[Layout]:
    """About ``count`` layouts of the hidden cards for ``view`` in trick play, drawn in
    proportion to their weights from ``candidates`` times as many dealt at random (a layout
    drawn more than once is given once, with its count as its weight); ``play_odds`` below 1:
    weighed by the others' cards played too (:func:`play_weight`); ``declarer_power``: the
    declarer's hand weighed by its chance of going home to this power (the sharper, the surer
    that he holds what his contract asks); ``out_mix``: the share of them dealt with no top card
    out of play where the others' bought cards are all that is (:func:`_top_out`)."""
    k = Knowledge(view)
    fixed = _fixed(view, k)
    known = fixed[0] | fixed[1] | fixed[2]
    hidden = k.unseen & ~known
    pool = bit_indices(hidden)
    seats = [s for s in range(3) if s != view.seat and s not in view.open_hands]
    need = {s: view.hand_sizes[s] - fixed[s].bit_count() for s in seats}
    need[-1] = len(pool) - sum(need.values())
    if need[-1] < 0 or any(n < 0 for n in need.values()):
        raise ValueError("the view's hand sizes do not fit its hidden cards")
    voids = {s: sum(SUIT_MASKS[int(suit)] for suit in k.voids[s]) for s in range(3)}
    takers = {c: tuple(s for s in need if not (s >= 0 and voids[s] >> c & 1)) for c in pool}
    in_order = len({len(t) for t in takers.values()}) <= 1  # no void among the seats: nothing to sort
    deal = _dealer(pool, need, takers, in_order)
    kept_in = _top_out(view) if out_mix > 0 else 0
    if kept_in and (hidden & ~kept_in).bit_count() >= need[-1]:
        inside = {c: t if not kept_in >> c & 1 else tuple(s for s in t if s >= 0) or t for c, t in takers.items()}
        deal_in = _dealer(pool, need, inside, False)
    else:
        out_mix, deal_in = 0.0, deal
    plays = [0, 0, 0]
    for _, cards in view.tricks:
        for s, c in cards:
            plays[s] |= 1 << c
    for s, c in view.trick:
        plays[s] |= 1 << c
    marks = _marks(view)  # the same for every layout: read once
    order = _plays(view) if play_odds < 1.0 else []  # read once, and only where the plays are weighed
    drawn: list[tuple[tuple[int, int, int], float]] = []
    tries = 0
    while len(drawn) < count * candidates and tries < count * candidates * 20:
        tries += 1
        got = (deal_in if out_mix and rng.random() < out_mix else deal)(rng)
        if got is None:
            continue
        hands = [fixed[s] | got.get(s, 0) for s in range(3)]
        weight = _weight(view, hands, plays, marks, play_odds, order, declarer_power)
        drawn.append(((hands[0], hands[1], hands[2]), weight))
    if not drawn:
        raise ValueError("no layout of the hidden cards fits the view")
    picks = rng.choices(range(len(drawn)), weights=[w for _, w in drawn], k=count)
    counted: dict[int, int] = {}
    for i in picks:
        counted[i] = counted.get(i, 0) + 1
    return [Layout(drawn[i][0], n) for i, n in sorted(counted.items())]
