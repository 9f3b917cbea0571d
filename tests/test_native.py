"""The compiled kernels (vira_desktop/ai/_native.c) give the same figures as the Python code.

The Python functions stay the reference (``evaluate.PYTHON``, ``planning.draw``); each C
kernel is compared with its reference bit for bit: exhaustively over every suit holding
and every shape, and on random hands, stocks and misère hands.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vira_desktop.ai import native
from vira_desktop.ai.evaluate import PYTHON

N = native.NATIVE
needs_native = pytest.mark.skipif(N is None, reason="the compiled helper is not built")


def test_the_helper_is_built() -> None:
    """The test command installs with a C compiler at hand: the helper must be there."""
    if os.environ.get("VIRA_PURE_PYTHON"):
        pytest.skip("the pure-Python code was asked for")
    assert N is not None, native.notice()


def _hand(rng: random.Random, n: int) -> int:
    return sum(1 << c for c in rng.sample(range(52), n))


@needs_native
def test_every_suit_holding_is_valued_the_same() -> None:
    """A holding alone in suit 0: its side value (no trump) and its trump value with every
    length term of a one-suited hand, for all 8,192 holdings."""
    assert N is not None
    for m13 in range(1 << 13):
        assert N.trump_tricks(m13, -1) == PYTHON.trump_tricks_mask(m13, -1)
        assert N.trump_tricks(m13, 0) == PYTHON.trump_tricks_mask(m13, 0)


@needs_native
def test_every_shape_and_trump_is_valued_the_same() -> None:
    """Every 13-card shape (the lowest cards of each suit) with every trump."""
    assert N is not None
    for lengths in product(range(14), repeat=3):
        last = 13 - sum(lengths)
        if last < 0:
            continue
        mask = 0
        for s, n in enumerate((*lengths, last)):
            mask |= ((1 << n) - 1) << (13 * s)
        for trump in range(-1, 4):
            assert N.trump_tricks(mask, trump) == PYTHON.trump_tricks_mask(mask, trump)


@needs_native
def test_random_hands_stocks_and_misere_hands() -> None:
    assert N is not None
    rng = random.Random(2112)
    for _ in range(4000):
        pool = _hand(rng, rng.randint(13, 26))
        assert N.pool_figures(pool) == PYTHON.pool_figures(pool)
        hand = _hand(rng, 13)
        for trump in range(-1, 4):
            assert N.trump_tricks(hand, trump) == PYTHON.trump_tricks_mask(hand, trump)
        dead = _hand(rng, rng.randint(0, 12)) & ~pool
        aces_low, keep, open_hand = rng.random() < 0.5, rng.randint(0, 14), rng.random() < 0.5
        assert N.safest(pool, keep, aces_low, dead) == PYTHON.safest_mask(pool, keep, aces_low, dead)
        assert N.danger(hand, aces_low, dead & ~hand) == PYTHON.danger_mask(hand, aces_low, dead & ~hand)
        assert N.misere_chance(hand, open_hand, aces_low, dead) == PYTHON.misere_chance_mask(
            hand, open_hand, aces_low, dead
        )


_cards = st.lists(st.integers(0, 51), min_size=0, max_size=30, unique=True)


@needs_native
@settings(max_examples=300, deadline=None)
@given(_cards, st.integers(0, 14), st.booleans(), _cards)
def test_the_safest_cards_of_any_hand(cards: list[int], keep: int, aces_low: bool, dead_cards: list[int]) -> None:
    """Any hand, also empty or one-suited, with any cards out of play."""
    assert N is not None
    mask = sum(1 << c for c in cards)
    dead = sum(1 << c for c in dead_cards) & ~mask
    assert N.safest(mask, keep, aces_low, dead) == PYTHON.safest_mask(mask, keep, aces_low, dead)
    assert N.danger(mask, aces_low, dead) == PYTHON.danger_mask(mask, aces_low, dead)


@needs_native
def test_draws_are_the_rngs_own() -> None:
    """The same cards drawn and the generator left in the same state, for every size of
    draw from up to 40 cards (both of CPython's sampling methods)."""
    assert N is not None
    rng = random.Random(7)
    for n in range(41):
        bits = [1 << c for c in rng.sample(range(52), n)]
        for k in range(n + 1):
            seed = rng.getrandbits(40)
            python, c = random.Random(seed), random.Random(seed)
            assert N.draw_mask(c.getrandbits, bits, k) == sum(python.sample(bits, k))
            assert c.random() == python.random()
    with pytest.raises(ValueError, match="sample larger"):
        N.draw_mask(random.Random(1).getrandbits, [1, 2], 3)


@needs_native
def test_dealing_a_layout_draws_as_the_python_dealing() -> None:
    """sampling's dealing of the hidden cards in C: the same hands (or the same dead end) and
    the generator left in the same state, with voids (the cards sorted by their takers) and
    without, up to 39 cards to two seats and the cards out of play."""
    from vira_desktop.ai.sampling import _deal_once

    assert N is not None
    rng = random.Random(11)
    for _ in range(400):
        pool = rng.sample(range(52), rng.randint(0, 39))
        need = {1: rng.randint(0, len(pool))}
        need[2] = rng.randint(0, len(pool) - need[1])
        need[-1] = len(pool) - need[1] - need[2]
        voids = {s: sum(0x1FFF << 13 * suit for suit in range(4) if rng.random() < 0.2) for s in (1, 2)}
        takers = {c: tuple(s for s in need if s < 0 or not voids[s] >> c & 1) for c in pool}
        in_order = rng.random() < 0.3
        slots = list(need)
        allowed = [sum(1 << slots.index(s) for s in takers[c]) for c in pool]
        seed = rng.getrandbits(40)
        python, c = random.Random(seed), random.Random(seed)
        dealt = N.deal_once(c.getrandbits, pool, [need[s] for s in slots], allowed, in_order)
        expected = _deal_once(python, pool, need, takers, in_order)
        assert (None if dealt is None else dict(zip(slots, dealt, strict=True))) == expected
        assert c.random() == python.random()


def _simulate(env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "vira_desktop", "simulate", "--deals", "25", "--seed", "4", "--json", "--no-check"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    figures = json.loads(out.stdout)
    figures.pop("seconds")
    figures.pop("deals_per_s")
    return dict(figures)


@needs_native
def test_the_bots_play_the_same_without_the_helper() -> None:
    """Self-play with the pure-Python code comes to the very same deals."""
    assert _simulate({"VIRA_PURE_PYTHON": "1"}) == _simulate({})


def test_a_missing_helper_is_said_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("VIRA_PURE_PYTHON", raising=False)
    monkeypatch.setattr(native, "NATIVE", None)
    monkeypatch.setattr(native, "_warned", False)
    native.warn_once()
    native.warn_once()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pure-Python" in err
    monkeypatch.setenv("VIRA_PURE_PYTHON", "1")
    assert native.notice() is None  # asked for: nothing to tell
