"""The tutorial: lessons are data checked against the engine and the normal bot, progress
survives a kill, and lessons of each kind of answer are gone through in the window, forward
and back, each checkpoint answered wrongly and rightly by real input events (every lesson
is walked without a window in test_lesson_runner.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pygame
import pytest

from tests.screens import runner_of, table_of
from tests.test_gui import card_point, click, key, make_app, run
from tests.test_lesson_runner import wrong_answer
from vira_desktop.ai import make_bot
from vira_desktop.i18n import LANGUAGES, configure, t
from vira_desktop.rules.actions import Action, Bid, Pass, PlayCard
from vira_desktop.rules.cards import Card
from vira_desktop.scenes.app import App
from vira_desktop.scenes.table.input import Command
from vira_desktop.scenes.table.lesson import LessonScene
from vira_desktop.scenes.tutorial import TutorialScene
from vira_desktop.session.record import check_result, replay
from vira_desktop.tutorial.lesson import CHAPTERS, PACKAGE, Lesson, LessonError, chapters, lesson, read_lesson
from vira_desktop.tutorial.progress import Progress

ALL = [x for c in chapters() for x in c.lessons]


# ---------------------------------------------------------------------- lessons as data
def test_the_contents_map_has_every_chapter_in_the_bid_tables_order_and_every_lesson_file() -> None:
    assert tuple(c.id for c in chapters()) == CHAPTERS
    maps = ("contents.yaml", "solver.yaml")  # the contents, and the solver's word on the card checkpoints
    files = {p.name[:-5] for p in PACKAGE.iterdir() if p.name.endswith(".yaml") and p.name not in maps}
    assert set(ALL) == files, "a lesson file not in the contents map, or a listed lesson without its file"
    assert len(ALL) == len(set(ALL))


@pytest.mark.parametrize("ident", ALL)
def test_every_prepared_deal_replays_to_its_stated_result(ident: str) -> None:
    taught = lesson(ident)
    deal = replay(taught.record)
    assert deal.is_over and taught.record.result is not None
    assert check_result(taught.record, deal) is None


@pytest.mark.parametrize("ident", ALL)
def test_every_accepted_answer_is_legal_and_the_normal_bot_agrees_or_is_answered(ident: str) -> None:
    """At each checkpoint, the accepted answers are legal there, the record's own answer is
    among them, and the normal bot's choice is accepted or has its own explanation."""
    taught = lesson(ident)
    for n, step in enumerate(taught.steps):
        if step.ask is None:
            continue
        deal = taught.position(step.at)
        assert deal.decision().seat == taught.you
        for answer in step.ask.accept:
            deal.check(answer)
        assert taught.actions[step.at] in step.ask.accept
        bot = make_bot("normal", 1).choose(deal.view(taught.you)).action
        assert bot is not None
        verdict = taught.judge(step, bot, deal)
        assert verdict.right or verdict.own, f"step {n + 1}: the normal bot plays {bot.text}, with no text of its own"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_lesson_text_is_in_every_language(language: str) -> None:
    configure(language)
    try:
        for ident in ALL:
            for key in lesson(ident).texts():
                assert t(f"lesson.{key}").strip()
        for chapter in chapters():
            assert t(f"lesson.{chapter.title}").strip()
    finally:
        configure("en")


