"""Analysis of a deal in trick play ("Could I have won?", ``vira solve``, ``vira analyse``):
double dummy, every card known, and single dummy, each card of a side judged on what its
seat could see.

Double dummy tells what each card gave up with the cards as they lay: a card is *costly*
when it changed the declarer's result (home, bet, kodilj); tricks given up that change
nothing are told apart (``tricks_only``). Hindsight alone does not make a mistake: each
card of the side asked for is judged again over the layouts of the hidden cards its seat
could not tell from the real one (:mod:`..ai.single_dummy`, the strong bot's sampler with
the auction and the play as evidence). A card is a *mistake* only when it is clearly
worse on that view: ``MISTAKE`` points or more below the best card, and ``NOISE`` standard
errors of the difference (the same layouts serve both cards); a card ``CLOSE`` points or
more below is *doubtful*; any other is as good as the best, and where it changed the
result double dummy it was *unlucky*. A point is a hundredth of the seat's worth over the
layouts: +1 a layout with its side's best result, -1 its worst (home 1, bet 0, kodilj -1
for the declarer), so 10 points is one layout in ten going a result better.

The window and the bots never see another seat's cards this way: this is for a deal that
is over, or a record, where everything is on the table. The analysis is deterministic for a
deal: each position's layouts are drawn with a seed made from the deal and the card's place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace

from ..ai.knowledge import discards, read_markings
from ..ai.native import NATIVE
from ..ai.single_dummy import LAYOUTS, CardOdds, Chances, card_odds
from ..ai.solver import Position, all_move_values, position_of, solve
from ..rules.actions import PlayCard
from ..rules.cards import Card, Suit
from ..rules.deal import Phase
from ..rules.errors import RecordError
from ..rules.games import Game
from ..rules.seat import Seat
from ..rules.view import View
from .coach import Coach
from .record import Record, record_actions, replay
from .wire import JSON, to_json

__all__ = [
    "LAYOUTS",
    "Analysis",
    "CardCost",
    "Chances",
    "Costly",
    "LineCard",
    "LineTrick",
    "MarkingPlayed",
    "PlayedTrick",
    "Seen",
    "Solution",
    "Steps",
    "Turn",
    "analyse_record",
    "best_line",
    "judge_trick",
    "judged",
    "plain",
    "play_start",
    "position_of",
    "solve_record",
    "tricks_given",
]


@dataclass(frozen=True)
class Solution:
    """The double-dummy value of each legal card at one position (``vira solve``)."""

    actions: int  # the record's actions before the position
    to_act: str  # the player to play, by name
    declarer: str
    game: Game | None
    trump: Suit | None  # None: no trump (or a misère)
    trick: tuple[Card, ...]  # the trick's cards so far
    tricks_won: int  # the declarer's, before the position
    tricks_in_play: int
    best: int  # the declarer's tricks with best play
    wants: str  # "most" or "fewest": the declarer's tricks, for the seat to play
    moves: dict[Card, int]  # each legal card: the declarer's tricks with best play after it
    compiled: bool  # worked out by the compiled solver


MISTAKE = 10.0  # points below the best card on the seat's view that make a mistake ...
NOISE = 2.0  # ... and as many standard errors of the difference (else it may be chance)
CLOSE = 5.0  # points below the best within which a card is as good as the best


@dataclass(frozen=True)
class CardCost:
    """A card as played, with the tricks it gave up (0: a best card), and whether that
    changed the declarer's result (home, bet, kodilj) double dummy."""

    seat: str  # the player, by name
    card: Card
    lost: int
    changed: bool = False


@dataclass(frozen=True)
class PlayedTrick:
    """A trick as played: the declarer's tricks with best play before it, and each card's cost."""

    trick: int  # from 1
    before: int
    cards: tuple[CardCost, ...]
    declarer_tricks: int | None = None  # after the trick; None: the record stops inside it


@dataclass(frozen=True)
class Costly:
    """A card that gave up tricks, and where: its trick, its number in the play (from 0), and
    the declarer's tricks with best play before it."""

    trick: int
    index: int
    before: int
    seat: str
    card: Card
    lost: int
    changed: bool = True  # it changed the declarer's result (else: tricks only)


