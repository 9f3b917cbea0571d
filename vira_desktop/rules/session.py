"""A session at the table: seating, the deal passing round, the two decks, the ledger.

Players are listed clockwise as they sit. With four, the player to the right
of the dealer sits out ("shuffle in, cut out"). The deal passes clockwise:
forehand becomes the next dealer. Two decks are used alternately: while one
is dealt the other, shuffled, lies face down with its bottom card visible and
sets the highest suit; after the deal it is the next deal's deck. A deal's
number (see :func:`~vira_desktop.rules.deal.deal_number_decks`) reproduces it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .actions import Action
from .cards import Card, Suit
from .deal import Deal
from .errors import IllegalAction, LedgerError
from .events import Event, PinsPaid, PullaPaid
from .houserules import HouseRules
from .ledger import Kind, Ledger, LedgerEvent, Settlement, reantes
from .scoring import DealResult

__all__ = [
    "DealRoles",
    "DealSummary",
    "SeatingDraw",
    "Session",
    "deal_roles",
    "draw_seating",
    "first_heart",
    "heart_deal",
    "seat_by_draw",
]


@dataclass(frozen=True, slots=True)
class SeatingDraw:
    """How the first forehand was found: the cards drawn or laid out, and the seating."""

    order: tuple[str, ...]  # clockwise
    forehand: str
    cards: tuple[tuple[str, Card], ...]  # who got which card, in order


def draw_seating(names: list[str], rng: random.Random) -> SeatingDraw:
    """The seating draw: one card per place, of different suits with hearts among them;
    each player draws one and sits at that suit's place. Hearts is the first forehand."""
    suits = [Suit.H, *rng.sample([Suit.S, Suit.D, Suit.C], len(names) - 1)]
    drawn = list(suits)
    rng.shuffle(drawn)
    return seat_by_draw({n: Card.of(_DRAW_RANK, suit) for n, suit in zip(names, drawn, strict=True)})


_DRAW_RANK = Card.parse("AS").rank


def seat_by_draw(cards: Mapping[str, Card]) -> SeatingDraw:
    """The seating by the cards each player drew (rulebook, Seating): the places round the
    table go clockwise ♠ ♥ ♦ ♣, each player sits at his suit's, and hearts is the first
    forehand. Raises ``ValueError`` unless the suits differ and hearts is among them."""
    suits = [card.suit for card in cards.values()]
    if len(set(suits)) != len(suits) or Suit.H not in suits:
        raise ValueError("the seating draw's cards are of different suits, one of them hearts")
    places = sorted(suits)
    order = tuple(sorted(cards, key=lambda n: places.index(cards[n].suit)))
    forehand = next(n for n, card in cards.items() if card.suit is Suit.H)
    return SeatingDraw(order, forehand, tuple(cards.items()))


def heart_deal(order: list[str], rng: random.Random) -> SeatingDraw:
    """First come, first served: cards are laid out face up clockwise from the first
    player until one receives a heart; that player is the first forehand."""
    deck = [Card(i) for i in range(52)]
    rng.shuffle(deck)
    return first_heart(order, deck)


def first_heart(order: Sequence[str], cards: Sequence[Card]) -> SeatingDraw:
    """``cards`` laid out face up one at a time, clockwise from ``order[0]``: the first to
    receive a heart is the first forehand (the cards after it are not laid). Raises
    ``ValueError`` when no heart is laid."""
    laid: list[tuple[str, Card]] = []
    for i, card in enumerate(cards):
        laid.append((order[i % len(order)], card))
        if card.suit is Suit.H:
            return SeatingDraw(tuple(order), laid[-1][0], tuple(laid))
    raise ValueError("no heart was laid out")


@dataclass(frozen=True, slots=True)
class DealRoles:
    """Who does what around one deal (rulebook, The Deal and Continuing Play)."""

    seats: tuple[str, str, str]  # forehand, middle-hand, rear-hand (the dealer)
    sits_out: str | None  # with four: the player to the dealer's right
    cuts: str  # the player to the dealer's right cuts the deck dealt
    shuffles_spare: str  # the other deck: with three, the cutter; with four, the player opposite the dealer

    @property
    def dealer(self) -> str:
        return self.seats[2]


