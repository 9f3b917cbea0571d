"""Views never leak hidden information (rulebook "Buying", "Gask Games", "Solo Games";
RULES-NOTES §3: the stock left after buying is seen by nobody; a player may look at
his own discards until the first lead, not after).

A seat may know: its own hand, its own laid-aside cards until the first card is
played, every card played, every card turned up from the stock, and the
declarer's hand once the rules lay it open. Nothing else may appear in its view.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from enum import Enum

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import contracts, house_rules, numbers, seeds
from vira_desktop.ai import RandomBot
from vira_desktop.rules.actions import (
    Action,
    AnnounceAces,
    Bid,
    Buy,
    Decide,
    Discard,
    HighLow,
    Keep,
    Pass,
    PlayCard,
    Repurchase,
    SetAside,
    sorted_cards,
    sorted_mask,
)
from vira_desktop.rules.cards import ALL_CARDS, Card, Rank, Suit
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.games import GAMES, Game, game
from vira_desktop.rules.houserules import HouseRules
from vira_desktop.rules.view import View
from vira_desktop.session.flow import FlowEvent
from vira_desktop.session.match import forced_auction, play_deal

ACES = tuple(Card.of(Rank.ACE, s) for s in Suit)


# ---------------------------------------------------------------------- helpers
def cards_in(obj: object) -> set[Card]:
    """Every card anywhere inside a view (fields, tuples, dicts, actions, choices)."""
    if isinstance(obj, Card):
        return {obj}
    if obj is None or isinstance(obj, str | bytes | Enum | int | float | type):
        return set()
    if isinstance(obj, dict):
        return cards_in(tuple(obj.keys())) | cards_in(tuple(obj.values()))
    if isinstance(obj, tuple | list | set | frozenset):
        out: set[Card] = set()
        for item in obj:
            out |= cards_in(item)
        return out
    if dataclasses.is_dataclass(obj):
        return cards_in(tuple(getattr(obj, f.name) for f in dataclasses.fields(obj)))
    raise TypeError(f"unexpected object in a view: {type(obj).__name__}")


def played_cards(deal: Deal) -> set[Card]:
    return {c for _, c in deal.trick} | {c for _, trick in deal.tricks_played for _, c in trick}


def _partners_see(deal: Deal, seat: int) -> bool:
    """House rule (off by default): royale defenders see each other's cards."""
    g = deal.game
    return (
        deal.rules.royale_defenders_see_each_other
        and g is not None
        and g.name == "solo grande misär ouverte royale"
        and seat != deal.declarer
        and deal.phase in (Phase.OPPONENT_BUY, Phase.PLAY)
    )


