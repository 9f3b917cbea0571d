"""The network host: tables in play served over WebSocket (``vira host``).

One process holds several tables, each its own asyncio task driving one table master; each
player's connection holds that player's seat port, so whatever is sent was projected for
that seat (``docs/network-protocol.md``). Every message a client sends is checked
(:mod:`.protocol`) before it reaches the table; a refused one is answered with an error and
the others play on. Bots think in the host's one pool of worker processes (each table in a
lane of its own, :class:`~..session.worker.BotPool`), never on the event loop; the pool is
made before the host serves, so a table starting starts no process. The table task polls
the master on a short timer while they think.

A seat whose connection drops, or whose player leaves on purpose, is held for its player;
after ``seat_timeout`` a bot plays it, and the player has it back on return (with the seat's
token, or, without it, by the same name while nobody is connected there). The others are told
each (a :class:`~.protocol.Note`). A table whose host is a window (``owner_token``) is dealt
when that player starts it; another, when its last player has come. ``records``: each
finished deal is written there as a deal record (``docs/deal-record.md``). ``save``: every
table is kept there (:mod:`.keep`) and taken up again when a host is started with the same folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import random
import secrets
import signal
import ssl
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Protocol

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..paths import write_atomically
from ..rules.actions import Action, parse_action
from ..rules.houserules import HouseRules
from ..session.factory import new_table
from ..session.master import Command, CommittedDeal, Director, TableMaster
from ..session.port import SeatPort, Seen, Update
from ..session.record import dump_record
from ..session.saving import BackgroundSaver
from ..session.table import SaveError, SeatConfig, Table
from ..session.worker import BotPool, InlineWorker, Worker
from .keep import SavedSeat, Seating, TableStore, saved_tables, token_hash
from .protocol import (
    CHAT_HISTORY,
    CLIENT_COMMANDS,
    MAX_CLIENT_MESSAGE,
    PROTOCOL,
    Bye,
    Chat,
    ChatFrom,
    ClientMessage,
    CommandMessage,
    Error,
    Hello,
    HostMessage,
    Lobby,
    Note,
    NoteKind,
    ProtocolError,
    SeatInfo,
    Start,
    State,
    StateWriter,
    Submit,
    UpdateMessage,
    Welcome,
    encode,
    plain_text,
    read_client,
    valid_code,
)

__all__ = ["DEFAULT_PORT", "Host", "HostConfig", "Master", "Port", "serve_host"]

log = logging.getLogger("vira-host")

DEFAULT_PORT = 8417
TICK_S = 0.02  # how often the table task polls the master while a bot thinks
IDLE_S = 0.5  # the longest the table task sleeps (held seats' timeouts are checked then)
MAX_OUTBOX = 512  # messages queued for one client before it is dropped as too slow
CLOSE_S = 3.0  # the most a closing handshake may take
POLICY = 1008  # the WebSocket close code for a client that broke the protocol
ANNOUNCE_S = 1.0  # how often the LAN announcement is brought up to date
RESTART = 1012  # ... for every client when a host that keeps its tables stops (come back later)


class Port(Protocol):
    """A seat's door to its table, as the host uses it (:class:`~..session.port.SeatPort`)."""

    def seen(self) -> Seen: ...
    def opening(self) -> Update: ...
    def submit(self, action: Action | None) -> Update: ...
    def command(self, command: Command) -> Update: ...
    def poll(self, now: float) -> list[Update]: ...


class Master(Protocol):
    """A table's one authority, as the host uses it (:class:`~..session.master.TableMaster`)."""

    @property
    def version(self) -> int: ...
    @property
    def table(self) -> Table: ...
    @property
    def deal_over(self) -> bool: ...
    @property
    def session_over(self) -> bool: ...
    def port(self, name: str | None) -> Port: ...
    def poll(self, now: float, ready: bool = True) -> None: ...
    def due_in(self, now: float) -> float | None: ...
    def set_bot(self, name: str, bot: bool, level: str = "normal") -> None: ...
    def close(self) -> None: ...


class MasterFactory(Protocol):
    """Makes a table's master: ``pause`` between moves, ``on_committed`` for each finished
    deal, ``save`` after every change (``None``: the host keeps no saves)."""

    def __call__(
        self,
        table: Table,
        *,
        pause: float,
        worker: Worker,
        on_committed: Callable[[CommittedDeal], None],
        save: Callable[[Table], object] | None,
    ) -> Master: ...


