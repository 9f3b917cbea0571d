"""Scaling out: ``packaging/haproxy/vira.cfg`` in front of two ``vira host`` processes
(``--prefix a`` and ``--prefix b``) routes each connection by its path's table code: bot
clients play a table on each host through the one proxy port, and each table ran on the host
its prefix names (the hosts' logs and deal records say so). Skipped, saying so, where
``haproxy`` is not on PATH (``.ci/run`` installs it where it can). Loopback only.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.hosts import ROOT, bot_client, free_port, start_host, stop, wait_listening
from tests.test_net import run

EXAMPLE = ROOT / "packaging" / "haproxy" / "vira.cfg"
HAPROXY = shutil.which("haproxy") or next(
    (str(p) for p in (Path("/usr/sbin/haproxy"), Path("/usr/local/sbin/haproxy")) if p.exists()), None
)
needs_haproxy = pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (apt-get install haproxy)")


def proxy_config(folder: Path, front: int, hosts: dict[str, int]) -> Path:
    """The example with its ports replaced by ``front`` and each host's."""
    text = EXAMPLE.read_text(encoding="utf-8").replace("127.0.0.1:8400", f"127.0.0.1:{front}")
    for default, port in zip((8417, 8418), hosts.values(), strict=True):
        text = text.replace(f"127.0.0.1:{default}", f"127.0.0.1:{port}")
    path = folder / "vira.cfg"
    path.write_text(text, encoding="utf-8")
    return path


@needs_haproxy
def test_the_example_configuration_is_valid() -> None:
    assert HAPROXY is not None
    checked = subprocess.run([HAPROXY, "-c", "-f", str(EXAMPLE)], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@needs_haproxy
def test_haproxy_sends_each_table_to_the_host_its_code_names(tmp_path: Path) -> None:
    assert HAPROXY is not None
    ports = {prefix: free_port() for prefix in ("a", "b")}
    front = free_port()
    common = ["--players", "3", "--humans", "2", "--deals", "1", "--once", "--no-save", "--bots", "random"]
    common += ["--deal-pause", "0", "--bot-pause", "0", "--seed", "8"]
    hosts = {
        p: start_host([*common, "--prefix", p, "--records", str(tmp_path / p)], port, tmp_path / f"{p}.log")
        for p, port in ports.items()
    }
    proxy = subprocess.Popen(
        [HAPROXY, "-db", "-f", str(proxy_config(tmp_path, front, ports))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    async def play() -> list[int]:
        clients = [
            bot_client(f"127.0.0.1:{front}", name, table=code, reconnect=0)
            for code in ("a-1", "b-1")
            for name in ("Anna", "Bertil")
        ]
        return list(await asyncio.gather(*(c.run() for c in clients)))

    try:
        wait_listening(front, None, 10)
        codes = run(play, 40)
        exits = [host.wait(20) for host in hosts.values()]
    finally:
        for process in (*hosts.values(), proxy):
            stop(process)
    logs = {prefix: (tmp_path / f"{prefix}.log").read_text(encoding="utf-8") for prefix in ports}
    assert codes == [0, 0, 0, 0] and exits == [0, 0], logs
    for prefix, other in (("a", "b"), ("b", "a")):
        assert f"{prefix}-1: Anna joined" in logs[prefix] and f"{prefix}-1: first deal" in logs[prefix]
        assert f"{other}-1" not in logs[prefix]
        assert [p.name.split("-")[0] for p in (tmp_path / prefix).glob("*.yaml")] == [prefix]
