"""Idle CPU benchmark: how much of one core the game burns while it waits for the player.

Two situations, each in a fresh game process started under a display:

* ``menu`` — the game started normally (``App()``, ``to_menu()``, ``run()``), nothing touched;
* ``table, your bid`` — a new game against two bots in which the human is forehand and must
  bid first; the seating draw and the dealing animation are left to finish (``--settle``
  seconds) before the measurement starts.

The figure is the CPU time (utime+stime from ``/proc/PID/stat``, in clock ticks) used over the
window by the game process *and all its descendants* (the bots' worker process included;
``cutime+cstime`` too, so a descendant reaped during the window is not lost), divided by the
window's measured wall time. 100% is one core kept busy.

By default the game runs under its own ``Xvfb :N -screen 0 1280x800x24`` (a free display
number; the server is killed at the end); ``--dummy`` uses ``SDL_VIDEODRIVER=dummy`` instead.
Sound is always ``SDL_AUDIODRIVER=dummy``, and ``VIRA_CONFIG_DIR`` / ``VIRA_DATA_DIR`` point at
a temporary folder, so no real settings or save is read or written. Linux only (``/proc``).

Run: ``.venv/bin/python benchmarks/idle_cpu.py [--seconds 20] [--settle 6] [--dummy] [--json]``

Target: at most 3% of a core in both situations (a waiting game should sleep, not spin).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREEN = "1280x800x24"
READY = "idle-cpu: ready"
FALLBACK_SEED = 1  # the first first-come seed where "You" bids first (found by _human_first_seed)
SEATS = '[SeatConfig("You", True), SeatConfig("Bertil"), SeatConfig("Cecilia")]'

# The child snippets use only App(), to_menu(), start_table(), run(), Table(...), SeatConfig(...).
MENU_SNIPPET = f"""
from vira_desktop.scenes.app import App
app = App()
app.to_menu()
print({READY!r}, flush=True)
app.run()
"""

TABLE_SNIPPET = f"""
import sys
from vira_desktop.scenes.app import App
from vira_desktop.session.table import SeatConfig, Table
app = App()
app.start_table(Table({SEATS}, int(sys.argv[1]), seating="first-come"))
print({READY!r}, flush=True)
app.run()
"""


@dataclass
class Figure:
    key: str  # the JSON key
    situation: str  # as printed
    percent: float  # of one core
    seconds: float  # the window's measured wall time
    ticks: int  # CPU ticks used by the process tree over the window
    available: int  # ticks one core gives over the window


# ---------------------------------------------------------------------------------------- /proc
def _stat(pid: int) -> tuple[int, int] | None:
    """(ppid, utime+stime+cutime+cstime) of ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after "pid (comm)": state, ppid, ...
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return ppid, utime + stime + cutime + cstime


def tree(root: int) -> dict[int, int]:
    """CPU ticks of ``root`` and each of its descendants (found by ppid), by pid."""
    stats: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            stats[int(entry)] = stat
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    out: dict[int, int] = {}
    todo = [root] if root in stats else []
    while todo:
        pid = todo.pop()
        out[pid] = stats[pid][1]
        todo.extend(children.get(pid, []))
    return out


# ---------------------------------------------------------------------------------------- display
def _free_display() -> int:
    for n in range(99, 400):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number in :99-:399")


