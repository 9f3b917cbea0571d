"""A lesson as a state machine over a table runner, with no window: the lesson's deal record
is played as its main line to each step's position, the learner answers at "your move"
checkpoints, a wrong answer is explained and can be played out to the deal's end, and
when the lesson is over the deal can be played on against the bots. Progress is saved
the moment a step is done.

The stages, and what moves between them::

    PLAYING_TO --(the step's position reached)--> READING | ASKING
    READING   --next--> PLAYING_TO (the next step) | FINISHED
    ASKING    --right answer--> ANSWERED --next--> PLAYING_TO | FINISHED
    ASKING    --wrong answer--> WRONG --show--> PLAYING_OUT --(the deal ends)--> PLAYED_OUT
    ASKING    --a choice (a question about the table)--> ANSWERED | WRONG (no play-out: choose again)
    WRONG | PLAYED_OUT --retry--> ASKING (the same position)
    any step  --back--> the step before, at its position; --skip--> the next step
    FINISHED  --play on--> FREE (the learner plays on against the bots)

A window draws :attr:`LessonRunner.stage`, :attr:`LessonRunner.feedback` and
:meth:`LessonRunner.controls`, and forwards the learner's moves to :meth:`LessonRunner.answer`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from ..i18n import t
from ..rules.actions import Action
from ..rules.errors import ViraError
from ..rules.ledger import PULLA, SEXMASTARE, Ledger
from ..rules.scoring import DealResult
from ..session.describe import describe_result
from ..session.factory import new_table
from ..session.flow import Ask
from ..session.runner import BOT_PAUSE_S, TableRunner, Turn, Update
from ..session.state import TableState
from ..session.table import SeatConfig
from ..session.words import bets_and_pins, say_action
from ..session.worker import InlineWorker, Worker
from .judge import Kind
from .lesson import Lesson, Step, chapters
from .progress import Progress
from .question import KINDS, Choice
from .telling import question_label, tell, tell_choice

__all__ = ["Control", "Feedback", "LessonRunner", "Stage", "Tone", "next_lesson"]


class Stage(Enum):
    PLAYING_TO = "playing to"  # the main line is played on to the step's position
    READING = "reading"  # a step that only says something: Next goes on
    ASKING = "asking"  # a checkpoint waits for the learner's move
    ANSWERED = "answered"  # answered right: Next goes on
    WRONG = "wrong"  # a wrong answer, explained: show what happens, try again or skip
    PLAYING_OUT = "playing out"  # the bots play the wrong answer out to the deal's end
    PLAYED_OUT = "played out"  # the play-out is over: try again or leave
    FINISHED = "finished"  # every step done: play on, the next lesson, the contents
    FREE = "free"  # the learner plays the deal on against the bots


class Tone(Enum):
    GOOD = "good"
    BAD = "bad"
    NOTE = "note"  # a hint, the answer to compare
    QUIET = "quiet"


@dataclass(frozen=True)
class Feedback:
    text: str
    tone: Tone
    more: str = ""  # said after ``text`` where the window has room for it
    refusal: bool = False  # a move the rules refused (``more``: the words it came over)


@dataclass(frozen=True)
class Control:
    """One of the lesson's own buttons: its command and whether it works now."""

    command: str  # back, next, skip, leave, show, retry, play_on, following
    enabled: bool = True


def next_lesson(ident: str) -> str | None:
    """The lesson after ``ident`` in the contents map (``None`` after the last)."""
    order = [x for chapter in chapters() for x in chapter.lessons]
    i = order.index(ident) if ident in order else len(order)
    return order[i + 1] if i + 1 < len(order) else None