def test_a_faulty_lesson_is_one_clear_message() -> None:
    good = lesson("auction_hold")
    data = {
        "lesson": 1,
        "id": "x",
        "chapter": "auction",
        "title": "auction_hold.title",
        "teaches": [3],
        "you": "Anna",
        "record": {"vira": 1, "players": list(good.record.names), "forehand": "Anna", "highest_suit": "S"},
        "steps": [],
    }
    record = data["record"]
    assert isinstance(record, dict)
    record["hands"] = {n: [str(c) for c in good.record.deal.dealt[i]] for i, n in enumerate(good.record.names)}
    record["stock"] = [str(c) for c in good.record.deal.initial_stock]
    record["actions"] = [{"Anna": "begär"}, {"Bertil": "7-spel"}, {"Cecilia": "pass"}]
    data["steps"] = [{"at": 3, "say": "auction_hold.ask", "ask": {"accept": ["vira in forehand"]}}]
    with pytest.raises(LessonError, match="the record's next action is not the learner's"):
        read_lesson(data)
    record["actions"].append({"Anna": "7-spel in forehand"})
    with pytest.raises(LessonError, match="answer 'vira in forehand'"):
        read_lesson(data)
    data["steps"] = [{"at": 3, "say": "a.b", "ask": {"accept": [], "hint": "a.h", "right": "a.r", "wrong": "a.w"}}]
    data["speps"] = []
    with pytest.raises(LessonError, match=r"unknown field speps \(did you mean steps\?\)"):
        read_lesson(data)
    del data["speps"]
    with pytest.raises(LessonError, match="the main line plays the deal to its end"):
        read_lesson(data)
    record["actions"] = [{good.record.names[s]: text} for s, text in ((a.seat, a.text) for a in good.actions)]
    assert read_lesson(data).checkpoints == 1


# ---------------------------------------------------------------------- progress
def test_progress_is_saved_at_every_step_and_stars_follow_wrong_answers(tmp_path: Path) -> None:
    path = tmp_path / "tutorial.json"
    p = Progress(path)
    p.step_done("auction_hold", 0, 3)
    assert Progress(path).of("auction_hold").step == 1
    p.wrong_answer("auction_hold")
    p.step_done("auction_hold", 1, 3)
    p.step_done("auction_hold", 2, 3)
    again = Progress(path).of("auction_hold")
    assert again.done and again.stars == 2
    p.reset(["auction_hold"])
    assert not Progress(path).of("auction_hold").done
    path.write_text("{broken", encoding="utf-8")
    damaged = Progress(path)
    assert damaged.damaged and damaged.lessons == {} and (tmp_path / "tutorial.json.damaged-1").exists()


KILLED = textwrap.dedent(
    """
    import os, sys, time
    import pygame
    from tests.test_gui import run
    from vira_desktop.scenes.app import App
    from vira_desktop.scenes.table.input import Command
    app = App()
    app.open("lesson", lesson_id="deal_suits")
    scene = app.stack.top
    for _ in range(2):  # two steps done, then stopped dead in the third
        scene.command(Command("lesson_next"))
        run(app, 3)
    print("ready", flush=True)
    while True:
        run(app, 1)
        time.sleep(0.01)
    """
)


def test_a_kill_during_a_lesson_keeps_the_progress_up_to_the_last_finished_step(tmp_path: Path) -> None:
    env = dict(os.environ, VIRA_CONFIG_DIR=str(tmp_path), VIRA_DATA_DIR=str(tmp_path), SDL_VIDEODRIVER="dummy")
    env["SDL_AUDIODRIVER"] = "dummy"
    root = Path(__file__).resolve().parents[1]
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED], cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.strip() == "ready", child.stderr.read() if child.stderr else ""
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    kept = Progress(tmp_path / "tutorial.json").of("deal_suits")
    assert kept.step == 2 and not kept.done


# ---------------------------------------------------------------------- in the window
def lesson_scene(app: App) -> LessonScene:
    top = app.stack.top
    assert isinstance(top, LessonScene)
    return top


def settle(app: App, scene: LessonScene, limit: int = 2000) -> None:
    """Run frames until the main line has reached the step's position and nothing moves."""
    for _ in range(limit):
        run(app, 1)
        if not scene.view.busy and not scene.lesson_runner.behind and not runner_of(scene).master.bot_thinking:
            run(app, 2)
            return
    raise AssertionError("the lesson never came to rest")


def open_lesson(app: App, ident: str) -> LessonScene:
    """A lesson opened and come to rest at its first step."""
    app.open("lesson", lesson_id=ident)
    scene = lesson_scene(app)
    settle(app, scene)
    return scene