def check_views(deal: Deal) -> None:
    """Every seat's view of ``deal`` holds only what that seat may know."""
    played = played_cards(deal)
    turned = set(deal.turned_all)
    declarer = deal.declarer
    open_cards = set(deal.hand(declarer)) if deal.open_hand and declarer is not None else set()
    stock = set(deal.remaining_stock)
    for seat in range(3):
        v = deal.view(seat)
        assert v.seat == seat
        assert v.hand == deal.hand(seat)
        if deal.first_card_played:
            assert v.own_laid_aside == ()
        else:
            assert v.own_laid_aside == deal.laid_aside(seat)
        expected_open: dict[int, tuple[Card, ...]] = {}
        if deal.is_over:  # every hand still held is shown when the deal is over
            expected_open = {s: deal.hand(s) for s in range(3) if s != seat and deal.hand(s)}
            open_cards = {c for cards in expected_open.values() for c in cards}
        elif deal.open_hand and declarer is not None and seat != declarer:
            expected_open[declarer] = deal.hand(declarer)
        partner_cards: set[Card] = set()
        if _partners_see(deal, seat) and declarer is not None:
            partner = 3 - seat - declarer
            expected_open[partner] = deal.hand(partner)
            partner_cards = set(deal.hand(partner))
        assert v.open_hands == expected_open
        allowed = set(v.hand) | set(v.own_laid_aside) | played | turned | open_cards | partner_cards
        seen = cards_in(v)
        assert seen <= allowed, f"seat {seat} sees {sorted(seen - allowed)} in {deal.phase}"
        hidden = set(stock)
        for other in range(3):
            if other != seat:
                hidden |= set(deal.laid_aside(other))
                if not (deal.open_hand and other == declarer) and not deal.is_over:
                    hidden |= set(deal.hand(other))
        hidden -= partner_cards
        if deal.first_card_played:
            hidden |= set(deal.laid_aside(seat))
        hidden -= turned
        assert not seen & hidden, f"seat {seat} sees hidden {sorted(seen & hidden)}"
        assert v.stock_left == deal.stock_left
        assert set(v.stock_turned) <= set(v.turned) & stock
        assert v.aside_sizes == tuple(len(deal.laid_aside(s)) for s in range(3))
        public = deal.public_view()
        assert public.spectator and public.hand == () and public.decision is None
        if deal.is_over:
            shown = {s: deal.hand(s) for s in range(3) if deal.hand(s)}
        else:
            shown = {declarer: deal.hand(declarer)} if deal.open_hand and declarer is not None else {}
        assert public.open_hands == shown
        assert cards_in(public) <= played | turned | {c for cards in shown.values() for c in cards}
        assert v.hand_sizes == tuple(len(deal.hand(s)) for s in range(3))
        # what the seat is asked: exactly its own options, never another seat's
        if not deal.is_over:
            d = deal.decision()
            if seat == d.seat:
                assert v.decision is not None
                own = tuple(a for a in d.actions if a.seat == seat)
                assert v.decision.actions == own and v.decision.choice == d.choice
                assert not v.decision.optional
            elif v.decision is not None:
                assert v.decision.optional and v.decision.choice is None
                assert all(isinstance(a, AnnounceAces) and a.seat == seat for a in v.decision.actions)
            if v.decision is not None:
                assert all(a.seat == seat for a in v.decision.actions)
        else:
            assert v.decision is None


def test_view_has_no_field_for_other_hands_or_the_stock() -> None:
    names = {f.name for f in dataclasses.fields(View)}
    for forbidden in ("hands", "stock", "remaining_stock", "initial_stock", "dealt", "laid_aside", "history"):
        assert forbidden not in names


def run(
    number: int,
    contract: Game | None,
    seed: int,
    after: Callable[[Deal], None],
    rules: HouseRules | None = None,
) -> Deal:
    """Play a deal with random bots, calling ``after`` on the start and after every action."""
    deal = Deal.from_number(number, rules)
    bots = [RandomBot(seed + i) for i in range(3)]
    after(deal)

    def do(action: Action) -> Sequence[FlowEvent]:
        events = deal.apply(action)
        after(deal)
        return events

    if contract is not None:
        for action in forced_auction(deal, contract, random.Random(seed)):
            do(action)
    play_deal(deal, bots, do)
    return deal


# ---------------------------------------------------------------------- leaks
@settings(max_examples=150, deadline=None)
@given(numbers, contracts, seeds, house_rules)
def test_views_never_leak_hidden_cards(number: int, contract: Game | None, seed: int, rules: HouseRules) -> None:
    run(number, contract, seed, check_views, rules)


def test_views_never_leak_in_any_game() -> None:
    for g in GAMES:
        for k in range(4):
            seed = g.no * 100 + k
            rules = HouseRules(royale_defenders_see_each_other=k == 3, aces_low_in_all_miseres=k == 3)
            run(random.Random(seed).getrandbits(48), g, seed, check_views, rules)


