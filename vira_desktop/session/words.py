"""Actions and cards as the player reads them on screen: suit symbols instead of the
record notation's letters, "10" for T, and no bare "-" for an empty set of cards.

>>> pretty("buy 2C TH")
'buy 2♣ 10♥'
>>> pretty("keep -"), pretty("trump H"), pretty("AS: must follow suit in clubs")
('keep no cards', 'trump ♥', 'A♠: must follow suit in clubs')
>>> says("You", "is", "are"), says("Bertil", "is", "are")
('You are', 'Bertil is')
"""

from __future__ import annotations

import re

__all__ = ["bets_and_pins", "count", "pretty", "says"]

_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
_TRUMP = re.compile(r"\btrump ([SHDC])\b")


def pretty(text: str) -> str:
    """An action text (or a message naming cards) in the table's card format."""
    text = _CARD.sub(lambda m: ("10" if m[1] == "T" else m[1]) + _SYMBOL[m[2]], text)
    text = _TRUMP.sub(lambda m: f"trump {_SYMBOL[m[1]]}", text)
    return re.sub(r"(\w) -$", r"\1 no cards", text)


def says(name: str, singular: str, plural: str) -> str:
    """``name`` with its verb: "Bertil is", but "You are"."""
    return f"{name} {plural if name == 'You' else singular}"


def possessive(name: str) -> str:
    """"Bertil's", but "Your"."""
    return "Your" if name == "You" else f"{name}'s"


def whom(name: str) -> str:
    """``name`` as an object: "pays Bertil", but "pays you"."""
    return "you" if name == "You" else name


def count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless one: "1 bet", "3 pins"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def bets_and_pins(pins: int) -> str:
    """A result in whole bets and pins (a bet is 8 pins).

    >>> bets_and_pins(19), bets_and_pins(-8), bets_and_pins(-3), bets_and_pins(0)
    ('+2 bets 3 pins', '−1 bet', '−3 pins', '0')
    """
    if pins == 0:
        return "0"
    sign = "+" if pins > 0 else "−"
    bets, rest = divmod(abs(pins), 8)
    parts = [count(bets, "bet")] if bets else []
    if rest:
        parts.append(count(rest, "pin"))
    return sign + " ".join(parts)