def press_button(app: App, scene: LessonScene, what: object) -> None:
    wanted = Command(what) if isinstance(what, str) else what
    button = next(b for b, w in scene.play.surface.panel.buttons.items() if w == wanted)
    click(app, button.rect.center)


def give(app: App, scene: LessonScene, answer: Action) -> None:
    """Answer on the table as a player would: a bid cell clicked twice, P, a card clicked,
    cards clicked and Enter, or the panel button of the action."""
    if isinstance(answer, Bid):
        cell = scene.play.bidding.grid.cell_of(answer)
        assert cell is not None
        point = scene.play.bidding.grid.rect_of(cell).center
        click(app, point)
        click(app, point)
    elif isinstance(answer, Pass):
        key(app, pygame.K_p)
    elif isinstance(answer, PlayCard):
        click(app, card_point(scene, answer.card))
    elif hasattr(answer, "cards"):
        for card in answer.cards:
            click(app, card_point(scene, card))
        key(app, pygame.K_RETURN)
    else:
        press_button(app, scene, answer)


def a_wrong_answer(scene: LessonScene, rng: random.Random) -> Action:
    ask = scene.play.viewer_ask()
    assert ask is not None and scene.current.ask is not None
    return wrong_answer(scene.lesson_runner.lesson, scene.current, ask, rng)


# In the window, a few lessons of different kinds of answer (a bid in the grid, cards chosen and
# Enter, a card played): every lesson's every step is walked without a window in
# tests/test_lesson_runner.py.
WINDOW_WALKS = ["auction_hold", "gask_2", "buying_repurchase", "tricks_follow"]


@pytest.mark.parametrize("ident", WINDOW_WALKS)
def test_in_the_window_every_step_forward_and_back_each_checkpoint_wrong_then_right(
    ident: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, monkeypatch)
    app.open("tutorial")
    run(app, 2)
    assert isinstance(app.stack.top, TutorialScene)
    app.open("lesson", lesson_id=ident)
    scene = lesson_scene(app)
    taught = scene.lesson
    rng = random.Random(3)
    for n, step in enumerate(taught.steps):
        settle(app, scene)
        assert scene.step == n
        if n > 0:  # back a step and forward again: the same position each time
            press_button(app, scene, "lesson_back")
            settle(app, scene)
            assert scene.step == n - 1 and len(table_of(scene).deal.history) == taught.steps[n - 1].at
            if taught.steps[n - 1].ask is not None:
                press_button(app, scene, "lesson_skip")
            else:
                key(app, pygame.K_RETURN)
            settle(app, scene)
            assert scene.step == n
        assert len(table_of(scene).deal.history) == step.at
        if step.ask is not None:
            wrong = a_wrong_answer(scene, rng)
            give(app, scene, wrong)
            assert scene.lesson_runner.feedback is not None and scene.lesson_runner.wrong == wrong, wrong.text
            assert len(table_of(scene).deal.history) == step.at  # nothing was played
            press_button(app, scene, "lesson_show")  # the losing line, played to its end
            deadline = time.monotonic() + 300  # the bots think in the worker: wait by the clock
            while not (table_of(scene).deal.is_over and not scene.view.busy) and time.monotonic() < deadline:
                run(app, 1)
                time.sleep(0.002)
            assert table_of(scene).deal.is_over
            press_button(app, scene, "lesson_retry")
            settle(app, scene)
            assert len(table_of(scene).deal.history) == step.at and scene.step == n
            give(app, scene, step.ask.accept[-1])
            assert scene.lesson_runner.answered, scene.lesson_runner.feedback
        press_button(app, scene, "lesson_next")
    assert scene.lesson_runner.finished
    assert scene.progress.of(ident).done
    press_button(app, scene, "lesson_contents")
    assert isinstance(app.stack.top, TutorialScene)
    app.stack.clear()


