"""The bots' hand evaluators against hands whose answer is known by hand."""

from __future__ import annotations

import random
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vira_desktop.ai import planning
from vira_desktop.ai.evaluate import (
    SPLIT_RISK,
    danger,
    danger_cards,
    misere_chance,
    pool_figures,
    safest_mask,
    sure_tricks_mask,
    top_mask,
    trump_tricks_mask,
    weighted_dangers,
)
from vira_desktop.ai.planning import SURE, HandOdds, draw, draw_mask, thirteen_mask
from vira_desktop.rules.cards import ALL_CARDS, SUIT_MASKS, Card, Suit, mask_of, parse_cards
from vira_desktop.rules.games import GAMES


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


def test_a_bid_in_the_highest_suit_is_reckoned_with_that_suit_as_trump() -> None:
    """A newcomer's hint said "begär in highest suit — 64% to go home (buying, trump spades)"
    with hearts the highest suit: the trump a level's odds were reckoned with is the one the
    level allows (the best one where it allows two), as its chance is."""
    hand = cards("AS KS QS JS TS 9S 2H 3H 4D 5D 6C 7C 8C")  # spades its trump, hearts the highest suit
    unseen = [c for c in ALL_CARDS if c not in hand]
    odds = HandOdds(hand, unseen, Suit.H, seed=1)
    game = odds["begär"].game
    assert odds["begär"].trump is Suit.S  # its best trump, where any may be chosen
    assert odds.level_trump(game, 0) is Suit.S
    assert odds.level_trump(game, 2) is Suit.H  # in the highest suit: hearts
    assert odds.level_trump(game, 1) in (Suit.H, Suit.D)  # in suit: hearts or its partner
    assert odds.level_trump(game, 1) is max((Suit.H, Suit.D), key=lambda t: odds.buy_odds(t, game.tricks))


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


# ---------------------------------------------------------------------- the fast paths
# The auction evaluates thousands of sampled hands a deal on tables and bitmasks; each fast
# path must give exactly what the plain rule of thumb gives (the bot's bids stay the same).


def _top_plain(mask: int, n: int, skip: int = -1) -> int:
    """The ``n`` highest cards outside suit ``skip``: aces first, then kings, spades first."""
    out = 0
    for i in sorted(range(52), key=lambda i: (-(i % 13), i // 13)):
        if n > 0 and mask >> i & 1 and i // 13 != skip:
            out |= 1 << i
            n -= 1
    return out


def _dangers_plain(mask: int, aces_low: bool, dead: int) -> list[tuple[float, int]]:
    """weighted_dangers by the rule as written: each suit played from the bottom."""

    def value(index: int) -> int:
        return 1 if aces_low and index == 12 else index + 2

    out = []
    for s in range(4):
        m13, d13 = mask >> (13 * s) & 0x1FFF, dead >> (13 * s) & 0x1FFF
        held = sorted((i for i in range(13) if m13 >> i & 1), key=value)
        missing = sorted(value(i) for i in range(13) if not (m13 | d13) >> i & 1)
        for n, index in enumerate(held, 1):
            if len(missing) < n:
                break
            r = value(index)
            if len(missing) >= 2 * n - 1:
                led = missing[2 * n - 2]
                second = missing[2 * n - 1] if len(missing) >= 2 * n else led
                if r > second:
                    out.append((1.0 + (r - second) / 20 + 0.01 * n, 13 * s + index))
                    continue
                if r > led:
                    out.append((0.5 + 0.01 * n, 13 * s + index))
                    continue
            if r > missing[n - 1]:
                out.append((SPLIT_RISK + 0.01 * n, 13 * s + index))
    return sorted(out, key=lambda x: (-x[0], x[1]))


def _safest_plain(mask: int, keep: int, aces_low: bool, dead: int) -> int:
    while mask.bit_count() > keep:
        excess = mask.bit_count() - keep
        bad = _dangers_plain(mask, aces_low, dead)[: (excess + 1) // 2]
        gone = sum(1 << i for _, i in bad) if bad else _top_plain(mask, excess)
        mask, dead = mask & ~gone, dead | gone
    return mask


_masks = st.lists(st.integers(0, 51), min_size=26, max_size=26, unique=True)


@given(_masks, st.integers(0, 13), st.integers(-1, 3))
def test_top_cards_are_taken_by_rank_then_suit(indices: list[int], n: int, skip: int) -> None:
    mask = mask_of(indices)
    assert top_mask(mask, n, skip) == _top_plain(mask, n, skip)


@given(_masks, st.integers(13, 26))
def test_pool_figures_weigh_each_trumps_thirteen(indices: list[int], size: int) -> None:
    pool = mask_of(indices[:size])
    for trump, (tricks, sure) in enumerate(pool_figures(pool)):
        thirteen = pool & SUIT_MASKS[trump] | _top_plain(pool, 13 - (pool & SUIT_MASKS[trump]).bit_count(), trump)
        assert thirteen == thirteen_mask(pool, trump)
        assert (tricks, sure) == (trump_tricks_mask(thirteen, trump), sure_tricks_mask(thirteen, trump))


@given(_masks, st.integers(9, 20), st.booleans(), st.integers(0, 8))
def test_misere_dangers_and_the_safest_cards(indices: list[int], size: int, aces_low: bool, n_dead: int) -> None:
    mask, dead = mask_of(indices[:size]), mask_of(indices[size : size + n_dead])
    assert weighted_dangers(mask, aces_low, dead) == _dangers_plain(mask, aces_low, dead)
    for keep in (11, 12, 13):
        assert safest_mask(mask, keep, aces_low, dead) == _safest_plain(mask, keep, aces_low, dead)


@given(st.integers(0, 2**32), st.integers(1, 39), st.integers(0, 13))
def test_draws_are_the_rngs_own_sample(seed: int, n: int, k: int) -> None:
    population = list(range(100, 100 + n))
    k = min(k, n)
    assert draw(random.Random(seed), population, k) == random.Random(seed).sample(population, k)
    bits = [1 << (c % 52) for c in population]
    assert draw_mask(random.Random(seed), bits, k) == sum(random.Random(seed).sample(bits, k))


@settings(max_examples=12, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True),
    st.integers(0, 2**20),
    st.sampled_from([0.3, 0.62]),
)
def test_a_hopeless_game_never_reaches_the_threshold(indices: list[int], seed: int, threshold: float) -> None:
    """The auction gives a game up on its first samples; the figures stay the same. Without
    the give-up on a first sample far below the need, exactly the games out of reach are
    given up; with it, every game out of reach still is, and a game kept is in reach."""
    hand = [Card(i) for i in indices]
    unseen = [c for c in ALL_CARDS if c not in hand]
    full = HandOdds(hand, unseen, Suit.S, seed)
    exact = HandOdds(hand, unseen, Suit.S, seed)
    with patch.object(planning, "GIVE_UP", 0.0):
        for g in GAMES:
            assert exact.hopeless(g.name, threshold) == (max(full[g.name].chance) < threshold)
    quick = HandOdds(hand, unseen, Suit.S, seed)
    for g in GAMES:
        out = max(full[g.name].chance) < threshold
        assert quick.hopeless(g.name, threshold) or not out
        assert quick[g.name] == full[g.name] == exact[g.name]
