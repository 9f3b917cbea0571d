"""Every lesson walked through its state machine with no window (this module imports no
pygame; test_purity checks that the lesson runner imports none either): each step forward
and back, each checkpoint answered wrongly, played out to the deal's end, tried again and
answered rightly; a skipped question tells its answer; free play after the lesson."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from vira_desktop.i18n import configure, t
from vira_desktop.rules.actions import Action, PlayCard
from vira_desktop.rules.errors import ViraError
from vira_desktop.session.flow import Ask
from vira_desktop.tutorial.judge import Kind
from vira_desktop.tutorial.lesson import Lesson, Step, chapters, lesson
from vira_desktop.tutorial.progress import Progress
from vira_desktop.tutorial.runner import Control, LessonRunner, Stage, Tone

ALL = [x for c in chapters() for x in c.lessons]


@pytest.fixture(autouse=True)
def _english() -> None:
    configure("en")


def runner_for(ident: str, tmp_path: Path) -> LessonRunner:
    lr = LessonRunner(lesson(ident), Progress(tmp_path / "tutorial.json"), pause=0)
    lr.start()
    lr.settle()
    return lr


def asked(lr: LessonRunner) -> Ask:
    ask = lr.runner.asked()
    assert ask is not None and ask.view.decision is not None
    return ask


def a_wrong_answer(lr: LessonRunner, rng: random.Random) -> Action:
    return wrong_answer(lr.lesson, lr.current, asked(lr), rng)


def wrong_answer(taught: Lesson, step: Step, ask: Ask, rng: random.Random) -> Action:
    """A legal answer the checkpoint judges wrong (a card set, where every listed action is right)."""
    assert ask.view.decision is not None
    decision = ask.view.decision
    deal = taught.position(step.at)

    def wrong(action: Action) -> bool:
        return taught.judge(step, action, deal).kind is Kind.WRONG

    answers = [a for a in decision.actions if wrong(a)]
    if decision.choice is not None and not answers:
        choice = decision.choice
        for _ in range(50):
            made = choice.make(sorted(rng.sample(list(choice.candidates), choice.max_count)))
            if wrong(made):
                return made
    assert answers, "no wrong answer to give"
    return rng.choice(answers)


def at_the_first_checkpoint(ident: str, tmp_path: Path) -> tuple[LessonRunner, Step]:
    """Lesson ``ident`` walked on, step by step, to its first "your move"."""
    lr = runner_for(ident, tmp_path)
    while lr.current.ask is None:
        assert lr.next()
        lr.settle()
    return lr, lr.current


def answer_rightly_to_the_end(lr: LessonRunner) -> None:
    """Every step on, each "your move" answered with the lesson's own move."""
    while not lr.finished:
        if stage(lr) is Stage.ASKING:
            step = lr.current.ask
            assert step is not None
            lr.answer(step.accept[0])
        assert lr.next()
        lr.settle()


def stage(lr: LessonRunner) -> Stage:
    """The stage now (a call, so that a check after a move is not narrowed by the one before)."""
    return lr.stage


def tone(lr: LessonRunner) -> Tone | None:
    return lr.feedback.tone if lr.feedback is not None else None


def commands(lr: LessonRunner) -> list[str]:
    return [c.command for c in lr.controls() if c.enabled]


