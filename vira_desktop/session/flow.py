"""One door between the engine and whoever drives it: who is asked, optional offers,
apply, events out.

The window, ``vira simulate`` and ``vira match`` all drive deals through
:class:`Flow`; a deal record stepped in the window and a lesson will too. The
flow asks each seat only through its :class:`~..rules.view.View`, so a bot and
a human are asked the same question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules.actions import Action
from ..rules.deal import Deal
from ..rules.decision import Phase
from ..rules.events import Event
from ..rules.ledger import LedgerEvent
from ..rules.seat import SEATS, Seat
from ..rules.view import View

__all__ = ["Ask", "Flow", "FlowEvent"]

FlowEvent = Event | LedgerEvent


@dataclass(frozen=True, slots=True)
class Ask:
    """A question for one seat. ``optional``: an offer the seat may decline (answer ``None``),
    such as announcing four aces as ones before the first card when it is not on turn."""

    seat: Seat
    view: View
    optional: bool = False


class Flow:
    """Asks the seats of the current deal in turn and applies their answers.

    ``apply`` is the door actions go through (a session's, which pays through the
    ledger, or the deal's own); ``deal`` returns the deal in progress.
    """

    def __init__(self, deal: Callable[[], Deal], apply: Callable[[Action], Sequence[FlowEvent]] | None = None) -> None:
        self._deal = deal
        self._apply = apply
        self._offers_for: Deal | None = None  # the deal whose offers ``_answered`` holds
        self._answered: set[Seat] = set()
        self._asked: tuple[Deal, int, int, Ask | None] | None = None  # the last question, while it stands

    def ask(self) -> Ask | None:
        """Who is asked now: an open offer first (answered once a deal), then the seat on
        turn; ``None`` when the deal is over."""
        deal = self._deal()
        cached = self._asked
        if cached is not None and cached[0] is deal and cached[1:3] == (len(deal.history), len(self._answered)):
            return cached[3]
        ask = self._ask(deal)
        self._asked = (deal, len(deal.history), len(self._offers(deal)), ask)
        return ask

    def _ask(self, deal: Deal) -> Ask | None:
        if deal.is_over:
            return None
        decision = deal.decision()
        if decision.phase is Phase.PLAY and not deal.first_card_played:
            answered = self._offers(deal)
            for seat in SEATS:
                if seat != decision.seat and seat not in answered and any(a.seat == seat for a in decision.actions):
                    return Ask(seat, deal.view(seat), optional=True)
        return Ask(SEATS[decision.seat], deal.view(decision.seat))

    def answer(self, ask: Ask, action: Action | None) -> list[FlowEvent]:
        """Apply ``action`` for ``ask`` (``None`` declines an optional offer)."""
        deal = self._deal()
        if action is None:
            if not ask.optional:
                raise ValueError(f"{ask.seat.label} must answer: the decision is not optional")
            self._offers(deal).add(ask.seat)
            return []
        if action.seat != ask.seat:
            raise ValueError(f"an answer for {ask.seat.label} came from seat {action.seat}")
        events: list[FlowEvent] = list(self._apply(action) if self._apply is not None else deal.apply(action))
        if ask.optional:  # answered, once it has gone through
            self._offers(deal).add(ask.seat)
        return events

    def _offers(self, deal: Deal) -> set[Seat]:
        """The seats that have answered their offer in ``deal``."""
        if deal is not self._offers_for:
            self._offers_for, self._answered = deal, set()
        return self._answered
