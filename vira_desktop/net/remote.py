"""A seat at a host's table, for the window: :class:`RemoteTable` is a
:class:`~..session.port.TableClient` over a WebSocket, and :class:`LocalHost` a host run by
the window itself for friends to join.

The connection (:class:`~.client.Connection`: the hello, the seat's token, coming back after
a drop) runs on an asyncio loop in a thread of its own; the frame loop talks to it only
through two queues, and never waits on it. What the host sends is handed out by
:meth:`RemoteTable.poll` one change at a time (the updates of one change, then its state),
as the window is ready for it, so a change is drawn with the state it led to. The coach's
hints and bid colours are worked out here, in a worker, from the seat's own view: the
seat's observation, so they know nothing the seat may not.

The table's log is the host's narration with what this window heard between its lines: the
chat said at the table and the notes on the others' seats (dropped, a bot plays it, back),
each as plain text in the player's words.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import secrets
import string
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..i18n import t
from ..rules.actions import Action, Bid, PlayCard
from ..rules.deal import card_refusal
from ..rules.decision import Phase
from ..rules.errors import ViraError
from ..session.analysis import Analysis
from ..session.coach import BidAdvice, Hint
from ..session.flow import Ask
from ..session.jobs import JobKind, Jobs
from ..session.port import ClientFacts, Seen, Update
from ..session.state import TableState
from ..session.thinking import coach_bids, coach_hint
from ..session.turns import Command
from ..session.words import say_keyed, say_refusal
from ..session.worker import Worker
from .client import CHAT_KEPT, Connection, JoinOptions, Link, new_lines, note_words, submit_message
from .host import DEFAULT_PORT, Host, HostConfig
from .protocol import (
    CLIENT_COMMANDS,
    Bye,
    Chat,
    ChatFrom,
    ClientMessage,
    CommandMessage,
    Error,
    HostMessage,
    Lobby,
    Note,
    ProtocolError,
    Start,
    State,
    UpdateMessage,
    Welcome,
    plain_text,
)

__all__ = [
    "LinkState",
    "LocalHost",
    "RemoteTable",
    "host_here",
    "table_prefix",
]

log = logging.getLogger("vira-join")

WAKE_S = 0.1  # how often the window looks for what came while connected
CLOSE_S = 3.0  # the most closing takes (the bye, the thread's end)
LOG_KEPT = 12  # the table's log: its newest lines (the panel shows what fits)


@dataclass(frozen=True)
class LinkState:
    """How the seat's connection stands, as the frame loop last heard."""

    link: Link = Link.CONNECTING
    why: str = ""  # why it dropped or ended, technically (logged, not shown)
    tries: int = 0  # dropped: the tries to come back so far
    gives_up_at: float = 0.0  # dropped: when it stops trying (time.monotonic)
    failure: str = ""  # why the connection failed, in the player's words: a key of ``friends.why``

    def plainly(self) -> str:
        """Why it dropped or ended, for the player: the connection's failure in plain words,
        else what the host said (a refusal, a goodbye)."""
        return t(f"friends.why.{self.failure}") if self.failure else self.why


@dataclass(frozen=True)
class _Unsent:
    """A message the connection could not send (it was down)."""

    message: ClientMessage


class _Wire(Connection):
    """The connection in its thread: everything heard goes to the frame loop's queue."""

    def __init__(self, options: JoinOptions, inbox: queue.SimpleQueue[object]) -> None:
        super().__init__(options)
        self.inbox = inbox

    def received(self, message: HostMessage) -> None:
        self.inbox.put(message)

    def chatted(self, line: ChatFrom) -> None:
        self.inbox.put(line)

    def linked(self) -> None:
        if self.lost:
            log.info("%s: %s", self.link.value, self.lost)
        self.inbox.put(LinkState(self.link, self.lost, self.tries, self.gives_up_at, self.failure))


