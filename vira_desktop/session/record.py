"""Deal records, version 1: read, replay, write (the format of ``docs/deal-record.md``).

A record is YAML holding one deal: the seats, the cards as dealt, the stock
(top first) and every action. Reading checks everything and applies nothing
partly: any fault raises :class:`RecordError` with one message naming the
action's position, player, text and the reason.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..rules.actions import Action, parse_action
from ..rules.cards import Card, Suit
from ..rules.deal import SEAT_NAMES, Deal
from ..rules.errors import RecordError
from ..rules.houserules import HouseRules
from ..rules.scoring import DealResult
from .describe import is_you

__all__ = [
    "Record",
    "check_result",
    "dump_record",
    "good_part",
    "load_record",
    "read_record",
    "record_actions",
    "record_of",
    "replay",
    "result_block",
    "summary",
]

REQUIRED = ("vira", "players", "forehand", "highest_suit", "hands", "stock", "actions")
FIELDS = (*REQUIRED[:2], "sitting_out", *REQUIRED[2:6], "house_rules", "actions", "result")


class RecordLoader(yaml.SafeLoader):
    """YAML as a record means it: only ``true``/``false`` are booleans (YAML 1.2), so an
    unquoted ``no``, ``yes``, ``on`` or ``off`` stays the word that was written."""


RecordLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
RecordLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def parse_yaml(text: str) -> Any:
    """Load record text; anything YAML cannot give back as data is one :class:`RecordError`."""
    try:
        return yaml.load(text, Loader=RecordLoader)  # a SafeLoader with fewer booleans
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        raise RecordError(f"not valid YAML{line}") from None
    except RecursionError:
        raise RecordError("not a deal record: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise RecordError(f"not a deal record: {str(exc).split(':')[0].lower()}") from None


@dataclass
class Record:
    """A parsed record: seat names from forehand, the deal as dealt, and the actions."""

    names: tuple[str, str, str]  # forehand, middle-hand, rear-hand
    sitting_out: str | None
    deal: Deal  # at its start
    actions: list[tuple[str, str]]  # (player, action text) as written
    result: Mapping[str, Any] | None


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of cards")
    try:
        return [Card.parse(str(v)) for v in value]
    except ValueError as exc:
        raise RecordError(f"{what}: {exc}") from None


def read_record(data: Any, rules: HouseRules | None = None) -> Record:
    """Check a loaded record's fields and build the starting deal."""
    if not isinstance(data, dict):
        raise RecordError("a deal record is a YAML mapping")
    for key in data:
        if key not in FIELDS:
            close = difflib.get_close_matches(str(key), FIELDS, 1)
            hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(FIELDS)}"
            raise RecordError(f"unknown field: {key} ({hint})")
    for key in REQUIRED:
        if key not in data:
            raise RecordError(f"missing field: {key}")
    if type(data["vira"]) is not int or data["vira"] != 1:
        raise RecordError(f"unknown record version: {data['vira']!r} (this program reads version 1)")
    players = data["players"]
    if not isinstance(players, list) or len(players) != 3 or len({str(p) for p in players}) != 3:
        raise RecordError("players must list the three active seats, clockwise")
    players = [str(p) for p in players]
    forehand = str(data["forehand"])
    if forehand not in players:
        raise RecordError(f"forehand {forehand!r} is not one of the players")
    start = players.index(forehand)
    first, second, third = (players * 2)[start : start + 3]  # clockwise from forehand
    names = (first, second, third)
    try:
        highest = Suit.parse(str(data["highest_suit"]))
    except ValueError as exc:
        raise RecordError(f"highest_suit: {exc}") from None
    hands_in = data["hands"]
    if not isinstance(hands_in, dict) or {str(k) for k in hands_in} != set(names):
        raise RecordError("hands must give 13 cards for each of the players")
    hands = [_cards(hands_in[_key(hands_in, n)], f"hand of {n}") for n in names]
    stock = _cards(data["stock"], "stock")
    seen: set[Card] = set()
    for card in [c for h in hands for c in h] + stock:
        if card in seen:
            raise RecordError(f"card dealt twice: {card}")
        seen.add(card)
    for name, hand in zip(names, hands, strict=True):
        if len(hand) != 13:
            raise RecordError(f"hand of {name} has {len(hand)} cards, not 13")
    if len(stock) != 13:
        raise RecordError(f"the stock has {len(stock)} cards, not 13")
    rules = _house_rules(data.get("house_rules"), rules or HouseRules())
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError("actions must be a list of 'player: action' entries")
    pairs: list[tuple[str, str]] = []
    for i, item in enumerate(actions, 1):
        if not isinstance(item, dict) or len(item) != 1:
            raise RecordError(f"action {i}: write one 'player: action' per entry")
        ((who, text),) = item.items()
        pairs.append((str(who), _action_text(text, f"action {i} ({who}: {text})")))
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError(f"result must be a mapping as the program writes it, not {type(result).__name__}")
    sitting_out = data.get("sitting_out")
    if sitting_out is not None and (isinstance(sitting_out, list | dict) or str(sitting_out) in players):
        raise RecordError("sitting_out must name the fourth player, who is not one of the three seats")
    deal = Deal(hands, stock, highest, rules)
    return Record(names, None if sitting_out is None else str(sitting_out), deal, pairs, result)


