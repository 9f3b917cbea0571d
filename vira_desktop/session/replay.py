"""A deal record stepped forward and back, for the replay window: bowls and pulla as at a
fresh table, one seat's cards shown (Tab changes whose), events projected for that seat."""

from __future__ import annotations

from ..i18n import t
from ..rules.actions import Action, PlayCard
from ..rules.events import events_for
from ..rules.seat import SEATS
from ..rules.session import Session
from .describe import describe_result
from .flow import FlowEvent
from .record import Record, record_actions
from .state import TableState, table_state
from .words import say_action

__all__ = ["ReplayDriver"]


class ReplayDriver:
    """A deal record, stepped forward and back; bowls and pulla as at a fresh table."""

    def __init__(self, record: Record, viewer: int = 0) -> None:
        self.record = record
        self.actions = record_actions(record)
        self.position = 0
        self.viewer = SEATS[viewer]
        self._opening = self._build(0)

    def _build(self, upto: int) -> list[FlowEvent]:
        names = list(self.record.names)
        session, events = Session.start(names, names[0], 0, self.record.deal.rules)
        deal = session.seat_deal(self.record.deal.clone())
        out: list[FlowEvent] = [*events, deal.started()]
        for action in self.actions[:upto]:
            out += session.apply(action)
        self.session = session
        self.position = upto
        return out

    def start_events(self) -> list[FlowEvent]:
        """What the table shows as the record opens: the åla and the deal."""
        return events_for(self.viewer, self._opening)

    def state(self) -> TableState:
        name = self.record.names[self.viewer]
        return table_state(self.session, 0, name)

    @property
    def at_end(self) -> bool:
        return self.position >= len(self.actions)

    def forward(self) -> list[FlowEvent]:
        if self.at_end:
            return []
        events = self.session.apply(self.actions[self.position])
        self.position += 1
        return events_for(self.viewer, events)

    def back(self) -> list[FlowEvent]:
        """One action back (the table is rebuilt at the earlier position)."""
        return self.go_to(self.position - 1) if self.position else []

    def go_to(self, position: int) -> list[FlowEvent]:
        """Straight to ``position`` (0: the deal as dealt), rebuilt once; no events to animate."""
        self._build(max(0, min(position, len(self.actions))))
        return []

    def _told(self, action: Action) -> str:
        """An action as the seat shown may know it (others' laid-aside cards by their number)."""
        return f"{self.record.names[action.seat]}: {say_action(action, public=action.seat != self.viewer, told=True)}"

    def next_action_text(self) -> str:
        return t("replay.end") if self.at_end else self._told(self.actions[self.position])

    def last_action_text(self) -> str:
        return t("replay.start") if self.position == 0 else self._told(self.actions[self.position - 1])

    def result(self) -> tuple[str, list[str]] | None:
        """The record's result as the banner tells it, once the deal is over."""
        deal = self.session.deal
        if deal is None or deal.result is None:
            return None
        ala_om = self.session.deals[-1].ala_om if self.session.deals else 0
        return describe_result(deal.result, self.record.names, deal.suit_level, ala_om, len(self.session.players))

    @property
    def has_play(self) -> bool:
        """Whether the record's deal gets as far as its cards being played."""
        return any(isinstance(a, PlayCard) for a in self.actions)

    def cycle_viewer(self) -> None:
        self.viewer = self.viewer.next