@dataclass(frozen=True)
class Seen:
    """A card of the side asked for, judged on what its seat could see when it played it:
    the declarer's chances with it over the layouts its seat could not tell from the real
    one, beside the best card's there (see the module for ``call``)."""

    trick: int
    index: int  # its number in the play, from 0
    seat: str
    card: Card
    call: str  # "good" (as good as the best), "doubtful" or "mistake"
    chances: Chances  # the declarer's home, bet and kodilj with the card played
    best: Card  # the best card on the seat's view (the card played where it is as good as any)
    best_chances: Chances
    as_good: tuple[Card, ...]  # the other cards within CLOSE points of the best
    gap: float  # points the card played is below the best
    noise: float  # the standard error of ``gap``
    layouts: int
    lost: int  # the tricks it gave up double dummy
    changed: bool  # that changed the result double dummy
    coach: Card | None = None  # the card the coach's hint named there (session/coach.py)
    coach_reason: str | None = None  # and why (keyed: the window says it in the player's language)

    @property
    def unlucky(self) -> bool:
        """It changed the result with the cards as they lay, but was as good as the best on
        what its seat could see."""
        return self.changed and self.call == "good"

    @property
    def coached(self) -> bool:
        """The card played is the one the coach advised."""
        return self.coach == self.card


@dataclass(frozen=True)
class LineCard:
    """A card of the best line: as played, or (``best``) the best for its seat (the lowest of
    the best; ``also``: the others as good)."""

    seat: str
    card: Card
    best: bool
    also: tuple[Card, ...] = ()


@dataclass(frozen=True)
class LineTrick:
    """A trick of the best line: its cards, its winner, and the declarer's tricks after it."""

    cards: tuple[LineCard, ...]
    winner: str
    declarer_tricks: int


@dataclass(frozen=True)
class Turn:
    """Where the best line leaves the play: the trick, the card's number in the play (from 0)
    and its player."""

    trick: int
    index: int
    seat: str


@dataclass(frozen=True)
class MarkingPlayed:
    """A defender's Ågren marking as the table read it (the coach's note says it aloud): his
    first two discards, and what they showed."""

    seat: str
    cards: tuple[Card, ...]
    suits: tuple[Suit, ...]
    strong: bool  # strength (high, then low); else weakness


@dataclass(frozen=True)
class Analysis:
    """A deal's double-dummy analysis ("Could I have won?", ``vira analyse``)."""

    declarer: str
    game: Game | None
    low: bool
    need: int  # the tricks the declarer needed (0 in a misère)
    taken: int  # the declarer's tricks as played
    allowed: int  # double dummy at the first card
    tricks: tuple[PlayedTrick, ...]
    costly: tuple[Costly, ...]
    best_line: tuple[LineTrick, ...]
    other_games: dict[str, int]  # by trump ("S", "H", "D", "C", "none") and "misère" (see other_games)
    diverges: Turn | None  # None: no card gave up a trick
    compiled: bool  # worked out by the compiled solver
    tricks_only: tuple[Costly, ...] = ()  # cards that gave up tricks without changing the result
    seen: tuple[Seen, ...] = ()  # the side's cards judged on what their seats could see (with a choice)
    layouts: int = 0  # layouts each judged card was compared over (0: not judged)
    markings: tuple[MarkingPlayed, ...] = ()  # the defenders' Ågren markings in the play

    def marking(self, seat: str, card: Card) -> MarkingPlayed | None:
        """The Ågren marking ``seat``'s ``card`` was part of, if any."""
        return next((m for m in self.markings if m.seat == seat and card in m.cards), None)


_TREE = (Solution, Analysis, CardCost, PlayedTrick, Costly, LineCard, LineTrick, Turn, Seen, Chances, MarkingPlayed)