def test_the_menu_opens_the_contents_map_and_a_lesson_resumes_at_its_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, monkeypatch)
    app.to_menu()
    run(app, 2)
    key(app, pygame.K_DOWN)  # Continue is off: from New game to Tutorial
    key(app, pygame.K_RETURN)
    contents = app.stack.top
    assert isinstance(contents, TutorialScene) and contents.chapter == 0
    key(app, pygame.K_RETURN)  # into the chapter's lessons
    key(app, pygame.K_RETURN)  # the first lesson
    scene = lesson_scene(app)
    settle(app, scene)
    key(app, pygame.K_RETURN)  # Enter: the next step
    settle(app, scene)
    assert scene.step == 1
    key(app, pygame.K_ESCAPE)  # back to the contents map
    assert isinstance(app.stack.top, TutorialScene)
    app.open("lesson", lesson_id=ALL[0])  # the first lesson of the contents
    assert lesson_scene(app).step == 1
    app.stack.clear()


def test_the_lessons_own_play_goes_briskly_in_the_window_and_w_watches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the lesson's deal plays on by itself the table runs at the brisk factor, whatever
    the speed setting; W gives it the setting's own speed, and W again makes it brisk."""
    from vira_desktop.scenes.table.view import BRISK, SPEEDS

    app = make_app(tmp_path, monkeypatch)
    open_lesson(app, "tricks_follow")
    scene = lesson_scene(app)
    scene.view.speed_name = "normal"
    scene.command(Command("lesson_next"))
    run(app, 1)
    assert scene.lesson_runner.behind and scene.view.factor() == BRISK
    key(app, pygame.K_w)
    assert scene.view.factor() == SPEEDS["normal"]
    key(app, pygame.K_w)
    assert scene.view.factor() == BRISK
    app.stack.clear()


