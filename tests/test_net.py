"""Network play on loopback: a whole session of bot clients at a host, its deal records read
back and replayed, no card named to a seat that may not know it in any byte a client
received; and the clients that break the protocol, each refused or dropped with a reason
while the others play on; a seat taken back with its token after a drop.

Every host here binds 127.0.0.1 and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.hosts import free_port, start_host, stop
from tests.test_port import FAMILIES, Forced, cards_named, seen_in
from vira_desktop.ai import make_bot
from vira_desktop.cli import main
from vira_desktop.net.client import JoinOptions, Player
from vira_desktop.net.host import Host, HostConfig, MasterFactory, net_masters
from vira_desktop.net.protocol import (
    PROTOCOL,
    Bye,
    Error,
    Hello,
    HostMessage,
    State,
    UpdateMessage,
    Welcome,
    encode,
    read_host,
)
from vira_desktop.rules.cards import Card
from vira_desktop.rules.games import Game
from vira_desktop.session.port import Seen
from vira_desktop.session.record import check_result, load_record, record_actions, replay
from vira_desktop.session.wire import to_json

T = TypeVar("T")
NAMES = ("Anna", "Bertil", "Cecilia", "David")


def run(test: Callable[[], Coroutine[Any, Any, T]], seconds: float = 30.0) -> T:
    """Run an async test, however it goes, for at most ``seconds``."""

    async def bounded() -> T:
        return await asyncio.wait_for(test(), seconds)

    return asyncio.run(bounded())


def config(**changes: Any) -> HostConfig:
    """A host for a test: no pauses, bots thinking in a thread (a pool of processes is tried too)."""
    base: dict[str, Any] = {
        "deal_pause": 0.0,
        "bot_pause": 0.0,
        "seed": 7,
        "once": True,
        "bot_processes": 0,
        "hello_timeout": 2.0,
    }
    return HostConfig(**{**base, **changes})


def bot_player(port: int, name: str, dump: io.StringIO | None = None) -> Player:
    return Player(JoinOptions(f"127.0.0.1:{port}", name=name, bot="normal", dump=dump, say=lambda _: None))


class Raw:
    """A client driven by the test, message by message."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: Seen | None = None
        self.welcome: Welcome | None = None

    @classmethod
    async def open(cls, port: int, path: str = "") -> Raw:
        return cls(await connect(f"ws://127.0.0.1:{port}/{path}", open_timeout=5, max_size=2**21))

    @classmethod
    async def seated(cls, port: int, name: str, token: str | None = None, password: str | None = None) -> Raw:
        raw = await cls.open(port)
        await raw.send(Hello(PROTOCOL, name, "", password, token))
        await raw.until(lambda m: isinstance(m, Welcome | Error))
        return raw

    async def send(self, message: Hello | Any) -> None:
        await self.ws.send(message if isinstance(message, str) else encode(message))

    async def next(self, timeout: float = 10.0) -> HostMessage:
        message = read_host(await asyncio.wait_for(self.ws.recv(), timeout))
        if isinstance(message, State):
            self.seen = message.seen
        if isinstance(message, Welcome):
            self.welcome = message
        if isinstance(message, Error) and message.fatal:
            self.refused = message
        return message

    async def until(self, wanted: Callable[[HostMessage], bool], timeout: float = 10.0) -> HostMessage:
        while not wanted(message := await self.next(timeout)):
            pass
        return message

    async def my_turn(self) -> Seen:
        await self.until(lambda m: isinstance(m, State) and m.seen.ask is not None)
        assert self.seen is not None
        return self.seen

    async def refusal(self) -> str:
        """The reason of the next error, past the states and updates."""
        message = await self.until(lambda m: isinstance(m, Error))
        assert isinstance(message, Error)
        return message.reason

    async def answer(self, seen: Seen) -> None:
        """What a normal bot would answer in ``seen`` (at its version)."""
        assert seen.ask is not None
        action = make_bot("normal", 3).choose(seen.ask.view).action
        wire = to_json(action) if action is not None else {"action": None}
        assert isinstance(wire, dict)
        await self.ws.send(json.dumps({"type": "submit", **wire, "version": seen.version}))

    async def autoplay(self, go: asyncio.Event) -> bool:
        """Answer each question with a bot, only while ``go`` is set, until the host's bye."""
        while True:
            message = await self.until(
                lambda m: isinstance(m, Bye) or (isinstance(m, State) and m.seen.ask is not None)
            )
            if isinstance(message, Bye):
                return True
            await go.wait()  # (an answer to a state gone by then is refused as stale: the next is answered)
            assert self.seen is not None
            await self.answer(self.seen)

    async def play_out(self, first: HostMessage | None = None) -> HostMessage | None:
        """Answer each question with a bot until the host's bye (``first``: a state already
        received, whose question may stand); the host's reply to the first answer."""
        reply: HostMessage | None = None
        message = first
        while True:
            if not (isinstance(message, State) and message.seen.ask is not None):
                message = await self.until(
                    lambda m: isinstance(m, Bye) or (isinstance(m, State) and m.seen.ask is not None)
                )
            if isinstance(message, Bye):
                return reply
            assert self.seen is not None
            await self.answer(self.seen)
            message = None
            if reply is None:
                reply = await self.until(lambda m: isinstance(m, UpdateMessage | Error))

    async def close_code(self, timeout: float = 10.0) -> tuple[int | None, str]:
        """How the host ended the connection (its messages before it read)."""
        try:
            while True:
                await self.next(timeout)
        except ConnectionClosed as exc:
            return (exc.rcvd.code, exc.rcvd.reason) if exc.rcvd else (None, "")