def _key(mapping: dict[Any, Any], name: str) -> Any:
    return next(k for k in mapping if str(k) == name)


def _action_text(value: Any, where: str) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, dict):
        raise RecordError(f"{where}: not a Vira action")
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _house_rules(value: Any, base: HouseRules) -> HouseRules:
    """The record's house rules (every one that differs from the defaults, pulla rows too)."""
    if value is None:
        return base
    try:
        return HouseRules.from_changes(value)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def _parsed(record: Record, i: int, who: str, text: str) -> Action:
    """Action ``i`` (from 1) of the record, parsed for its player's seat."""
    if who not in record.names:
        raise RecordError(f"action {i} ({who}: {text}): {who} does not play in this deal")
    try:
        return parse_action(text, record.names.index(who))
    except ValueError as exc:
        raise RecordError(f"action {i} ({who}: {text}): {_names_in(str(exc), record.names)}") from None


def record_actions(record: Record) -> list[Action]:
    """The record's actions, each parsed for its player's seat (not yet checked against the deal)."""
    return [_parsed(record, i, who, text) for i, (who, text) in enumerate(record.actions, 1)]


def _apply(record: Record, deal: Deal, i: int, action: Action) -> None:
    who, text = record.actions[i - 1]
    try:
        deal.apply(action)
    except ValueError as exc:
        raise RecordError(f"action {i} ({who}: {text}): {_names_in(str(exc), record.names)}") from None


def replay(record: Record, upto: int | None = None) -> Deal:
    """Apply the record's actions (the first ``upto`` of them, or all); all or nothing."""
    deal = record.deal.clone()
    actions = record_actions(record)
    for i, action in enumerate(actions, 1):
        if upto is not None and i > upto:
            break
        _apply(record, deal, i, action)
    return deal


def good_part(record: Record) -> tuple[Record, RecordError | None]:
    """The record up to its first action that cannot be read or played (with that action's
    error, as ``vira replay`` says it), or the whole record and None."""
    deal = record.deal.clone()
    for i, (who, text) in enumerate(record.actions, 1):
        try:
            _apply(record, deal, i, _parsed(record, i, who, text))
        except RecordError as exc:
            return Record(record.names, record.sitting_out, record.deal, record.actions[: i - 1], None), exc
    return record, None


def _names_in(message: str, names: tuple[str, str, str]) -> str:
    """The engine's seat names in ``message`` replaced by the players' ("forehand's hand":
    "Anna's hand"); the player called "You" takes no "'s": "your hand", "not yours"."""
    for seat, word in enumerate(SEAT_NAMES):
        name = names[seat]
        if is_you(name):
            message = re.sub(rf"{re.escape(word)}'s(?= \w)", "your", message)
            message = message.replace(f"{word}'s", "yours")
        else:
            message = message.replace(f"{word}'s", f"{name}'s")
    return message


