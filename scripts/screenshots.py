"""Take the documentation's screenshots of the table: run under a display (Xvfb), e.g.

    Xvfb :99 -screen 0 1280x800x24 & DISPLAY=:99 python scripts/screenshots.py docs/screenshots
    DISPLAY=:99 python scripts/screenshots.py docs/screenshots/languages --languages
    DISPLAY=:99 python scripts/screenshots.py docs/screenshots/tutorial --tutorial en
    DISPLAY=:99 python scripts/screenshots.py docs/screenshots/coach --coach
    DISPLAY=:99 python scripts/screenshots.py /tmp/shots --analysis tests/records/x.yaml [--in sv] [--tab N]
    DISPLAY=:99 python scripts/screenshots.py docs/screenshots/friends --friends
    DISPLAY=:99 python scripts/screenshots.py docs/screenshots/friends --forms
    DISPLAY=:99 python scripts/screenshots.py docs/screenshots/tutorial --lesson vingel_6 1 \
        [--answer "7-spel in suit"] [--in en]
    SDL_VIDEODRIVER=dummy python scripts/screenshots.py /tmp/shots --history

Each moment is reached by posting real key events to the window, as a player would, on
fixed seeds; the picture is the window's 1280×800 surface. Window sizes (1024×640, full
screen) are SDL's scaling of that surface: take those with a screen grab instead.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pygame_gui

from vira_desktop.i18n import t
from vira_desktop.rules.actions import parse_action
from vira_desktop.rules.decision import Phase
from vira_desktop.rules.errors import ViraError
from vira_desktop.scenes.app import App
from vira_desktop.scenes.menu import MenuScene
from vira_desktop.scenes.table import TableScene
from vira_desktop.scenes.table.input import Command
from vira_desktop.scenes.table.lesson import LessonScene
from vira_desktop.session.record import load_record
from vira_desktop.session.runner import Command as TableCommand
from vira_desktop.session.runner import TableRunner
from vira_desktop.session.table import SeatConfig, Table
from vira_desktop.tutorial.lesson import Lesson, Step, lesson

ROOT = Path(__file__).resolve().parents[1]
SEED = int(os.environ.get("VIRA_SHOTS_SEED", "2"))  # the friends table's deals (Bertil plays the first)


def step(app: App, frames: int = 3) -> None:
    for _ in range(frames):
        app.step(1 / 60)
        time.sleep(1 / 240)


def key(app: App, k: int, frames: int = 3) -> None:
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=k, mod=0, unicode="", scancode=0))
    step(app, frames)


def table_of(scene: object) -> Table:
    """The table behind a scene's port (a tool may look behind it to stage a picture)."""
    runner = getattr(scene, "runner", None)
    assert isinstance(runner, TableRunner)
    return runner.table


def until(app: App, done: Callable[[], bool], limit_s: float = 60.0, each: Callable[[], None] | None = None) -> None:
    """Frames until ``done`` (``each``: called after every frame)."""
    deadline = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the moment never came")
        step(app, 1)
        if each is not None:
            each()


def scene_of(app: App) -> TableScene:
    top = app.stack.top
    assert isinstance(top, TableScene)
    return top


def human_turn(app: App) -> bool:
    scene = scene_of(app)
    return table_of(scene).deal.is_over or (
        scene.play.viewer_ask() is not None and not scene.view.intro.running and not scene.view.busy
    )


def move(app: App, rng: random.Random) -> None:
    """One legal move by keys: pass or the lowest bid, a card, Enter for a card choice."""
    scene = scene_of(app)
    ask = scene.play.viewer_ask()
    assert ask is not None and ask.view.decision is not None
    decision = ask.view.decision
    before = len(table_of(scene).log)
    if scene.view.shown.cover:
        key(app, pygame.K_RETURN)
        return
    if decision.phase is Phase.AUCTION:
        if table_of(scene).deal.best is not None:
            key(app, pygame.K_p)
        else:  # forehand must open: the lowest bid
            key(app, pygame.K_DOWN)
            key(app, pygame.K_RETURN)
    elif decision.phase is Phase.PLAY:
        for _ in range(14):
            key(app, pygame.K_SPACE)
            if len(table_of(scene).log) > before:
                return
            key(app, pygame.K_RIGHT)
    elif decision.choice is not None and (not decision.actions or rng.random() < 0.5):
        for card in rng.sample(list(decision.choice.candidates), decision.choice.min_count):
            scene.play.moves.use_card(card)
        key(app, pygame.K_RETURN)
        if len(table_of(scene).log) == before:
            key(app, pygame.K_RETURN)
    else:
        key(app, pygame.K_1)


