"""No text shown to the player bypasses the catalogs: in a pseudo-language whose every text
is wrapped as ``[!! … !!]``, every scene is driven headless and each text the window draws
(the game's font, and pygame-gui's widgets) must carry the wrapper, unless it is data that
no language changes: numbers, cards, suit symbols, player names, the games' own names."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from tests.screens import runner_of, table_of
from tests.test_gui import click, human_move, key, make_app, run, table_scene, wait_for_human
from vira_desktop.i18n import CATALOGS, LANGUAGES, configure
from vira_desktop.rules.actions import Pass
from vira_desktop.rules.games import BID_GROUPS, GAMES
from vira_desktop.rules.glossary import GLOSSARY_TERMS, term_words
from vira_desktop.scenes import theme
from vira_desktop.scenes.app import App
from vira_desktop.scenes.history import StatisticsScene
from vira_desktop.scenes.menu import NewGameScene
from vira_desktop.scenes.table.input import Command
from vira_desktop.scenes.table.lesson import LessonScene
from vira_desktop.scenes.theme import GameFont
from vira_desktop.session.record import load_record
from vira_desktop.session.runner import Command as TableCommand
from vira_desktop.session.table import SeatConfig, Table

PSEUDO = "xx"


def _phrases(term: str) -> set[str]:
    """A glossary headword, each of its words ("turnéra om / vingla om"), and the runs of two
    words or more in them, as a long headword wraps on the glossary's sheet."""
    out = {term}
    for word in term_words(term):
        parts = word.split()
        out |= {" ".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 2, len(parts) + 1)} | {word}
    return out


NAMES = ("You", "Bertil", "Cecilia", "David", "Anna", "Bo", "Cissi")
WORDS = (
    {g.name for g in GAMES}
    | {g.name.replace(" ouverte royale", " ouv. royale") for g in GAMES}
    | set(BID_GROUPS)
    | {g.printed for g in GAMES}
    | set(NAMES)
    | {phrase for _, term in GLOSSARY_TERMS for phrase in _phrases(term)}  # Vira's own words, Swedish in every language
    | set(LANGUAGES.values())  # each language by its own name
)
DATA = re.compile(r"^[\s\d\W]*$")  # numbers, symbols, punctuation


def wrapped(tree: Any) -> Any:
    if isinstance(tree, dict):
        return {key: wrapped(value) for key, value in tree.items()}
    return f"[!! {tree} !!]"


@pytest.fixture
def pseudo(tmp_path: Path) -> Iterator[Path]:
    english = json.loads((CATALOGS / "vira.en.json").read_text(encoding="utf-8"))["en"]
    folder = tmp_path / "pseudo"
    folder.mkdir()
    (folder / f"vira.{PSEUDO}.json").write_text(json.dumps({PSEUDO: wrapped(english)}), encoding="utf-8")
    configure(PSEUDO, str(folder))
    yield folder
    configure("en")


def is_data(text: str) -> bool:
    """A text no catalog should hold: only numbers, symbols, cards, names of players and games."""
    rest = re.sub(r"[\w.-]+\.yaml", " ", text)  # a record's file name
    for word in sorted(WORDS, key=len, reverse=True):
        rest = rest.replace(word, " ")
    rest = re.sub(r"\b(10|[2-9JQKA])[♠♥♦♣]", " ", rest)
    rest = re.sub(r"\bno\. \d+|nr \d+", " ", rest)
    return bool(DATA.match(rest))


