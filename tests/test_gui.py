"""The game window, headless: real key and mouse events posted to pygame, frames stepped."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame

from vira_desktop.rules.deal import Decision, Phase
from vira_desktop.scenes.app import App
from vira_desktop.scenes.menu import MenuScene, NewGameScene
from vira_desktop.scenes.table_scene import TableScene

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("VIRA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("VIRA_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text("display: {animation_speed: instant}\n", encoding="utf-8")
    application = App(seed=5)  # new games deal the same cards on every run
    application.to_menu()
    yield application
    application.stack.clear()
    pygame.quit()


def key(app: App, k: int, frames: int = 3) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    run(app, frames)


def click(app: App, pos: tuple[int, int], frames: int = 4) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1, touch=False, window=None))
    run(app, frames)


def run(app: App, frames: int) -> None:
    for _ in range(frames):
        app.step(1 / 60)


def table_scene(app: App) -> TableScene:
    top = app.stack.top
    assert isinstance(top, TableScene)
    return top


def start_game(app: App) -> TableScene:
    run(app, 2)
    assert isinstance(app.stack.top, MenuScene)
    key(app, pygame.K_RETURN)  # "New game" has the focus when there is no save
    assert isinstance(app.stack.top, NewGameScene)
    key(app, pygame.K_RETURN)  # Start with the default seats: you and two normal bots
    return table_scene(app)


def wait_for_human(app: App, scene: TableScene, limit: int = 3000) -> bool:
    """Step frames until the human must act or the deal is over."""
    for _ in range(limit):
        if scene.deal.is_over or (scene.table.human_to_act() and scene.future is None):
            return True
        app.step(1 / 60)
    return False


def human_move(app: App, scene: TableScene, rng: random.Random) -> None:
    """Make one legal move as a player would: keys for bids and buttons, clicks for cards."""
    decision = scene.table.decision()
    before = len(scene.table.log)
    if decision.phase is Phase.AUCTION:
        key(app, pygame.K_p if scene.deal.best is not None else pygame.K_DOWN)
        if len(scene.table.log) == before:
            key(app, pygame.K_RETURN)
    elif decision.phase is Phase.PLAY:
        hand = scene._hand_order(decision.seat)
        for _ in range(len(hand)):
            key(app, pygame.K_SPACE)
            if len(scene.table.log) > before:
                break
            key(app, pygame.K_RIGHT)
    elif decision.choice is not None and (not decision.actions or rng.random() < 0.3):
        choice = decision.choice
        picks = rng.sample(list(choice.candidates), choice.min_count)
        for card in picks:
            sprite = scene.sprites[card]
            click(app, (int(sprite.tx) + 6, int(sprite.ty) + 40))
        key(app, pygame.K_RETURN)
    else:
        key(app, pygame.K_1)
    assert len(scene.table.log) > before, f"no move made in {decision.phase}: {scene.message}"


def play_to_end_of_deal(app: App, scene: TableScene, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        assert wait_for_human(app, scene)
        if scene.deal.is_over:
            return
        human_move(app, scene, rng)
    raise AssertionError("the deal did not end")


def test_menu_new_game_and_a_whole_deal_to_the_payment(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = start_game(app)
    assert scene.table.seats[0].human
    accounts_before = dict(scene.table.session.ledger.accounts)
    said: list[str] = []
    say = scene.say

    def recording_say(line: str) -> None:
        said.append(line)
        say(line)

    monkeypatch.setattr(scene, "say", recording_say)
    play_to_end_of_deal(app, scene)
    result = scene.deal.result
    assert result is not None
    # actions are logged as the others see them: no bot's reasons, no cards laid aside or bought
    moves = [line for line in said if line.startswith(tuple(f"{n}: " for n in scene.table.session.seats))]
    assert moves and not any("%" in line or "to go home" in line for line in moves), moves
    card_sets = [line for line in moves if ": buy " in line or ": keep " in line or ": discard " in line]
    assert all(line.endswith(("card", "cards")) for line in card_sets), card_sets
    assert scene.table.session.ledger.conserved()
    assert scene.table.session.ledger.accounts != accounts_before or result.pulla == (0, 0, 0)
    key(app, pygame.K_RETURN)  # next deal
    assert scene.table.deal_index == 1


def human_turns(app: App, scene: TableScene, seed: int) -> Iterator[Decision]:
    """Each decision the human faces (the caller acts, or the test moves on for it)."""
    rng = random.Random(seed)
    for _ in range(300):
        assert wait_for_human(app, scene)
        if scene.deal.is_over:
            key(app, pygame.K_RETURN)
            continue
        before = len(scene.table.log)
        yield scene.table.decision()
        if len(scene.table.log) == before:
            human_move(app, scene, rng)


def test_illegal_card_is_refused_with_the_reason(app: App) -> None:
    scene = start_game(app)
    for decision in human_turns(app, scene, 3):
        if decision.phase is Phase.PLAY and scene.deal.trick:
            legal = {a.card for a in decision.actions if hasattr(a, "card")}
            illegal = [c for c in scene.deal.hand(decision.seat) if c not in legal]
            if illegal:
                before = len(scene.table.log)
                sprite = scene.sprites[illegal[0]]
                click(app, (int(sprite.tx) + 4, int(sprite.ty) + 50))
                assert len(scene.table.log) == before
                assert "must follow suit" in scene.message
                return
    pytest.skip("no position with an illegal card came up")


def test_arrow_keys_reach_every_card_after_the_hand_shrinks(app: App) -> None:
    """The focus may point past the end of a hand that has shrunk (after a buy or a trick):
    the arrows must still step through every card, starting from the one shown."""
    scene = start_game(app)
    assert wait_for_human(app, scene)
    seat = scene.viewer_seat()
    assert seat is not None
    hand = scene._hand_order(seat)
    scene.focus = len(hand) + 3  # shown on the last card

    def shown() -> int:
        return min(scene.focus, len(hand) - 1)

    seen = {shown()}
    for _ in range(len(hand) - 1):
        key(app, pygame.K_RIGHT)
        seen.add(shown())
    assert seen == set(range(len(hand)))
    scene.focus = len(hand) + 3
    key(app, pygame.K_LEFT)
    assert shown() == len(hand) - 2  # one step left of the card shown


def test_a_card_dragged_onto_the_table_is_played(app: App) -> None:
    scene = start_game(app)
    for decision in human_turns(app, scene, 9):
        if decision.phase is Phase.PLAY and decision.seat == scene.viewer_seat():
            card = next(a.card for a in decision.actions if hasattr(a, "card"))
            sprite = scene.sprites[card]
            start = (int(sprite.tx) + 4, int(sprite.ty) + 50)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=False, window=None))
            pygame.event.post(
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=(480, 420), rel=(0, 0), buttons=(1, 0, 0), touch=False, window=None
                )
            )
            pygame.event.post(
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(480, 420), button=1, touch=False, window=None)
            )
            before = len(scene.deal.history)
            run(app, 4)
            assert len(scene.deal.history) > before and card not in scene.deal.hand(decision.seat)
            return
    pytest.skip("no trick play for the human came up")


def test_undo_takes_back_the_last_human_action(app: App) -> None:
    scene = start_game(app)
    assert wait_for_human(app, scene)
    rng = random.Random(5)
    human_move(app, scene, rng)
    humans_before = sum(1 for e in scene.table.log if e.human)
    key(app, pygame.K_u)
    assert sum(1 for e in scene.table.log if e.human) == humans_before - 1
    assert scene.table.undone == [0]


def test_autosave_and_resume_exactly(app: App, tmp_path: Path) -> None:
    scene = start_game(app)
    rng = random.Random(7)
    for _ in range(6):
        assert wait_for_human(app, scene)
        if scene.deal.is_over:
            break
        human_move(app, scene, rng)
    log = [(e.deal, e.player, e.action) for e in scene.table.log]
    accounts = dict(scene.table.session.ledger.accounts)
    app.stack.clear()
    again = App()
    again.to_menu()
    run(again, 2)
    key(again, pygame.K_RETURN)  # "Continue" has the focus when a save exists
    resumed = table_scene(again)
    assert [(e.deal, e.player, e.action) for e in resumed.table.log][: len(log)] == log
    assert resumed.table.session.ledger.accounts == accounts or len(resumed.table.log) > len(log)
    again.stack.clear()


def test_a_damaged_save_is_kept_aside_and_reported(app: App, tmp_path: Path) -> None:
    save = tmp_path / "data" / "autosave.json"
    save.parent.mkdir(parents=True)
    save.write_text('{"version": 1, "seed": 3, "seats": [{"name": "A"}], "log": []}', encoding="utf-8")
    app.to_menu()
    run(app, 2)
    key(app, pygame.K_RETURN)  # Continue
    assert isinstance(app.stack.top, MenuScene)
    assert "kept aside" in app.notice
    assert not save.exists() and (save.parent / "autosave.json.damaged-1").exists()


def test_score_sheet_and_bid_table_one_key_away(app: App) -> None:
    scene = start_game(app)
    key(app, pygame.K_b)
    assert type(app.stack.top).__name__ == "BidTableScene"
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene
    key(app, pygame.K_s)
    assert type(app.stack.top).__name__ == "ScoreSheetScene"
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene


def test_monkey_random_input_never_crashes(app: App) -> None:
    rng = random.Random(11)
    keys = [
        pygame.K_RETURN,
        pygame.K_SPACE,
        pygame.K_LEFT,
        pygame.K_RIGHT,
        pygame.K_UP,
        pygame.K_DOWN,
        pygame.K_1,
        pygame.K_2,
        pygame.K_p,
        pygame.K_u,
        pygame.K_h,
        pygame.K_l,
        pygame.K_s,
        pygame.K_b,
        pygame.K_ESCAPE,
        pygame.K_TAB,
    ]
    for _ in range(600):
        if rng.random() < 0.5:
            pos = (rng.randrange(1280), rng.randrange(800))
            for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                pygame.event.post(pygame.event.Event(kind, pos=pos, button=1, touch=False, window=None))
        else:
            k = rng.choice(keys)
            if k == pygame.K_ESCAPE and rng.random() < 0.8:
                continue
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        app.step(1 / 60)
        if not app.running:
            app.running = True
            app.to_menu()


def test_autoplay_prints_frame_statistics() -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    run_ = subprocess.run(
        [sys.executable, "-m", "vira_desktop", "--autoplay", "1", "--seed", "2", "--speed", "instant"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run_.returncode == 0, run_.stderr
    stats = json.loads(run_.stdout.strip().splitlines()[-1])
    for k in ("deals", "frames", "frame_ms_median", "frame_ms_p95", "frame_ms_max", "startup_s", "rss_mb"):
        assert k in stats
    assert stats["deals"] == 1 and stats["frames"] > 0


def test_new_game_form_works_from_the_keyboard(app: App) -> None:
    run(app, 2)
    key(app, pygame.K_RETURN)
    form = app.stack.top
    assert isinstance(form, NewGameScene)
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)  # the "players" row
    key(app, pygame.K_RIGHT)  # 4 players
    assert form.count == 4
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # first come, heart deal
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)  # Bertil's row
    key(app, pygame.K_PAGEDOWN)  # bot: normal -> bot: easy
    assert [s.level for s in form.seats()][1] == "easy"
    key(app, pygame.K_RETURN)
    scene = table_scene(app)
    assert len(scene.table.session.players) == 4 and scene.table.seating == "first-come"


def test_settings_from_the_keyboard_are_saved_per_user(app: App, tmp_path: Path) -> None:
    run(app, 2)
    key(app, pygame.K_DOWN)  # Settings (Continue and Tutorial are skipped)
    key(app, pygame.K_RETURN)
    assert type(app.stack.top).__name__ == "SettingsScene"
    key(app, pygame.K_RIGHT)  # animation speed: instant -> fast
    assert app.settings["display.animation_speed"] == "fast"
    for _ in range(6):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # window size
    assert app.settings["display.window"] == [1024, 640]
    key(app, pygame.K_ESCAPE)
    saved = (tmp_path / "config" / "config.yaml").read_text(encoding="utf-8")
    assert "fast" in saved and "1024" in saved


def test_hot_seat_hides_the_hands_between_players(app: App) -> None:
    from vira_desktop.table import SeatConfig, Table

    table = Table([SeatConfig("Anna", True), SeatConfig("Bo", True), SeatConfig("Cissi", False)], seed=4)
    app.start_table(table)
    scene = table_scene(app)
    scene.intro_started = None
    seen: set[str] = set()
    for _ in range(400):
        run(app, 1)
        if scene.hidden_for:
            seen.add(scene.hidden_for)
            key(app, pygame.K_RETURN)  # the next player takes the screen
            assert scene.hidden_for is None
        elif table.human_to_act() and scene.future is None and not scene.deal.is_over:
            assert scene.viewer == table.player_to_act()
            human_move(app, scene, random.Random(1))
        if len(seen) >= 2:
            break
    assert seen


def test_a_seeded_window_deals_the_same_new_game(app: App) -> None:
    """``vira --seed S``: the menu's new game takes its deals from the seed (the fixture's 5)."""
    scene = start_game(app)
    assert scene.table.seed == random.Random(5).randrange(1 << 31)