@dataclass
class HostConfig:
    """How the host runs its tables (``vira host``'s options) and what it allows a client."""

    players: int = 3  # seats at each table
    humans: int | None = None  # seats for network players (the rest: host bots); None: every seat
    bots: str = "normal"  # the level of the host's bots and of a dropped player's stand-in
    deals: int | None = None  # the session ends after so many deals (None: when it ends by itself)
    records: Path | None = None  # each finished deal written here as a deal record
    save: Path | None = None  # every table kept here, and taken up again at the next start
    tls: tuple[Path, Path] | None = None  # (certificate chain, private key), PEM: serve wss://
    announce: bool = False  # announce each table on the LAN by mDNS (:mod:`.lan`)
    password: str | None = None
    seat_timeout: float = 60.0  # seconds a dropped player's seat is held before a bot plays it
    hello_timeout: float = 10.0  # seconds a new connection has to say hello
    deal_pause: float = 2.0  # seconds between the end of a deal and the next
    bot_pause: float = 0.45  # seconds between two moves
    prefix: str = "v"  # the table codes' prefix: which host a code names (routing)
    first: str = "1"  # the first table's name: its code is PREFIX-FIRST
    rules: HouseRules = field(default_factory=HouseRules)  # the house rules of every table
    max_tables: int = 8
    max_connections: int = 64
    rate: float = 10.0  # messages a second a client may send, on average
    burst: int = 30  # ... and at once
    chat_rate: float = 0.5  # chat lines a second a player may say, on average
    chat_burst: int = 5  # ... and at once (more is refused, not fatal)
    strikes: int = 5  # bad messages a client may send before it is dropped
    ping_interval: float | None = 20.0  # heartbeats (websockets' keepalive pings)
    ping_timeout: float | None = 20.0
    seed: int | None = None  # the first table's deals (None: fresh deals)
    once: bool = False  # the host stops when its last table has ended
    bot_processes: int | None = None  # the bots' pool, shared by every table (None: one a core; 0: a thread)
    owner_token: str | None = None  # the seat token of the host's own player (a window that hosts): a hello
    # with it takes a seat at the first table, and the table waits for that player's ``start``

    @property
    def first_table(self) -> str:
        return f"{self.prefix}-{self.first}"


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = 0.0
    at: float = 0.0

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Conn:
    """One client's connection: what it is sent goes through a queue, in order, so a slow
    client never holds up a table."""

    def __init__(self, ws: ServerConnection, config: HostConfig, now: float) -> None:
        self.ws = ws
        self.peer = str(ws.remote_address[0]) if ws.remote_address else "?"
        self.bucket = Bucket(config.rate, config.burst, float(config.burst), now)
        self.chat = Bucket(config.chat_rate, config.chat_burst, float(config.chat_burst), now)
        self.strikes = 0
        self.outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.closing = False
        self.gate: Gate | None = None  # the gate of the table it sits at

    def _queue(self, item: str | tuple[int, str]) -> None:
        if self.gate is not None and self.gate.closed:
            self.gate.hold(self, item)
        else:
            self.outbox.put_nowait(item)

    def send(self, message: HostMessage) -> None:
        self.post(encode(message))

    def post(self, text: str) -> None:
        """Send a message already written (:func:`~.protocol.encode`)."""
        if self.closing:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.end(POLICY, "too slow: too many messages waiting")
            return
        self._queue(text)

    def end(self, code: int, reason: str) -> None:
        """Close after what is queued (an error or a bye goes first, with the reason)."""
        if not self.closing:
            self.closing = True
            self._queue((code, reason))

    def fatal(self, reason: str) -> None:
        self.send(Error(reason, fatal=True))
        self.end(POLICY, reason)

    async def pump(self) -> None:
        """Send the queue to the client until it is ended (or the connection is gone)."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                item = await self.outbox.get()
                if isinstance(item, tuple):
                    await self.ws.close(item[0], _close_reason(item[1]))
                    return
                await self.ws.send(item)


class Gate:
    """Holds what a table's clients are sent while its save is being written (off the event
    loop, :class:`~..session.saving.BackgroundSaver`), so that a client is told only what is
    on disk: a host killed and started again never takes back what a player has seen.

    Saves are numbered as they are asked for; a message waits for the newest save asked
    before it, and goes once that one (or a later one) is written. So bots that move faster
    than the disk writes never keep the clients waiting for a moment with no save under way."""

    def __init__(self) -> None:
        self.held: deque[tuple[int, Conn, str | tuple[int, str]]] = deque()
        self.asked = 0  # the number of the newest save asked for
        self.written = 0  # every save up to this one is on disk (or has failed)

    @property
    def closed(self) -> bool:
        return self.written < self.asked

    def hold_until(self, save: int) -> None:
        """What is sent from now on waits for save number ``save``."""
        self.asked = max(self.asked, save)

    def hold(self, conn: Conn, item: str | tuple[int, str]) -> None:
        self.held.append((self.asked, conn, item))

    def release(self, save: int | None = None) -> None:
        """Save number ``save`` is written (None: every save; the numbering starts again):
        send what waited for it, in order (each client's messages keep their order)."""
        self.written = self.asked if save is None else max(self.written, save)
        while self.held and self.held[0][0] <= self.written:
            _, conn, item = self.held.popleft()
            conn.outbox.put_nowait(item)
        if save is None:
            self.asked = self.written = 0


def _close_reason(text: str) -> str:
    """A close frame's reason: at most 123 bytes of UTF-8."""
    data = text.encode()[:123]
    return data.decode(errors="ignore")


@dataclass
class Member:
    """A player at a table: a network player's seat (``token_hash``) or a host bot (``None``).
    ``token`` is known while the player is connected (a table taken up from its save knows
    only the hash until the player is back)."""

    name: str
    token_hash: str | None
    token: str | None = None
    conn: Conn | None = None
    port: Port | None = None
    dropped_at: float | None = None  # the connection went (the seat is held for its token)
    bot: bool = False  # a bot plays the seat now
    sent: int = -1  # the version of the last state sent
    owner: bool = False  # the player whose window hosts the table (its seat is taken back by token only)

    @property
    def player(self) -> bool:
        return self.token_hash is not None


@dataclass
class NetTable:
    """One table at the host: its players, and once they are all in, its master."""

    code: str
    config: HostConfig
    make_master: MasterFactory
    seed: int
    on_end: Callable[[NetTable], None]
    store: TableStore | None = None  # where the table is kept (``HostConfig.save``)
    resumed: Table | None = None  # the session taken up from the store, until it is dealt on
    members: list[Member] = field(default_factory=list)
    master: Master | None = None
    house: Port | None = None  # the host's own (spectator's) port: it deals and settles
    worker: Worker | None = None
    pool: BotPool | None = None  # the host's bots' pool (None: the table thinks inline, a test's)
    saver: BackgroundSaver | None = None  # writes the table's saves off the event loop, once dealt
    next_deal_at: float | None = None
    deals_done: int = 0
    ended: bool = False

    def __post_init__(self) -> None:
        self.wake = asyncio.Event()
        self.filled = asyncio.Event()
        self.states = StateWriter()  # writes the seats' states, the score sheet once for them all
        self.gate = Gate()  # closed while a save is being written
        self.task: asyncio.Task[None] | None = None
        self.chat: deque[ChatFrom] = deque(maxlen=CHAT_HISTORY)  # said lately: told to each player who comes

    @property
    def owned(self) -> bool:
        """A window hosts this table: its player deals the first deal (``start``), not the last to come."""
        return self.config.owner_token is not None and self.code == self.config.first_table

    @classmethod
    def taken_up(cls, store: TableStore, config: HostConfig, make_master: MasterFactory,
                 on_end: Callable[[NetTable], None], pool: BotPool | None) -> NetTable:
        """A table as its store kept it: its seating (every player away until back with the
        token) and, once dealt, its session where it stood. :class:`SaveError` when unreadable."""
        seating, session = store.load()
        table = cls(seating.code, config, make_master, seating.seed, on_end, store, session, pool=pool)
        table.members = [Member(m.name, m.token_hash, bot=m.token_hash is None) for m in seating.members]
        if session is not None:
            table.deals_done = session.deal_index
            table.filled.set()
        return table

    def _keep_seating(self) -> None:
        if self.store is not None:
            members = tuple(SavedSeat(m.name, m.token_hash) for m in self.members)
            self.store.keep_seating(Seating(self.code, self.seed, members, self.master is not None))

    def _keep_table(self) -> None:
        if self.master is not None:
            self._save(self.master.table)

    def _save(self, table: Table) -> None:
        """Save ``table`` in the saver's thread; what the clients are sent meanwhile waits for it."""
        if self.saver is not None:
            self.gate.hold_until(self.saver(table))

    def _saved(self, saver: BackgroundSaver, save: int) -> None:
        """(On the event loop.) Save number ``save`` is written: the clients are sent what
        waited for it (a save of a saver gone since is old news)."""
        if saver is self.saver:
            self.gate.release(save)

    def _stop_saving(self) -> None:
        """Write the saves asked for, and end the saver's thread (the table has ended)."""
        if self.saver is not None:
            self.saver.close()
            self.gate.release()
            self.saver = None

    def _forget(self) -> None:
        """The table is over: its files go."""
        self._stop_saving()
        if self.store is not None:
            self.store.clear()

    # ------------------------------------------------------------------ who is here
    @property
    def humans(self) -> int:
        humans = self.config.humans
        return self.config.players if humans is None else max(1, min(humans, self.config.players))

    @property
    def free(self) -> int:
        """Seats a new player may still take (0 once dealt)."""
        return 0 if self.master is not None or self.ended else max(0, self.humans - len(self.members))

    def member(self, name: str) -> Member | None:
        return next((m for m in self.members if m.name == name), None)

    def lobby(self) -> Lobby:
        """Every seat, as every window shows it: the members', then the places still free
        (players' first, then the host bots' of the first deal)."""
        seats = [
            SeatInfo(m.name, m.conn is not None, m.bot, m.player and m.conn is None, m.conn is not None or m.bot)
            for m in self.members
        ]
        started = self.master is not None
        waiting = 0 if started else max(0, self.humans - len(self.members))
        if not started:
            seats += [SeatInfo("", False, False)] * waiting
            seats += [SeatInfo("", False, True, ready=True)] * (self.config.players - self.humans)
        owner = next((m.name for m in self.members if m.owner), "") if self.owned else ""
        return Lobby(self.code, tuple(seats), waiting, owner, started)

    def _note(self, kind: NoteKind, member: Member) -> None:
        """Tell every other player at the table in play what happened to ``member``'s seat."""
        seconds = round(self.config.seat_timeout) if kind in (NoteKind.DROPPED, NoteKind.LEFT) else 0
        for m in self.members:
            if m is not member and m.conn is not None:
                m.conn.send(Note(kind, member.name, seconds))

    def broadcast(self, message: HostMessage) -> None:
        for m in self.members:
            if m.conn is not None:
                m.conn.send(message)

    def join(self, conn: Conn, hello: Hello) -> Member | str:
        """Seat ``conn``'s player (a new one in the lobby, or one back with its token);
        a string says why not."""
        member = self.member(hello.name)
        owner = member is None and self._is_owner(hello.token)  # the host's own player, taking a seat
        if hello.token is not None and not owner:
            known = member.token_hash if member is not None else None
            if member is None or known is None or not hmac.compare_digest(token_hash(hello.token), known):
                return "no seat at this table for that name and token"
            if member.conn is not None:
                return "that seat is in use by another connection"
            member.token = hello.token
            return self._back(conn, member)
        if member is not None and member.player and member.conn is None and not member.owner:
            token = secrets.token_urlsafe(18)  # the token was lost: the seat held for that name, with a new one
            member.token_hash, member.token = token_hash(token), token
            self._keep_seating()
            return self._back(conn, member)
        if member is not None:
            return f"the name {hello.name!r} is taken at this table"
        if self.master is not None or self.filled.is_set() or len(self.members) >= self.humans:
            return "the table is full"
        token = hello.token if owner and hello.token is not None else secrets.token_urlsafe(18)
        member = Member(hello.name, token_hash(token), token, conn, owner=owner)
        conn.gate = self.gate
        self.members.append(member)
        self._keep_seating()
        log.info("%s: %s joined from %s (%d of %d)", self.code, member.name, conn.peer, len(self.members), self.humans)
        self._welcome(member)
        self.broadcast(self.lobby())
        if len(self.members) == self.humans and not self.owned:
            self.filled.set()
        return member

    def _is_owner(self, token: str | None) -> bool:
        """Whether ``token`` is the host's own player's (:attr:`HostConfig.owner_token`), at the first table."""
        owner = self.config.owner_token
        return (
            owner is not None and token is not None and self.code == self.config.first_table
            and hmac.compare_digest(token.encode(), owner.encode())
        )  # fmt: skip

    def _start_early(self, member: Member) -> str | None:
        """The owner deals now: bots take the seats still free (a string: why not)."""
        if not member.owner:
            return "only the player whose window hosts the table may start it"
        if self.master is not None or self.filled.is_set():
            return "the table has started"
        log.info("%s: started by %s with %d of %d players", self.code, member.name, len(self.members), self.humans)
        self.filled.set()
        return None

    def _welcome(self, member: Member) -> None:
        assert member.conn is not None and member.token is not None
        names = tuple(m.name for m in self.members)
        hold = round(self.config.seat_timeout)
        member.conn.send(Welcome(PROTOCOL, self.code, member.name, member.token, names, tuple(self.chat), hold))

    def _back(self, conn: Conn, member: Member) -> Member:
        member.conn, member.dropped_at, member.sent = conn, None, -1
        conn.gate = self.gate
        if member.bot and self.master is not None:
            self.master.set_bot(member.name, False)
            member.bot = False
            self._keep_table()
        log.info("%s: %s is back from %s", self.code, member.name, conn.peer)
        self._welcome(member)
        if self.master is not None:
            self._note(NoteKind.BACK, member)
        self.broadcast(self.lobby())
        self.wake.set()  # the table task sends the seat's whole state
        return member

    def leave(self, member: Member, for_good: bool = False) -> None:
        """``member``'s connection has gone (``for_good``: the player said bye): the seat is
        held all the same, for the player to come back to, a bot playing it after the
        timeout; a player leaving the lobby gives the place up."""
        member.conn = None
        if self.ended:
            return
        if self.master is None:
            self.members.remove(member)
            log.info("%s: %s left the lobby", self.code, member.name)
            self._keep_seating()
            if not self.members and self.code != self.config.first_table and self.task is not None:
                self._forget()
                self.task.cancel()  # a table opened and left empty is closed (tables are few)
                return
        elif not member.bot:
            member.dropped_at = asyncio.get_running_loop().time()
            how = "left" if for_good else "dropped"
            log.info("%s: %s %s; the seat is held %.0f s", self.code, member.name, how, self.config.seat_timeout)
            self._note(NoteKind.LEFT if for_good else NoteKind.DROPPED, member)
        self.broadcast(self.lobby())
        self.wake.set()

    def _to_bot(self, member: Member) -> None:
        member.dropped_at = None
        if not member.bot and self.master is not None:
            self.master.set_bot(member.name, True, self.config.bots)
            member.bot = True
            self._keep_table()

    # ------------------------------------------------------------------ what a player sends
    def receive(self, member: Member, message: ClientMessage) -> str | None:
        """Act on ``member``'s message; a string says why it is refused (the table unchanged)."""
        if isinstance(message, Chat):
            assert member.conn is not None
            if not member.conn.chat.take(asyncio.get_running_loop().time()):
                return "too many chat lines: wait a moment"
            said = ChatFrom(member.name, plain_text(message.text))
            self.chat.append(said)
            self.broadcast(said)
            return None
        if isinstance(message, Start):
            return self._start_early(member)
        if self.master is None or member.port is None:
            return "the table is waiting for its players"
        if isinstance(message, Submit):
            return self._submit(member, member.port, message)
        if isinstance(message, CommandMessage):
            return self._act(member, lambda port: port.command(message.command))
        return f"a {message.TYPE} is not expected now"

    def _submit(self, member: Member, port: Port, message: Submit) -> str | None:
        assert self.master is not None
        if message.version is not None and message.version != self.master.version:
            return f"stale: the table has moved on to version {self.master.version}"
        seats = port.seen().table.seats
        if member.name not in seats:
            return "you sit out this deal"
        seat = seats.index(member.name)
        if message.seat is not None and message.seat != seat:
            return f"not your seat: you are seat {seat} in this deal"
        try:
            action = None if message.action is None else parse_action(message.action, seat)
        except ValueError as exc:
            return f"not an action: {exc}"
        return self._act(member, lambda port: port.submit(action))

    def _act(self, member: Member, act: Callable[[Port], Update]) -> str | None:
        assert member.port is not None and member.conn is not None
        try:
            update = act(member.port)
        except ValueError as exc:  # ViraError is one: the table is unchanged
            return str(exc) or type(exc).__name__
        member.conn.send(UpdateMessage(update))
        self._step(asyncio.get_running_loop().time())  # the others are told now, not a turn of the loop later
        self.wake.set()
        return None

    # ------------------------------------------------------------------ the table task
    async def run(self) -> None:
        """Wait for the players, then play the session out; the table ends with it."""
        try:
            await self.filled.wait()
            self._start()
            loop = asyncio.get_running_loop()
            while not self.ended:
                now = loop.time()
                self._step(now)
                self._timeouts(now)
                self._between_deals(now)
                await self._sleep(self._due(now))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: the table failed", self.code)
            self._finish("the host failed; the table is closed")
        finally:
            self._stop_saving()
            if self.worker is not None:
                self.worker.shutdown()
            self.on_end(self)

    def _start(self) -> None:
        """Deal the first deal (or take up the session kept), and give each seat its port."""
        taken_up = self.resumed is not None
        table, self.resumed = self.resumed or self._new_table(), None
        for m in self.members:
            m.bot = not table.seat_config(m.name).human
        self.worker = self.pool.lane() if self.pool is not None else InlineWorker()
        if self.store is not None:
            loop, code = asyncio.get_running_loop(), self.code

            def saved(save: int) -> None:  # (in the saver's thread)
                loop.call_soon_threadsafe(self._saved, saver, save)

            def failed(exc: OSError) -> None:
                log.error("%s: not saved: %s", code, exc)

            self.saver = saver = BackgroundSaver(self.store.autosave, failed=failed, done=saved)
        save = self._save if self.saver is not None else None
        self.master = self.make_master(
            table, pause=self.config.bot_pause, worker=self.worker, on_committed=self._committed, save=save
        )
        self._keep_seating()
        self._keep_table()
        self.house = self.master.port(None)
        self.house.opening()
        for m in self.members:
            m.port = self.master.port(m.name)
            opening = m.port.opening()  # the seating, the åla and the deal, for a client that animates
            if m.conn is not None:
                m.conn.send(UpdateMessage(opening))
            elif m.player and not m.bot:  # dropped while the table filled, or away since the host's restart
                m.dropped_at = asyncio.get_running_loop().time()
        seated = ", ".join(m.name + ("" if m.player else " (bot)") for m in self.members)
        how = f"taken up at deal {table.deal_index + 1}, move {len(table.deal.history)}" if taken_up else "first deal"
        log.info("%s: %s, %s", self.code, how, seated)
        self.broadcast(self.lobby())

    def _new_table(self) -> Table:
        taken = {m.name for m in self.members}
        bot_names = (f"Bot {i}" for i in range(1, 100) if f"Bot {i}" not in taken)
        while len(self.members) < self.config.players:
            self.members.append(Member(next(bot_names), None, bot=True))
        seats = [SeatConfig(m.name, m.player, self.config.bots) for m in self.members]
        return new_table(seats, self.seed, rules=self.config.rules)

    def _step(self, now: float) -> None:
        """The master's turn (a bot's answer, a pause over), then every seat told."""
        assert self.master is not None
        self.master.poll(now)
        self._flush(now)

    def _flush(self, now: float) -> None:
        """Each seat's updates to its player, then its whole state if the version moved."""
        assert self.master is not None and self.house is not None
        self.house.poll(now)
        for m in self.members:
            if m.port is None:
                continue
            updates = m.port.poll(now)
            if m.conn is None:
                continue
            for update in updates:
                m.conn.send(UpdateMessage(update))
            if m.sent != self.master.version:
                seen = m.port.seen()
                m.sent = seen.version
                m.conn.post(self.states.encode(State(seen)))

    def _timeouts(self, now: float) -> None:
        for m in self.members:
            if m.dropped_at is not None and now - m.dropped_at >= self.config.seat_timeout:
                log.info("%s: %s did not come back; a bot plays the seat", self.code, m.name)
                self._to_bot(m)
                self._note(NoteKind.BOT, m)
                self.broadcast(self.lobby())

    def _between_deals(self, now: float) -> None:
        assert self.master is not None and self.house is not None
        if not self.master.deal_over:
            self.next_deal_at = None
            return
        if self.next_deal_at is None:
            self.deals_done += 1
            self.next_deal_at = now + self.config.deal_pause
            log.info("%s: deal %d over", self.code, self.deals_done)
            return
        if now < self.next_deal_at:
            return
        limit = self.config.deals
        if self.master.session_over or (limit is not None and self.deals_done >= limit):
            self.house.command(Command.SETTLE)
            self._flush(now)
            self._finish("the session is over")
            self._forget()
        else:
            self.house.command(Command.NEXT_DEAL)
            self.next_deal_at = None

    def _due(self, now: float) -> float:
        """How long the table task may sleep."""
        assert self.master is not None
        due = self.master.due_in(now)
        waits = [IDLE_S, TICK_S if due is not None and due <= 0 else (due if due is not None else IDLE_S)]
        if self.next_deal_at is not None:
            waits.append(max(0.0, self.next_deal_at - now))
        waits += [max(0.0, m.dropped_at + self.config.seat_timeout - now) for m in self.members if m.dropped_at]
        return max(TICK_S, min(waits))

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), seconds)
        self.wake.clear()

    def _finish(self, reason: str, kept: bool = False) -> None:
        """The session is over: everyone is told why and their connections closed. ``kept``:
        the host stops but keeps the table, so its players are not told goodbye (close code
        1012, service restart: they come back when it is up again)."""
        if self.ended:
            return
        self.ended = True
        if self.master is not None and not kept:
            self.master.close()
        log.info("%s: %s (%s)", self.code, "kept" if kept else "ended", reason)
        for m in self.members:
            if m.conn is None:
                continue
            if kept:
                m.conn.end(RESTART, reason)
            else:
                m.conn.send(Bye(reason))
                m.conn.end(1000, reason)

    def _committed(self, deal: CommittedDeal) -> None:
        """A finished deal, written as a deal record when the host keeps them."""
        folder = self.config.records
        if folder is None:
            return
        path = folder / f"{self.code}-{self.seed}-deal-{deal.index + 1:03}.yaml"
        if path.exists():  # a table taken up after a restart offers its finished deals again
            return
        try:
            write_atomically(path, dump_record(deal.record))
            log.info("%s: deal %d written to %s", self.code, deal.index + 1, path)
        except OSError as exc:
            log.error("%s: deal %d not written: %s", self.code, deal.index + 1, exc)


