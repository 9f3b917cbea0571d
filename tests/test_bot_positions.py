"""Bot regression positions: the ``normal`` bot must find the sensible action in clear spots.

Every file in ``tests/positions/`` is an ordinary deal record whose ``actions``
stop where a seat must decide (a *position*, docs/deal-record.md). Two extra
top-level keys, ignored by the record reader, say what is checked:

``principle``
    the whist/Vira principle the position tests (one line).
``expect``
    a mapping; every key present must hold for the bot's action:

    - ``seat``: who is asked (default: the player to act; used for the declarer's
      optional four-aces offer);
    - ``action``: the exact action, in record notation (``"2H"``, ``"pass"``,
      ``"trump S"``, ``"buy 2C 3D"``);
    - ``any_of`` / ``none_of``: actions (record notation) it must / must not be;
    - ``kind``: ``pass``, ``bid``, ``play``, ``buy``, ``keep``, ``discard``,
      ``set aside``, ``trump``, ``high/low``, ``decide``, ``aces``;
    - ``suit`` / ``not_suit``: the suit of the card played;
    - ``below``: a card; the card played is of its suit and ranks below it;
    - ``cards_include`` / ``cards_exclude``: cards that must / must not be in a
      card-set action (buy, keep, discard, set aside);
    - ``cards_exclude_suits``: suits none of those cards may have;
    - ``cards_max_rank``: a rank letter; every card of the set ranks at most this;
    - ``min_cards``: the set holds at least this many cards;
    - ``bid_at_least`` / ``bid_at_most``: a game name; the action is a bid of a
      game ranked at least / at most that one in the bid table.

The bot is asked with several seeds: in these positions the answer must not
depend on the seed. The reason string must never be empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from vira_desktop.ai import NormalBot
from vira_desktop.rules.actions import (
    Action,
    AnnounceAces,
    Bid,
    Buy,
    ChooseTrump,
    Decide,
    Discard,
    HighLow,
    Keep,
    Pass,
    PlayCard,
    Repurchase,
    SetAside,
    parse_action,
)
from vira_desktop.rules.cards import Card, Rank, Suit, parse_cards
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.games import game
from vira_desktop.session.record import read_record, replay

POSITIONS_DIR = Path(__file__).parent / "positions"
FILES = sorted(POSITIONS_DIR.glob("*.yaml"))
SEEDS = (0, 1, 7, 42, 2024)

KINDS: dict[str, type[Any]] = {
    "pass": Pass,
    "bid": Bid,
    "play": PlayCard,
    "buy": Buy,
    "repurchase": Repurchase,
    "keep": Keep,
    "discard": Discard,
    "set aside": SetAside,
    "trump": ChooseTrump,
    "high/low": HighLow,
    "decide": Decide,
    "aces": AnnounceAces,
}
EXPECT_KEYS = {
    "seat",
    "action",
    "any_of",
    "none_of",
    "kind",
    "suit",
    "not_suit",
    "below",
    "cards_include",
    "cards_exclude",
    "cards_exclude_suits",
    "cards_max_rank",
    "min_cards",
    "bid_at_least",
    "bid_at_most",
}


@dataclass(frozen=True)
class Position:
    name: str
    principle: str
    expect: dict[str, Any]
    deal: Deal
    seat: int


def load_position(path: Path) -> Position:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name}: not a YAML mapping"
    principle = data.get("principle")
    expect = data.get("expect")
    assert isinstance(principle, str) and principle.strip(), f"{path.name}: no principle"
    assert isinstance(expect, dict) and expect, f"{path.name}: no expect mapping"
    unknown = set(expect) - EXPECT_KEYS
    assert not unknown, f"{path.name}: unknown expect keys {sorted(unknown)}"
    record = read_record({k: v for k, v in data.items() if k not in ("principle", "expect")})  # a record and two keys
    deal = replay(record)
    assert not deal.is_over, f"{path.name}: the deal is over, not a position"
    seat = record.names.index(str(expect["seat"])) if "seat" in expect else deal.to_act
    return Position(path.stem, principle, expect, deal, seat)


def _texts(value: Any) -> list[str]:
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def _card_set(action: Action | None) -> tuple[Card, ...] | None:
    if isinstance(action, Buy | Repurchase | Keep | Discard | SetAside):
        return action.cards
    return None


def _text(action: Action | None) -> str:
    return "nothing" if action is None else action.text


def failures(expect: dict[str, Any], action: Action | None, seat: int, deal: Deal | None = None) -> list[str]:
    """What in ``expect`` the action breaks (empty: it meets the expectation). A bid
    without a level counts as the game it stands for in ``deal``."""
    out: list[str] = []
    got = _text(action)

    def parsed(text: str) -> Action:
        return parse_action(text, seat)

    if "action" in expect and action != parsed(str(expect["action"])):
        out.append(f"expected {expect['action']}, got {got}")
    if "any_of" in expect and action not in [parsed(t) for t in _texts(expect["any_of"])]:
        out.append(f"expected one of {_texts(expect['any_of'])}, got {got}")
    if "none_of" in expect and action in [parsed(t) for t in _texts(expect["none_of"])]:
        out.append(f"expected none of {_texts(expect['none_of'])}, got {got}")
    if "kind" in expect and not isinstance(action, KINDS[str(expect["kind"])]):
        out.append(f"expected a {expect['kind']} action, got {got}")
    card = action.card if isinstance(action, PlayCard) else None
    if "suit" in expect and (card is None or card.suit is not Suit.parse(str(expect["suit"]))):
        out.append(f"expected a card in suit {expect['suit']}, got {got}")
    if "not_suit" in expect and (card is None or card.suit is Suit.parse(str(expect["not_suit"]))):
        out.append(f"expected a card not in suit {expect['not_suit']}, got {got}")
    if "below" in expect:
        ref = Card.parse(str(expect["below"]))
        if card is None or card.suit is not ref.suit or card.rank >= ref.rank:
            out.append(f"expected a card below {ref}, got {got}")
    cards = _card_set(action)
    set_keys = ("cards_include", "cards_exclude", "cards_exclude_suits", "cards_max_rank", "min_cards")
    if any(k in expect for k in set_keys) and cards is None:
        out.append(f"expected a card-set action, got {got}")
    held = set(cards or ())
    if "cards_include" in expect:
        missing = [c for c in parse_cards(_texts(expect["cards_include"])) if c not in held]
        if missing:
            out.append(f"expected {' '.join(map(str, missing))} among the cards, got {got}")
    if "cards_exclude" in expect:
        wrong = [c for c in parse_cards(_texts(expect["cards_exclude"])) if c in held]
        if wrong:
            out.append(f"expected {' '.join(map(str, wrong))} not among the cards, got {got}")
    if "cards_exclude_suits" in expect:
        suits = {Suit.parse(s) for s in _texts(expect["cards_exclude_suits"])}
        wrong = [c for c in held if c.suit in suits]
        if wrong:
            out.append(f"expected no cards of {' '.join(s.name for s in suits)}, got {got}")
    if "cards_max_rank" in expect:
        top = Rank.parse(str(expect["cards_max_rank"]))
        wrong = [c for c in held if c.rank > top]
        if wrong:
            out.append(f"expected no card above rank {top.letter}, got {got}")
    if "min_cards" in expect and len(held) < int(expect["min_cards"]):
        out.append(f"expected at least {expect['min_cards']} cards, got {got}")
    for key, sign in (("bid_at_least", 1), ("bid_at_most", -1)):
        if key in expect:
            bound = game(str(expect[key])).no
            bid = action.game if isinstance(action, Bid) and action.game is not None else None
            if isinstance(action, Bid) and deal is not None:
                bid = deal.bid_game(action)
            if bid is None or sign * (bid.no - bound) < 0:
                out.append(f"expected a bid {'at least' if sign > 0 else 'at most'} {expect[key]}, got {got}")
    return out


POSITIONS = [load_position(p) for p in FILES]


def test_enough_positions() -> None:
    """The suite holds at least 40 curated positions, each with a distinct name."""
    assert len(POSITIONS) >= 40
    assert len({p.name for p in POSITIONS}) == len(POSITIONS)


@pytest.mark.parametrize("position", POSITIONS, ids=[p.name for p in POSITIONS])
def test_normal_bot_position(position: Position) -> None:
    """The normal bot follows the principle named in the position (id and ``principle``)."""
    view = position.deal.view(position.seat)
    assert view.decision is not None, f"{position.name}: the seat is asked nothing"
    for seed in SEEDS:
        choice = NormalBot(seed).choose(view)
        assert choice.reason.strip(), f"{position.name}: empty reason (seed {seed})"
        if choice.action is not None:
            assert position.deal.is_legal(choice.action), f"{position.name}: illegal {choice.action.text}"
        problems = failures(position.expect, choice.action, position.seat, position.deal)
        assert not problems, (
            f"{position.name} [{position.principle}] seed {seed}: {'; '.join(problems)} (reason: {choice.reason})"
        )


def test_expectations_are_checked() -> None:
    """The checker itself: a wrong action fails, a right one passes."""
    seat = 2
    play_2h = parse_action("2H", seat)
    assert failures({"action": "2H"}, play_2h, seat) == []
    assert failures({"action": "3H"}, play_2h, seat)
    assert failures({"below": "5H"}, play_2h, seat) == []
    assert failures({"below": "2H"}, play_2h, seat)
    assert failures({"suit": "S"}, play_2h, seat)
    buy = parse_action("buy 2C 3D", seat)
    assert failures({"cards_exclude_suits": ["S"], "min_cards": 2, "cards_max_rank": "3"}, buy, seat) == []
    assert failures({"cards_exclude": ["2C"]}, buy, seat)
    assert failures({"bid_at_least": "7-spel"}, parse_action("pass", seat), seat)
    assert failures({"bid_at_most": "gask 0"}, parse_action("begär", seat), seat) == []
