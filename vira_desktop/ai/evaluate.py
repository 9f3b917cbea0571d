"""Hand evaluation by rules of thumb: expected tricks with a trump, misère danger.

A suit's worth depends only on which of its 13 cards a hand holds, so the
per-suit figures are tables by the suit's 13-bit mask (filled as first asked):
evaluating a hand is four table look-ups and a little arithmetic. The auction
evaluates thousands of sampled hands a deal, so these work on bitmasks only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple, TypeVar

from ..rules.cards import Card, Suit, mask_of
from .native import NATIVE

__all__ = [
    "danger",
    "danger_cards",
    "home_chance",
    "misere_best",
    "misere_chance",
    "pool_figures",
    "safest_mask",
    "suit_tricks",
    "sure_tricks_mask",
    "top_mask",
    "trump_tricks",
    "trump_tricks_mask",
    "weighted_dangers",
]


_V = TypeVar("_V")


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


class _Table(dict[int, _V]):
    """A table over 13-bit suit holdings (or other small int keys), filled as asked."""

    def __init__(self, fill: Callable[[int], _V]) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, key: int) -> _V:
        value = self[key] = self.fill(key)
        return value


_TRUMP_VALUE: _Table[float] = _Table(lambda m13: suit_tricks(_ranks(m13), _ranks(~m13 & 0x1FFF), True))
_SIDE_VALUE: _Table[float] = _Table(lambda m13: suit_tricks(_ranks(m13), _ranks(~m13 & 0x1FFF), False))


def _shape_terms(key: int) -> tuple[float, float]:
    """The length terms of :func:`trump_tricks_mask` for suit lengths packed 4 bits each
    (suit 0 lowest) and the trump above them: 0.15 times the extra tricks, and the
    penalty of a short trump suit."""
    lengths = [key >> (4 * s) & 0xF for s in range(4)]
    trump = key >> 16
    n_trump = lengths[trump]
    extra = 0.0
    for s in range(4):
        if s != trump and n_trump >= 5 and lengths[s] > 3:
            extra += 0.5 * (lengths[s] - 3)  # a long side suit runs once trumps are drawn
    spare = max(0, n_trump - 3)  # trumps left after drawing the opponents'
    for s in range(4):
        if s != trump and spare:
            ruffs = min(spare, 2 if not lengths[s] else 1 if lengths[s] == 1 else 0)
            extra += 0.7 * ruffs
            spare -= ruffs
    return 0.15 * extra, 0.2 * max(0, 5 - n_trump)


_SHAPE: _Table[tuple[float, float]] = _Table(_shape_terms)


def trump_tricks_mask(mask: int, trump: int) -> float:
    """Expected tricks of a 13-card hand (bitmask) with trump suit index ``trump`` (-1: none).

    Weights fitted on self-play (benchmarks/calibrate.py): side winners are ruffed
    now and then, a long side suit and ruffs in a short one seldom come true without
    a partner, and a short trump suit loses control of the hand.
    """
    s0, s1, s2, s3 = suits = _split(mask)
    if trump < 0:
        side = _SIDE_VALUE
        return side[s0] + side[s1] + side[s2] + side[s3]
    return _holding_tricks(suits, trump)


def _holding_tricks(suits: Sequence[int], trump: int) -> float:
    """:func:`trump_tricks_mask` of a hand given as its four 13-bit holdings."""
    s0, s1, s2, s3 = suits
    side = _SIDE_VALUE
    others = [m for s, m in enumerate(suits) if s != trump]
    shape = s0.bit_count() | s1.bit_count() << 4 | s2.bit_count() << 8 | s3.bit_count() << 12 | trump << 16
    extra, short = _SHAPE[shape]
    return _TRUMP_VALUE[suits[trump]] + 0.85 * (side[others[0]] + side[others[1]] + side[others[2]]) + extra - short


def _run_from_ace(m13: int) -> int:
    run = 0
    while run < 13 and m13 >> (12 - run) & 1:
        run += 1
    return run


def _sure_in_suit(m13: int) -> int:
    """Tricks a suit takes for certain once the opponents hold no trumps: its unbroken run
    from the ace, or every card when the run outlasts one opponent holding all the rest."""
    run = _run_from_ace(m13)
    return m13.bit_count() if run >= 13 - m13.bit_count() else run


# A trump holding draws every missing trump with its run from the ace; and each suit's sure tricks.
_DRAWS: _Table[bool] = _Table(lambda m13: _run_from_ace(m13) >= 13 - m13.bit_count())
_SURE_IN: _Table[int] = _Table(_sure_in_suit)


def sure_tricks_mask(mask: int, trump: int) -> int:
    """Tricks a 13-card hand takes against any lay-out of the other cards with trump
    ``trump``: 0 unless its unbroken run of trumps draws every missing trump first.

    >>> from vira_desktop.rules.cards import mask_of, parse_cards
    >>> sure_tricks_mask(mask_of(parse_cards("AS KS QS JS TS 9S 8S 7S AH KH AD KD AC")), 0)
    13
    >>> sure_tricks_mask(mask_of(parse_cards("AS KS QS 2S 3S 4S 5S AH KH AD KD AC KC")), 0)
    0
    """
    if not _DRAWS[mask >> (13 * trump) & 0x1FFF]:
        return 0
    sure = _SURE_IN
    return sure[mask & 0x1FFF] + sure[mask >> 13 & 0x1FFF] + sure[mask >> 26 & 0x1FFF] + sure[mask >> 39 & 0x1FFF]


def _rank_major(suit: int) -> Callable[[int], int]:
    """A suit holding's cards at bit ``4 * rank + 3 - suit``: ordered by rank, then suit
    (spades first), the order :func:`top_cards` takes them in."""
    return lambda m13: sum(1 << (4 * i + 3 - suit) for i in range(13) if m13 >> i & 1)


_RANK_MAJOR: tuple[_Table[int], ...] = tuple(_Table(_rank_major(s)) for s in range(4))
_FROM_RANK = tuple(0x1FFF & ~((2 << r) - 1) for r in range(13))  # the ranks above each rank index


def _nth_highest(ranked: int, count: int, n: int) -> int:  # as written out in pool_figures
    """The bit position of the ``n``-th highest of the ``count`` set bits of ``ranked`` (0 < n < count)."""
    if n <= count - n:
        for _ in range(n - 1):
            ranked ^= 1 << (ranked.bit_length() - 1)
        return ranked.bit_length() - 1
    for _ in range(count - n):
        ranked &= ranked - 1
    return (ranked & -ranked).bit_length() - 1


def _cut_masks(cut: int) -> tuple[int, ...]:
    """For each suit, the holding bits at or above the rank-major position ``cut``."""
    rank, last_suit = cut >> 2, 3 - (cut & 3)
    return tuple(_FROM_RANK[rank] | (1 << rank if s <= last_suit else 0) for s in range(4))


_CUT = tuple(_cut_masks(cut) for cut in range(52))


def _above_cut(suits: Sequence[int], cut: int) -> list[int]:
    """The cards of ``suits`` at or above the rank-major position ``cut``, by suit."""
    return [m & above for m, above in zip(suits, _CUT[cut], strict=True)]


def top_cards(suits: Sequence[int], n: int, skip: int = -1) -> list[int]:
    """The ``n`` highest cards of the holdings ``suits`` (13-bit, by suit) outside suit
    ``skip``, as holdings by suit: aces first, then kings …, spades before hearts at a rank."""
    rows = [0 if s == skip else m for s, m in enumerate(suits)]
    if n <= 0:
        return [0, 0, 0, 0]
    major = _RANK_MAJOR
    ranked = major[0][rows[0]] | major[1][rows[1]] | major[2][rows[2]] | major[3][rows[3]]
    count = ranked.bit_count()
    return rows if count <= n else _above_cut(rows, _nth_highest(ranked, count, n))


def top_mask(mask: int, n: int, skip: int = -1) -> int:
    """:func:`top_cards` of a hand (bitmask), as a bitmask."""
    return _join(top_cards(_split(mask), n, skip))


def pool_figures(pool: int) -> list[tuple[float, int]]:
    """For each trump suit index: the expected and the sure tricks of the 13 cards a
    declarer keeps from ``pool`` (up to 26 cards) for it, every trump and then the
    highest others (``planning.thirteen_mask``); :func:`trump_tricks_mask` and
    :func:`sure_tricks_mask` of them, written out for speed (tests/test_evaluate.py)."""
    p0, p1, p2, p3 = suits = (pool & 0x1FFF, pool >> 13 & 0x1FFF, pool >> 26 & 0x1FFF, pool >> 39 & 0x1FFF)
    lengths = (p0.bit_count(), p1.bit_count(), p2.bit_count(), p3.bit_count())
    major = _RANK_MAJOR
    rows = (major[0][p0], major[1][p1], major[2][p2], major[3][p3])
    everything = rows[0] | rows[1] | rows[2] | rows[3]
    total = lengths[0] + lengths[1] + lengths[2] + lengths[3]
    side, value, shapes, draws, sure, cuts = _SIDE_VALUE, _TRUMP_VALUE, _SHAPE, _DRAWS, _SURE_IN, _CUT
    out = []
    for trump in range(4):
        trumps = suits[trump]
        n = 13 - lengths[trump]
        others = total - lengths[trump]
        if others <= n:
            k0, k1, k2, k3 = suits
        elif n <= 0:
            k0 = k1 = k2 = k3 = 0
        else:
            ranked = everything & ~rows[trump]
            if n <= others - n:  # the n-th highest other card, from the top or from the bottom
                for _ in range(n - 1):
                    ranked ^= 1 << (ranked.bit_length() - 1)
                cut = ranked.bit_length() - 1
            else:
                for _ in range(others - n):
                    ranked &= ranked - 1
                cut = (ranked & -ranked).bit_length() - 1
            c0, c1, c2, c3 = cuts[cut]
            k0, k1, k2, k3 = p0 & c0, p1 & c1, p2 & c2, p3 & c3
        if trump == 0:
            k0 = trumps
            sides = side[k1] + side[k2] + side[k3]
        elif trump == 1:
            k1 = trumps
            sides = side[k0] + side[k2] + side[k3]
        elif trump == 2:
            k2 = trumps
            sides = side[k0] + side[k1] + side[k3]
        else:
            k3 = trumps
            sides = side[k0] + side[k1] + side[k2]
        extra, short = shapes[
            k0.bit_count() | k1.bit_count() << 4 | k2.bit_count() << 8 | k3.bit_count() << 12 | trump << 16
        ]
        tricks = value[trumps] + 0.85 * sides + extra - short
        out.append((tricks, sure[k0] + sure[k1] + sure[k2] + sure[k3] if draws[trumps] else 0))
    return out


def trump_tricks(cards: Iterable[Card], trump: Suit | None) -> float:
    """Expected tricks of a 13-card hand playing with ``trump`` (None: no trump)."""
    return trump_tricks_mask(mask_of(cards), -1 if trump is None else int(trump))


def home_chance(expected: float, needed: int, spread: float = 0.75) -> float:
    """A smooth chance of taking ``needed`` tricks when ``expected`` are expected."""
    return 1.0 / (1.0 + math.exp(-(expected - needed + 0.35) / spread))


SPLIT_RISK = 0.45  # weight of a card that is safe only while the others' cards split evenly


def _ace_low(m13: int) -> int:
    """A holding with the ace moved below the deuce (bit 0), the other cards one up."""
    return (m13 << 1 & 0x1FFF) | m13 >> 12


_POSITIONS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(13) if m >> i & 1) for m in range(1 << 13))
_ACES_LOW = 1 << 26


@lru_cache(maxsize=1 << 16)  # keyed by the others' cards too: unbounded, it grew without end
def _suit_dangers(key: int) -> tuple[tuple[float, int], ...]:
    """(minus the weight, card index) of the dangerous cards of one suit holding, lowest
    card first. ``key`` (:func:`suit_danger_key`) packs the holding and the others' cards in
    the suit, both by position in playing order (the ace at 0 when aces are low), the
    aces-low flag (``_ACES_LOW``) and the suit (shifted 27).

    Played from the bottom, each round the opponents lead their lowest card. When
    both follow, my i-th lowest card is safe below the (2i-1)-th lowest card they
    hold (in doubt below the 2i-th); when one of them is out of the suit only one
    card is spent a round, and the card must be below their i-th lowest. A card
    safe in the first case but not the second carries ``SPLIT_RISK``.
    """
    aces_low, base = key & _ACES_LOW, 13 * (key >> 27)
    missing = _POSITIONS[key >> 13 & 0x1FFF]
    left = len(missing)
    out = []
    for n, r in enumerate(_POSITIONS[key & 0x1FFF], 1):
        if left < n:
            break  # the others are out of the suit: I am never made to win with these
        index = base + (r - 1 if r else 12) if aces_low else base + r
        if left >= 2 * n - 1:
            led = missing[2 * n - 2]
            second = missing[2 * n - 1] if left >= 2 * n else led
            if r > second:
                out.append((-(1.0 + (r - second) / 20 + 0.01 * n), index))
                continue
            if r > led:
                out.append((-(0.5 + 0.01 * n), index))
                continue
        if r > missing[n - 1]:
            out.append((-(SPLIT_RISK + 0.01 * n), index))
    return tuple(out)


def _danger_key(m13: int, out13: int, flag: int) -> int:
    """:func:`_suit_dangers`'s key for a holding and the suit's cards out of play (the suit
    still to be or-ed in). Only the others' lowest cards, two for each card held, can
    matter, so higher ones are left out: far fewer keys to cache."""
    if flag:
        m13, out13 = _ace_low(m13), _ace_low(out13)
    others = ~(m13 | out13) & 0x1FFF
    pair = 2 * m13.bit_count()
    low = _POSITIONS[others]
    if len(low) > pair:
        others &= (2 << low[pair - 1]) - 1 if pair else 0
    return m13 | others << 13 | flag


def suit_danger_key(mask: int, suit: int, aces_low: bool, dead: int) -> int:
    """The :func:`_suit_dangers` key of ``suit`` in a hand (bitmask) with ``dead`` cards out of play."""
    m13 = mask >> (13 * suit) & 0x1FFF
    return _danger_key(m13, dead >> (13 * suit) & 0x1FFF & ~m13, _ACES_LOW if aces_low else 0) | suit << 27


def _danger_lists(mask: int, aces_low: bool, dead: int) -> list[tuple[tuple[float, int], ...]]:
    """:func:`_suit_dangers` of each suit of a hand (bitmask) with ``dead`` cards out of play."""
    dangers, key = _suit_dangers, _danger_key
    flag = _ACES_LOW if aces_low else 0
    out = dead & ~mask
    return [
        dangers(key(mask & 0x1FFF, out & 0x1FFF, flag)),
        dangers(key(mask >> 13 & 0x1FFF, out >> 13 & 0x1FFF, flag) | 1 << 27),
        dangers(key(mask >> 26 & 0x1FFF, out >> 26 & 0x1FFF, flag) | 2 << 27),
        dangers(key(mask >> 39 & 0x1FFF, out >> 39 & 0x1FFF, flag) | 3 << 27),
    ]


def ranked_dangers(mask: int, aces_low: bool, dead: int = 0) -> list[tuple[float, int]]:
    """(minus the weight, card index) of the dangerous cards, worst first (:func:`weighted_dangers`)."""
    d0, d1, d2, d3 = _danger_lists(mask, aces_low, dead)
    out = [*d0, *d1, *d2, *d3]
    out.sort()
    return out


def weighted_dangers(mask: int, aces_low: bool, dead: int = 0) -> list[tuple[float, int]]:
    """(weight, card index) of every card of a hand (bitmask) that can be forced to win a
    trick in misère, worst first; ``dead`` cards are out of play."""
    return [(-w, i) for w, i in ranked_dangers(mask, aces_low, dead)]


def safest_mask(mask: int, keep: int, aces_low: bool = False, dead: int = 0) -> int:
    """The ``keep`` cards of ``mask`` safest for a misère: dangerous cards go first (half the
    excess at a time, worst first), then high ones. Cards laid away are out of play, so they
    stop counting as the others' cards: only the suits they leave are weighed again."""
    count = mask.bit_count()
    if count <= keep:
        return mask
    dangers = _suit_dangers
    by_suit = _danger_lists(mask, aces_low, dead)
    while count > keep:
        excess = count - keep
        ranked = [*by_suit[0], *by_suit[1], *by_suit[2], *by_suit[3]]
        if not ranked:
            return mask & ~top_mask(mask, excess)
        ranked.sort()
        changed = 0
        for _, i in ranked[: (excess + 1) // 2]:
            mask &= ~(1 << i)
            dead |= 1 << i
            changed |= 1 << (i // 13)
            count -= 1
        if count <= keep:
            break  # the suits' dangers are not asked again
        for s in range(4):
            if changed >> s & 1:
                by_suit[s] = dangers(suit_danger_key(mask, s, aces_low, dead))
    return mask


def _split(mask: int) -> tuple[int, int, int, int]:
    return mask & 0x1FFF, mask >> 13 & 0x1FFF, mask >> 26 & 0x1FFF, mask >> 39 & 0x1FFF


def _join(suits: Sequence[int]) -> int:
    return suits[0] | suits[1] << 13 | suits[2] << 26 | suits[3] << 39


def danger_cards(cards: Iterable[Card], aces_low: bool = False, dead: int = 0) -> list[Card]:
    """Cards that can be forced to win a trick in misère, worst first."""
    return [Card(i) for _, i in weighted_dangers(mask_of(cards), aces_low, dead)]


def danger_mask(mask: int, aces_low: bool = False, dead: int = 0) -> float:
    """A misère hand's danger: dangerous cards (a half for the doubtful), softened a little
    by voids to throw them on."""
    total = sum(min(1.0, -w) for w, _ in ranked_dangers(mask, aces_low, dead))
    voids = sum(1 for s in range(4) if not mask >> (13 * s) & 0x1FFF)
    return max(0.0, total - 0.3 * voids * min(1.0, total))


def danger(cards: Iterable[Card], aces_low: bool = False, dead: int = 0) -> float:
    return danger_mask(mask_of(cards), aces_low, dead)


def misere_chance_mask(mask: int, open_hand: bool, aces_low: bool = False, dead: int = 0) -> float:
    """Chance to take no trick: near certain with no danger, falling fast with each danger."""
    d = danger_mask(mask, aces_low, dead)
    return float(misere_best(open_hand) * (0.35 if not open_hand else 0.22) ** d)


def misere_best(open_hand: bool) -> float:
    """The best chance a misère hand can have (no danger at all)."""
    return 0.93 if not open_hand else 0.85


def misere_chance(cards: Iterable[Card], open_hand: bool, aces_low: bool = False, dead: int = 0) -> float:
    return misere_chance_mask(mask_of(cards), open_hand, aces_low, dead)


# The compiled kernels where built (vira_desktop/ai/_native.c): the same figures, faster.
# The Python functions above stay the reference they are tested against.
class Kernels(NamedTuple):
    """The functions the compiled helper stands in for."""

    pool_figures: Callable[[int], list[tuple[float, int]]]
    trump_tricks_mask: Callable[[int, int], float]
    safest_mask: Callable[[int, int, bool, int], int]
    danger_mask: Callable[[int, bool, int], float]
    misere_chance_mask: Callable[[int, bool, bool, int], float]


PYTHON = Kernels(pool_figures, trump_tricks_mask, safest_mask, danger_mask, misere_chance_mask)
if NATIVE is not None:
    pool_figures = NATIVE.pool_figures
    trump_tricks_mask = NATIVE.trump_tricks
    safest_mask = NATIVE.safest
    danger_mask = NATIVE.danger
    misere_chance_mask = NATIVE.misere_chance
