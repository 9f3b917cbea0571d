"""What feeds the table view: live play at a :class:`~...session.table.Table`, or a deal
record stepped forward and back. Each hands the view a :class:`~.model.TableState`
and the events since the last frame; the view cannot tell them apart."""

from __future__ import annotations

import logging

from ...ai import Choice
from ...i18n import t
from ...rules.actions import Action
from ...rules.errors import ViraError
from ...rules.ledger import PULLA, SEXMASTARE, Ledger
from ...rules.seat import SEATS, Seat
from ...rules.session import Session
from ...rules.view import View
from ...session.flow import Ask, FlowEvent
from ...session.record import Record, record_actions
from ...session.table import Table
from ...session.thinking import bot_choice
from ...session.words import say_action
from ..worker import Worker
from .model import TableState

__all__ = ["LiveDriver", "ReplayDriver"]

log = logging.getLogger(__name__)


def _table_state(
    session: Session, deal_index: int, viewer_name: str, view_for: dict[str, View] | None = None, **extra: object
) -> TableState:
    """The public state of ``session``'s table, with the view of ``viewer_name``'s seat
    (a public view when that player sits out)."""
    deal = session.deal
    assert deal is not None
    seated = viewer_name in session.seats
    viewer = SEATS[session.seats.index(viewer_name)] if seated else None
    view = deal.view(viewer) if viewer is not None else deal.public_view()
    ledger: Ledger = session.ledger
    return TableState(
        players=tuple(session.players),
        seats=session.seats,
        sitting_out=session.sitting_out,
        deal_index=deal_index,
        deal_number=deal.number,
        spare_bottom=deal.spare_bottom,
        view=view,
        viewer=viewer,
        viewer_name=viewer_name,
        bowls={name: ledger.holdings(name) for name in session.players},
        pulla=ledger.holdings(PULLA),
        pulla_bets=ledger.pulla_bets(),
        sexmastare=sum(ledger.holdings(SEXMASTARE).values()),
        deals_left=session.deals_left,
        **extra,  # type: ignore[arg-type]
    )


class LiveDriver:
    """A session in play: humans answer through the scene, bots on the worker."""

    def __init__(self, table: Table, worker: Worker) -> None:
        self.table = table
        self.worker = worker
        humans = [s.name for s in table.seats if s.human]
        self.viewer = humans[0] if humans else table.session.seats[0]
        self.humans = humans
        self.thinking_for: str | None = None
        self._bot_tag: object = None

    def state(self, with_seating: bool = False) -> TableState:
        t = self.table
        return _table_state(
            t.session,
            t.deal_index,
            self.viewer,
            thinking=self.thinking_for,
            seating=t.draw if with_seating else None,
            seating_kind=t.seating,
            colour_order=tuple(s.name for s in t.seats),
        )

    def opening_events(self) -> list[FlowEvent]:
        """What a fresh table shows: the åla (only at the very start) and the first deal."""
        t = self.table
        fresh = not t.log and t.deal_index == 0
        return [*(t.opening_events if fresh else ()), t.deal.started()]

    def ask(self) -> Ask | None:
        return self.table.ask()

    def human_ask(self) -> Ask | None:
        """The question a human must answer now, if any."""
        ask = self.table.ask()
        return ask if ask is not None and self.table.is_human(ask.seat) else None

    def _tag(self, ask: Ask) -> tuple[int, int, int, Seat, bool]:
        """What a bot's job answers: the table as rebuilt (an undo makes a new one), the deal,
        the action count and the question."""
        return (self.table.generation, self.table.deal_index, len(self.table.deal.history), ask.seat, ask.optional)

    def receive(self, tag: object, result: object) -> list[FlowEvent]:
        """A bot's answer from the worker: applied if it still answers the position asked.
        A bot that failed (an exception, no answer where one is due) is asked again here."""
        if tag != self._bot_tag:
            return []
        self._bot_tag = None
        self.thinking_for = None
        ask = self.table.ask()
        if ask is None or self._tag(ask) != tag:
            return []
        choice = result if isinstance(result, Choice) else None
        if choice is None or (choice.action is None and not ask.optional):
            log.error("the worker's bot failed (%r); asking the bot in the window's process", result)
            bot = self.table.bot_for(ask)
            assert bot is not None
            choice = bot.choose(ask.view)
        try:
            return self.table.answer(ask, choice.action)
        except (ViraError, ValueError) as exc:  # never on the frame loop: report, and ask again next frame
            log.error("a bot's answer was refused: %s", exc)
            return []

    def think(self) -> None:
        """Start the bot that is asked, if it is a bot's turn and none is thinking. Never waits."""
        ask = self.table.ask()
        if self._bot_tag is not None or ask is None:
            return
        spec = self.table.bot_spec(ask)
        if spec is not None:
            self._bot_tag = self._tag(ask)
            self.thinking_for = self.table.name_of(ask.seat)
            self.worker.submit(self._bot_tag, bot_choice, spec, ask.view)

    @property
    def bot_thinking(self) -> bool:
        return self._bot_tag is not None

    def act(self, ask: Ask, action: Action | None) -> list[FlowEvent]:
        """A human's answer (``None`` declines an offer); raises ``ViraError`` if illegal."""
        return self.table.answer(ask, action, human=True)

    def next_deal(self) -> list[FlowEvent]:
        self.table.next_deal()
        return [self.table.deal.started()]

    def forget_bots(self) -> None:
        """Drop the bots' work in hand: the table is about to be rebuilt (an undo, a lesson's step)."""
        self._bot_tag = None
        self.thinking_for = None
        self.worker.cancel_all()

    def undo(self) -> None:
        self.forget_bots()
        self.table.undo()


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
        return self._opening

    def state(self) -> TableState:
        name = self.record.names[self.viewer]
        return _table_state(self.session, 0, name)

    @property
    def at_end(self) -> bool:
        return self.position >= len(self.actions)

    def forward(self) -> list[FlowEvent]:
        if self.at_end:
            return []
        events = self.session.apply(self.actions[self.position])
        self.position += 1
        return events

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

    def cycle_viewer(self) -> None:
        self.viewer = self.viewer.next