def save(app: App, folder: Path, name: str, frames: int = 2) -> None:
    step(app, frames)
    path = folder / name
    pygame.image.save(app.screen, str(path))
    print(path)


def new_table(app: App, seats: list[SeatConfig], seed: int) -> TableScene:
    app.start_table(Table(seats, seed=seed))
    scene = scene_of(app)
    scene.view.intro.skip()
    return scene


@contextmanager
def fresh_home(language: str | None = None) -> Iterator[None]:
    """A settings and data folder of its own, cards dealt fast, in ``language`` if given."""
    with tempfile.TemporaryDirectory() as home:
        os.environ["VIRA_CONFIG_DIR"] = os.environ["VIRA_DATA_DIR"] = home
        said = f", language: {language}" if language else ""
        (Path(home) / "config.yaml").write_text(f"display: {{animation_speed: fast{said}}}\n", encoding="utf-8")
        yield


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with fresh_home():
        app = App(seed=5)
        rng = random.Random(1)
        you = [SeatConfig("You", True), SeatConfig("Bertil", False), SeatConfig("Cecilia", False)]

        scene = new_table(app, you, seed=8)
        until(app, lambda: human_turn(app) and scene.play.bidding.shown())
        key(app, pygame.K_DOWN)
        key(app, pygame.K_DOWN)
        save(app, folder, "24-auction-grid-keyboard-focus.png")

        while not (table_of(scene).deal.phase is Phase.PLAY and len(table_of(scene).deal.view(0).tricks) >= 4):
            until(app, lambda: human_turn(app))
            if table_of(scene).deal.is_over:
                break
            move(app, rng)
        save(app, folder, "25-bowls-pulla-and-trick-play.png")
        until(app, lambda: human_turn(app))
        if not table_of(scene).deal.is_over:  # the coach at a card: its odds and what they assume
            key(app, pygame.K_h)
            until(app, lambda: not scene.view.busy)
            step(app, 60)
            save(app, folder, "25b-hint-at-a-card.png")

        while not table_of(scene).deal.is_over:
            until(app, lambda: human_turn(app))
            if not table_of(scene).deal.is_over:
                move(app, rng)
        step(app, 20)
        save(app, folder, "26-result-banner.png")
        key(app, pygame.K_a)  # "Could I have won?": worked out in the worker, shown as it comes
        until(app, lambda: type(app.stack.top).__name__ == "AnalysisScene")
        save(app, folder, "26b-analysis.png")
        key(app, pygame.K_ESCAPE)
        ending = next(b for b, what in scene.play.surface.panel.buttons.items() if what == Command("last round"))
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):  # once: the panel says what follows
            pygame.event.post(pygame.event.Event(kind, pos=ending.rect.center, button=1, touch=False, window=None))
        step(app, 6)
        save(app, folder, "26c-last-round-asked.png")

        record = load_record(ROOT / "tests" / "records" / "laid_solo8.yaml")
        app.open("replay", record=record, title="laid_solo8.yaml")
        step(app, 5)
        key(app, pygame.K_END, frames=30)
        save(app, folder, "27-laid-down-hand.png")

        record = load_record(ROOT / "tests" / "records" / "vingel7_highest_turn_again_kodilj.yaml")
        app.open("replay", record=record, title="vingel7_highest_turn_again_kodilj.yaml")
        step(app, 5)
        key(app, pygame.K_END, frames=30)
        key(app, pygame.K_a)  # the record's analysis, for the seat shown (forehand)
        until(app, lambda: type(app.stack.top).__name__ == "AnalysisScene")
        save(app, folder, "27b-replay-analysis.png")
        key(app, pygame.K_ESCAPE)

        four = [*you, SeatConfig("David", False)]
        scene = new_table(app, four, seed=7)

        def third_trick() -> bool:
            return table_of(scene).deal.phase is Phase.PLAY and len(table_of(scene).deal.view(0).tricks) >= 3

        while not third_trick():
            until(app, lambda: human_turn(app) or third_trick())
            if scene.play.viewer_ask() is not None and not third_trick():
                move(app, rng)
        until(app, lambda: not scene.view.busy)
        save(app, folder, "28-four-seats.png", frames=0)  # before a bot plays on

        hot = [SeatConfig("Anna", True), SeatConfig("Bo", True), SeatConfig("Cissi", False)]
        scene = new_table(app, hot, seed=4)
        until(app, lambda: scene.view.shown.cover is not None)
        key(app, pygame.K_RETURN)  # Anna takes the screen
        until(app, lambda: human_turn(app))
        move(app, rng)
        until(app, lambda: scene.view.shown.cover is not None)
        save(app, folder, "29-hot-seat-cover.png")
        app.stack.clear()
        pygame.quit()


