"""Hosts in processes of their own for the network tests: ``vira host`` started from this
checkout (``PYTHONPATH`` set to it, so a worktree tests its own code), on a free loopback port,
waited for until it listens; and the bot players that sit at them."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from vira_desktop.net.client import JoinOptions, Player

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A port free on loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_host(args: list[str], port: int, log: Path, timeout: float = 20.0) -> subprocess.Popen[bytes]:
    """``vira host --port PORT ARGS`` in a process of its own, its log appended to ``log``
    (never a pipe, which a chatty host could fill), once it listens."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "ab") as stderr:
        command = [sys.executable, "-m", "vira_desktop", "host", "--port", str(port), *args]
        host = subprocess.Popen(command, cwd=ROOT, env=env, stderr=stderr)
    wait_listening(port, host, timeout)
    return host


def wait_listening(port: int, process: subprocess.Popen[bytes] | None = None, timeout: float = 20.0) -> None:
    """Until something listens on loopback ``port`` (or ``process`` has ended); bounded."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and (process is None or process.poll() is None):
        with socket.socket() as s, contextlib.suppress(OSError):
            s.connect(("127.0.0.1", port))
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """End ``process`` if it still runs."""
    if process.poll() is None:
        process.kill()
    process.wait(10)


def bot_client(address: str, name: str, level: str = "random", **options: object) -> Player:
    """A quiet client whose seat a bot plays."""
    return Player(JoinOptions(address, name=name, bot=level, say=lambda _: None, **options))  # type: ignore[arg-type]