class LessonRunner:
    """One lesson at a table without a window (it directs its :class:`TableRunner`)."""

    def __init__(
        self,
        taught: Lesson,
        progress: Progress | None = None,
        worker: Worker | None = None,
        pause: float = BOT_PAUSE_S,
    ) -> None:
        self.lesson = taught
        self.progress = progress or Progress()
        you = taught.table.index(taught.record.names[taught.you])  # a fourth player sits out at the dealer's right
        names = [t("new_game.you") if i == you else name for i, name in enumerate(taught.table)]
        seats = [SeatConfig(name, i == you) for i, name in enumerate(names)]
        self.learner = names[you]
        table = new_table(seats, deal=taught.record.deal, pulla=taught.pulla)
        self.runner = TableRunner(table, worker or InlineWorker(), pause=pause, director=self, viewer=self.learner)
        kept = self.progress.of(taught.id)
        self.step = min(kept.step, len(taught.steps) - 1)
        if kept.done:
            self.step = 0  # a finished lesson opens from its start: it is being replayed
            self.progress.replay(taught.id)
        self.stage = Stage.PLAYING_TO
        self.feedback: Feedback | None = None
        self.wrong: Action | None = None  # the wrong answer just given (it can be played out)
        self.also_good = False  # answered as well as the lesson, which went on with its own answer
        self.wrong_said = ""  # the catalog key of what that answer was told
        self._right: set[int] = set()  # the steps whose question was answered right, this time through
        self._missed: set[int] = set()  # the steps whose first answer was wrong (a star each, once)
        self.watching = False  # the learner asked to watch the scripted play at the table's own speed

    # ------------------------------------------------------------------ what is shown
    @property
    def current(self) -> Step:
        return self.lesson.steps[self.step]

    @property
    def history(self) -> int:
        return self.runner.master.moves

    @property
    def behind(self) -> bool:
        """The main line is still being played to the step's position."""
        return self.stage is Stage.PLAYING_TO

    @property
    def finished(self) -> bool:
        return self.stage in (Stage.FINISHED, Stage.FREE)

    @property
    def answered(self) -> bool:
        return self.stage is Stage.ANSWERED

    @property
    def brisk(self) -> bool:
        """The table plays on without the learner (the main line to a step, a play-out):
        a window plays it briskly unless the learner asked to watch (:meth:`watch`)."""
        return not self.watching and self.stage in (Stage.PLAYING_TO, Stage.PLAYING_OUT)

    def watch(self) -> bool:
        """Watch the scripted play at the table's own speed, or briskly again; says which."""
        self.watching = not self.watching
        return self.watching

    @property
    def in_lesson(self) -> bool:
        """The table follows the lesson's steps (not a play-out, not free play)."""
        return self.stage not in (Stage.PLAYING_OUT, Stage.PLAYED_OUT, Stage.FREE)

    def state(self, with_seating: bool = False) -> TableState:
        """The table as drawn; the learner always in the first player colour."""
        state = self.runner.state(with_seating)
        others = tuple(name for name in state.colour_order if name != self.learner)
        state = replace(state, colour_order=(self.learner, *others))
        question = self.current.question
        if question is not None and "pulla" in KINDS[question.kind] and question.pulla != state.pulla_bets:
            state = question_pulla(state, question.pulla)  # the pulla the question speaks of
        return state

    def controls(self) -> list[Control]:
        """The lesson's buttons now, in order."""
        stage = self.stage
        if stage is Stage.PLAYED_OUT or stage is Stage.PLAYING_OUT:
            return [Control("retry"), Control("leave")]
        if self.finished:
            play_on = [Control("play_on")] if stage is Stage.FINISHED and not self.runner.master.deal_over else []
            return [*play_on, Control("following"), Control("contents")]
        if stage is Stage.WRONG:
            show = [Control("show")] if self.current.ask is not None else []  # a choice has nothing to play out
            return [*show, Control("retry"), Control("skip")]
        if stage is Stage.ANSWERED and self.also_good:  # the lesson went on with its own answer: try that one
            return [Control("back", self.step > 0), Control("next"), Control("retry"), Control("leave")]
        return [
            Control("back", self.step > 0),
            Control("next", stage in (Stage.READING, Stage.ANSWERED)),
            Control("skip"),
            Control("leave"),
        ]

    # ------------------------------------------------------------------ the table's director
    def turn(self, ask: Ask, human: bool) -> Turn:
        stage = self.stage
        if stage is Stage.PLAYING_TO and self.history < self.current.at:
            return Turn.SCRIPT
        asked = self.current.ask is not None and self.history == self.current.at
        if stage in (Stage.ASKING, Stage.WRONG) and human and asked:
            return Turn.HUMAN  # after a wrong answer the question still stands
        if stage is Stage.PLAYING_OUT:
            return Turn.BOT
        if stage is Stage.FREE:
            return Turn.HUMAN if human else Turn.BOT
        return Turn.WAIT

    def scripted(self, ask: Ask) -> Action | None:
        action = self.lesson.actions[self.history]
        if ask.optional and ask.view.decision is not None and action not in ask.view.decision.actions:
            return None  # an offer the main line does not take
        return action

    # ------------------------------------------------------------------ the clock
    def start(self) -> Update:
        """The lesson opened at its step, at once."""
        self._go_to(self.current.at)
        self._open_step()
        update = self.runner.start()
        self._told_again()
        return update

    def poll(self, now: float, ready: bool = True) -> list[Update]:
        """Move the table on (see :meth:`TableRunner.poll`), then the stage."""
        updates = self.runner.poll(now, ready)
        if self.stage is Stage.PLAYING_TO and self.history >= self.current.at:
            self.stage = Stage.ASKING if self.current.asks else Stage.READING
        elif self.stage is Stage.PLAYING_OUT and self.runner.master.deal_over:
            self._played_out()
        return updates

    def settle(self, limit: int = 10_000) -> None:
        """Play on, at no pace, until the table waits for the learner or the lesson (tests, tools)."""
        for _ in range(limit):
            before = (self.stage, self.history)
            self.poll(float("inf"))
            if (self.stage, self.history) == before and not self.runner.master.bot_thinking:
                return
        raise RuntimeError("the lesson's table never came to rest")

    def _played_out(self) -> None:
        """Say honestly how the play-out went against the lesson's own answer: what each
        came to for the learner, and, when the wrong answer did as well, why it was still worse."""
        self.stage = Stage.PLAYED_OUT
        state = self.runner.state()
        result, main = state.view.result, self.lesson.result
        assert result is not None and main is not None  # played to the end, both (a lesson's record is whole)
        you, seats = self.lesson.you, state.seats
        yours, lessons = result.net_pins(you), main.net_pins(you)
        def came(key: str, end: DealResult, net: int) -> str:
            title, told = describe_result(end, seats)
            said = t("lesson.ui.net", net=bets_and_pins(net, True)) if net else t("lesson.ui.net_none")
            return t(key, result=f"{title} ({told[0].rstrip('.')})" if told else title, net=said)

        lines = [came("lesson.ui.yours_came", result, yours), came("lesson.ui.lesson_came", main, lessons)]
        if result.declarer == you and result.repurchase and not main.repurchase:  # a playtest blamed its answer
            lines.append(t("lesson.ui.bots_repurchased"))
        lucky = yours >= lessons
        if lucky:  # and why it was still worse: what that answer was told
            lines.append(t("lesson.ui.lucky"))
            self.feedback = Feedback(" ".join(lines), Tone.NOTE, t(f"lesson.{self.wrong_said}"))
        else:
            lines.append(t("lesson.ui.lost", cost=bets_and_pins(lessons - yours, True).lstrip("+")))
            self.feedback = Feedback(" ".join(lines), Tone.BAD)

    # ------------------------------------------------------------------ the learner's moves
    def answer(self, action: Action | None) -> Update | None:
        """The learner's move on the table: judged at a checkpoint, played in free play.
        Returns what the table did (``None``: nothing was played). Raises ``ViraError`` for
        a move that is not legal."""
        if self.stage in (Stage.ASKING, Stage.WRONG) and action is not None and self.current.ask is not None:
            return self._judge(action)
        ask = self.runner.asked()
        if ask is None:
            return None
        return self.runner.submit(ask.seat, action)

    def _judge(self, action: Action) -> Update | None:
        step = self.current
        assert step.ask is not None
        ask = self.runner.asked()
        if ask is None:
            return None
        if (refused := self.runner.refusal(action)) is not None:
            raise ViraError(refused)  # an illegal move is refused, not judged
        verdict = self.lesson.judge(step, action)  # at the step's own position, where the table stands
        said = tell(verdict)
        if not verdict.right:
            self.wrong, self.wrong_said = action, verdict.say
            self._answered_wrong(said)
            return None
        # the same deal goes on with the learner's own move; another line, with the lesson's
        played = action if verdict.kind is Kind.RIGHT else step.ask.accept[0]
        self.also_good = verdict.kind is not Kind.RIGHT
        update = self.runner.submit(ask.seat, played)
        self._answered_right(said)
        return update

    def choices(self) -> tuple[Choice, ...]:
        """The choices of the question standing (none where no question about the table stands)."""
        question = self.current.question
        if question is None or self.stage not in (Stage.ASKING, Stage.WRONG):
            return ()
        return question.choices()

    def choose(self, index: int) -> bool:
        """The learner's choice (by its place among :meth:`choices`), judged by the engine's
        answer: right, on to Next; wrong, told what it would mean, and the question stands.
        ``False``: no such choice stands."""
        question, choices = self.current.question, self.choices()
        if question is None or not 0 <= index < len(choices):
            return False
        verdict = question.judge(choices[index])
        said = tell_choice(verdict, self.lesson.record.names[self.lesson.you])
        if verdict.right:
            self._answered_right(said)
        else:
            self._answered_wrong(said)
        return True

    def _answered_right(self, said: str) -> None:
        """The step's question answered right: praised, kept, on to Next."""
        self.stage = Stage.ANSWERED
        self.feedback = Feedback(said, Tone.GOOD)
        self._right.add(self.step)
        self.progress.step_done(self.lesson.id, self.step, len(self.lesson.steps))

    def _answered_wrong(self, said: str) -> None:
        """A wrong answer, explained; it costs a star if it is the question's first wrong answer
        and the question was not answered right already (the learner came Back to try another
        answer: that is exploring, not a mistake)."""
        self.stage = Stage.WRONG
        self.feedback = Feedback(said, Tone.BAD)
        if self.step not in self._right and self.step not in self._missed:
            self._missed.add(self.step)
            self.progress.wrong_answer(self.lesson.id)

    def refused(self, said: str) -> None:
        """A move the rules refuse ("must follow suit in clubs"), said on the lesson's card;
        nothing else changes (a wrong answer's words follow it, where there is room)."""
        was = self.feedback
        before = "" if was is None or was.tone is not Tone.BAD else was.more if was.refusal else was.text
        self.feedback = Feedback(said[:1].upper() + said[1:] + ".", Tone.BAD, before, refusal=True)

    def hint(self) -> bool:
        """The checkpoint's own hint (``False``: no question stands; the coach may answer)."""
        ask = self.current.ask or self.current.question
        if self.stage not in (Stage.ASKING, Stage.WRONG) or ask is None:
            return False
        self.progress.hint_asked(self.lesson.id)
        self.feedback = Feedback(t(f"lesson.{ask.hint}"), Tone.NOTE)
        return True

    def next(self, skipped: bool = False) -> bool:
        """On to the next step (``skipped``: past a question unanswered, or a reading step).
        ``False``: the step waits (its position first, or its question)."""
        if self.stage is Stage.PLAYING_TO and not skipped:
            return False
        if self.stage is Stage.ASKING and not skipped:
            first = "answer_choice" if self.current.question is not None else "answer_first"
            self.feedback = Feedback(t(f"lesson.ui.{first}"), Tone.NOTE)
            return False
        ask, asked = self.current.ask, self.current.question
        question = self.current.asks and self.stage is not Stage.ANSWERED  # skipped (a reading step costs nothing)
        self.progress.step_done(self.lesson.id, self.step, len(self.lesson.steps), skipped and question)
        if question:
            self._go_to(self.current.at)  # the main line goes on from the skipped question
        if self.step + 1 >= len(self.lesson.steps):
            self.stage = Stage.FINISHED
            self.feedback = None  # the last step's words were said: the card says the lesson is done
            if question:
                self._told_again()
        else:
            self.step += 1
            self._open_step()
        if question and ask is not None:  # what the answer was
            self.feedback = Feedback(t("lesson.ui.skipped_answer", action=say_action(ask.accept[0])), Tone.QUIET)
        elif question and asked is not None:
            answer = question_label(asked.answer(), asked.kind, self.lesson.record.names[self.lesson.you])
            self.feedback = Feedback(t("lesson.ui.skipped_answer", action=answer), Tone.QUIET)
        return True

    def back(self) -> bool:
        """Back a step, at its own position (``False``: this is the first)."""
        if self.step == 0:
            return False
        self.step -= 1
        self.retry()
        return True

    def retry(self) -> None:
        """Back at the step's own position (Back, Try again), at once, the log told again."""
        self._go_to(self.current.at)
        self._open_step()
        self._told_again()

    def show(self) -> Update | None:
        """Play the wrong answer out: the bots take every seat, the learner's too, to the end."""
        if self.stage is not Stage.WRONG or self.wrong is None:
            return None
        ask = self.runner.asked()
        assert ask is not None
        update = self.runner.submit(ask.seat, self.wrong)  # then the director has the bots play every seat
        self.stage = Stage.PLAYING_OUT
        self.feedback = Feedback(t("lesson.ui.playing_out"), Tone.QUIET)
        self.wrong = None  # (what it was told stays, for the end of the play-out)
        return update

    def play_on(self) -> None:
        """The learner plays the rest of the deal against the bots."""
        if self.stage is Stage.FINISHED:
            self.stage = Stage.FREE
            self.feedback = None

    # ------------------------------------------------------------------ helpers
    def _go_to(self, at: int) -> None:
        """The table at the main line's position ``at``, at once (no animation)."""
        self.runner.restart(list(self.lesson.actions[:at]))

    def _open_step(self) -> None:
        self.stage = Stage.PLAYING_TO
        self.wrong = None
        self.also_good = False
        self.feedback = None
        if self.history >= self.current.at:
            self.stage = Stage.ASKING if self.current.asks else Stage.READING

    def _told_again(self) -> None:
        self.runner.retell([t(f"lesson.{self.lesson.title}")])


def question_pulla(state: TableState, bets: int) -> TableState:
    """``state`` with the pulla a question speaks of drawn in place of the table's: ``bets``
    put in one at a time round the table from forehand, as a lesson's ``pulla`` is."""
    ledger = Ledger()
    for name in state.players:
        ledger.add_player(name)
    order = list(state.players)
    first = order.index(state.seats[0]) if state.seats[0] in order else 0
    for i in range(bets):
        ledger.pay_pulla(order[(first + i) % len(order)], 1, "åla")
    return replace(
        state,
        pulla=ledger.holdings(PULLA),
        pulla_bets=ledger.pulla_bets(),
        sexmastare=sum(ledger.holdings(SEXMASTARE).values()),
    )