def load_record(path: str | Path, rules: HouseRules | None = None) -> Record:
    """Read a record file (YAML)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text (byte {exc.start + 1}); save the record as UTF-8") from None
    return read_record(parse_yaml(text), rules)


def result_block(result: DealResult, names: tuple[str, str, str]) -> dict[str, Any]:
    """The record's ``result`` mapping, keyed by player name."""
    return {
        "declarer": names[result.declarer],
        "game": result.game.name,
        "trump": result.trump.name if result.trump is not None else None,
        "trump_class": result.trump_class,
        "repurchase": result.repurchase,
        "tricks": {n: result.tricks[i] for i, n in enumerate(names)},
        "outcome": result.outcome.value,
        "pulla": {n: result.pulla[i] for i, n in enumerate(names)},
        "pins": {n: result.pins[i] for i, n in enumerate(names)},
    }


def summary(deal: Deal, names: tuple[str, str, str]) -> dict[str, Any]:
    """What ``vira replay`` reports: the result block, or the position reached."""
    if deal.result is None:
        return {"complete": False, "phase": deal.phase.value, "to_act": names[deal.to_act]}
    return {"complete": True, **result_block(deal.result, names)}


def record_of(
    deal: Deal, names: tuple[str, str, str], sitting_out: str | None = None, players: list[str] | None = None
) -> dict[str, Any]:
    """The record of ``deal`` so far (with its result when it is over)."""
    data: dict[str, Any] = {
        "vira": 1,
        "players": players or list(names),
        "forehand": names[0],
    }
    if sitting_out:
        data["sitting_out"] = sitting_out
    data["highest_suit"] = deal.highest.name
    data["hands"] = {n: [str(c) for c in deal.dealt[i]] for i, n in enumerate(names)}
    data["stock"] = [str(c) for c in deal.initial_stock]
    changed = deal.rules.changed()
    if changed:
        data["house_rules"] = changed
    data["actions"] = [{names[a.seat]: a.text} for a in deal.history]
    if deal.result is not None:
        data["result"] = result_block(deal.result, names)
    return data


def _scalar(value: Any) -> str:
    """A scalar as YAML: plain where it is simple words that read back as themselves, else quoted."""
    if isinstance(value, str):
        plain = _PLAIN.fullmatch(value) is not None
        if plain:
            try:
                plain = yaml.safe_load(value) == value
            except yaml.YAMLError:  # pragma: no cover - the pattern admits no YAML syntax
                plain = False
        return value if plain else json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


_PLAIN = re.compile(r"[^\W_][\w.()-]*(?: [\w.()-]+)*")


def dump_record(data: Mapping[str, Any]) -> str:
    """Write a record as readable YAML: card lists on one line, one action a line."""
    lines = []
    for key, value in data.items():
        if key in ("hands", "tricks", "pulla", "pins", "house_rules") or (key == "result" and isinstance(value, dict)):
            lines.append(f"{key}:")
            for sub, inner in value.items():
                if isinstance(inner, dict):
                    pairs = ", ".join(f"{_scalar(k)}: {_scalar(v)}" for k, v in inner.items())
                    lines.append(f"  {sub}: {{{pairs}}}")
                elif isinstance(inner, list):
                    lines.append(f"  {_scalar(sub)}: [{', '.join(inner)}]")
                else:
                    lines.append(f"  {sub}: {'null' if inner is None else _scalar(inner)}")
        elif key == "actions" and not value:
            lines.append("actions: []")
        elif key == "actions":
            lines.append("actions:")
            lines += [f"  - {_scalar(k)}: {_scalar(v)}" for item in value for k, v in item.items()]
        elif isinstance(value, list):
            lines.append(f"{key}: [{', '.join(_scalar(v) for v in value)}]")
        else:
            lines.append(f"{key}: {_scalar(value)}")
    return "\n".join(lines) + "\n"


def check_result(record: Record, deal: Deal) -> str | None:
    """``--check``: how the recorded result differs from the recomputed one, or None."""
    if record.result is None or deal.result is None:
        return None if record.result is None else "the record has a result but the deal is not over"
    computed = result_block(deal.result, record.names)
    for key, want in computed.items():
        got = record.result.get(key)
        if isinstance(want, dict) and isinstance(got, dict):  # names written as numbers read as names
            got = {str(k): v for k, v in got.items()}
        if key in ("trump", "declarer", "game", "trump_class", "outcome") and got is not None:
            got = str(got)
        if got != want:
            return f"result {key}: the record says {got!r}, the replay gives {want!r}"
    return None
