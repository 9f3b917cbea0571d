"""One small hierarchy of errors, all ``ValueError``, with messages a player can read."""

from __future__ import annotations

__all__ = ["IllegalAction", "Keyed", "LedgerError", "RecordError", "Refusal", "ViraError"]


class ViraError(ValueError):
    """Base of every error the rules raise."""


class IllegalAction(ViraError):
    """An action that is not legal in the current state; the state is unchanged."""


class LedgerError(ViraError):
    """A token movement the session ledger cannot make."""


class RecordError(ViraError):
    """A deal record that is not valid (message as in the deal-record spec)."""


class Keyed(str):
    """English text (for the command line, records and logs) that also keeps a catalog key
    and its values, so a window can say it in the player's language.

    >>> r = Refusal("must_follow", "must follow suit in hearts", suit="H")
    >>> r, r.key, r.values
    ('must follow suit in hearts', 'must_follow', {'suit': 'H'})
    """

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, text: str, **values: object) -> Keyed:
        made = super().__new__(cls, text)
        made.key = key
        made.values = values
        return made

    def __reduce__(self) -> tuple[object, ...]:
        return (_keyed, (type(self), self.key, str(self), tuple(self.values.items())))


def _keyed(cls: type[Keyed], key: str, text: str, values: tuple[tuple[str, object], ...]) -> Keyed:
    return cls(key, text, **dict(values))


class Refusal(Keyed):
    """Why the engine refuses an action (catalog keys under ``refusal.``)."""