OVERLAYS = (("07-score-sheet", pygame.K_s), ("08-bid-table", pygame.K_b), ("09-glossary", pygame.K_g))


def languages(folder: Path) -> None:
    """The same moments in Swedish, English and Finnish: ``{lang}-NN-moment.png``."""
    folder.mkdir(parents=True, exist_ok=True)
    for language in ("sv", "en", "fi"):
        with fresh_home(language):
            one_language(App(seed=5), language, folder)
            pygame.quit()


def one_language(app: App, language: str, folder: Path) -> None:
    app.to_menu()
    save(app, folder, f"{language}-01-menu.png", frames=3)
    key(app, pygame.K_UP)  # a newcomer's menu has Tutorial chosen: New game is above it (Continue is off)
    key(app, pygame.K_RETURN)
    save(app, folder, f"{language}-02-new-game.png", frames=3)
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    save(app, folder, f"{language}-03-settings.png", frames=3)
    key(app, pygame.K_ESCAPE)
    rng = random.Random(1)
    you = [SeatConfig(t("new_game.you"), True), SeatConfig("Bertil", False), SeatConfig("Cecilia", False)]
    scene = new_table(app, you, seed=8)
    bidding = scene.play.bidding
    until(app, lambda: human_turn(app) and bidding.shown() and bool(bidding.grid.advice))  # the coach's colours
    key(app, pygame.K_DOWN)
    save(app, folder, f"{language}-04-auction.png")
    while not (table_of(scene).deal.phase is Phase.PLAY and len(table_of(scene).deal.view(0).tricks) >= 3):
        until(app, lambda: human_turn(app))
        if table_of(scene).deal.is_over:
            break
        move(app, rng)
    save(app, folder, f"{language}-05-trick-play.png")
    while not table_of(scene).deal.is_over:
        until(app, lambda: human_turn(app))
        if not table_of(scene).deal.is_over:
            move(app, rng)
    step(app, 20)
    save(app, folder, f"{language}-06-result.png")
    for name, overlay in OVERLAYS:
        key(app, overlay)
        save(app, folder, f"{language}-{name}.png", frames=3)
        key(app, pygame.K_ESCAPE)
    scene.runner.command(TableCommand.SETTLE)
    app.open("settlement", state=scene.play.table_state())
    save(app, folder, f"{language}-10-settlement.png", frames=3)
    app.stack.clear()


def hover(app: App, pos: tuple[int, int], frames: int = 3) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    step(app, frames)


def coach(folder: Path) -> None:
    """The coach at the auction in each language: the bid grid coloured by its estimates with
    one cell's figures in the panel, then (following the coach's hints) the trump choice and
    the level choice of a passed solo, each choice saying what it pays."""
    folder.mkdir(parents=True, exist_ok=True)
    for language in ("en", "sv", "fi"):
        with fresh_home(language):
            app = App(seed=5)
            app.to_menu()
            coached_auction(app, folder, f"{language}-coach-bid-grid.png", 7, Phase.TRUMP)
            save(app, folder, f"{language}-coach-trump-choice-pays.png", frames=10)
            coached_auction(app, folder, "", 36, Phase.LEVEL)
            save(app, folder, f"{language}-coach-level-choice-pays.png", frames=10)
            app.stack.clear()
            pygame.quit()


def coached_auction(app: App, folder: Path, grid_shot: str, seed: int, phase: Phase) -> None:
    """Bid as the coach hints until the player is asked ``phase`` (the table dealt by
    ``seed`` gives the player the contract); ``grid_shot``: the first coloured grid's name."""
    you = [SeatConfig(t("new_game.you"), True), SeatConfig("Bertil", False), SeatConfig("Cecilia", False)]
    scene = new_table(app, you, seed=seed)

    def auction() -> bool:
        return table_of(scene).deal.phase is Phase.AUCTION

    while auction():
        until(app, lambda: human_turn(app) or not auction())
        if not auction():
            break
        until(app, lambda: bool(scene.play.bidding.grid.advice))
        if grid_shot:  # the grid as the coach colours it, the best cell's figures in the panel
            advice = scene.play.bidding.grid.advice
            hover(app, scene.play.bidding.grid.rect_of(max(advice, key=lambda c: advice[c].outlook.value)).center)
            save(app, folder, grid_shot)
            grid_shot = ""
        key(app, pygame.K_h)
        until(app, lambda: scene.view.shown.message != t("message.thinking"))
        key(app, pygame.K_RETURN if scene.play.bidding.grid.focused_bid() is not None else pygame.K_p)
    until(app, lambda: scene.play.viewer_ask() is not None and table_of(scene).deal.phase is phase)