@pytest.mark.parametrize("ident", ALL)
def test_every_step_forward_and_back_each_checkpoint_wrong_then_right(ident: str, tmp_path: Path) -> None:
    lr = runner_for(ident, tmp_path)
    taught: Lesson = lr.lesson
    rng = random.Random(3)
    for n, step in enumerate(taught.steps):
        lr.settle()
        assert lr.step == n
        if n > 0:  # back a step and forward again: the same position each time
            assert "back" in commands(lr)
            assert lr.back()
            lr.settle()
            assert lr.step == n - 1 and lr.history == taught.steps[n - 1].at
            assert lr.next(skipped=taught.steps[n - 1].asks)
            lr.settle()
            assert lr.step == n
        assert lr.history == step.at
        if step.question is not None:
            walk_question(lr)
        elif step.ask is None:
            assert stage(lr) is Stage.READING and "next" in commands(lr)
        else:
            assert stage(lr) is Stage.ASKING and "next" not in commands(lr)
            assert not lr.next()  # the question first
            wrong = a_wrong_answer(lr, rng)
            assert lr.answer(wrong) is None  # judged, not played
            assert stage(lr) is Stage.WRONG and lr.wrong == wrong and lr.history == step.at
            assert tone(lr) is Tone.BAD
            assert commands(lr) == ["show", "retry", "skip"]
            assert lr.show() is not None  # the losing line, played to its end by the bots
            assert stage(lr) is Stage.PLAYING_OUT
            lr.settle()
            assert stage(lr) is Stage.PLAYED_OUT and lr.runner.table.deal.is_over
            assert lr.feedback is not None and t("lesson.ui.lesson_came", result="", net="")[:12] in lr.feedback.text
            lr.retry()
            lr.settle()
            assert stage(lr) is Stage.ASKING and lr.history == step.at and lr.step == n
            assert lr.hint() and tone(lr) is Tone.NOTE
            given = step.ask.accept[-1]
            same = taught.judge(step, given).kind is Kind.RIGHT  # the same deal: the learner's own move is played
            update = lr.answer(given)
            assert update is not None and lr.runner.table.deal.history[-1] == (given if same else step.ask.accept[0])
            assert stage(lr) is Stage.ANSWERED and tone(lr) is Tone.GOOD
        assert lr.next()
    assert lr.finished and stage(lr) is Stage.FINISHED
    assert lr.progress.of(ident).done
    assert [c.command for c in lr.controls()][-2:] == ["following", "contents"]


def walk_question(lr: LessonRunner) -> None:
    """A question about the table: every wrong choice told on its own, nothing played; then
    the hint and the right choice (the engine's answer)."""
    question, at = lr.current.question, lr.history
    assert question is not None and stage(lr) is Stage.ASKING and "next" not in commands(lr)
    assert lr.runner.asked() is None  # the table asks the learner nothing meanwhile
    assert not lr.next() and lr.feedback is not None and lr.feedback.text == t("lesson.ui.answer_choice")
    choices = lr.choices()
    assert 2 <= len(choices) <= 4 and question.answer() in choices
    told = set()
    for i, choice in enumerate(choices):
        if choice == question.answer():
            continue
        assert lr.choose(i)
        assert stage(lr) is Stage.WRONG and tone(lr) is Tone.BAD and lr.history == at
        assert commands(lr) == ["retry", "skip"]
        assert lr.feedback is not None
        told.add(lr.feedback.text)
        lr.retry()
        assert stage(lr) is Stage.ASKING
    assert len(told) == len(choices) - 1, "two wrong choices told alike"
    assert not lr.choose(len(choices))
    assert lr.hint() and tone(lr) is Tone.NOTE
    assert lr.choose(choices.index(question.answer()))
    assert stage(lr) is Stage.ANSWERED and tone(lr) is Tone.GOOD and lr.choices() == ()


def test_a_skipped_question_tells_its_answer_and_the_main_line_goes_on(tmp_path: Path) -> None:
    lr, step = at_the_first_checkpoint("auction_hold", tmp_path)
    assert step.ask is not None
    assert lr.next(skipped=True)
    assert tone(lr) is Tone.QUIET
    lr.settle()
    assert lr.history >= step.at + 1 and lr.runner.table.deal.history[step.at] == step.ask.accept[0]


def test_an_illegal_move_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    lr = runner_for("tricks_follow", tmp_path)
    while lr.current.ask is None:
        lr.next()
        lr.settle()
    ask = asked(lr)
    assert ask.view.decision is not None
    illegal = next(a for a in (PlayCard(ask.seat, c) for c in ask.view.hand) if a not in ask.view.decision.actions)
    before = (lr.stage, lr.history)
    with pytest.raises(ViraError):
        lr.answer(illegal)
    assert (lr.stage, lr.history) == before


def test_after_the_lesson_the_deal_is_played_on_against_the_bots(tmp_path: Path) -> None:
    lr = runner_for("auction_open", tmp_path)
    answer_rightly_to_the_end(lr)
    if lr.runner.table.deal.is_over:
        pytest.skip("this lesson's deal ends with its last step")
    assert Control("play_on") in lr.controls()
    lr.play_on()
    assert stage(lr) is Stage.FREE
    for _ in range(400):
        lr.settle()
        if lr.runner.table.deal.is_over:
            break
        ask = asked(lr)
        assert ask.view.decision is not None
        decision = ask.view.decision
        if decision.actions:
            lr.answer(decision.actions[0])
        else:
            assert decision.choice is not None
            lr.answer(decision.choice.make(list(decision.choice.candidates)[: decision.choice.min_count]))
    assert lr.runner.table.deal.is_over


