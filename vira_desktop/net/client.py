"""A headless network player (``vira join``): takes a seat at a host's table and answers for
it, with a bot (``--bot LEVEL``, asked only the seat's own view, as the host's bots are) or
with lines typed on stdin in the deal record's notation.

Every message received is checked (:mod:`.protocol`) and, with ``dump``, written one JSON
text a line. A seated client whose connection is lost (the host restarted, the network
went) comes back with its seat token, again and again with a growing pause, for at most
``reconnect`` seconds. The client ends with 0 when the host ends the session, 1 when it is
refused or the connection stays lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
import ssl
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import IO, Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..ai import Bot, make_bot
from ..i18n import t
from ..rules.actions import Action
from ..session.port import Seen
from ..session.wire import to_json
from .host import DEFAULT_PORT
from .protocol import (
    PROTOCOL,
    Bye,
    Chat,
    ChatFrom,
    ClientMessage,
    Error,
    Hello,
    HostMessage,
    Note,
    ProtocolError,
    State,
    Submit,
    Welcome,
    encode,
    plain_text,
    read_host,
)

__all__ = [
    "Connection",
    "JoinOptions",
    "Link",
    "Player",
    "address_url",
    "join",
    "new_lines",
    "note_words",
    "submit_message",
]

log = logging.getLogger("vira-join")  # (not "vira.…": the catalogs own that shape)

MAX_HOST_MESSAGE = 2**21  # a state grows with the session's score sheet; far below this
BACKOFF_S = (0.2, 3.0)  # the first pause before coming back after a drop, and the longest (doubling)
T = TypeVar("T")


def new_lines(before: Sequence[T], after: Sequence[T]) -> list[T]:
    """What ``after`` adds to ``before``: ``after`` less its longest start that ``before`` ends
    with (a rolling log seen again, or the chat lines a welcome brings, some heard already).

    >>> new_lines("abc", "bcd"), new_lines("abc", "abc"), new_lines("", "xy"), new_lines("ab", "xy")
    (['d'], [], ['x', 'y'], ['x', 'y'])
    """
    for k in range(min(len(before), len(after)), 0, -1):
        if list(before[len(before) - k :]) == list(after[:k]):
            return list(after[k:])
    return list(after)


def note_words(note: Note) -> str:
    """What a :class:`~.protocol.Note` tells, in the player's words (as plain text)."""
    return t(f"friends.note.{note.kind.value}", name=plain_text(note.name), seconds=note.seconds)


def address_url(address: str, table: str = "", tls: bool = False) -> str:
    """``HOST``, ``HOST:PORT``, ``[IPv6]:PORT`` or a ``ws://`` or ``wss://`` URL as the URL to
    connect to (``tls``: ``wss://`` for an address without a scheme).

    >>> address_url("127.0.0.1"), address_url("[::1]:9000", "v-1"), address_url("ws://a:1/v-2")
    ('ws://127.0.0.1:8417/', 'ws://[::1]:9000/v-1', 'ws://a:1/v-2')
    >>> address_url("example.org:443", "v-1", tls=True)
    'wss://example.org:443/v-1'
    """
    if address.startswith(("ws://", "wss://")):
        return address
    host, port = address, DEFAULT_PORT
    if address.startswith("["):
        host, _, rest = address[1:].partition("]")
        port = int(rest[1:]) if rest.startswith(":") else DEFAULT_PORT
    elif address.count(":") == 1:
        host, number = address.split(":")
        port = int(number)
    if ":" in host:
        host = f"[{host}]"
    return f"{'wss' if tls else 'ws'}://{host}:{port}/{table}"


