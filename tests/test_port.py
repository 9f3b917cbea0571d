"""The table's port: what a window, a lesson or a network seat is given names no card its seat
may not know, checked on the very JSON it turns into; and every message kind turns into JSON
and back unchanged over whole bot sessions.

Sessions: three and four seats, each player shown in turn (sitting out, a player sees what
everyone sees), the auction forced into every family of game (buying games, turné, vingel,
tringel, gask high and low, gök, köpmisär, solo, the solo misères, vira) or left to the
bots, and the player shown answering at random, so hands are laid down, repurchased, turned
again and set aside.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from vira_desktop.rules.actions import Action
from vira_desktop.rules.cards import Card
from vira_desktop.rules.games import GAMES, Family, Game
from vira_desktop.rules.view import View
from vira_desktop.session.flow import Ask
from vira_desktop.session.match import forced_auction
from vira_desktop.session.runner import Command, Seen, TableRunner, Turn, Update
from vira_desktop.session.table import SeatConfig, Table
from vira_desktop.session.wire import WireError, dumps, from_json, loads, to_json

NAMES = ("Anna", "Bertil", "Cecilia", "David")
CODES = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA])([SHDC])(?![0-9A-Za-z])")  # "KS", as the wire writes a card
SYMBOLS = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")  # "K♠", as the log tells a card
SUIT_OF = dict(zip("♠♥♦♣", "SHDC", strict=True))


def cards_named(text: str) -> set[Card]:
    """Every card a JSON text names, in the wire's notation or the log's."""
    named = {Card.parse(r + s) for r, s in CODES.findall(text)}
    named |= {Card.parse(("T" if r == "10" else r) + SUIT_OF[s]) for r, s in SYMBOLS.findall(text)}
    return named


def seen_in(view: View) -> set[Card]:
    """The cards a view shows its seat."""
    out = set(view.hand) | set(view.own_laid_aside) | set(view.turned) | set(view.stock_turned)
    out |= {c for cards in view.open_hands.values() for c in cards}
    out |= {c for _, c in view.trick} | {c for _, played in view.tricks for _, c in played}
    return out


class Forced:
    """Directs the auction into ``game`` (by forced_auction's bids); the bots play the rest,
    the player shown answers for itself."""

    def __init__(self, table: Table, game: Game | None, rng: random.Random) -> None:
        self.table, self.game, self.rng = table, game, rng
        self.line: list[Action] = []
        self.deal = -1

    def turn(self, ask: Ask, human: bool) -> Turn:
        if self.game is not None and self.table.deal_index != self.deal:
            self.deal = self.table.deal_index
            self.line = forced_auction(self.table.deal, self.game, self.rng)
        if self.game is not None and self.line and len(self.table.deal.history) < len(self.line):
            return Turn.SCRIPT
        return Turn.HUMAN if human else Turn.BOT

    def scripted(self, ask: Ask) -> Action | None:
        return self.line[len(self.table.deal.history)]


def session(
    players: int, seed: int, viewer: str, game: Game | None, deals: int = 2
) -> Iterator[tuple[TableRunner, Update | Seen]]:
    """Every update and every state the port gives the player ``viewer`` over ``deals``
    deals, with the runner as it stands after each."""
    rng = random.Random(seed)
    seats = [SeatConfig(n, n == viewer) for n in NAMES[:players]]
    table = Table(seats, seed=seed)
    runner = TableRunner(table, pause=0, director=Forced(table, game, rng), viewer=viewer)
    yield runner, runner.start()
    for step in range(6000):
        for update in runner.poll(float(step)):
            yield runner, update
        yield runner, runner.seen()
        ask = runner.asked()
        if ask is not None and ask.view.decision is not None:
            d = ask.view.decision
            use_choice = d.choice is not None and (not d.actions or rng.random() < 0.4)
            action = d.choice.random(rng) if use_choice and d.choice is not None else rng.choice(d.actions)
            yield runner, runner.submit(ask.seat, action)
        if runner.master.deal_over:
            if runner.table.deal_index + 1 >= deals or runner.master.session_over:
                return
            yield runner, runner.command(Command.NEXT_DEAL)
    raise AssertionError("the session did not end")


FAMILIES = [next(g for g in GAMES if g.family is f) for f in Family] + [g for g in GAMES if g.name == "gask 1"]
BOTS: Game | None = None  # the bots' own auction
CASES = [(3, seed, BOTS) for seed in (1, 2)] + [(4, seed, BOTS) for seed in (3, 4)]
CASES += [(3 + i % 2, 10 + i, g) for i, g in enumerate(FAMILIES)]


def leaks(players: int, seed: int, game: Game | None) -> Iterator[str]:
    """Each card the port named to a player before that player's view showed it. A log line is
    checked once, when it is first given (the log keeps earlier deals' lines, whose cards were
    known then)."""
    for viewer in NAMES[:players]:
        known: set[Card] = set()
        deal, told = -1, 0
        for runner, message in session(players, seed, viewer, game):
            if runner.table.deal_index != deal:
                deal, known = runner.table.deal_index, set()
            state = runner.state()
            known |= seen_in(state.view)
            if state.spare_bottom is not None:  # the spare deck's bottom card is public
                known.add(state.spare_bottom)
            if isinstance(message, Seen):
                new, told = message.log[told:], len(message.log)
                message = replace(message, log=new)
            text = dumps(message)
            extra = cards_named(text) - known
            if extra:
                who = "sits out" if state.viewer is None else "plays"
                yield f"{viewer} ({who}): {sorted(map(str, extra))} in {text[:300]}"


@pytest.mark.parametrize(("players", "seed", "game"), CASES, ids=lambda x: getattr(x, "name", str(x)))
def test_the_port_names_no_card_a_seat_may_not_know(players: int, seed: int, game: Game | None) -> None:
    found = list(leaks(players, seed, game))
    assert not found, "\n".join(found[:5])


def test_every_message_kind_turns_into_json_and_back_unchanged_over_a_four_seat_session() -> None:
    kinds: dict[str, int] = {}
    for runner, message in session(4, 5, "Bertil", None, deals=3):
        kind = type(message)
        back = loads(dumps(message), kind)
        assert back == message
        kinds[kind.__name__] = kinds.get(kind.__name__, 0) + 1
        ask = runner.asked()
        if ask is not None:
            assert loads(dumps(ask), Ask) == ask
            assert ask.view.decision is not None
            for action in ask.view.decision.actions:
                assert loads(dumps(action), Action) == action
    for command in Command:
        assert loads(dumps(command), Command) is command
    assert kinds["Update"] > 50 and kinds["Seen"] > 50


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"seat": 5, "action": "pass"}', Action),
        ('{"seat": 0, "action": "buy ZZ"}', Action),
        ('"XS"', Card),
        ('"undo again"', Command),
        ("[1, 2", Command),
        ('{"type": "Update", "events": [{"type": "Nothing"}]}', Update),
    ],
)
def test_a_bad_message_is_refused_with_where_it_went_wrong(text: str, kind: object) -> None:
    with pytest.raises(WireError):
        loads(text, kind)


def test_cards_and_actions_are_written_in_the_deal_records_notation() -> None:
    from vira_desktop.rules.actions import parse_action

    assert to_json(parse_action("buy 8S 4S", 1)) == {"seat": 1, "action": "buy 8S 4S"}
    assert json.loads(dumps(Card.parse("TD"))) == "TD"
    assert from_json({"seat": 2, "action": "7-spel in suit"}, Action) == parse_action("7-spel in suit", 2)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("5", Card),
        ('"pass"', Action),
        ("[" * 100_000, Command),
        ('{"type": "Ask", "seat": true, "view": 1, "optional": false}', Ask),
        ('[[[1], 2]]', dict[object, int]),
    ],
)
def test_no_message_a_peer_can_send_raises_anything_but_a_wire_error(text: str, kind: object) -> None:
    """What a review sent: a number for a card, a word for an action, JSON nested 100,000 deep,
    true for a seat, a list for a key. Each is refused with a WireError, never a crash."""
    with pytest.raises(WireError):
        loads(text, kind)


def test_a_whole_number_reads_as_a_float() -> None:
    """A peer in another language may write 1 where Python writes 1.0."""
    assert from_json(1, float) == 1.0 and type(from_json(1, float)) is float