def test_while_the_main_line_plays_on_the_runner_says_when_it_moves_next(tmp_path: Path) -> None:
    """A window sleeps until the runner's next move: the main line played on to a step must
    say when it moves (a window that slept until input stalled the lesson)."""
    ident, index = next(
        (i, n) for i in ALL for n, s in enumerate(lesson(i).steps[1:], 1) if s.at > lesson(i).steps[n - 1].at + 1
    )
    lr = LessonRunner(lesson(ident), Progress(tmp_path / "tutorial.json"), pause=0.45)
    lr.start()
    now = 0.0
    while lr.step < index:
        lr.poll(now)
        if lr.current.ask is not None and stage(lr) is Stage.ASKING:
            lr.answer(lr.current.ask.accept[0])
        lr.next()
        now += 1.0
    assert stage(lr) is Stage.PLAYING_TO
    moves = 0
    while stage(lr) is Stage.PLAYING_TO:
        wait = lr.runner.due_in(now)
        assert wait is not None and 0 <= wait <= 0.45 + 1e-9  # the pause, to float rounding
        now += wait
        before = lr.history
        lr.poll(now)
        moves += lr.history - before
    assert moves >= 2 and lr.history == lr.current.at


def test_a_lesson_may_open_with_a_given_pulla_and_its_payments_go_in_before_the_lift(tmp_path: Path) -> None:
    """laggard_pulla opens with an empty pulla (its ``pulla: 0``): the gök's låggard penalty is
    paid in before the gök lifts, so no åla om is made and the pulla ends empty again."""
    lr = runner_for("laggard_pulla", tmp_path)
    ledger = lr.runner.table.session.ledger
    assert lr.lesson.pulla == 0 and ledger.pulla_bets() == 0
    answer_rightly_to_the_end(lr)
    assert lr.runner.table.deal.is_over and ledger.pulla_bets() == 0
    # the learner's penalty bet in, Anna's lift out: no åla om for anyone
    assert ledger.accounts == {"Anna": 8, "Bertil": 0, lr.learner: -8}


@pytest.mark.parametrize("pulla", [-1, 61, "3", 2.5])
def test_a_lesson_pulla_out_of_range_is_one_clear_message(pulla: object) -> None:
    from vira_desktop.session.record import parse_yaml
    from vira_desktop.tutorial.lesson import PACKAGE, LessonError, read_lesson

    data = parse_yaml((PACKAGE / "laggard_pulla.yaml").read_text(encoding="utf-8"))
    data["pulla"] = pulla
    with pytest.raises(LessonError, match="pulla: the bets in the pulla as the lesson opens"):
        read_lesson(data)


def test_the_lessons_own_play_goes_briskly_unless_the_learner_watches(tmp_path: Path) -> None:
    """The main line played to a step and a wrong answer's play-out are brisk (a window plays
    them fast); the learner's own turn is not; W (watch) gives them the table's own speed."""
    lr = runner_for("tricks_follow", tmp_path)
    assert stage(lr) is Stage.READING and not lr.brisk
    assert lr.next()
    assert stage(lr) is Stage.PLAYING_TO and lr.brisk  # on to the next step's position
    while lr.current.ask is None:
        lr.settle()
        assert lr.next()
    lr.settle()
    assert stage(lr) is Stage.ASKING and not lr.brisk
    lr.answer(a_wrong_answer(lr, random.Random(1)))
    lr.show()
    assert stage(lr) is Stage.PLAYING_OUT and lr.brisk
    assert lr.watch() and not lr.brisk
    assert not lr.watch() and lr.brisk


def test_coming_back_to_a_question_answered_right_to_try_another_costs_no_star(tmp_path: Path) -> None:
    lr, step = at_the_first_checkpoint("auction_hold", tmp_path)
    assert step.ask is not None
    lr.answer(step.ask.accept[0])
    assert lr.next()
    lr.settle()
    assert lr.back()
    lr.settle()
    lr.answer(a_wrong_answer(lr, random.Random(4)))  # exploring: the first answer was right
    assert stage(lr) is Stage.WRONG
    assert lr.progress.of("auction_hold").wrong == 0


