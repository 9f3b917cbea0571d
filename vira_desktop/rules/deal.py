"""One deal of Vira as a state machine: auction, every game's procedure, trick play.

Seats are numbered from forehand (:class:`~.seat.Seat`): forehand (förhand),
middle-hand (mellanhand), rear-hand (efterhand, the dealer). Play goes
forehand → middle-hand → rear-hand.

Each phase has one handler (as OpenSpiel's games do): what is legal there, what
is asked, and what an action does all come from :data:`_BY_PHASE`. One legality
source: :meth:`Deal.check` gives the reason an action is illegal,
:meth:`Deal.is_legal` and :meth:`Deal.legal_actions` build on it, and
:meth:`Deal.apply` checks before it changes anything, so an illegal action
leaves the state untouched. :meth:`Deal.apply_unchecked` is the fast path.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

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
    sorted_mask,
)
from .cards import Card, Suit, cards_from_mask, mask_of, suit_class, trumps_at
from .contract import Contract
from .decision import CardChoice, Decision, Phase
from .errors import IllegalAction, Refusal
from .events import (
    DEAL_POSITIONS,
    AcesAnnounced,
    BidMade,
    Bought,
    CardPlayed,
    CardsTurned,
    ContractWon,
    DealScored,
    DealStarted,
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
from .seat import SEATS, Seat
from .tricks import TrickPlay
from .view import View

__all__ = [
    "SEAT_NAMES",
    "CardChoice",
    "Deal",
    "Decision",
    "Phase",
    "card_refusal",
    "cut",
    "cut_point",
    "deal_number_decks",
]

SEAT_NAMES = tuple(s.label for s in Seat)
_CARD = tuple(Card(i) for i in range(52))
_SUITS = tuple(Suit)
_DEFAULT_RULES = HouseRules()
_LEVELS = {False: (0,), True: (0, 1, 2)}
_ACES = mask_of(Card(s * 13 + 12) for s in range(4))
_GOK = next(g for g in GAMES if g.family is Family.GOK)
_ROYALE = "solo grande misär ouverte royale"


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


def _effective(best: _Best | None, bid: Bid) -> Game | str:
    """The game ``bid`` stands for over the standing bid ``best``, or the reason it is not a legal bid."""
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
    if best is None:
        return "too low"
    stands = f" ({best.game.name})" if best.game.name != best.bid.text else ""  # what a bid without a level stands for
    return f"too low: the standing bid is {best.bid.text}{stands}"


MIN_CUT = 4  # cards in each part of a cut at least


def deal_number_decks(number: int) -> tuple[list[Card], list[Card]]:
    """The two decks of a deal number: the dealt deck (top first) and the spare deck.

    The high 24 bits seed the shuffle of the deck to be dealt and the low 24 bits the
    spare deck's, whose bottom card sets the highest suit. In a session, a deal's spare
    deck is the next deal's deck, so the numbers chain. Before dealing, the deck is cut
    (the rulebook: the dealer "gives it to the player on his right for cutting, and
    deals"), so the spare deck's visible bottom card is not the last card of the next
    stock. The cut point is drawn from the whole deal number, so a number still stands
    for one deal; the rulebook gives no minimum, so the common rule of card games is
    followed (as in bridge's Law 6): at least :data:`MIN_CUT` cards in each part.
    """
    if not 0 <= number < 1 << 48:
        raise ValueError("a deal number is a whole number from 0 to 281474976710655")
    return cut(_shuffled(number >> 24), cut_point(number)), _shuffled(number & 0xFFFFFF)


def cut_point(number: int) -> int:
    """Where the deck of deal ``number`` is cut: how many cards are lifted off the top."""
    return random.Random(number).randint(MIN_CUT, 52 - MIN_CUT)


def cut(deck: Sequence[Card], at: int) -> list[Card]:
    """The deck cut: the top ``at`` cards go under the rest."""
    if not MIN_CUT <= at <= len(deck) - MIN_CUT:
        raise ValueError(f"a cut leaves at least {MIN_CUT} cards in each part")
    return [*deck[at:], *deck[:at]]


def _shuffled(seed: int) -> list[Card]:
    """The deck shuffled by ``seed``: cards ordered by 52 seeded random keys."""
    draw = random.Random(seed).random
    keys = [draw() for _ in range(52)]
    return sorted(_CARD, key=keys.__getitem__)


def _deal_order(deck: Sequence[Card]) -> tuple[list[list[Card]], list[Card]]:
    """The rulebook's dealing order (:data:`~.events.DEAL_POSITIONS`): 4 cards each from
    forehand, then three rounds of 3; the last 13 are the stock."""
    hands = [[deck[p] for p in DEAL_POSITIONS[seat]] for seat in range(3)]
    return hands, [deck[p] for p in DEAL_POSITIONS[3]]


# (deck position, source, index in it), top first: source 0..2 a hand as dealt, 3 the stock
_DECK_SOURCE = tuple(sorted((p, s, k) for s, ps in enumerate(DEAL_POSITIONS) for k, p in enumerate(ps)))


def _dealt_deck(hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> tuple[Card, ...]:
    """The deck (top first) that the rulebook's dealing order turns into ``hands`` and ``stock``."""
    sources = (*hands, stock)
    return tuple(sources[s][k] for _, s, k in _DECK_SOURCE)


class Deal:
    """The state of one deal. Build with :meth:`from_cards` or :meth:`from_number`."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        highest: Suit,
        rules: HouseRules | None = None,
        number: int | None = None,
        spare_bottom: Card | None = None,
    ) -> None:
        if len(hands) != 3 or any(len(h) != 13 for h in hands) or len(stock) != 13:
            raise ValueError("a deal has three hands of 13 cards and a stock of 13")
        self.hands = [mask_of(h) for h in hands]
        if self.hands[0] | self.hands[1] | self.hands[2] | mask_of(stock) != (1 << 52) - 1:
            raise ValueError("every card must be dealt exactly once")
        self.rules = rules or _DEFAULT_RULES
        self.number = number
        self.highest = _SUITS[highest]
        self.spare_bottom = spare_bottom  # the spare deck's visible bottom card, where known
        self._dealt_hands = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]))
        self.initial_stock: tuple[Card, ...] = tuple(stock)
        self.stock = list(stock)
        self.stock_top = 0
        self.aside = [0, 0, 0]
        self.history: list[Action] = []
        self.phase = Phase.AUCTION
        self.to_act: Seat = Seat.FOREHAND
        # auction
        self.best: _Best | None = None
        self.passed = [False, False, False]
        self.gok_passes: list[GokPass] = []
        self.bids: list[tuple[int, str]] = []
        self.bid_games: list[Game] = []  # the game each bid stood for when it was made
        # contract (set when the auction ends; the game once its level is fixed)
        self.declarer: Seat | None = None
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
        self.buyers: list[Seat] = []
        self.open_hand = False
        self.aces_low = False
        self.laid = False
        # play
        self.trick: list[tuple[int, Card]] = []
        self.tricks_won = [0, 0, 0]
        self._core: TrickPlay | None = None  # plays the tricks on the lists above (made at need)
        self.tricks_played: list[tuple[int, tuple[tuple[int, Card], ...]]] = []
        self.n_tricks = 13
        self.result: DealResult | None = None
        self._decision: tuple[int, Decision] | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_cards(
        cls,
        deck: Sequence[Card],
        highest: Suit,
        rules: HouseRules | None = None,
        number: int | None = None,
        spare_bottom: Card | None = None,
    ) -> Deal:
        """Deal a 52-card deck (top first) in the rulebook's order."""
        hands, stock = _deal_order(deck)
        return cls(hands, stock, highest, rules, number, spare_bottom)

    @classmethod
    def from_number(cls, number: int, rules: HouseRules | None = None) -> Deal:
        """The deal a deal number stands for (see :func:`deal_number_decks`)."""
        dealt, spare = deal_number_decks(number)
        return cls.from_cards(dealt, spare[-1].suit, rules, number, spare[-1])

    def started(self) -> DealStarted:
        """The event of the deal itself: the deck in dealing order, so no one else shuffles."""
        deck = _dealt_deck(self._dealt_hands, self.initial_stock)
        return DealStarted(self.number, deck, self.highest, self.spare_bottom)

    def as_dealt(self) -> Deal:
        """This deal as it was dealt, before any action (to tell its story again)."""
        return Deal(self._dealt_hands, self.initial_stock, self.highest, self.rules, self.number, self.spare_bottom)

    def clone(self) -> Deal:
        new = Deal.__new__(Deal)
        new.__dict__ = {k: (v.copy() if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        new._core = None  # made again over the copied lists when asked
        return new

    # ------------------------------------------------------------------ queries
    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """The three hands as dealt (sorted), for records and the gök pass rule."""
        return tuple(sorted_cards(h) for h in self._dealt_hands)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def contract(self) -> Contract | None:
        """The contract as it stands (``None`` until the game and its level are fixed)."""
        declarer, g = self.declarer, self.game
        if declarer is None or g is None:
            return None
        trump = None if self.low else self.trump
        klass = None if trump is None else suit_class(trump, self.highest)
        return Contract(declarer, g, self.suit_level, self.low, trump, klass)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return sorted_mask(self.hands[seat])

    def laid_aside(self, seat: int) -> tuple[Card, ...]:
        return sorted_mask(self.aside[seat])

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

    # ------------------------------------------------------------------ what a seat may see
    def open_hands_for(self, seat: int | None) -> dict[int, tuple[Card, ...]]:
        """The hands ``seat`` (``None``: everyone) sees face up: the declarer's in an open
        misère or royale and, under the house rule, the other defender's against a royale
        (rulebook "Solo Games"); when the deal is over, every hand still held."""
        out: dict[int, tuple[Card, ...]] = {}
        if self.phase is Phase.DONE:
            return {s: self.hand(s) for s in SEATS if s != seat and self.hands[s]}
        declarer = self.declarer
        if declarer is None:
            return out
        if self.open_hand and declarer != seat:
            out[declarer] = self.hand(declarer)
        g = self.game
        if (
            self.rules.royale_defenders_see_each_other
            and g is not None
            and g.name == _ROYALE
            and seat is not None
            and seat != declarer
            and self.phase in (Phase.OPPONENT_BUY, Phase.PLAY)
        ):
            partner = 3 - seat - declarer
            out[partner] = self.hand(partner)
        return out

    def public_view(self) -> View:
        """What everyone at the table sees: no hand, no decision (for a player sitting out)."""
        return self._view(self.to_act, spectator=True)

    def view(self, seat: int) -> View:
        """What ``seat`` may know now (an information state: see :mod:`.view`)."""
        return self._view(seat, spectator=False)

    def _view(self, seat: int, spectator: bool) -> View:
        decision = None
        if not self.is_over and not spectator:
            d = self.decision()
            mine = tuple(a for a in d.actions if a.seat == seat)  # never another seat's options
            choice = d.choice if d.seat == seat else None
            if mine or choice:
                decision = Decision(seat, d.phase, mine, choice, optional=d.seat != seat)
        hands, aside = self.hands, self.aside
        return View(
            seat=SEATS[seat],
            phase=self.phase,
            to_act=self.to_act,
            highest=self.highest,
            hand=() if spectator else self.hand(seat),
            own_laid_aside=() if self.first_card_played or spectator else self.laid_aside(seat),
            hand_sizes=(hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count()),
            open_hands=self.open_hands_for(None if spectator else seat),
            bids=tuple(self.bids),
            declarer=self.declarer,
            contract=self.contract,
            game=self.game,
            suit_level=self.suit_level,
            low=self.low,
            trump=self.trump,
            turned=tuple(self.turned_all),
            stock_turned=self.turned,
            bought=(self.bought[0], self.bought[1], self.bought[2]),
            repurchased=self.repurchased,
            stock_left=self.stock_left,
            aside_sizes=(aside[0].bit_count(), aside[1].bit_count(), aside[2].bit_count()),
            trick=tuple(self.trick),
            tricks=tuple(self.tricks_played),
            tricks_won=(self.tricks_won[0], self.tricks_won[1], self.tricks_won[2]),
            aces_low=self.aces_low,
            decision=decision,
            result=self.result,
            rules=self.rules,
            spectator=spectator,
        )

    # ------------------------------------------------------------------ auction helpers
    def _effective(self, bid: Bid) -> Game | str:
        """The game a bid stands for now, or the reason it is not a legal bid."""
        return _effective(self.best, bid)

    @property
    def standing_game(self) -> Game | None:
        """The game the standing bid stands for (``None`` before the first bid)."""
        return self.best.game if self.best is not None else None

    def bid_game(self, bid: Bid) -> Game:
        """The game ``bid`` would stand for now: a bid without a level stands for the
        lowest level of its group that outbids the standing bid."""
        eff = self._effective(bid)
        if isinstance(eff, str):
            raise IllegalAction(eff)
        return eff

    def _next_bidder(self, seat: int) -> Seat:
        after = SEATS[seat].next
        for nxt in (after, after.next):
            if not self.passed[nxt]:
                return nxt
        return SEATS[seat]

    def _levels(self) -> list[Game]:
        bid, declarer = self.final_bid, self._declarer()
        assert bid is not None and bid.group is not None
        prev = self.best.previous if self.best else None
        levels = []
        for g in BID_GROUPS[bid.group][0]:
            key = (g.no, bid.suit_level, 2 - declarer)
            if prev is None or key > prev:
                levels.append(g)
        return levels

    def _allowed_trumps(self) -> list[Suit]:
        if self.game is not None and self.game.family in (Family.VINGEL, Family.TRINGEL):
            return sorted({c.suit for c in self.turned})
        return list(trumps_at(self.suit_level, self.highest))

    def _declarer(self) -> Seat:
        """The declarer (every phase after the auction has one)."""
        if self.declarer is None:
            raise IllegalAction("the auction is not over")
        return self.declarer

    def _game(self) -> Game:
        """The game (every phase after the level is fixed has one)."""
        if self.game is None:
            raise IllegalAction("the game is not fixed yet")
        return self.game

    # ------------------------------------------------------------------ legality
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is not legal now."""
        reason = self._reason(action)
        if reason:
            raise IllegalAction(reason)

    def is_legal(self, action: Action) -> bool:
        return self._reason(action) is None

    def _reason(self, a: Action) -> str | None:
        if self.phase is Phase.DONE:
            return Refusal("deal_over", "the deal is over")
        if isinstance(a, AnnounceAces):
            if a.seat != self.declarer:
                return "only the declarer can announce four aces"
            if not self._aces_window():
                return "four aces can be announced only by a low gask declarer holding all four, before the first card"
            return None
        if a.seat != self.to_act:
            said = f"it is {SEAT_NAMES[self.to_act]}'s turn, not {SEAT_NAMES[a.seat]}'s"
            return Refusal("not_your_turn", said, seat=int(self.to_act))
        return _HANDLERS[self.phase._value_].reason(self, a)

    @staticmethod
    def _card_set_reason(cards: tuple[Card, ...], hand: int, low: int, high: int, verb: str) -> str | None:
        for card in cards:
            if not hand >> card & 1:
                return Refusal("not_in_hand", f"{card} is not in the hand", card=str(card))
        if not low <= len(cards) <= high:
            want = str(low) if low == high else f"{low} to {high}"
            return Refusal("count", f"{verb}: {want} cards, not {len(cards)}", low=low, high=high, got=len(cards))
        return None

    def _buy_range(self) -> tuple[int, int]:
        g = self._game()
        if g.family is Family.KOPMISAR:
            return g.level, g.level
        return len(self.turned), min(13, self.stock_left)

    def _repurchase_range(self) -> tuple[int, int]:
        g = self._game()
        if g.family is Family.KOPMISAR:
            return (g.level, g.level) if self.stock_left >= g.level else (1, 0)
        return 1, min(13, self.stock_left)

    def _can_rebuy(self) -> bool:
        g = self.game
        return g is not None and g.family.is_buying and self.purchases == 1 and not self.repurchased

    def _aces_window(self) -> bool:
        if self.phase is not Phase.PLAY or self.first_card_played or self.aces_low or not self.low:
            return False
        return (
            self._game().aces_may_count_low(self.rules.aces_low_in_all_miseres)
            and self.hands[self._declarer()] & _ACES == _ACES
        )

    # ------------------------------------------------------------------ decisions
    def decision(self) -> Decision:
        """What is asked now, of whom (the table and the bots work from this)."""
        cached = self._decision
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        seat = self.to_act
        if self.phase is Phase.DONE:
            decision = Decision(seat, Phase.DONE, ())
        else:
            decision = _HANDLERS[self.phase._value_].decision(self, seat)
        self._decision = (len(self.history), decision)
        return decision

    def _trick_play(self) -> TrickPlay:
        """The trick-play core over this deal's hands, trick and tricks (a clone gets its own)."""
        core = self._core
        if core is None:
            trump = -1 if self.low or self.trump is None else int(self.trump)
            core = self._core = TrickPlay(
                self.hands, trump, self.to_act, self.aces_low, self.trick, self.tricks_played, self.tricks_won
            )
        return core

    def _playable(self, seat: int) -> int:
        assert seat == self.to_act
        return self._trick_play().legal()

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
        _HANDLERS[self.phase._value_].apply(self, a, ev)
        return ev

    # ------------------------------------------------------------------ what actions do
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
        declarer = SEATS[best.seat]
        self.declarer = declarer
        self.final_bid = best.bid
        self.suit_level = best.suit_level
        self.to_act = declarer
        chosen = best.bid.game is None and BID_GROUPS[best.bid.group or ""][1]
        ev.append(ContractWon(declarer, best.bid.text, None if chosen else best.game, best.suit_level))
        if chosen:
            self.phase = Phase.LEVEL
        else:
            self._start_contract(best.game, ev)

    def _start_contract(self, g: Game, ev: list[Event]) -> None:
        self.game = g
        self.to_act = self._declarer()
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
        declarer = self._declarer()
        taken = tuple(self.stock[self.stock_top :])
        self.stock_top = len(self.stock)
        self.hands[declarer] |= mask_of(taken)
        ev.append(StockTaken(declarer, taken))
        self.phase = Phase.DISCARD

    def _lay_aside(self, seat: int, cards: tuple[Card, ...]) -> None:
        m = mask_of(cards)
        self.hands[seat] &= ~m
        self.aside[seat] |= m

    def _set_trump(self, suit: Suit, ev: list[Event]) -> None:
        self.trump = suit
        ev.append(TrumpChosen(self._declarer(), suit, suit_class(suit, self.highest)))

    def _turn(self, seat: int, again: bool, ev: list[Event]) -> None:
        g = self._game()
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

    def _draw(self, seat: int, cards: tuple[Card, ...], ev: list[Event], repurchase: bool) -> None:
        """Lay ``cards`` aside and draw as many from the top of the stock."""
        n = len(cards)
        self._lay_aside(seat, cards)
        drawn = tuple(self.stock[self.stock_top : self.stock_top + n])
        self.stock_top += n
        self.hands[seat] |= mask_of(drawn)
        self.bought[seat] += n
        self.turned = ()
        ev.append(Bought(seat, cards, drawn, repurchase, self.stock_left))

    def _declarer_buys(self, seat: int, cards: tuple[Card, ...], ev: list[Event]) -> None:
        self._draw(seat, cards, ev, repurchase=self.purchases >= 1)
        if self.purchases == 0:
            self.first_trump = self.trump
        self.purchases += 1
        self.phase = Phase.DECIDE

    def _after_play_decision(self, ev: list[Event]) -> None:
        g = self._game()
        if self.low and g.misere and g.misere.set_aside:
            self.phase = Phase.SET_ASIDE
            return
        self._after_set_aside(ev)

    def _open(self, ev: list[Event]) -> None:
        if not self.open_hand:
            self.open_hand = True
            declarer = self._declarer()
            ev.append(HandOpened(declarer, self.hand(declarer)))

    def _after_set_aside(self, ev: list[Event]) -> None:
        g = self._game()
        if g.royale:
            self._open(ev)
        if g.family.is_buying or g.family.is_solo:
            self.buyers = list(self._declarer().others())
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
        g = self._game()
        if self.low and g.misere and g.misere.open:
            self._open(ev)
        self.phase = Phase.PLAY
        self.to_act = Seat.FOREHAND
        self.n_tricks = bin(self.hands[self._declarer()]).count("1")

    def _play(self, seat: int, card: Card, ev: list[Event] | None) -> None:
        trick_no = len(self.tricks_played) + 1
        core = self._trick_play()
        assert seat == core.to_act, "the core plays for the seat on turn"
        winner = core.push(card)
        self.to_act = core.to_act
        if ev is not None:
            ev.append(CardPlayed(seat, card, trick_no))
        if winner is None:
            return
        cards = self.tricks_played[-1][1]
        if ev is not None:
            ev.append(TrickWon(winner, cards, trick_no))
        if trick_no == self.n_tricks:
            self._finish(ev if ev is not None else [])

    def _finish(self, ev: list[Event]) -> None:
        self.result = self.settled((self.tricks_won[0], self.tricks_won[1], self.tricks_won[2]))
        self.phase = Phase.DONE
        ev.extend(self.result.payments)
        ev.append(DealScored(self.result))

    def settled(self, tricks: tuple[int, int, int]) -> DealResult:
        """What the deal pays if its trick play ends with ``tricks`` won by each seat (or,
        laid down, as it is): the state is not changed (a search's way to value a line)."""
        return score(
            game=self._game(),
            declarer=self._declarer(),
            highest=self.highest,
            suit_level=self.suit_level,
            low=self.low,
            trump=self.trump,
            first_trump=self.first_trump,
            repurchased=self.repurchased,
            laid=self.laid,
            tricks=tricks,
            gok_passes=tuple(self.gok_passes),
            pulla_table=self.rules.pulla,
        )


# ---------------------------------------------------------------------- one handler per phase
class _PhaseRules:
    """One phase of a deal: what is legal (``reason``), what is asked (``decision``) and
    what a legal action does (``apply``). ``reason`` runs after the seat-on-turn check."""

    def reason(self, d: Deal, a: Action) -> str | None:
        raise NotImplementedError

    def decision(self, d: Deal, seat: Seat) -> Decision:
        raise NotImplementedError

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        raise NotImplementedError


class _Auction(_PhaseRules):
    """Bids in the bid table's order; forehand must open (rulebook "The Bidding")."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if isinstance(a, Pass):
            return "forehand must open the bidding" if d.best is None else None
        if isinstance(a, Bid):
            eff = d._effective(a)
            return eff if isinstance(eff, str) else None
        return "the auction is on: bid or pass"

    def decision(self, d: Deal, seat: Seat) -> Decision:
        return Decision(seat, Phase.AUCTION, tuple(self._actions(d, seat)))

    @staticmethod
    def _actions(d: Deal, seat: Seat) -> tuple[Action, ...]:
        return _legal_bids(seat, d.best)

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        if isinstance(a, Bid):
            d._bid(a, ev)
        else:
            d._pass(a.seat, ev)


@lru_cache(maxsize=4096, typed=True)  # typed: a Seat's bids keep the Seat
def _legal_bids(seat: int, best: _Best | None) -> tuple[Action, ...]:
    """Every legal bid over ``best``, in the bid table's order (the same few standing bids
    come up again and again: the tuple is made once)."""
    return tuple(_bids(seat, best))


def _bids(seat: int, best: _Best | None) -> Iterator[Action]:
    """Every legal bid: games above the standing bid, the standing bid "in forehand"
    where the seat is better, and the groups bid without a level."""
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
                if not isinstance(_effective(best, bid), str):
                    yield bid


class _Level(_PhaseRules):
    """The declarer of a bid without a level (gask, köpmisär, solo) fixes it."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, ChooseLevel):
            return "choose the level of the game first"
        if a.game not in d._levels():
            return f"the level must be one of: {', '.join(x.name for x in d._levels())}"
        return None

    def decision(self, d: Deal, seat: Seat) -> Decision:
        return Decision(seat, Phase.LEVEL, tuple(ChooseLevel(seat, x) for x in d._levels()))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, ChooseLevel)
        ev.append(LevelChosen(a.seat, a.game))
        d._start_contract(a.game, ev)


class _Keep(_PhaseRules):
    """Gask: keep the game's number of cards, lay the rest aside, take the whole stock."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, Keep):
            return "choose the cards to keep"
        level = d._game().level
        return d._card_set_reason(a.cards, d.hands[a.seat], level, level, "keep")

    def decision(self, d: Deal, seat: Seat) -> Decision:
        level = d._game().level
        return Decision(seat, Phase.KEEP, (), CardChoice(Keep, seat, d.hand(seat), level, level))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, Keep)
        kept = mask_of(a.cards)
        laid = d.hands[a.seat] & ~kept
        d.aside[a.seat] |= laid
        ev.append(Kept(a.seat, a.cards, sorted_cards(cards_from_mask(laid))))
        d.hands[a.seat] = kept
        d._take_stock(ev)


class _Discard(_PhaseRules):
    """Gask, vira, gök: back to 13 cards after taking the stock."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, Discard):
            return "discard down to 13 cards first"
        hand = d.hands[a.seat]
        n = bin(hand).count("1") - 13
        return d._card_set_reason(a.cards, hand, n, n, "discard")

    def decision(self, d: Deal, seat: Seat) -> Decision:
        hand = d.hand(seat)
        n = len(hand) - 13
        return Decision(seat, Phase.DISCARD, (), CardChoice(Discard, seat, hand, n, n))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, Discard)
        d._lay_aside(a.seat, a.cards)
        ev.append(Discarded(a.seat, a.cards))
        g = d._game()
        if g.family is Family.GOK:
            d.phase = Phase.DECIDE
        elif g.can_play_low:
            d.phase = Phase.HIGH_LOW
        else:
            d.phase = Phase.TRUMP


class _HighLow(_PhaseRules):
    """Gask 0-4: play high (for tricks, with trump) or low (misère)."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, HighLow):
            return "choose high or low"
        if a.low and not d._game().plays_low(d.suit_level):
            return "a gask bid in suit may not be played low"
        return None

    def decision(self, d: Deal, seat: Seat) -> Decision:
        lows = (False, True) if d._game().plays_low(d.suit_level) else (False,)
        return Decision(seat, Phase.HIGH_LOW, tuple(HighLow(seat, low) for low in lows))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, HighLow)
        d.low = a.low
        ev.append(PlayedHighLow(a.seat, a.low))
        d.phase = Phase.DECIDE if a.low else Phase.TRUMP


class _Trump(_PhaseRules):
    """The declarer names trump: any suit, the bid's suits, or one of the turned cards'."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, ChooseTrump):
            return "choose trump"
        allowed = d._allowed_trumps()
        if a.suit not in allowed:
            return f"trump must be one of {' '.join(s.name for s in allowed)}"
        return None

    def decision(self, d: Deal, seat: Seat) -> Decision:
        return Decision(seat, Phase.TRUMP, tuple(ChooseTrump(seat, s) for s in d._allowed_trumps()))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, ChooseTrump)
        d._set_trump(a.suit, ev)
        d.phase = Phase.BUY if d._game().family.is_buying else Phase.DECIDE