def test_every_text_drawn_on_every_scene_comes_from_the_catalogs(
    pseudo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: set[str] = set()
    plain_render = GameFont.render

    def noting(self: GameFont, text: Any, *args: Any, **kwargs: Any) -> pygame.Surface:
        drawn.add(str(text))
        return plain_render(self, text, *args, **kwargs)

    monkeypatch.setattr(GameFont, "render", noting)
    parts_of_wrapped: set[str] = set()  # the lines a wrapped text was broken into
    plain_wrap = theme._wrapped

    def wrapping(text: str, *args: Any) -> tuple[str, ...]:
        parts = plain_wrap(text, *args)
        if "[!!" in text:
            parts_of_wrapped.update(parts)
        return parts

    monkeypatch.setattr(theme, "_wrapped", wrapping)
    app: App = make_app(tmp_path, monkeypatch)
    configure(PSEUDO, str(pseudo))  # after the app chose its language: the pseudo one is no setting
    app.ui.set_locale(PSEUDO)
    widgets: set[str] = set()

    def look() -> None:
        from pygame_gui.core.utility import translate

        run(app, 2)
        for element in app.ui.get_sprite_group().sprites():
            text = getattr(element, "text", None)
            if isinstance(text, str) and text:
                widgets.add(str(translate(text)))

    look()  # the menu
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)  # settings (after the tutorial)
    look()
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)
    key(app, pygame.K_RETURN)  # the new-game form
    look()
    key(app, pygame.K_RETURN)  # start
    scene = table_scene(app)
    rng = random.Random(2)
    look()  # the seating draw
    assert wait_for_human(app, scene)  # the draw is over: keys now reach the table
    for overlay in (pygame.K_s, pygame.K_b, pygame.K_g, pygame.K_t):
        key(app, overlay)
        look()
        key(app, pygame.K_ESCAPE)
    for _ in range(200):
        assert wait_for_human(app, scene)
        look()
        if table_of(scene).deal.is_over:
            break
        if table_of(scene).deal.phase.value == "play" and rng.random() < 0.3:
            key(app, pygame.K_h)  # a hint, in words: wait for it (it moves the cursor when it comes)
            deadline = time.monotonic() + 60
            while runner_of(scene).worker.busy() and time.monotonic() < deadline:
                run(app, 1)
                time.sleep(0.005)
            run(app, 2)
            look()
        human_move(app, scene, rng)
    look()  # the result banner and the buttons after a deal
    scene.runner.command(TableCommand.SETTLE)  # the session settled after this deal
    app.open("settlement", state=scene.play.table_state())
    look()
    record = load_record(Path(__file__).parent / "records" / "laid_solo8.yaml")
    app.open("replay", record=record, title="laid_solo8.yaml")  # a deal record in the window
    key(app, pygame.K_END)
    look()
    four = Table([SeatConfig("You", True)] + [SeatConfig(n, False) for n in ("Bertil", "Cecilia", "David")], seed=3)
    app.start_table(four)  # four seats: the dealer sits out
    fourth = table_scene(app)
    for _ in range(40):
        assert wait_for_human(app, fourth)
        look()
        if table_of(fourth).deal.is_over:
            break
        human_move(app, fourth, rng)
    look()
    button = next(b for b, what in fourth.play.surface.panel.buttons.items() if what == Command("last round"))
    click(app, button.rect.center)
    look()  # the countdown and the log's word on the last round
    key(app, pygame.K_RETURN)  # the first deal of the last round
    assert wait_for_human(app, fourth)
    look()
    hot = Table([SeatConfig("Anna", True), SeatConfig("Bo", True), SeatConfig("Cissi", False)], seed=4)
    app.start_table(hot)  # two humans: the cover between them
    look()
    app.autosave(hot)
    app.open("menu")
    run(app, 2)
    key(app, pygame.K_UP)  # from Continue to New game
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)  # Start over a saved game: the question first
    form = app.stack.top
    assert isinstance(form, NewGameScene) and form.confirm
    look()
    app.open("tutorial")  # the contents map, and a lesson at its checkpoint
    look()
    app.open("lesson", lesson_id="auction_hold")
    lesson = app.stack.top
    assert isinstance(lesson, LessonScene)
    run(app, 30)
    look()
    lesson.play.moves.press(Pass(0))  # a wrong answer, explained
    look()
    key(app, pygame.K_ESCAPE)  # back to the menu, and the save is damaged: the notice says so
    app.flush_saves()
    app.saved.close()
    for part in (tmp_path / "data").glob("autosave.sqlite3*"):
        part.unlink()
    (tmp_path / "data" / "autosave.sqlite3").write_bytes(b"not a database")
    app.open("menu")
    run(app, 2)
    key(app, pygame.K_RETURN)  # Continue
    assert app.notice
    look()
    app.flush_saves()  # the deals played above are in history now
    app.open("history")  # the list, its filters and buttons
    look()
    key(app, pygame.K_RIGHT)  # one session chosen
    look()
    app.push("statistics")  # the charts, and a tooltip
    run(app, 2)
    stats = app.stack.top
    assert isinstance(stats, StatisticsScene) and stats.stats.deals
    spot = next(s for chart in stats.charts for s in chart._spots)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=spot[0].center, rel=(0, 0), buttons=(0, 0, 0)))
    look()
    app.open("menu")  # play with friends: its menu, the forms, a lobby of a table hosted here
    app.push("friends")
    look()
    app.push("friends_host")
    key(app, pygame.K_RETURN)  # no name: the form says so
    look()
    app.pop()
    app.push("friends_join")
    look()
    app.host_config = replace(app.host_config, announce=False, bot_processes=0)  # bots in a thread
    app.open("lobby", client=app.host_friends("Anna", 4, 2, "pw", lan=False))
    deadline = time.monotonic() + 10
    while app.friends is not None and app.friends.lobby is None and time.monotonic() < deadline:
        run(app, 1)
    look()
    app.open("menu")  # the table left: its host stopped
    shown = (drawn | widgets) - parts_of_wrapped
    bare = sorted(text for text in shown if "[!!" not in text and not is_data(text))
    assert bare == [], f"{len(bare)} texts bypass the catalogs: {bare}"
