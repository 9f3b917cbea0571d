"""One deal of Vira as a state machine: auction, every game's procedure, trick play.

Seats are numbered from forehand: 0 forehand (förhand), 1 middle-hand
(mellanhand), 2 rear-hand (efterhand, the dealer). Play goes 0 → 1 → 2.

One legality source: :meth:`Deal.check` gives the reason an action is illegal,
:meth:`Deal.is_legal` and :meth:`Deal.legal_actions` build on it, and
:meth:`Deal.apply` checks before it changes anything, so an illegal action
leaves the state untouched. :meth:`Deal.apply_unchecked` is the fast path.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .actions import (
    Action,
    AnnounceAces,
    Bid,
    Buy,
    ChooseLevel,
    ChooseTrump,
    Decide,
    Discard,
    HighLow,
    Keep,
    Pass,
    PlayCard,
    Repurchase,
    SetAside,
    Turn,
    sorted_cards,
)
from .cards import SUIT_MASKS, Card, Suit, cards_from_mask, mask_of, suit_class
from .errors import IllegalAction
from .events import (
    AcesAnnounced,
    BidMade,
    Bought,
    CardPlayed,
    CardsTurned,
    ContractWon,
    DealScored,
    Decided,
    Discarded,
    Event,
    HandOpened,
    Kept,
    LevelChosen,
    Passed,
    PlayedHighLow,
    SetAsideDone,
    StockTaken,
    TrickWon,
    TrumpChosen,
)
from .games import BID_GROUPS, GAMES, Family, Game
from .houserules import HouseRules
from .scoring import DealResult, GokPass, low_holding_suits, score

if TYPE_CHECKING:
    from .view import View

__all__ = ["SEAT_NAMES", "CardChoice", "Deal", "Decision", "Phase", "deal_number_decks"]

SEAT_NAMES = ("forehand", "middle-hand", "rear-hand")
_CARD = tuple(Card(i) for i in range(52))
_SUITS = tuple(Suit)
_DEFAULT_RULES = HouseRules()
_LEVELS = {False: (0,), True: (0, 1, 2)}
_ACES = mask_of(Card(s * 13 + 12) for s in range(4))
_GOK = next(g for g in GAMES if g.family is Family.GOK)


class Phase(Enum):
    AUCTION = "auction"
    LEVEL = "level"  # declarer fixes an unspecified bid's level
    KEEP = "keep"  # gask: cards kept from the dealt hand
    DISCARD = "discard"  # gask, vira, gök: back to 13 after taking the stock
    HIGH_LOW = "high/low"  # gask 0-4
    TRUMP = "trump"
    TURN = "turn"  # turné, vingel, tringel
    BUY = "buy"  # the declarer's purchase
    DECIDE = "decide"  # play, lay down, repurchase or turn again
    SET_ASIDE = "set aside"  # misère declarer, before the first lead
    OPPONENT_BUY = "opponents buy"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class CardChoice:
    """A choice of a set of cards: ``min_count``..``max_count`` of ``candidates``."""

    action: type[Keep | Discard | Buy | Repurchase | SetAside]
    seat: int
    candidates: tuple[Card, ...]
    min_count: int
    max_count: int

    def make(self, cards: Sequence[Card]) -> Action:
        return self.action(self.seat, tuple(cards))

    def combinations(self) -> Iterator[Action]:
        """Every legal choice, lazily (there may be millions)."""
        for n in range(self.min_count, self.max_count + 1):
            for combo in itertools.combinations(self.candidates, n):
                yield self.make(combo)

    def random(self, rng: random.Random) -> Action:
        n = rng.randint(self.min_count, self.max_count)
        return self.make(rng.sample(self.candidates, n))


@dataclass(frozen=True, slots=True)
class Decision:
    """What the state asks for now: finite ``actions`` and/or a card-set ``choice``.

    ``optional`` marks an offer the seat may decline by doing nothing (a declarer
    who is not on turn may announce four aces before the first card).
    """

    seat: int
    phase: Phase
    actions: tuple[Action, ...]
    choice: CardChoice | None = None
    optional: bool = False


@dataclass(frozen=True, slots=True)
class _Best:
    """The standing bid: its effective game, suit level and seat, and the key it beat."""

    game: Game
    suit_level: int
    seat: int
    bid: Bid
    previous: tuple[int, int, int] | None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.game.no, self.suit_level, 2 - self.seat)


def deal_number_decks(number: int) -> tuple[list[Card], list[Card]]:
    """The two decks of a deal number: the dealt deck (top first) and the spare deck.

    The high 24 bits seed the dealt deck's shuffle and the low 24 bits the spare
    deck's, whose bottom card sets the highest suit. In a session, a deal's
    spare deck is the next deal's dealt deck, so the numbers chain.
    """
    if not 0 <= number < 1 << 48:
        raise ValueError("a deal number is a whole number from 0 to 281474976710655")
    return _shuffled(number >> 24), _shuffled(number & 0xFFFFFF)


def _shuffled(seed: int) -> list[Card]:
    """The deck shuffled by ``seed``: cards ordered by 52 seeded random keys."""
    draw = random.Random(seed).random
    keys = [draw() for _ in range(52)]
    return sorted(_CARD, key=keys.__getitem__)


def _deal_order(deck: Sequence[Card]) -> tuple[list[list[Card]], list[Card]]:
    """4 cards each from forehand, then three rounds of 3; the last 13 are the stock."""
    hands: list[list[Card]] = [[], [], []]
    pos = 0
    for size in (4, 3, 3, 3):
        for seat in range(3):
            hands[seat].extend(deck[pos : pos + size])
            pos += size
    return hands, list(deck[39:52])


class Deal:
    """The state of one deal. Build with :meth:`from_cards` or :meth:`from_number`."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        highest: Suit,
        rules: HouseRules | None = None,
        number: int | None = None,
    ) -> None:
        if len(hands) != 3 or any(len(h) != 13 for h in hands) or len(stock) != 13:
            raise ValueError("a deal has three hands of 13 cards and a stock of 13")
        self.hands = [mask_of(h) for h in hands]
        if self.hands[0] | self.hands[1] | self.hands[2] | mask_of(stock) != (1 << 52) - 1:
            raise ValueError("every card must be dealt exactly once")
        self.rules = rules or _DEFAULT_RULES
        self.number = number
        self.highest = _SUITS[highest]
        self._dealt_hands = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]))
        self.initial_stock: tuple[Card, ...] = tuple(stock)
        self.stock = list(stock)
        self.stock_top = 0
        self.aside = [0, 0, 0]
        self.history: list[Action] = []
        self.phase = Phase.AUCTION
        self.to_act = 0
        # auction
        self.best: _Best | None = None
        self.passed = [False, False, False]
        self.gok_passes: list[GokPass] = []
        self.bids: list[tuple[int, str]] = []
        self.bid_games: list[Game] = []  # the game each bid stood for when it was made
        # contract
        self.declarer = -1
        self.final_bid: Bid | None = None
        self.game: Game | None = None
        self.suit_level = 0
        self.low = False
        self.trump: Suit | None = None
        self.first_trump: Suit | None = None
        self.purchases = 0
        self.repurchased = False
        self.turned: tuple[Card, ...] = ()
        self.turned_all: list[Card] = []
        self.bought = [0, 0, 0]
        self.buyers: list[int] = []
        self.open_hand = False
        self.aces_low = False
        self.laid = False
        # play
        self.trick: list[tuple[int, Card]] = []
        self.tricks_won = [0, 0, 0]
        self.tricks_played: list[tuple[int, tuple[tuple[int, Card], ...]]] = []
        self.n_tricks = 13
        self.result: DealResult | None = None
        self._decision: tuple[int, Decision] | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_cards(
        cls, deck: Sequence[Card], highest: Suit, rules: HouseRules | None = None, number: int | None = None
    ) -> Deal:
        """Deal a 52-card deck (top first) in the rulebook's order."""
        hands, stock = _deal_order(deck)
        return cls(hands, stock, highest, rules, number)

    @classmethod
    def from_number(cls, number: int, rules: HouseRules | None = None) -> Deal:
        """The deal a deal number stands for (see :func:`deal_number_decks`)."""
        dealt, spare = deal_number_decks(number)
        return cls.from_cards(dealt, spare[-1].suit, rules, number)

    def view(self, seat: int) -> View:
        """What ``seat`` may know now (see :mod:`vira_desktop.rules.view`)."""
        from .view import view_of

        return view_of(self, seat)

    def clone(self) -> Deal:
        new = Deal.__new__(Deal)
        new.__dict__ = {k: (v.copy() if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        return new

    # ------------------------------------------------------------------ queries
    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """The three hands as dealt (sorted), for records and the gök pass rule."""
        return tuple(sorted_cards(h) for h in self._dealt_hands)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    def hand(self, seat: int) -> tuple[Card, ...]:
        return sorted_cards(cards_from_mask(self.hands[seat]))

    def laid_aside(self, seat: int) -> tuple[Card, ...]:
        return sorted_cards(cards_from_mask(self.aside[seat]))

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_top

    @property
    def remaining_stock(self) -> tuple[Card, ...]:
        return tuple(self.stock[self.stock_top :])

    @property
    def first_card_played(self) -> bool:
        return bool(self.trick or self.tricks_played)

    def card_count(self) -> int:
        """All cards in hands, stock, laid aside and played (52 in a consistent state)."""
        played = len(self.trick) + 3 * len(self.tricks_played)
        masks = sum(bin(m).count("1") for m in self.hands + self.aside)
        return masks + self.stock_left + played

    def _remaining_ids(self) -> int:
        mask = 0
        for m in self.hands + self.aside:
            mask |= m
        mask |= mask_of(self.stock[self.stock_top :])
        mask |= mask_of(c for _, c in self.trick)
        for _, trick in self.tricks_played:
            mask |= mask_of(c for _, c in trick)
        return mask

    def cards_conserved(self) -> bool:
        return self.card_count() == 52 and self._remaining_ids() == (1 << 52) - 1

    # ------------------------------------------------------------------ auction helpers
    def _effective(self, bid: Bid) -> Game | str:
        """The game a bid stands for now, or the reason it is not a legal bid."""
        best = self.best
        if bid.suit_level and not (bid.game.free_trump if bid.game else bid.group in ("gask", "solo")):
            what = bid.game.name if bid.game else bid.group
            return f"{what} cannot be bid in suit (only games with a free choice of trump)"
        if bid.game is not None:
            candidates: tuple[Game, ...] = (bid.game,)
        else:
            if bid.group not in BID_GROUPS:
                return f"no such bid: {bid.group}"
            candidates, chooses_level = BID_GROUPS[bid.group]
            same_group = chooses_level and best is not None and best.bid.game is None and best.bid.group == bid.group
            if bid.higher and (not chooses_level or bid.in_forehand):
                return f"there is no 'higher {bid.group}{' in forehand' if bid.in_forehand else ''}'"
            if bid.higher and not same_group:
                return f"'higher {bid.group}' only answers an unspecified {bid.group}"
            if not bid.higher and same_group and not bid.in_forehand:
                return f"say 'higher {bid.group}' to outbid an unspecified {bid.group}"
        for g in candidates:
            if best is None:
                if bid.in_forehand:
                    return "'in forehand' only matches a bid already made"
                return g
            if bid.in_forehand:
                if (g.no, bid.suit_level) == (best.game.no, best.suit_level):
                    if bid.seat < best.seat:
                        return g
                    return "only a player in a better hand may match a bid ('in forehand')"
            elif (g.no, bid.suit_level) > (best.game.no, best.suit_level):
                return g
        if bid.in_forehand:
            return f"'in forehand' must match the standing bid ({best.bid.text if best else '-'})"
        return f"too low: the standing bid is {best.bid.text if best else '-'} ({best.game.name if best else '-'})"

    def bid_game(self, bid: Bid) -> Game:
        """The game ``bid`` would stand for now: a bid without a level stands for the
        lowest level of its group that outbids the standing bid."""
        eff = self._effective(bid)
        if isinstance(eff, str):
            raise IllegalAction(eff)
        return eff

    def _next_bidder(self, seat: int) -> int:
        for step in (1, 2):
            nxt = (seat + step) % 3
            if not self.passed[nxt]:
                return nxt
        return seat

    def _levels(self) -> list[Game]:
        bid = self.final_bid
        assert bid is not None and bid.group is not None
        prev = self.best.previous if self.best else None
        levels = []
        for g in BID_GROUPS[bid.group][0]:
            key = (g.no, bid.suit_level, 2 - self.declarer)
            if prev is None or key > prev:
                levels.append(g)
        return levels

    def _allowed_trumps(self) -> list[Suit]:
        if self.game is not None and self.game.family in (Family.VINGEL, Family.TRINGEL):
            return sorted({c.suit for c in self.turned})
        if self.suit_level == 2:
            return [self.highest]
        if self.suit_level == 1:
            return sorted([self.highest, self.highest.partner])
        return list(Suit)

    # ------------------------------------------------------------------ legality
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is not legal now."""
        reason = self._reason(action)
        if reason:
            raise IllegalAction(reason)

    def is_legal(self, action: Action) -> bool:
        return self._reason(action) is None

    def _reason(self, a: Action) -> str | None:  # noqa: C901 - one switch over the phases
        phase = self.phase
        if phase is Phase.DONE:
            return "the deal is over"
        if isinstance(a, AnnounceAces):
            if a.seat != self.declarer:
                return "only the declarer can announce four aces"
            if not self._aces_window():
                return "four aces can be announced only by a low gask declarer holding all four, before the first card"
            return None
        if a.seat != self.to_act:
            return f"it is {SEAT_NAMES[self.to_act]}'s turn, not {SEAT_NAMES[a.seat]}'s"
        g = self.game
        if phase is Phase.AUCTION:
            if isinstance(a, Pass):
                return "forehand must open the bidding" if self.best is None else None
            if isinstance(a, Bid):
                eff = self._effective(a)
                return eff if isinstance(eff, str) else None
            return "the auction is on: bid or pass"
        if phase is Phase.LEVEL:
            if not isinstance(a, ChooseLevel):
                return "choose the level of the game first"
            if a.game not in self._levels():
                names = ", ".join(x.name for x in self._levels())
                return f"the level must be one of: {names}"
            return None
        assert g is not None
        hand = self.hands[a.seat]
        if phase is Phase.KEEP:
            if not isinstance(a, Keep):
                return "choose the cards to keep"
            return self._card_set_reason(a.cards, hand, g.level, g.level, "keep")
        if phase is Phase.DISCARD:
            if not isinstance(a, Discard):
                return "discard down to 13 cards first"
            n = bin(hand).count("1") - 13
            return self._card_set_reason(a.cards, hand, n, n, "discard")
        if phase is Phase.HIGH_LOW:
            if not isinstance(a, HighLow):
                return "choose high or low"
            if a.low and self.suit_level:
                return "a gask bid in suit may not be played low"
            return None
        if phase is Phase.TRUMP:
            if not isinstance(a, ChooseTrump):
                return "choose trump"
            allowed = self._allowed_trumps()
            if a.suit not in allowed:
                return f"trump must be one of {' '.join(s.name for s in allowed)}"
            return None
        if phase is Phase.TURN:
            return None if isinstance(a, Turn) and not a.again else "turn up the top of the stock"
        if phase is Phase.BUY:
            if not isinstance(a, Buy):
                return "buy first"
            low, high = self._buy_range()
            return self._card_set_reason(a.cards, hand, low, high, "buy")
        if phase is Phase.DECIDE:
            if isinstance(a, Decide):
                return None
            if isinstance(a, Repurchase):
                if not self._can_rebuy():
                    return "no repurchase here (only once, in a buying game, after the first buy)"
                low, high = self._repurchase_range()
                return self._card_set_reason(a.cards, hand, low, high, "repurchase")
            if isinstance(a, Turn) and a.again:
                if not self._can_rebuy() or not g.family.turned_cards:
                    return "turn again only in turné, vingel or tringel, once, after the first buy"
                need = g.family.turned_cards + 1
                if self.stock_left < need:
                    return f"turning again needs at least {need} cards in the stock ({self.stock_left} left)"
                return None
            return "play or lay down"
        if phase is Phase.SET_ASIDE:
            if not isinstance(a, SetAside):
                return "set aside first"
            n = g.misere.set_aside if g.misere else 0
            return self._card_set_reason(a.cards, hand, n, n, "set aside")
        if phase is Phase.OPPONENT_BUY:
            if not isinstance(a, Buy):
                return "buy (or buy -)"
            return self._card_set_reason(a.cards, hand, 0, self.stock_left, "buy")
        if phase is Phase.PLAY:
            if not isinstance(a, PlayCard):
                return "play a card"
            if not hand >> a.card & 1:
                return f"{a.card} is not in {SEAT_NAMES[a.seat]}'s hand"
            if self.trick:
                led = self.trick[0][1].suit
                if not (1 << a.card) & SUIT_MASKS[led] and hand & SUIT_MASKS[led]:
                    return f"must follow suit in {_SUIT_WORDS[led]}"
            return None
        return "not possible now"  # pragma: no cover

    @staticmethod
    def _card_set_reason(cards: tuple[Card, ...], hand: int, low: int, high: int, verb: str) -> str | None:
        for card in cards:
            if not hand >> card & 1:
                return f"{card} is not in the hand"
        if not low <= len(cards) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            return f"{verb}: {want} cards, not {len(cards)}"
        return None

    def _buy_range(self) -> tuple[int, int]:
        g = self.game
        assert g is not None
        if g.family is Family.KOPMISAR:
            return g.level, g.level
        return len(self.turned), min(13, self.stock_left)

    def _repurchase_range(self) -> tuple[int, int]:
        g = self.game
        assert g is not None
        if g.family is Family.KOPMISAR:
            return (g.level, g.level) if self.stock_left >= g.level else (1, 0)
        return 1, min(13, self.stock_left)

    def _can_rebuy(self) -> bool:
        g = self.game
        return g is not None and g.family.is_buying and self.purchases == 1 and not self.repurchased

    def _aces_window(self) -> bool:
        if self.phase is not Phase.PLAY or self.first_card_played or self.aces_low or not self.low:
            return False
        g = self.game
        assert g is not None
        return g.aces_may_count_low(self.rules.aces_low_in_all_miseres) and self.hands[self.declarer] & _ACES == _ACES

    # ------------------------------------------------------------------ decisions
    def decision(self) -> Decision:
        """What is asked now, of whom (the table and the bots work from this)."""
        cached = self._decision
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        decision = self._make_decision()
        self._decision = (len(self.history), decision)
        return decision

    def _make_decision(self) -> Decision:
        seat, phase = self.to_act, self.phase
        if phase is Phase.DONE:
            return Decision(seat, phase, ())
        hand = self.hand(seat)
        g = self.game
        if phase is Phase.AUCTION:
            return Decision(seat, phase, tuple(self._auction_actions()))
        if phase is Phase.LEVEL:
            return Decision(seat, phase, tuple(ChooseLevel(seat, x) for x in self._levels()))
        assert g is not None
        if phase is Phase.KEEP:
            return Decision(seat, phase, (), CardChoice(Keep, seat, hand, g.level, g.level))
        if phase is Phase.DISCARD:
            n = len(hand) - 13
            return Decision(seat, phase, (), CardChoice(Discard, seat, hand, n, n))
        if phase is Phase.HIGH_LOW:
            lows = (False,) if self.suit_level else (False, True)
            return Decision(seat, phase, tuple(HighLow(seat, low) for low in lows))
        if phase is Phase.TRUMP:
            return Decision(seat, phase, tuple(ChooseTrump(seat, s) for s in self._allowed_trumps()))
        if phase is Phase.TURN:
            return Decision(seat, phase, (Turn(seat),))
        if phase is Phase.BUY:
            low, high = self._buy_range()
            return Decision(seat, phase, (), CardChoice(Buy, seat, hand, low, high))
        if phase is Phase.DECIDE:
            actions: list[Action] = [Decide(seat, True), Decide(seat, False)]
            choice = None
            if self._can_rebuy():
                low, high = self._repurchase_range()
                if low <= high:
                    choice = CardChoice(Repurchase, seat, hand, low, high)
                turn_again = Turn(seat, again=True)
                if self.is_legal(turn_again):
                    actions.append(turn_again)
            return Decision(seat, phase, tuple(actions), choice)
        if phase is Phase.SET_ASIDE:
            n = g.misere.set_aside if g.misere else 0
            return Decision(seat, phase, (), CardChoice(SetAside, seat, hand, n, n))
        if phase is Phase.OPPONENT_BUY:
            return Decision(seat, phase, (), CardChoice(Buy, seat, hand, 0, min(13, self.stock_left)))
        plays: list[Action] = [PlayCard(seat, c) for c in cards_from_mask(self._playable(seat))]
        if self._aces_window():
            plays.append(AnnounceAces(self.declarer))
        return Decision(seat, phase, tuple(plays))

    def _auction_actions(self) -> Iterator[Action]:
        """Every legal bid: games above the standing bid, the standing bid "in forehand"
        where the seat is better, and the groups bid without a level."""
        seat, best = self.to_act, self.best
        if best is not None:
            yield Pass(seat)
        floor = (0, -1) if best is None else (best.game.no, best.suit_level)
        for g in GAMES:
            if g.no < floor[0]:
                continue
            for level in _LEVELS[g.free_trump]:
                if (g.no, level) > floor:
                    yield Bid(seat, g, None, level)
        if best is not None and seat < best.seat:
            yield Bid(seat, best.game, None, best.suit_level, in_forehand=True)
        for group, (_, choose) in BID_GROUPS.items():
            for level in _LEVELS[group in ("gask", "solo")]:
                for bid in (
                    Bid(seat, None, group, level),
                    Bid(seat, None, group, level, in_forehand=True),
                    *((Bid(seat, None, group, level, higher=True),) if choose else ()),
                ):
                    if not isinstance(self._effective(bid), str):
                        yield bid

    def _playable(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0][1] // 13]
            if follow:
                return follow
        return hand

    def playable_mask(self) -> int:
        """Fast path: the cards the player on turn may play, as a bitmask (trick play only)."""
        return self._playable(self.to_act)

    def play_unchecked(self, card: int) -> None:
        """Fast path: the player on turn plays ``card`` (an index); no check, no events."""
        seat = self.to_act
        self.history.append(_PLAYS[seat][card])
        self._play(seat, _CARD[card], None)

    def legal_actions(self) -> list[Action]:
        """Every legal action. Card-set choices are enumerated in full: use
        :meth:`decision` where they may be many (discarding 13 of 26)."""
        d = self.decision()
        out = list(d.actions)
        if d.choice is not None:
            out.extend(d.choice.combinations())
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action) -> list[Event]:
        """Check, then apply ``action``; returns the events it caused."""
        self.check(action)
        return self.apply_unchecked(action)

    def apply_unchecked(self, a: Action) -> list[Event]:
        """Apply a legal action without checking it (the fast path for search)."""
        self.history.append(a)
        ev: list[Event] = []
        if isinstance(a, PlayCard):
            self._play(a.seat, a.card, ev)
        elif isinstance(a, Bid):
            self._bid(a, ev)
        elif isinstance(a, Pass):
            self._pass(a.seat, ev)
        elif isinstance(a, ChooseLevel):
            ev.append(LevelChosen(a.seat, a.game))
            self._start_contract(a.game, ev)
        elif isinstance(a, Keep):
            kept = mask_of(a.cards)
            laid = self.hands[a.seat] & ~kept
            self.aside[a.seat] |= laid
            ev.append(Kept(a.seat, a.cards, sorted_cards(cards_from_mask(laid))))
            self.hands[a.seat] = kept
            self._take_stock(ev)
        elif isinstance(a, Discard):
            self._lay_aside(a.seat, a.cards)
            ev.append(Discarded(a.seat, a.cards))
            g = self.game
            assert g is not None
            if g.family is Family.GOK:
                self.phase = Phase.DECIDE
            elif g.can_play_low:
                self.phase = Phase.HIGH_LOW
            else:
                self.phase = Phase.TRUMP
        elif isinstance(a, HighLow):
            self.low = a.low
            ev.append(PlayedHighLow(a.seat, a.low))
            self.phase = Phase.DECIDE if a.low else Phase.TRUMP
        elif isinstance(a, ChooseTrump):
            self._set_trump(a.suit, ev)
            g = self.game
            assert g is not None
            self.phase = Phase.BUY if g.family.is_buying else Phase.DECIDE
        elif isinstance(a, Turn):
            self._turn(a.seat, a.again, ev)
        elif isinstance(a, Buy):
            self._buy(a.seat, a.cards, ev)
        elif isinstance(a, Repurchase):
            self.repurchased = True
            self._buy(a.seat, a.cards, ev)
        elif isinstance(a, Decide):
            ev.append(Decided(a.seat, a.play))
            if a.play:
                self._after_play_decision(ev)
            else:
                self.laid = True
                self._finish(ev)
        elif isinstance(a, SetAside):
            self._lay_aside(a.seat, a.cards)
            ev.append(SetAsideDone(a.seat, a.cards))
            self._after_set_aside(ev)
        elif isinstance(a, AnnounceAces):
            self.aces_low = True
            ev.append(AcesAnnounced(a.seat))
        return ev

    def _bid(self, a: Bid, ev: list[Event]) -> None:
        eff = self._effective(a)
        assert not isinstance(eff, str), eff
        if self.best is not None and self.best.game is _GOK and self.rules.gok_reentry:
            for p in self.gok_passes:
                self.passed[p.seat] = False
        self.gok_passes = []
        previous = self.best.key if self.best else None
        self.best = _Best(eff, a.suit_level, a.seat, a, previous)
        self.bids.append((a.seat, a.text))
        self.bid_games.append(eff)
        ev.append(BidMade(a.seat, a.text, eff))
        self.to_act = self._next_bidder(a.seat)

    def _pass(self, seat: int, ev: list[Event]) -> None:
        self.passed[seat] = True
        self.bids.append((seat, "pass"))
        ev.append(Passed(seat))
        best = self.best
        assert best is not None
        if best.game is _GOK:
            needed = 2 if not self.gok_passes else 1
            met = low_holding_suits(self.dealt[seat]) >= needed
            self.gok_passes.append(GokPass(seat, needed, met))
        if sum(self.passed) < 2:
            self.to_act = self._next_bidder(seat)
            return
        self.declarer = best.seat
        self.final_bid = best.bid
        self.suit_level = best.suit_level
        self.to_act = best.seat
        chosen = best.bid.game is None and BID_GROUPS[best.bid.group or ""][1]
        ev.append(ContractWon(best.seat, best.bid.text, None if chosen else best.game, best.suit_level))
        if chosen:
            self.phase = Phase.LEVEL
        else:
            self._start_contract(best.game, ev)

    def _start_contract(self, g: Game, ev: list[Event]) -> None:
        self.game = g
        self.to_act = self.declarer
        fam = g.family
        self.low = g.is_low
        if fam in (Family.BUYING, Family.SOLO):
            self.phase = Phase.TRUMP
        elif fam.turned_cards:
            self.phase = Phase.TURN
        elif fam is Family.KOPMISAR:
            self.phase = Phase.BUY
        elif fam is Family.GASK:
            self.phase = Phase.KEEP
        elif fam in (Family.VIRA, Family.GOK):
            self._take_stock(ev)
        else:  # solo misères
            self.phase = Phase.DECIDE

    def _take_stock(self, ev: list[Event]) -> None:
        taken = tuple(self.stock[self.stock_top :])
        self.stock_top = len(self.stock)
        self.hands[self.declarer] |= mask_of(taken)
        ev.append(StockTaken(self.declarer, taken))
        self.phase = Phase.DISCARD

    def _lay_aside(self, seat: int, cards: tuple[Card, ...]) -> None:
        m = mask_of(cards)
        self.hands[seat] &= ~m
        self.aside[seat] |= m

    def _set_trump(self, suit: Suit, ev: list[Event]) -> None:
        self.trump = suit
        ev.append(TrumpChosen(self.declarer, suit, suit_class(suit, self.highest)))

    def _turn(self, seat: int, again: bool, ev: list[Event]) -> None:
        g = self.game
        assert g is not None
        k = g.family.turned_cards
        self.turned = tuple(self.stock[self.stock_top : self.stock_top + k])
        self.turned_all.extend(self.turned)
        if again:
            self.repurchased = True
        ev.append(CardsTurned(seat, self.turned, again))
        if g.family is Family.TURNE:
            self._set_trump(self.turned[0].suit, ev)
            self.phase = Phase.BUY
        else:
            self.phase = Phase.TRUMP

    def _buy(self, seat: int, cards: tuple[Card, ...], ev: list[Event]) -> None:
        n = len(cards)
        self._lay_aside(seat, cards)
        drawn = tuple(self.stock[self.stock_top : self.stock_top + n])
        self.stock_top += n
        self.hands[seat] |= mask_of(drawn)
        self.bought[seat] += n
        self.turned = ()
        declarer_buy = self.phase is not Phase.OPPONENT_BUY
        ev.append(Bought(seat, cards, drawn, declarer_buy and self.purchases >= 1, self.stock_left))
        if declarer_buy:
            if self.purchases == 0:
                self.first_trump = self.trump
            self.purchases += 1
            self.phase = Phase.DECIDE
            return
        self._next_opponent_buyer(ev)

    def _after_play_decision(self, ev: list[Event]) -> None:
        g = self.game
        assert g is not None
        if self.low and g.misere and g.misere.set_aside:
            self.phase = Phase.SET_ASIDE
            return
        self._after_set_aside(ev)

    def _open(self, ev: list[Event]) -> None:
        if not self.open_hand:
            self.open_hand = True
            ev.append(HandOpened(self.declarer, self.hand(self.declarer)))

    def _after_set_aside(self, ev: list[Event]) -> None:
        g = self.game
        assert g is not None
        if g.royale:
            self._open(ev)
        if g.family.is_buying or g.family.is_solo:
            self.buyers = [(self.declarer + 1) % 3, (self.declarer + 2) % 3]
            self._next_opponent_buyer(ev)
        else:
            self._start_play(ev)

    def _next_opponent_buyer(self, ev: list[Event]) -> None:
        if self.buyers and self.stock_left > 0:
            self.to_act = self.buyers.pop(0)
            self.phase = Phase.OPPONENT_BUY
        else:
            self.buyers = []
            self._start_play(ev)

    def _start_play(self, ev: list[Event]) -> None:
        g = self.game
        assert g is not None
        if self.low and g.misere and g.misere.open:
            self._open(ev)
        self.phase = Phase.PLAY
        self.to_act = 0
        self.n_tricks = bin(self.hands[self.declarer]).count("1")

    def _play(self, seat: int, card: Card, ev: list[Event] | None) -> None:
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append((seat, card))
        trick_no = len(self.tricks_played) + 1
        if ev is not None:
            ev.append(CardPlayed(seat, card, trick_no))
        if len(trick) < 3:
            self.to_act = (seat + 1) % 3
            return
        winner = self._trick_winner()
        cards = tuple(trick)
        self.tricks_played.append((winner, cards))
        self.tricks_won[winner] += 1
        self.trick = []
        self.to_act = winner
        if ev is not None:
            ev.append(TrickWon(winner, cards, trick_no))
        if trick_no == self.n_tricks:
            self._finish(ev if ev is not None else [])

    def _trick_winner(self) -> int:
        led = self.trick[0][1] // 13
        trump = -1 if self.trump is None or self.low else int(self.trump)
        best_seat, best_val = -1, -100
        for seat, card in self.trick:
            suit, rank = card // 13, card % 13
            if self.aces_low and rank == 12:
                rank = -1
            val = rank + 100 if suit == trump else rank if suit == led else -50
            if val > best_val:
                best_seat, best_val = seat, val
        return best_seat

    def _finish(self, ev: list[Event]) -> None:
        g = self.game
        assert g is not None
        self.result = score(
            game=g,
            declarer=self.declarer,
            highest=self.highest,
            suit_level=self.suit_level,
            low=self.low,
            trump=self.trump,
            first_trump=self.first_trump,
            repurchased=self.repurchased,
            laid=self.laid,
            tricks=(self.tricks_won[0], self.tricks_won[1], self.tricks_won[2]),
            gok_passes=tuple(self.gok_passes),
            pulla_table=self.rules.pulla,
        )
        self.phase = Phase.DONE
        ev.extend(self.result.payments)
        ev.append(DealScored(self.result))


_PLAYS = tuple(tuple(PlayCard(seat, c) for c in _CARD) for seat in range(3))
_SUIT_WORDS = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}