def test_two_wrong_answers_to_one_question_cost_one_star_and_a_replay_keeps_the_best(tmp_path: Path) -> None:
    """The stars' rule as the lesson card tells it: one less for each question whose first
    answer was wrong, however many wrong tries follow; and a lesson played again keeps the
    best try's stars (a playtest lost three stars to a second, worse try)."""
    from vira_desktop.tutorial.progress import Progress

    progress = Progress(tmp_path / "tutorial.json")
    progress.step_done("tricks_follow", 0, 1)
    assert progress.of("tricks_follow").stars == 3
    progress.replay("tricks_follow")
    progress.wrong_answer("tricks_follow")
    progress.wrong_answer("tricks_follow")
    progress.step_done("tricks_follow", 0, 1)
    assert progress.of("tricks_follow").stars == 3  # the first try's three stay
    assert Progress(tmp_path / "tutorial.json").of("tricks_follow").stars == 3
    fresh = Progress(tmp_path / "other.json")
    fresh.wrong_answer("x")
    fresh.step_done("x", 0, 1)
    assert fresh.of("x").stars == 2


def test_a_second_wrong_try_at_the_same_question_costs_no_second_star(tmp_path: Path) -> None:
    lr, step = at_the_first_checkpoint("auction_hold", tmp_path)
    assert step.ask is not None
    lr.answer(a_wrong_answer(lr, random.Random(4)))
    lr.retry()  # Try again
    lr.settle()
    lr.answer(a_wrong_answer(lr, random.Random(5)))
    assert stage(lr) is Stage.WRONG
    assert lr.progress.of("auction_hold").wrong == 1


def test_an_answer_as_good_as_the_lessons_may_be_tried_again_as_the_lesson_answers(tmp_path: Path) -> None:
    """The lesson goes on with its own answer after one as good: Try again brings the question
    back, and the lesson's own answer is then right, costing no star."""
    lr = runner_for("buying_trump", tmp_path)
    while lr.current.ask is None or "buy" not in lr.current.ask.accept[0].text:
        if stage(lr) is Stage.ASKING:
            assert lr.current.ask is not None
            lr.answer(lr.current.ask.accept[0])
        assert lr.next()
        lr.settle()
    step = lr.current.ask
    assert step is not None
    lr.answer(step.accept[-1])  # buy four, not five: as good
    assert stage(lr) is Stage.ANSWERED and "retry" in commands(lr) and "next" in commands(lr)
    lr.retry()
    assert stage(lr) is Stage.ASKING
    lr.answer(step.accept[0])
    assert stage(lr) is Stage.ANSWERED and "retry" not in commands(lr)
    assert lr.progress.of("buying_trump").wrong == 0


def test_the_finished_lesson_does_not_repeat_its_last_steps_words(tmp_path: Path) -> None:
    lr = runner_for("buying_trump", tmp_path)  # its last step is a "your move", praised when answered
    answer_rightly_to_the_end(lr)
    assert stage(lr) is Stage.FINISHED and lr.feedback is None


def test_a_refused_move_is_said_on_the_lessons_card_and_keeps_what_was_said_before(tmp_path: Path) -> None:
    lr, _ = at_the_first_checkpoint("tricks_follow", tmp_path)
    lr.answer(a_wrong_answer(lr, random.Random(1)))
    told = lr.feedback
    assert told is not None and stage(lr) is Stage.WRONG
    lr.refused("must follow suit in clubs")
    lr.refused("must follow suit in clubs")  # twice: what was said before is still the wrong answer's words
    assert lr.feedback is not None and lr.feedback.text == "Must follow suit in clubs."
    assert lr.feedback.tone is Tone.BAD and lr.feedback.more == told.text and stage(lr) is Stage.WRONG


def test_a_play_out_says_when_the_bot_playing_on_for_the_learner_repurchased() -> None:
    """A playtest chose clubs in vingel 6 and was told its answer cost a bet, where the bot
    playing on for it had made a repurchase the lesson's line does not make."""
    from tempfile import TemporaryDirectory

    from vira_desktop.rules.actions import parse_action

    with TemporaryDirectory() as folder:
        lr = runner_for("vingel_6", Path(folder))
        while lr.current.ask is None or lr.current.at != 5:  # the trump's checkpoint
            lr.next(skipped=lr.current.asks)
            lr.settle()
        assert lr.answer(parse_action("trump C", lr.lesson.you)) is None and lr.stage is Stage.WRONG
        lr.show()
        lr.settle()
        result = lr.runner.table.deal.result
        assert result is not None and lr.feedback is not None
        said = t("lesson.ui.bots_repurchased") in lr.feedback.text
        assert said == (result.repurchase and result.declarer == lr.lesson.you)
