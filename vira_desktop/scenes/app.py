"""The game window: one frame loop, a scene stack, settings, sound (the autosave and history: saves.py)."""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from ..config import SettingValue, SoundSettings, change_setting, say_problems, user_settings
from ..i18n import CATALOGS, configure, current, system_language, t
from ..net.client import JoinOptions, address_url
from ..net.host import HostConfig
from ..net.remote import RemoteTable, host_here
from ..paths import asset, user_config_file
from ..session.autosave import Autosave
from ..session.factory import TableOrder, table_runner
from ..session.history_service import HistoryService
from ..session.runner import CommittedDeal, TableRunner
from ..session.table import SaveError, Table
from ..session.worker import Worker
from .base import Scene, SceneName, SceneStack
from .frames import FrameStats
from .idle import wait_for_input
from .registry import make
from .saves import Saves
from .theme import SIZE, font, gui_theme
from .window import Window

FPS = 60  # while anything moves
IDLE_WAKE_S = 2.0  # with nothing to animate, a frame at least this often (the menu's clock, a lost wake-up)

SOUNDS = ("deal", "play", "trick", "tokens")
log = logging.getLogger(__name__)


class NoDisplay(RuntimeError):
    """SDL found no display and fell back to an invisible one."""


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence what C libraries print to the terminal (file descriptor 2) for a moment."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all (a windowed app)
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


def settle_memory() -> None:
    """After loading a scene: collect once, then keep what is loaded out of later full
    collections (gc.freeze), which otherwise cost a frame 10-20 ms now and then."""
    gc.collect()
    gc.freeze()


class Sounds:
    """The game's sounds, played while sound is on; silent where there is no sound device, or
    where sound was off when the game began (they are loaded then or never)."""

    def __init__(self, setting: SoundSettings) -> None:
        self.setting = setting
        self._sounds: dict[str, Any] = {}
        if setting.enabled:
            self._load()

    def _load(self) -> None:
        try:
            with quiet_stderr():
                pygame.mixer.init()
        except pygame.error as exc:
            log.warning("no sound device (%s): the game plays without sound", exc)
            return
        for name in SOUNDS:
            try:
                sound = pygame.mixer.Sound(str(asset("sounds", f"{name}.wav")))
                sound.set_volume(self.setting.volume)
                self._sounds[name] = sound
            except (pygame.error, FileNotFoundError):
                pass

    def play(self, name: str) -> None:
        sound = self._sounds.get(name)
        if sound is not None and self.setting.enabled:
            sound.play()

    def set(self, setting: SoundSettings) -> None:
        """The sound settings changed: on or off, and the volume, at once."""
        self.setting = setting
        for sound in self._sounds.values():
            sound.set_volume(setting.volume)


def name_window_class() -> None:
    """Make the window's X class "vira" however the game is started, so that desktops group it
    and ``xdotool search --classname vira`` finds it. SDL reads ``SDL_VIDEO_X11_WMCLASS`` when its
    video system starts; importing pygame sets it (where there is a DISPLAY) to the script's
    name, "__main__.py" for ``python -m vira_desktop``, so that default is replaced; a class
    the user set is kept."""
    if os.environ.get("SDL_VIDEO_X11_WMCLASS") in (None, "", os.path.basename(sys.argv[0])):
        os.environ["SDL_VIDEO_X11_WMCLASS"] = "vira"


