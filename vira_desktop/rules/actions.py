"""Actions: small immutable values, each with one text form (the deal-record notation).

Every action names the seat that takes it (0 = forehand, 1 = middle-hand,
2 = rear-hand), so "wrong player" is an ordinary legality check.

>>> parse_action("7-spel in suit in forehand", 0).text
'7-spel in suit in forehand'
>>> parse_action("buy 2c 3d", 1)
Buy(seat=1, cards=(Card('3D'), Card('2C')))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, Suit, format_cards, parse_cards
from .games import BID_GROUPS, GROUPS_BY_KEY, Game, game, normalize_name

__all__ = [
    "SUIT_LEVELS",
    "Action",
    "AnnounceAces",
    "Bid",
    "Buy",
    "ChooseLevel",
    "ChooseTrump",
    "Decide",
    "Discard",
    "HighLow",
    "Keep",
    "Pass",
    "PlayCard",
    "Repurchase",
    "SetAside",
    "Turn",
    "parse_action",
    "public_text",
    "sorted_cards",
    "sorted_mask",
]

SUIT_LEVELS = ("", " in suit", " in highest suit")


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A canonical order for card sets: by suit (S H D C), high rank first."""
    return tuple(sorted(set(cards), key=_ORDER.__getitem__))


_ORDER = [13 * (c // 13) + 12 - c % 13 for c in range(52)]  # by suit, high rank first


def sorted_mask(mask: int) -> tuple[Card, ...]:
    """:func:`sorted_cards` of a bitmask (a hand is shown and handed out in this order)."""
    holdings = _BY_HOLDING
    return (
        holdings[0][mask & 0x1FFF]
        + holdings[1][mask >> 13 & 0x1FFF]
        + holdings[2][mask >> 26 & 0x1FFF]
        + holdings[3][mask >> 39 & 0x1FFF]
    )


class _Holdings(dict[int, tuple[Card, ...]]):
    """One suit's holdings (13-bit masks) as cards, high rank first, filled as asked."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, m13: int) -> tuple[Card, ...]:
        value = self[m13] = tuple(Card(13 * self.suit + r) for r in range(12, -1, -1) if m13 >> r & 1)
        return value


_BY_HOLDING = tuple(_Holdings(s) for s in range(4))


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: a game of the table, or a group (``gask``, ``solo`` …) without a level."""

    seat: int
    game: Game | None = None
    group: str | None = None
    suit_level: int = 0  # 0 plain, 1 in suit, 2 in highest suit
    in_forehand: bool = False
    higher: bool = False

    @property
    def text(self) -> str:
        name = self.game.name if self.game is not None else f"{'higher ' if self.higher else ''}{self.group}"
        return name + SUIT_LEVELS[self.suit_level] + (" in forehand" if self.in_forehand else "")


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int

    @property
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ChooseLevel:
    """Fixes the level of an unspecified gask, köpmisär or solo that was passed."""

    seat: int
    game: Game

    @property
    def text(self) -> str:
        return f"level {self.game.name}"


class _CardsAction:
    __slots__ = ()
    verb = ""
    seat: int
    cards: tuple[Card, ...]

    @property
    def text(self) -> str:
        return f"{self.verb} {format_cards(self.cards)}"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sorted_cards(self.cards))


@dataclass(frozen=True, slots=True)
class Keep(_CardsAction):
    """Gask: the cards kept from the dealt hand; the rest are laid aside."""

    seat: int
    cards: tuple[Card, ...]
    verb = "keep"


@dataclass(frozen=True, slots=True)
class Discard(_CardsAction):
    """Gask: after taking the stock, lays aside all but 13."""

    seat: int
    cards: tuple[Card, ...]
    verb = "discard"


@dataclass(frozen=True, slots=True)
class Buy(_CardsAction):
    """Lays these cards aside and takes as many from the top of the stock."""

    seat: int
    cards: tuple[Card, ...]
    verb = "buy"


@dataclass(frozen=True, slots=True)
class Repurchase(_CardsAction):
    """The buying-game declarer's one re-buy."""

    seat: int
    cards: tuple[Card, ...]
    verb = "repurchase"


@dataclass(frozen=True, slots=True)
class SetAside(_CardsAction):
    """A misère declarer's 1 or 2 cards set aside before the first lead."""

    seat: int
    cards: tuple[Card, ...]
    verb = "set aside"


@dataclass(frozen=True, slots=True)
class HighLow:
    seat: int
    low: bool

    @property
    def text(self) -> str:
        return "low" if self.low else "high"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    seat: int
    suit: Suit

    @property
    def text(self) -> str:
        return f"trump {self.suit.name}"


@dataclass(frozen=True, slots=True)
class Turn:
    """Turné/vingel/tringel: turn up 1, 2 or 3 cards; ``again`` is the re-turn."""

    seat: int
    again: bool = False

    @property
    def text(self) -> str:
        return "turn again" if self.again else "turn"


@dataclass(frozen=True, slots=True)
class Decide:
    """The declarer's one choice: ``play`` the hand or ``lay down``."""

    seat: int
    play: bool

    @property
    def text(self) -> str:
        return "play" if self.play else "lay down"


@dataclass(frozen=True, slots=True)
class AnnounceAces:
    """Four aces as ones (low gask), announced before the first card."""

    seat: int

    @property
    def text(self) -> str:
        return "aces"


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: Card

    @property
    def text(self) -> str:
        return str(self.card)


Action = (
    Bid
    | Pass
    | ChooseLevel
    | Keep
    | Discard
    | HighLow
    | ChooseTrump
    | Turn
    | Buy
    | Repurchase
    | Decide
    | SetAside
    | AnnounceAces
    | PlayCard
)


def public_text(action: Action) -> str:
    """What the other players learn of ``action``: a set of cards laid aside, kept or
    bought only by its size.

    >>> public_text(Buy(1, (Card.parse("2C"), Card.parse("5H"))))
    'buy 2 cards'
    """
    if isinstance(action, _CardsAction):
        n = len(action.cards)
        return f"{action.verb} {n} card{'' if n == 1 else 's'}"
    return action.text


_CARD_VERBS: dict[str, type[Keep | Discard | Buy | Repurchase | SetAside]] = {
    "keep": Keep,
    "discard": Discard,
    "buy": Buy,
    "repurchase": Repurchase,
    "set aside": SetAside,
}
_SIMPLE: dict[str, type[Pass | AnnounceAces]] = {"pass": Pass, "aces": AnnounceAces}


def _parse_bid(words: str, seat: int) -> Bid:
    in_forehand = words.endswith(" in forehand")
    if in_forehand:
        words = words[: -len(" in forehand")]
    suit_level = 0
    for level in (2, 1):
        if words.endswith(SUIT_LEVELS[level]):
            suit_level, words = level, words[: -len(SUIT_LEVELS[level])]
            break
    higher = words.startswith("higher ")
    name = words[len("higher ") :] if higher else words
    if name in GROUPS_BY_KEY:
        group = GROUPS_BY_KEY[name]
        if higher and not BID_GROUPS[group][1]:
            raise ValueError(f"there is no 'higher {group}' (only higher gask, köpmisär or solo)")
        return Bid(seat, None, group, suit_level, in_forehand, higher)
    if higher:
        raise ValueError(f"'higher' goes only with gask, köpmisär or solo: {words!r}")
    return Bid(seat, game(name), None, suit_level, in_forehand)


def parse_action(text: str, seat: int) -> Action:
    """Parse one action in record notation for ``seat``; raises ``ValueError``."""
    raw = " ".join(str(text).split())
    words = normalize_name(raw)
    if not words:
        raise ValueError("empty action")
    if words in _SIMPLE:
        return _SIMPLE[words](seat)
    for verb, cls in _CARD_VERBS.items():
        if words == verb or words.startswith(verb + " "):
            return cls(seat, parse_cards(raw.split(None, len(verb.split()))[-1] if words != verb else ""))
    if words in ("play", "lay down"):
        return Decide(seat, words == "play")
    if words in ("high", "low"):
        return HighLow(seat, words == "low")
    if words in ("turn", "turn again"):
        return Turn(seat, words == "turn again")
    if words.startswith("trump "):
        return ChooseTrump(seat, Suit.parse(words[len("trump ") :]))
    if words.startswith("level "):
        return ChooseLevel(seat, game(words[len("level ") :]))
    if len(words) == 2 and words[0] in "23456789tjqka":
        return PlayCard(seat, Card.parse(words))
    return _parse_bid(words, seat)
