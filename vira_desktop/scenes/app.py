"""The game window: one frame loop, a scene stack, settings, sound, autosave."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import random
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
import yaml

from ..config import ConfigError, Settings, load_settings, merge, salvage_settings, say_problems, validate
from ..i18n import CATALOGS, configure, current, system_language, t
from ..paths import asset, autosave_file, history_file, legacy_autosave_file, user_config_file, write_atomically
from ..session.autosave import Autosave
from ..session.factory import new_table
from ..session.history_service import HistoryService
from ..session.runner import CommittedDeal
from ..session.saving import BackgroundSaver
from ..session.table import SaveError, SeatConfig, Table, quarantine
from .base import Scene, SceneStack
from .idle import wait_for_input
from .theme import SIZE, font, gui_theme
from .window import MIN_SIZE, desktop_size, fit_window

FPS = 60  # while anything moves
IDLE_WAKE_S = 2.0  # with nothing to animate, a frame at least this often (the menu's clock, a lost wake-up)

SOUNDS = ("deal", "play", "trick", "tokens")
log = logging.getLogger(__name__)


def peak_memory_mb() -> float:
    """The process's peak resident memory in MB (Windows has no ``resource`` module)."""
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes

        class Counters(ctypes.Structure):
            _fields_ = [
                ("cb", wintypes.DWORD),
                ("PageFaultCount", wintypes.DWORD),
                ("PeakWorkingSetSize", ctypes.c_size_t),
                ("WorkingSetSize", ctypes.c_size_t),
                ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
                ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                ("PagefileUsage", ctypes.c_size_t),
                ("PeakPagefileUsage", ctypes.c_size_t),
            ]

        # With its prototypes declared: ctypes would pass the pseudo-handle GetCurrentProcess()
        # returns (-1) as a 32-bit int, which 64-bit Windows takes for no process (found under
        # Wine: the frozen game's rss_mb was 0).
        kernel32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined]
        psapi = ctypes.WinDLL("psapi")  # type: ignore[attr-defined]
        kernel32.GetCurrentProcess.restype = wintypes.HANDLE
        kernel32.GetCurrentProcess.argtypes = []
        psapi.GetProcessMemoryInfo.restype = wintypes.BOOL
        psapi.GetProcessMemoryInfo.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        if not psapi.GetProcessMemoryInfo(kernel32.GetCurrentProcess(), ctypes.byref(counters), counters.cb):
            return 0.0
        return float(counters.PeakWorkingSetSize) / (1024 * 1024)
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def process_age() -> float | None:
    """Seconds since this process started (Linux /proc), or None where that is not known."""
    try:
        stat = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - int(stat[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


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


class App:
    """The application: owns the window, the GUI manager and the scenes."""

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
        self.config_problems: tuple[str, ...] = ()  # what is wrong with the user's config file (every problem)
        self.config_path = config or user_config_file()
        try:
            self.settings = load_settings(self.config_path)
        except ConfigError as exc:
            self.settings = salvage_settings(self.config_path)  # the good settings are kept
            self.config_problems = exc.problems
        self.autoplay_speed = autoplay_speed
        self.save_autoplay = save_autoplay
        self.keep_history = autoplay_speed is None if history is None else history  # autoplay: when asked
        self._history: HistoryService | None = None
        self.history_filters: tuple[Any, int] | None = None  # the History screen's filters, as last left
        journal = os.environ.get("VIRA_JOURNAL")
        self.journal = Path(journal) if journal else None  # the kill -9 test reads this
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
        self.window = None if headless else _window()
        self.fullscreen = False
        self.resize_window(self.settings["display.window"])
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
        self.frame_times: list[float] = []
        self.frame_cpu: list[float] = []
        self.first_frame_s: float | None = None
        self._saver: BackgroundSaver | None = None
        self._autosave: Autosave | None = None
        self.on_deal_committed: Callable[[CommittedDeal], None] | None = None  # history keeps deals here
        self._sounds: dict[str, Any] = {}
        self._init_sound()

    # ------------------------------------------------------------------ sound (silent where no device)
    def _init_sound(self) -> None:
        if not self.settings["sound.enabled"]:
            return
        try:
            with quiet_stderr():
                pygame.mixer.init()
        except pygame.error as exc:
            log.warning("no sound device (%s): the game plays without sound", exc)
            return
        for name in SOUNDS:
            try:
                sound = pygame.mixer.Sound(str(asset("sounds", f"{name}.wav")))
                sound.set_volume(float(self.settings["sound.volume"]))
                self._sounds[name] = sound
            except (pygame.error, FileNotFoundError):
                pass

    def sound(self, name: str) -> None:
        sound = self._sounds.get(name)
        if sound is not None and self.settings["sound.enabled"]:
            sound.play()

    # ------------------------------------------------------------------ settings
    def change_setting(self, key: str, value: Any) -> str:
        """Set one setting and save the user's config (atomically). Never raises: an unreadable
        config file is kept aside (``config.yaml.bad-N``) and written anew from the settings in
        use. Returns what the player should be told ("" when all went well)."""
        section, name = key.split(".")
        path = self.config_path
        told = ""
        try:
            current = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
            validate(current or {})
        except (OSError, yaml.YAMLError, ConfigError):
            current = {}
            if path.exists():
                kept = quarantine(path, "bad")
                told = t("settings.kept_aside", file=path.name, kept=kept.name)
        updated = merge(current or {}, {section: {name: value}})
        try:
            validate(updated)
            write_atomically(path, yaml.safe_dump(updated, allow_unicode=True, sort_keys=False))
        except ConfigError as exc:
            return t("settings.not_saved", problem=say_problems(exc.problems))
        except OSError as exc:
            return t("settings.not_saved", problem=exc)
        self.config_problems = ()
        self.settings = Settings(merge(self.settings.data, {section: {name: value}}))
        if key == "display.window":
            self.resize_window(value)
        elif key == "display.language":
            self.apply_language()
        if section == "sound":
            for sound in self._sounds.values():
                sound.set_volume(float(self.settings["sound.volume"]))
        return told

    # ------------------------------------------------------------------ language
    def language(self) -> str:
        """The language chosen in the settings, or the system's."""
        chosen = str(self.settings["display.language"])
        return system_language() if chosen == "system" else chosen

    def apply_language(self) -> None:
        """Switch every text at once: pygame-gui's widgets re-translate themselves, and the
        scenes draw their texts anew each frame."""
        configure(self.language())
        self.ui.set_locale(current())

    # ------------------------------------------------------------------ the window
    def resize_window(self, size: Sequence[int]) -> None:
        """Give the window ``size``, capped to the desktop. Everything is drawn at 1280×800 and
        SDL scales it to the window, keeping the aspect ratio (letterboxed), mouse included: the
        pointer is put back over the point of the table it was over (the button just clicked)."""
        if self.window is None or self.fullscreen:
            return
        pointer = pygame.mouse.get_pos() if pygame.mouse.get_focused() else None  # in the table's pixels
        with contextlib.suppress(pygame.error):
            self.window.minimum_size = MIN_SIZE  # SCALED would hold it at 1280×800
            self.window.size = fit_window(size, desktop_size())
            if pointer is not None:
                pygame.mouse.set_pos(pointer)

    def window_size(self) -> tuple[int, int]:
        """The window's size as it is (the setting shrunk to fit the desktop)."""
        if self.window is not None and not self.fullscreen:
            width, height = self.window.size
            return int(width), int(height)
        return fit_window(self.settings["display.window"], desktop_size())

    def toggle_fullscreen(self) -> None:
        """F11: the whole screen (the table letterboxed in it), or back to the window size."""
        if self.window is None:
            return
        with contextlib.suppress(pygame.error):
            if self.fullscreen:
                self.window.set_windowed()
                self.fullscreen = False
                self.resize_window(self.settings["display.window"])
            else:
                self.window.set_fullscreen(desktop=True)
                self.fullscreen = True

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

    # ------------------------------------------------------------------ saves
    @property
    def saved(self) -> Autosave:
        """The autosave (in the data folder as it is now: tests move it)."""
        if self._autosave is None or self._autosave.path != autosave_file():
            self._autosave = Autosave(autosave_file(), legacy_autosave_file())
        return self._autosave

    def has_autosave(self) -> bool:
        return self.saved.exists()

    def autosave(self, table: Table) -> None:
        """Save after every action: snapshotted now, written by a background thread (never on
        the frame loop) as one transaction; with ``VIRA_JOURNAL`` set, each save written is noted there."""
        if self.autoplay_speed is not None and not self.save_autoplay:
            return
        if self._saver is None:
            self._saver = BackgroundSaver(self.saved, self.journal, self._save_failed)
        self._saver(table)

    def _save_failed(self, exc: OSError) -> None:
        self.tell("app.no_autosave", problem=exc.strerror)

    def flush_saves(self) -> None:
        """Wait for the last save and the last deal for history to be written, and history's
        questions answered (before the program ends)."""
        if self._saver is not None:
            self._saver.flush()
        self.wait_for_history()

    def wait_for_history(self, timeout: float = 10.0) -> bool:
        """Wait until history has kept every deal handed over and answered every question
        (``False``: it took longer than ``timeout``). Tests step frames with it, as a player
        would see a screen only once its answers had come."""
        return self._history is None or self._history.flush(timeout)

    @property
    def history(self) -> HistoryService:
        """History's own thread, which keeps the deals and answers the screens' questions (in
        the data folder as it is now: tests move it)."""
        if self._history is None or self._history.path != history_file():
            if self._history is not None:
                self._history.close()  # what it was handed is kept first
            self._history = HistoryService(history_file(), self.journal, self._history_damaged)
        return self._history

    def deal_committed(self, deal: CommittedDeal) -> None:
        """A deal that can no longer be undone (the runner's hook): kept in history, by its
        thread (a damaged history file is set aside, and the player told)."""
        if self.keep_history:
            self.history(deal)
        if self.on_deal_committed is not None:
            self.on_deal_committed(deal)

    def _history_damaged(self, aside: str) -> None:
        self.tell("app.history_damaged", file=aside)

    def clear_autosave(self) -> None:
        self.flush_saves()  # a save still being written would bring it back
        self.saved.clear()

    def resume_autosave(self) -> None:
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
            self.start_table(table)
            self.tell(key, kept=recovered.kept, lost=recovered.lost, count=recovered.lost, file=aside)
            runner = getattr(self.stack.top, "runner", None)
            if runner is not None:  # said at the table too, under the deal told again
                runner.tell(self.notice)
            return
        self.start_table(table)

    # ------------------------------------------------------------------ scenes (by name, see registry.py)
    def open(self, name: str, **kwargs: Any) -> Scene:
        """Make the named scene the only one (the menu, a table, the settlement)."""
        from .registry import make

        self.stack.clear()
        scene = make(name, self, **kwargs)
        self.stack.push(scene)
        return scene

    def push(self, name: str, **kwargs: Any) -> Scene:
        """Stack the named scene over the current one (an overlay, a form); Esc pops it."""
        from .registry import make

        scene = make(name, self, **kwargs)
        self.stack.push(scene)
        return scene

    def start_table(self, table: Table, autoplay: int | None = None, hints: bool = False) -> None:
        self.open("table", table=table, autoplay=autoplay, hints=hints)
        self.autosave(table)
        self.flush_saves()  # a new game is on disk before its first move (Continue finds it)
        settle_memory()

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
            wake = self.next_wake()
            if wake is None or wake > 0:
                self._sleep(IDLE_WAKE_S if wake is None else min(wake, IDLE_WAKE_S), deadline)
                dt = self.clock.tick() / 1000.0  # the time slept counts (a bot's pause runs out in it)
            else:
                dt = self.clock.tick(FPS) / 1000.0
            if deadline is not None and time.perf_counter() > deadline:
                break
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
                self.running = False
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.toggle_fullscreen()
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
        self.frame_times.append(time.perf_counter() - t0)
        self.frame_cpu.append(time.thread_time() - c0)
        if self.first_frame_s is None:
            age = process_age()  # from the process start, imports included
            self.first_frame_s = age if age is not None else time.perf_counter() - self.started

    def stats(self, deals: int) -> dict[str, Any]:
        times = sorted(self.frame_times[5:] or self.frame_times)
        cpu = sorted(self.frame_cpu[5:] or self.frame_cpu)
        ms = 1000.0

        def pct(q: float, values: list[float] = times) -> float:
            return round(ms * values[min(len(values) - 1, int(q * len(values)))], 3) if values else 0.0

        rss_mb = peak_memory_mb()
        return {
            "deals": deals,
            "frames": len(self.frame_times),
            "frame_ms_median": pct(0.5),
            "frame_ms_p95": pct(0.95),
            "frame_ms_max": pct(1.0),
            "frame_cpu_ms_p95": pct(0.95, cpu),
            "frame_cpu_ms_max": pct(1.0, cpu),
            "startup_s": round(self.first_frame_s or 0.0, 3),
            "rss_mb": round(rss_mb, 1),
        }


def _window() -> pygame.Window | None:
    """The display module's window (pygame-ce 2.5 warns that this is for surface rendering)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return pygame.Window.from_display_module()
        except (AttributeError, pygame.error):
            return None


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
        app.open("replay", record=good, title=name, quit_on_back=True, problem=said)
    app.run()
    pygame.quit()
    return 0


def autoplay(
    deals: int,
    seed: int,
    speed: str,
    players: int = 3,
    save: bool = False,
    resume: bool = False,
    hints: bool = False,
    history: bool = False,
) -> int:
    """Play ``deals`` deals with every seat a bot, then print the frame statistics as JSON.

    ``save`` autosaves after every action as a real game does; ``resume`` continues the autosave;
    ``hints`` asks the coach for a hint at every decision of the first seat, as a player would;
    ``history`` keeps every deal in history as a real game does.
    """
    app = App(autoplay_speed=speed, save_autoplay=save, history=history)
    app.to_menu()
    app.step(0.0)  # the menu's first frame: the start-up figure
    names = ["North", "East", "South", "West"][:players]
    if resume and app.has_autosave():
        table = app.saved.load()
    else:
        table = new_table([SeatConfig(n, False, "normal") for n in names], seed)
    app.start_table(table, autoplay=deals, hints=hints)
    app.run()
    top = app.stack.top
    stats = app.stats(getattr(top, "deals_done", deals))
    app.flush_saves()
    if hints:
        stats["hints"] = getattr(top, "hints_asked", 0)
    print(json.dumps(stats))
    pygame.quit()
    return 0