def lesson_at(app: App, ident: str, number: int) -> LessonScene:
    """Open lesson ``ident`` and go to its step ``number`` (0-based) by Next / Skip step."""
    app.open("lesson", lesson_id=ident)
    scene = app.stack.top
    assert isinstance(scene, LessonScene)
    while scene.step < number:
        until(app, lambda: not scene.view.busy and not scene.lesson_runner.behind)
        scene.command(Command("lesson_skip" if scene.current.asks else "lesson_next"))
    until(app, lambda: not scene.view.busy and not scene.lesson_runner.behind)
    step(app, 10)
    return scene


def tutorial(folder: Path, language: str = "en") -> None:
    """The tutorial's moments: the contents map, lessons, a wrong answer, the bid table."""
    folder.mkdir(parents=True, exist_ok=True)
    with fresh_home(language):
        app = App(seed=5)
        app.to_menu()
        app.open("tutorial", chapter=1)
        save(app, folder, f"{language}-t1-contents-map.png", frames=3)
        lesson_at(app, "auction_hold", 0)
        save(app, folder, f"{language}-t2-auction-precedence.png")
        scene = lesson_at(app, "gask_2", 0)
        while scene.current.ask is None:
            scene.command(Command("lesson_next"))
            until(app, lambda: not scene.view.busy and not scene.lesson_runner.behind)
        step(app, 10)
        key(app, pygame.K_p)  # a pass where the lesson wants the gask
        save(app, folder, f"{language}-t3-gask-wrong-answer.png")
        scene = lesson_at(app, "solo_petite_misar", 1)
        save(app, folder, f"{language}-t4-misere-lesson.png")
        scene = lesson_at(app, "payments_pins", 2)  # "your move": the trump
        scene.command(Command("lesson_skip"))  # the deal is played to its end and paid: tokens fly to the pulla
        until(app, lambda: len(table_of(scene).deal.history) >= len(scene.lesson.actions) - 1, 120)
        scene.view.speed_name = "normal"  # slow enough to catch the tokens in flight
        until(app, lambda: bool(scene.view.flights.flights))
        step(app, 12)
        save(app, folder, f"{language}-t5-payments-pulla-animation.png", frames=0)
        until(app, lambda: not scene.view.busy)
        save(app, folder, f"{language}-t5-payments.png")
        scene = lesson_at(app, "auction_hold", 1)
        key(app, pygame.K_b)
        save(app, folder, f"{language}-t6-bid-table-overlay.png", frames=3)
        key(app, pygame.K_ESCAPE)
        answered(app, "buying_trump", "buy 8D 6D 4C 2C")  # buys four where the lesson buys five
        save(app, folder, f"{language}-t7-right-but-different.png")
        answered(app, "gask_5", "solo 7")  # a lower bid than gask 5: its class's own text
        save(app, folder, f"{language}-t8-wrong-answer-own-explanation.png")
        for n, (ident, name) in enumerate(NEW_LESSONS, 9):
            first = next(i for i, s in enumerate(lesson(ident).steps) if s.ask is not None)
            scene = lesson_at(app, ident, KEY_STEPS.get(ident, first))
            save(app, folder, f"{language}-t{n}-new-lesson-{name}.png")
        n += 1  # one's own discards, shown by D before the first lead
        lesson_at(app, "gask_1_low", next(i for i, s in enumerate(lesson("gask_1_low").steps) if "discards" in s.say))
        key(app, pygame.K_d)
        save(app, folder, f"{language}-t{n}-new-lesson-own-discards.png")
        app.stack.clear()
        pygame.quit()


NEW_LESSONS = [
    ("buying_lay_down", "lay-down"),
    ("turne_again", "turn-again"),
    ("kopmisar_higher", "higher-kopmisar"),
    ("gask_1_low", "gask-1-low"),
    ("vingel_again", "vingle-again"),
]
KEY_STEPS = {"gask_1_low": 3}  # a lesson's key step, where it is not its first checkpoint: gask 1 chosen low


def answered(app: App, ident: str, answer: str) -> LessonScene:
    """Lesson ``ident`` at the checkpoint ``answer`` is legal at, answered with it by the window's
    own door (the scene's act), as a click would."""
    taught = lesson(ident)
    number = next(i for i, s in enumerate(taught.steps) if s.ask is not None and _legal(taught, s, answer))
    scene = lesson_at(app, ident, number)
    scene.act(parse_action(answer, taught.you))
    step(app, 10)
    return scene


