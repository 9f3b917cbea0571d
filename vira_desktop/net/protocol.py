"""The messages of network play: one JSON object per WebSocket text message, ``"type"`` first
(``docs/network-protocol.md`` shows each with an example).

A client sends :data:`ClientMessage` (hello, submit, command, start, chat, bye); the host sends
:data:`HostMessage` (welcome, lobby, state, update, chat, note, error, bye). Each is a small frozen
dataclass; :func:`encode` writes one and :func:`read_client` / :func:`read_host` read one
back, strictly: an unknown type or field, a missing field, a value of the wrong type or too
long is a :class:`ProtocolError` naming it, and nothing else is ever raised (what a client
sends comes from anyone on the network). A table's state and updates travel as the port's
own wire JSON (:mod:`..session.wire`), cards and actions in the deal record's notation.

>>> encode(Submit("7-spel", seat=0))
'{"type":"submit","action":"7-spel","seat":0,"version":null}'
>>> read_client('{"type": "submit", "action": null}')
Submit(action=None, seat=None, version=None)
>>> read_client('{"type": "hello", "protocol": 1, "name": "", "table": "x"}')
Traceback (most recent call last):
...
vira_desktop.net.protocol.ProtocolError: hello.name: 1 to 24 characters, no control characters
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import typing
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from ..session.master import Command
from ..session.port import Seen, Update
from ..session.wire import WireError, from_json, to_json

__all__ = [
    "CLIENT_COMMANDS",
    "MAX_CLIENT_MESSAGE",
    "PROTOCOL",
    "Bye",
    "Chat",
    "ChatFrom",
    "ClientMessage",
    "CommandMessage",
    "Error",
    "Hello",
    "HostMessage",
    "Lobby",
    "Note",
    "NoteKind",
    "ProtocolError",
    "SeatInfo",
    "Start",
    "State",
    "Submit",
    "UpdateMessage",
    "Welcome",
    "encode",
    "plain_text",
    "read_client",
    "read_host",
    "valid_code",
]

PROTOCOL = 1  # the hello's version; a host refuses any other
MAX_CLIENT_MESSAGE = 4096  # bytes: the largest message a client needs (a hello, a buy, a chat line)
NAME_MAX = 24
CHAT_MAX = 280
CHAT_HISTORY = 20  # the table's last chat lines, sent with each welcome (a join, a rejoin)
TOKEN_MAX = 64
PASSWORD_MAX = 128
ACTION_MAX = 120  # "solo grande misär ouverte royale in forehand" and the longest buy fit easily
CODE = re.compile(r"[a-z0-9]{1,12}-[a-z0-9]{1,16}")  # PREFIX-NAME: the prefix names the host (routing)
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_MAX}}}")  # secrets.token_urlsafe's alphabet
CLIENT_COMMANDS = frozenset({Command.LAST_ROUND, Command.BORUP})  # the host deals, settles and never undoes


class ProtocolError(ValueError):
    """A message that is not one of the protocol's: one line saying where and what."""


def valid_code(code: str) -> bool:
    """Whether ``code`` is a table code: ``PREFIX-NAME``, lower-case letters and digits."""
    return CODE.fullmatch(code) is not None


def plain_text(text: str) -> str:
    r"""``text`` as a line to show as it is: every character that is not printable (control
    characters, terminal escapes' ESC, bidirectional overrides, line breaks) becomes a space,
    runs of spaces one, the ends trimmed. A chat line is always shown so, never interpreted.

    >>> plain_text("\x1b[2Jhi\u202e  there\n\x07")
    '[2Jhi there'
    """
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _text_ok(text: str, most: int, empty: bool = False) -> bool:
    return (empty or bool(text.strip())) and len(text) <= most and text.isprintable()


# ---------------------------------------------------------------------- client → host
@dataclass(frozen=True)
class Hello:
    """The first message of a connection: who, at which table; ``token`` takes back a seat."""

    TYPE: ClassVar[str] = "hello"
    protocol: int
    name: str
    table: str = ""  # "": the host's first table
    password: str | None = None
    token: str | None = None

    def check(self) -> None:
        if self.protocol != PROTOCOL:
            raise ProtocolError(f"hello.protocol: this host speaks version {PROTOCOL}, not {self.protocol}")
        if not _text_ok(self.name, NAME_MAX) or self.name != self.name.strip():
            raise ProtocolError(f"hello.name: 1 to {NAME_MAX} characters, no control characters")
        if self.table and not valid_code(self.table):
            raise ProtocolError("hello.table: a table code is PREFIX-NAME in lower-case letters and digits")
        if self.password is not None and not _text_ok(self.password, PASSWORD_MAX, empty=True):
            raise ProtocolError(f"hello.password: at most {PASSWORD_MAX} printable characters")
        if self.token is not None and not TOKEN.fullmatch(self.token):
            raise ProtocolError("hello.token: not a seat token")


