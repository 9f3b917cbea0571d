"""Actions and cards as the player reads them on screen: suit symbols instead of the
record notation's letters, "10" for T, and no bare "-" for an empty set of cards.

>>> pretty("buy 2C TH")
'buy 2♣ 10♥'
>>> pretty("keep -"), pretty("trump H"), pretty("AS: must follow suit in clubs")
('keep no cards', 'trump ♥', 'A♠: must follow suit in clubs')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..ai.knowledge import Marking
from ..i18n import current, mark, number, t
from ..rules.actions import (
    Action,
    AnnounceAces,
    Bid,
    Buy,
    ChooseLevel,
    ChooseTrump,
    Decide,
    Discard,
    HighLow,
    Keep,
    PlayCard,
    Repurchase,
    SetAside,
    Turn,
    parse_action,
)
from ..rules.cards import Card, Suit
from ..rules.errors import Keyed

__all__ = [
    "bets_and_pins",
    "card_text",
    "game_label",
    "pretty",
    "say_action",
    "say_keyed",
    "say_marking",
    "say_refusal",
    "say_text",
]

_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
_TRUMP = re.compile(r"\btrump ([SHDC])\b")


def pretty(text: str) -> str:
    """An action text (or a message naming cards) in the table's card format."""
    text = _CARD.sub(lambda m: ("10" if m[1] == "T" else m[1]) + _SYMBOL[m[2]], text)
    text = _TRUMP.sub(lambda m: f"trump {_SYMBOL[m[1]]}", text)
    return re.sub(r"(\w) -$", r"\1 no cards", text)


def bets_and_pins(pins: int, joined: bool = False) -> str:
    """A result in whole bets and pins (a bet is 8 pins), in the player's language; ``joined``
    says "and" between them (in a sentence, not a column). In a column a loss signs both
    parts: "−1 bet 1 pin" was read as a bet lost and a pin won.

    >>> bets_and_pins(19), bets_and_pins(-8), bets_and_pins(-3), bets_and_pins(0), bets_and_pins(-9)
    ('+2 bets 3 pins', '−1 bet', '−3 pins', '0', '−1 bet −1 pin')
    >>> bets_and_pins(19, joined=True), bets_and_pins(-9, joined=True)
    ('+2 bets and 3 pins', '−1 bet and 1 pin')
    """
    if pins == 0:
        return "0"
    sign = "+" if pins > 0 else "−"
    bets, rest = divmod(abs(pins), 8)
    parts = [t("words.bets", count=bets)] if bets else []
    if rest:
        parts.append(t("words.pins", count=rest))
    if joined and len(parts) == 2:
        return sign + t("words.and", first=parts[0], second=parts[1])
    return sign + (" " + sign if sign == "−" else " ").join(parts)


LEVELS = ("", mark("words.level.suit"), mark("words.level.highest"))  # plain, in suit, in highest suit


def game_label(name: str, suit_level: int) -> str:
    """A game as bid: "7-spel in suit" (the game's own name in every language)."""
    return f"{name} {t(LEVELS[suit_level])}" if suit_level else name


def card_text(card: Card) -> str:
    """A card as the table writes it: "10♥", "K♠"."""
    return pretty(str(card))


# Each step's words: the button's (do it) and the log's (done), by the catalog keys.
_SAID: dict[str, tuple[str, str]] = {
    "keep": ("action.keep", "told.keep"),
    "discard": ("action.discard", "told.discard"),
    "buy": ("action.buy", "told.buy"),
    "repurchase": ("action.repurchase", "told.repurchase"),
    "set_aside": ("action.set_aside", "told.set_aside"),
    "level": ("action.level", "told.level"),
    "high": ("action.high", "told.high"),
    "low": ("action.low", "told.low"),
    "trump": ("action.trump", "told.trump"),
    "turn": ("action.turn", "told.turn"),
    "turn_again": ("action.turn_again", "told.turn_again"),
    "play": ("action.play", "told.play"),
    "lay_down": ("action.lay_down", "told.lay_down"),
    "aces": ("action.aces", "told.aces"),
}