def _legal(taught: Lesson, s: Step, answer: str) -> bool:
    try:
        taught.position(s.at).check(parse_action(answer, taught.you))
    except (ValueError, ViraError):
        return False
    return True


def lesson_steps(folder: Path, ident: str, number: int, answer: str | None, languages: list[str]) -> None:
    """Lesson ``ident`` at its step ``number`` (1-based), answered with ``answer`` if given, in
    each of ``languages``: ``{lang}-{ident}-step{number}[-answered].png``."""
    folder.mkdir(parents=True, exist_ok=True)
    for language in languages:
        with fresh_home(language):
            app = App(seed=5)
            app.to_menu()
            scene = lesson_at(app, ident, number - 1)
            if answer is not None:
                scene.act(parse_action(answer, lesson(ident).you))
                step(app, 10)
            save(app, folder, f"{language}-{ident}-step{number}{'-answered' if answer else ''}.png")
            app.stack.clear()
            pygame.quit()


def history_screens(folder: Path) -> None:
    """History and Statistics over a history of 12 deals played by the normal bots (Anna kept
    as a person), dated at fixed times so that two runs draw the same pixels: from the menu by
    its keys, a filter moved with Tab ↓, a deal chosen, then S and → for the statistics."""
    from vira_desktop.paths import history_file
    from vira_desktop.scenes.history import HistoryScene
    from vira_desktop.scenes.menu import MENU
    from vira_desktop.session.factory import played_by_bots
    from vira_desktop.session.history import History

    folder.mkdir(parents=True, exist_ok=True)
    with fresh_home("en"):
        _, played = played_by_bots(("Anna", "Bertil", "Cecilia"), 11, 12)
        history = History(history_file())
        for i, d in enumerate(played):
            levels = {**d.levels, "Anna": "human"}
            started, at = "2026-11-30T19:00:00+00:00", f"2026-11-30T19:{3 * i + 2:02d}:00+00:00"
            history.add_deal("shots", d.index, d.record, d.players, levels, started=started, played=at)
        history.close()
        app = App(seed=5)
        app.to_menu()
        step(app, 2)
        index = [entry.action for entry in MENU].index("history")
        while getattr(app.stack.top, "focus", index) != index:
            key(app, pygame.K_DOWN)  # past the entries that are off (Continue: no saved game)
        key(app, pygame.K_RETURN)
        assert isinstance(app.stack.top, HistoryScene)
        until(app, lambda: isinstance(app.stack.top, HistoryScene) and bool(app.stack.top.deals.shown), 5)
        for k in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN):
            key(app, k)
        save(app, folder, "history.png", frames=3)
        key(app, pygame.K_s)
        until(app, lambda: bool(getattr(app.stack.top, "charts", None)), 5)
        hover(app, (142, 330))
        save(app, folder, "statistics.png", frames=3)
        key(app, pygame.K_RIGHT)
        save(app, folder, "statistics-bertil.png", frames=6)
        app.stack.clear()
        pygame.quit()


# ---------------------------------------------------------------------- play with friends
def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text, window=None))
    step(app, 3)


def remote_move(app: App) -> None:
    """One answer at a friends' table, by keys: pass or the lowest bid, a card, Enter for a
    card choice (Enter twice for none), else the first button."""
    scene = scene_of(app)
    ask = scene.play.viewer_ask()
    if ask is None or ask.view.decision is None:
        return
    decision = ask.view.decision
    if decision.phase is Phase.AUCTION:
        key(app, pygame.K_p if any(a.text == "pass" for a in decision.actions) else pygame.K_DOWN)
        for _ in range(2):
            if scene.play.viewer_ask() is ask:
                key(app, pygame.K_RETURN)
    elif decision.phase is Phase.PLAY and not ask.optional:
        for _ in range(2 * len(scene.play.surface.hand()) + 2):
            key(app, pygame.K_SPACE)
            if scene.play.viewer_ask() is not ask:
                return
            key(app, pygame.K_RIGHT)
    elif decision.choice is not None and not decision.actions:
        for _ in range(2):
            if scene.play.viewer_ask() is ask:
                key(app, pygame.K_RETURN)
    else:
        key(app, pygame.K_1)


def settled(app: App, folder: Path, name: str) -> None:
    """The table saved once its cards have come to rest."""
    until(app, lambda: not scene_of(app).view.busy, 20)
    save(app, folder, name, frames=30)


def point_at_friends(app: App) -> None:
    """The mouse moved onto the menu's Play with friends: it takes the focus."""
    menu = app.stack.top
    assert isinstance(menu, MenuScene)
    button = menu.buttons[[e.action for e in menu.entries].index("friends")]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=button.rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    step(app, 3)