def deal_roles(players: Sequence[str], dealer: str) -> DealRoles:
    """The roles of a deal ``dealer`` deals, ``players`` listed clockwise: forehand sits to his
    left, middle-hand to forehand's left; with four, the player to his right cuts and sits
    out ("shuffle in, cut out") and the one opposite shuffles the spare deck."""
    p, d = list(players), list(players).index(dealer)
    n = len(p)
    if not 3 <= n <= 4:
        raise ValueError("a deal is played at a table of three or four")
    seats = (p[(d + 1) % n], p[(d + 2) % n], dealer)
    right = p[(d - 1) % n]
    return DealRoles(seats, right if n == 4 else None, right, p[(d + 2) % n] if n == 4 else right)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One finished deal, for the score sheet."""

    number: int
    seats: tuple[str, str, str]  # forehand, middle-hand, rear-hand
    sitting_out: str | None
    result: DealResult
    borup: bool
    suit_level: int = 0  # the contract was bid plain, in suit or in highest suit
    ala_om: int = 0  # how many times everyone anted again before the winner could lift
    paid: tuple[LedgerEvent, ...] = ()  # the ledger's moves that paid the deal (åla om included)

def _paid_first(payment: PullaPaid | PinsPaid) -> int:
    """Payments into the pulla, then lifts from it, then pins between players."""
    if isinstance(payment, PullaPaid):
        return 0 if payment.bets > 0 else 1
    return 2


@dataclass
class Session:
    """A whole session. Create with :meth:`start`."""

    players: list[str]
    rules: HouseRules
    rng: random.Random
    ledger: Ledger
    dealer: int  # index into players
    deal: Deal | None = None
    seats: tuple[str, str, str] = ("", "", "")
    sitting_out: str | None = None
    deals: list[DealSummary] = field(default_factory=list)
    last_deal: int | None = None  # the number of deals the session ends after, once agreed
    settlement: Settlement | None = None
    _deck_seed: int = 0

    @classmethod
    def start(
        cls,
        order: list[str],
        first_forehand: str,
        seed: int,
        rules: HouseRules | None = None,
        bowl: dict[Kind, int] | None = None,
        pulla: int | None = None,
    ) -> tuple[Session, list[LedgerEvent]]:
        """Seat ``order`` (clockwise), fill the bowls and ante (åla). ``pulla``: the session
        opens with that many bets in the pulla instead (a lesson set as earlier deals left
        it), put in one at a time round the table from ``first_forehand``."""
        if not 3 <= len(order) <= 4 or len(set(order)) != len(order):
            raise ValueError("Vira is played by three or four players with different names")
        rng = random.Random(seed)
        ledger = Ledger(bowl)
        events: list[LedgerEvent] = []
        for name in order:
            events += ledger.add_player(name)
        if pulla is None:
            events += ledger.ante(order, "åla")
        else:
            if pulla < 0:
                raise ValueError("the pulla cannot hold fewer than no bets")
            first = order.index(first_forehand)
            for i in range(pulla):
                events += ledger.pay_pulla(order[(first + i) % len(order)], 1, "åla")
        dealer = (order.index(first_forehand) - 1) % len(order)
        session = cls(list(order), rules or HouseRules(), rng, ledger, dealer)
        session._deck_seed = rng.getrandbits(24)
        return session, events

    def copy(self) -> Session:
        """A copy to come back to (a table's undo): its own ledger, random state, deal and
        lists; the finished deals' summaries (frozen) and the rules shared."""
        new = copy.copy(self)
        new.players, new.deals = list(self.players), list(self.deals)
        new.ledger, new.rng = self.ledger.copy(), random.Random()
        new.rng.setstate(self.rng.getstate())
        new.deal = None if self.deal is None else self.deal.clone()
        return new

    # ------------------------------------------------------------------ dealing
    def seats_for(self, dealer: int) -> tuple[tuple[str, str, str], str | None]:
        roles = deal_roles(self.players, self.players[dealer])
        return roles.seats, roles.sits_out

    def new_deal(self, number: int | None = None) -> Deal:
        """Deal the next deal (from the chained decks, or a given deal number)."""
        if self.deal is not None and not self.deal.is_over:
            raise IllegalAction("the current deal is not finished")
        if self.settlement is not None:
            raise IllegalAction("the session has been settled")
        if self.is_over:
            raise IllegalAction("the session is over: Borup was the last deal; settle")
        if number is None:
            number = self._deck_seed << 24 | self.rng.getrandbits(24)
        self._deck_seed = number & 0xFFFFFF  # this deal's spare deck is the next deal's deck
        self.seats, self.sitting_out = self.seats_for(self.dealer)
        self.deal = Deal.from_number(number, self.rules)
        return self.deal

    def seat_deal(self, deal: Deal) -> Deal:
        """Play a given deal (a deal record, a lesson) at this table, seated as the next deal."""
        if self.deal is not None and not self.deal.is_over:
            raise IllegalAction("the current deal is not finished")
        self.seats, self.sitting_out = self.seats_for(self.dealer)
        self.deal = deal
        return deal

    def apply(self, action: Action) -> list[Event | LedgerEvent]:
        """Apply an action to the current deal; at its end, pay through the ledger."""
        if self.deal is None:
            raise IllegalAction("no deal in progress")
        events: list[Event | LedgerEvent] = list(self.deal.apply(action))
        if self.deal.is_over:
            events += self._finish_deal()
        return events

    def _finish_deal(self) -> list[LedgerEvent]:
        deal = self.deal
        assert deal is not None and deal.result is not None
        out: list[LedgerEvent] = []
        at_table = list(self.players)
        # Every payment into the pulla is made before anyone lifts (the rules notes), so no
        # åla om is made that a gök låggard penalty would have covered.
        for payment in sorted(deal.result.payments, key=_paid_first):
            if isinstance(payment, PullaPaid):
                who = self.seats[payment.seat]
                if payment.bets > 0:
                    out += self.ledger.pay_pulla(who, payment.bets, payment.reason)
                else:
                    out += self.ledger.lift(who, -payment.bets, payment.reason, at_table)
            elif isinstance(payment, PinsPaid):
                out += self.ledger.pay_pins(
                    self.seats[payment.payer], self.seats[payment.payee], payment.pins, payment.reason
                )
        borup = self.last_deal is not None and len(self.deals) + 1 == self.last_deal
        summary = DealSummary(
            deal.number or 0,
            self.seats,
            self.sitting_out,
            deal.result,
            borup,
            deal.suit_level,
            reantes(out, at_table[0]),
            tuple(out),
        )
        self.deals.append(summary)
        self.dealer = (self.dealer + 1) % len(self.players)
        return out

    # ------------------------------------------------------------------ joining and ending
    def join(self, name: str, after: str) -> list[LedgerEvent]:
        """A fourth player joins between deals, sitting to the left of ``after``, and bets in."""
        if len(self.players) >= 4:
            raise LedgerError("the table is full")
        if self.deal is not None and not self.deal.is_over:
            raise IllegalAction("a player joins between deals")
        if after not in self.players:
            raise ValueError(f"no player {after!r} at the table")
        events = self.ledger.bet_in(name)
        index = self.players.index(after) + 1
        if index <= self.dealer:
            self.dealer += 1
        self.players.insert(index, name)
        return events

    def announce_borup(self) -> None:
        """The next deal is the last (Borup). Announced during a deal, the deal in play is
        finished first; between deals, the deal about to be dealt is Borup."""
        self._end_after(1)

    def announce_last_round(self) -> None:
        """The last round (the rulebook: agreed beforehand, "so that each player sits in
        forehand one last time"): one deal more for each player at the table, from the next
        deal on; the last of them is Borup."""
        self._end_after(len(self.players))

    def _end_after(self, deals: int) -> None:
        if self.settlement is not None or self.is_over:
            raise IllegalAction("the session is already over")
        in_play = self.deal is not None and not self.deal.is_over
        self.last_deal = len(self.deals) + int(in_play) + deals

    @property
    def deals_left(self) -> int | None:
        """Deals still to finish, the one in play included, once the end is agreed."""
        return None if self.last_deal is None else self.last_deal - len(self.deals)

    @property
    def borup(self) -> bool:
        """The deal in play (or, between deals, the next one) is the session's last."""
        return self.deals_left == 1

    @property
    def is_over(self) -> bool:
        """Borup has been played: nothing is left but to settle."""
        return self.deals_left is not None and self.deals_left <= 0

    def settle(self) -> tuple[Settlement, list[LedgerEvent]]:
        """End the session: share the pulla, remainder rules included."""
        if self.deal is not None and not self.deal.is_over:
            raise IllegalAction("finish the deal in progress first")
        settlement, events = self.ledger.settle(self.rng)
        self.settlement = settlement
        return settlement, events