# ---------------------------------------------------------------------- the whole session
def knowledge(path: Path, name: str, spare_bottom: Card) -> list[set[Card]]:
    """What ``name`` may know after each number of actions of the deal recorded at ``path``:
    everything its view showed so far (a player sitting out: the public view), and the spare
    deck's bottom card (public; a record keeps only its suit). The record must replay, and its
    result agree."""
    record = load_record(path)
    deal = replay(record, 0)
    assert spare_bottom.suit == deal.highest
    seat = record.names.index(name) if name in record.names else None
    known = {spare_bottom}
    out = []
    for action in [None, *record_actions(record)]:
        if action is not None:
            deal.apply(action)
        known = known | seen_in(deal.view(seat) if seat is not None else deal.public_view())
        out.append(known)
    assert deal.is_over and check_result(record, deal) is None
    return out


def new_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines of a rolling log ``after`` that were not in ``before``."""
    for k in range(len(before) + 1):
        if before[k:] == after[: len(before) - k]:
            return after[len(before) - k :]
    return after


def leaks(dump: str, name: str, known: list[list[set[Card]]]) -> list[str]:
    """Every card a message named to ``name`` before that seat could know it: a message is
    held to what the seat knew at the state it came with (an update to the state after it)."""
    messages = [json.loads(line) for line in dump.splitlines()]
    at: list[tuple[int, int] | None] = []
    after: tuple[int, int] | None = None
    for message in reversed(messages):
        if message["type"] == "state":
            table = message["seen"]["table"]
            after = (table["deal_index"], table["history"])
        at.append(after)
    at.reverse()
    found: list[str] = []
    log: list[str] = []
    allowed: set[Card] = set()
    for message, where in zip(messages, at, strict=True):
        if where is not None:
            allowed = known[where[0]][where[1]]
        if message["type"] == "welcome":
            message["token"] = ""  # random letters, which may spell a card
        if message["type"] == "state":
            lines = message["seen"]["log"]
            message["seen"]["log"], log = new_lines(log, lines), lines
        extra = cards_named(json.dumps(message, ensure_ascii=False)) - allowed
        if extra:
            found.append(f"{name}: {sorted(map(str, extra))} in {json.dumps(message)[:300]}")
    return found


def test_a_four_seat_session_of_bot_clients_plays_out_and_no_byte_names_a_card_its_seat_may_not_know(
    tmp_path: Path,
) -> None:
    """Three clients with bots and one host bot; the bots think in a process; two deals."""

    async def session() -> tuple[list[int], dict[str, str]]:
        host = Host(config(players=4, humans=3, deals=2, records=tmp_path, bot_processes=1))
        port = await host.start("127.0.0.1", 0)
        dumps = {name: io.StringIO() for name in NAMES[:3]}
        players = [bot_player(port, name, dumps[name]) for name in NAMES[:3]]
        codes = await asyncio.gather(*(p.run() for p in players))
        await asyncio.wait_for(host.done.wait(), 5)
        await host.stop()
        return codes, {name: d.getvalue() for name, d in dumps.items()}

    codes, dumps = run(session, 50)
    assert codes == [0, 0, 0]
    records = sorted(tmp_path.glob("*.yaml"))
    assert len(records) == 2
    for name, dump in dumps.items():
        states = [m["seen"]["table"] for m in map(json.loads, dump.splitlines()) if m["type"] == "state"]
        spare = {table["deal_index"]: Card.parse(table["spare_bottom"]) for table in states}
        known = [knowledge(path, name, spare[i]) for i, path in enumerate(records)]
        assert not (found := leaks(dump, name, known)), "\n".join(found[:5])
        kinds = [json.loads(line)["type"] for line in dump.splitlines()]
        assert kinds[0] == "welcome" and kinds[-1] == "bye" and "error" not in kinds
        assert kinds.count("state") > 20 and kinds.count("update") > 20


def test_tables_sharing_one_pool_of_bot_processes_each_get_their_own_bots_answers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Four tables of one player and two host bots, the bots of all four thinking in one pool
    of two processes: every table plays its deal out, each answer taken was legal there (no
    answer refused, every record replays), and each deal is the one the same table plays
    with its bots in a thread of the host's own (an answer handed to another table, or a
    random bot whose state moved between processes, would play another deal)."""

    def play(processes: int, folder: Path) -> dict[int, list[str]]:
        async def session() -> list[int]:
            host = Host(config(players=3, humans=1, deals=1, records=folder, bots="random", bot_processes=processes))
            port = await host.start("127.0.0.1", 0)
            assert host.pool is not None and all(
                s.pool.__class__.__name__ == ("ProcessPoolExecutor" if processes else "ThreadPoolExecutor")
                for s in host.pool.slots
            )
            assert len(host.pool.slots) == max(1, processes)
            players = [
                Player(JoinOptions(f"127.0.0.1:{port}", name="Anna", table=f"v-{i}", bot="normal", say=lambda _: None))
                for i in range(1, 5)
            ]
            codes = await asyncio.gather(*(p.run() for p in players))
            await asyncio.wait_for(host.done.wait(), 5)
            assert host.pool.lanes == [0] * len(host.pool.slots)  # every table's lane given back
            await host.stop()
            return codes

        assert run(session, 90) == [0] * 4
        deals = {}
        for path in folder.glob("*.yaml"):
            record = load_record(path)
            deal = replay(record, 0)
            for action in record_actions(record):
                deal.apply(action)
            assert deal.is_over and check_result(record, deal) is None
            deals[int(path.name.split("-")[2])] = [str(a) for a in record_actions(record)]
        assert len(deals) == 4
        return deals

    caplog.set_level("ERROR")
    pooled = play(2, tmp_path / "pool")
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert pooled == play(0, tmp_path / "thread")