def play_until(app: App, done: Callable[[], bool], limit_s: float = 90.0) -> None:
    """Answer at a friends' table until ``done``."""

    def answer() -> None:
        top = app.stack.top
        if isinstance(top, TableScene) and not top.view.busy and not top.view.intro.running:
            remote_move(app)

    until(app, done, limit_s, answer)


def fill_host_form(app: App) -> None:
    """The host form as Anna fills it: her name, the table's, 4 seats, 2 friends, a strong bot,
    for this computer only (the screenshots stay on loopback), the ring back on the bots' row."""
    type_text(app, "Anna")
    key(app, pygame.K_DOWN)
    type_text(app, "Köket")
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # 4 seats
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # 2 friends
    for _ in range(4):
        key(app, pygame.K_UP)  # past the first row: the last
    key(app, pygame.K_LEFT)  # this computer only
    for _ in range(5):
        key(app, pygame.K_UP)  # up to the bots' row
    key(app, pygame.K_RIGHT)  # a strong bot


def forms(folder: Path) -> None:
    """The Play-with-friends forms (``--forms``): the host form filled in, a click on its
    password field (the ring follows the click), the lobby of a table for this computer only,
    and the join form as it is shown again (the name and address kept), a click on its name."""
    from vira_desktop.net.host import HostConfig
    from vira_desktop.scenes.friends import FormScene, LobbyScene

    def click_row(app: App, label: str) -> None:
        form = app.stack.top
        assert isinstance(form, FormScene)
        row = next(r for r in form.rows if r.label == label)
        assert row.entry is not None
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=row.entry.rect.center, button=1, touch=False, window=None))
        step(app, 3)

    folder.mkdir(parents=True, exist_ok=True)
    with fresh_home():
        app = App(seed=3)
        app.host_config = HostConfig(announce=False, bot_pause=0.3, seed=SEED)
        app.to_menu()
        step(app, 3)
        point_at_friends(app)
        key(app, pygame.K_RETURN)
        key(app, pygame.K_RETURN)
        fill_host_form(app)
        save(app, folder, "host-form.png")
        click_row(app, "friends.password")
        type_text(app, "hemligt")
        save(app, folder, "host-form-password.png")
        key(app, pygame.K_RETURN)
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        until(app, lambda: lobby.remote.lobby is not None, 20)
        save(app, folder, "lobby-this-computer.png", frames=10)
        key(app, pygame.K_ESCAPE)
        point_at_friends(app)
        key(app, pygame.K_RETURN)
        key(app, pygame.K_DOWN)
        key(app, pygame.K_RETURN)
        type_text(app, "192.168.1.20:8417/abcd-koket")
        click_row(app, "friends.name")
        pygame.mouse.set_pos((40, 780))
        save(app, folder, "join-form-remembered.png")
        app.stack.clear()
        if app.friends is not None:
            app.friends.close()
        pygame.quit()