class _Turn(_PhaseRules):
    """Turné, vingel, tringel: turn up the top one, two or three cards of the stock."""

    def reason(self, d: Deal, a: Action) -> str | None:
        return None if isinstance(a, Turn) and not a.again else "turn up the top of the stock"

    def decision(self, d: Deal, seat: Seat) -> Decision:
        return Decision(seat, Phase.TURN, (Turn(seat),))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        d._turn(a.seat, False, ev)


class _Buy(_PhaseRules):
    """The declarer's purchase (a köpmisär buys exactly its number)."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, Buy):
            return "buy first"
        low, high = d._buy_range()
        return d._card_set_reason(a.cards, d.hands[a.seat], low, high, "buy")

    def decision(self, d: Deal, seat: Seat) -> Decision:
        low, high = d._buy_range()
        return Decision(seat, Phase.BUY, (), CardChoice(Buy, seat, d.hand(seat), low, high))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, Buy)
        d._declarer_buys(a.seat, a.cards, ev)


class _Decide(_PhaseRules):
    """Play or lay down; in a buying game once, after the first buy, repurchase or turn again."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if isinstance(a, Decide):
            return None
        if isinstance(a, Repurchase):
            if not d._can_rebuy():
                return "no repurchase here (only once, in a buying game, after the first buy)"
            low, high = d._repurchase_range()
            return d._card_set_reason(a.cards, d.hands[a.seat], low, high, "repurchase")
        if isinstance(a, Turn) and a.again:
            turned = d._game().family.turned_cards
            if not d._can_rebuy() or not turned:
                return "turn again only in turné, vingel or tringel, once, after the first buy"
            if d.stock_left < turned + 1:
                return f"turning again needs at least {turned + 1} cards in the stock ({d.stock_left} left)"
            return None
        return "play or lay down"

    def decision(self, d: Deal, seat: Seat) -> Decision:
        actions: list[Action] = [Decide(seat, True), Decide(seat, False)]
        choice = None
        if d._can_rebuy():
            low, high = d._repurchase_range()
            if low <= high:
                choice = CardChoice(Repurchase, seat, d.hand(seat), low, high)
            turn_again = Turn(seat, again=True)
            if d.is_legal(turn_again):
                actions.append(turn_again)
        return Decision(seat, Phase.DECIDE, tuple(actions), choice)

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        if isinstance(a, Repurchase):
            d.repurchased = True
            d._declarer_buys(a.seat, a.cards, ev)
        elif isinstance(a, Turn):
            d._turn(a.seat, True, ev)
        else:
            assert isinstance(a, Decide)
            ev.append(Decided(a.seat, a.play))
            if a.play:
                d._after_play_decision(ev)
            else:
                d.laid = True
                d._finish(ev)


