"""Plain JSON for every value that crosses the table's port, and back.

What a window, a lesson or a network seat is given (a :class:`~.state.TableState`, an
:class:`~.runner.Update`, an :class:`~.flow.Ask`) and what it sends (an action, a command)
turn into JSON and back through one pair of functions, so a socket only has to carry
them. Cards and actions are written in the deal record's notation (``docs/deal-record.md``):
``"KS"``, ``{"seat": 1, "action": "buy 8S 4S"}``; a game by its name (``"vingel 6"``); a
suit by its letter, another enum by its name (a seat, an ``IntEnum``, by its number); a
dataclass as an object of its fields tagged with its type (``"type": "CardPlayed"``), so a
union (an event) decodes to the right class. A mapping whose keys
are not strings is a list of ``[key, value]`` pairs.

>>> from vira_desktop.rules.cards import Card
>>> to_json((Card.parse("KS"), None))
['KS', None]
>>> from_json(['KS', None], tuple[Card, None])
(Card('KS'), None)
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum, IntEnum
from functools import cache
from typing import Any, Union

from ..rules.actions import Action, parse_action
from ..rules.cards import Card, Suit
from ..rules.games import Game, game

__all__ = ["WireError", "dumps", "from_json", "loads", "to_json"]

JSON = None | bool | int | float | str | list[Any] | dict[str, Any]
ACTIONS: frozenset[type] = frozenset(typing.get_args(Action))


class WireError(ValueError):
    """JSON that is not the value asked for: one message saying where and what."""


def to_json(value: object) -> JSON:
    """``value`` as plain JSON (see the module)."""
    cls = type(value)
    write = _WRITERS.get(cls)
    if write is None:
        write = _WRITERS[cls] = _writer(cls)
    return write(value)


_WRITERS: dict[type, Callable[[Any], JSON]] = {}


def _writer(cls: type) -> Callable[[Any], JSON]:
    """How a value of class ``cls`` is written, worked out once a class (a host writes every
    state it sends: looking each field up again each time was most of its time a move)."""
    if cls is type(None) or issubclass(cls, bool | str):
        return _same
    if issubclass(cls, Card):
        return str
    if issubclass(cls, IntEnum) and not issubclass(cls, Suit):
        return int  # a seat held where an int is declared reads back as the same int
    if issubclass(cls, Enum | Game):
        return _name
    if issubclass(cls, int | float):
        return _same
    if cls in ACTIONS:
        return _action_json
    if issubclass(cls, type):
        return _class_name
    if dataclasses.is_dataclass(cls):
        return _dataclass_writer(cls.__name__, tuple(f.name for f in dataclasses.fields(cls)))
    if issubclass(cls, Mapping):
        return _mapping_json
    if issubclass(cls, frozenset | set):
        return _set_json
    if issubclass(cls, list | tuple):
        return _list_json
    return _refused


def _same(value: Any) -> JSON:
    return value  # type: ignore[no-any-return]


def _name(value: Any) -> JSON:
    return value.name  # type: ignore[no-any-return]


def _class_name(value: Any) -> JSON:
    return value.__name__  # type: ignore[no-any-return]


def _action_json(value: Any) -> JSON:
    return {"seat": int(value.seat), "action": value.text}


def _dataclass_writer(tag: str, names: tuple[str, ...]) -> Callable[[Any], JSON]:
    def write(value: Any) -> JSON:
        out: dict[str, Any] = {"type": tag}
        for name in names:
            out[name] = to_json(getattr(value, name))
        return out

    return write


def _mapping_json(value: Any) -> JSON:
    if all(isinstance(k, str) and not isinstance(k, Enum) for k in value):
        return {k: to_json(v) for k, v in value.items()}
    return [[to_json(k), to_json(v)] for k, v in value.items()]


def _set_json(value: Any) -> JSON:
    return sorted((to_json(v) for v in value), key=json.dumps)


def _list_json(value: Any) -> JSON:
    return [to_json(v) for v in value]


def _refused(value: Any) -> JSON:
    raise WireError(f"cannot be sent: {type(value).__name__}")


def from_json(data: Any, kind: Any, where: str = "value") -> Any:
    """The value of type ``kind`` that :func:`to_json` wrote as ``data``; anything else is a
    :class:`WireError` naming where in ``data`` it went wrong (never another exception: the
    data may come from a network peer)."""
    try:
        return _read(data, kind, where)
    except WireError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        raise WireError(f"{where}: {type(exc).__name__}: {exc}") from None


def _read(data: Any, kind: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Any or kind is object:
        return data
    if kind is None or kind is type(None):
        if data is not None:
            raise WireError(f"{where}: expected null")
        return None
    if origin is Union or origin is types.UnionType:
        return _union(data, args, where)
    if origin is type:
        return _class(data, args, where)
    if origin in (tuple, list, frozenset, set):
        return _sequence(data, origin, args, where)
    if origin in (dict, Mapping) or kind is dict:
        return _mapping(data, args, where)
    if isinstance(kind, type):
        return _plain(data, kind, where)
    raise WireError(f"{where}: no way to read {kind!r}")


def dumps(value: object) -> str:
    """``value`` as a JSON text (compact; what a socket carries)."""
    return json.dumps(to_json(value), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes, kind: Any) -> Any:
    """The value of type ``kind`` in a JSON text."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise WireError(f"not JSON: {exc}") from None
    return from_json(data, kind)