# ---------------------------------------------------------------------- clients that break the rules
def test_a_bad_client_is_refused_with_a_reason_at_each_message_while_the_others_play_on() -> None:
    """Malformed JSON, an unknown type, someone else's seat, an action out of turn, an illegal
    action, a hello again; then an answer that is legal is taken, and a message too big ends
    the connection. The seat is held, a bot takes it, and the session ends for the others."""

    async def play() -> tuple[list[str], tuple[int | None, str], list[bool]]:
        host = Host(config(players=3, deals=1, seat_timeout=0.2))
        port = await host.start("127.0.0.1", 0)
        mallory = await Raw.seated(port, "Mallory")
        go = asyncio.Event()  # the others answer only when the test lets them
        others = [await Raw.seated(port, name) for name in NAMES[:2]]
        players = [asyncio.create_task(other.autoplay(go)) for other in others]
        reasons = []
        await mallory.send("{nope")
        reasons.append(await mallory.refusal())
        await mallory.send('{"type": "teleport"}')
        reasons.append(await mallory.refusal())
        await mallory.send(Hello(PROTOCOL, "Mallory", ""))
        reasons.append(await mallory.refusal())
        go.set()
        seen = await mallory.my_turn()
        go.clear()
        await mallory.answer(seen)
        await mallory.until(lambda m: isinstance(m, State) and m.seen.ask is None)
        await mallory.send('{"type": "submit", "action": "pass"}')
        reasons.append(await mallory.refusal())
        go.set()
        seen = await mallory.my_turn()
        mine = seen.table.seats.index("Mallory")
        await mallory.send(json.dumps({"type": "submit", "action": "pass", "seat": (mine + 1) % 3}))
        reasons.append(await mallory.refusal())
        await mallory.send('{"type": "submit", "action": "AS"}')
        reasons.append(await mallory.refusal())
        await mallory.send('{"type": "submit", "action": "7-spel", "version": 0}')
        reasons.append(await mallory.refusal())
        await mallory.answer(seen)
        taken = await mallory.until(lambda m: isinstance(m, UpdateMessage | Error))
        assert isinstance(taken, UpdateMessage), taken
        await mallory.send('{"type": "chat", "text": "' + "x" * 5000 + '"}')
        closed = await mallory.close_code()
        codes = await asyncio.gather(*players)
        await asyncio.wait_for(host.done.wait(), 5)
        await host.stop()
        return reasons, closed, codes

    reasons, closed, codes = run(play)
    assert reasons[0].startswith("not JSON")
    assert "teleport" in reasons[1]
    assert "hello is only the first" in reasons[2]
    assert "turn" in reasons[3]
    assert reasons[4].startswith("not your seat")
    assert reasons[5] and "not JSON" not in reasons[5]  # the rules' own reason
    assert reasons[6].startswith("stale")
    assert closed[0] == 1009  # message too big
    assert codes == [True, True]


