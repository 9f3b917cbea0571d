"""The auction, table-driven: sequences of (seat, bid) and what they must lead to.

Sources: the rulebook ("Bidding", "Bidding Without a Stated Level", "Passing on
a Gök") and RULES-NOTES.md §3. Seats: 0 forehand, 1 middle-hand, 2 rear-hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from vira_desktop.rules.actions import Bid, ChooseLevel, parse_action
from vira_desktop.rules.cards import Suit, parse_cards
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.errors import IllegalAction
from vira_desktop.rules.games import GAMES
from vira_desktop.rules.games import game as game_named
from vira_desktop.rules.houserules import HouseRules
from vira_desktop.rules.scoring import GokPass

Steps = Sequence[tuple[int, str]]

# A fixed deal (highest suit hearts); the cards do not matter for most of the auction.
HANDS = (
    "AS KS QS JS TS AH KH QH JH AD KD AC KC",
    "9S 8S 7S TH 9H 8H QD JD TD QC JC TC 9C",
    "6S 5S 4S 7H 6H 5H 9D 8D 7D 6D 8C 7C 6C",
)
STOCK = "3S 4H 5D 2S 3H 2H 4D 3D 2D 5C 4C 3C 2C"


def new_deal(
    hands: Sequence[str] = HANDS, stock: str = STOCK, highest: Suit = Suit.H, rules: HouseRules | None = None
) -> Deal:
    return Deal([parse_cards(h) for h in hands], parse_cards(stock), highest, rules)


def run(steps: Steps, deal: Deal | None = None) -> Deal:
    deal = deal or new_deal()
    for seat, text in steps:
        deal.apply(parse_action(text, seat))
    return deal


def _ids(cases: Sequence[Any]) -> list[str]:
    return [c[0] for c in cases]


# ---------------------------------------------------------------------------------------------------------------------
# Finished auctions: steps -> declarer, game (None while the level is open), suit level, phase after the auction
FINISHED: list[tuple[str, Steps, int, str | None, int, Phase]] = [
    ("forehand-opens-both-pass", [(0, "7-spel"), (1, "pass"), (2, "pass")], 0, "7-spel", 0, Phase.TRUMP),
    ("middle-outbids", [(0, "7-spel"), (1, "8-spel"), (2, "pass"), (0, "pass")], 1, "8-spel", 0, Phase.TRUMP),
    ("rear-outbids", [(0, "begär"), (1, "pass"), (2, "7-spel"), (0, "pass")], 2, "7-spel", 0, Phase.TRUMP),
    (
        "passed-player-is-skipped",
        [(0, "7-spel"), (1, "pass"), (2, "8-spel"), (0, "9-spel"), (2, "pass")],
        0,
        "9-spel",
        0,
        Phase.TRUMP,
    ),
    (
        "long-auction-up-the-table",
        [
            (0, "begär"),
            (1, "turné 6"),
            (2, "7-spel"),
            (0, "vingel 6"),
            (1, "gask 0"),
            (2, "pass"),
            (0, "gök"),
            (1, "pass"),
        ],
        0,
        "gök",
        0,
        Phase.DISCARD,
    ),
    ("turne-goes-to-turn", [(0, "turné 7"), (1, "pass"), (2, "pass")], 0, "turné 7", 0, Phase.TURN),
    ("vingel-goes-to-turn", [(0, "vingel 8"), (1, "pass"), (2, "pass")], 0, "vingel 8", 0, Phase.TURN),
    ("tringel-goes-to-turn", [(0, "tringel 9"), (1, "pass"), (2, "pass")], 0, "tringel 9", 0, Phase.TURN),
    ("gask-goes-to-keep", [(0, "gask 3"), (1, "pass"), (2, "pass")], 0, "gask 3", 0, Phase.KEEP),
    ("vira-takes-the-stock", [(0, "vira"), (1, "pass"), (2, "pass")], 0, "vira", 0, Phase.DISCARD),
    ("kopmisar-goes-to-buy", [(0, "köpmisär 3"), (1, "pass"), (2, "pass")], 0, "köpmisär 3", 0, Phase.BUY),
    ("solo-goes-to-trump", [(0, "solo 9"), (1, "pass"), (2, "pass")], 0, "solo 9", 0, Phase.TRUMP),
    (
        "solo-misere-goes-to-decide",
        [(0, "solo grande misär"), (1, "pass"), (2, "pass")],
        0,
        "solo grande misär",
        0,
        Phase.DECIDE,
    ),
    ("in-suit", [(0, "7-spel in suit"), (1, "pass"), (2, "pass")], 0, "7-spel", 1, Phase.TRUMP),
    ("in-highest-suit", [(0, "vira in highest suit"), (1, "pass"), (2, "pass")], 0, "vira", 2, Phase.DISCARD),
    (
        "forehand-matches-rear-in-forehand",
        [(0, "begär"), (1, "pass"), (2, "7-spel"), (0, "7-spel in forehand"), (2, "pass")],
        0,
        "7-spel",
        0,
        Phase.TRUMP,
    ),
    (
        "middle-matches-rear-in-forehand",
        [(0, "begär"), (1, "turné 6"), (2, "7-spel"), (0, "pass"), (1, "7-spel in forehand"), (2, "pass")],
        1,
        "7-spel",
        0,
        Phase.TRUMP,
    ),
    (
        "rulebook-7-in-suit-in-forehand",
        [(0, "begär"), (1, "pass"), (2, "7-spel in suit"), (0, "7-spel in suit in forehand"), (2, "pass")],
        0,
        "7-spel",
        1,
        Phase.TRUMP,
    ),
    (
        "better-suit-beats-better-hand",
        [(0, "7-spel in suit"), (1, "7-spel in highest suit"), (2, "pass"), (0, "pass")],
        1,
        "7-spel",
        2,
        Phase.TRUMP,
    ),
    (
        "suit-and-hand-ladder",
        [
            (0, "begär"),
            (1, "8-spel"),
            (2, "8-spel in suit"),
            (0, "8-spel in suit in forehand"),
            (1, "8-spel in highest suit"),
            (2, "pass"),
            (0, "8-spel in highest suit in forehand"),
            (1, "pass"),
        ],
        0,
        "8-spel",
        2,
        Phase.TRUMP,
    ),
    ("gask-6-then-gask-5", [(0, "gask 6"), (1, "gask 5"), (2, "pass"), (0, "pass")], 1, "gask 5", 0, Phase.KEEP),
    # turné and vingel without a level: no choice, the lowest level that outbids
    (
        "rulebook-vingel-after-7-spel",
        [(0, "7-spel"), (1, "vingel"), (2, "pass"), (0, "pass")],
        1,
        "vingel 6",
        0,
        Phase.TURN,
    ),
    ("turne-after-7-spel", [(0, "7-spel"), (1, "turné"), (2, "pass"), (0, "pass")], 1, "turné 7", 0, Phase.TURN),
    ("turne-after-vingel-7", [(0, "vingel 7"), (1, "turne"), (2, "pass"), (0, "pass")], 1, "turné 8", 0, Phase.TURN),
    ("vingel-opening", [(0, "vingel"), (1, "pass"), (2, "pass")], 0, "vingel 6", 0, Phase.TURN),
    ("turne-opening", [(0, "turné"), (1, "pass"), (2, "pass")], 0, "turné 6", 0, Phase.TURN),
    # gask, köpmisär, solo without a level: the declarer chooses
    ("gask-opening-level-open", [(0, "gask"), (1, "pass"), (2, "pass")], 0, None, 0, Phase.LEVEL),
    ("rulebook-gask-after-turne-8", [(0, "turné 8"), (1, "gask"), (2, "pass"), (0, "pass")], 1, None, 0, Phase.LEVEL),
    ("kopmisar-level-open", [(0, "köpmisär"), (1, "pass"), (2, "pass")], 0, None, 0, Phase.LEVEL),
    ("solo-level-open", [(0, "solo"), (1, "pass"), (2, "pass")], 0, None, 0, Phase.LEVEL),
    ("gask-in-suit-level-open", [(0, "gask in suit"), (1, "pass"), (2, "pass")], 0, None, 1, Phase.LEVEL),
    ("higher-solo-level-open", [(0, "solo"), (1, "higher solo"), (2, "pass"), (0, "pass")], 1, None, 0, Phase.LEVEL),
]


@pytest.mark.parametrize(("name", "steps", "declarer", "game", "suit_level", "phase"), FINISHED, ids=_ids(FINISHED))
def test_finished_auction(
    name: str, steps: Steps, declarer: int, game: str | None, suit_level: int, phase: Phase
) -> None:
    deal = run(steps)
    assert deal.phase is phase
    assert deal.declarer == declarer
    assert deal.to_act == declarer
    assert (deal.game.name if deal.game else None) == game
    assert deal.suit_level == suit_level
    assert deal.bids == [(s, parse_action(t, s).text) for s, t in steps]


# ---------------------------------------------------------------------------------------------------------------------
# Auctions still running: the standing bid's effective game, suit level, seat, and who bids next
STANDING: list[tuple[str, Steps, str, int, int, int]] = [
    ("opening", [(0, "7-spel")], "7-spel", 0, 0, 1),
    ("rulebook-gask-after-turne-8-is-gask-2", [(0, "turné 8"), (1, "gask")], "gask 2", 0, 1, 2),
    ("gask-after-turne-8-continues", [(0, "turné 8"), (1, "gask"), (2, "gask 3")], "gask 3", 0, 2, 0),
    ("rulebook-vingel-after-7-spel-is-vingel-6", [(0, "7-spel"), (1, "vingel")], "vingel 6", 0, 1, 2),
    ("turne-after-7-spel", [(0, "7-spel"), (1, "turné")], "turné 7", 0, 1, 2),
    ("turne-after-7-spel-in-highest-suit", [(0, "7-spel in highest suit"), (1, "turné")], "turné 7", 0, 1, 2),
    ("vingel-after-turne-7", [(0, "turné 7"), (1, "vingel")], "vingel 7", 0, 1, 2),
    ("gask-opening", [(0, "gask")], "gask 0", 0, 0, 1),
    ("kopmisar-opening", [(0, "köpmisär")], "köpmisär 1", 0, 0, 1),
    ("solo-opening", [(0, "solo")], "solo 6", 0, 0, 1),
    ("turne-opening", [(0, "turné")], "turné 6", 0, 0, 1),
    ("vingel-opening", [(0, "vingel")], "vingel 6", 0, 0, 1),
    ("gask-after-gok", [(0, "gök"), (1, "gask")], "gask 1", 0, 1, 2),
    ("gask-after-gask-4-is-gask-6", [(0, "gask 4"), (1, "gask")], "gask 6", 0, 1, 2),
    ("gask-after-solo-7-is-gask-5", [(0, "solo 7"), (1, "gask")], "gask 5", 0, 1, 2),
    ("gask-after-gask-6-is-gask-5", [(0, "gask 6"), (1, "gask")], "gask 5", 0, 1, 2),
    ("kopmisar-after-gask-4", [(0, "gask 4"), (1, "köpmisär")], "köpmisär 5", 0, 1, 2),
    ("kopmisar-after-gask-2", [(0, "gask 2"), (1, "kopmisar")], "köpmisär 3", 0, 1, 2),
    ("solo-after-9-spel", [(0, "9-spel"), (1, "solo")], "solo 7", 0, 1, 2),
    ("solo-after-solo-12", [(0, "solo 12"), (1, "solo")], "solo vira", 0, 1, 2),
    ("solo-never-a-misere-after-30", [(0, "solo petite misär"), (1, "solo")], "solo 9", 0, 1, 2),
    ("solo-never-a-misere-after-38", [(0, "solo grande misär ouverte royale"), (1, "solo")], "solo 12", 0, 1, 2),
    ("solo-after-solo-10", [(0, "solo 10"), (1, "solo")], "solo 11", 0, 1, 2),
    ("gask-in-suit-after-turne-8", [(0, "turné 8"), (1, "gask in suit")], "gask 2", 1, 1, 2),
    ("gask-in-suit-after-gask-2", [(0, "gask 2"), (1, "gask in suit")], "gask 2", 1, 1, 2),
    ("gask-in-highest-suit-opening", [(0, "gask in highest suit")], "gask 0", 2, 0, 1),
    ("solo-in-suit-after-solo-8", [(0, "solo 8"), (1, "solo in suit")], "solo 8", 1, 1, 2),
    ("higher-gask", [(0, "gask"), (1, "higher gask")], "gask 1", 0, 1, 2),
    ("higher-gask-twice", [(0, "gask"), (1, "higher gask"), (2, "higher gask")], "gask 2", 0, 2, 0),
    ("higher-gask-from-gask-4-skips-to-gask-6", [(0, "gask 3"), (1, "gask"), (2, "higher gask")], "gask 6", 0, 2, 0),
    ("higher-kopmisar", [(0, "köpmisär"), (1, "higher köpmisär")], "köpmisär 2", 0, 1, 2),
    ("rulebook-higher-solo", [(0, "solo"), (1, "higher solo")], "solo 7", 0, 1, 2),
    ("higher-gask-in-suit", [(0, "gask in suit"), (1, "higher gask in suit")], "gask 1", 1, 1, 2),
    ("gask-in-forehand-matches", [(0, "begär"), (1, "pass"), (2, "gask"), (0, "gask in forehand")], "gask 0", 0, 0, 2),
    (
        "higher-gask-over-gask-in-forehand",
        [(0, "begär"), (1, "pass"), (2, "gask"), (0, "gask in forehand"), (2, "higher gask")],
        "gask 1",
        0,
        2,
        0,
    ),
    ("solo-in-forehand-matches", [(0, "begär"), (1, "solo"), (2, "pass"), (0, "solo in forehand")], "solo 6", 0, 0, 1),
    ("in-suit-beats-plain", [(0, "8-spel"), (1, "8-spel in suit")], "8-spel", 1, 1, 2),
    ("highest-beats-in-suit", [(0, "8-spel in suit"), (1, "8-spel in highest suit")], "8-spel", 2, 1, 2),
    ("plain-higher-row-beats-highest-suit", [(0, "7-spel in highest suit"), (1, "vingel 6")], "vingel 6", 0, 1, 2),
    ("higher-row-beats-lower", [(0, "begär"), (1, "solo vira")], "solo vira", 0, 1, 2),
    ("forehand-in-forehand", [(0, "begär"), (1, "pass"), (2, "7-spel"), (0, "7-spel in forehand")], "7-spel", 0, 0, 2),
    (
        "rear-answers-match-with-better-suit",
        [(0, "begär"), (1, "pass"), (2, "7-spel"), (0, "7-spel in forehand"), (2, "7-spel in suit")],
        "7-spel",
        1,
        2,
        0,
    ),
    (
        "forehand-in-forehand-over-middle",
        [(0, "begär"), (1, "gök"), (2, "pass"), (0, "gök in forehand")],
        "gök",
        0,
        0,
        1,
    ),
    ("gask-5-over-gask-6", [(0, "gask 6"), (1, "gask 5")], "gask 5", 0, 1, 2),
    ("gask-6-over-gask-4", [(0, "gask 4"), (1, "gask 6")], "gask 6", 0, 1, 2),
    # Rulebook: an unspecified turné/vingel is the lowest level that outbids the previous bid; there is no
    # "higher turné" form, so a plain "turné" after a better hand's "turné" must mean turné 7.
    ("turne-after-unspecified-turne", [(0, "turné"), (1, "turné")], "turné 7", 0, 1, 2),
    ("vingel-after-unspecified-vingel", [(0, "vingel"), (1, "vingel")], "vingel 7", 0, 1, 2),
]


@pytest.mark.parametrize(("name", "steps", "game", "suit_level", "seat", "to_act"), STANDING, ids=_ids(STANDING))
def test_standing_bid(name: str, steps: Steps, game: str, suit_level: int, seat: int, to_act: int) -> None:
    deal = run(steps)
    assert deal.phase is Phase.AUCTION
    assert deal.best is not None
    assert deal.best.game.name == game
    assert deal.best.suit_level == suit_level
    assert deal.best.seat == seat
    assert deal.to_act == to_act
    assert deal.declarer is None


@pytest.mark.parametrize(("name", "steps", "game", "suit_level", "seat", "to_act"), STANDING, ids=_ids(STANDING))
def test_standing_bid_was_offered_by_legal_actions(
    name: str, steps: Steps, game: str, suit_level: int, seat: int, to_act: int
) -> None:
    deal = run(steps[:-1])
    last_seat, last_text = steps[-1]
    assert parse_action(last_text, last_seat) in deal.legal_actions()


# ---------------------------------------------------------------------------------------------------------------------
# Illegal bids: steps before, the bid, a fragment of the reason
ILLEGAL: list[tuple[str, Steps, tuple[int, str], str]] = [
    ("forehand-may-not-pass-first", [], (0, "pass"), "forehand must open"),
    ("middle-may-not-open", [], (1, "7-spel"), "turn"),
    ("rear-may-not-open", [], (2, "pass"), "turn"),
    ("lower-row", [(0, "8-spel")], (1, "7-spel"), "too low"),
    ("same-bid-worse-hand", [(0, "7-spel")], (1, "7-spel"), "too low"),
    ("same-bid-worse-hand-in-forehand", [(0, "7-spel")], (1, "7-spel in forehand"), "better hand"),
    ("rear-may-not-match-forehand", [(0, "7-spel"), (1, "pass")], (2, "7-spel in forehand"), "better hand"),
    ("rear-may-not-match-middle", [(0, "begär"), (1, "7-spel")], (2, "7-spel in forehand"), "better hand"),
    ("in-forehand-must-match", [(0, "begär"), (1, "pass"), (2, "7-spel")], (0, "8-spel in forehand"), "must match"),
    ("in-forehand-may-not-open", [], (0, "7-spel in forehand"), "in forehand"),
    (
        "rulebook-7-in-forehand-does-not-beat-7-in-suit",
        [(0, "begär"), (1, "pass"), (2, "7-spel in suit")],
        (0, "7-spel in forehand"),
        "must match",
    ),
    (
        "in-forehand-may-not-match-a-better-hand-twice",
        [(0, "begär"), (1, "pass"), (2, "7-spel"), (0, "7-spel in forehand")],
        (2, "7-spel in forehand"),
        "better hand",
    ),
    ("plain-does-not-beat-in-suit", [(0, "7-spel in suit")], (1, "7-spel"), "too low"),
    ("in-suit-does-not-beat-highest", [(0, "7-spel in highest suit")], (1, "7-spel in suit"), "too low"),
    ("suit-does-not-lift-a-lower-row", [(0, "8-spel")], (1, "7-spel in highest suit"), "too low"),
    ("gask-6-below-gask-5", [(0, "gask 5")], (1, "gask 6"), "too low"),
    ("kopmisar-2-below-gask-2", [(0, "turné 8"), (1, "gask")], (2, "köpmisär 2"), "too low"),
    ("bid-after-passing", [(0, "7-spel"), (1, "pass"), (2, "8-spel")], (1, "9-spel"), "turn"),
    ("pass-after-passing", [(0, "7-spel"), (1, "pass"), (2, "8-spel")], (1, "pass"), "turn"),
    ("wrong-player", [(0, "7-spel")], (2, "8-spel"), "turn"),
    ("bid-after-the-auction", [(0, "7-spel"), (1, "pass"), (2, "pass")], (0, "8-spel"), "trump"),
    ("plain-gask-over-unspecified-gask", [(0, "gask")], (1, "gask"), "higher gask"),
    ("plain-solo-over-unspecified-solo", [(0, "solo")], (1, "solo"), "higher solo"),
    ("plain-kopmisar-over-unspecified", [(0, "köpmisär")], (1, "köpmisär"), "higher köpmisär"),
    ("higher-gask-over-a-stated-gask", [(0, "gask 2")], (1, "higher gask"), "only answers"),
    ("higher-gask-opening", [], (0, "higher gask"), "only answers"),
    ("higher-solo-over-gask", [(0, "gask")], (1, "higher solo"), "only answers"),
    ("solo-after-solo-vira", [(0, "solo vira")], (1, "solo"), "too low"),
    ("turne-after-turne-8", [(0, "turné 8")], (1, "turné"), "too low"),
    ("vingel-after-vingel-8", [(0, "vingel 8")], (1, "vingel"), "too low"),
    ("gask-after-gask-5", [(0, "gask 5")], (1, "gask"), "too low"),
    ("kopmisar-after-gask-5", [(0, "gask 5")], (1, "köpmisär"), "too low"),
    ("solo-after-solo-vira-in-highest", [(0, "solo vira in highest suit")], (1, "solo in highest suit"), "too low"),
]


@pytest.mark.parametrize(("name", "steps", "bid", "reason"), ILLEGAL, ids=_ids(ILLEGAL))
def test_illegal_bid(name: str, steps: Steps, bid: tuple[int, str], reason: str) -> None:
    deal = run(steps)
    action = parse_action(bid[1], bid[0])
    before = (list(deal.bids), deal.best, list(deal.passed), deal.to_act, deal.phase, len(deal.history))
    assert not deal.is_legal(action)
    assert action not in deal.legal_actions()
    with pytest.raises(IllegalAction, match=reason):
        deal.apply(action)
    assert (list(deal.bids), deal.best, list(deal.passed), deal.to_act, deal.phase, len(deal.history)) == before


# ---------------------------------------------------------------------------------------------------------------------
# "In suit" exists only for games with a free choice of trump (RULES-NOTES §3)
FREE_TRUMP = [
    "begär",
    "7-spel",
    "8-spel",
    "9-spel",
    "gask 0",
    "gask 1",
    "gask 2",
    "gask 3",
    "gask 4",
    "gask 6",
    "gask 5",
    "vira",
    "solo 6",
    "solo 7",
    "solo 8",
    "solo 9",
    "solo 10",
    "solo 11",
    "solo 12",
    "solo vira",
    "gask",
    "solo",
]
NOT_FREE_TRUMP = [g.name for g in GAMES if g.name not in FREE_TRUMP] + ["turné", "vingel", "köpmisär"]


def test_not_free_trump_list_is_every_other_game() -> None:
    assert len(NOT_FREE_TRUMP) == 40 - 20 + 3
    assert "tringel 9" in NOT_FREE_TRUMP and "gök" in NOT_FREE_TRUMP


@pytest.mark.parametrize("suffix", [" in suit", " in highest suit"])
@pytest.mark.parametrize("name", FREE_TRUMP)
def test_free_trump_games_may_be_bid_in_suit(name: str, suffix: str) -> None:
    deal = new_deal()
    bid = parse_action(name + suffix, 0)
    assert bid in deal.legal_actions()
    deal.apply(bid)
    assert deal.best is not None and deal.best.suit_level == (1 if suffix == " in suit" else 2)


@pytest.mark.parametrize("suffix", [" in suit", " in highest suit"])
@pytest.mark.parametrize("name", NOT_FREE_TRUMP)
def test_other_games_may_not_be_bid_in_suit(name: str, suffix: str) -> None:
    deal = new_deal()
    bid = parse_action(name + suffix, 0)
    assert not deal.is_legal(bid)
    assert bid not in deal.legal_actions()
    with pytest.raises(IllegalAction, match="cannot be bid in suit"):
        deal.apply(bid)
    assert deal.best is None and deal.history == []


def test_every_game_is_a_legal_opening_bid() -> None:
    deal = new_deal()
    legal = deal.legal_actions()
    for g in GAMES:
        assert Bid(0, g) in legal
    assert not any(isinstance(a, Bid) and a.in_forehand for a in legal)


# ---------------------------------------------------------------------------------------------------------------------
# Choosing the level of a passed unspecified gask, köpmisär or solo
LEVELS: list[tuple[str, Steps, list[str], list[str], Phase]] = [
    (
        "rulebook-gask-after-turne-8",
        [(0, "turné 8"), (1, "gask"), (2, "pass"), (0, "pass")],
        ["gask 2", "gask 3", "gask 4", "gask 6", "gask 5"],
        ["gask 0", "gask 1"],
        Phase.KEEP,
    ),
    (
        "gask-opening",
        [(0, "gask"), (1, "pass"), (2, "pass")],
        ["gask 0", "gask 1", "gask 2", "gask 3", "gask 4", "gask 6", "gask 5"],
        ["7-spel", "köpmisär 1", "vira", "gök"],
        Phase.KEEP,
    ),
    (
        "gask-after-gask-4",
        [(0, "gask 4"), (1, "gask"), (2, "pass"), (0, "pass")],
        ["gask 6", "gask 5"],
        ["gask 4", "gask 3"],
        Phase.KEEP,
    ),
    (
        "solo-after-9-spel-never-a-misere",
        [(0, "9-spel"), (1, "solo"), (2, "pass"), (0, "pass")],
        ["solo 7", "solo 8", "solo 9", "solo 10", "solo 11", "solo 12", "solo vira"],
        ["solo 6", "solo petite misär", "solo grande misär", "solo grande misär ouverte royale"],
        Phase.TRUMP,
    ),
    (
        "solo-opening-never-a-misere",
        [(0, "solo"), (1, "pass"), (2, "pass")],
        ["solo 6", "solo 7", "solo 8", "solo 9", "solo 10", "solo 11", "solo 12", "solo vira"],
        ["solo petite misär", "solo petite misär ouverte", "solo grande misär ouverte"],
        Phase.TRUMP,
    ),
    (
        "kopmisar-after-gask-2",
        [(0, "gask 2"), (1, "köpmisär"), (2, "pass"), (0, "pass")],
        ["köpmisär 3", "köpmisär 4", "köpmisär 5", "köpmisär 6"],
        ["köpmisär 1", "köpmisär 2", "gask 3"],
        Phase.BUY,
    ),
    (
        "rulebook-higher-solo",
        [(0, "solo"), (1, "higher solo"), (2, "pass"), (0, "pass")],
        ["solo 7", "solo 8", "solo 9", "solo 10", "solo 11", "solo 12", "solo vira"],
        ["solo 6"],
        Phase.TRUMP,
    ),
    (
        "higher-gask-chain",
        [(0, "gask"), (1, "higher gask"), (2, "higher gask"), (0, "pass"), (1, "pass")],
        ["gask 2", "gask 3", "gask 4", "gask 6", "gask 5"],
        ["gask 0", "gask 1"],
        Phase.KEEP,
    ),
    (
        "gask-in-forehand-may-keep-the-matched-level",
        [(0, "begär"), (1, "pass"), (2, "gask 2"), (0, "gask in forehand"), (2, "pass")],
        ["gask 2", "gask 3", "gask 4", "gask 6", "gask 5"],
        ["gask 1"],
        Phase.KEEP,
    ),
    (
        "gask-in-suit-after-gask-2",
        [(0, "gask 2"), (1, "gask in suit"), (2, "pass"), (0, "pass")],
        ["gask 2", "gask 3", "gask 4", "gask 6", "gask 5"],
        ["gask 1"],
        Phase.KEEP,
    ),
    (
        "gask-after-solo-7",
        [(0, "solo 7"), (1, "gask"), (2, "pass"), (0, "pass")],
        ["gask 5"],
        ["gask 6"],
        Phase.KEEP,
    ),
]


@pytest.mark.parametrize(("name", "steps", "allowed", "refused", "after"), LEVELS, ids=_ids(LEVELS))
def test_level_choice(name: str, steps: Steps, allowed: list[str], refused: list[str], after: Phase) -> None:
    deal = run(steps)
    assert deal.phase is Phase.LEVEL
    assert deal.game is None
    declarer = deal.declarer
    assert declarer is not None
    offered = [a.text for a in deal.legal_actions()]
    assert offered == [f"level {x}" for x in allowed]
    for x in refused:
        action = parse_action(f"level {x}", declarer)
        with pytest.raises(IllegalAction, match="level must be one of"):
            deal.apply(action)
        assert deal.phase is Phase.LEVEL and deal.game is None
    # only the declarer chooses
    other = declarer.next
    with pytest.raises(IllegalAction, match="turn"):
        deal.apply(ChooseLevel(other, game_named(allowed[0])))
    # every offered level is accepted, and fixes the game
    for x in allowed:
        fork = deal.clone()
        fork.apply(parse_action(f"level {x}", declarer))
        assert fork.game is not None and fork.game.name == x
        assert fork.phase is after
        assert fork.declarer == declarer
        assert fork.suit_level == deal.suit_level


def test_level_choice_is_only_for_a_passed_unspecified_bid() -> None:
    deal = run([(0, "7-spel"), (1, "turné"), (2, "pass"), (0, "pass")])
    assert deal.phase is Phase.TURN and deal.game is not None and deal.game.name == "turné 7"
    with pytest.raises(IllegalAction):
        deal.apply(parse_action("level turné 8", 1))
    deal = run([(0, "gask 2"), (1, "pass"), (2, "pass")])
    assert deal.phase is Phase.KEEP
    with pytest.raises(IllegalAction):
        deal.apply(parse_action("level gask 3", 0))


def test_gask_in_suit_after_level_may_not_be_played_low() -> None:
    deal = run([(0, "turné 8"), (1, "gask in suit"), (2, "pass"), (0, "pass"), (1, "level gask 2")])
    assert deal.game is not None and deal.game.name == "gask 2" and deal.suit_level == 1
    hand = deal.hand(1)
    deal.apply(parse_action("keep " + " ".join(str(c) for c in hand[:2]), 1))
    extra = deal.hand(1)[:2]
    deal.apply(parse_action("discard " + " ".join(str(c) for c in extra), 1))
    assert deal.phase is Phase.HIGH_LOW
    assert [a.text for a in deal.legal_actions()] == ["high"]
    with pytest.raises(IllegalAction, match="may not be played low"):
        deal.apply(parse_action("low", 1))


# ---------------------------------------------------------------------------------------------------------------------
# Gök: låggard bookkeeping for the players who pass on it

# Deal A: forehand low holdings in 2 suits (8S+7,6,5; 8H+7,6,5), middle 2 (2S, 2H), rear 1 (2D).
GOK_A = (
    (
        "8S 7S 6S 5S 4S 3S 9H 8H 7H 6H 5H 4H 3H",
        "2S AS KS QS JS TS 9S 2H AH KH QH JH TH",
        "2D AD KD QD JD TD 9D 8D 7D AC KC QC JC",
    ),
    "6D 5D 4D 3D TC 9C 8C 7C 6C 5C 4C 3C 2C",
)
# Deal B: forehand 2 (2S; 2H), middle 1 (2D), rear none.
GOK_B = (
    (
        "6S 5S 4S 3S 2S 9H 8H 7H 6H 5H 4H 3H 2H",
        "2D AD KD QD JD TD 9D AC KC QC JC TC 9C",
        "AS KS QS JS TS 9S 8S 7S AH KH QH JH TH",
    ),
    "8D 7D 6D 5D 4D 3D 8C 7C 6C 5C 4C 3C 2C",
)
GOK_DEALS = {"A": GOK_A, "B": GOK_B}

GOK_PASSES: list[tuple[str, str, Steps, int, list[GokPass]]] = [
    ("all-met", "A", [(0, "gök"), (1, "pass"), (2, "pass")], 0, [GokPass(1, 2, True), GokPass(2, 1, True)]),
    ("none-met", "B", [(0, "gök"), (1, "pass"), (2, "pass")], 0, [GokPass(1, 2, False), GokPass(2, 1, False)]),
    (
        "first-hand-short-second-met",
        "A",
        [(0, "begär"), (1, "gök"), (2, "pass"), (0, "pass")],
        1,
        [GokPass(2, 2, False), GokPass(0, 1, True)],
    ),
    (
        "first-hand-needs-two-even-as-forehand",
        "B",
        [(0, "begär"), (1, "pass"), (2, "gök"), (0, "pass")],
        2,
        [GokPass(0, 2, True)],
    ),
    (
        "first-hand-after-gok-is-rear",
        "B",
        [(0, "begär"), (1, "gök"), (2, "pass"), (0, "pass")],
        1,
        [GokPass(2, 2, False), GokPass(0, 1, True)],
    ),
    (
        "middle-as-second-hand-needs-one",
        "B",
        [(0, "begär"), (1, "turné 6"), (2, "gök"), (0, "pass"), (1, "pass")],
        2,
        [GokPass(0, 2, True), GokPass(1, 1, True)],
    ),
    (
        "gok-in-forehand-restarts-the-count",
        "A",
        [(0, "begär"), (1, "gök"), (2, "pass"), (0, "gök in forehand"), (1, "pass")],
        0,
        [GokPass(1, 2, True)],
    ),
]


@pytest.mark.parametrize(("name", "deal_key", "steps", "declarer", "passes"), GOK_PASSES, ids=_ids(GOK_PASSES))
def test_gok_pass_bookkeeping(name: str, deal_key: str, steps: Steps, declarer: int, passes: list[GokPass]) -> None:
    hands, stock = GOK_DEALS[deal_key]
    deal = run(steps, new_deal(hands, stock))
    assert deal.declarer == declarer
    assert deal.game is not None and deal.game.name == "gök"
    assert deal.gok_passes == passes


def test_gok_passes_are_forgotten_when_the_gok_is_raised() -> None:
    hands, stock = GOK_A
    deal = run([(0, "gök"), (1, "pass")], new_deal(hands, stock))
    assert deal.gok_passes == [GokPass(1, 2, True)]
    deal.apply(parse_action("turné 7", 2))
    assert deal.gok_passes == []
    deal.apply(parse_action("pass", 0))
    assert deal.declarer == 2 and deal.gok_passes == []


# ---------------------------------------------------------------------------------------------------------------------
# House rule: re-entering the bidding after a gök is raised (default off)


def test_gok_reentry_is_off_by_default() -> None:
    assert HouseRules().gok_reentry is False
    deal = run([(0, "gök"), (1, "pass"), (2, "turné 7")])
    assert deal.to_act == 0
    with pytest.raises(IllegalAction, match="turn"):
        deal.apply(parse_action("köpmisär 1", 1))
    deal.apply(parse_action("pass", 0))
    assert deal.phase is Phase.TURN
    assert deal.declarer == 2
    assert deal.game is not None and deal.game.name == "turné 7"


REENTRY: list[tuple[str, Steps, int, str]] = [
    (
        "middle-re-enters",
        [(0, "gök"), (1, "pass"), (2, "turné 7"), (0, "pass"), (1, "köpmisär 1"), (2, "pass")],
        1,
        "köpmisär 1",
    ),
    (
        "middle-re-enters-after-forehand-raises",
        [
            (0, "gök"),
            (1, "pass"),
            (2, "turné 7"),
            (0, "turné 8"),
            (1, "gask"),
            (2, "pass"),
            (0, "pass"),
            (1, "level gask 2"),
        ],
        1,
        "gask 2",
    ),
    (
        "rear-re-enters",
        [
            (0, "begär"),
            (1, "gök"),
            (2, "pass"),
            (0, "turné 7"),
            (1, "turné 8"),
            (2, "9-spel"),
            (0, "pass"),
            (1, "pass"),
        ],
        2,
        "9-spel",
    ),
]


@pytest.mark.parametrize(("name", "steps", "declarer", "game"), REENTRY, ids=_ids(REENTRY))
def test_gok_reentry_house_rule(name: str, steps: Steps, declarer: int, game: str) -> None:
    deal = run(steps, new_deal(rules=HouseRules(gok_reentry=True)))
    assert deal.declarer == declarer
    assert deal.game is not None and deal.game.name == game


@pytest.mark.parametrize("steps", [r[1] for r in REENTRY], ids=_ids(REENTRY))
def test_the_same_auctions_are_illegal_without_the_house_rule(steps: Steps) -> None:
    deal = new_deal()
    with pytest.raises(IllegalAction):
        run(steps, deal)


def test_gok_reentry_skips_after_raise_to_the_passed_player() -> None:
    deal = run([(0, "gök"), (1, "pass"), (2, "turné 7")], new_deal(rules=HouseRules(gok_reentry=True)))
    assert deal.passed == [False, False, False]
    assert deal.to_act == 0
    deal.apply(parse_action("turné 8", 0))
    assert deal.to_act == 1


def test_gok_reentry_only_for_players_who_passed_on_the_gok() -> None:
    deal = run([(0, "begär"), (1, "pass"), (2, "gök"), (0, "turné 7")], new_deal(rules=HouseRules(gok_reentry=True)))
    assert deal.passed == [False, True, False]
    assert deal.to_act == 2
    with pytest.raises(IllegalAction, match="turn"):
        deal.apply(parse_action("8-spel", 1))
    deal.apply(parse_action("pass", 2))
    assert deal.declarer == 0


def test_gok_reentry_does_not_reopen_a_gok_that_was_passed_out() -> None:
    deal = run([(0, "gök"), (1, "pass"), (2, "pass")], new_deal(rules=HouseRules(gok_reentry=True)))
    assert deal.declarer == 0
    assert deal.game is not None and deal.game.name == "gök"
    assert deal.phase is Phase.DISCARD


def test_gok_reentry_is_once_per_pass() -> None:
    """After re-entering and passing again on a non-gök bid, the player is out for good."""
    deal = run(
        [(0, "gök"), (1, "pass"), (2, "turné 7"), (0, "turné 8"), (1, "pass"), (2, "9-spel")],
        new_deal(rules=HouseRules(gok_reentry=True)),
    )
    assert deal.passed == [False, True, False]
    assert deal.to_act == 0


# ---------------------------------------------------------------------------------------------------------------------
# legal_actions() offers exactly the bids that is_legal() accepts


def _all_bids(seat: int) -> list[Bid]:
    bids = []
    for g in GAMES:
        for level in (0, 1, 2):
            for in_forehand in (False, True):
                bids.append(Bid(seat, g, None, level, in_forehand))
    for group in ("gask", "köpmisär", "solo", "turné", "vingel"):
        for level in (0, 1, 2):
            for in_forehand in (False, True):
                for higher in (False, True):
                    bids.append(Bid(seat, None, group, level, in_forehand, higher))
    return bids


PREFIXES = sorted({tuple(steps[:i]) for _, steps, *_ in STANDING + FINISHED + ILLEGAL for i in range(len(steps) + 1)})


def test_legal_actions_and_is_legal_agree_on_every_bid() -> None:
    """One test over many auction positions; the failure lists every disagreement."""
    mismatches = set()
    for steps in PREFIXES:
        try:
            deal = run(steps)
        except IllegalAction:
            continue  # a prefix of a turné/vingel case the engine refuses (reported by its own test)
        if deal.phase is not Phase.AUCTION:
            continue
        legal = deal.legal_actions()
        assert len(legal) == len(set(legal))
        for seat in range(3):
            for bid in _all_bids(seat):
                if deal.is_legal(bid) != (bid in legal):
                    where = " | ".join(f"{x}:{t}" for x, t in steps)
                    mismatches.add(f"{bid.text!r} is_legal={deal.is_legal(bid)} after [{where}]")
    assert not mismatches, "\n".join(sorted(mismatches))


@pytest.mark.parametrize(
    "steps",
    [[(0, "turné")], [(0, "vingel")], [(0, "7-spel"), (1, "turné")], [(0, "turné 7"), (1, "vingel")]],
    ids=["turne", "vingel", "turne-7", "vingel-7"],
)
def test_there_is_no_higher_turne_or_vingel(steps: Steps) -> None:
    """parse_action refuses "higher turné"/"higher vingel"; the engine must not accept such a Bid either."""
    deal = run(steps)
    group = deal.best.bid.group if deal.best else None
    assert group in ("turné", "vingel")
    for seat in range(3):
        for in_forehand in (False, True):
            bid = Bid(seat, None, group, 0, in_forehand, higher=True)
            assert not deal.is_legal(bid), bid.text


@pytest.mark.parametrize(
    ("steps", "bid", "expected"),
    [
        ([(0, "begär")], "gask", "gask 0"),  # rulebook: "gask" stands for its lowest level that outbids
        ([(0, "turné 8")], "gask", "gask 2"),  # the rulebook's own example
        ([(0, "begär"), (1, "solo petite misär ouverte")], "solo", "solo 11"),
        ([(0, "begär"), (1, "solo 12")], "solo", "solo vira"),
        ([(0, "begär"), (1, "9-spel")], "köpmisär", "köpmisär 4"),
        ([(0, "begär"), (1, "gask")], "higher gask", "gask 1"),
    ],
)
def test_bid_game_names_what_a_bid_stands_for(steps: Steps, bid: str, expected: str) -> None:
    deal = run(steps)
    action = parse_action(bid, deal.to_act)
    assert isinstance(action, Bid)
    assert deal.bid_game(action) is game_named(expected)


def test_bid_game_refuses_an_illegal_bid_and_changes_nothing() -> None:
    deal = run([(0, "begär"), (1, "gask")])
    before = deal.history[:]
    with pytest.raises(IllegalAction, match="higher gask"):
        deal.bid_game(Bid(2, None, "gask"))
    assert deal.history == before and deal.to_act == 2