# ---------------------------------------------------------------------- reading
def _union(data: Any, args: tuple[Any, ...], where: str) -> Any:
    if data is None and type(None) in args:
        return None
    options = [a for a in args if a is not type(None)]
    if isinstance(data, dict) and "type" in data:
        named = {a.__name__: a for a in options if isinstance(a, type)}
        for a in options:
            named.update(_dataclasses(a))
        cls = named.get(str(data["type"]))
        if cls is None:
            raise WireError(f"{where}: {data['type']!r} is none of {sorted(named)}")
        return _plain(data, cls, where)
    if isinstance(data, dict) and "action" in data and any(a in ACTIONS for a in options):
        return _action(data, where)
    for a in sorted(options, key=lambda a: a is str):  # an enum's name before a plain string
        try:
            return _read(data, a, where)
        except (WireError, ValueError, TypeError, KeyError):
            continue
    raise WireError(f"{where}: {data!r} is none of {[getattr(a, '__name__', a) for a in options]}")


def _class(data: Any, args: tuple[Any, ...], where: str) -> type:
    options = typing.get_args(args[0]) or args
    for a in options:
        if isinstance(a, type) and a.__name__ == data:
            return a
    raise WireError(f"{where}: {data!r} is not one of the kinds allowed")


def _sequence(data: Any, origin: Any, args: tuple[Any, ...], where: str) -> Any:
    if not isinstance(data, list):
        raise WireError(f"{where}: expected a list")
    if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
        if len(args) != len(data):
            raise WireError(f"{where}: expected {len(args)} items, not {len(data)}")
        return tuple(_read(d, a, f"{where}[{i}]") for i, (d, a) in enumerate(zip(data, args, strict=True)))
    item = args[0] if args else Any
    values = [_read(d, item, f"{where}[{i}]") for i, d in enumerate(data)]
    return origin(values) if origin is not list else values


def _mapping(data: Any, args: tuple[Any, ...], where: str) -> dict[Any, Any]:
    key, value = args if args else (Any, Any)
    pairs = data.items() if isinstance(data, dict) else data
    if not isinstance(pairs, list) and not isinstance(data, dict):
        raise WireError(f"{where}: expected an object or a list of pairs")
    out = {}
    for pair in pairs:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise WireError(f"{where}: a pair is [key, value]")
        k, v = pair
        out[_read(k, key, f"{where} key")] = _read(v, value, f"{where}[{k!r}]")
    return out


def _action(data: Any, where: str) -> Action:
    if not isinstance(data, dict):
        raise WireError(f"{where}: an action is {{seat: 0-2, action: text}}")
    seat, text = data.get("seat"), data.get("action")
    if type(seat) is not int or not 0 <= seat <= 2 or not isinstance(text, str):
        raise WireError(f"{where}: an action is {{seat: 0-2, action: text}}")
    try:
        return parse_action(text, seat)
    except ValueError as exc:
        raise WireError(f"{where}: {exc}") from None


def _plain(data: Any, kind: type, where: str) -> Any:
    if kind in ACTIONS:
        action = _action(data, where)
        if not isinstance(action, kind):
            raise WireError(f"{where}: expected {kind.__name__}")
        return action
    if issubclass(kind, Card):
        if not isinstance(data, str):
            raise WireError(f"{where}: a card is written as text, such as 'KS'")
        try:
            return Card.parse(data)
        except (ValueError, TypeError) as exc:
            raise WireError(f"{where}: {exc}") from None
    if issubclass(kind, Enum) and isinstance(data, bool):
        raise WireError(f"{where}: {data!r} is not one of {kind.__name__}")
    if issubclass(kind, IntEnum) and type(data) is int:
        try:
            return kind(data)
        except ValueError:
            raise WireError(f"{where}: {data!r} is not one of {kind.__name__}") from None
    if issubclass(kind, Enum):
        if isinstance(data, str) and data in kind.__members__:
            return kind[data]
        try:
            return kind(data)  # a StrEnum is its string
        except ValueError:
            raise WireError(f"{where}: {data!r} is not one of {kind.__name__}") from None
    if kind is Game:
        try:
            return game(str(data))
        except (ValueError, KeyError) as exc:
            raise WireError(f"{where}: {exc}") from None
    if dataclasses.is_dataclass(kind):
        return _dataclass(data, kind, where)
    if kind is bool:
        if type(data) is not bool:
            raise WireError(f"{where}: expected true or false")
        return data
    if kind is float and type(data) is int:  # a peer may write 0 for 0.0
        return float(data)
    if kind in (int, float, str):
        if not isinstance(data, kind) or isinstance(data, bool):
            raise WireError(f"{where}: expected {kind.__name__}")
        return data
    if kind in (dict, list, tuple):
        return _read(data, kind[Any] if kind is not dict else dict[Any, Any], where)
    raise WireError(f"{where}: no way to read {kind.__name__}")


def _dataclass(data: Any, kind: type, where: str) -> Any:
    if not isinstance(data, dict):
        raise WireError(f"{where}: expected a {kind.__name__} object")
    if data.get("type", kind.__name__) != kind.__name__:
        raise WireError(f"{where}: expected {kind.__name__}, not {data.get('type')!r}")
    hints = _hints(kind)
    values = {}
    for f in dataclasses.fields(kind):
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise WireError(f"{where}: {kind.__name__} without {f.name}")
            continue
        values[f.name] = _read(data[f.name], hints[f.name], f"{where}.{f.name}")
    return kind(**values)


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


@cache
def _dataclasses(kind: Any) -> dict[str, type]:
    """Every dataclass ``kind`` is or holds a union of, by name (for a tagged union member)."""
    args = typing.get_args(kind)
    out: dict[str, type] = {}
    if args:
        for a in args:
            out.update(_dataclasses(a))
    elif isinstance(kind, type) and dataclasses.is_dataclass(kind):
        out[kind.__name__] = kind
    return out
