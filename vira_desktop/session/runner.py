"""A table run without a window, for one screen: the window, a lesson, a test and the
command line each drive one :class:`TableRunner`.

The runner is the table's :class:`~.master.TableMaster` (the one authority: answers, bots,
pace, undo, the next deal, the session's end) with one :class:`~.port.SeatPort` for the
seat shown, and the hot seat: with two or more people at one screen, the screen passes to
the one asked, under a cover. A caller hands it the player's answers (:meth:`submit`) and
commands (:meth:`command`), and :meth:`poll` moves the bots on by the caller's clock, only
when the caller says it may (a window: when nothing is animating). Every :class:`Update` is
projected for the seat shown: a window never receives a card that seat may not know.
"""

from __future__ import annotations

from typing import Any, Unpack

from ..i18n import t
from ..rules.actions import Action, Bid
from ..rules.errors import ViraError
from .analysis import Analysis
from .coach import BidAdvice
from .flow import Ask
from .master import BOT_PAUSE_S, Command, CommittedDeal, Director, MasterOptions, TableMaster, Turn
from .narration import Narrator
from .port import ClientFacts, SeatPort, Seen, Update
from .state import TableState
from .table import Table
from .worker import InlineWorker, Worker

__all__ = ["BOT_PAUSE_S", "Command", "CommittedDeal", "Director", "Seen", "TableRunner", "Turn", "Update"]


class TableRunner:
    """One table in play at one screen (see the module). ``viewer``: the seat shown first
    (by default the first person's). The other arguments are the master's."""

    def __init__(
        self,
        table: Table,
        worker: Worker | None = None,
        *,
        hint_every_decision: bool = False,
        viewer: str = "",
        narrator: Narrator | None = None,
        **master: Unpack[MasterOptions],
    ) -> None:
        self.worker = worker if worker is not None else InlineWorker()
        self.master = TableMaster(table, self.worker, **master)
        humans = self.master.humans
        self.port = SeatPort(self.master, viewer or (humans[0] if humans else table.session.seats[0]))
        self.port.hint_every_decision = hint_every_decision
        if narrator is not None:
            self.port.narrator = narrator
        self.cover_note: list[str] = []  # hot seat: what was just done, shown on the cover

    # ------------------------------------------------------------------ the port, for the seat shown
    @property
    def table(self) -> Table:
        """The table (for the composition root, a lesson's director and tests; never a scene)."""
        return self.master.table

    @property
    def viewer(self) -> str:
        return self.port.viewer or ""

    def seen(self) -> Seen:
        """The table at this version as the seat shown may know it (the port's state)."""
        return self.port.seen()

    def state(self, with_seating: bool = False) -> TableState:
        return self.port.state(with_seating)

    def asked(self) -> Ask | None:
        return self.port.asked()

    @property
    def coach_bids(self) -> bool:
        return self.port.coach_bids

    @coach_bids.setter
    def coach_bids(self, on: bool) -> None:
        self.port.coach_bids = on

    @property
    def pause(self) -> float:
        """Seconds between two moves (a window follows its animation speed)."""
        return self.master.pause

    @pause.setter
    def pause(self, seconds: float) -> None:
        self.master.pause = seconds

    @property
    def facts(self) -> ClientFacts:
        master = self.master
        humans, hints = len(master.humans), self.port.hints_asked
        return ClientFacts(humans, master.fresh, master.deals_done, hints, master.finished, tuple(self.cover_note))

    def refusal(self, action: Action) -> str | None:
        return self.port.refusal(action)

    def say_refusal(self, exc: ViraError) -> str:
        return self.port.say_refusal(exc)

    def finished_record(self) -> tuple[int, dict[str, Any]] | None:
        return self.port.finished_record()

    def ask_hint(self) -> bool:
        return self.port.ask_hint()

    def advice(self) -> dict[Bid, BidAdvice] | None:
        return self.port.advice()

    def ask_analysis(self) -> bool:
        return self.port.ask_analysis()

    def analysis(self) -> Analysis | None:
        return self.port.analysis()

    # ------------------------------------------------------------------ acting
    def start(self) -> Update:
        """The table as it opens: the seating and the åla at a fresh table, else the deal so
        far told again. Its events show the first deal."""
        if len(self.master.humans) >= 2:  # hot seat: whoever comes back to the table finds it covered
            ask = self.master.human_ask()
            if ask is not None:
                self.port.viewer = self.table.name_of(ask.seat)
            self._cover(self.viewer)
        return self.port.opening()

    def submit(self, seat: int, action: Action | None) -> Update:
        """The player's answer for ``seat`` (``None`` declines an offer). Raises
        :class:`~..rules.errors.ViraError` with the reason when it is not legal; the table
        is then unchanged."""
        ask = self.master.human_ask()
        if ask is None or ask.seat != seat:
            raise ViraError(t("message.not_your_turn"))
        self.master.answer(self.table.name_of(seat), action)
        return self.port.latest()

    def command(self, command: Command) -> Update:
        """Undo, the next deal, or how the session ends (see :meth:`TableMaster.command`)."""
        return self.port.command(command)

    def close(self) -> None:
        """The table is left: a finished deal is final, the worker stops."""
        self.master.close()
        self.worker.shutdown()

    def tell(self, text: str) -> None:
        """Add ``text`` to the log, after the deal told so far (a save recovered)."""
        self.port.narrator.say(text)

    def retell(self, heading: list[str] | None = None) -> None:
        """Tell the deal again under ``heading`` (a lesson's title), kept for every retelling after."""
        self.port.title = heading
        self.port.retell(heading)

    def restart(self, actions: list[Action]) -> None:
        """The deal started again with ``actions`` applied, at once (a lesson going back to a step)."""
        self.master.rebuilt(actions)
        self.port.poll(0.0)  # told by the caller, not animated

    def lift_cover(self) -> None:
        """Hot seat: the player the screen was passed to takes it."""
        if self.port.cover is not None:
            self._cover(None)
            self.master.bump()

    def _cover(self, name: str | None) -> None:
        self.port.cover = name
        self.master.held = name is not None

    # ------------------------------------------------------------------ the clock
    def poll(self, now: float, ready: bool = True) -> list[Update]:
        """Move the table on at time ``now`` (see :meth:`TableMaster.poll`) and hand out what
        changed for the seat shown. Never waits."""
        updates = self.port.poll(now)  # what came in since the last poll (a hint asked again)
        self.master.poll(now, ready)
        updates += self.port.poll(now)
        if (hot := self._hot_seat()) is not None:
            updates.append(hot)
        return updates

    def due_in(self, now: float) -> float | None:
        """Seconds from ``now`` until the runner will move by itself (0: it works now;
        ``None``: it waits for the player, or for nobody). A window sleeps that long."""
        return 0.0 if self.port.waiting else self.master.due_in(now)

    def _hot_seat(self) -> Update | None:
        """With two or more people, the screen passes to the one asked, under a cover."""
        if len(self.master.humans) < 2:
            return None
        ask = self.master.human_ask()
        if ask is None:
            return None
        actor = self.table.name_of(ask.seat)
        if actor == self.viewer:
            return None
        self.port.viewer = actor
        self._cover(actor)
        self.cover_note = self.port.narrator.lines[-4:]  # what was just done, the last player's move too
        self.port.narrator.marking(self.port.view(), self.table.session.seats)
        self.master.bump()
        return Update(version=self.master.version, snap=True)  # another seat's cards: no glide from the old ones