@dataclass(frozen=True)
class Submit:
    """An answer to the question standing: an action in the deal record's notation (``None``
    declines an offer). ``seat`` (0-2, as an action's wire JSON writes it) and ``version``
    (the state it answers) are checked when given."""

    TYPE: ClassVar[str] = "submit"
    action: str | None
    seat: int | None = None
    version: int | None = None

    def check(self) -> None:
        if self.action is not None and not _text_ok(self.action, ACTION_MAX):
            raise ProtocolError(f"submit.action: 1 to {ACTION_MAX} printable characters, or null")
        if self.seat is not None and not 0 <= self.seat <= 2:
            raise ProtocolError("submit.seat: 0, 1 or 2")
        if self.version is not None and not 0 <= self.version < 2**53:
            raise ProtocolError("submit.version: a version the host sent")


@dataclass(frozen=True)
class CommandMessage:
    """A command to the table (``"last round"`` or ``"borup"``; the host deals and settles)."""

    TYPE: ClassVar[str] = "command"
    command: Command

    def check(self) -> None:
        if self.command not in CLIENT_COMMANDS:
            raise ProtocolError(f"command: the host does {self.command.value!r} itself")


@dataclass(frozen=True)
class Start:
    """The table's owner (the player whose window hosts it) deals the first deal now: bots
    take the seats no player has taken. Refused from anyone else, and once dealt."""

    TYPE: ClassVar[str] = "start"

    def check(self) -> None:
        """Nothing to check: a start has no fields."""


@dataclass(frozen=True)
class Chat:
    """A line said to the table: at most ``CHAT_MAX`` characters, sent on as
    :func:`plain_text` (control characters stripped), refused when nothing is left."""

    TYPE: ClassVar[str] = "chat"
    text: str

    def check(self) -> None:
        if len(self.text) > CHAT_MAX or not plain_text(self.text):
            raise ProtocolError(f"chat.text: 1 to {CHAT_MAX} characters, not all of them control characters")


@dataclass(frozen=True)
class Bye:
    """Either side leaves for good (a client's seat goes to a bot at once; from the host,
    the session is over or the connection is ended, with why)."""

    TYPE: ClassVar[str] = "bye"
    reason: str = ""

    def check(self) -> None:
        if not _text_ok(self.reason, CHAT_MAX, empty=True):
            raise ProtocolError(f"bye.reason: at most {CHAT_MAX} printable characters")


ClientMessage = Hello | Submit | CommandMessage | Start | Chat | Bye


# ---------------------------------------------------------------------- host → client
@dataclass(frozen=True)
class Welcome:
    """The seat taken: its player's name, the token that takes it back after a drop."""

    TYPE: ClassVar[str] = "welcome"
    protocol: int
    table: str
    seat: str
    token: str
    players: tuple[str, ...]  # everyone at the table so far, in the order they joined
    chat: tuple[ChatFrom, ...] = ()  # the table's last chat lines (at most ``CHAT_HISTORY``), oldest first
    seat_hold: int = 0  # seconds the seat is held for its player after a drop or a leave, before a bot plays it


@dataclass(frozen=True)
class SeatInfo:
    """One seat of the table, as every window's lobby shows it: a player's (``name``), a host
    bot's, or still free (``name`` "": a player's place to take, or, ``bot``, a bot's at the start)."""

    name: str
    connected: bool  # a player's connection is open now
    bot: bool  # a bot plays it now (a host bot, or a dropped player's seat after the timeout)
    held: bool = False  # a player's seat whose connection went: kept for that player to come back
    ready: bool = False  # someone will play it when the deal is dealt (a connected player or a bot)


@dataclass(frozen=True)
class Lobby:
    """Every seat of the table, the free ones too: sent while it fills, and whenever someone
    comes, goes or is stood in for."""

    TYPE: ClassVar[str] = "lobby"
    table: str
    seats: tuple[SeatInfo, ...]
    waiting: int  # players still to come before the first deal (0: in play, or all here)
    owner: str = ""  # the player who starts the deal (a window's host); "": it starts when the seats are full
    started: bool = False  # the first deal is dealt

    @property
    def taken(self) -> tuple[SeatInfo, ...]:
        """The seats a player or a bot has taken (the free ones left out)."""
        return tuple(s for s in self.seats if s.name)


@dataclass(frozen=True)
class State:
    """The seat's whole state (:class:`~..session.runner.Seen`): after the welcome, and
    after every change."""

    TYPE: ClassVar[str] = "state"
    seen: Seen


@dataclass(frozen=True)
class UpdateMessage:
    """What changed (:class:`~..session.runner.Update`: events projected for the seat)."""

    TYPE: ClassVar[str] = "update"
    update: Update


@dataclass(frozen=True)
class ChatFrom:
    """A line someone said to the table (``sender`` "": the host)."""

    TYPE: ClassVar[str] = "chat"
    sender: str
    text: str