class _SetAside(_PhaseRules):
    """A misère declarer with fewer than 13 cards in play sets the rest aside."""

    @staticmethod
    def _count(d: Deal) -> int:
        misere = d._game().misere
        return misere.set_aside if misere else 0

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, SetAside):
            return "set aside first"
        n = self._count(d)
        return d._card_set_reason(a.cards, d.hands[a.seat], n, n, "set aside")

    def decision(self, d: Deal, seat: Seat) -> Decision:
        n = self._count(d)
        return Decision(seat, Phase.SET_ASIDE, (), CardChoice(SetAside, seat, d.hand(seat), n, n))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, SetAside)
        d._lay_aside(a.seat, a.cards)
        ev.append(SetAsideDone(a.seat, a.cards))
        d._after_set_aside(ev)


class _OpponentBuy(_PhaseRules):
    """Each opponent in turn may buy from what is left of the stock."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, Buy):
            return "buy (or buy -)"
        return d._card_set_reason(a.cards, d.hands[a.seat], 0, d.stock_left, "buy")

    def decision(self, d: Deal, seat: Seat) -> Decision:
        return Decision(seat, Phase.OPPONENT_BUY, (), CardChoice(Buy, seat, d.hand(seat), 0, min(13, d.stock_left)))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, Buy)
        d._draw(a.seat, a.cards, ev, repurchase=False)
        d._next_opponent_buyer(ev)


def card_refusal(card: Card, held: bool, playable: bool, led: Suit | None, holder: str) -> Refusal | None:
    """Why ``card`` may not be played to the trick (``None``: it may): not in ``holder``'s
    hand, or a card of another suit where the ``led`` suit must be followed. The engine's
    word, and a network seat's, which knows only its own view."""
    if not held:
        return Refusal("not_in_hand", f"{card} is not in {holder}'s hand", card=str(card))
    if not playable and led is not None:
        return Refusal("must_follow", f"must follow suit in {led.word}", suit=led.name)
    return None