def test_own_laid_aside_visible_only_until_the_first_card() -> None:
    seen_before = seen_after = 0
    for g in (game("gask 2"), game("7-spel"), game("köpmisär 3"), game("solo petite misär")):
        for seed in range(6):
            snapshots: list[tuple[bool, tuple[tuple[Card, ...], ...]]] = []

            def snap(deal: Deal, snapshots: list[tuple[bool, tuple[tuple[Card, ...], ...]]] = snapshots) -> None:
                snapshots.append((deal.first_card_played, tuple(deal.view(s).own_laid_aside for s in range(3))))

            run(random.Random(seed).getrandbits(48), g, seed, snap)
            for started, asides in snapshots:
                if started:
                    seen_after += 1
                    assert asides == ((), (), ())
                elif any(asides):
                    seen_before += 1
    assert seen_before > 0 and seen_after > 0


# ---------------------------------------------------------------------- the strong test
def _permuted(deal: Deal, pi: dict[Card, Card]) -> Deal:
    hands = [[pi.get(c, c) for c in hand] for hand in deal.dealt]
    stock = [pi.get(c, c) for c in deal.initial_stock]
    return Deal(hands, stock, deal.highest, deal.rules, spare_bottom=deal.spare_bottom)


@settings(max_examples=150, deadline=None)
@given(numbers, st.integers(0, 2), seeds, st.randoms(use_true_random=False))
def test_auction_views_ignore_cards_hidden_from_the_seat(number: int, seat: int, seed: int, rnd: random.Random) -> None:
    """Two deals differing only in the other hands and the stock look the same to ``seat``."""
    a = Deal.from_number(number)
    hidden = [c for c in ALL_CARDS if c not in a.dealt[seat]]
    moved = list(hidden)
    rnd.shuffle(moved)
    b = _permuted(a, dict(zip(hidden, moved, strict=True)))
    assert b.dealt[seat] == a.dealt[seat]
    assert a.view(seat) == b.view(seat)
    bots = [RandomBot(seed + i) for i in range(3)]
    while a.phase in (Phase.AUCTION, Phase.LEVEL):
        d = a.decision()
        action = bots[d.seat].choose(a.view(d.seat)).action
        assert action is not None
        a.apply(action)
        b.apply(action)  # bids, passes and levels name no cards
        if a.stock_top and a.declarer == seat:
            break  # the seat took up the stock: those cards are its own now
        assert a.view(seat) == b.view(seat)


def _map_action(action: Action, pi: dict[Card, Card]) -> Action:
    if isinstance(action, PlayCard):
        return dataclasses.replace(action, card=pi.get(action.card, action.card))
    if isinstance(action, Keep | Discard | Buy | Repurchase | SetAside):
        return type(action)(action.seat, tuple(pi.get(c, c) for c in action.cards))
    return action


@settings(max_examples=150, deadline=None)
@given(numbers, contracts, seeds, st.integers(0, 2), st.randoms(use_true_random=False))
def test_whole_deal_views_ignore_cards_never_seen_by_the_seat(
    number: int, contract: Game | None, seed: int, seat: int, rnd: random.Random
) -> None:
    """Permute (within each suit, so every follow-suit stays legal) the cards ``seat``
    never sees in a whole deal, replay the same actions: its views are identical."""
    seen: set[Card] = set()

    def collect(deal: Deal) -> None:
        seen.update(deal.hand(seat), deal.laid_aside(seat), played_cards(deal), deal.turned_all)
        for cards in deal.view(seat).open_hands.values():  # an open misère; every hand at the end
            seen.update(cards)

    finished = run(number, contract, seed, collect)
    history = list(finished.history)
    pi: dict[Card, Card] = {}
    for suit in Suit:
        unseen = [c for c in ALL_CARDS if c.suit is suit and c not in seen]
        if finished.aces_low:
            unseen = [c for c in unseen if c.rank is not Rank.ACE]  # the declarer's announcement names them
        moved = list(unseen)
        rnd.shuffle(moved)
        pi.update(zip(unseen, moved, strict=True))
    a = Deal.from_number(number)
    b = _permuted(a, pi)
    assert a.view(seat) == b.view(seat)
    for action in history:
        a.apply(action)
        b.apply(_map_action(action, pi))
        assert a.view(seat) == b.view(seat), f"after {action.text} by seat {action.seat}"
    assert a.result == finished.result == b.result


