"""The slow thinking of a live table, as plain functions a worker process can run:
a bot's decision and the coach's hint (a finished deal's analysis: :class:`.analysis.Steps`).
Each process keeps its own bots, made from the same (level, seed) as the table's, so their
choices are the ones they would make in the window's own process. Nothing here imports the
window."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from multiprocessing import parent_process
from multiprocessing.connection import wait
from typing import Protocol

from ..ai import Bot, Budget, Choice, make_bot
from ..ai.strong import stop_when
from ..rules.actions import Bid
from ..rules.view import View
from .coach import BidAdvice, Coach, Hint
from .record import Record, replay

__all__ = [
    "DEFAULT_THINK",
    "BotSpec",
    "bot_choice",
    "bot_from",
    "coach_bids",
    "coach_hint",
    "follow_parent",
    "listen",
    "side_of",
    "warm_up",
]

# (level, seed, generation: a new one after an undo or a load, seconds the strong bot thinks)
BotSpec = tuple[str, int, int, float]
DEFAULT_THINK = Budget().seconds or 0.0

MAX_BOTS = 256  # bots kept in one process (a host's pool serves many tables): the least recent go
_bots: OrderedDict[tuple[str, int], tuple[int, Bot]] = OrderedDict()
_coach: Coach | None = None
_hurry: Hurry | None = None  # set: the running search stops early (see Worker.hurry)


class Hurry(Protocol):
    """An event shared with the worker (a process's or a thread's)."""

    def is_set(self) -> bool: ...
    def set(self) -> None: ...
    def clear(self) -> None: ...


def listen(hurry: Hurry) -> None:
    """Searches in this process stop early when ``hurry`` is set."""
    global _hurry
    _hurry = hurry
    stop_when(hurry.is_set)


def bot_from(spec: BotSpec) -> Bot:
    """The bot ``spec`` describes."""
    level, seed, _, seconds = spec
    return make_bot(level, seed, Budget(seconds=seconds) if level == "strong" else None)


def bot_choice(spec: BotSpec, view: View) -> Choice:
    """What the bot of ``spec`` chooses in ``view`` (its state carries on between calls).
    A hurry asked before this job began was for another: it is forgotten."""
    if _hurry is not None:
        _hurry.clear()
    level, seed, generation, _ = spec
    held = _bots.get((level, seed))
    if held is None or held[0] != generation:
        held = (generation, bot_from(spec))
        _bots[(level, seed)] = held
    _bots.move_to_end((level, seed))
    while len(_bots) > MAX_BOTS:
        _bots.popitem(last=False)
    return held[1].choose(view)


def _the_coach() -> Coach:
    global _coach
    if _coach is None:
        _coach = Coach()
    return _coach


def coach_hint(view: View) -> Hint:
    return _the_coach().hint(view)


def coach_bids(view: View) -> dict[Bid, BidAdvice]:
    """The coach's advice on each legal bid of ``view`` (the bid grid's colours)."""
    return dict(_the_coach().bids(view))


def side_of(record: Record, viewer: str) -> tuple[str, ...]:
    """The players on ``viewer``'s side of the record's deal: the declarer alone, or the
    two defenders."""
    deal = replay(record)
    declarer = deal.declarer
    names = record.names
    if declarer is not None and names[declarer] == viewer:
        return (viewer,)
    return tuple(n for i, n in enumerate(names) if i != declarer)


def warm_up() -> bool:
    """Nothing: the first job a worker process runs, so its imports are done before a bot is asked."""
    return True


def follow_parent(hurry: Hurry | None = None) -> None:
    """Run in a worker process as it starts: give way to the window's process when both want
    a core (its frames come first), end when the window's process ends, however that
    happens (a kill -9 leaves no one to shut the pool down), and listen for ``hurry``."""
    if hurry is not None:
        listen(hurry)
    if hasattr(os, "nice"):
        os.nice(10)
    parent = parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()
