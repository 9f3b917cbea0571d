"""LAN discovery on loopback: a host announces its table by mDNS (zeroconf bound to
127.0.0.1 only), and ``vira join --list 127.0.0.1`` finds it with its seats free. The
announcement's TXT record read strictly (:meth:`TableAd.read`, also in its doctests)."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from tests.test_net import Raw, config, run
from vira_desktop.cli import main
from vira_desktop.net.host import Host
from vira_desktop.net.lan import TableAd


def test_a_host_announces_its_table_and_vira_join_list_finds_it(capsys: pytest.CaptureFixture[str]) -> None:
    prefix = "t" + secrets.token_hex(4)  # another test's host on this machine's loopback is not ours

    async def announced() -> tuple[int, str]:
        host = Host(config(players=3, humans=3, prefix=prefix, announce=True))
        port = await host.start("127.0.0.1", 0)
        anna = await Raw.seated(port, "Anna")
        await asyncio.sleep(0.2)
        found = await asyncio.to_thread(main, ["join", "--list", "127.0.0.1", "--seconds", "2.5"])
        await anna.ws.close()
        await host.stop()
        return found, f"ws://127.0.0.1:{port}/{prefix}-1"

    code, url = run(announced, 30)
    out = capsys.readouterr().out
    line = next((line for line in out.splitlines() if line.startswith(f"{prefix}-1 ")), "")
    assert code == 0 and url in line and "2 seats free" in line, out


def test_an_announcement_that_is_not_a_tables_is_skipped() -> None:
    good = {b"protocol": b"1", b"table": b"v-1", b"free": b"1"}
    assert TableAd.read(good, ["192.168.1.4"], 8417) == TableAd("v-1", "192.168.1.4", 8417, 1)
    assert TableAd.read({**good, b"free": b"lots"}, ["192.168.1.4"], 8417) is None
    assert TableAd.read({**good, b"table": "v-ä".encode()}, ["192.168.1.4"], 8417) is None
    assert TableAd.read({**good, b"table": b"\xff"}, ["192.168.1.4"], 8417) is None
    assert TableAd.read(good, [], 8417) is None and TableAd.read(good, ["192.168.1.4"], None) is None
    assert TableAd("v-1", "fe80::1", 9, 0, tls=True).url == "wss://[fe80::1]:9/v-1"