# ---------------------------------------------------------------------- open hands
def _contract(deal: Deal, g: Game, declarer: int = 0) -> None:
    if declarer == 0:
        actions: list[Action] = [Bid(0, g), Pass(1), Pass(2)]
    else:
        opener = Bid(0, GAMES[0])
        actions = [opener, Bid(1, g), Pass(2), Pass(0)] if declarer == 1 else [opener, Pass(1), Bid(2, g), Pass(0)]
    for action in actions:
        deal.apply(action)


def _drive_to(deal: Deal, phase: Phase, rng: random.Random) -> None:
    while deal.phase is not phase:
        d = deal.decision()
        if d.phase is Phase.DECIDE:
            action: Action = Decide(d.seat, True)
        elif d.choice is not None and not d.actions:
            action = d.choice.random(rng)
        else:
            action = d.actions[0]
        deal.apply(action)


def test_solo_petite_misere_ouverte_opens_after_the_opponents_buy() -> None:
    deal = Deal.from_number(123456789)
    _contract(deal, game("solo petite misär ouverte"))
    rng = random.Random(1)
    _drive_to(deal, Phase.OPPONENT_BUY, rng)
    aside = deal.laid_aside(0)
    assert len(aside) == 1
    assert deal.view(1).open_hands == {} and deal.view(2).open_hands == {}
    _drive_to(deal, Phase.PLAY, rng)
    for s in (1, 2):
        v = deal.view(s)
        assert v.open_hands == {0: deal.hand(0)} and len(v.open_hands[0]) == 12
        assert not set(aside) & cards_in(v)


def test_royale_opens_before_the_opponents_buy_without_the_set_aside_card() -> None:
    deal = Deal.from_number(987654321)
    _contract(deal, game("solo petite misär ouverte royale"), declarer=2)
    rng = random.Random(2)
    _drive_to(deal, Phase.OPPONENT_BUY, rng)
    aside = deal.laid_aside(2)
    assert len(aside) == 1
    for s in (0, 1):
        v = deal.view(s)
        assert v.open_hands == {2: deal.hand(2)} and len(v.open_hands[2]) == 12
        assert not set(aside) & cards_in(v)
    assert deal.view(2).open_hands == {}


def test_gok_hand_is_open_only_from_the_play() -> None:
    deal = Deal.from_number(55555)
    _contract(deal, game("gök"), declarer=1)
    rng = random.Random(3)
    assert deal.phase is Phase.DISCARD
    assert deal.view(0).hand_sizes[1] == 26
    assert all(deal.view(s).open_hands == {} for s in range(3))
    _drive_to(deal, Phase.PLAY, rng)
    assert deal.view(0).open_hands == {1: deal.hand(1)} == deal.view(2).open_hands
    assert not set(deal.laid_aside(1)) & (cards_in(deal.view(0)) | cards_in(deal.view(2)))


def test_royale_partners_see_each_other_only_under_the_house_rule() -> None:
    g = game("solo grande misär ouverte royale")
    for rule in (False, True):
        deal = Deal.from_number(42, HouseRules(royale_defenders_see_each_other=rule))
        _contract(deal, g)
        _drive_to(deal, Phase.PLAY, random.Random(4))
        assert deal.view(1).open_hands.get(0) == deal.hand(0)
        assert (2 in deal.view(1).open_hands) is rule
        assert (1 in deal.view(2).open_hands) is rule
        assert set(deal.view(0).open_hands) == set()