@dataclass
class JoinOptions:
    """``vira join``'s options."""

    address: str
    name: str = "Player"
    table: str = ""
    password: str | None = None
    token: str | None = None  # a seat held for this player (after a drop)
    bot: str | None = None  # answer with a bot of this level
    dump: IO[str] | None = None  # every message received, one JSON text a line
    seed: int | None = None  # the bot's (default: from the name)
    reconnect: float = 60.0  # seconds a seated client keeps trying to come back after a drop (0: never)
    tls: bool = False  # wss:// for an address without a scheme
    cafile: str | None = None  # the certificates to trust for wss:// (a host's self-signed one); else the system's
    # what is shown: as plain text (whatever the host sends cannot drive the terminal)
    say: Callable[[str], None] = field(default=lambda text: print(plain_text(text), file=sys.stderr, flush=True))


class Link(Enum):
    """How a seat's connection stands."""

    CONNECTING = "connecting"  # the first hello is on its way
    SEATED = "seated"  # welcomed: the seat is this connection's
    DROPPED = "dropped"  # lost; coming back with the token
    ENDED = "ended"  # the host ended it, refused the seat, or it stayed lost


def failure(exc: BaseException) -> str:
    """Why a connection could not be made, in the player's words: a key of ``friends.why``
    (the technical text goes to the log, never to the screen)."""
    if isinstance(exc, ConnectionRefusedError) or "Connect call failed" in str(exc):
        return "refused"  # (several addresses tried, each refused: one OSError naming them all)
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, socket.gaierror):
        return "address"
    if isinstance(exc, InvalidHandshake | InvalidURI):
        return "not_vira"
    return "unreachable"


CHAT_KEPT = 50  # the chat lines a connection remembers, to tell a rejoin's repeated ones


