"""Table chat: a line is sent on to everyone at the table as plain text (control characters
and terminal escapes stripped, never interpreted), at most 280 characters, a few lines at
once and then one every two seconds; ``vira join`` prints the lines it hears and sends what
is typed as ``/say TEXT``. Loopback only, every wait bounded."""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from tests.test_net import Raw, config, run
from vira_desktop.net.client import JoinOptions, Player
from vira_desktop.net.host import Host
from vira_desktop.net.protocol import ChatFrom, Error


def test_a_chat_line_reaches_everyone_as_plain_text_and_a_chatterbox_is_slowed_not_dropped() -> None:
    async def chat() -> tuple[list[str], list[str], str]:
        host = Host(config(players=3, humans=2, chat_burst=3))
        port = await host.start("127.0.0.1", 0)
        anna, bertil = await Raw.seated(port, "Anna"), await Raw.seated(port, "Bertil")
        await anna.send(json.dumps({"type": "chat", "text": "\u001b[2J\u001b[31mhej\u0007 \u202eallihop\n"}))
        refusals = []
        for text in ("\u0000\u0001\n", "x" * 281):
            await anna.send(json.dumps({"type": "chat", "text": text}))
            refusals.append(await anna.refusal())
        for n in range(3):  # the burst of three is spent after the first two lines and one more
            await anna.send(json.dumps({"type": "chat", "text": f"line {n}"}))
        refusals.append(await anna.refusal())
        heard: list[str] = []
        while len(heard) < 3:
            message = await bertil.until(lambda m: isinstance(m, ChatFrom | Error))
            assert isinstance(message, ChatFrom)
            heard.append(f"{message.sender}: {message.text}")
        await anna.send(json.dumps({"type": "submit", "action": "pass", "version": 10**9}))  # still read
        after = await anna.refusal()
        await host.stop()
        return heard, refusals, after

    heard, refusals, after = run(chat, 15)
    assert heard == ["Anna: [2J [31mhej allihop", "Anna: line 0", "Anna: line 1"]
    assert "chat.text" in refusals[0] and "chat.text" in refusals[1]
    assert refusals[2] == "too many chat lines: wait a moment"
    assert after and "chat" not in after  # the rules' own answer: Anna is still seated


def test_vira_join_sends_a_line_typed_as_say_and_prints_the_lines_it_hears(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("/say hello \u001b]0;owned\u0007there\n"))

    async def typed() -> tuple[str, list[str]]:
        host = Host(config(players=3, humans=2))
        port = await host.start("127.0.0.1", 0)
        said: list[str] = []
        anna = Player(JoinOptions(f"127.0.0.1:{port}", name="Anna", say=said.append, reconnect=0))
        playing = asyncio.create_task(anna.run())
        bertil = await Raw.seated(port, "Bertil")
        message = await bertil.until(lambda m: isinstance(m, ChatFrom))
        await bertil.send(json.dumps({"type": "chat", "text": "hi \u001b[1manna"}))
        for _ in range(500):
            if any("Bertil:" in line for line in said):
                break
            await asyncio.sleep(0.01)
        playing.cancel()
        await host.stop()
        assert isinstance(message, ChatFrom)
        return message.text, said

    text, said = run(typed, 15)
    assert text == "hello ]0;owned there"
    assert "Bertil: hi [1manna" in said
