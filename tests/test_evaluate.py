"""The bots' hand evaluators against hands whose answer is known by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vira_desktop.ai.evaluate import danger, danger_cards, misere_chance, sure_tricks_mask
from vira_desktop.ai.planning import SURE, HandOdds
from vira_desktop.rules.cards import ALL_CARDS, Card, Suit, mask_of, parse_cards


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@pytest.mark.parametrize(
    ("hand", "trump", "sure"),
    [
        ("AS KS QS JS TS 9S 8S 7S AH KH AD KD AC", Suit.S, 13),  # solo vira
        ("AS KS QS JS TS 9S 8S AH 2H AD 5C 4C 3C", Suit.S, 9),  # the solo 9 of the positions
        ("AS KS QS JS 2S 3S 4S 5S 6S AH AD AC KC", Suit.S, 13),  # AKQJ draw the four missing trumps
        ("AS KS QS 2S 3S 4S 5S AH KH AD KD AC KC", Suit.S, 0),  # six trumps out, three top ones
        ("AS KS QS JS TS 9S 8S AH KH 2H AD 2D 2C", Suit.S, 10),  # small side cards are losers
        ("AS KS QS JS TS 9S 8S AH KH 2H AD 2D 2C", Suit.H, 0),  # wrong trump
    ],
)
def test_sure_tricks(hand: str, trump: Suit, sure: int) -> None:
    assert sure_tricks_mask(mask_of(cards(hand)), int(trump)) == sure


@given(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True), st.sampled_from(list(Suit)))
def test_sure_tricks_never_exceed_the_hand(indices: list[int], trump: Suit) -> None:
    hand = [Card(i) for i in indices]
    sure = sure_tricks_mask(mask_of(hand), int(trump))
    assert 0 <= sure <= 13
    if sure:  # trumps are drawn: every trump is a sure trick
        assert sure >= sum(1 for c in hand if c.suit is trump)


def test_uneven_split_makes_a_card_dangerous() -> None:
    """2 5 7 8 T of diamonds: safe while the eight others split evenly, but a defender
    void after one round leaves 3D led and the declarer cannot go under (a real deal)."""
    hand = cards("2D 5D 7D 8D TD")
    assert Card.parse("5D") in danger_cards(hand)
    assert danger(cards("2D 3D 4D 5D 6D")) == 0  # the five lowest can never win


def test_flawless_misere_has_no_danger_and_the_best_chance() -> None:
    flawless = cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 5D 2C 3C 4C")
    risky = cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 9D 2C 3C KC")
    assert danger(flawless) == 0
    assert misere_chance(flawless, False) > misere_chance(risky, False)
    assert misere_chance(flawless, True) > misere_chance(risky, True)


def test_open_misere_is_never_safer_than_closed() -> None:
    for hand in ("2S 3S 4S 2H 3H 4H 2D 3D 4D 9D 2C 3C KC", "2S 5S 9S 2H 3H 8H 2D 3D 4D 9D 2C 3C KC"):
        assert misere_chance(cards(hand), True) <= misere_chance(cards(hand), False)


def test_sure_tricks_are_not_scaled_down() -> None:
    """Vira's calibration scales its estimates down hard; thirteen sure tricks stay sure."""
    hand = cards("AS KS QS JS TS 9S 8S 7S AH KH AD KD AC")
    unseen = [c for c in ALL_CARDS if c not in hand]
    odds = HandOdds(hand, unseen, Suit.H, seed=1)
    assert odds["solo vira"].chance[0] >= SURE
    assert odds["vira"].chance[0] >= SURE  # keeping all 13, the stock cannot spoil it


def test_a_turned_trump_pays_by_the_suit_it_is_likely_to_be() -> None:
    """Turné, vingel and tringel pay pins by the class of the trump turned up: a hand that
    goes home only with hearts trump counts on the pins of whatever class hearts is."""
    hand = cards("AH KH QH JH TH 9H 8H AS 2S 3D 4D 2C 3C")
    unseen = [c for c in ALL_CARDS if c not in hand]
    for highest, heavy in ((Suit.H, 2), (Suit.D, 1), (Suit.S, 0)):
        odds = HandOdds(hand, unseen, highest, seed=1)
        for name in ("turné 7", "tringel 9"):
            turned = odds[name].turned_classes
            assert turned is not None
            home, fail = turned
            assert sum(home) == pytest.approx(1.0) and sum(fail) == pytest.approx(1.0)
            assert max(range(3), key=lambda c: home[c]) == heavy  # home with hearts trump
            assert home[heavy] > fail[heavy]  # and fails when another suit turns up