def plain(value: object) -> JSON:
    """``value`` (a :class:`Solution`, an :class:`Analysis`) as ``vira solve --json`` and
    ``vira analyse --json`` print it: each dataclass an object of its fields, untagged, a
    field left out where it is None by default; cards, games and suits as :mod:`.wire`
    writes them."""
    if isinstance(value, _TREE):
        out = {}
        for f in fields(value):
            item = getattr(value, f.name)
            if item is not None or f.default is not None:
                out[f.name] = plain(item)
        return out
    if isinstance(value, dict):
        return {str(to_json(k)): plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return to_json(value)


def play_start(record: Record) -> int:
    """How many of the record's actions come before its first card."""
    for i, action in enumerate(record_actions(record)):
        if isinstance(action, PlayCard):
            return i
    raise RecordError("the record has no card play")


def solve_record(record: Record, at: int | None = None) -> Solution:
    """The double-dummy value of each legal card at the record's position: after its first
    ``at`` actions, else after all of them, else (a finished deal) at its first card."""
    upto = at
    deal = replay(record, upto)
    if at is None and deal.phase is Phase.DONE:
        upto = play_start(record)
        deal = replay(record, upto)
    if deal.phase is not Phase.PLAY:
        raise RecordError(f"the position after {upto if upto is not None else 'all the'} actions is not in trick play")
    p = position_of(deal)
    assert deal.declarer is not None
    already = deal.tricks_won[deal.declarer]
    values = {Card(c): already + v for c, v in all_move_values(p).items()}
    wants_tricks = p.wants_tricks(p.to_act)
    names = record.names
    return Solution(
        actions=upto if upto is not None else len(record.actions),
        to_act=names[p.to_act],
        declarer=names[p.declarer],
        game=deal.game,
        trump=deal.trump if not deal.low else None,
        trick=tuple(Card(c) for _, c in p.trick),
        tricks_won=already,
        tricks_in_play=deal.n_tricks,
        best=max(values.values()) if wants_tricks else min(values.values()),
        wants="most" if wants_tricks else "fewest",
        moves=values,
        compiled=NATIVE is not None,
    )


def analyse_record(record: Record, side: frozenset[str] | None = None, layouts: int = LAYOUTS) -> Analysis:
    """The record's double-dummy analysis (:func:`tricks_given`), each card of ``side`` (by
    name; None: every seat) with a choice judged on what its seat could see over ``layouts``
    layouts (0: not judged; :func:`judge_trick`)."""
    info = tricks_given(record, side)
    if not layouts:
        return info
    seen = [s for trick in info.tricks for s in judge_trick(record, side, trick, layouts)]
    return judged(info, seen, layouts)


def judged(info: Analysis, seen: list[Seen], layouts: int) -> Analysis:
    """``info`` with its cards judged on what their seats could see."""
    return replace(info, seen=tuple(seen), layouts=layouts)


def _result(low: bool, need: int, tricks: int) -> int:
    """The declarer's result with ``tricks`` taken: 0 home, 1 bet, 2 kodilj."""
    short = tricks if low else need - tricks
    return 0 if short <= 0 else 1 if short == 1 else 2


def tricks_given(record: Record, side: frozenset[str] | None = None) -> Analysis:
    """Each card the record plays, with the tricks it gave up: the declarer's tricks with best
    play from the position before it and after it (the seat to play wants them up when he
    is the declarer in a high game or a defender in a misère, down otherwise), and whether
    that changed his result; and the best line ("show me how"): the play as it went up to
    the first card that changed the result (the first of a player of ``side``, by name, where
    one did; else the first that gave up a trick), then best play by all."""
    start = play_start(record)
    deal = replay(record, start)
    if deal.phase is not Phase.PLAY or deal.declarer is None or deal.game is None:
        raise RecordError("the record does not reach trick play")
    declarer = int(deal.declarer)
    need = 0 if deal.low else deal.game.tricks
    names = record.names
    actions = record_actions(record)[start:]
    first = position_of(deal)
    # the declarer's tricks from here with best play, searched from what his contract needs
    # (mostly near it: on benchmarks/solver.py's deals the p95 of a full deal's solve 63 -> 50 ms)
    value = solve(first, guess=need)
    allowed = value
    tricks: list[PlayedTrick] = []
    costly: list[Costly] = []
    number = 0
    played = 0  # cards played so far
    for action in actions:
        if deal.phase is not Phase.PLAY:
            break
        if not isinstance(action, PlayCard):
            deal.apply(action)
            continue
        if not deal.trick:
            number += 1
            tricks.append(PlayedTrick(number, deal.tricks_won[declarer] + value, ()))
        seat = int(deal.to_act)
        wants = first.wants_tricks(seat)
        before = deal.tricks_won[declarer] + value
        won = deal.tricks_won[declarer]
        deal.apply(action)
        # the positions follow one another: the solver keeps what it learned, and starts from
        # the value before (less the trick just won)
        guess = max(0, value - (deal.tricks_won[declarer] - won))
        value = solve(position_of(deal), keep=True, guess=guess) if deal.phase is Phase.PLAY else 0
        after = deal.tricks_won[declarer] + value
        lost = before - after if wants else after - before
        changed = _result(deal.low, need, before) != _result(deal.low, need, after)
        trick = tricks[-1]
        cards = (*trick.cards, CardCost(names[seat], action.card, lost, changed))
        # the declarer's tricks after the trick, once it is complete (or play is over)
        tricks[-1] = replace(trick, cards=cards, declarer_tricks=None if deal.trick else deal.tricks_won[declarer])
        if lost:
            costly.append(Costly(number, played, before, names[seat], action.card, lost, changed))
        played += 1
    ours = [c for c in costly if side is not None and c.seat in side]
    turns = [c for c in ours if c.changed] or ours or [c for c in costly if c.changed] or costly
    turn = turns[0] if turns else None
    return Analysis(
        declarer=names[declarer],
        game=deal.game,
        low=deal.low,
        need=need,
        taken=deal.tricks_won[declarer],
        allowed=allowed,
        tricks=tuple(tricks),
        costly=tuple(c for c in costly if c.changed),
        best_line=best_line(record, turn.index if turn else None),
        other_games=other_games(first, allowed),
        diverges=None if turn is None else Turn(turn.trick, turn.index, turn.seat),
        compiled=NATIVE is not None,
        tricks_only=tuple(c for c in costly if not c.changed),
        markings=_markings(deal.view(declarer), names),
    )


def _markings(view: View, names: Sequence[str]) -> tuple[MarkingPlayed, ...]:
    """The Ågren markings the play showed (read as the table reads them), with their cards."""
    shed = discards(view)
    return tuple(
        MarkingPlayed(names[m.seat], tuple(shed[m.seat][:2]), m.suits, m.strong) for m in read_markings(view)
    )


def judge_trick(record: Record, side: frozenset[str] | None, trick: PlayedTrick, layouts: int = LAYOUTS) -> list[Seen]:
    """The cards of ``side`` (by name; None: every seat) in ``trick`` (of the record's
    double-dummy analysis), each judged on what its seat could see as it played it, over
    ``layouts`` layouts of the hidden cards; a card with no choice (one card plays like any
    other, or the result is settled whatever is played) is left out. The coach's hint at
    each is asked too (what it advised, and why)."""
    start = play_start(record)
    deal = replay(record, start)
    names = record.names
    coach = Coach()
    out: list[Seen] = []
    played = 0
    for action in record_actions(record)[start:]:
        if deal.phase is not Phase.PLAY or len(deal.tricks_played) >= trick.trick:
            break
        if not isinstance(action, PlayCard):
            deal.apply(action)
            continue
        name = names[action.seat]
        if len(deal.tricks_played) + 1 == trick.trick and (side is None or name in side):
            view = deal.view(action.seat)
            odds = card_odds(view, coach.card_seed(view), layouts)  # the layouts the coach's hint searched
            if odds is not None:
                cost = trick.cards[len(deal.trick)]
                hint = coach.hint(view, odds)  # its search takes the layouts solved just now
                advised = hint.action.card if isinstance(hint.action, PlayCard) else None
                out.append(_seen(odds, trick.trick, played, name, action.card, cost, advised, hint.reason))
        deal.apply(action)
        played += 1
    return out


def _seen(
    odds: CardOdds, trick: int, index: int, seat: str, card: Card, cost: CardCost, coach: Card | None, reason: str
) -> Seen:
    """A card judged by its odds (see the module for the call)."""
    best = odds.best(prefer=card)
    gap, noise = odds.gap(card, best)
    call = "mistake" if gap >= MISTAKE and gap >= NOISE * noise else "doubtful" if gap >= CLOSE else "good"
    as_good = tuple(c for c in sorted(odds.outcomes) if c != best and odds.gap(c, best)[0] < CLOSE)
    return Seen(
        trick=trick,
        index=index,
        seat=seat,
        card=card,
        call=call,
        chances=odds.chances(card),
        best=best,
        best_chances=odds.chances(best),
        as_good=as_good,
        gap=round(gap, 1),
        noise=round(noise, 1),
        layouts=odds.layouts,
        lost=cost.lost,
        changed=cost.changed,
        coach=coach,
        coach_reason=reason if coach is not None else None,
    )


def other_games(first: Position, value: int) -> dict[str, int]:
    """What the declarer's cards as they lay at the first card would take double dummy with
    each trump, with none, and in a misère (his tricks: as many as best defence makes him
    take there; the aces as announced where the game played was a misère): "was my bid too
    high?" by the tricks each kind of game would have made. ``value``: the game played's own
    (not solved again)."""
    out = {}
    if len({h.bit_count() for h in first.hands}) == 1:  # a misère's cards set aside leave no trump game
        for name, trump in (("S", 0), ("H", 1), ("D", 2), ("C", 3), ("none", -1)):
            same = not first.low and trump == first.trump
            # searched from the game played's value (17% less time than halving 0 to 13)
            out[name] = value if same else solve(replace(first, trump=trump, low=False, aces_low=False), guess=value)
    out["misère"] = value if first.low else solve(replace(first, trump=-1, low=True, aces_low=False), guess=0)
    return out


def best_line(record: Record, diverge: int | None) -> tuple[LineTrick, ...]:
    """The tricks of the record's play, card for card as played up to its card number
    ``diverge`` (from 0; None: to the end), and from there on each card the best for its
    seat with every card known (of equal cards the lowest, the others as good told with it):
    each trick's cards, its winner, and the declarer's tricks after it."""
    deal = replay(record, play_start(record))
    declarer = deal.declarer
    assert declarer is not None
    names = record.names
    actions = [a for a in record_actions(record)[play_start(record) :]]
    line: list[LineTrick] = []
    cards: list[LineCard] = []
    played = 0
    queue = iter(actions)
    while deal.phase is Phase.PLAY:
        seat = int(deal.to_act)
        if diverge is None or played < diverge:
            action = next(queue, None)
            if action is None:
                break
            if not isinstance(action, PlayCard):
                deal.apply(action)
                continue
            card, best, also = action.card, False, tuple[Card, ...]()
        else:
            p = position_of(deal)
            values = all_move_values(p, keep=played > diverge)  # one deal's positions, one after another
            aim = max if p.wants_tricks(seat) else min
            target = aim(values.values())
            card, *others = sorted(Card(c) for c, v in values.items() if v == target)
            best, also = True, tuple(others)
        before = len(deal.tricks_played)
        deal.apply(PlayCard(Seat(seat), card))
        cards.append(LineCard(names[seat], card, best, also))
        played += 1
        if len(deal.tricks_played) > before or deal.phase is not Phase.PLAY:
            winner = int(deal.tricks_played[-1][0]) if deal.tricks_played else seat
            line.append(LineTrick(tuple(cards), names[winner], deal.tricks_won[declarer]))
            cards = []
    return tuple(line)


class Steps:
    """A finished deal's analysis for ``side`` worked out in steps, each a job of the table's
    queue (the window tells the progress between them): the double dummy, then the side's
    cards judged on what their seats could see, a trick a step."""

    def __init__(self, record: Record, side: tuple[str, ...], layouts: int = LAYOUTS) -> None:
        self.record = record
        self.side = frozenset(side)
        self.layouts = layouts
        self.info: Analysis | None = None  # the double dummy, once in
        self.seen: list[Seen] = []
        self.done = 0  # tricks judged

    def job(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        """The next step's function and arguments (a module's function and plain values: a
        worker process runs it)."""
        if self.info is None:
            return tricks_given, (self.record, self.side)
        return judge_trick, (self.record, self.side, self.info.tricks[self.done], self.layouts)

    def take(self, result: object) -> Analysis | None:
        """The answer of the step asked (:meth:`job`); the whole analysis once the last is in."""
        if self.info is None:
            if not isinstance(result, Analysis):
                raise TypeError(f"not an analysis: {result!r}")
            self.info = result
        else:
            if not isinstance(result, list):
                raise TypeError(f"not the cards of a trick: {result!r}")
            self.seen += result
            self.done += 1
        if self.done < len(self.info.tricks) and self.layouts:
            return None
        return judged(self.info, self.seen, self.layouts)

    @property
    def progress(self) -> tuple[int, int]:
        """The tricks judged so far, of all."""
        return self.done, len(self.info.tricks) if self.info is not None else 0