@pytest.mark.parametrize(
    ("first", "reason"),
    [
        (None, "no hello"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"type": "hello", "protocol": 99, "name": "Eve", "table": ""}', "version 1, not 99"),
        ('{"type": "hello", "protocol": 1, "name": "\\u0007", "table": ""}', "hello.name"),
        ('{"type": "chat", "text": "hi"}', "first message must be a hello"),
        ('{"type": "hello", "protocol": 1, "name": "Eve", "table": "elsewhere-1"}', "not at this host"),
        ('{"type": "hello", "protocol": 1, "name": "Eve", "token": "abc"}', "no seat"),
        ('{"type": "hello", "protocol": 1, "name": "Eve", "password": "guess"}', "wrong password"),
    ],
)
def test_a_connection_that_does_not_open_with_a_good_hello_is_closed_with_the_reason(
    first: str | None, reason: str
) -> None:
    async def hello() -> tuple[str, int | None]:
        host = Host(config(hello_timeout=0.3, password="secret" if "password" in (first or "") else None))
        port = await host.start("127.0.0.1", 0)
        raw = await Raw.open(port)
        if first is not None:
            await raw.send(first)
        code, _ = await raw.close_code(5)
        await host.stop()
        return raw.refused.reason, code

    said, code = run(hello, 10)
    assert reason in said and code == 1008


def test_a_flood_is_dropped_and_the_other_table_at_the_same_host_is_untouched() -> None:
    async def flood() -> tuple[str, int | None, Any]:
        host = Host(config(humans=2, players=3))
        port = await host.start("127.0.0.1", 0)
        calm = await Raw.seated(port, "Anna")
        flooder = await Raw.open(port, "v-flood")
        await flooder.send(Hello(PROTOCOL, "Eve", "v-flood"))
        for _ in range(200):
            await flooder.send('{"type": "chat", "text": "spam"}')
        code, _ = await flooder.close_code(5)
        for _ in range(1000):  # (bounded: 10 s) the flooder's table, left empty, closes (its task ends)
            if "v-flood" not in host.tables:
                break
            await asyncio.sleep(0.01)
        await calm.send('{"type": "chat", "text": "still here"}')
        heard = await calm.until(lambda m: m.TYPE == "chat")
        tables = sorted(host.tables)
        await host.stop()
        return flooder.refused.reason, code, (heard, tables)

    reason, code, (heard, tables) = run(flood, 30)
    assert reason == "too many messages" and code == 1008
    assert heard.text == "still here" and tables == ["v-1"]  # the flooder's table, left empty, is closed


def test_the_host_refuses_a_connection_over_its_cap_and_a_path_that_names_no_table() -> None:
    async def capped() -> list[int]:
        host = Host(config(max_connections=1))
        port = await host.start("127.0.0.1", 0)
        first = await Raw.open(port)
        statuses = []
        for path in ("", "nope"):
            try:
                await Raw.open(port, path)
            except InvalidStatus as exc:
                statuses.append(exc.response.status_code)
        await first.ws.close()
        await host.stop()
        return statuses

    assert run(capped, 10) == [503, 503]


def test_a_path_that_names_no_table_is_not_found() -> None:
    async def lost() -> int:
        host = Host(config())
        port = await host.start("127.0.0.1", 0)
        try:
            await Raw.open(port, "Not%20a%20code")
        except InvalidStatus as exc:
            return exc.response.status_code
        finally:
            await host.stop()
        return 0

    assert run(lost, 10) == 404


