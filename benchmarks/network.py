"""Load on one host process: N tables of three network players each (random bots, here in
this process as light asyncio clients, answering after ``--think`` seconds as a quick player
would), for S seconds. Measured: the host process's CPU (``/proc``: user + system, as a share
of one core) and its RSS at the end, and the time from a move's submission to the moment
every client of that table has received the change (an update or a state of that version or
later), p50 / p95 / max, on this machine's one clock. The host keeps its tables (autosave)
as ``vira host`` does unless ``--no-save``. The clients' own process is measured too (its CPU,
and how late its event loop wakes, p95): a latency is the host's and theirs together. A
client reads every message as JSON (for its version) but decodes only the question of a
state it answers, not the whole state as ``vira join`` does: all the clients share one
process, and decoding the whole score sheet again at each question made that process, not
the host, what was late. ``--probe DIR`` splits each move's time by the host's own stamps
(``_host_probe.py``): to the host, in the host, on to the last client (``--profile``: the
host under cProfile too, ``DIR/host.prof``).
Run: ``python benchmarks/network.py --tables 10 --seconds 60 [--think 1.0] [--json] [--probe DIR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from _figures import print_figures

PLAYERS = ("Anna", "Bertil", "Cecilia")


def start_host(
    port: int, tables: int, save: str | None, probe: Path | None, profile: bool = False
) -> subprocess.Popen[bytes]:
    """``vira host`` of this checkout in a process of its own, sized for ``tables`` tables
    (``probe``: under ``_host_probe.py``, its findings written to that folder; ``profile``:
    with cProfile too)."""
    root = Path(__file__).resolve().parents[1]
    args = ["--port", str(port), "--prefix", "b", "--max-tables", str(tables + 1)]
    args += ["--max-connections", str(3 * tables + 8), "--no-announce", "--seed", "1", "--bots", "random"]
    args += ["--save", save] if save else ["--no-save"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-m", "vira_desktop", "host", *args]
    if probe is not None:
        probing = [str(root / "benchmarks" / "_host_probe.py"), str(probe), "profile" if profile else "stamps"]
        command = [sys.executable, *probing, *args]
    return subprocess.Popen(command, cwd=root, env=env, stderr=subprocess.DEVNULL)


class Table:
    """One table's clients' shared account: when each move was submitted, who has seen it."""

    def __init__(self) -> None:
        self.submitted: dict[int, float] = {}  # the version a move makes -> when it was sent
        self.seen: dict[int, list[float]] = {}  # that version -> when each client first had it
        self.latest = [-1, -1, -1]  # the newest version each client has had
        self.refused = 0  # submissions the host refused (not timed)
        self.moves: list[tuple[int, float, float]] = []  # each timed move: version made, sent, all had it

    def received(self, client: int, version: int, now: float, out: list[float]) -> None:
        if version <= self.latest[client]:
            return
        self.latest[client] = version
        for made, sent in list(self.submitted.items()):
            if made <= version:
                times = self.seen.setdefault(made, [])
                times.append(now)
                if len(times) == 3:
                    out.append(now - sent)
                    self.moves.append((made, sent, now))
                    del self.submitted[made], self.seen[made]


async def client(port: int, code: str, index: int, table: Table, think: float, out: list[float], end: float) -> None:
    """One player: reads everything the host sends (timing each new version), and answers the
    newest question put to it after a think."""
    from websockets.asyncio.client import ClientConnection, connect

    from vira_desktop.ai import make_bot
    from vira_desktop.net.protocol import PROTOCOL, Hello, Submit, encode
    from vira_desktop.session.flow import Ask
    from vira_desktop.session.wire import from_json, to_json

    bot = make_bot("random", zlib.crc32(code.encode()) + index)
    asked: list[tuple[int, Any] | None] = [None]  # the newest state's version and question, while it asks this seat
    mine = [-1]  # the version this client's last submission would make
    wake = asyncio.Event()

    async def answer(ws: ClientConnection) -> None:
        while True:
            await wake.wait()
            wake.clear()
            await asyncio.sleep(think * random.uniform(0.5, 1.5))
            standing = asked[0]
            if standing is None:
                continue
            version, ask = standing[0], from_json(standing[1], Ask)  # (only the question read, not the whole state)
            action = bot.choose(ask.view).action
            wire = to_json(action) if action is not None else {"action": None, "seat": None}
            assert isinstance(wire, dict)
            asked[0] = None
            mine[0] = version + 1
            table.submitted[mine[0]] = time.monotonic()
            await ws.send(encode(Submit(wire["action"], seat=wire["seat"], version=version)))

    async with connect(f"ws://127.0.0.1:{port}/{code}", max_size=2**21, compression=None, open_timeout=30) as ws:
        await ws.send(encode(Hello(PROTOCOL, PLAYERS[index], code)))
        answering = asyncio.create_task(answer(ws))
        try:
            while time.monotonic() < end:
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
                except TimeoutError:
                    break
                now = time.monotonic()
                assert isinstance(text, str)
                data = json.loads(text)
                kind = data["type"]
                if kind == "update":
                    table.received(index, data["update"]["version"], now, out)
                elif kind == "state":
                    table.received(index, data["seen"]["version"], now, out)
                    ask = data["seen"]["ask"]
                    asked[0] = (data["seen"]["version"], ask) if ask is not None else None
                    if asked[0] is not None:
                        wake.set()
                elif kind == "error":  # refused (the host took a one-option step first: stale): not timed
                    table.submitted.pop(mine[0], None)
                    table.refused += 1
                elif kind == "bye":
                    break
        finally:
            answering.cancel()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> tuple[float, int]:
    """The resident memory of ``pid`` and its child processes (the tables' bot workers), MB;
    and how many children."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    total = 0
    for p in [pid, *map(int, children)]:
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024, len(children)


async def lag(end: float, out: list[float]) -> None:
    """How late this process's event loop wakes from a 10 ms sleep, each time (s): what its
    own load adds to the latencies it measures."""
    while time.monotonic() < end:
        start = time.monotonic()
        await asyncio.sleep(0.01)
        out.append(time.monotonic() - start - 0.01)


async def load(port: int, tables: int, seconds: float, think: float) -> tuple[list[float], list[float], list[Table]]:
    """The latencies, the clients' loop lags, and each table's account."""
    out: list[float] = []
    lags: list[float] = []
    end = time.monotonic() + seconds
    tasks = [asyncio.create_task(lag(end, lags))]
    accounts = [Table() for _ in range(tables)]
    for t, table in enumerate(accounts):
        tasks += [asyncio.create_task(client(port, f"b-{t + 1}", i, table, think, out, end)) for i in range(3)]
    await asyncio.gather(*tasks, return_exceptions=False)
    return out, lags, accounts


def p95(values: list[float]) -> float | None:
    """The 95th percentile of ``values`` in ms (``None`` for none)."""
    ms = sorted(x * 1000 for x in values)
    return round(ms[int(0.95 * (len(ms) - 1))], 1) if ms else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--think", type=float, default=1.0, help="a client's mean seconds before it answers")
    ap.add_argument("--no-save", action="store_true", help="the host keeps no autosave")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--probe", metavar="DIR", help="each move's time split, by the host's stamps (_host_probe.py)")
    ap.add_argument("--profile", action="store_true", help="with --probe: the host run under cProfile too (slower)")
    args = ap.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = None if args.no_save else tempfile.mkdtemp(prefix="vira-bench-host-")
    findings = Path(args.probe) if args.probe else None
    if findings is not None:
        findings.mkdir(parents=True, exist_ok=True)
    host = start_host(port, args.tables, folder, findings, args.profile)
    for _ in range(300):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    cpu0, wall0, own0 = cpu_seconds(host.pid), time.monotonic(), time.process_time()
    latencies, lags, accounts = asyncio.run(load(port, args.tables, args.seconds, args.think))
    refused = sum(table.refused for table in accounts)
    cpu = (cpu_seconds(host.pid) - cpu0) / (time.monotonic() - wall0)
    own = (time.process_time() - own0) / (time.monotonic() - wall0)
    rss, workers = rss_mb(host.pid)
    host.terminate()
    host.wait(10)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    ms = sorted(x * 1000 for x in latencies)
    figures = {
        "tables": args.tables,
        "seconds": args.seconds,
        "think_s": args.think,
        "saved": not args.no_save,
        "moves": len(ms),
        "moves_per_s": round(len(ms) / args.seconds, 1),
        "refused": refused,  # stale submissions, not timed (before: timed until the next move)
        "host_cpu_share_of_a_core": round(cpu, 3),
        "host_rss_mb_with_workers": round(rss, 1),
        "worker_processes": workers,
        "latency_p50_ms": round(statistics.median(ms), 1) if ms else None,
        "latency_p95_ms": p95(latencies),
        "latency_max_ms": round(ms[-1], 1) if ms else None,
        "clients_cpu_share_of_a_core": round(own, 3),  # this process: all the clients
        "clients_loop_lag_p95_ms": p95(lags),
        "load": round(os.getloadavg()[0], 2),
    }
    if findings is not None:
        figures.update(split(findings, accounts))
    print_figures(figures, args.json)


def split(probe: Path, accounts: list[Table]) -> dict[str, object]:
    """Where a move's time went, from the host probe's stamps (p50 / p95, ms): from the
    submission to the host's reading it; the host's work until every seat's update and state
    of that version were queued; from there to the last client's having it (the wait for the
    table's save to be written, the sending, and the clients' process). And how late the
    host's event loop woke (p95)."""
    found = json.loads((probe / "host.json").read_text())
    stamps = {(code, version): rest for code, version, *rest in found["moves"]}
    parts: dict[str, list[float]] = {"to_host": [], "in_host": [], "to_clients": []}
    for t, table in enumerate(accounts):
        for made, sent, done in table.moves:
            got = stamps.get((f"b-{t + 1}", made))
            if got is None or len(got) < 2:
                continue
            received, flushed = got
            for key, value in zip(parts, (received - sent, flushed - received, done - flushed), strict=True):
                parts[key].append(value)
    figures: dict[str, object] = {"split_moves": len(parts["to_host"])}
    for key, values in parts.items():
        figures[f"{key}_p50_ms"] = round(statistics.median(values) * 1000, 1) if values else None
        figures[f"{key}_p95_ms"] = p95(values)
    figures["host_loop_lag_p95_ms"] = p95(found["lags"])
    return figures


if __name__ == "__main__":
    main()
