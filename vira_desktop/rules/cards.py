"""Cards, suits and ranks (rulebook: "Ranking of the Suits", "Playing the Cards").

A card is a small immutable ``int`` subclass (0..51, ``suit * 13 + rank - 2``),
so hands can be kept as bitmasks behind the friendly type.

>>> Card.parse("TH")
Card('TH')
>>> str(Card.parse("as")), Card.parse("2C").rank
('AS', <Rank.TWO: 2>)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

__all__ = [
    "ALL_CARDS",
    "Card",
    "Rank",
    "Suit",
    "SuitClass",
    "bit_indices",
    "cards_from_mask",
    "format_cards",
    "mask_of",
    "parse_cards",
    "suit_class",
    "trumps_at",
]


class Suit(IntEnum):
    """The four suits; the number is the card's block in the 52-card index."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def word(self) -> str:
        """The suit's English name (``spades``): the one table of suit names."""
        return ("spades", "hearts", "diamonds", "clubs")[self]

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (the *färg* when this one is highest)."""
        return _PARTNER[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().upper()
        if key not in _SUIT_LETTERS:
            raise ValueError(f"not a suit: {text!r} (use S, H, D or C)")
        return cls[key]

    def __str__(self) -> str:
        return self.name


_SUIT_LETTERS = frozenset("SHDC")
_PARTNER = {Suit.S: Suit.C, Suit.C: Suit.S, Suit.H: Suit.D, Suit.D: Suit.H}


class Rank(IntEnum):
    """Ranks, ace high (aces as ones are handled by the trick rules)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        index = _RANK_LETTERS.find(key) if len(key) == 1 else -1
        if index < 0:
            raise ValueError(f"not a rank: {text!r} (use A K Q J T 9 … 2)")
        return cls(index + 2)


_RANK_LETTERS = "23456789TJQKA"


class SuitClass(IntEnum):
    """How a trump suit is paid (rulebook "Payment of Pins")."""

    OFF_SUIT = 0
    SUIT = 1
    HIGHEST = 2

    @property
    def label(self) -> str:
        return ("off-suit", "suit", "highest")[self]


def suit_class(suit: Suit, highest: Suit) -> SuitClass:
    """Classify ``suit`` against the deal's highest suit.

    >>> suit_class(Suit.D, Suit.H).label, suit_class(Suit.S, Suit.H).label
    ('suit', 'off-suit')
    """
    if suit == highest:
        return SuitClass.HIGHEST
    if suit == highest.partner:
        return SuitClass.SUIT
    return SuitClass.OFF_SUIT


def trumps_at(suit_level: int, highest: Suit) -> tuple[Suit, ...]:
    """The trumps a bid at ``suit_level`` allows (0 plain, 1 in suit, 2 in highest suit):
    in suit, the highest suit or färg; in highest suit, the highest suit alone.

    >>> trumps_at(1, Suit.H), trumps_at(2, Suit.H)
    ((<Suit.H: 1>, <Suit.D: 2>), (<Suit.H: 1>,))
    """
    return tuple(s for s in Suit if suit_class(s, highest) >= suit_level)


class Card(int):
    """One of the 52 cards; instances are interned, so ``is`` and ``==`` agree."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        return _CARDS[index]

    @classmethod
    def _make(cls, index: int) -> Card:
        return int.__new__(cls, index)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return _CARDS[suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"AH"``, ``"th"``, ``"2c"`` (rank then suit)."""
        key = text.strip()
        if len(key) != 2 or key[0].upper() not in _RANK_LETTERS or key[1].upper() not in _SUIT_LETTERS:
            raise ValueError(f"not a card: {text!r} (rank A K Q J T 9 … 2, then suit S H D C, e.g. TH)")
        return cls.of(Rank.parse(key[0]), Suit.parse(key[1]))

    @property
    def suit(self) -> Suit:
        return _SUITS[self // 13]

    @property
    def rank(self) -> Rank:
        return _RANKS[self % 13]

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return _RANK_LETTERS[self % 13] + "SHDC"[self // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_SUITS = tuple(Suit)
_RANKS = tuple(Rank)
_CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
ALL_CARDS: tuple[Card, ...] = _CARDS
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_from_mask(mask: int) -> Iterator[Card]:
    """Cards of a bitmask, lowest index first."""
    for i in bit_indices(mask):
        yield _CARDS[i]


def bit_indices(mask: int) -> list[int]:
    """Card indices of a bitmask, lowest first (the fast path's card list).

    >>> bit_indices(0b1010)
    [1, 3]
    """
    return [
        *_SUIT_BITS[0][mask & 0x1FFF],
        *_SUIT_BITS[1][mask >> 13 & 0x1FFF],
        *_SUIT_BITS[2][mask >> 26 & 0x1FFF],
        *_SUIT_BITS[3][mask >> 39 & 0x1FFF],
    ]


_SUIT_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(13 * s + i for i in range(13) if m >> i & 1) for m in range(1 << 13)) for s in range(4)
)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse ``"AH KS"`` or ``["AH", "KS"]``; ``"-"`` is the empty set."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    if items == ["-"]:
        return ()
    return tuple(Card.parse(str(item)) for item in items)


def format_cards(cards: Iterable[Card]) -> str:
    """The record notation: space separated, ``-`` for none."""
    text = " ".join(str(c) for c in cards)
    return text or "-"
