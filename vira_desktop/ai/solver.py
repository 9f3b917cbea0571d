"""A double-dummy solver for Vira: the exact number of tricks the declarer takes with every
card known and everyone playing his best.

Three hands, the declarer against the two defenders; a trump or none; a high game (the
declarer wants tricks) or a misère (he wants none); any number of cards a hand and any
position in the middle of a trick. Play follows :mod:`..rules.tricks`: suit must be
followed, there is no duty to ruff, and with the aces announced as ones an ace ranks
below the deuce.

The search (after the published notes of Bo Haglund's DDS, for three hands):

- a zero-window search asks "can the side that wants tricks for the declarer make at
  least ``t`` of them?", and ``t`` is narrowed down to the value;
- cards of one hand with no live card of another hand (or of the trick) between them are
  equivalent: one of them is tried;
- at each trick boundary, a transposition table keyed on every hand's suits by the
  ranks *relative* to the cards still out (a partition of positions that play alike)
  keeps bounds on the tricks still to come;
- winning cards are tried first, and the cheapest of them.

:func:`solve` is the pure-Python reference; the compiled one (``_native``, where built)
gives the same values (tests/test_solver.py) many times faster and is used when present.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import SUIT_MASKS
from .native import NATIVE

__all__ = ["Position", "move_values", "python_solve", "solve"]


@dataclass(frozen=True, slots=True)
class Position:
    """A position of trick play with every card known.

    ``hands`` by seat (bitmasks); ``trick``: the (seat, card) pairs of the trick in
    progress; ``to_act``: the seat on turn; ``tricks_left``: the tricks still to be
    completed, the one in progress included (a misère declarer may hold fewer cards than
    the defenders: play stops when his run out); ``trump`` a suit index or -1.
    """

    hands: tuple[int, int, int]
    trump: int
    to_act: int
    declarer: int
    low: bool = False
    aces_low: bool = False
    trick: tuple[tuple[int, int], ...] = ()
    tricks_left: int = -1  # -1: the declarer's cards, and one more if he has played to the trick

    def left(self) -> int:
        if self.tricks_left >= 0:
            return self.tricks_left
        held = self.hands[self.declarer].bit_count()
        return held + (1 if any(seat == self.declarer for seat, _ in self.trick) else 0)


def _ace_low(card: int) -> int:
    """The card with the ace moved below the deuce inside its suit (its rank order then
    is the plain bit order)."""
    suit, rank = divmod(card, 13)
    return 13 * suit + (0 if rank == 12 else rank + 1)


def _mask_ace_low(mask: int) -> int:
    out = 0
    for s in range(4):
        m = mask >> (13 * s) & 0x1FFF
        out |= ((m << 1 & 0x1FFF) | m >> 12) << (13 * s)
    return out


class _Search:
    """One zero-window search tree over a position (aces already moved low where announced)."""

    def __init__(self, p: Position) -> None:
        self.hands = list(p.hands)
        self.trump = p.trump
        self.declarer = p.declarer
        self.low = p.low
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}  # key -> (lower, upper) bounds
        self.nodes = 0

    # the side on move wants the declarer's tricks up (True) or down
    def _maxer(self, seat: int) -> bool:
        return (seat == self.declarer) != self.low

    def _key(self, leader: int, left: int) -> tuple[int, ...]:
        """The position at a trick boundary by relative ranks: per suit, the live cards are
        renumbered from the lowest, and each hand's holding is told in those numbers."""
        h0, h1, h2 = self.hands
        key = [leader, left]
        for s in range(4):
            shift = 13 * s
            a, b, c = h0 >> shift & 0x1FFF, h1 >> shift & 0x1FFF, h2 >> shift & 0x1FFF
            live = a | b | c
            ra = rb = rc = 0
            n = 0
            while live:
                low = live & -live
                if a & low:
                    ra |= 1 << n
                elif b & low:
                    rb |= 1 << n
                else:
                    rc |= 1 << n
                n += 1
                live ^= low
            key.append(ra | rb << 13 | rc << 26)
        return tuple(key)

    def reach(self, target: int, trick: list[tuple[int, int]], to_act: int, left: int, won: int) -> bool:
        """Whether the declarer's tricks from here (``won`` of them in this search so far,
        ``left`` still to complete) can be made at least ``target`` against best defence
        of the other side."""
        if won >= target:
            return True
        if won + left < target:
            return False
        self.nodes += 1
        boundary = not trick
        key: tuple[int, ...] = ()
        need = target - won
        if boundary:
            key = self._key(to_act, left)
            bounds = self.table.get(key)
            if bounds is not None:
                if bounds[0] >= need:
                    return True
                if bounds[1] < need:
                    return False
        result = self._children(target, trick, to_act, left, won)
        if boundary:
            lower, upper = self.table.get(key, (0, left))
            self.table[key] = (max(lower, need), upper) if result else (lower, min(upper, need - 1))
        return result

    def _children(self, target: int, trick: list[tuple[int, int]], seat: int, left: int, won: int) -> bool:
        hand = self.hands[seat]
        led = trick[0][1] // 13 if trick else -1
        legal = hand
        if led >= 0 and hand & SUIT_MASKS[led]:
            legal = hand & SUIT_MASKS[led]
        maxer = self._maxer(seat)
        for card in self._ordered(legal, trick, seat):
            self.hands[seat] = hand & ~(1 << card)
            trick.append((seat, card))
            if len(trick) < 3:
                ok = self.reach(target, trick, (seat + 1) % 3, left, won)
            else:
                winner = _winner(trick, self.trump)
                done = trick[:]
                trick.clear()
                ok = self.reach(target, trick, winner, left - 1, won + (winner == self.declarer))
                trick.extend(done)
            trick.pop()
            self.hands[seat] = hand
            if ok == maxer:
                return ok
        return not maxer

    def _ordered(self, legal: int, trick: list[tuple[int, int]], seat: int) -> list[int]:
        """One card of each run of equivalent cards, likely winners first."""
        others = 0
        for s in range(3):
            if s != seat:
                others |= self.hands[s]
        for _, c in trick:
            others |= 1 << c
        picks: list[int] = []
        card = 0
        rest = legal
        while rest:
            low = rest & -rest
            card = low.bit_length() - 1
            rest ^= low
            # the top card of a run: the next live card above it (in its suit) is not mine
            above = SUIT_MASKS[card // 13] & ~((2 << card) - 1)
            nxt = (legal | others) & above
            if not nxt or not (nxt & -nxt) & legal:
                picks.append(card)
        if not trick:
            return sorted(picks, key=lambda c: -(c % 13))  # leads: the highest first
        best = max(_value(c, trick[0][1] // 13, self.trump) for _, c in trick)
        led = trick[0][1] // 13

        def order(c: int) -> tuple[int, int]:
            v = _value(c, led, self.trump)
            return (0, v) if v > best else (1, v)  # the cheapest winner, then the lowest loser

        return sorted(picks, key=order)


def _value(card: int, led: int, trump: int) -> int:
    suit = card // 13
    return card % 13 + 100 if suit == trump else card % 13 if suit == led else -50


def _winner(trick: list[tuple[int, int]], trump: int) -> int:
    led = trick[0][1] // 13
    best_seat, best = trick[0][0], -100
    for seat, card in trick:
        v = _value(card, led, trump)
        if v > best:
            best_seat, best = seat, v
    return best_seat


def _prepared(p: Position) -> Position:
    """``p`` with the aces moved below the deuces where they count as ones."""
    if not p.aces_low:
        return p
    hands = (_mask_ace_low(p.hands[0]), _mask_ace_low(p.hands[1]), _mask_ace_low(p.hands[2]))
    trick = tuple((s, _ace_low(c)) for s, c in p.trick)
    return Position(hands, p.trump, p.to_act, p.declarer, p.low, False, trick, p.left())


def python_solve(p: Position) -> int:
    """The declarer's tricks from ``p`` on (the trick in progress included), by the
    pure-Python search."""
    p = _prepared(p)
    search = _Search(p)
    left = p.left()
    lo, hi = 0, left
    while lo < hi:  # the greatest target the declarer's side can reach
        mid = (lo + hi + 1) // 2
        if search.reach(mid, list(p.trick), p.to_act, left, 0):
            lo = mid
        else:
            hi = mid - 1
    return lo


def solve(p: Position, keep: bool = False) -> int:
    """The declarer's tricks from ``p`` on: the compiled solver where built, else Python.
    ``keep``: the compiled solver may use what it learned in the solve before (one with the
    same trump, declarer and kind of game)."""
    if _native_solve is not None:
        q = _prepared(p)
        return int(_native_solve(q.hands, q.trump, q.to_act, q.declarer, q.low, q.trick, q.left(), keep))
    return python_solve(p)


_native_solve = getattr(NATIVE, "solve", None) if NATIVE is not None else None


def move_values(p: Position, solver: str | None = None) -> dict[int, int]:
    """The declarer's tricks from ``p`` after each legal card of the seat on turn (``solver``
    "python": by the pure-Python search)."""
    hand = p.hands[p.to_act]
    led = p.trick[0][1] // 13 if p.trick else -1
    legal = hand & SUIT_MASKS[led] if led >= 0 and hand & SUIT_MASKS[led] else hand
    python = solver == "python"
    out: dict[int, int] = {}

    def run(child: Position) -> int:  # the positions after each card share the solver's table
        return python_solve(child) if python else solve(child, keep=bool(out))

    left = p.left()
    for card in range(52):
        if not legal >> card & 1:
            continue
        hands = list(p.hands)
        hands[p.to_act] &= ~(1 << card)
        trick = (*p.trick, (p.to_act, card))
        if len(trick) < 3:
            child = Position(
                (hands[0], hands[1], hands[2]), p.trump, (p.to_act + 1) % 3, p.declarer, p.low, p.aces_low, trick, left
            )
            out[card] = run(child)
            continue
        ranked = [(s, _ace_low(c) if p.aces_low else c) for s, c in trick]
        winner = _winner(ranked, p.trump)
        after = Position(
            (hands[0], hands[1], hands[2]), p.trump, winner, p.declarer, p.low, p.aces_low, (), left - 1
        )
        out[card] = (winner == p.declarer) + (run(after) if left > 1 else 0)
    return out