# ---------------------------------------------------------------------- dropped and back
def test_a_seat_is_held_after_a_drop_and_taken_back_with_its_token_where_it_stood() -> None:
    """Cecilia answers a few questions, a second connection with her token is refused, her
    connection dies mid-deal; she comes back with the token, is given her seat's whole state,
    and her next answer is taken."""

    async def drop() -> tuple[str, Seen, Seen, Any, list[int]]:
        host = Host(config(players=3, deals=1, seat_timeout=30.0))
        port = await host.start("127.0.0.1", 0)
        cecilia = await Raw.seated(port, "Cecilia")
        assert cecilia.welcome is not None
        token = cecilia.welcome.token
        players = [asyncio.create_task(bot_player(port, name).run()) for name in NAMES[:2]]
        for _ in range(2):
            seen = await cecilia.my_turn()
            await cecilia.answer(seen)
        second = await Raw.seated(port, "Cecilia", token)
        in_use = second.refused.reason
        before = await cecilia.my_turn()  # her question stands when she drops
        cecilia.ws.transport.abort()  # no close frame: the connection just dies
        await asyncio.sleep(0.2)
        back = await Raw.seated(port, "Cecilia", token)
        state = await back.until(lambda m: isinstance(m, State))
        assert isinstance(state, State)
        taken = await back.play_out(state)  # her question stands: answered first, then the deal played out
        codes = await asyncio.gather(*players)
        await host.stop()
        return in_use, before, state.seen, taken, codes

    in_use, before, after, taken, codes = run(drop)
    assert in_use == "that seat is in use by another connection"
    assert after.table.view.hand == before.table.view.hand and after.ask == before.ask
    assert after.log and after.table.viewer_name == "Cecilia"
    assert isinstance(taken, UpdateMessage) and taken.update.events
    assert codes == [0, 0]


# ---------------------------------------------------------------------- the commands
def test_vira_host_and_vira_join_play_a_session_from_the_command_line(tmp_path: Path) -> None:
    """``vira host --once`` in a process of its own, ``vira join --bot`` here: the client exits
    0 when the host ends the session, and so does the host."""
    port = free_port()
    args = ["--players", "3", "--humans", "1", "--deals", "1", "--once", "--no-save"]
    args += ["--deal-pause", "0", "--bot-pause", "0", "--records", str(tmp_path / "records"), "--seed", "3"]
    host = start_host(args, port, tmp_path / "host.log")
    try:
        dump = tmp_path / "Anna.jsonl"
        code = main(["join", f"127.0.0.1:{port}", "--name", "Anna", "--bot", "normal", "--dump", str(dump)])
        assert host.wait(20) == 0
    finally:
        stop(host)
    log = (tmp_path / "host.log").read_text(encoding="utf-8")
    assert code == 0
    kinds = [json.loads(line)["type"] for line in dump.read_text(encoding="utf-8").splitlines()]
    assert kinds[0] == "welcome" and kinds[-1] == "bye"
    assert len(list((tmp_path / "records").glob("*.yaml"))) == 1
    assert "Anna joined" in log and "deal 1 over" in log and "ended (the session is over)" in log


def forced(game: Game, seed: int) -> MasterFactory:
    """Masters whose auctions are forced into ``game`` (the clients' bots play the rest)."""
    return net_masters(lambda table: Forced(table, game, random.Random(seed)))


FORCED = [(3 + i % 2, 40 + i, g) for i, g in enumerate(FAMILIES)]


@pytest.mark.parametrize(("players", "seed", "game"), FORCED, ids=lambda x: getattr(x, "name", str(x)))
def test_no_byte_names_a_card_its_seat_may_not_know_in_a_contract_of_every_family(
    tmp_path: Path, players: int, seed: int, game: Game
) -> None:
    """Every family of contract forced at a table of bot clients (laid-down hands, repurchases,
    misère set-asides among them), every byte each client receives checked."""

    async def session() -> dict[str, str]:
        host = Host(config(players=players, humans=players, deals=1, records=tmp_path, seed=seed), forced(game, seed))
        port = await host.start("127.0.0.1", 0)
        dumps = {name: io.StringIO() for name in NAMES[:players]}
        clients = [
            Player(JoinOptions(f"127.0.0.1:{port}", name=n, bot="random", dump=dumps[n], say=lambda _: None))
            for n in NAMES[:players]
        ]
        codes = await asyncio.gather(*(c.run() for c in clients))
        await host.stop()
        assert codes == [0] * players
        return {name: d.getvalue() for name, d in dumps.items()}

    dumps = run(session, 40)
    (record,) = sorted(tmp_path.glob("*.yaml"))
    for name, dump in dumps.items():
        states = [m["seen"]["table"] for m in map(json.loads, dump.splitlines()) if m["type"] == "state"]
        known = [knowledge(record, name, Card.parse(states[0]["spare_bottom"]))]
        assert not (found := leaks(dump, name, known)), "\n".join(found[:5])
