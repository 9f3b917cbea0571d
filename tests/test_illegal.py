"""Illegal actions are refused with a readable reason, and leave the deal exactly as it was.

Every case reaches a position with scripted legal actions on a fixed deal, then
tries one action. ``reason=None`` rows are the legal controls: the same
position accepts the neighbouring legal action, so each refusal is for the
stated reason and not because the position was not reached.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from math import comb
from typing import Any, NamedTuple

import pytest

from vira_desktop.rules.actions import Action, AnnounceAces, parse_action
from vira_desktop.rules.cards import Suit, parse_cards
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.errors import IllegalAction
from vira_desktop.rules.houserules import HouseRules

Steps = Sequence[tuple[int, str]]

# Highest suit hearts (partner diamonds). Forehand holds all four aces.
SEAT0 = "AS KS QS JS TS AH KH QH JH AD KD AC KC"
SEAT1 = "9S 8S 7S TH 9H 8H QD JD TD QC JC TC 9C"
SEAT2 = "6S 5S 4S 7H 6H 5H 9D 8D 7D 6D 8C 7C 6C"
STOCK = "3S 4H 5D 2S 3H 2H 4D 3D 2D 5C 4C 3C 2C"  # top first: turné turns 3S, vingel 3S 4H, tringel 3S 4H 5D


def first(n: int) -> str:
    """The first n cards of forehand's dealt hand, in record notation."""
    return " ".join(SEAT0.split()[:n]) or "-"


def new_deal(highest: Suit = Suit.H, rules: HouseRules | None = None) -> Deal:
    return Deal([parse_cards(SEAT0), parse_cards(SEAT1), parse_cards(SEAT2)], parse_cards(STOCK), highest, rules)


class Case(NamedTuple):
    name: str
    steps: Steps
    action: tuple[int, str]
    reason: str | None  # a fragment of the refusal; None = legal control
    highest: Suit = Suit.H
    rules: HouseRules | None = None


def auction(bid: str) -> list[tuple[int, str]]:
    return [(0, bid), (1, "pass"), (2, "pass")]


# Positions reached by scripted legal actions (forehand is the declarer throughout)
SEVEN = auction("7-spel")
SEVEN_H = [*SEVEN, (0, "trump H")]
SEVEN_DECIDE = [*SEVEN_H, (0, "buy AS")]
SEVEN_PLAY = [*SEVEN_H, (0, "buy -"), (0, "play"), (1, "buy -"), (2, "buy -")]
SEVEN_BIG_BUY = [*SEVEN_H, (0, f"buy {first(11)}")]  # 2 cards left in the stock
KOP2 = auction("köpmisär 2")
KOP2_DECIDE = [*KOP2, (0, "buy AS KS")]
TURNE = [*auction("turné 6"), (0, "turn")]
VINGEL = [*auction("vingel 6"), (0, "turn")]
TRINGEL = [*auction("tringel 9"), (0, "turn")]
GASK2 = auction("gask 2")
GASK2_DISCARD = [*GASK2, (0, "keep AS KS")]
# gask 4 low with the four aces: keep them, take the stock, lay the first four stock cards aside
GASK4_ACES = [*auction("gask 4"), (0, "keep AS AH AD AC"), (0, "discard 3S 4H 5D 2S")]
GASK4_LOW_ACES = [*GASK4_ACES, (0, "low"), (0, "play")]
GASK4_LOW_THREE_ACES = [
    *auction("gask 4"),
    (0, "keep AS AH AD KS"),
    (0, "discard 3S 4H 5D 2S"),
    (0, "low"),
    (0, "play"),
]
GASK4_HIGH_ACES = [*GASK4_ACES, (0, "high"), (0, "trump H"), (0, "play")]
KOP1_ACES = [*auction("köpmisär 1"), (0, "buy KS"), (0, "play"), (0, "set aside QS JS"), (1, "buy -"), (2, "buy -")]
LAID = [*SEVEN_H, (0, "buy -"), (0, "lay down")]