# ---------------------------------------------------------------------- four aces
def _aces_deal(level: int, declarer: int) -> Deal:
    """A deal whose ``declarer`` holds min(level, 4) aces and finds the rest in the stock."""
    in_hand = min(level, 4)
    others = [c for c in ALL_CARDS if c.rank is not Rank.ACE]
    hands: list[list[Card]] = [[], [], []]
    hands[declarer] = list(ACES[:in_hand]) + others[: 13 - in_hand]
    rest = others[13 - in_hand :]
    stock = list(ACES[in_hand:]) + rest[: 13 - (4 - in_hand)]
    rest = rest[13 - (4 - in_hand) :]
    o1, o2 = [s for s in range(3) if s != declarer]
    hands[o1], hands[o2] = rest[:13], rest[13:26]
    return Deal(hands, stock, Suit.H)


def _low_gask_to_play(level: int, declarer: int) -> Deal:
    deal = _aces_deal(level, declarer)
    _contract(deal, game(f"gask {level}"), declarer)
    hand = deal.hand(declarer)
    kept = [c for c in hand if c.rank is Rank.ACE][:level]
    kept += [c for c in hand if c not in kept][: level - len(kept)]
    deal.apply(Keep(declarer, tuple(kept)))
    non_aces = [c for c in deal.hand(declarer) if c.rank is not Rank.ACE]
    deal.apply(Discard(declarer, tuple(non_aces[: len(deal.hand(declarer)) - 13])))
    deal.apply(HighLow(declarer, True))
    deal.apply(Decide(declarer, True))
    if deal.phase is Phase.SET_ASIDE:
        g = deal.game
        assert g is not None and g.misere is not None
        non_aces = [c for c in deal.hand(declarer) if c.rank is not Rank.ACE]
        deal.apply(SetAside(declarer, tuple(non_aces[: g.misere.set_aside])))
    assert deal.phase is Phase.PLAY
    assert set(ACES) <= set(deal.hand(declarer))
    return deal


def test_four_aces_offer_only_in_the_declarers_view() -> None:
    for level in range(5):
        for declarer in range(3):
            deal = _low_gask_to_play(level, declarer)
            offer = AnnounceAces(declarer)
            assert deal.is_legal(offer)
            mine = deal.view(declarer).decision
            assert mine is not None and offer in mine.actions
            assert mine.optional is (declarer != deal.to_act)
            for s in range(3):
                if s != declarer:
                    v = deal.view(s)
                    assert v.decision is None or all(not isinstance(a, AnnounceAces) for a in v.decision.actions)
                    assert not v.aces_low
                    assert not deal.is_legal(AnnounceAces(s))
            check_views(deal)
            deal.apply(offer)
            assert all(deal.view(s).aces_low for s in range(3))  # announced: public
            assert not deal.is_legal(offer)
            check_views(deal)


def test_four_aces_offer_gone_after_the_first_card() -> None:
    deal = _low_gask_to_play(2, 1)
    first = next(a for a in deal.decision().actions if isinstance(a, PlayCard))
    deal.apply(first)
    assert not deal.is_legal(AnnounceAces(1))
    for s in range(3):
        v = deal.view(s)
        assert v.decision is None or not any(isinstance(a, AnnounceAces) for a in v.decision.actions)


def test_no_aces_offer_when_gask_played_high() -> None:
    deal = _aces_deal(4, 0)
    _contract(deal, game("gask 4"))
    deal.apply(Keep(0, ACES))
    deal.apply(Discard(0, tuple(c for c in deal.hand(0) if c.rank is not Rank.ACE)[:4]))
    deal.apply(HighLow(0, False))
    _drive_to(deal, Phase.PLAY, random.Random(5))
    assert not deal.is_legal(AnnounceAces(0))
    v = deal.view(0)
    assert v.decision is not None and not any(isinstance(a, AnnounceAces) for a in v.decision.actions)


@given(st.sets(st.sampled_from(ALL_CARDS), max_size=26))
def test_a_hand_is_shown_in_one_order(cards: set[Card]) -> None:
    """A view's hand (made from the deal's bitmask) is in the order of every other card set:
    by suit, high rank first."""
    mask = sum(1 << c for c in cards)
    assert sorted_mask(mask) == sorted_cards(cards)
    assert all(type(c) is Card for c in sorted_mask(mask))