class App:
    """The application: owns the window, the GUI manager and the scenes; the composition root,
    the one module that knows the scenes' classes (by registry.py) and this class (a scene
    knows the app only by :class:`~.base.AppPort`). Its helpers: :class:`~.window.Window`
    (size, full screen), :class:`Sounds`, and :class:`~.saves.Saves` (the autosave, history)."""

    def __init__(
        self,
        autoplay_speed: str | None = None,
        config: Path | None = None,
        save_autoplay: bool = False,
        seed: int | None = None,
        history: bool | None = None,
    ) -> None:
        self.started = time.perf_counter()
        # Seeds for the deals of new games: fixed by ``vira --seed`` to replay a game, else fresh.
        self.new_game_seeds: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self._notice: tuple[str, dict[str, object]] | None = None  # a catalog key and its values
        self.config_path = config or user_config_file()
        # the settings (a bad file's good ones kept), and what is wrong with the file (every problem)
        self.settings, self.config_problems = user_settings(self.config_path)
        self.autoplay_speed = autoplay_speed
        keeping = autoplay_speed is None if history is None else history  # autoplay: each when asked
        self.saves = Saves(self.tell, saving=autoplay_speed is None or save_autoplay, keeping=keeping)
        self.history_filters: tuple[Any, int] | None = None  # the History screen's filters, as last left
        name_window_class()
        with quiet_stderr():  # SDL's probes (ALSA, Wayland) write straight to the terminal
            pygame.display.init()
            pygame.font.init()
        font.cache_clear()  # fonts from an earlier pygame.init are no longer valid
        asked_headless = os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen")
        if pygame.display.get_driver() in ("dummy", "offscreen") and not (asked_headless or autoplay_speed):
            pygame.display.quit()
            raise NoDisplay("no display to open the window on (set SDL_VIDEODRIVER=dummy to run headless)")
        headless = asked_headless
        flags = 0 if headless else pygame.SCALED | pygame.RESIZABLE  # scaled to any window size
        # pygame-ce scales SCALED windows by whole numbers unless this (oddly named) hint is on:
        # a 1024×640 window then showed a 1280×800 crop. Smooth scaling keeps the text readable.
        os.environ.setdefault("SDL_HINT_RENDER_SCALE_QUALITY", "1")
        os.environ.setdefault("SDL_RENDER_SCALE_QUALITY", "linear")
        with contextlib.suppress(pygame.error, FileNotFoundError):
            pygame.display.set_icon(pygame.image.load(str(asset("icons", "vira-64.png"))))
        self.screen = pygame.display.set_mode(SIZE, flags)
        self.window = Window(headless)
        self.window.resize(self.settings.display.window)
        pygame.display.set_caption("Vira")
        configure(self.language())
        if self.config_problems:  # said in the language shown, whenever it is shown
            self.tell("app.settings_unreadable", problem=lambda: say_problems(self.config_problems))
        self.ui = pygame_gui.UIManager(
            SIZE, gui_theme(), starting_language=current(), translation_directory_paths=[str(CATALOGS)]
        )
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.frame_stats: FrameStats | None = None  # each frame timed (vira --autoplay)
        self.on_deal_committed: Callable[[CommittedDeal], None] | None = None  # history keeps deals here
        self.sounds = Sounds(self.settings.sound)
        self.host_config = HostConfig(announce=True)  # what a table hosted here starts from (tests make it brisk)
        self.coach_worker: Callable[[], Worker] = Worker  # where a network seat's coach thinks
        self.friends: RemoteTable | None = None  # the seat at a table with friends, closed at the end

    def sound(self, name: str) -> None:
        """Play the named sound (where there is a sound device and sound is on)."""
        self.sounds.play(name)

    # ------------------------------------------------------------------ settings
    def change_setting(self, key: str, value: SettingValue) -> str:
        """Set one setting (by its dotted name) and save the user's config (config.py's
        :func:`~vira_desktop.config.change_setting`: never raises); returns what the player
        should be told ("" when all went well)."""
        change = change_setting(self.config_path, self.settings, key, value)
        if not change.saved:
            return change.told
        self.config_problems = ()
        self.settings = change.settings
        if key == "display.window":
            self.window.resize(self.settings.display.window)
        elif key == "display.language":
            self.apply_language()
        if key.startswith("sound."):
            self.sounds.set(self.settings.sound)
        return change.told

    # ------------------------------------------------------------------ language
    def language(self) -> str:
        """The language chosen in the settings, or the system's."""
        chosen = self.settings.display.language
        return system_language() if chosen == "system" else chosen

    def apply_language(self) -> None:
        """Switch every text at once: pygame-gui's widgets re-translate themselves, and the
        scenes draw their texts anew each frame."""
        configure(self.language())
        self.ui.set_locale(current())

    def window_size(self) -> tuple[int, int]:
        """The window's size as it is (the setting shrunk to fit the desktop)."""
        return self.window.size(self.settings.display.window)

    # ------------------------------------------------------------------ notices
    def tell(self, key: str, **values: object) -> None:
        """Keep a notice for the menu (why the settings or the save could not be read); a
        value may be a function, called each time the notice is said (in the language shown)."""
        self._notice = (key, values)

    @property
    def notice(self) -> str:
        """The notice in the language shown now (it follows a change of language)."""
        if self._notice is None:
            return ""
        key, values = self._notice
        return t(key, **{k: v() if callable(v) else v for k, v in values.items()})

    # ------------------------------------------------------------------ saves and history (saves.py)
    @property
    def saved(self) -> Autosave:
        """The autosave (in the data folder as it is now: tests move it)."""
        return self.saves.saved

    def has_autosave(self) -> bool:
        return self.saves.saved.exists()

    def autosave(self, table: Table) -> None:
        """Save after every action, in the background (autoplay: only when asked)."""
        self.saves.save(table)

    def clear_autosave(self) -> None:
        self.saves.clear()

    def flush_saves(self) -> None:
        """Wait for the last save and the last deal for history to be written, and history's
        questions answered (before the program ends)."""
        self.saves.flush()

    def wait_for_history(self, timeout: float = 10.0) -> bool:
        """Wait until history has kept every deal handed over and answered every question
        (``False``: it took longer than ``timeout``). Tests step frames with it, as a player
        would see a screen only once its answers had come."""
        return self.saves.wait_for_history(timeout)

    @property
    def history(self) -> HistoryService:
        """History's own thread, which keeps the deals and answers the screens' questions."""
        return self.saves.history

    def deal_committed(self, deal: CommittedDeal) -> None:
        """A deal that can no longer be undone (the runner's hook): kept in history."""
        self.saves.keep(deal)
        if self.on_deal_committed is not None:
            self.on_deal_committed(deal)

    def resume_autosave(self, autoplay: int | None = None, hints: bool = False) -> None:
        """Continue the saved game; a damaged save is read up to its last good action (the
        damaged file kept aside, and the player told what was lost)."""
        saved = self.saved
        try:
            table = saved.load()
        except SaveError:
            try:
                table, recovered = saved.recover()
            except SaveError:
                self.tell("app.save_damaged", file=saved.set_aside().name)
                self.open("menu")
                return
            aside = saved.set_aside().name
            key = "app.save_recovered_cut" if recovered.cut else "app.save_recovered"
            self.tell(key, kept=recovered.kept, lost=recovered.lost, count=recovered.lost, file=aside)
            self._open_table(table, autoplay, hints, notice=self.notice)
            return
        self._open_table(table, autoplay, hints)

    # ------------------------------------------------------------------ scenes (by name, see registry.py)
    def open(self, name: SceneName, **kwargs: object) -> Scene:
        """Make the named scene the only one (the menu, a table, the settlement)."""
        self.stack.clear()
        scene = make(name, self, **kwargs)
        self.stack.push(scene)
        return scene

    def push(self, name: SceneName, **kwargs: object) -> Scene:
        """Stack the named scene over the current one (an overlay, a form); Esc pops it."""
        scene = make(name, self, **kwargs)
        self.stack.push(scene)
        return scene

    def pop(self) -> None:
        """Close the scene on top: back to the one under it."""
        self.stack.pop()

    def quit(self) -> None:
        """End the frame loop (the program ends after the last save is written)."""
        self.running = False

    def _close(self) -> None:
        """The window's close button: the program ends unless a scene asks first (a table of
        friends, a deal played again); the sheets over the asking scene close, so the question
        is seen."""
        asking = next((s for s in reversed(self.stack.scenes) if not s.may_close()), None)
        if asking is None:
            self.running = False
            return
        while self.stack.top is not asking:
            self.stack.pop()

    def start_table(
        self,
        order: TableOrder | Table,
        autoplay: int | None = None,
        hints: bool = False,
        saves: bool = True,
        back_to: SceneName | None = None,
    ) -> None:
        """Open the table ``order`` asks for (or a table built already: a test's, a tool's)."""
        table = order if isinstance(order, Table) else order.build(self.settings)
        self._open_table(table, autoplay, hints, saves, back_to)

    def table_client(
        self, order: TableOrder | Table, autoplay: int | None = None, hints: bool = False, saves: bool = True
    ) -> TableRunner:
        """The runner of a new table, its hooks the app's (a scene is handed only its port)."""
        table = order if isinstance(order, Table) else order.build(self.settings)
        save, settled = (self.autosave, self.clear_autosave) if saves else (None, None)
        return table_runner(table, self.settings, autoplay, hints, save, self.deal_committed, settled)

    def _open_table(
        self,
        table: Table,
        autoplay: int | None = None,
        hints: bool = False,
        saves: bool = True,
        back_to: SceneName | None = None,
        notice: str = "",
    ) -> None:
        runner = self.table_client(table, autoplay, hints, saves)
        speed = self.autoplay_speed if autoplay is not None and self.autoplay_speed else None
        self.open("table", client=runner, back_to=back_to, speed=speed)
        if notice:
            runner.tell(notice)  # said at the table too, under the deal told again
        if saves:
            self.autosave(table)
            self.flush_saves()  # a new game is on disk before its first move (Continue finds it)
        settle_memory()

    # ------------------------------------------------------------------ play with friends (net/)
    def host_friends(
        self, name: str, players: int, friends: int, password: str | None, lan: bool, table: str = "1",
        bots: str = "normal",
    ) -> RemoteTable:
        """Host a table here (named ``table``) for ``friends`` besides ``name``, bots of level
        ``bots`` in the other seats, the player's house rules, and take a seat at it (see
        :func:`~..net.remote.host_here`)."""
        config = replace(self.host_config, first=table, bots=bots, rules=self.settings.house_rules)
        return self._seat(host_here(config, name, players, friends, password, lan, self.coach_worker))

    def join_friends(
        self, address: str, name: str, password: str | None, table: str = "", token: str | None = None
    ) -> RemoteTable:
        """Take a seat at a table a friend hosts (``token``: the seat held for this player);
        :class:`ValueError`: not an address."""
        address_url(address, table)
        return self._seat(RemoteTable(JoinOptions(address, name, table, password, token), self.coach_worker))

    def _seat(self, remote: RemoteTable) -> RemoteTable:
        if self.friends is not None:
            self.friends.close()
        remote.show_chat = self.settings.friends.chat
        self.friends = remote
        remote.coach_bids = self.settings.display.coach_grid == "always"  # with friends it is no practice
        return remote

    def to_menu(self) -> None:
        self.open("menu")

    # ------------------------------------------------------------------ the loop
    def run(self, max_seconds: float | None = None) -> None:
        """The frame loop: 60 frames a second while anything moves; with nothing to animate
        and no input, the process sleeps in SDL's event wait until input or the scene's next
        wake-up (a desktop game must not heat the laptop while the player thinks)."""
        if self.stack.top is None:
            self.to_menu()
        deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        dt = 0.0
        while self.running:
            self.step(dt)
            if not self.running:  # closed in that frame: not a sleep first (a kill waited 2 s for it)
                break
            wake = self.next_wake()
            if wake is None or wake > 0:
                self._sleep(IDLE_WAKE_S if wake is None else min(wake, IDLE_WAKE_S), deadline)
                dt = self.clock.tick() / 1000.0  # the time slept counts (a bot's pause runs out in it)
            else:
                dt = self.clock.tick(FPS) / 1000.0
            if deadline is not None and time.perf_counter() > deadline:
                break
        if self.friends is not None:  # a bye to the friends' table, and a table hosted here stopped
            self.friends.close()
        self.flush_saves()

    def next_wake(self) -> float | None:
        """Seconds until the top scene needs a frame with no input (0: now; ``None``: only on input)."""
        if pygame.event.peek():
            return 0.0
        top = self.stack.top
        return top.next_wake() if top is not None else None

    def _sleep(self, seconds: float, deadline: float | None) -> None:
        """Wait for input for up to ``seconds`` (the event stays queued for the next frame)."""
        if deadline is not None:
            seconds = max(0.0, min(seconds, deadline - time.perf_counter()))
        wait_for_input(seconds)

    def step(self, dt: float) -> None:
        """One frame: events, update, draw (timed, without the wait for the next frame): wall
        time, and the frame loop's own CPU time (which a busy machine cannot stretch)."""
        t0, c0 = time.perf_counter(), time.thread_time()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self._close()
                continue
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.window.toggle_fullscreen(self.settings.display.window)
                continue
            self.ui.process_events(event)
            top = self.stack.top
            if top is not None:
                top.handle(event)
        top = self.stack.top
        if top is not None:
            top.update(dt)
        self.ui.update(dt)
        if top is not None:
            top.draw(self.screen)
        self.ui.draw_ui(self.screen)
        pygame.display.flip()
        if self.frame_stats is not None:
            self.frame_stats.record(time.perf_counter() - t0, time.thread_time() - c0)