def test_a_question_is_answered_by_a_click_on_a_choice_and_by_its_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question about the table in the window: its choices are buttons in the lesson's card;
    a wrong one clicked is told and the question stands, the right one (key 1–4) is praised."""
    from vira_desktop.tutorial.runner import Stage

    app = make_app(tmp_path, monkeypatch)
    scene = open_lesson(app, "deal_rotation")

    def now() -> Stage:  # a call: a check after a click is not narrowed by the one before
        return scene.stage

    press_button(app, scene, "lesson_next")
    settle(app, scene)
    question = scene.current.question
    assert question is not None and now() is Stage.ASKING
    choices = scene.lesson_runner.choices()
    run(app, 2)
    panel = scene.play.surface.panel
    buttons = {w.arg: b for b, w in panel.buttons.items() if isinstance(w, Command) and w.name == "lesson_choose"}
    assert sorted(buttons) == list(range(len(choices)))
    card = pygame.Rect(236, scene.card.box_y(), 498, scene.card.box_h())
    assert all(card.contains(b.rect) for b in buttons.values())  # inside the lesson's card
    wrong = next(i for i, c in enumerate(choices) if c != question.answer())
    click(app, buttons[wrong].rect.center)  # a real mouse click on the button
    assert now() is Stage.WRONG and scene.lesson_runner.feedback is not None
    assert scene.lesson_runner.feedback.text.startswith(f"{choices[wrong].names[0]}:")
    right = choices.index(question.answer())
    key(app, pygame.K_1 + right)
    assert now() is Stage.ANSWERED and scene.lesson_runner.answered
    run(app, 2)
    assert not any(isinstance(w, Command) and w.name == "lesson_choose" for w in panel.buttons.values())
    app.stack.clear()


def test_the_bid_table_from_a_lesson_marks_its_rows_and_opens_the_lesson_of_a_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vira_desktop.scenes.overlays import BidTableScene

    app = make_app(tmp_path, monkeypatch)
    scene = open_lesson(app, "auction_hold")
    assert not scene.runner.coach_bids  # the learner judges the bids: the coach's colours stay off
    key(app, pygame.K_b)
    sheet = app.stack.top
    assert isinstance(sheet, BidTableScene)
    assert sheet.rows == (3,) and sheet.chosen == 3
    assert sheet._marks()[-1] == "sheet.bids.mark_lesson"  # the legend names the lesson's rows here only
    assert sheet.standing == 3 and 3 in sheet.legal and 1 not in sheet.legal  # Bertil's 7-spel stands
    click(app, BidTableScene.rect_of(1).center)  # begär: chosen (a click never leaves the lesson)
    assert app.stack.top is sheet and sheet.chosen == 1
    key(app, pygame.K_RETURN)  # Enter opens the lesson that teaches it: "auction_open"
    top = app.stack.top
    assert isinstance(top, LessonScene) and top.lesson.id == "auction_open"
    app.stack.clear()


def test_a_glossary_word_in_a_lesson_shows_its_meaning_under_the_mouse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, monkeypatch)
    scene = open_lesson(app, "auction_open")
    key(app, pygame.K_RETURN)  # step 2 names forehand and begär
    run(app, 3)
    found = {slug: rect for rect, slug in scene.card.terms}
    assert {"forhand", "begar"} <= set(found)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=found["begar"].center, rel=(0, 0), buttons=(0, 0, 0)))
    run(app, 2)
    assert scene.card.tip == "begar"
    app.stack.clear()


def test_the_learner_looks_at_its_discards_by_d_or_the_mouse_until_the_first_lead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'A player may always look at his own discards before the first lead': D, or the mouse
    on the pile, shows them face up (gask_1_low says so); after the first lead they stay hidden."""
    app = make_app(tmp_path, monkeypatch)
    scene = open_lesson(app, "gask_1_low")
    taught = scene.lesson
    at = next(i for i, s in enumerate(taught.steps) if s.say == "gask_1_low.discards")
    while scene.step < at:
        scene.command(Command("lesson_skip" if scene.current.asks else "lesson_next"))
        settle(app, scene)
    state = scene.view.state
    assert state is not None and scene.view.own_discards_shown(state) == ()  # face down until asked
    key(app, pygame.K_d)
    shown = scene.view.own_discards_shown(state)
    assert len(shown) == 14 and {Card.parse("QD"), Card.parse("9H")} <= set(shown)
    key(app, pygame.K_d)
    assert scene.view.own_discards_shown(state) == ()
    x, y = scene.view.place_of(state.viewer_name).aside
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + 20, y + 40), rel=(0, 0), buttons=(0, 0, 0)))
    run(app, 2)
    assert len(scene.view.own_discards_shown(state)) == 14
    key(app, pygame.K_d)
    scene.command(Command("lesson_next"))  # the play: the first lead is made
    settle(app, scene)
    state = scene.view.state
    assert state is not None and state.view.tricks
    assert scene.view.own_discards_shown(state) == () and not scene.view.peek
    app.stack.clear()


def test_practice_deals_a_hand_for_the_chapter_off_the_frame_loop_and_esc_goes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vira_desktop.scenes.table.lesson import PracticeScene

    app = make_app(tmp_path, monkeypatch)
    app.open("tutorial")
    contents = app.stack.top
    assert isinstance(contents, TutorialScene)
    for _ in range(7):  # to the gask chapter
        key(app, pygame.K_DOWN)
    key(app, pygame.K_p)
    assert contents.dealing == "gask"
    deadline = time.monotonic() + 120
    while not isinstance(app.stack.top, PracticeScene) and time.monotonic() < deadline:
        run(app, 1)  # the frame loop runs on while the hand is dealt
        time.sleep(0.01)
    practice = app.stack.top
    assert isinstance(practice, PracticeScene) and practice.game is not None and practice.game.startswith("gask")
    assert table_of(practice).seats[0].human and table_of(practice).session.seats[0] == table_of(practice).seats[0].name
    key(app, pygame.K_ESCAPE)
    back = app.stack.top
    assert isinstance(back, TutorialScene) and back.chapter == 7  # the gask chapter, where practice began
    app.stack.clear()