class NoteKind(StrEnum):
    """What happened to a player's seat at a table in play (a :class:`Note`)."""

    DROPPED = "dropped"  # the connection was lost: the seat is held
    LEFT = "left"  # the player left on purpose: the seat is held all the same
    BOT = "bot"  # nobody came back within the host's timeout: a bot plays the seat
    BACK = "back"  # the player is back in the seat


@dataclass(frozen=True)
class Note:
    """Something every other player at a table in play is told of a seat (``name``'s):
    dropped or left (held ``seconds`` before a bot plays it), a bot playing it, its player back."""

    TYPE: ClassVar[str] = "note"
    kind: NoteKind
    name: str
    seconds: int = 0  # DROPPED, LEFT: how long the seat is held before a bot plays it


@dataclass(frozen=True)
class Error:
    """A message refused, and why; ``fatal``: the connection is closed after it."""

    TYPE: ClassVar[str] = "error"
    reason: str
    fatal: bool = False


HostMessage = Welcome | Lobby | State | UpdateMessage | ChatFrom | Note | Error | Bye

_CLIENT: dict[str, Any] = {c.TYPE: c for c in (Hello, Submit, CommandMessage, Start, Chat, Bye)}
_HOST: dict[str, Any] = {c.TYPE: c for c in (Welcome, Lobby, State, UpdateMessage, ChatFrom, Note, Error, Bye)}


# ---------------------------------------------------------------------- encoding and reading
def encode(message: ClientMessage | HostMessage) -> str:
    """One message as the JSON text a WebSocket carries."""
    body: dict[str, Any] = {"type": message.TYPE}
    for f in dataclasses.fields(message):
        body[f.name] = to_json(getattr(message, f.name))
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


class StateWriter:
    """Writes one table's :class:`State` messages to the byte as :func:`encode` does, but the
    score sheet (``TableState.deals``: public, the same for every seat, one more finished deal
    at a time) is written once, not again for each seat after each move: it grows by some
    4 KB a deal, and at a host with many tables writing it was most of a move's time
    (``benchmarks/network.py``, issue 38)."""

    def __init__(self) -> None:
        self._deals: tuple[object, ...] = ()  # the deals written (held, so the ``is`` below is sound)
        self._sheet = "[]"  # ... their JSON text
        self._mark = f"\x00score sheet {secrets.token_hex(16)}"  # no other text of a state holds it
        self._written_mark = json.dumps(self._mark)  # as it is written: "\u0000score sheet ..."

    def encode(self, message: State) -> str:
        seen = message.seen
        deals = seen.table.deals
        if len(deals) < len(self._deals) or any(a is not b for a, b in zip(deals, self._deals, strict=False)):
            self._deals, self._sheet = (), "[]"  # another sheet (not only longer): written again whole
        if len(deals) > len(self._deals):
            more = json.dumps(to_json(deals[len(self._deals) :]), ensure_ascii=False, separators=(",", ":"))
            self._sheet = more if not self._deals else f"{self._sheet[:-1]},{more[1:]}"
            self._deals = deals
        written = to_json(dataclasses.replace(seen, table=dataclasses.replace(seen.table, deals=())))
        assert isinstance(written, dict)
        written["table"]["deals"] = self._mark
        text = json.dumps({"type": State.TYPE, "seen": written}, ensure_ascii=False, separators=(",", ":"))
        return text.replace(self._written_mark, self._sheet, 1)


def read_client(text: str | bytes) -> ClientMessage:
    """A client's message, checked (see the module); raises only :class:`ProtocolError`."""
    message = _read(text, _CLIENT)
    message.check()
    return typing.cast(ClientMessage, message)


def read_host(text: str | bytes) -> HostMessage:
    """A host's message, checked for its fields and types; raises only :class:`ProtocolError`."""
    return typing.cast(HostMessage, _read(text, _HOST))


def _read(text: str | bytes, kinds: dict[str, Any]) -> Any:
    if isinstance(text, bytes):
        raise ProtocolError("a message is a text frame of JSON, not binary")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    kind = data.get("type")
    cls = kinds.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"type: {str(kind)[:40]!r} is none of {sorted(kinds)}")
    fields = _fields(cls)
    unknown = sorted(k for k in data if k != "type" and k not in fields)
    if unknown:
        raise ProtocolError(f"{kind}: unknown field {str(unknown[0])[:40]!r}")
    values = {}
    for name, (hint, required) in fields.items():
        if name not in data:
            if required:
                raise ProtocolError(f"{kind}: {name} is missing")
            continue
        try:
            values[name] = from_json(data[name], hint, f"{kind}.{name}")
        except WireError as exc:
            raise ProtocolError(str(exc)[:300]) from None
    return cls(**values)


@cache
def _fields(cls: Any) -> dict[str, tuple[Any, bool]]:
    """Each field of a message class: its type, and whether it must be given."""
    hints = typing.get_type_hints(cls)
    return {
        f.name: (hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    }