class RemoteTable:
    """The window's seat at a host's table (see the module). ``worker`` makes the worker the
    coach thinks in; ``hosting``: the host this window runs, stopped when the table is left."""

    def __init__(
        self,
        options: JoinOptions,
        worker: Callable[[], Worker] = Worker,
        hosting: LocalHost | None = None,
    ) -> None:
        self.options = replace(options, say=log.info, bot=None, dump=None)
        self.hosting = hosting
        self.pause = 0.0  # the host keeps the pace
        self.coach_bids = False
        self.hints_asked = 0
        self.link = LinkState()
        self.welcome: Welcome | None = None
        self.lobby: Lobby | None = None
        self.ended: Bye | Error | None = None  # the host ended the seat: its bye (or a fatal error)
        self.chat: deque[tuple[str, str]] = deque(maxlen=CHAT_KEPT)  # (who, what), as plain text
        self.show_chat = True  # chat lines go into the table's log (the player's setting)
        self._log: deque[str] = deque(maxlen=LOG_KEPT)  # the table's log: the host's lines, the chat, the notes
        self._host_log: tuple[str, ...] = ()  # the host's log as last taken in
        self._shown: tuple[Seen, int, Seen] | None = None  # (the host's state, the log's count, as shown)
        self._logged = 0  # lines put in the log so far
        self._seen: Seen | None = None
        self._steps: deque[Update | Seen] = deque()  # what the host sent, not handed out yet
        self._said: list[Update] = []  # handed out at the next poll, whether or not the window is busy
        self._answered: int | None = None  # the version answered, until the host moves on or refuses
        self._hint: tuple[int, Hint] | None = None
        self._advice: tuple[int, dict[Bid, BidAdvice]] | None = None
        self._jobs: Jobs | None = None
        self._worker = worker
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._loop = asyncio.new_event_loop()
        self._outbox: asyncio.Queue[ClientMessage | None] = asyncio.Queue()
        self._wire = _Wire(self.options, self._inbox)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="vira-remote", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the connection's thread
    def _run(self) -> None:
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    async def _main(self) -> None:
        playing = asyncio.create_task(self._play())
        sending = asyncio.create_task(self._send_all())
        await asyncio.wait({playing, sending}, return_when=asyncio.FIRST_COMPLETED)
        for task in (playing, sending):
            task.cancel()
        await asyncio.gather(playing, sending, return_exceptions=True)
        self._inbox.put(LinkState(Link.ENDED, self._wire.lost or "closed", failure=self._wire.failure))

    async def _play(self) -> None:
        try:
            await self._wire.run()
        except ProtocolError as exc:
            self._wire.lost = f"the host sent a message that is not of the protocol: {exc}"
            self._wire.failure = "not_vira"
            log.info("%s", self._wire.lost)

    async def _send_all(self) -> None:
        while (message := await self._outbox.get()) is not None:
            if not await self._wire.send(message) and not isinstance(message, Bye):
                self._inbox.put(_Unsent(message))
            if isinstance(message, Bye):
                return

    def _send(self, message: ClientMessage | None) -> None:
        """Hand ``message`` to the connection's thread (``None``: stop)."""
        if not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed in between
                self._loop.call_soon_threadsafe(self._outbox.put_nowait, message)

    # ------------------------------------------------------------------ what came in
    def _drain(self) -> None:
        """Take in whatever the connection's thread has put in the queue."""
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return
            self._heard(item)

    def _heard(self, item: object) -> None:
        if isinstance(item, LinkState):
            self.link = item
        elif isinstance(item, Welcome):
            self.welcome = item
        elif isinstance(item, Lobby):
            self.lobby = item
        elif isinstance(item, ChatFrom):
            self._hear(item)
        elif isinstance(item, Note):
            self._tell(note_words(item))
        elif isinstance(item, UpdateMessage):
            self._steps.append(item.update)
        elif isinstance(item, State):
            self._steps.append(item.seen)
        elif isinstance(item, Error) and not item.fatal:
            self._answered = None  # the question stands again
            self._said.append(Update(version=self.version, refused=plain_text(item.reason)))
        elif isinstance(item, Error | Bye):
            self.ended = item
            self.link = LinkState(Link.ENDED, plain_text(item.reason))
        elif isinstance(item, _Unsent) and not isinstance(item.message, Chat):
            self._answered = None
            self._said.append(Update(version=self.version, refused=t("friends.not_connected")))

    def _hear(self, line: ChatFrom) -> None:
        """A chat line: in the lobby's chat and the table's log, as plain text."""
        who, what = plain_text(line.sender), plain_text(line.text)
        self.chat.append((who, what))
        if self.show_chat:
            self._tell(t("friends.table_said", who=who or t("friends.host_said"), text=what))

    def _tell(self, line: str) -> None:
        """A line in the table's log."""
        self._log.append(line)
        self._logged += 1

    def _step(self) -> list[Update]:
        """The updates of the next change the host sent, and its state taken as the seat's."""
        if not any(isinstance(item, Seen) for item in self._steps):
            return []
        updates: list[Update] = []
        while not isinstance(item := self._steps.popleft(), Seen):
            updates.append(item)
        moved = self._seen is None or item.version != self._seen.version
        self._seen = item
        for line in new_lines(self._host_log, item.log):  # the host's narration, the rolling log's new lines
            self._tell(line)
        self._host_log = item.log
        if moved:
            self._answered = None
        if not updates:  # a state alone: the seat came back, or the table was taken up again
            updates.append(Update(version=item.version, snap=True))
        return updates

    @property
    def dealt(self) -> bool:
        """The first deal has come (the table can be shown)."""
        self._drain()
        return self._seen is not None or any(isinstance(item, Seen) for item in self._steps)

    @property
    def session_over(self) -> bool:
        """The host has settled the session (its last state says so, shown or still to be)."""
        self._drain()
        return any(isinstance(seen, Seen) and seen.session_over for seen in (self._seen, *self._steps))

    # ------------------------------------------------------------------ the port
    @property
    def viewer(self) -> str:
        return self.welcome.seat if self.welcome is not None else self.options.name

    @property
    def version(self) -> int:
        return self._seen.version if self._seen is not None else 0

    def seen(self) -> Seen:
        """The host's state of the seat, its log with the chat and the notes heard between its lines."""
        seen = self._seen
        assert seen is not None, "no state yet: open the table once dealt"
        if self._shown is None or self._shown[0] is not seen or self._shown[1] != self._logged:
            self._shown = (seen, self._logged, replace(seen, log=tuple(self._log)))
        return self._shown[2]

    def state(self, with_seating: bool = False) -> TableState:
        return self.seen().table

    def asked(self) -> Ask | None:
        """The seat's question, until it is answered (the answer is on its way)."""
        if self._seen is None or self._answered == self._seen.version or self.link.link is not Link.SEATED:
            return None
        return self._seen.ask

    def start(self) -> Update:
        """The table as it opens: the first change the host sent (the deal shown)."""
        self._drain()
        updates = self._step()
        events = tuple(e for u in updates for e in u.events)
        return Update(events, self.version, snap=not events)

    def submit(self, seat: int, action: Action | None) -> Update:
        """Send the answer; the change it makes comes by :meth:`poll` (a refusal too)."""
        ask = self.asked()
        if ask is None or ask.seat != seat:
            raise ViraError(t("message.not_your_turn"))
        self._answered = self.version
        self._send(submit_message(action, self.version))
        return Update(version=self.version)

    def command(self, command: Command) -> Update:
        """The last round or Borup, asked of the host; the host deals and settles itself."""
        if command is Command.SETTLE and self._seen is not None and self._seen.session_over:
            return Update(version=self.version)  # settled by the host: the sheet shows it
        if command not in CLIENT_COMMANDS:
            key = "friends.host_deals" if command is Command.NEXT_DEAL else "friends.no_command"
            raise ViraError(t(key))
        self._send(CommandMessage(command))
        return Update(version=self.version)

    def start_now(self) -> None:
        """Ask the host to deal now, bots in the seats still free (the host's own player only)."""
        self._send(Start())

    def say(self, text: str) -> None:
        """A chat line to the table."""
        if plain_text(text):
            self._send(Chat(text[:280]))

    def refusal(self, action: Action) -> str | None:
        """Why a card may not be played, from the seat's own view (the host checks all else)."""
        ask = self.asked()
        decision = ask.view.decision if ask is not None else None
        if ask is None or decision is None or not isinstance(action, PlayCard) or action in decision.actions:
            return None
        view = ask.view
        led = view.trick[0][1].suit if view.trick else None
        said = card_refusal(action.card, action.card in view.hand, False, led, self.viewer)
        return say_keyed(said, "refusal", self.state().seats) if said is not None else None

    def say_refusal(self, exc: ViraError) -> str:
        return say_refusal(exc, self.state().seats if self._seen is not None else ())

    def poll(self, now: float, ready: bool = True) -> list[Update]:
        """What came since the last poll: a refusal or the coach's word at once, and the next
        change the host sent once the window is ready for it. Never waits."""
        self._drain()
        updates, self._said = self._said, []
        if ready:
            updates += self._step()
        updates += self._coach()
        return updates

    def due_in(self, now: float) -> float | None:
        if self._said or (self._steps and any(isinstance(item, Seen) for item in self._steps)):
            return 0.0
        if self._jobs is not None and self._jobs.worker.pending():
            return 0.05
        return None if self.link.link is Link.ENDED else WAKE_S

    def lift_cover(self) -> None:
        """No cover: one person at this screen."""

    # ------------------------------------------------------------------ the coach, here
    def _job_queue(self) -> Jobs:
        if self._jobs is None:
            self._jobs = Jobs(self._worker())
        return self._jobs

    def ask_hint(self) -> bool:
        ask = self.asked()
        if ask is None or ask.view.decision is None:
            return False
        if self._hint is not None and self._hint[0] == self.version:
            self._said.append(Update(hint=self._hint[1], version=self.version))
        elif self._job_queue().ask(JobKind.HINT, self.version, coach_hint, ask.view):
            self.hints_asked += 1
        return True

    def advice(self) -> dict[Bid, BidAdvice] | None:
        return self._advice[1] if self._advice is not None and self._advice[0] == self.version else None

    def _coach(self) -> list[Update]:
        """Ask the coach about every bid of the seat's auction turn (once a turn), and hand
        out what it answered for the question standing."""
        ask = self.asked() if self.coach_bids else None
        decision = ask.view.decision if ask is not None and not ask.optional else None
        if ask is not None and decision is not None and decision.phase is Phase.AUCTION and self.advice() is None:
            self._job_queue().ask(JobKind.ADVICE, self.version, coach_bids, ask.view)
        if self._jobs is None:
            return []
        self._jobs.moved_on(self.version)
        out = []
        for job, result in self._jobs.answers(self.version):
            if job.kind is JobKind.HINT and isinstance(result, Hint):
                self._hint = (self.version, result)
                out.append(Update(hint=result, version=self.version))
            elif job.kind is JobKind.HINT:
                log.error("the coach failed: %r", result)
                self._jobs.again(JobKind.HINT)
                out.append(Update(hint_failed=True, version=self.version))
            elif isinstance(result, dict):
                self._advice = (self.version, result)
                out.append(Update(advice=result, version=self.version))
        return out

    def ask_analysis(self) -> bool:
        """``False``: a shared table's hidden cards stay with its host."""
        return False

    def analysis(self) -> Analysis | None:
        return None

    def finished_record(self) -> tuple[int, dict[str, Any]] | None:
        """``None``: a shared table's hidden cards stay with its host."""
        return None

    # ------------------------------------------------------------------ the rest
    @property
    def facts(self) -> ClientFacts:
        self._drain()
        state = self._seen.table if self._seen is not None else None
        done = 0 if state is None else state.deal_index + int(state.over)
        hold = self.welcome.seat_hold if self.welcome is not None else 0
        return ClientFacts(
            1,
            False,
            done,
            self.hints_asked,
            False,
            shared=True,
            link_note=self.link_note(),
            hosting=self.hosting is not None,
            seat_hold=hold,
        )

    def link_note(self) -> str:
        """The connection in the player's words while it is not well ("" when seated)."""
        link = self.link
        if link.link is Link.DROPPED:
            return t("friends.link.dropped")
        if link.link is Link.ENDED and not (self._seen is not None and self._seen.session_over):
            return t("friends.link.ended")
        if link.link is Link.CONNECTING and self._seen is not None:
            return t("friends.link.connecting")
        return ""

    def close(self) -> None:
        """Leave: a bye to the host (the seat is held), the connection's thread ended, each
        within a few seconds. A table hosted here is ended first: its host says goodbye to
        everyone (so nobody is told that its player left, as if the table played on)."""
        if self._closed:
            return
        self._closed = True
        if self.hosting is not None:
            self.hosting.stop()
        else:
            self._send(Bye(""))
        self._send(None)
        self._thread.join(CLOSE_S)
        if self._jobs is not None:
            self._jobs.worker.shutdown()