def test_every_row_of_the_bid_table_is_taught_with_a_checkpoint_and_there_is_enough_to_learn() -> None:
    taught = {row for ident in ALL for row in lesson(ident).teaches if lesson(ident).checkpoints}
    assert taught == set(range(1, 41)), f"rows no lesson checks: {sorted(set(range(1, 41)) - taught)}"
    assert len(ALL) >= 40
    assert sum(lesson(ident).checkpoints for ident in ALL) >= 60


def played_out(taught: Lesson) -> set[str]:
    """The end of a wrong answer's play-out, as long as it comes: both results (the lesson's
    own stands in for the play-out's) with what each came to, lucky or costly."""
    from vira_desktop.session.describe import describe_result
    from vira_desktop.session.words import bets_and_pins

    result = taught.result
    assert result is not None
    names = taught.record.names
    net = bets_and_pins(result.net_pins(taught.you) or -88, True)
    came = [t(f"lesson.ui.{k}_came", result=describe_result(result, names)[0], net=net) for k in ("yours", "lesson")]
    return {" ".join([*came, t("lesson.ui.lucky")]), " ".join([*came, t("lesson.ui.lost", cost=net)])}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_lesson_text_fits_its_card_in_every_language(language: str) -> None:
    """One idea a screen: a step's words and its row line never run past the lesson's card
    (the smallest it is drawn), nor does what the learner is told of any answer, at any
    checkpoint, for which the card may grow by its few lines."""
    from tests.test_judge import answers
    from vira_desktop.scenes.table.lesson_card import BOX_H, CHOICE_GAP, GROWS, TEXT_PT, TEXT_W, TOP_H, text_lines
    from vira_desktop.scenes.theme import font, wrap_text
    from vira_desktop.tutorial.telling import question_label, tell, tell_choice

    pygame.font.init()
    font.cache_clear()  # fonts made under an earlier pygame.init are no longer valid
    room = text_lines(min(BOX_H, TOP_H))
    configure(language)
    try:
        long = []
        for ident in ALL:
            taught = lesson(ident)
            rng = random.Random(ident)
            for n, step in enumerate(taught.steps, 1):
                if len(wrap_text(t(f"lesson.{step.say}"), TEXT_PT, False, TEXT_W)) + bool(step.rows) > room:
                    long.append(f"{ident} step {n}")
                if step.question is not None:  # every choice's words, and its button's
                    you = taught.record.names[taught.you]
                    choices = step.question.choices()
                    told = {tell_choice(step.question.judge(c), you) for c in choices}
                    told.add(t(f"lesson.{step.question.hint}"))
                    long += [
                        f"{ident} step {n}: {x}"
                        for x in told
                        if len(wrap_text(x, TEXT_PT, True, TEXT_W)) > room + GROWS
                    ]
                    width = (TEXT_W - CHOICE_GAP) // 2 - 16
                    labels = [f"4. {question_label(c, step.question.kind, you)}" for c in choices]
                    long += [f"{ident} step {n}: {x}" for x in labels if font(13, True).size(x)[0] > width]
                if step.ask is None:
                    continue
                deal = taught.position(step.at)
                told = {tell(taught.judge(step, a, deal)) for a in answers(deal, step, rng)}
                told.add(t(f"lesson.{step.ask.hint}"))
                told |= played_out(taught)
                fits = room + GROWS
                long += [f"{ident} step {n}: {x}" for x in told if len(wrap_text(x, TEXT_PT, True, TEXT_W)) > fits]
        assert long == []
    finally:
        configure("en")


def test_enter_on_a_finished_lesson_opens_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vira_desktop.tutorial.runner import Stage, next_lesson

    app = make_app(tmp_path, monkeypatch)
    scene = open_lesson(app, "deal_suits")  # reading steps only: Enter walks it to its end
    for _ in range(len(scene.lesson.steps) * 40):
        if scene.stage is Stage.FINISHED:
            break
        key(app, pygame.K_RETURN, frames=6)
    assert scene.stage is Stage.FINISHED
    key(app, pygame.K_RETURN)
    top = app.stack.top
    assert isinstance(top, LessonScene) and top.lesson.id == next_lesson("deal_suits")
    app.stack.clear()
