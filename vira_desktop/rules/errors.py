"""One small hierarchy of errors, all ``ValueError``, with messages a player can read."""

from __future__ import annotations

__all__ = ["IllegalAction", "LedgerError", "RecordError", "Refusal", "ViraError"]


class ViraError(ValueError):
    """Base of every error the rules raise."""


class IllegalAction(ViraError):
    """An action that is not legal in the current state; the state is unchanged."""


class LedgerError(ViraError):
    """A token movement the session ledger cannot make."""


class RecordError(ViraError):
    """A deal record that is not valid (message as in the deal-record spec)."""


class Refusal(str):
    """Why an action is refused: English text (for the command line and deal records) that
    also keeps a catalog key and its values, so a window can say it in the player's language.

    >>> r = Refusal("must_follow", "must follow suit in hearts", suit="H")
    >>> r, r.key, r.values
    ('must follow suit in hearts', 'must_follow', {'suit': 'H'})
    """

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, text: str, **values: object) -> Refusal:
        made = super().__new__(cls, text)
        made.key = key
        made.values = values
        return made

    def __reduce__(self) -> tuple[object, ...]:
        return (_refusal, (self.key, str(self), tuple(self.values.items())))


def _refusal(key: str, text: str, values: tuple[tuple[str, object], ...]) -> Refusal:
    return Refusal(key, text, **dict(values))
