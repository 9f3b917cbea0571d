"""``events_for``: a seat never sees a card it may not know, in any event.

Random deals are played action by action; after each action, every seat and the
spectator (a player sitting out) receive the events projected for them. Every card in
what they receive must be one their views have shown in this deal (hand, own laid-aside
cards, open hands, the trick, the tricks, turned cards); the projection may only turn a
card into ``None`` (counts and order kept), keeps the seat's own cards, and passes every
public event on unchanged.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from hypothesis import given, settings

from tests.strategies import contracts, house_rules, numbers, seeds
from vira_desktop.rules.actions import Action
from vira_desktop.rules.cards import Card
from vira_desktop.rules.deal import Deal, deal_number_decks
from vira_desktop.rules.events import (
    Bought,
    DealStarted,
    Discarded,
    Event,
    HandOpened,
    Kept,
    SetAsideDone,
    StockTaken,
    events_for,
)
from vira_desktop.rules.games import Game, game
from vira_desktop.rules.houserules import HouseRules
from vira_desktop.rules.ledger import LedgerEvent
from vira_desktop.rules.session import Session
from vira_desktop.rules.view import View
from vira_desktop.session.match import forced_auction

VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)  # the three seats and the spectator
HIDING = (Kept, StockTaken, Discarded, Bought, SetAsideDone)  # cards hidden from all but the seat acting
MAX_ACTIONS = 500


# ---------------------------------------------------------------------- helpers
def cards_in(obj: object) -> Iterator[Card]:
    """Every card anywhere inside an event (dataclass fields, tuples, lists, dicts)."""
    if isinstance(obj, Card):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from cards_in(getattr(obj, f.name))
    elif isinstance(obj, tuple | list):
        for item in obj:
            yield from cards_in(item)
    elif isinstance(obj, dict):
        yield from cards_in(tuple(obj.items()))


def agrees(original: object, projected: object) -> bool:
    """``projected`` is ``original`` with some cards turned into ``None``, nothing else changed."""
    if isinstance(original, Card):
        return projected is None or projected == original
    if dataclasses.is_dataclass(original) and not isinstance(original, type):
        return type(projected) is type(original) and all(
            agrees(getattr(original, f.name), getattr(projected, f.name)) for f in dataclasses.fields(original)
        )
    if isinstance(original, tuple):
        return (
            isinstance(projected, tuple)
            and len(projected) == len(original)
            and all(agrees(a, b) for a, b in zip(original, projected, strict=True))
        )
    return projected == original


def card_slots(obj: object, in_tuple: bool = False) -> int:
    """How many cards an event moves, shown or hidden (``None`` in a tuple)."""
    if isinstance(obj, Card) or (obj is None and in_tuple):
        return 1
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return sum(card_slots(getattr(obj, f.name)) for f in dataclasses.fields(obj))
    if isinstance(obj, tuple):
        return sum(card_slots(item, True) for item in obj)
    return 0


def known(view: View) -> set[Card]:
    """What a view shows of the cards."""
    out = {*view.hand, *view.own_laid_aside, *view.turned, *view.stock_turned}
    for cards in view.open_hands.values():
        out.update(cards)
    out.update(c for _, c in view.trick)
    for _, trick in view.tricks:
        out.update(c for _, c in trick)
    return out


def view_of(deal: Deal, seat: int | None) -> View:
    return deal.public_view() if seat is None else deal.view(seat)


def random_action(deal: Deal, rng: random.Random) -> Action:
    """A random legal action, card-set choices included (as the random bot picks)."""
    d = deal.decision()
    if d.choice is not None and (not d.actions or rng.random() < 0.5):
        return d.choice.random(rng)
    return rng.choice(d.actions)


def check_projection(deal: Deal, seat: int | None, events: list[Event | LedgerEvent], allowed: set[Card]) -> None:
    projected = events_for(seat, events)
    assert len(projected) == len(events)
    for ev, pr in zip(events, projected, strict=True):
        assert type(pr) is type(ev)
        assert agrees(ev, pr), (seat, ev, pr)
        assert card_slots(pr) == card_slots(ev)
        inside = pr
        if isinstance(pr, DealStarted):
            assert isinstance(ev, DealStarted)
            assert pr.spare_bottom == ev.spare_bottom  # the spare deck's bottom card is public
            inside = dataclasses.replace(pr, spare_bottom=None)
        leaked = set(cards_in(inside)) - allowed
        assert not leaked, f"seat {seat} receives {sorted(leaked)} in {pr}"
        if isinstance(ev, DealStarted):
            assert isinstance(pr, DealStarted)
            own = () if seat is None else DealStarted.positions(seat)
            assert all(pr.deck[p] == ev.deck[p] is not None for p in own)
            assert all(c is None for p, c in enumerate(pr.deck) if p not in own)
            if seat is not None:
                assert sorted(c for c in pr.deck if c is not None) == sorted(deal.dealt[seat])
        elif isinstance(ev, HIDING) and ev.seat == seat:
            assert pr == ev  # the seat acting sees its own cards
        elif isinstance(ev, HIDING):
            assert not list(cards_in(pr))
        else:
            assert pr is ev  # public: passed on unchanged


def play_and_check(number: int, contract: Game | None, seed: int, rules: HouseRules | None = None) -> set[type]:
    """Play a deal with random legal actions, checking every viewer's projection after each
    action; returns the kinds of event that occurred."""
    deal = Deal.from_number(number, rules)
    rng = random.Random(seed)
    allowed = {s: known(view_of(deal, s)) for s in VIEWERS}
    started: list[Event | LedgerEvent] = [deal.started()]
    for s in VIEWERS:
        check_projection(deal, s, started, allowed[s])
    seen: set[type] = {DealStarted}
    forced = list(forced_auction(deal, contract, rng)) if contract is not None else []
    for _ in range(MAX_ACTIONS):
        if deal.is_over:
            return seen
        action = forced.pop(0) if forced else random_action(deal, rng)
        events: list[Event | LedgerEvent] = list(deal.apply(action))
        seen.update(type(ev) for ev in events)
        for s in VIEWERS:
            allowed[s] |= known(view_of(deal, s))
            check_projection(deal, s, events, allowed[s])
    raise AssertionError("the deal does not end")


# ---------------------------------------------------------------------- tests
def test_positions_follow_the_rulebooks_dealing_order() -> None:
    """4 cards each from forehand, then three rounds of 3; the last 13 are the stock."""
    expected: list[list[int]] = [[], [], []]
    pos = 0
    for size in (4, 3, 3, 3):
        for seat in range(3):
            expected[seat] += range(pos, pos + size)
            pos += size
    assert [list(DealStarted.positions(s)) for s in range(3)] == expected
    assert DealStarted.positions(3) == tuple(range(39, 52))
    assert sorted(p for s in range(4) for p in DealStarted.positions(s)) == list(range(52))


@settings(max_examples=200, deadline=None)
@given(numbers, contracts, seeds, house_rules)
def test_projection_shows_a_seat_only_what_it_may_know(
    number: int, contract: Game | None, seed: int, rules: HouseRules
) -> None:
    deal = Deal.from_number(number, rules)
    deck = deal.started().deck
    assert deck == tuple(deal_number_decks(number)[0])  # the deck as dealt, top first
    for seat in range(3):  # the positions are where the engine dealt each hand from
        assert {deck[p] for p in DealStarted.positions(seat)} == set(deal.dealt[seat])
    assert [deck[p] for p in DealStarted.positions(3)] == list(deal.initial_stock)
    play_and_check(number, contract, seed, rules)


FORCED = (
    "gask 2",  # Kept, StockTaken, Discarded
    "gask 4",  # an open low gask
    "vira",
    "gök",
    "köpmisär 3",  # Bought, SetAsideDone
    "begär",
    "turné 7",
    "vingel 6",
    "tringel 9",
    "solo 7",  # opponents buy
    "solo petite misär",
    "solo grande misär ouverte",  # HandOpened
    "solo petite misär ouverte royale",
    "solo grande misär ouverte royale",
)


def test_forced_games_reach_every_hidden_card_event() -> None:
    seen: set[type] = set()
    for k, name in enumerate(FORCED):
        for seed in range(3):
            rules = HouseRules(royale_defenders_see_each_other=seed % 2 == 0)
            number = random.Random(1000 * k + seed).getrandbits(48)
            seen |= play_and_check(number, game(name), seed, rules)
    assert {Kept, StockTaken, Discarded, Bought, SetAsideDone, HandOpened} <= seen


def test_ledger_events_pass_unchanged() -> None:
    """A session's events end with the ledger's payments: public, the same objects."""
    names = ["North", "East", "South"]
    session, _ = Session.start(names, names[0], 7)
    deal = session.new_deal(12345)
    rng = random.Random(7)
    events: list[Event | LedgerEvent] = []
    while not deal.is_over:
        events = session.apply(random_action(deal, rng))
    ledger = [ev for ev in events if not isinstance(ev, Event)]
    assert ledger
    for seat in VIEWERS:
        projected = events_for(seat, events)
        assert projected == events and all(a is b for a, b in zip(projected, events, strict=True))