def friends(folder: Path) -> None:
    """The Play-with-friends screens: this window hosts (on loopback); two more game
    processes, one after the other, join as Bertil (the second is the first restarted,
    taking the seat back with its token) and save their own screens: the lobby as a friend
    sees it, the table, and the host's closing said. This window saves the lobby as its host
    sees it, the table, the notes on Bertil's seat (dropped, a bot plays it, back) and the
    chat at the table."""
    import subprocess

    from vira_desktop.net.host import HostConfig
    from vira_desktop.scenes.friends import LobbyScene

    folder.mkdir(parents=True, exist_ok=True)
    for waited_for in ("lobby-friend.png", "table-joined.png", "table-rejoined.png"):  # the friends' own, made anew
        (folder / waited_for).unlink(missing_ok=True)
    with fresh_home(), tempfile.TemporaryDirectory() as friend_home:
        app = App(seed=3)
        app.host_config = HostConfig(announce=True, bot_pause=0.3, deal_pause=3.0, seed=SEED, seat_timeout=4.0)
        app.to_menu()
        step(app, 3)
        point_at_friends(app)
        save(app, folder, "menu.png")
        key(app, pygame.K_RETURN)
        save(app, folder, "friends.png")
        key(app, pygame.K_RETURN)
        fill_host_form(app)
        save(app, folder, "host-form.png")
        key(app, pygame.K_RETURN)
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene) and lobby.remote.hosting is not None
        remote = lobby.remote

        def joiner(shots: list[str]) -> subprocess.Popen[bytes]:
            env = {**os.environ, "VIRA_CONFIG_DIR": friend_home, "VIRA_DATA_DIR": friend_home, "PYTHONPATH": str(ROOT)}
            command = [sys.executable, str(ROOT / "scripts" / "screenshots.py"), str(folder), "--friend", *shots]
            return subprocess.Popen(command, env=env)

        first = joiner(["join-form.png", "lobby-friend.png", "table-joined.png"])
        until(app, lambda: remote.lobby is not None and len(remote.lobby.taken) == 2, 60)
        type_text(app, "Welcome, Bertil!")
        key(app, pygame.K_RETURN)
        until(app, lambda: len(remote.chat) >= 2, 20)
        save(app, folder, "lobby.png")
        until(app, lambda: (folder / "lobby-friend.png").exists(), 30)  # the friend waits for the start
        lobby.remote.start_now()
        until(app, lambda: isinstance(app.stack.top, TableScene), 20)
        play_until(app, lambda: first.poll() is not None or (folder / "table-joined.png").exists())
        play_until(app, lambda: _tricks_played(app) >= 1)
        settled(app, folder, "table-host.png")
        first.kill()  # the joining window dies mid-deal: its seat is held for its token
        first.wait(10)
        dropped = t("friends.note.dropped", name="Bertil", seconds=4)
        play_until(app, lambda: dropped in scene_of(app).view.shown.log, 30)
        save(app, folder, "table-dropped.png", frames=6)
        bot = t("friends.note.bot", name="Bertil", seconds=0)
        play_until(app, lambda: bot in scene_of(app).view.shown.log, 30)  # a bot plays it after the timeout
        second = joiner(["", "", "table-rejoined.png", "host-closed.png"])
        back = t("friends.note.back", name="Bertil", seconds=0)
        play_until(app, lambda: back in scene_of(app).view.shown.log, 60)
        save(app, folder, "table-notes.png", frames=6)
        play_until(app, lambda: (folder / "table-rejoined.png").exists() or second.poll() is not None, 120)
        scene_of(app).play.surface.message("")
        key(app, pygame.K_c)
        type_text(app, "Welcome back, Bertil!")
        key(app, pygame.K_RETURN)
        key(app, pygame.K_c)
        type_text(app, "Your turn")
        save(app, folder, "table-chat.png", frames=10)
        key(app, pygame.K_ESCAPE)
        app.stack.clear()  # the host leaves: the table ends for everyone
        if app.friends is not None:
            app.friends.close()
        second.wait(60)
        host_lost(app, folder, Path(friend_home))
        pygame.quit()


def host_lost(app: App, folder: Path, home: Path) -> None:
    """This window a friend at a table whose host disappears without a word (a host that keeps
    its tables, stopped, and never back): tried again, visibly; then said lost."""
    import asyncio
    import threading

    from vira_desktop.net.client import JoinOptions, Player
    from vira_desktop.net.host import HostConfig
    from vira_desktop.net.remote import LocalHost, RemoteTable
    from vira_desktop.scenes.friends import FriendsTableScene

    config = HostConfig(bot_pause=0.3, players=3, humans=2, seed=SEED, save=home / "kept", prefix="kjb")
    hosting = LocalHost(config, "127.0.0.1", 0)
    address = f"127.0.0.1:{hosting.port}"
    bot = Player(JoinOptions(address, "Bertil", bot="normal", reconnect=0, say=lambda _: None))
    threading.Thread(target=lambda: asyncio.run(bot.run()), daemon=True).start()
    remote = RemoteTable(JoinOptions(address, "Anna", reconnect=12.0), app.coach_worker)
    app.friends = remote
    app.open("lobby", client=remote)
    until(app, lambda: isinstance(app.stack.top, FriendsTableScene), 30)
    play_until(app, lambda: _tricks_played(app) >= 1)
    hosting.stop()
    scene = app.stack.top
    assert isinstance(scene, FriendsTableScene)
    until(app, lambda: scene.box.said is not None and scene.box.said.title == t("friends.lost.trying"), 10)
    until(app, lambda: scene.remote.link.tries >= 3, 10)
    save(app, folder, "host-lost-trying.png", frames=6)
    until(app, lambda: scene.box.final, 30)
    save(app, folder, "host-lost.png", frames=6)
    app.stack.clear()
    remote.close()