CASES: list[Case] = [
    # --- the auction
    Case("forehand-passes-first", [], (0, "pass"), "forehand must open"),
    Case("forehand-opens", [], (0, "begär"), None),
    Case("wrong-player-opens", [], (1, "7-spel"), "forehand's turn"),
    Case("wrong-player-bids", [(0, "7-spel")], (2, "8-spel"), "middle-hand's turn"),
    Case("bid-too-low", [(0, "8-spel")], (1, "7-spel"), "too low"),
    Case("same-bid-worse-hand", [(0, "8-spel")], (1, "8-spel"), "too low"),
    Case("bid-higher", [(0, "8-spel")], (1, "8-spel in suit"), None),
    Case("bid-after-passing", [(0, "7-spel"), (1, "pass"), (2, "8-spel")], (1, "9-spel"), "forehand's turn"),
    Case("pass-twice", [(0, "7-spel"), (1, "pass"), (2, "8-spel"), (0, "pass")], (1, "pass"), "rear-hand's turn"),
    Case("turne-in-suit", [], (0, "turné 6 in suit"), "cannot be bid in suit"),
    Case("play-a-card-in-the-auction", [], (0, "AS"), "bid or pass"),
    Case("pass-after-the-auction", SEVEN, (0, "pass"), "choose trump"),
    # --- level
    Case(
        "level-too-low",
        [(0, "turné 8"), (1, "gask"), (2, "pass"), (0, "pass")],
        (1, "level gask 1"),
        "level must be one of",
    ),
    Case("level-ok", [(0, "turné 8"), (1, "gask"), (2, "pass"), (0, "pass")], (1, "level gask 2"), None),
    Case(
        "level-wrong-player",
        [(0, "turné 8"), (1, "gask"), (2, "pass"), (0, "pass")],
        (0, "level gask 2"),
        "middle-hand's turn",
    ),
    Case(
        "keep-before-level",
        [(0, "turné 8"), (1, "gask"), (2, "pass"), (0, "pass")],
        (1, "keep 9S 8S"),
        "choose the level",
    ),
    # --- trump
    Case("trump-wrong-player", SEVEN, (1, "trump H"), "forehand's turn"),
    Case("buy-before-trump", SEVEN, (0, "buy AS"), "choose trump"),
    Case("plain-trump-free", SEVEN, (0, "trump C"), None),
    Case("in-suit-trump-spades", auction("7-spel in suit"), (0, "trump S"), "trump must be one of"),
    Case("in-suit-trump-clubs", auction("7-spel in suit"), (0, "trump C"), "trump must be one of"),
    Case("in-suit-trump-highest", auction("7-spel in suit"), (0, "trump H"), None),
    Case("in-suit-trump-partner", auction("7-spel in suit"), (0, "trump D"), None),
    Case("in-highest-trump-partner", auction("7-spel in highest suit"), (0, "trump D"), "trump must be one of H"),
    Case("in-highest-trump-highest", auction("7-spel in highest suit"), (0, "trump H"), None),
    Case("black-in-suit-trump-red", auction("8-spel in suit"), (0, "trump H"), "trump must be one of", Suit.S),
    Case("black-in-suit-trump-partner", auction("8-spel in suit"), (0, "trump C"), None, Suit.S),
    Case(
        "black-in-highest-trump-partner",
        auction("8-spel in highest suit"),
        (0, "trump C"),
        "trump must be one of S",
        Suit.S,
    ),
    Case("solo-in-suit-off-suit", auction("solo 6 in suit"), (0, "trump S"), "trump must be one of"),
    Case("solo-in-highest-partner", auction("solo 12 in highest suit"), (0, "trump D"), "trump must be one of H"),
    Case("solo-in-highest-highest", auction("solo 12 in highest suit"), (0, "trump H"), None),
    Case(
        "gask-in-highest-partner",
        [*auction("gask 0 in highest suit"), (0, "keep -"), (0, "discard -"), (0, "high")],
        (0, "trump D"),
        "trump must be one of H",
    ),
    Case(
        "gask-in-suit-off-suit",
        [*auction("gask 0 in suit"), (0, "keep -"), (0, "discard -"), (0, "high")],
        (0, "trump C"),
        "trump must be one of",
    ),
    Case(
        "gask-in-suit-partner",
        [*auction("gask 0 in suit"), (0, "keep -"), (0, "discard -"), (0, "high")],
        (0, "trump D"),
        None,
    ),
    Case(
        "vira-in-suit-off-suit",
        [*auction("vira in suit"), (0, f"discard {first(13)}")],
        (0, "trump S"),
        "trump must be one of",
    ),
    Case("vingel-not-turned-suit", VINGEL, (0, "trump D"), "trump must be one of S H"),
    Case("vingel-not-turned-clubs", VINGEL, (0, "trump C"), "trump must be one of"),
    Case("vingel-turned-spades", VINGEL, (0, "trump S"), None),
    Case("vingel-turned-hearts", VINGEL, (0, "trump H"), None),
    Case("tringel-not-turned-suit", TRINGEL, (0, "trump C"), "trump must be one of"),
    Case("tringel-turned-diamonds", TRINGEL, (0, "trump D"), None),
    # after buying the turned 3S 4H, turning again shows 5D 2S
    Case(
        "vingel-after-turn-again-old-suit",
        [*VINGEL, (0, "trump H"), (0, "buy AS KS"), (0, "turn again")],
        (0, "trump H"),
        "trump must be one of S D",
    ),
    Case(
        "vingel-after-turn-again-new-suit",
        [*VINGEL, (0, "trump H"), (0, "buy AS KS"), (0, "turn again")],
        (0, "trump D"),
        None,
    ),
    # --- turning
    Case("trump-before-turn", auction("vingel 6"), (0, "trump S"), "turn up"),
    Case("turn-again-before-turn", auction("turné 6"), (0, "turn again"), "turn up"),
    Case("turn-in-7-spel", SEVEN_DECIDE, (0, "turn again"), "turn again only"),
    # --- the declarer's buy
    Case("buy-card-not-in-hand", SEVEN_H, (0, "buy 9S"), "9S is not in the hand"),
    Case("buy-stock-card", SEVEN_H, (0, "buy 3S"), "3S is not in the hand"),
    Case("buy-wrong-player", SEVEN_H, (1, "buy 9S"), "forehand's turn"),
    Case("buy-nothing-in-7-spel", SEVEN_H, (0, "buy -"), None),
    Case("turne-buy-without-the-turned-card", TURNE, (0, "buy -"), "buy: 1 to 13 cards, not 0"),
    Case("turne-buy-the-turned-card", TURNE, (0, "buy AS"), None),
    Case("vingel-buy-one", [*VINGEL, (0, "trump S")], (0, "buy AS"), "buy: 2 to 13 cards, not 1"),
    Case("vingel-buy-two", [*VINGEL, (0, "trump S")], (0, "buy AS KS"), None),
    Case("tringel-buy-two", [*TRINGEL, (0, "trump S")], (0, "buy AS KS"), "buy: 3 to 13 cards, not 2"),
    Case("tringel-buy-three", [*TRINGEL, (0, "trump S")], (0, "buy AS KS QS"), None),
    Case("kopmisar-2-buys-one", KOP2, (0, "buy AS"), "buy: 2 cards, not 1"),
    Case("kopmisar-2-buys-three", KOP2, (0, "buy AS KS QS"), "buy: 2 cards, not 3"),
    Case("kopmisar-2-buys-none", KOP2, (0, "buy -"), "buy: 2 cards, not 0"),
    Case("kopmisar-2-buys-two", KOP2, (0, "buy AS KS"), None),
    Case("kopmisar-repurchase-one", KOP2_DECIDE, (0, "repurchase AH"), "repurchase: 2 cards, not 1"),
    Case("kopmisar-repurchase-three", KOP2_DECIDE, (0, "repurchase AH KH QH"), "repurchase: 2 cards, not 3"),
    Case("kopmisar-repurchase-two", KOP2_DECIDE, (0, "repurchase AH KH"), None),
    # --- buying more than the stock holds (2 left)
    Case("repurchase-more-than-stock", SEVEN_BIG_BUY, (0, "repurchase 3S 4H 5D"), "repurchase: 1 to 2 cards, not 3"),
    Case("repurchase-the-whole-stock", SEVEN_BIG_BUY, (0, "repurchase 3S 4H"), None),
    Case(
        "opponent-buys-more-than-stock", [*SEVEN_BIG_BUY, (0, "play")], (1, "buy 9S 8S 7S"), "buy: 0 to 2 cards, not 3"
    ),
    Case("opponent-buys-the-rest", [*SEVEN_BIG_BUY, (0, "play")], (1, "buy 9S 8S"), None),
    Case(
        "second-opponent-buys-more-than-left",
        [*SEVEN_BIG_BUY, (0, "play"), (1, "buy 9S")],
        (2, "buy 6S 5S"),
        "buy: 0 to 1 cards, not 2",
    ),
    Case("opponent-buys-out-of-turn", [*SEVEN_H, (0, "buy -"), (0, "play")], (2, "buy -"), "middle-hand's turn"),
    Case("opponent-buys-card-not-held", [*SEVEN_H, (0, "buy -"), (0, "play")], (1, "buy AS"), "AS is not in the hand"),
    # --- repurchase and turning again
    Case("second-repurchase", [*SEVEN_DECIDE, (0, "repurchase KS")], (0, "repurchase QS"), "no repurchase"),
    Case("first-repurchase", SEVEN_DECIDE, (0, "repurchase KS"), None),
    Case("repurchase-before-buy", SEVEN_H, (0, "repurchase AS"), "buy first"),
    Case("repurchase-in-solo", [*auction("solo 6"), (0, "trump S")], (0, "repurchase AS"), "no repurchase"),
    Case(
        "turne-turn-again-after-repurchase",
        [*TURNE, (0, "buy AS"), (0, "repurchase KS")],
        (0, "turn again"),
        "turn again only",
    ),
    Case(
        "turne-repurchase-after-turn-again",
        [*TURNE, (0, "buy AS"), (0, "turn again"), (0, "buy KS")],
        (0, "repurchase QS"),
        "no repurchase",
    ),
    Case(
        "turne-second-turn-again",
        [*TURNE, (0, "buy AS"), (0, "turn again"), (0, "buy KS")],
        (0, "turn again"),
        "turn again only",
    ),
    Case("turne-turn-again-needs-2", [*TURNE, (0, f"buy {first(12)}")], (0, "turn again"), "at least 2 cards"),
    Case("turne-turn-again-with-2", [*TURNE, (0, f"buy {first(11)}")], (0, "turn again"), None),
    Case(
        "vingel-turn-again-needs-3",
        [*VINGEL, (0, "trump S"), (0, f"buy {first(11)}")],
        (0, "turn again"),
        "at least 3 cards",
    ),
    Case("vingel-turn-again-with-3", [*VINGEL, (0, "trump S"), (0, f"buy {first(10)}")], (0, "turn again"), None),
    Case(
        "tringel-turn-again-needs-4",
        [*TRINGEL, (0, "trump S"), (0, f"buy {first(10)}")],
        (0, "turn again"),
        "at least 4 cards",
    ),
    Case("tringel-turn-again-with-4", [*TRINGEL, (0, "trump S"), (0, f"buy {first(9)}")], (0, "turn again"), None),
    Case(
        "turne-buy-after-turn-again-must-take-turned",
        [*TURNE, (0, "buy AS"), (0, "turn again")],
        (0, "buy -"),
        "buy: 1 to",
    ),
    # --- gask: keep, discard, high/low
    Case("keep-too-few", GASK2, (0, "keep AS"), "keep: 2 cards, not 1"),
    Case("keep-too-many", GASK2, (0, "keep AS KS QS"), "keep: 2 cards, not 3"),
    Case("keep-card-not-in-hand", GASK2, (0, "keep AS 2S"), "2S is not in the hand"),
    Case("keep-two", GASK2, (0, "keep AS KS"), None),
    Case("gask-0-keeps-a-card", auction("gask 0"), (0, "keep AS"), "keep: 0 cards, not 1"),
    Case("discard-too-few", GASK2_DISCARD, (0, "discard 3S"), "discard: 2 cards, not 1"),
    Case("discard-too-many", GASK2_DISCARD, (0, "discard 3S 4H 5D"), "discard: 2 cards, not 3"),
    Case("discard-card-not-held", GASK2_DISCARD, (0, "discard 9S 3S"), "9S is not in the hand"),
    Case("discard-two", GASK2_DISCARD, (0, "discard 3S 4H"), None),
    Case("vira-discard-12", auction("vira"), (0, f"discard {first(12)}"), "discard: 13 cards, not 12"),
    Case("vira-discard-13", auction("vira"), (0, f"discard {first(13)}"), None),
    Case("gok-discard-wrong", auction("gök"), (0, "discard AS"), "discard: 13 cards, not 1"),
    Case(
        "gask-in-suit-played-low",
        [*auction("gask 0 in suit"), (0, "keep -"), (0, "discard -")],
        (0, "low"),
        "may not be played low",
    ),
    Case(
        "gask-in-highest-suit-played-low",
        [*auction("gask 3 in highest suit"), (0, "keep AS KS QS"), (0, "discard AS KS QS")],
        (0, "low"),
        "may not be played low",
    ),
    Case("gask-in-suit-played-high", [*auction("gask 0 in suit"), (0, "keep -"), (0, "discard -")], (0, "high"), None),
    Case("plain-gask-played-low", [*auction("gask 0"), (0, "keep -"), (0, "discard -")], (0, "low"), None),
    Case(
        "gask-6-has-no-low",
        [*auction("gask 6"), (0, f"keep {first(6)}"), (0, f"discard {first(6)}")],
        (0, "low"),
        "choose trump",
    ),
    Case(
        "set-aside-wrong-count",
        [*auction("gask 0"), (0, "keep -"), (0, "discard -"), (0, "low"), (0, "play")],
        (0, "set aside 3S"),
        "set aside: 2 cards, not 1",
    ),
    # --- four aces
    Case("aces-low-gask-with-four-aces", GASK4_LOW_ACES, (0, "aces"), None),
    Case("aces-without-four-aces", GASK4_LOW_THREE_ACES, (0, "aces"), "four aces"),
    Case("aces-in-high-gask", GASK4_HIGH_ACES, (0, "aces"), "four aces"),
    Case("aces-in-7-spel", SEVEN_PLAY, (0, "aces"), "four aces"),
    Case("aces-before-play", [*GASK4_ACES, (0, "low")], (0, "aces"), "four aces"),
    Case("aces-after-the-first-card", [*GASK4_LOW_ACES, (0, "3H")], (0, "aces"), "four aces"),
    Case("aces-twice", [*GASK4_LOW_ACES, (0, "aces")], (0, "aces"), "four aces"),
    Case("aces-by-an-opponent", GASK4_LOW_ACES, (1, "aces"), "only the declarer"),
    Case("aces-in-kopmisar", KOP1_ACES, (0, "aces"), "four aces"),
    Case("aces-in-kopmisar-house-rule", KOP1_ACES, (0, "aces"), None, rules=HouseRules(aces_low_in_all_miseres=True)),
    # --- playing the cards
    Case("lead-out-of-turn", SEVEN_PLAY, (1, "9S"), "forehand's turn"),
    Case("lead-card-not-in-hand", SEVEN_PLAY, (0, "2C"), "2C is not in forehand's hand"),
    Case("lead", SEVEN_PLAY, (0, "AS"), None),
    Case("revoke-middle", [*SEVEN_PLAY, (0, "AS")], (1, "TH"), "must follow suit in spades"),
    Case("play-opponents-card", [*SEVEN_PLAY, (0, "AS")], (1, "6S"), "6S is not in middle-hand's hand"),
    Case("play-played-card", [*SEVEN_PLAY, (0, "AS")], (1, "AS"), "AS is not in middle-hand's hand"),
    Case("follow-middle", [*SEVEN_PLAY, (0, "AS")], (1, "7S"), None),
    Case("revoke-rear", [*SEVEN_PLAY, (0, "AS"), (1, "7S")], (2, "6D"), "must follow suit in spades"),
    Case("follow-rear", [*SEVEN_PLAY, (0, "AS"), (1, "7S")], (2, "4S"), None),
    Case(
        "void-may-discard",
        [
            *SEVEN_PLAY,
            (0, "AS"),
            (1, "7S"),
            (2, "4S"),
            (0, "KS"),
            (1, "8S"),
            (2, "5S"),
            (0, "QS"),
            (1, "9S"),
            (2, "6S"),
            (0, "JS"),
        ],
        (1, "TH"),
        None,
    ),
    Case("play-twice", [*SEVEN_PLAY, (0, "AS")], (0, "KS"), "middle-hand's turn"),
    Case("trick-winner-leads", [*SEVEN_PLAY, (0, "AS"), (1, "7S"), (2, "4S")], (1, "9S"), "forehand's turn"),
    Case("buy-during-play", SEVEN_PLAY, (0, "buy AS"), "play a card"),
    Case("bid-during-play", SEVEN_PLAY, (0, "solo vira"), "play a card"),
    # --- deciding
    Case("decide-wrong-player", SEVEN_DECIDE, (1, "play"), "forehand's turn"),
    Case("trump-in-decide", SEVEN_DECIDE, (0, "trump S"), "play or lay down"),
    # --- after the deal is over
    Case("play-after-lay-down", LAID, (0, "play"), "the deal is over"),
    Case("card-after-lay-down", LAID, (0, "AH"), "the deal is over"),
    Case("bid-after-lay-down", LAID, (1, "solo vira"), "the deal is over"),
    Case("pass-after-lay-down", LAID, (2, "pass"), "the deal is over"),
    Case("buy-after-lay-down", LAID, (1, "buy -"), "the deal is over"),
    Case("aces-after-lay-down", LAID, (0, "aces"), "the deal is over"),
]


