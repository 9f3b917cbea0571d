"""One small hierarchy of errors, all ``ValueError``, with messages a player can read."""

from __future__ import annotations

__all__ = ["IllegalAction", "LedgerError", "RecordError", "ViraError"]


class ViraError(ValueError):
    """Base of every error the rules raise."""


class IllegalAction(ViraError):
    """An action that is not legal in the current state; the state is unchanged."""


class LedgerError(ViraError):
    """A token movement the session ledger cannot make."""


class RecordError(ViraError):
    """A deal record that is not valid (message as in the deal-record spec)."""