def say_action(action: Action, public: bool = False, told: bool = False) -> str:
    """An action in the player's language ("byt ut 2♣ 10♥", "gask 3 i färg", "pass"); with
    ``public``, cards laid aside, kept or bought are told only by their number; ``told``
    says it as done, for the log ("bytte ut 2 kort", not the button's "byt ut")."""
    if isinstance(action, Bid):
        if action.game is not None:
            bid = game_label(action.game.name, action.suit_level)
        else:
            group = t("action.higher", group=action.group) if action.higher else str(action.group)
            bid = game_label(group, action.suit_level)
        return t("action.in_forehand", bid=bid) if action.in_forehand else bid
    if isinstance(action, PlayCard):
        return card_text(action.card)
    which = 1 if told else 0

    def said(name: str, **values: object) -> str:
        return t(_SAID[name][which], **values)

    if isinstance(action, Keep | Discard | Buy | Repurchase | SetAside):
        if not action.cards:
            cards = t("action.no_cards")
        elif public:
            cards = t("action.some_cards", count=len(action.cards))
        else:
            cards = " ".join(card_text(c) for c in action.cards)
        return said(action.verb.replace(" ", "_"), cards=cards)
    if isinstance(action, ChooseLevel):
        return said("level", game=action.game.name)
    if isinstance(action, HighLow):
        return said("low" if action.low else "high")
    if isinstance(action, ChooseTrump):
        return said("trump", suit=action.suit.symbol)
    if isinstance(action, Turn):
        return said("turn_again" if action.again else "turn")
    if isinstance(action, Decide):
        return said("play" if action.play else "lay_down")
    if isinstance(action, AnnounceAces):
        return said("aces")
    return t("action.pass")


def say_text(text: str, seat: int) -> str:
    """An action written as a record writes it ("gask 3 in suit"), in the player's words."""
    return _said_text(text, seat, current())


@lru_cache(maxsize=512)
def _said_text(text: str, seat: int, language: str) -> str:
    return say_action(parse_action(text, seat))


def say_refusal(error: Exception, names: Sequence[str]) -> str:
    """Why the engine refused an action, in the player's language; an error without a
    catalog key as it is."""
    reason = error.args[0] if error.args else ""
    return say_keyed(reason, "refusal", names) if isinstance(reason, Keyed) else pretty(str(error))


def say_keyed(said: Keyed, prefix: str, names: Sequence[str] = ()) -> str:
    """A :class:`Keyed` text (a refusal, a bot's reason) in the player's language: a seat by
    its player's name, a suit by its word, a card as the table writes it, a marking in words."""
    values = dict(said.values)
    for name in ("pct", "low", "high", "after", "now", "alt", "est"):  # chances, as "62%" or "62 %"
        if isinstance(values.get(name), float):
            values[name] = t("reason.percent", n=round(100 * float(str(values[name]))))
    for name in ("bid", "aim"):
        if isinstance(values.get(name), Bid):
            values[name] = say_action(values[name])  # type: ignore[arg-type]
    for name in ("act", "instead"):  # a choice before play the strong bot compared
        if isinstance(values.get(name), Action):
            values[name] = say_action(values[name])  # type: ignore[arg-type]
    for name, places in (("gain", 1), ("better", 2)):  # bets gained, always above 0: a choice's, an exchange's
        if isinstance(values.get(name), float):
            values[name] = "+" + number(float(str(values[name])), places)
    if isinstance(values.get("tricks"), float):
        values["tricks"] = number(float(str(values["tricks"])), 1)
    if isinstance(values.get("note"), Keyed):  # how a game's odds were reckoned: "buying", "2 turned" …
        values["note"] = say_keyed(values["note"], prefix)  # type: ignore[arg-type]
    if "plan" in values:
        values["plan"] = t(f"reason.{values['plan']}", suit=t(f"words.suit.{values.get('suit', 'S')}"))
    if "suit" in values:
        values["suit"] = t(f"words.suit.{values['suit']}")
    for name in ("card", "other"):
        if name in values:
            values[name] = card_text(Card.parse(str(values[name])))
    if "seat" in values:
        values["name"] = names[int(str(values.pop("seat")))]
    marking = values.get("mark")
    if isinstance(marking, Marking):
        values["mark"] = say_marking(marking.suits, marking.strong)
    return t(f"{prefix}.{said.key}", **values)


def say_marking(suits: Sequence[Suit], strong: bool) -> str:
    """An Ågren marking in words: "strength in clubs", "weakness in hearts and spades"."""
    said = [t(f"words.suit.{suit.name}") for suit in suits]
    both = said[0] if len(said) == 1 else t("words.and", first=said[0], second=said[1])
    return t("coach.strength" if strong else "coach.weakness", suits=both)