def reach(case: Case) -> Deal:
    deal = new_deal(case.highest, case.rules)
    for seat, text in case.steps:
        deal.apply(parse_action(text, seat))
    return deal


MEMOS = {"_decision", "_core"}  # caches of derived values, and the trick-play core over the deal's own lists


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything observable, plus a deep copy of the whole state."""
    return (
        [deal.view(s) for s in range(3)],
        list(deal.history),
        [deal.hand(s) for s in range(3)],
        [deal.laid_aside(s) for s in range(3)],
        deal.remaining_stock,
        deal.phase,
        deal.to_act,
        deal.declarer,
        deal.game,
        deal.best,
        deal.trump,
        deal.result,
        copy.deepcopy({k: v for k, v in vars(deal).items() if k not in MEMOS}),
    )


def _few_legal_actions(deal: Deal) -> bool:
    d = deal.decision()
    if d.choice is None:
        return True
    n = len(d.choice.candidates)
    return sum(comb(n, k) for k in range(d.choice.min_count, d.choice.max_count + 1)) <= 20000


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_action(case: Case) -> None:
    deal = reach(case)
    action: Action = parse_action(case.action[1], case.action[0])
    if case.reason is None:
        assert deal.is_legal(action)
        deal.check(action)
        if _few_legal_actions(deal):
            assert action in deal.legal_actions()
        deal.apply(action)
        assert deal.history[-1] == action
        assert deal.cards_conserved()
        return
    before = snapshot(deal)
    assert not deal.is_legal(action)
    with pytest.raises(IllegalAction) as checked:
        deal.check(action)
    with pytest.raises(IllegalAction) as applied:
        deal.apply(action)
    message = str(applied.value)
    assert message == str(checked.value)
    assert case.reason in message
    assert "Card(" not in message and "Phase." not in message and "<" not in message
    if _few_legal_actions(deal):
        assert action not in deal.legal_actions()
    assert snapshot(deal) == before
    assert deal.cards_conserved()


def test_illegal_action_is_a_value_error() -> None:
    deal = new_deal()
    with pytest.raises(ValueError, match="forehand must open"):
        deal.apply(parse_action("pass", 0))


def test_refused_action_leaves_the_deal_playable() -> None:
    """After a string of refusals the deal goes on exactly as a fresh one would."""
    deal = reach(Case("x", SEVEN_PLAY, (0, "AS"), None))
    twin = reach(Case("x", SEVEN_PLAY, (0, "AS"), None))
    for seat, text in [(1, "AS"), (0, "2C"), (2, "6S"), (1, "pass"), (0, "aces"), (1, "buy -")]:
        with pytest.raises(IllegalAction):
            deal.apply(parse_action(text, seat))
    for seat, text in [(0, "AS"), (1, "7S"), (2, "4S"), (0, "KS")]:
        assert deal.apply(parse_action(text, seat)) == twin.apply(parse_action(text, seat))
    assert snapshot(deal) == snapshot(twin)


def test_nothing_is_legal_after_a_complete_deal() -> None:
    deal = reach(Case("x", SEVEN_PLAY, (0, "AS"), None))
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert deal.result is not None
    assert deal.legal_actions() == []
    before = snapshot(deal)
    for seat in range(3):
        for text in ("pass", "7-spel", "play", "lay down", "aces", "buy -", "trump H", "AS", "2C", "turn again"):
            action = parse_action(text, seat)
            assert not deal.is_legal(action)
            with pytest.raises(IllegalAction, match="the deal is over"):
                deal.apply(action)
    assert snapshot(deal) == before


def _next_action(deal: Deal) -> Action:
    """A simple legal policy: forehand opens with 7-spel, the others pass, then the first legal choice."""
    d = deal.decision()
    if deal.phase is Phase.AUCTION:
        return parse_action("7-spel" if deal.best is None else "pass", d.seat)
    if d.actions and not isinstance(d.actions[0], AnnounceAces):
        return d.actions[0]
    assert d.choice is not None
    return d.choice.make(d.choice.candidates[: d.choice.min_count])


PROBES = [
    "pass",
    "gask",
    "play",
    "lay down",
    "aces",
    "buy -",
    "trump S",
    "turn",
    "turn again",
    "keep -",
    "discard -",
    "low",
    "high",
    "level gask 3",
    "repurchase -",
    "set aside -",
]


@pytest.mark.parametrize("number", [1, 2, 3])
def test_refusals_along_a_whole_deal_leave_the_state_unchanged(number: int) -> None:
    """Walk a deal to its end; at each step every probe (and every card) that is refused changes nothing."""
    deal = Deal.from_number(number)
    refused = 0
    while not deal.is_over:
        before = snapshot(deal)
        for seat in range(3):
            texts = PROBES + [str(c) for c in deal.hand((seat + 1) % 3)[:3]] + [str(c) for c in deal.hand(seat)]
            for text in texts:
                action = parse_action(text, seat)
                if deal.is_legal(action):
                    continue
                with pytest.raises(IllegalAction):
                    deal.apply(action)
                refused += 1
        assert snapshot(deal) == before
        deal.apply(_next_action(deal))
    assert refused > 100
    assert deal.cards_conserved()
