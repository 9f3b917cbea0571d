"""Hand evaluation by rules of thumb: expected tricks with a trump, misère danger.

A suit's worth depends only on which of its 13 cards a hand holds, so the
per-suit figures are cached by the suit's 13-bit mask: evaluating a hand is
four table look-ups and a little arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from ..rules.cards import Card, Suit, mask_of

__all__ = [
    "danger",
    "danger_cards",
    "home_chance",
    "misere_chance",
    "suit_tricks",
    "sure_tricks_mask",
    "trump_tricks",
    "trump_tricks_mask",
    "weighted_dangers",
]


def _ranks(m13: int) -> list[int]:
    """Ranks (2..14) held in a 13-bit suit mask, highest first."""
    return [i + 2 for i in range(12, -1, -1) if m13 >> i & 1]


def suit_tricks(mine: Sequence[int], missing: Sequence[int], trump: bool) -> float:
    """Tricks a suit is worth when played out from the top.

    Each round the holder plays his top card if it beats every missing card,
    otherwise gives up his lowest while the opponents spend their highest and
    lowest. In a side suit, rounds after the opponents run out would be ruffed
    and count for little; in trumps they all win.
    """
    my = sorted(mine, reverse=True)
    opp = sorted(missing, reverse=True)
    tricks = 0.0
    lost = 0
    while my:
        if not opp:
            tricks += len(my) * (1.0 if trump else 0.3)
            break
        if my[0] > opp[0]:
            tricks += 1.0 if lost == 0 else 0.8
            my.pop(0)
            opp = opp[: max(0, len(opp) - 2)]
        else:
            my.pop()
            lost += 1
            opp = opp[1:-1] if len(opp) > 1 else []
    return tricks


@cache
def _suit_value(m13: int, trump: bool) -> float:
    mine = _ranks(m13)
    missing = _ranks(~m13 & 0x1FFF)
    return suit_tricks(mine, missing, trump)


def trump_tricks_mask(mask: int, trump: int) -> float:
    """Expected tricks of a 13-card hand (bitmask) with trump suit index ``trump`` (-1: none).

    Weights fitted on self-play (benchmarks/calibrate.py): side winners are ruffed
    now and then, a long side suit and ruffs in a short one seldom come true without
    a partner, and a short trump suit loses control of the hand.
    """
    suits = [mask >> (13 * s) & 0x1FFF for s in range(4)]
    if trump < 0:
        return sum(_suit_value(m, False) for m in suits)
    lengths = [m.bit_count() for m in suits]
    n_trump = lengths[trump]
    total = _suit_value(suits[trump], True)
    side = 0.0
    extra = 0.0
    for s in range(4):
        if s != trump:
            side += _suit_value(suits[s], False)
            if n_trump >= 5 and lengths[s] > 3:
                extra += 0.5 * (lengths[s] - 3)  # a long side suit runs once trumps are drawn
    spare = max(0, n_trump - 3)  # trumps left after drawing the opponents'
    for s in range(4):
        if s != trump and spare:
            ruffs = min(spare, 2 if not lengths[s] else 1 if lengths[s] == 1 else 0)
            extra += 0.7 * ruffs
            spare -= ruffs
    return total + 0.85 * side + 0.15 * extra - 0.2 * max(0, 5 - n_trump)


@cache
def _run_from_ace(m13: int) -> int:
    run = 0
    while run < 13 and m13 >> (12 - run) & 1:
        run += 1
    return run


@cache
def _sure_in_suit(m13: int) -> int:
    """Tricks a suit takes for certain once the opponents hold no trumps: its unbroken run
    from the ace, or every card when the run outlasts one opponent holding all the rest."""
    run = _run_from_ace(m13)
    return m13.bit_count() if run >= 13 - m13.bit_count() else run


def sure_tricks_mask(mask: int, trump: int) -> int:
    """Tricks a 13-card hand takes against any lay-out of the other cards with trump
    ``trump``: 0 unless its unbroken run of trumps draws every missing trump first.

    >>> from vira_desktop.rules.cards import mask_of, parse_cards
    >>> sure_tricks_mask(mask_of(parse_cards("AS KS QS JS TS 9S 8S 7S AH KH AD KD AC")), 0)
    13
    >>> sure_tricks_mask(mask_of(parse_cards("AS KS QS 2S 3S 4S 5S AH KH AD KD AC KC")), 0)
    0
    """
    suits = [mask >> (13 * s) & 0x1FFF for s in range(4)]
    if _run_from_ace(suits[trump]) < 13 - suits[trump].bit_count():
        return 0
    return sum(_sure_in_suit(m) for m in suits)


def trump_tricks(cards: Iterable[Card], trump: Suit | None) -> float:
    """Expected tricks of a 13-card hand playing with ``trump`` (None: no trump)."""
    return trump_tricks_mask(mask_of(cards), -1 if trump is None else int(trump))


def home_chance(expected: float, needed: int, spread: float = 0.75) -> float:
    """A smooth chance of taking ``needed`` tricks when ``expected`` are expected."""
    return 1.0 / (1.0 + math.exp(-(expected - needed + 0.35) / spread))


SPLIT_RISK = 0.45  # weight of a card that is safe only while the others' cards split evenly


@lru_cache(maxsize=1 << 16)  # keyed by the cards laid away too: unbounded, it grew without end
def _suit_dangers(m13: int, aces_low: bool, dead13: int = 0) -> tuple[tuple[float, int], ...]:
    """(weight, rank index 0..12) of the dangerous cards of one suit holding.

    Played from the bottom, each round the opponents lead their lowest card. When
    both follow, my i-th lowest card is safe below the (2i-1)-th lowest card they
    hold (in doubt below the 2i-th); when one of them is out of the suit only one
    card is spent a round, and the card must be below their i-th lowest. A card
    safe in the first case but not the second carries ``SPLIT_RISK``.
    ``dead13`` are cards known to be out of play (my own discards).
    """

    def value(index: int) -> int:
        return 1 if aces_low and index == 12 else index + 2

    held = sorted((i for i in range(13) if m13 >> i & 1), key=value)
    missing = sorted(value(i) for i in range(13) if not (m13 | dead13) >> i & 1)
    out = []
    for n, index in enumerate(held, 1):
        if len(missing) < n:
            break  # the others are out of the suit: I am never made to win with these
        r = value(index)
        if len(missing) >= 2 * n - 1:
            led = missing[2 * n - 2]
            second = missing[2 * n - 1] if len(missing) >= 2 * n else led
            if r > second:
                out.append((1.0 + (r - second) / 20 + 0.01 * n, index))
                continue
            if r > led:
                out.append((0.5 + 0.01 * n, index))
                continue
        if r > missing[n - 1]:
            out.append((SPLIT_RISK + 0.01 * n, index))
    return tuple(out)


def weighted_dangers(mask: int, aces_low: bool, dead: int = 0) -> list[tuple[float, int]]:
    """(weight, card index) of every card of a hand (bitmask) that can be forced to win a
    trick in misère, worst first; ``dead`` cards are out of play."""
    out = []
    for s in range(4):
        m13 = mask >> (13 * s) & 0x1FFF
        d13 = dead >> (13 * s) & 0x1FFF & ~m13
        out += [(w, 13 * s + i) for w, i in _suit_dangers(m13, aces_low, d13)]
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def danger_cards(cards: Iterable[Card], aces_low: bool = False, dead: int = 0) -> list[Card]:
    """Cards that can be forced to win a trick in misère, worst first."""
    return [Card(i) for _, i in weighted_dangers(mask_of(cards), aces_low, dead)]


def danger_mask(mask: int, aces_low: bool = False, dead: int = 0) -> float:
    """A misère hand's danger: dangerous cards (a half for the doubtful), softened a little
    by voids to throw them on."""
    total = sum(min(1.0, w) for w, _ in weighted_dangers(mask, aces_low, dead))
    voids = sum(1 for s in range(4) if not mask >> (13 * s) & 0x1FFF)
    return max(0.0, total - 0.3 * voids * min(1.0, total))


def danger(cards: Iterable[Card], aces_low: bool = False, dead: int = 0) -> float:
    return danger_mask(mask_of(cards), aces_low, dead)


def misere_chance_mask(mask: int, open_hand: bool, aces_low: bool = False, dead: int = 0) -> float:
    """Chance to take no trick: near certain with no danger, falling fast with each danger."""
    d = danger_mask(mask, aces_low, dead)
    base = 0.93 if not open_hand else 0.85
    return float(base * (0.35 if not open_hand else 0.22) ** d)


def misere_chance(cards: Iterable[Card], open_hand: bool, aces_low: bool = False, dead: int = 0) -> float:
    return misere_chance_mask(mask_of(cards), open_hand, aces_low, dead)