class _Play(_PhaseRules):
    """Trick play: follow suit if you can; the declarer of a low gask may first announce four aces."""

    def reason(self, d: Deal, a: Action) -> str | None:
        if not isinstance(a, PlayCard):
            return Refusal("play_a_card", "play a card")
        held, playable = bool(d.hands[a.seat] >> a.card & 1), bool(d._playable(a.seat) >> a.card & 1)
        return card_refusal(a.card, held, playable, d.trick[0][1].suit if d.trick else None, SEAT_NAMES[a.seat])

    def decision(self, d: Deal, seat: Seat) -> Decision:
        plays: list[Action] = [PlayCard(seat, c) for c in cards_from_mask(d._playable(seat))]
        if d._aces_window():
            plays.append(AnnounceAces(d._declarer()))
        return Decision(seat, Phase.PLAY, tuple(plays))

    def apply(self, d: Deal, a: Action, ev: list[Event]) -> None:
        if isinstance(a, PlayCard):
            d._play(a.seat, a.card, ev)
        else:
            d.aces_low = d._trick_play().aces_low = True
            ev.append(AcesAnnounced(a.seat))


_BY_PHASE: dict[Phase, _PhaseRules] = {
    Phase.AUCTION: _Auction(),
    Phase.LEVEL: _Level(),
    Phase.KEEP: _Keep(),
    Phase.DISCARD: _Discard(),
    Phase.HIGH_LOW: _HighLow(),
    Phase.TRUMP: _Trump(),
    Phase.TURN: _Turn(),
    Phase.BUY: _Buy(),
    Phase.DECIDE: _Decide(),
    Phase.SET_ASIDE: _SetAside(),
    Phase.OPPONENT_BUY: _OpponentBuy(),
    Phase.PLAY: _Play(),
}
# keyed by the phase's value: an Enum member hashes through a Python-level __hash__ (the fast path feels it)
_HANDLERS: dict[str, _PhaseRules] = {phase.value: rules for phase, rules in _BY_PHASE.items()}

_PLAYS = tuple(tuple(PlayCard(seat, c) for c in _CARD) for seat in range(3))