def table_prefix() -> str:
    """A table code's prefix for a window's host: four letters, so that tables on one LAN differ."""
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(4))


class LocalHost:
    """A :class:`~.host.Host` run by the window, on an asyncio loop in a thread of its own:
    ``bind`` 127.0.0.1 serves this computer only, 0.0.0.0 the local network; the port is
    :data:`~.host.DEFAULT_PORT` where it is free, else any. :meth:`stop` ends its tables."""

    def __init__(self, config: HostConfig, bind: str = "127.0.0.1", port: int = DEFAULT_PORT) -> None:
        self.config = config
        self.bind = bind
        self.port = 0
        self.failed: BaseException | None = None
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, args=(port,), name="vira-host", daemon=True)
        self._thread.start()
        if not self._ready.wait(10.0):
            self.stop()
            raise OSError("the host did not start")
        if self.failed is not None:
            raise OSError(f"cannot host: {self.failed}")

    @property
    def table(self) -> str:
        return self.config.first_table

    @property
    def address(self) -> str:
        """The address to tell friends: this machine's on the network, or loopback."""
        return self.addresses[0]

    @functools.cached_property
    def addresses(self) -> list[str]:
        """Every address to tell friends, the likeliest first: this machine's on the network
        (looked up once: the lobby draws them every frame), or loopback."""
        if self.bind == "127.0.0.1":
            return [self.bind]
        from .lan import lan_addresses  # zeroconf's helpers: only for a host on the network

        return lan_addresses()

    def _run(self, port: int) -> None:
        try:
            self._loop.run_until_complete(self._serve(port))
        finally:
            self._loop.close()

    async def _serve(self, port: int) -> None:
        host = Host(self.config)
        self._stop = asyncio.Event()
        try:
            try:
                self.port = await host.start(self.bind, port)
            except OSError:
                self.port = await host.start(self.bind, 0) if port else 0  # the usual port is taken
        except OSError as exc:
            self.failed = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await host.stop()

    def stop(self) -> None:
        """End every table and the server (bounded)."""
        if self._stop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(CLOSE_S + 2)


def host_here(
    config: HostConfig,
    name: str,
    players: int,
    friends: int,
    password: str | None,
    lan: bool,
    coach: Callable[[], Worker],
) -> RemoteTable:
    """A table hosted by this window (on the local network, or this computer only) for
    ``friends`` players besides ``name``, bots in the other seats, and ``name``'s seat at it as
    its owner (the table is dealt when that player starts it). :class:`OSError`: it cannot be hosted."""
    owner = secrets.token_urlsafe(18)
    config = replace(
        config, players=players, humans=1 + friends, password=password, prefix=table_prefix(), owner_token=owner
    )
    hosting = LocalHost(config, "0.0.0.0" if lan else "127.0.0.1")
    options = JoinOptions(f"127.0.0.1:{hosting.port}", name, config.first_table, password, owner)
    return RemoteTable(options, coach, hosting)