class Connection:
    """One seat's connection to a host: the hello (with the seat's token once it has one),
    and after a drop the hello again, with a growing pause, for at most ``reconnect``
    seconds. Every message is checked and kept in hand (the welcome, the last state, the
    end); a subclass hears each in :meth:`received`, each chat line once in :meth:`chatted`
    (a line said, or one a welcome brings that was not heard before), and each change of
    :attr:`link` in :meth:`linked`. :class:`Player` (``vira join``) and the window's
    :class:`~.remote.RemoteTable` are the two."""

    def __init__(self, options: JoinOptions) -> None:
        self.options = options
        self.seen: Seen | None = None
        self.welcome: Welcome | None = None
        self.messages: list[HostMessage] = []
        self.ended: Bye | Error | None = None
        self.ws: ClientConnection | None = None  # the connection, while there is one
        self.connections = 0  # connections opened (more than one: it came back after a drop)
        self.link = Link.CONNECTING
        self.lost = ""  # why the connection went (while dropped, or when it stayed lost), technically
        self.failure = ""  # the same in the player's words: a key of ``friends.why`` ("" when not lost)
        self.tries = 0  # the tries to come back since the connection was lost
        self.gives_up_at = 0.0  # while dropped: when it stops trying (the loop's clock, time.monotonic)
        self._seated_again = False  # the connection in hand was welcomed
        self._online = asyncio.Event()  # seated, on a connection: what is typed can be sent
        self._heard: list[ChatFrom] = []  # the chat lines heard, as sent

    def received(self, message: HostMessage) -> None:
        """A message from the host, checked and taken in hand (a chat line: :meth:`chatted`)."""

    def chatted(self, line: ChatFrom) -> None:
        """A chat line not heard before (said now, or before this seat came or while it was away)."""

    def linked(self) -> None:
        """:attr:`link` changed."""

    def _link(self, link: Link, lost: str = "") -> None:
        self.link, self.lost = link, lost
        self.linked()

    async def run(self) -> int:
        """Play until the host ends the session (0) or the seat is lost (1)."""
        o = self.options
        url = address_url(o.address, o.table, o.tls)
        lost = await self._connection(url)
        pause, since = BACKOFF_S[0], asyncio.get_running_loop().time()
        while lost and self.ended is None and self.welcome is not None:
            waited = asyncio.get_running_loop().time() - since
            if waited >= o.reconnect:
                break
            o.say(f"vira join: {lost}; coming back in {pause:.1f} s")
            self.tries, self.gives_up_at = self.tries + 1, since + o.reconnect
            self._link(Link.DROPPED, lost)
            await asyncio.sleep(min(pause, o.reconnect - waited) * random.uniform(0.8, 1.0))
            pause = min(BACKOFF_S[1], pause * 2)
            lost = await self._connection(url)
            if self._seated_again:  # back in the seat: a later drop starts the pauses afresh
                pause, since, self.tries = BACKOFF_S[0], asyncio.get_running_loop().time(), 0
        self._link(Link.ENDED, lost or (self.ended.reason if self.ended else "the host closed the connection"))
        if lost:
            o.say(f"vira join: {lost}")
            return 1
        if isinstance(self.ended, Bye):
            o.say(f"vira join: {self.ended.reason or 'the host said goodbye'}")
            return 0
        o.say(f"vira join: {self.ended.reason if self.ended else 'the host closed the connection'}")
        return 1

    async def _connection(self, url: str) -> str:
        """One connection, from the hello (with the seat's token when it has one) to its end;
        why it was lost ("" when the host ended it or refused the seat)."""
        o = self.options
        token = self.welcome.token if self.welcome is not None else o.token
        self._seated_again = False
        self.failure = ""
        try:
            tls = url.startswith("wss://")
            secure: dict[str, Any] = {"ssl": ssl.create_default_context(cafile=o.cafile)} if tls else {}
            async with connect(url, max_size=MAX_HOST_MESSAGE, open_timeout=10, compression=None, **secure) as ws:
                self.connections += 1
                self.ws = ws
                await ws.send(encode(Hello(PROTOCOL, o.name, o.table, o.password, token)))
                try:
                    await self._listen(ws)
                finally:
                    self.ws = None
                    self._online.clear()
                    self.gone()
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            self.failure = failure(exc)
            return f"cannot join {url}: {exc}"
        except ConnectionClosed as exc:
            self.failure = "lost"
            return f"the connection was lost: {exc}"
        return ""

    def gone(self) -> None:
        """The connection in hand has closed."""

    async def send(self, message: ClientMessage) -> bool:
        """Send ``message`` on the connection in hand (``False``: there is none, or it closed)."""
        ws = self.ws
        if ws is None or not self._online.is_set():
            return False
        try:
            await ws.send(encode(message))
        except ConnectionClosed:
            return False
        return True

    async def _listen(self, ws: ClientConnection) -> None:
        async for text in ws:
            if isinstance(text, bytes):
                raise ProtocolError("the host sent a binary frame")
            if self.options.dump is not None:
                self.options.dump.write(text + "\n")
            message = read_host(text)
            self.messages.append(message)
            self._take(message)
            if self.ended is not None:
                return

    def _take(self, message: HostMessage) -> None:
        if isinstance(message, Welcome):
            self.welcome = message
            self._seated_again = True
            self._online.set()
        elif isinstance(message, State):
            self.seen = message.seen
        elif (isinstance(message, Error) and message.fatal) or isinstance(message, Bye):
            self.ended = message
        if isinstance(message, ChatFrom):
            self._chat([message])
            return
        self.received(message)
        if isinstance(message, Welcome):
            self._chat(new_lines(self._heard, message.chat))
            self._link(Link.SEATED)

    def _chat(self, lines: Sequence[ChatFrom]) -> None:
        for line in lines:
            self._heard = [*self._heard[-CHAT_KEPT:], line]
            self.chatted(line)


def submit_message(action: Action | None, version: int) -> Submit:
    """The answer ``action`` (``None``: declining an offer) to the state of ``version``.

    >>> from vira_desktop.rules.actions import Pass
    >>> submit_message(Pass(1), 4)
    Submit(action='pass', seat=1, version=4)
    """
    if action is None:
        return Submit(None, version=version)
    wire = to_json(action)
    assert isinstance(wire, dict)
    return Submit(wire["action"], seat=wire["seat"], version=version)


