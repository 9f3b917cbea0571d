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

The compiled search adds cut-offs that never change a value (the Python twin leaves them
out): in a high game, the quick tricks of the declarer or a defender on lead, and with trumps
the sure tricks of either side (its trumps above all of the other side's); leads tried in the
order of the cut-offs they gave earlier in the solve (a history), among cards of one rank,
after the declarer's trumps and masters and a defender's side suits; a defender second to
play low where his partner, last, can beat the declarer's card; the table in buckets of two;
and partition search (DDS's winning ranks): each search also tells which cards' ranks its
answer depended on (a trick's winner over a card of its suit, the masters a cut-off counted),
and its bound is kept a second time as a pattern that holds for every position of the same
suit lengths whose higher cards lie alike, the lower ones anyhow; and a card that failed
spares its hand's cards of its suit below every rank its answer depended on (they fail alike:
the position after each matches its pattern).

:func:`solve` is the pure-Python reference; the compiled one (``_native``, where built)
gives the same values (tests/test_solver.py) many times faster and is used when present.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import SUIT_MASKS, Card, bit_indices
from ..rules.deal import Deal, Phase
from ..rules.tricks import TrickPlay, card_value
from .native import NATIVE

__all__ = [
    "COMPILED",
    "Position",
    "all_move_values",
    "move_values",
    "position_of",
    "python_solve",
    "searched",
    "solve",
]


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

    def wants_tricks(self, seat: int) -> bool:
        """Whether ``seat`` plays for the declarer's tricks: the declarer in a high game, the
        defenders in a misère."""
        return (seat == self.declarer) != self.low

    def left(self) -> int:
        if self.tricks_left >= 0:
            return self.tricks_left
        held = self.hands[self.declarer].bit_count()
        return held + (1 if any(seat == self.declarer for seat, _ in self.trick) else 0)


def position_of(deal: Deal) -> Position:
    """The solver's position for a deal in trick play."""
    if deal.phase is not Phase.PLAY or deal.declarer is None:
        raise ValueError("the deal is not in trick play")
    trump = -1 if deal.low or deal.trump is None else int(deal.trump)
    hands = (deal.hands[0], deal.hands[1], deal.hands[2])
    trick = tuple((int(s), int(c)) for s, c in deal.trick)
    left = deal.n_tricks - len(deal.tricks_played)
    return Position(hands, trump, int(deal.to_act), int(deal.declarer), deal.low, deal.aces_low, trick, left)


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
    """One zero-window search tree over a position (aces already moved low where announced),
    walked on the rules' own trick play with push and pop."""

    def __init__(self, p: Position) -> None:
        self.play = TrickPlay(list(p.hands), p.trump, p.to_act, False, [(s, Card(c)) for s, c in p.trick])
        self.position = p
        self.declarer = p.declarer
        self.left = p.left()  # the tricks to complete from the root
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}  # key -> (lower, upper) bounds

    def _key(self, left: int) -> tuple[int, ...]:
        """The position at a trick boundary by relative ranks: per suit, the live cards are
        renumbered from the lowest, and each hand's holding is told in those numbers."""
        h0, h1, h2 = self.play.hands
        key = [int(self.play.to_act), left]
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

    def reach(self, target: int) -> bool:
        """Whether the declarer's tricks from the root can be made at least ``target``
        against best play of the other side."""
        play = self.play
        won = play.won[self.declarer]
        left = self.left - len(play.tricks)
        if won >= target:
            return True
        if won + left < target:
            return False
        if play.trick:
            return self._children(target)
        need = target - won
        key = self._key(left)
        lower, upper = self.table.get(key, (0, left))
        if lower >= need:
            return True
        if upper < need:
            return False
        result = self._children(target)
        lower, upper = self.table.get(key, (0, left))  # the search below may have added to it
        self.table[key] = (max(lower, need), upper) if result else (lower, min(upper, need - 1))
        return result

    def _children(self, target: int) -> bool:
        play = self.play
        maxer = self.position.wants_tricks(play.to_act)
        for card in self._ordered(play.legal()):
            play.push(card)
            ok = self.reach(target)
            play.pop()
            if ok == maxer:
                return ok
        return not maxer

    def _ordered(self, legal: int) -> list[int]:
        """One card of each run of equivalent cards, likely winners first."""
        play = self.play
        others = 0
        for s in range(3):
            if s != play.to_act:
                others |= play.hands[s]
        for _, c in play.trick:
            others |= 1 << c
        picks: list[int] = []
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
        if not play.trick:
            return sorted(picks, key=lambda c: -(c % 13))  # leads: the highest first
        led, trump = play.trick[0][1] // 13, play.trump
        best = max(card_value(c, led, trump, False) for _, c in play.trick)

        def order(c: int) -> tuple[int, int]:
            v = card_value(c, led, trump, False)
            return (0, v) if v > best else (1, v)  # the cheapest winner, then the lowest loser

        return sorted(picks, key=order)


def _prepared(p: Position) -> Position:
    """``p`` with the aces moved below the deuces where they count as ones."""
    if not p.aces_low:
        return p
    hands = (_mask_ace_low(p.hands[0]), _mask_ace_low(p.hands[1]), _mask_ace_low(p.hands[2]))
    trick = tuple((s, _ace_low(c)) for s, c in p.trick)
    return Position(hands, p.trump, p.to_act, p.declarer, p.low, False, trick, p.left())


def python_solve(p: Position, floor: int = 0, ceiling: int = 13) -> int:
    """The declarer's tricks from ``p`` on (the trick in progress included), by the
    pure-Python search, clamped to [``floor``, ``ceiling``]."""
    search = _Search(_prepared(p))
    lo, hi = floor, min(ceiling, search.left)
    while lo < hi:  # the greatest target the declarer's side can reach
        mid = (lo + hi + 1) // 2
        if search.reach(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def solve(p: Position, keep: bool = False, guess: int = -1, floor: int = 0, ceiling: int = 13, nodes: int = 0) -> int:
    """The declarer's tricks from ``p`` on, clamped to [``floor``, ``ceiling``] (a narrow band
    is cheaper to find: "home, bet or kodilj?" is two zero-window searches at most): the
    compiled solver where built, else Python. ``keep``: the compiled solver may use what it
    learned in the solve before (one with the same trump, declarer and kind of game);
    ``guess``: a value likely near the answer, which it searches from step by step (-1: none);
    ``nodes``: the compiled search gives up (and returns -1) after so many nodes (0: never;
    the Python search never gives up)."""
    if _native_solve is not None:
        q = _prepared(p)
        args = (q.hands, q.trump, q.to_act, q.declarer, q.low, q.trick, q.left(), keep, guess, floor, ceiling, nodes)
        return int(_native_solve(*args))
    return python_solve(p, floor, ceiling)


_native_solve = getattr(NATIVE, "solve", None) if NATIVE is not None else None
_native_searched = getattr(NATIVE, "searched", None) if NATIVE is not None else None
COMPILED = _native_solve is not None  # the fast solver is there (else only endgames are quick)


def searched() -> int:
    """The nodes the compiled solver has searched so far in this process (0 without it)."""
    return int(_native_searched()) if _native_searched is not None else 0


def move_values(
    p: Position,
    solver: str | None = None,
    cards: int = -1,
    floor: int = 0,
    ceiling: int = 13,
    nodes: int = 0,
    keep: bool = False,
) -> dict[int, int] | None:
    """The declarer's tricks from ``p`` after each legal card of the seat on turn (of those in
    the mask ``cards``), clamped to [``floor``, ``ceiling``]; ``solver`` "python": by the
    pure-Python search. None when the compiled search of a card needed more than ``nodes``
    nodes (0: no limit, and never None). ``keep``: the compiled solver's table still holds
    from the solve before (a position of the same deal, as :func:`solve`'s ``keep``)."""
    python = solver == "python"
    play = TrickPlay(list(p.hands), p.trump, p.to_act, p.aces_low, [(s, Card(c)) for s, c in p.trick])
    left = p.left()
    out: dict[int, int] = {}
    later = -1
    for card in bit_indices(play.legal() & cards):
        winner = play.push(card)
        child = Position(
            (play.hands[0], play.hands[1], play.hands[2]),
            p.trump,
            int(play.to_act),
            p.declarer,
            p.low,
            p.aces_low,
            tuple((int(s), c) for s, c in play.trick),
            left - len(play.tricks),
        )
        play.pop()
        won = int(winner == p.declarer)
        low, high = max(0, floor - won), ceiling - won
        # the positions after each card share the compiled solver's table, and are mostly
        # worth what the one before was
        guess = later if out else (0 if p.low else -1)
        if not child.left() or high <= 0:
            later = 0 if not child.left() else max(0, high)
        elif python:
            later = python_solve(child, low, high)
        else:
            later = solve(child, keep or bool(out), guess, low, high, nodes)
            if later < 0:
                return None
        out[card] = won + later
    return out


def all_move_values(p: Position, solver: str | None = None, keep: bool = False) -> dict[int, int]:
    """The declarer's exact tricks from ``p`` after each legal card of the seat on turn
    (``keep``: as :func:`move_values`')."""
    values = move_values(p, solver, keep=keep)
    assert values is not None  # no node limit: every search finishes
    return values
