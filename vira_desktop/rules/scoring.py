"""Results and payments of one deal (rulebook "Payments", "Passing on a Gök").

Bets go between the declarer and the pulla by the pulla table; pins go between
the declarer and each opponent by the bid table and the trump's class.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, Suit, SuitClass, suit_class
from .games import Family, Game, PullaTable

__all__ = ["DealResult", "GokPass", "Outcome", "PinsPaid", "PullaPaid", "has_low_holding", "low_holding_suits", "score"]


class Outcome(StrEnum):
    """How a deal ended for the declarer: home, one trick short (bet), more (kodilj), laid down."""

    HOME = "home"
    BET = "bet"
    KODILJ = "kodilj"
    LAID = "laid"

# Low holdings (låggardar): (top rank, cards lower than it) — 2; 4+3; 6+two; 8+three; 10+four.
_LOW_HOLDINGS = ((2, 0), (4, 1), (6, 2), (8, 3), (10, 4))


def has_low_holding(ranks: set[int]) -> bool:
    """Whether a suit's ranks form a low holding (rulebook "Passing on a Gök").

    >>> has_low_holding({6, 5, 3}), has_low_holding({6, 5}), has_low_holding({4, 3})
    (True, False, True)
    >>> has_low_holding({12, 7, 6, 5, 4, 3})
    True
    """
    return any(top in ranks and sum(1 for r in ranks if r < top) >= lower for top, lower in _LOW_HOLDINGS)


def low_holding_suits(hand: tuple[Card, ...]) -> int:
    """How many suits of ``hand`` hold a low holding."""
    by_suit: dict[Suit, set[int]] = {}
    for card in hand:
        by_suit.setdefault(card.suit, set()).add(int(card.rank))
    return sum(1 for ranks in by_suit.values() if has_low_holding(ranks))


@dataclass(frozen=True, slots=True)
class PullaPaid:
    """Bets into (+) or lifted from (-) the pulla by ``seat``."""

    seat: int
    bets: int
    reason: str


@dataclass(frozen=True, slots=True)
class PinsPaid:
    """Pins paid from one seat to another."""

    payer: int
    payee: int
    pins: int
    reason: str


@dataclass(frozen=True, slots=True)
class GokPass:
    """A pass on a gök: which seat, how many low-holding suits it needed, and whether it had them."""

    seat: int
    needed: int
    met: bool


@dataclass(frozen=True, slots=True)
class DealResult:
    """The result block of a deal record, by seat (0 forehand, 1 middle, 2 rear)."""

    declarer: int
    game: Game
    trump: Suit | None
    trump_class: str  # highest | suit | off-suit | none
    repurchase: bool
    tricks: tuple[int, int, int]
    outcome: Outcome
    pulla: tuple[int, int, int]  # bets into (+) or lifted from (-) the pulla
    pins: tuple[int, int, int]  # net pins received (+) or paid (-)
    payments: tuple[PullaPaid | PinsPaid, ...]

    def net_pins(self, seat: int) -> int:
        """``seat``'s result of the deal in pins: pins received, less 8 a bet paid into the pulla."""
        return self.pins[seat] - 8 * self.pulla[seat]


def _settled_outcome(game: Game, low: bool, laid: bool, taken: int) -> tuple[Outcome, Outcome]:
    """The outcome, and what it is paid as (a laid game pays as bet, a laid solo as kodilj)."""
    if laid:
        return Outcome.LAID, (Outcome.KODILJ if game.family.is_solo else Outcome.BET)
    need = 0 if low else game.tricks
    short = taken if low else need - taken
    outcome = Outcome.HOME if short <= 0 else Outcome.BET if short == 1 else Outcome.KODILJ
    return outcome, outcome


def score(
    *,
    game: Game,
    declarer: int,
    highest: Suit,
    suit_level: int,
    low: bool,
    trump: Suit | None,
    first_trump: Suit | None,
    repurchased: bool,
    laid: bool,
    tricks: tuple[int, int, int],
    gok_passes: tuple[GokPass, ...],
    pulla_table: PullaTable,
) -> DealResult:
    """Settle a finished (or laid) deal."""
    outcome, paid_as = _settled_outcome(game, low, laid, tricks[declarer])
    row = pulla_table.row(game)
    amounts = (row.re_home, row.re_bet, row.re_kodilj) if repurchased else (row.home, row.bet, row.kodilj)
    if None in amounts:
        raise ValueError(f"the pulla table has no repurchase row for {game.name}")
    home, bet, kodilj = (int(a or 0) for a in amounts)
    pulla = [0, 0, 0]
    payments: list[PullaPaid | PinsPaid] = []
    if game.family is Family.GOK and outcome is Outcome.HOME:  # paid in before the gök lifts
        failed = [p.seat for p in gok_passes if not p.met]
        if failed and not (len(gok_passes) == 2 and len(failed) == 2):
            for seat in failed:
                pulla[seat] += 1
                payments.append(PullaPaid(seat, 1, "gök penalty"))
    bets = {Outcome.HOME: -home, Outcome.BET: bet, Outcome.KODILJ: kodilj}[paid_as]
    pulla[declarer] += bets
    if bets:
        payments.append(PullaPaid(declarer, bets, paid_as.value))

    def klass(suit: Suit | None) -> SuitClass:
        return SuitClass.OFF_SUIT if low or suit is None else suit_class(suit, highest)

    opponents = [s for s in range(3) if s != declarer]
    pins = [0, 0, 0]

    def pay(payer: int, payee: int, amount: int, reason: str) -> None:
        if amount:
            pins[payer] -= amount
            pins[payee] += amount
            payments.append(PinsPaid(payer, payee, amount, reason))

    if repurchased:
        first = game.pins_for(klass(first_trump))
        for opp in opponents:
            pay(declarer, opp, first, "first purchase")
    if laid and not low and game.family in (Family.GASK, Family.VIRA, Family.SOLO):
        game_class = SuitClass(suit_level)
    else:
        game_class = klass(trump)
    amount = game.pins_for(game_class)
    for opp in opponents:
        if outcome is Outcome.HOME:
            pay(opp, declarer, amount, "game")
        else:
            pay(declarer, opp, amount, "game")
    return DealResult(
        declarer=declarer,
        game=game,
        trump=None if low else trump,
        trump_class="none" if low or trump is None else suit_class(trump, highest).label,
        repurchase=repurchased,
        tricks=tricks,
        outcome=outcome,
        pulla=(pulla[0], pulla[1], pulla[2]),
        pins=(pins[0], pins[1], pins[2]),
        payments=tuple(payments),
    )