def start_xvfb() -> tuple[subprocess.Popen[bytes], int]:
    """Start ``Xvfb :N`` on a free display number and wait until it takes connections."""
    if shutil.which("Xvfb") is None:
        raise RuntimeError("Xvfb not found (apt-get install xvfb), or use --dummy")
    for _attempt in range(5):
        n = _free_display()
        server = subprocess.Popen(
            ["Xvfb", f":{n}", "-screen", "0", SCREEN, "-nolisten", "tcp"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and server.poll() is None:
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                time.sleep(0.3)  # the socket is there; let the server finish starting
                return server, n
            time.sleep(0.05)
        stop(server)  # it lost a race for the number, or hung: try the next
    raise RuntimeError("Xvfb did not start")


def stop(proc: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------------------------------- the game
def _human_first_seed() -> int:
    """The first seed whose first-come table asks "You" (seat config human) to bid first."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # the checkout this script is in, as the game process imports it
    try:
        from vira_desktop.session.table import SeatConfig, Table

        for seed in range(1, 200):
            table = Table(
                [SeatConfig("You", True), SeatConfig("Bertil"), SeatConfig("Cecilia")], seed, seating="first-come"
            )
            ask = table.ask()
            if ask is not None and table.is_human(ask.seat):
                return seed
    except Exception as exc:  # the table's API moved: the seed found today still is the likeliest
        print(f"idle_cpu: seed probe failed ({exc!r}); using seed {FALLBACK_SEED}", file=sys.stderr)
    return FALLBACK_SEED


def _wait_ready(game: subprocess.Popen[bytes], timeout: float) -> None:
    assert game.stdout is not None
    deadline = time.monotonic() + timeout
    seen = b""
    while time.monotonic() < deadline and game.poll() is None:
        ready, _, _ = select.select([game.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(game.stdout.fileno(), 4096)
            seen += chunk
            if READY.encode() in seen:
                return
            if not chunk:
                break
    raise RuntimeError("the game did not start")


def _end_game(game: subprocess.Popen[bytes]) -> None:
    """End the game and whatever of its descendants is left (only processes this script started)."""
    descendants = [pid for pid in tree(game.pid) if pid != game.pid]
    stop(game)
    time.sleep(0.5)  # the worker follows its parent out by itself
    for pid in descendants:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def measure(
    key: str,
    situation: str,
    snippet: str,
    args: list[str],
    env: dict[str, str],
    home: Path,
    seconds: float,
    settle: float,
) -> Figure:
    for sub in ("config", "data"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env = {**env, "VIRA_CONFIG_DIR": str(home / "config"), "VIRA_DATA_DIR": str(home / "data")}
    log = (home / "stderr.txt").open("wb")
    game = subprocess.Popen(
        [sys.executable, "-c", snippet, *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=log,
    )
    try:
        try:
            _wait_ready(game, timeout=60)
            time.sleep(settle)
            if game.poll() is not None:
                raise RuntimeError("the game ended during the settle time")
            t0, before = time.monotonic(), tree(game.pid)
            time.sleep(seconds)
            t1, after = time.monotonic(), tree(game.pid)
            if game.poll() is not None:
                raise RuntimeError("the game ended during the measurement")
        except RuntimeError as exc:
            log.flush()
            tail = (home / "stderr.txt").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{situation}: {exc} (exit {game.poll()})\n{tail}") from None
    finally:
        _end_game(game)
        log.close()
    # a descendant started in the window counts from 0; one that ended and was reaped in the
    # tree has moved its ticks into its parent's cutime+cstime, so the totals still compare
    ticks = sum(after.values()) - sum(before.values())
    wall = t1 - t0
    available = round(wall * os.sysconf("SC_CLK_TCK"))
    return Figure(key, situation, round(100.0 * ticks / available, 1), round(wall, 2), ticks, available)


# ---------------------------------------------------------------------------------------- main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="measurement window per situation (default 20)")
    parser.add_argument("--settle", type=float, default=6.0, help="wait after start-up before measuring (default 6)")
    parser.add_argument("--dummy", action="store_true", help="SDL_VIDEODRIVER=dummy instead of an Xvfb display")
    parser.add_argument("--seed", type=int, help="the table's seed (default: the first where you bid first)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    ns = parser.parse_args()
    if not Path("/proc/self/stat").exists():
        print("idle_cpu: needs Linux /proc", file=sys.stderr)
        return 2
    seed = ns.seed if ns.seed is not None else _human_first_seed()

    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "DISPLAY")}
    env["SDL_AUDIODRIVER"] = "dummy"
    server: subprocess.Popen[bytes] | None = None
    figures: list[Figure] = []
    try:
        with tempfile.TemporaryDirectory(prefix="vira-idle-cpu-") as tmp:
            if ns.dummy:
                env["SDL_VIDEODRIVER"] = "dummy"
            else:
                server, display = start_xvfb()
                env["SDL_VIDEODRIVER"] = "x11"
                env["DISPLAY"] = f":{display}"
            runs = [("menu", "menu", MENU_SNIPPET, []), ("table_bid", "table, your bid", TABLE_SNIPPET, [str(seed)])]
            for key, situation, snippet, args in runs:
                figures.append(measure(key, situation, snippet, args, env, Path(tmp) / key, ns.seconds, ns.settle))
    except RuntimeError as exc:
        print(f"idle_cpu: {exc}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            stop(server)

    if ns.json:
        print(json.dumps({f.key: asdict(f) for f in figures}))
    else:
        for f in figures:
            print(f"{f.situation}: {f.percent}% of a core over {f.seconds:.1f} s ({f.ticks} of {f.available} ticks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
