"""The table's clock: the bots' thinking and their moves at a player's pace, a lesson's
scripted line, the steps with one possible answer, and the next autoplayed deal."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..ai import Choice
from ..i18n import t
from ..rules.actions import Action
from ..rules.decision import Phase
from ..rules.errors import ViraError
from .flow import Ask
from .jobs import JobKind
from .thinking import bot_choice
from .turns import Turn
from .words import say_action

if TYPE_CHECKING:
    from .master import TableMaster

__all__ = ["Pace"]

log = logging.getLogger(__name__)


class Pace:
    """Moves ``master``'s table on by the caller's clock (see :meth:`poll`)."""

    def __init__(self, master: TableMaster) -> None:
        self.master = master
        self.thinking_for: str | None = None  # the player whose bot is thinking
        self._pending: object = None  # a bot's answer (a Choice, or what its job raised), held for the pause
        self._not_before = 0.0
        self._now = 0.0

    @property
    def bot_thinking(self) -> bool:
        return self.master.jobs.busy(JobKind.BOT) or self._pending is not None

    def moved(self) -> None:
        """A move was made: the next waits for the pause."""
        self._not_before = self._now + self.master.pause
        self._pending = None

    def forget(self) -> None:
        """The bots' work in hand is dropped (the table is rebuilt)."""
        self._pending = None
        self.thinking_for = None

    def poll(self, now: float, ready: bool = True) -> None:
        """Move the table on at time ``now`` (seconds, any clock): take the worker's answers
        (a port's are handed to it), and, when ``ready`` (nothing is animating) and the pause
        since the last move is over, apply the next bot's or script's answer, take a
        one-option step, or deal the next autoplayed deal. Never waits."""
        self._now = now
        for job, result in self.master.jobs.answers(self.master.version):  # only what was asked at this version
            if job.kind is JobKind.BOT:
                self._pending = result
            else:
                self.master.job_in(job, result)
        if ready and now >= self._not_before:
            self._move()
        self._think()

    def _move(self) -> None:
        """One move by whoever is due: the pending bot answer, the script, a one-option step,
        the next autoplayed deal."""
        ask = self.master.table.ask()
        if ask is None:
            self._autoplay_next()
            return
        turn = self.master.turn(ask)
        if turn is Turn.SCRIPT and self.master.director is not None:
            self.master.apply(ask, self.master.director.scripted(ask), human=False)
        elif turn is Turn.BOT and self._pending is not None:
            self._bot_answer(ask, self._pending)
        elif turn is Turn.HUMAN and (only := self.only_answer()) is not None:
            action = only[1]
            self.master.apply(ask, action, human=True, said=t("log.only_choice", what=say_action(action)))

    def _bot_answer(self, ask: Ask, pending: object) -> None:
        self._pending = None
        self.thinking_for = None
        choice = pending if isinstance(pending, Choice) else None
        if choice is None or (choice.action is None and not ask.optional):
            log.error("the worker's bot failed (%r); asking the bot in this process", pending)
            bot = self.master.table.bot_for(ask)
            assert bot is not None
            choice = bot.choose(self.master.table.bot_view(ask))
        try:
            self.master.apply(ask, choice.action, human=False)
        except (ViraError, ValueError) as exc:  # report, and ask again
            log.error("a bot's answer was refused: %s", exc)
            self.master.jobs.again(JobKind.BOT)

    def _think(self) -> None:
        """Start the bot that is asked, if it is a bot's turn and none is thinking. Never waits."""
        if self.bot_thinking:
            return
        ask = self.master.table.ask()
        if ask is None or self.master.turn(ask) is not Turn.BOT:
            return
        spec = self.master.table.bot_spec(ask)
        if spec is None:  # a human's seat a lesson lets the bots play: made on the spot
            self.master.table.let_bot_play(self.master.table.name_of(ask.seat))
            spec = self.master.table.bot_spec(ask)
            assert spec is not None
        if self.master.jobs.ask(JobKind.BOT, self.master.version, bot_choice, spec, self.master.table.bot_view(ask)):
            self.thinking_for = self.master.table.name_of(ask.seat)

    def only_answer(self) -> tuple[Ask, Action] | None:
        """A player's question and its one possible answer, where there is one ("high" for a
        gask bid in suit, nothing to discard); never a bid, a card to play or the choice
        after buying, and not while a hot-seat cover is up (the player sees it taken)."""
        ask = self.master.human_ask()
        if ask is None or ask.optional or ask.view.decision is None or self.master.held:
            return None
        decision = ask.view.decision
        if decision.phase in (Phase.AUCTION, Phase.PLAY, Phase.DECIDE):
            return None
        choice = decision.choice
        if choice is None and len(decision.actions) == 1:
            return ask, decision.actions[0]
        if not decision.actions and choice is not None and choice.max_count == 0:
            return ask, choice.make([])
        return None

    def due_in(self, now: float) -> float | None:
        """Seconds from ``now`` until the master will move by itself (0: it works now, a bot
        or the coach thinking; ``None``: it waits for a player, or for nobody)."""
        if self.master.worker.pending():
            return 0.0
        wait = max(0.0, self._not_before - now)
        if self._pending is not None:
            return wait  # a bot's answer, held for the pause after the last move
        ask = self.master.table.ask()
        if ask is None:
            due = self.master.autoplay is not None and self.master.deal_over and not self.master.finished
            return wait if due else None
        turn = self.master.turn(ask)
        if turn is Turn.SCRIPT:
            return wait
        if turn is Turn.BOT:
            return 0.0  # a bot is about to be asked
        if turn is Turn.HUMAN and self.only_answer() is not None:
            return wait
        return None

    def _autoplay_next(self) -> None:
        if self.master.autoplay is None or not self.master.deal_over:
            return
        if self.master.deals_done >= self.master.autoplay or self.master.session_over:
            self.master.finished = True
            return
        self._not_before = self._now + self.master.pause
        self.master.next_deal()