class Host:
    """The tables of one host process and the WebSocket server in front of them."""

    def __init__(self, config: HostConfig, make_master: MasterFactory | None = None) -> None:
        self.config = config
        self.make_master = make_master or net_masters()
        self.tables: dict[str, NetTable] = {}
        self.conns: set[Conn] = set()
        self.server: Server | None = None
        self.done = asyncio.Event()  # ``once``: the last table has ended
        self.announcing: asyncio.Task[None] | None = None
        self.pool: BotPool | None = None  # made by :meth:`start`, before the host serves
        self._seeds = random.Random(config.seed) if config.seed is not None else random.SystemRandom()

    async def start(self, bind: str = "127.0.0.1", port: int = DEFAULT_PORT) -> int:
        """Take up the tables kept (``save``), then listen on ``bind``:``port`` (0: any free
        port); the port listened on. The bots' pool is made first: its processes start here,
        never when a table starts."""
        c = self.config
        if self.pool is None:
            self.pool = BotPool(c.bot_processes if c.bot_processes is not None else os.cpu_count() or 1)
        for store in saved_tables(c.save) if c.save is not None else []:
            self._take_up(store)
        if c.first_table not in self.tables:
            self.open_table(c.first_table)
        self.server = await serve(
            self.handle,
            bind,
            port,
            ssl=tls_context(*c.tls) if c.tls is not None else None,
            process_request=self._before_upgrade,
            max_size=MAX_CLIENT_MESSAGE,
            max_queue=4,
            ping_interval=c.ping_interval,
            ping_timeout=c.ping_timeout,
            open_timeout=c.hello_timeout,
            close_timeout=CLOSE_S,
            compression=None,
        )
        listening = int(self.server.sockets[0].getsockname()[1])
        if c.announce:
            self.announcing = asyncio.get_running_loop().create_task(self._announce(bind, listening))
        return listening

    async def _announce(self, bind: str, port: int) -> None:
        """Keep the LAN told of the tables and their free seats until the host stops."""
        from .lan import Announcer  # zeroconf is imported only by a host that announces

        try:
            announcer = Announcer(bind, port, self.config.tls is not None)
        except OSError as exc:
            log.warning("not announced on the LAN: %s", exc)
            return
        try:
            while True:
                await announcer.show({code: table.free for code, table in self.tables.items()})
                await asyncio.sleep(ANNOUNCE_S)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # zeroconf's own errors are many: the tables play on unannounced
            log.warning("the LAN announcement failed: %s", exc)
        finally:
            await asyncio.shield(announcer.close())

    async def stop(self) -> None:
        """End every table (a host that keeps its tables keeps them for its next start)."""
        if self.announcing is not None:
            self.announcing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.announcing
        for table in list(self.tables.values()):
            table._finish("the host is shutting down", kept=table.store is not None)
            table._stop_saving()  # what was asked is written before the host goes
            if table.task is not None:
                table.task.cancel()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.pool is not None:
            self.pool.shutdown()

    def open_table(self, code: str) -> NetTable:
        store = TableStore(self.config.save, code) if self.config.save is not None else None
        seed = self._seeds.randrange(2**31)
        table = NetTable(code, self.config, self.make_master, seed, self._ended, store, pool=self.pool)
        return self._run(table, "open")

    def _run(self, table: NetTable, how: str) -> NetTable:
        self.tables[table.code] = table
        table.task = asyncio.get_running_loop().create_task(table.run(), name=f"table {table.code}")
        table.task.add_done_callback(lambda _: self._ended(table))  # also when cancelled before it ran
        log.info("%s: table %s", table.code, how)
        return table

    def _take_up(self, store: TableStore) -> None:
        """A table kept by an earlier run of this host, where it stood (one that cannot be read
        is set aside, logged, and the others are taken up)."""
        if not store.code.startswith(self.config.prefix + "-") or len(self.tables) >= self.config.max_tables:
            log.warning("%s: kept in %s, not taken up by this host", store.code, store.folder)
            return
        try:
            table = NetTable.taken_up(store, self.config, self.make_master, self._ended, self.pool)
        except SaveError as exc:
            log.error("%s: cannot be taken up (%s); its files are set aside", store.code, exc)
            store.set_aside()
            return
        self._run(table, "taken up from its save")

    def _ended(self, table: NetTable) -> None:
        if self.tables.get(table.code) is table:  # (once: its task's end calls this too)
            del self.tables[table.code]
        if self.config.once and not self.tables:
            self.done.set()

    def _before_upgrade(self, connection: ServerConnection, request: Request) -> Response | None:
        """Refuse before the handshake: too many connections, or a path naming no table code."""
        if len(self.conns) >= self.config.max_connections:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "too many connections\n")
        path = request.path.split("?", 1)[0].strip("/")
        if path and not valid_code(path):
            return connection.respond(HTTPStatus.NOT_FOUND, "no such table\n")
        return None

    async def handle(self, ws: ServerConnection) -> None:
        """One connection, from its hello to its end; nothing a client sends raises out of it."""
        conn = Conn(ws, self.config, asyncio.get_running_loop().time())
        self.conns.add(conn)
        pump = asyncio.create_task(conn.pump())
        found: tuple[NetTable, Member] | None = None
        try:
            found = await self._hello(conn)
            if found is not None:
                await self._converse(conn, *found)
        except ConnectionClosed:
            pass
        except Exception:  # a bug of ours: logged, the client told, the others play on
            log.exception("a connection from %s failed", conn.peer)
            conn.fatal("internal error")
        finally:
            self.conns.discard(conn)
            if found is not None and found[1].conn is conn:
                found[0].leave(found[1])
            conn.end(1000, "")
            with contextlib.suppress(TimeoutError, ConnectionClosed):  # a flood's backlog read, so the close is heard
                await asyncio.wait_for(asyncio.gather(pump, _drain(ws)), CLOSE_S)

    async def _hello(self, conn: Conn) -> tuple[NetTable, Member] | None:
        try:
            text = await asyncio.wait_for(conn.ws.recv(), self.config.hello_timeout)
        except TimeoutError:
            conn.fatal(f"no hello within {self.config.hello_timeout:g} s")
            return None
        try:
            hello = read_client(text)
        except ProtocolError as exc:
            conn.fatal(str(exc))
            return None
        if not isinstance(hello, Hello):
            conn.fatal("the first message must be a hello")
            return None
        refusal = self._refusal(conn, hello)
        if isinstance(refusal, str):
            conn.fatal(refusal)
            return None
        return refusal

    def _refusal(self, conn: Conn, hello: Hello) -> tuple[NetTable, Member] | str:
        """The table and seat ``hello`` takes, or why not."""
        password = self.config.password
        if password is not None and not hmac.compare_digest((hello.password or "").encode(), password.encode()):
            return "wrong password"
        path = conn.ws.request.path.split("?", 1)[0].strip("/") if conn.ws.request else ""
        code = hello.table or path or self.config.first_table
        if path and path != code:
            return "the hello names another table than the address"
        if not code.startswith(self.config.prefix + "-"):
            return f"table {code} is not at this host"
        table = self.tables.get(code)
        if table is None:
            if hello.token is not None:
                return f"table {code} has ended"
            if len(self.tables) >= self.config.max_tables:
                return "no more tables at this host"
            table = self.open_table(code)
        joined = table.join(conn, hello)
        return joined if isinstance(joined, str) else (table, joined)

    async def _converse(self, conn: Conn, table: NetTable, member: Member) -> None:
        loop = asyncio.get_running_loop()
        async for text in conn.ws:
            if conn.closing:
                return
            if not conn.bucket.take(loop.time()):
                log.info("%s: %s dropped for flooding", table.code, member.name)
                conn.fatal("too many messages")
                return
            try:
                message = read_client(text)
            except ProtocolError as exc:
                conn.strikes += 1
                if conn.strikes > self.config.strikes:
                    conn.fatal(f"too many bad messages; the last: {exc}")
                    return
                conn.send(Error(str(exc)))
                continue
            if isinstance(message, Bye):
                table.leave(member, for_good=True)
                conn.end(1000, "bye")
                return
            if isinstance(message, Hello):
                conn.send(Error("a hello is only the first message"))
                continue
            refusal = table.receive(member, message)
            if refusal is not None:
                conn.send(Error(refusal))


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server's TLS (1.2 at least) with the certificate chain ``cert`` and its key ``key``
    (PEM); :class:`OSError` (``ssl.SSLError`` is one) when they cannot be read or do not match."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