def friend(folder: Path, shots: list[str]) -> None:
    """A joining window (``--friend JOIN_SHOT LOBBY_SHOT TABLE_SHOT [CLOSED_SHOT]``): the join
    form with the table found on the network, the seat taken as Bertil (or taken back, after a
    restart), the lobby, a few answers, the table saved; then it waits to be killed (or, the
    second, until the host closes the table, which it saves said)."""
    from vira_desktop.scenes.friends import JoinFormScene

    home = Path(os.environ["VIRA_CONFIG_DIR"])
    if not (home / "config.yaml").exists():
        (home / "config.yaml").write_text("display: {animation_speed: fast}\n", encoding="utf-8")
    app = App(seed=4)
    app.to_menu()
    step(app, 3)
    point_at_friends(app)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    form = app.stack.top
    assert isinstance(form, JoinFormScene)
    if shots[0]:
        until(app, lambda: bool(form.found), 30)
        pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=form.picks[0]))
        step(app, 3)
        type_text(app, "Bertil")
        pygame.mouse.set_pos((40, 780))  # the pointer off the buttons: no button lit but by the keys
        save(app, folder, shots[0])
    key(app, pygame.K_RETURN)
    until(app, lambda: app.friends is not None and bool(app.friends.lobby), 30)
    if shots[1]:
        app.friends.say("Hej! Jag är här.")  # type: ignore[union-attr]
        until(app, lambda: app.friends is not None and len(app.friends.chat) >= 2, 30)
        save(app, folder, shots[1], frames=6)
    until(app, lambda: isinstance(app.stack.top, TableScene), 60)
    table = scene_of(app)
    moves = len(table.view.state.view.tricks) if table.view.state else 0
    play_until(app, lambda: table.view.state is not None and len(table.view.state.view.tricks) >= moves + 1)
    settled(app, folder, shots[2])
    if len(shots) < 4:
        play_until(app, lambda: False, 120)  # until killed
        return
    from vira_desktop.scenes.friends import FriendsTableScene

    play_until(app, lambda: isinstance(app.stack.top, FriendsTableScene) and app.stack.top.box.final, 120)
    save(app, folder, shots[3], frames=10)
    app.stack.clear()
    if app.friends is not None:
        app.friends.close()


def analysis_screens(folder: Path, records: list[str], language: str | None = None, tabs: int = 0) -> None:
    """Each record (``--analysis RECORD... [--in LANG] [--tab N]``) opened in the replay, played
    to its end and "Could I have won?" asked (A) for the seat shown (forehand, or the seat
    after N presses of Tab): the progress message while it is worked out, then the analysis
    window."""
    folder.mkdir(parents=True, exist_ok=True)
    with fresh_home(language):
        app = App(seed=1)
        app.to_menu()
        for name in records:
            path = Path(name)
            app.open("replay", record=load_record(path), title=path.name)
            step(app, 5)
            key(app, pygame.K_END, frames=30)
            for _ in range(tabs):  # whose hand is shown: whose analysis it is
                key(app, pygame.K_TAB)
            key(app, pygame.K_a)
            until(app, lambda: getattr(getattr(app.stack.top, "driver", None), "progress", None) is not None, 120)
            save(app, folder, f"{path.stem}-working.png")
            until(app, lambda: type(app.stack.top).__name__ == "AnalysisScene", 300)
            save(app, folder, f"{path.stem}-analysis.png")
            key(app, pygame.K_ESCAPE)
            key(app, pygame.K_ESCAPE)
        pygame.quit()


def _tricks_played(app: App) -> int:
    """The tricks played so far at the table on top (0 before it shows one)."""
    state = scene_of(app).view.state
    return len(state.view.tricks) if state is not None else 0


def _option(name: str) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    if "--tutorial" in sys.argv:
        tutorial(target, sys.argv[sys.argv.index("--tutorial") + 1] if len(sys.argv) > 3 else "en")
    elif "--history" in sys.argv:
        history_screens(target)
    elif "--languages" in sys.argv:
        languages(target)
    elif "--friends" in sys.argv:
        friends(target)
    elif "--forms" in sys.argv:
        forms(target)
    elif "--friend" in sys.argv:
        friend(target, sys.argv[sys.argv.index("--friend") + 1 :])
    elif "--coach" in sys.argv:
        coach(target)
    elif "--analysis" in sys.argv:  # --analysis RECORD... [--in LANG] [--tab N]
        at = sys.argv.index("--analysis")
        shown = [a for a in sys.argv[at + 1 :] if a.endswith(".yaml")]
        analysis_screens(target, shown, _option("--in"), int(_option("--tab") or 0))
    elif "--lesson" in sys.argv:  # --lesson IDENT STEP [--answer TEXT] [--in sv,en,fi]
        at = sys.argv.index("--lesson")
        said = (_option("--in") or "sv,en,fi").split(",")
        lesson_steps(target, sys.argv[at + 1], int(sys.argv[at + 2]), _option("--answer"), said)
    else:
        main(target)