def run_game(config: Path | None = None, seed: int | None = None) -> int:
    try:
        app = App(config=config, seed=seed)
    except NoDisplay as exc:
        print(f"vira: {exc}", file=sys.stderr)
        return 2
    app.run()
    pygame.quit()
    return 0


def open_file_window(path: str, check: bool = False) -> int:
    """``vira FILE.yaml`` and ``vira replay FILE --window``: the deal record in the replay
    window; a file that cannot be read opens the menu with the same one-line error as ``vira
    replay`` (Esc quits). ``check``: a result that differs from the replay's is the error shown."""
    from ..rules.errors import RecordError
    from ..session.as_played import as_recorded, your_names
    from ..session.exchange import about_of
    from ..session.record import check_result, good_part, load_record, replay

    try:
        app = App()
    except NoDisplay as exc:
        print(f"vira: {exc}", file=sys.stderr)
        return 2
    name = Path(path).name
    try:
        record = load_record(path)
    except RecordError as exc:
        app.tell("app.record_bad", problem=f"{name}: {exc}")
        app.to_menu()
    else:  # a record bad at its action N opens up to the action before, with the error shown
        good, problem = good_part(record)
        said = "" if problem is None else str(problem)
        if check and not said:
            said = check_result(record, replay(record)) or ""
        about = about_of(Path(path).read_text(encoding="utf-8"))  # an exported file: its levels, its number
        played = as_recorded(good, your_names(), about)
        number = int(about.get("number", 0)) if str(about.get("number", "0")).isdigit() else 0
        app.open("replay", record=good, title=name, quit_on_back=True, problem=said, played=played, number=number)
    app.run()
    pygame.quit()
    return 0