async def _drain(ws: ServerConnection) -> None:
    """Read and drop whatever the client still sends, until its connection is closed."""
    async for _ in ws:
        pass


class NetMaster(TableMaster):
    """A table's master at the host: a player's port may only agree how the session ends, and
    is never given a finished deal's whole record (the host's own port deals and settles)."""

    def port(self, name: str | None) -> SeatPort:
        commands = frozenset(Command) if name is None else CLIENT_COMMANDS
        return SeatPort(self, name, commands, full_records=False)


def net_masters(director: Callable[[Table], Director] | None = None) -> MasterFactory:
    """How the host makes each table's master (``director``: who answers, for a test that
    forces the auctions; by default the players and the bots)."""

    def make(
        table: Table,
        *,
        pause: float,
        worker: Worker,
        on_committed: Callable[[CommittedDeal], None],
        save: Callable[[Table], object] | None,
    ) -> Master:
        rule = director(table) if director is not None else None
        return NetMaster(table, worker, pause=pause, on_committed=on_committed, save=save, director=rule)

    return make


async def serve_host(config: HostConfig, bind: str, port: int, ready: Callable[[int], Any] | None = None) -> int:
    """Run a host until interrupted (or, ``config.once``, until its last table ends)."""
    host = Host(config)
    listening = await host.start(bind, port)
    scheme = "wss" if config.tls is not None else "ws"
    log.info("listening on %s://%s:%d; tables %s", scheme, bind, listening, ", ".join(sorted(host.tables)))
    with contextlib.suppress(NotImplementedError, RuntimeError):  # (no signal handlers on Windows)
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, host.done.set)
    if ready is not None:
        ready(listening)
    try:
        await host.done.wait()
    finally:
        await host.stop()
    return 0