class Player(Connection):
    """One seat's client at the command line: keeps the seat's latest state and answers its
    questions (with a bot, or with what is typed)."""

    def __init__(self, options: JoinOptions) -> None:
        super().__init__(options)
        seed = options.seed if options.seed is not None else zlib.crc32(options.name.encode())
        self.bot: Bot | None = make_bot(options.bot, seed) if options.bot else None
        self.answered = -1  # the version of the state last answered
        self._thinking: asyncio.Task[None] | None = None
        self._told = 0  # log lines said

    async def run(self) -> int:
        typing_in = None if self.bot else asyncio.create_task(self._typed())
        try:
            return await super().run()
        finally:
            if typing_in is not None:
                typing_in.cancel()

    def gone(self) -> None:
        if self._thinking is not None:
            self._thinking.cancel()

    def received(self, message: HostMessage) -> None:
        say = self.options.say
        if isinstance(message, Welcome):
            self.answered = -1  # a host taken up again counts its versions afresh
            say(f"seated as {message.seat} at {message.table}; to come back: --token {message.token}")
        elif isinstance(message, State):
            self._tell(message.seen)
            self._answer()
        elif isinstance(message, Note):
            say(note_words(message))
        elif isinstance(message, Error):
            say(f"refused: {message.reason}")

    def chatted(self, line: ChatFrom) -> None:
        """Shown as plain text: a line may not move a terminal's cursor."""
        self.options.say(f"{plain_text(line.sender) or 'host'}: {plain_text(line.text)}")

    def _tell(self, seen: Seen) -> None:
        """New log lines, and the question when it is this seat's and nobody answers it here."""
        if self.bot is not None:
            return
        lines = seen.log
        start = self._told if self._told <= len(lines) else 0
        for line in lines[start:]:
            self.options.say(line)
        self._told = len(lines)
        ask = seen.ask
        if ask is not None and ask.view.decision is not None and self.answered != seen.version:
            self.answered = seen.version
            choices = " | ".join(a.text for a in ask.view.decision.actions)
            self.options.say(f"your turn: {choices or 'choose cards'}" + (" (/decline)" if ask.optional else ""))

    def _answer(self) -> None:
        """The bot answers the question standing (off the event loop), once a version."""
        if self.bot is None or (self._thinking is not None and not self._thinking.done()):
            return
        seen = self.seen
        if seen is None or seen.ask is None or seen.ask.view.decision is None or self.answered == seen.version:
            return
        self._thinking = asyncio.create_task(self._think(seen))

    async def _think(self, seen: Seen) -> None:
        assert self.bot is not None and seen.ask is not None
        choice = await asyncio.to_thread(self.bot.choose, seen.ask.view)
        if self.seen is not seen:  # a newer state came while the bot thought: answer that one instead
            self._thinking = None
            self._answer()
            return
        self.answered = seen.version
        await self.send(submit_message(choice.action, seen.version))

    async def _typed(self) -> None:
        """Lines from stdin: an action, ``/decline``, ``/say TEXT`` (or ``/chat TEXT``) or ``/bye``."""
        while True:
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line:
                return
            message = typed(line)
            if message is None:
                continue
            await self._online.wait()  # (after a drop: sent once back in the seat)
            await self.send(message)
            if isinstance(message, Bye):
                return


def typed(line: str) -> Submit | Chat | Bye | None:
    """The message a line typed at ``vira join`` stands for (``None``: an empty line).

    >>> typed("/say good game"), typed("/decline")
    (Chat(text='good game'), Submit(action=None, seat=None, version=None))
    """
    text = line.strip()
    if not text:
        return None
    if text == "/bye":
        return Bye("")
    for command in ("/say ", "/chat "):
        if text.startswith(command):
            return Chat(text[len(command) :].strip())
    return Submit(None) if text == "/decline" else Submit(text)


async def join(options: JoinOptions) -> int:
    """``vira join``: play a seat at a host's table (see :class:`Player`)."""
    with contextlib.suppress(ProtocolError):
        return await Player(options).run()
    options.say("vira join: the host sent a message that is not of the protocol")
    return 1
