"""A deal record stepped forward and back, for the replay window: bowls and pulla as they
stood when the deal began (a record known only by itself: a fresh table), one seat's cards
shown (Tab changes whose, then shows every hand), events projected for that seat; steps of an
action or of a trick, and jumps to the auction, the buy, the play and the payment; and the
record's analysis, worked out through a table's one job queue (:mod:`.jobs`)."""

from __future__ import annotations

import logging
from dataclasses import replace

from ..i18n import t
from ..rules.actions import Action, Bid, Pass, PlayCard
from ..rules.events import events_for
from ..rules.seat import SEATS
from .analysis import Analysis, Steps
from .as_played import AsPlayed, as_recorded
from .describe import describe_result
from .flow import FlowEvent
from .jobs import JobKind, Jobs
from .record import Record, record_actions
from .state import TableState, table_state
from .thinking import side_of
from .words import say_action
from .worker import Worker

__all__ = ["ReplayDriver"]

log = logging.getLogger(__name__)


class ReplayDriver:
    """A deal record, stepped forward and back, at the table it was played at (``played``:
    the seats, colours and tokens as the deal began; by default a fresh table, the player
    called "You" the person). It opens on the person's seat."""

    def __init__(self, record: Record, index: int = 0, played: AsPlayed | None = None) -> None:
        self.record = record
        self.index = index  # the deal's index in its session, where known (the heading says "Deal N")
        self.played = played if played is not None else as_recorded(record)
        self.actions = record_actions(record)
        self.position = 0
        self.viewer = SEATS[record.names.index(self.played.player)]
        self.all_hands = False  # every hand face up (the record holds them all)
        self._opening = self._build(0)
        self._jobs: Jobs | None = None  # the analysis's worker, started when it is first asked for
        self._analysis: Analysis | None = None
        self._steps: Steps | None = None  # the analysis being worked out, a step a job
        self.progress: tuple[int, int] | None = None  # its tricks judged so far, of all

    def _build(self, upto: int) -> list[FlowEvent]:
        session = self.played.session()
        session.dealer = session.players.index(self.record.names[2])  # rear-hand deals
        deal = session.seat_deal(self.record.deal.clone())
        out: list[FlowEvent] = [*self.played.opening, deal.started()]
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
        state = table_state(self.session, self.index, name, colour_order=self.played.colours)
        deal = self.session.deal
        if not self.all_hands or deal is None:
            return state
        shown = {s: deal.hand(s) for s in range(3) if s != self.viewer and deal.hand(s)}
        return replace(state, view=replace(state.view, open_hands={**state.view.open_hands, **shown}))

    def landmarks(self) -> dict[str, int]:
        """Where the record's parts begin: the auction, the buy (or what comes after the
        auction), the first card, and the payment (its end)."""
        actions = self.actions
        after = next((i for i, a in enumerate(actions) if not isinstance(a, Bid | Pass)), len(actions))
        play = next((i for i, a in enumerate(actions) if isinstance(a, PlayCard)), len(actions))
        return {"auction": 0, "buy": after, "play": play, "payment": len(actions)}

    def tricks(self) -> list[int]:
        """The position at which each trick begins (its first card), and the end."""
        cards = [i for i, a in enumerate(self.actions) if isinstance(a, PlayCard)]
        return [*cards[::3], len(self.actions)] if cards else []

    def trick_step(self, forward: bool) -> list[FlowEvent]:
        """To the start of the next trick (or the end), or of this one or the one before."""
        starts = self.tricks()
        here = self.position
        if forward:
            to = next((p for p in starts if p > here), None)
        else:
            to = next((p for p in reversed(starts) if p < here), None)
        return [] if to is None else self.go_to(to)

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
        """Each seat's view in turn, then every hand face up, then the first seat again."""
        if self.all_hands:
            self.all_hands = False
            self.viewer = SEATS[0]
        elif self.viewer == SEATS[2]:
            self.all_hands = True
        else:
            self.viewer = self.viewer.next

    # ------------------------------------------------------------------ "could I have won?"
    def ask_analysis(self) -> bool:
        """Ask for the record's analysis for the seat shown, once (in a worker started on the
        first ask, a step a job; it comes from :meth:`poll`). ``False``: the record's cards
        were never played, there is nothing to analyse."""
        if not self.has_play:
            return False
        if self._analysis is None:
            if self._jobs is None:
                self._jobs = Jobs(Worker())
            if self._steps is None:
                record = self.record
                self._steps = Steps(record, side_of(record, record.names[self.viewer]))  # the record stays
                self._ask_step()
            elif not self._jobs.busy(JobKind.ANALYSIS):
                self._ask_step()  # asked again after a step failed: from that step on
        return True

    def _ask_step(self) -> None:
        assert self._jobs is not None and self._steps is not None
        fn, args = self._steps.job()
        self._jobs.again(JobKind.ANALYSIS)
        self._jobs.ask(JobKind.ANALYSIS, 0, fn, *args)

    def analysis(self) -> Analysis | None:
        """The record's analysis, once worked out (``None``: not asked, or not in yet)."""
        return self._analysis

    def poll(self) -> list[Analysis | None]:
        """The analyses in since the last poll (``None``: one that failed; it may be asked
        again); a step in moves :attr:`progress` on and asks the next."""
        jobs, steps = self._jobs, self._steps
        if jobs is None or steps is None:
            return []
        out: list[Analysis | None] = []
        for _, result in jobs.answers(0):
            if isinstance(result, Exception):
                log.error("the analysis failed: %r", result)
                jobs.again(JobKind.ANALYSIS)
                out.append(None)
                continue
            done = steps.take(result)
            self.progress = steps.progress
            if done is None:
                self._ask_step()
                continue
            self._analysis, self._steps, self.progress = done, None, None
            out.append(done)
        return out

    @property
    def working(self) -> bool:
        """The analysis is being worked out."""
        return self._jobs is not None and self._jobs.worker.pending()

    def close(self) -> None:
        """The replay is left: its worker stops."""
        if self._jobs is not None:
            self._jobs.worker.shutdown()
