"""The ``normal`` and ``easy`` bots: rules of thumb, every choice with a reason."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..rules.actions import (
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
)
from ..rules.cards import Card, Suit, SuitClass, bit_indices, mask_of, suit_class
from ..rules.decision import Phase
from ..rules.games import BID_GROUPS, Family, Game, PullaRow
from ..rules.scoring import low_holding_suits
from ..rules.seat import Seat
from ..rules.view import View
from .base import Choice, Outlook, Reason
from .evaluate import (
    home_chance,
    misere_chance,
    misere_chance_mask,
    safest_mask,
    trump_tricks,
    trump_tricks_mask,
    weighted_dangers,
)
from .knowledge import Knowledge
from .planning import (
    BUY_DEFENCE,
    HandOdds,
    best_thirteen_high,
    best_thirteen_low,
    buying_discards,
    draw,
    draw_mask,
    kopmisar_away,
    play_calibrated,
    safest,
)
from .play import choose_card, rank_value

# A hand that fails goes bet (one trick short) or kodilj (two or more). On the logit, the
# chance of not going kodilj is the chance of going home plus this gap, for high games
# (False) and misères (True): fitted on self-play decisions (benchmarks/decide.py prints
# the fit; 2.0 on 934 high and 66 low decisions, 1,000 deals of seed 61).
KODILJ_GAP: dict[bool, float] = {False: 2.0, True: 2.0}
# Play or lay down weighs a kodilj 1.3 times its bets: near the break-even chance both choices
# are worth about the same (a duplicate match of 1.3 against 1.0, 1,000 deals: +0.006 pins a
# deal, 95% CI [-0.10, +0.12]), and a club table remembers a kodilj (self-play 2,000 deals,
# seed 5: kodilj 4.75% of contracts at 1.0, 4.1% at 1.4).
KODILJ_AVERSION = 1.3


def fail_split(p: float, low: bool = False) -> tuple[float, float]:
    """The chances of going bet and of going kodilj for a hand with chance ``p`` of home."""
    if p <= 0.0 or p >= 1.0:
        return (0.0, 1.0 - p)
    not_kodilj = 1.0 / (1.0 + math.exp(-(math.log(p / (1.0 - p)) + KODILJ_GAP[low])))
    return not_kodilj - p, 1.0 - not_kodilj


def _expected(p: float, home: float, bet: float, kodilj: float, low: bool = False) -> float:
    """Expected bets to (+) or from (-) the pulla of playing with chance ``p`` of going home."""
    bet_chance, kodilj_chance = fail_split(p, low)
    return p * home - bet_chance * bet - kodilj_chance * kodilj


def _better(bets: float) -> str:
    """How much a repurchase or a turn again gains on average, as its reason says it."""
    return f"{bets:+.2f} bets better on average, though home then lifts no bet"


def _laid(game: Game, row: PullaRow) -> float:
    """What laying a game down costs, in bets: a buying game or a gask as bet, a solo as kodilj."""
    return float(row.kodilj if game.family.is_solo else row.bet)


def pulla_row(view: View, repurchased: bool) -> PullaRow:
    """What the game being played pays, by the pulla table: the row of a simple buy, or of a
    repurchase (its re- columns)."""
    assert view.game is not None
    row = view.rules.pulla.row(view.game)
    if repurchased:
        row = PullaRow(row.re_home or 0, row.re_bet or 0, row.re_kodilj or 0, None, None, None)
    return row


def safest_out(hand: list[Card], n: int, aces_low: bool, dead: int) -> list[Card]:
    """The ``n`` cards to lay away from a misère hand: the most dangerous first."""
    kept = safest(hand, len(hand) - n, aces_low, dead)
    return [c for c in hand if c not in kept][:n]


__all__ = ["EasyBot", "NormalBot"]

_CHEAP_OPENING = 5  # gask 0: the forced opening stays at the bottom of the bid table
REBUY_SAMPLES = 60  # stocks sampled to value a repurchase (24 left its value to the seed)
TURN_SAMPLES = 60  # cards sampled to value a turn again
GOK_HOME = 0.75  # how often a gök that is passed goes home in self-play (73% of 107, seed 61)
GOK_SAMPLES = 24  # hands sampled for the other opponent's low holdings


class NormalBot:
    """A solid club player by rules of thumb (the default opponent)."""

    name = "normal"
    threshold = 0.62  # chance of going home needed to bid a game
    kodilj_aversion = KODILJ_AVERSION  # a kodilj weighed so many times its bets in play or lay down
    play_shift = 0.0  # added to the logit of the chance at the moment of play (a stronger defence: below 0)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._odds: tuple[int, HandOdds] | None = None
        self.last_bid: tuple[str, int, float] | None = None  # game, suit level, chance (for calibration)

    # ------------------------------------------------------------------ helpers
    def odds(self, view: View) -> HandOdds:
        """The games' odds for this hand (worked out as asked, kept for the deal)."""
        hand = mask_of(view.hand)
        if self._odds is None or self._odds[0] != hand:
            k = Knowledge(view)
            unseen = k.cards(k.unseen)
            rule = view.rules.aces_low_in_all_miseres
            self._odds = (hand, HandOdds(view.hand, unseen, view.highest, self.seed ^ hand, rule))
        return self._odds[1]

    def chance(self, view: View, game: Game, level: int) -> float:
        return self.odds(view)[game.name].chance[level]

    def _planned_trump(self, view: View, options: Sequence[ChooseTrump]) -> ChooseTrump | None:
        """In a buying game or a solo, trump is chosen before any card changes hands: the one
        the bid was valued with (its own sampling of the buy), where the bid allows it."""
        game = view.game
        if game is None or game.family not in (Family.BUYING, Family.SOLO):
            return None
        planned = self.odds(view)[game.name].trump
        return next((a for a in options if a.suit is planned), None)

    # ------------------------------------------------------------------ the entry point
    def choose(self, view: View) -> Choice:
        decision = view.decision
        if decision is None:
            raise ValueError(f"seat {view.seat} is not asked anything now")
        if decision.optional:
            aces = [a for a in decision.actions if isinstance(a, AnnounceAces)]
            aces_said = Reason("aces_as_ones", "four aces count as ones in misère")
            return Choice(aces[0], aces_said) if aces else Choice(None, Reason("nothing_to_add", "nothing to add"))
        phase = view.phase
        if phase is Phase.AUCTION:
            return self._bid(view, decision.actions)
        if phase is Phase.PLAY:
            aces = [a for a in decision.actions if isinstance(a, AnnounceAces)]
            if aces:
                return Choice(aces[0], Reason("aces_as_ones", "four aces count as ones in misère"))
            return self._play(view, decision.actions)
        return self._prepare(view)

    # ------------------------------------------------------------------ auction
    def _bid(self, view: View, actions: Sequence[Action]) -> Choice:
        """The legal bid likely to go home that is worth most; else pass (forehand must open)."""
        bids = self._named_bids(actions)
        odds = self.odds(view)
        penalty = self.gok_penalty(view)
        best = self.best_bid(view, bids, -penalty)
        if best is not None:
            game = best[1].game
            assert game is not None
            self.last_bid = (game.name, best[1].suit_level, best[2])
            bid = self._unspecified(best[1], actions)
            if penalty and best[2] < self.threshold:
                english = (
                    f"{bid.text}: {best[2]:.0%} to go home, better than passing on the gök without "
                    f"the low holdings (a penalty bet if it goes home)"
                )
                return Choice(bid, Reason("bid_over_gok", english, bid=bid, pct=best[2]))
            return Choice(bid, self._bid_reason(best[1], odds, best[2], bid))
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            return Choice(passes[0], self._pass_reason(view))
        return self._forced_opening(view, bids, actions)

    @staticmethod
    def _named_bids(actions: Sequence[Action]) -> list[Bid]:
        """The legal bids that name their game, lowest first."""
        return sorted(
            (a for a in actions if isinstance(a, Bid) and a.game is not None),
            key=lambda b: (b.game.no if b.game else 0, b.suit_level, not b.in_forehand),
        )

    def best_bid(
        self, view: View, bids: Sequence[Bid], passing: float = 0.0, threshold: float | None = None
    ) -> tuple[float, Bid, float] | None:
        """Of ``bids`` (games named), the one likely to go home that is worth most, with its
        value and chance; None when none is worth more than passing. ``passing`` is what a
        pass is worth in pins: below 0 (a gök penalty risked) a bid less likely to go home
        is made when it costs less. ``threshold``: the chance asked (by default the bot's)."""
        odds = self.odds(view)
        least = self.threshold if threshold is None else threshold
        best: tuple[float, Bid, float] | None = None
        for bid in bids:
            assert bid.game is not None
            if passing >= 0 and odds.hopeless(bid.game.name, least):  # saves sampling its other stocks
                continue
            chance = odds[bid.game.name].chance[bid.suit_level]
            if chance >= least or passing < 0:
                value = self._bid_value(view, bid, chance)
                if value > passing and (best is None or value > best[0] + 1e-9):
                    best = (value, bid, chance)
        return best

    @staticmethod
    def _standing_gok(view: View) -> int | None:
        """Where in the bids another seat's gök stands (the last bid named), else None."""
        named = [i for i, (_, text) in enumerate(view.bids) if text != "pass"]
        if not named or not view.bids[named[-1]][1].startswith("gök") or view.bids[named[-1]][0] == view.seat:
            return None
        return named[-1]

    @staticmethod
    def _needs(view: View, gok: int) -> int:
        """The suits with låggardar a pass on the gök bid at ``gok`` asks: two first, one second."""
        return 2 if gok == len(view.bids) - 1 else 1

    @classmethod
    def gok_pass_needs(cls, view: View) -> int:
        """In how many suits a pass on another's standing gök asks this seat for låggardar (low
        holdings): two for the first to pass on it, one for the second; 0 with no such gök."""
        gok = cls._standing_gok(view)
        return 0 if gok is None else cls._needs(view, gok)

    def gok_penalty(self, view: View) -> float:
        """The pins a pass on a standing gök risks: a seat passing without the low holdings
        the rule asks (two suits for the first to pass, one for the second) pays a bet into
        the pulla if the gök goes home, unless both passes on it fell short."""
        gok = self._standing_gok(view)
        if gok is None:
            return 0.0
        needed = self._needs(view, gok)
        if low_holding_suits(view.hand) >= needed:
            return 0.0
        gokker = view.bids[gok][0]
        other = next(s for s in range(3) if s not in (view.seat, gokker))
        earlier = [text for seat, text in view.bids[:gok] if seat == other]
        if earlier and earlier[-1] == "pass":  # he passed before the gök: this is the only pass on it
            return 8 * GOK_HOME
        # the other passes on it too (or has): the penalty falls on this seat only if he met his
        k = Knowledge(view)
        unseen = k.cards(k.unseen)
        rng = random.Random(self.seed ^ mask_of(view.hand) ^ 0x60C)
        his_need = 1 if needed == 2 else 2
        met = sum(low_holding_suits(tuple(rng.sample(unseen, 13))) >= his_need for _ in range(GOK_SAMPLES))
        return 8 * GOK_HOME * met / GOK_SAMPLES

    @staticmethod
    def _unspecified(bid: Bid, actions: Sequence[Action]) -> Bid:
        """Gask, köpmisär and solo are bid by the group's name, as club players do: the
        level stays open (chosen when the bid is passed) and the hand is not given away."""
        if bid.in_forehand or bid.game is None:
            return bid
        for group, (games, chooses_level) in BID_GROUPS.items():
            if chooses_level and bid.game in games:
                for higher in (False, True):
                    plain = Bid(bid.seat, None, group, bid.suit_level, higher=higher)
                    if plain in actions:
                        return plain
        return bid

    def _forced_opening(self, view: View, bids: Sequence[Bid], actions: Sequence[Action]) -> Choice:
        """Forehand must open: the bid with the best expected bets, counting on laying the hand
        down (which is never kodilj) when it turns out hopeless."""
        scored = []
        for b in bids:
            # A hand strong enough for a higher game would have bid it: open at the bottom.
            if b.game is None or b.suit_level or b.in_forehand or b.game.no > _CHEAP_OPENING:
                continue
            value, chance = self._option_value(view, b.game)
            scored.append((value, chance, -b.game.no, b))
        if not scored:
            scored = [(0.0, self.chance(view, b.game, 0), -b.game.no, b) for b in bids[:1] if b.game is not None]
        bid = max(scored, key=lambda x: x[:3])[3]
        assert bid.game is not None
        chance = self.chance(view, bid.game, 0)  # as the bid's cell in the grid says it, not as played
        said = self._unspecified(bid, actions)
        best = f"{bid.text} is best" if said is not bid else "best"
        english = (
            f"{said.text}: forehand must open ({chance:.0%} to go home); {best} on average if a hopeless hand is laid "
            "down (given up before play for a bet), unlike the cells' figures"
        )
        if said is bid:
            return Choice(said, Reason("must_open", english, bid=said, pct=chance))
        return Choice(said, Reason("must_open_aim", english, bid=said, aim=bid, pct=chance))

    def _option_value(self, view: View, game: Game) -> tuple[float, float]:
        """Expected bets of declaring ``game`` at level 0 when the hand may be laid down, and
        the chance of going home. Where the cards are seen before playing (buying and stock
        games) the hand is laid down only in the sampled cases that turn out badly."""
        o = self.odds(view)[game.name]
        row = view.rules.pulla.row(game)
        pins = 2 * (game.pins[0] or 0) / 8  # pins from or to both opponents, in bets
        lay = -_laid(game, row) - pins

        def worth(p: float) -> float:
            return max(_expected(p, row.home, row.bet, row.kodilj, o.low) + (2 * p - 1) * pins, lay)

        if o.at_play:
            return sum(map(worth, o.at_play)) / len(o.at_play), sum(o.at_play) / len(o.at_play)
        return worth(o.chance[0]), o.chance[0]

    def _stakes(self, view: View, bid: Bid) -> tuple[float, float, float, float]:
        """What a bid's game pays the declarer: bets lifted when home, bets paid when not (a
        bet or a kodilj, by the bot's experience), and the pins from (when home) or to (when
        not) each opponent, by the trump's class the bot expects."""
        game = bid.game
        assert game is not None
        odds = self.odds(view)[game.name]
        row = view.rules.pulla.row(game)
        if odds.turned_classes is not None:  # the trump is turned from the stock
            win, fail = odds.turned_classes
        else:
            klass = suit_class(odds.trump, view.highest) if odds.trump is not None and not odds.low else 0
            win = fail = (float(klass == 0), float(klass == 1), float(klass == 2))

        def pins(shares: Sequence[float]) -> float:
            return sum(w * (game.pins[max(bid.suit_level, c)] or game.pins[0] or 0) for c, w in enumerate(shares))

        return float(row.home), 0.6 * row.bet + 0.4 * row.kodilj, pins(win), pins(fail)

    def _bid_value(self, view: View, bid: Bid, chance: float) -> float:
        """Expected pins of a bid for the declarer: bets at 8 pins, pins from both opponents."""
        home, lose, pins_win, pins_fail = self._stakes(view, bid)
        return chance * (8 * home + 2 * pins_win) - (1 - chance) * (8 * lose + 2 * pins_fail)

    def outlook(self, view: View, bid: Bid) -> Outlook:
        """The bot's own estimate of a bid naming its game: the chance of going home and the
        expected bets (from the pulla) and pins (from each opponent), as it weighs its bids."""
        assert bid.game is not None
        chance = self.chance(view, bid.game, bid.suit_level)
        home, lose, pins_win, pins_fail = self._stakes(view, bid)
        bets = chance * home - (1 - chance) * lose
        pins = chance * pins_win - (1 - chance) * pins_fail
        return Outlook(bid.game, chance, bets, pins, self._bid_value(view, bid, chance), self.threshold)

    def _bid_reason(self, bid: Bid, odds: HandOdds, chance: float, said: Bid | None = None) -> Reason:
        assert bid.game is not None
        o = odds[bid.game.name]
        trump = odds.level_trump(bid.game, bid.suit_level)
        plan = f"trump {trump.name}" if trump is not None else "in misère" if o.low else "trump from the stock"
        aim = f" aiming at {bid.text}" if said is not None and said is not bid else ""
        english = f"{(said or bid).text}{aim}: {chance:.0%} to go home ({o.note}, {plan})"
        plan_key = "plan_trump" if trump is not None else "plan_misere" if o.low else "plan_stock"
        values: dict[str, object] = {"bid": said or bid, "pct": chance, "note": o.note, "plan": plan_key}
        if trump is not None:
            values["suit"] = trump.name
        if aim:
            return Reason("bid_aim", english, aim=bid, **values)
        return Reason("bid", english, **values)

    def _pass_reason(self, view: View) -> Reason:
        standing = view.bids[-1][1] if view.bids else ""
        if "gök" in standing and view.bids and view.bids[-1][1] != "pass":
            lows = low_holding_suits(view.hand)
            return Reason("pass_gok", f"pass on the gök with low holdings in {lows} suit(s)", count=lows)
        said = "pass: no game above the standing bid both goes home often enough and is worth more than a pass"
        return Reason("pass", said)

    # ------------------------------------------------------------------ after the auction
    def _prepare(self, view: View) -> Choice:
        decision = view.decision
        assert decision is not None
        seat = view.seat
        game = view.game
        hand = list(view.hand)
        phase = view.phase
        if phase is Phase.LEVEL:
            levels = [a for a in decision.actions if isinstance(a, ChooseLevel)]
            scored = [(self._level_value(view, a.game), a) for a in levels]
            likely = [x for x in scored if x[0][1] >= self.threshold]
            if not likely and not view.suit_level:  # a forced opening: the least costly level
                scored = [(self._option_value(view, a.game), a) for a in levels]
            (_, chance), best = max(likely or scored, key=lambda x: (x[0][0], -x[1].game.no))
            english = f"{best.game.name}: {chance:.0%} to go home, the best expected result of the levels allowed"
            why = Reason("level", english, game=best.game.name, pct=chance)
            return Choice(best, why)
        assert game is not None
        if phase is Phase.KEEP:
            plan_low = game.can_play_low and not view.suit_level and self._plans_low(view, game)
            if plan_low:
                kept = safest(hand, game.level)
                said = f"keeping {game.level} low cards for a low gask"
                return Choice(Keep(seat, tuple(kept)), Reason("keep_low", said, count=game.level))
            kept = self._keep_high(hand, game.level, view)
            said = f"keeping {game.level} cards for trump"
            return Choice(Keep(seat, tuple(kept)), Reason("keep_trump", said, count=game.level))
        if phase is Phase.DISCARD:
            n = len(hand) - 13
            low = game.family is Family.GOK or (game.can_play_low and self._prefers_low(hand, view, game))
            if low:
                keep = best_thirteen_low(hand)
                why = Reason("keep_misere", "keeping the 13 safest cards for misère")
            else:
                keep, trump, tricks = best_thirteen_high(hand, self._trumps_allowed(view))
                said = f"keeping trump {trump.name} and high cards ({tricks:.1f} tricks expected)"
                why = Reason("keep_trump_high", said, suit=trump.name, tricks=tricks)
            out = [c for c in hand if c not in keep][:n]
            return Choice(Discard(seat, tuple(out)), why)
        if phase is Phase.HIGH_LOW:
            lows = [a for a in decision.actions if isinstance(a, HighLow) and a.low]
            tricks = best_thirteen_high(hand, self._trumps_allowed(view))[2]
            high_chance = play_calibrated(home_chance(tricks, game.tricks), game, False)
            dead = mask_of(view.own_laid_aside)
            kept = safest(hand, game.misere.cards if game.misere else 13, False, dead)
            low_chance = play_calibrated(
                misere_chance(kept, bool(game.misere and game.misere.open), False, dead), game, True
            )
            if lows and low_chance > high_chance:
                said = f"low: {low_chance:.0%} against {high_chance:.0%} high"
                return Choice(lows[0], Reason("low", said, low=low_chance, high=high_chance))
            said = f"high: {high_chance:.0%} to go home"
            return Choice(HighLow(seat, False), Reason("high", said, pct=high_chance))
        if phase is Phase.TRUMP:
            options = [a for a in decision.actions if isinstance(a, ChooseTrump)]
            planned = self._planned_trump(view, options)
            if planned is not None:
                said = f"trump {planned.suit.name}: the suit the bid was planned for"
                return Choice(planned, Reason("trump_as_bid", said, suit=planned.suit.name))
            pick = max(
                options,
                key=lambda a: (
                    trump_tricks(hand, a.suit) + 0.3 * sum(1 for c in hand if c.suit is a.suit),
                    -int(a.suit),
                ),
            )
            said = f"trump {pick.suit.name}: the most tricks with this hand"
            return Choice(pick, Reason("trump_most", said, suit=pick.suit.name))
        if phase is Phase.TURN:
            return Choice(Turn(seat), Reason("turn_top", "turning up the top of the stock"))
        if phase is Phase.BUY:
            return self._declarer_buy(view)
        if phase is Phase.DECIDE:
            return self._decide(view)
        if phase is Phase.SET_ASIDE:
            assert decision.choice is not None
            n = decision.choice.min_count
            dead = mask_of(view.own_laid_aside)
            bad = safest_out(hand, n, view.aces_low, dead)
            said = f"setting aside the {n} most dangerous card(s)"
            return Choice(SetAside(seat, tuple(bad)), Reason("set_aside_dangerous", said, count=n))
        if phase is Phase.OPPONENT_BUY:
            return self._defender_buy(view)
        raise ValueError(f"no rule for {phase}")  # pragma: no cover

    def _plans_low(self, view: View, game: Game) -> bool:
        """Low or high gask: by the odds where either is a real chance, else by the cards
        (with hardly an honour, only the low game can go home)."""
        odds = self.odds(view)[game.name]
        if max(odds.chance) >= 0.3:
            return odds.low
        honours = sum(1 for c in view.hand if c.rank >= 12)
        return honours < 2

    def _trumps_allowed(self, view: View) -> tuple[Suit, ...]:
        if view.suit_level == 2:
            return (view.highest,)
        if view.suit_level == 1:
            return (view.highest, view.highest.partner)
        return tuple(Suit)

    def _keep_high(self, hand: list[Card], n: int, view: View) -> list[Card]:
        allowed = self._trumps_allowed(view)
        trump = max(allowed, key=lambda s: (sum(c.rank for c in hand if c.suit is s), -int(s)))
        ordered = sorted(hand, key=lambda c: (c.suit is not trump and c.rank < 14, -c.rank))
        return ordered[:n]

    def _prefers_low(self, hand: list[Card], view: View, game: Game) -> bool:
        if view.suit_level:
            return False
        cards = game.misere.cards if game.misere else 13
        pool = mask_of(hand)
        kept = safest(best_thirteen_low(hand), cards, False, pool & ~mask_of(best_thirteen_low(hand)))
        low = misere_chance(kept, bool(game.misere and game.misere.open), False, pool & ~mask_of(kept))
        high = home_chance(best_thirteen_high(hand, tuple(Suit))[2], game.tricks)
        return play_calibrated(low, game, True) > play_calibrated(high, game, False)

    def _declarer_buy(self, view: View) -> Choice:
        decision = view.decision
        assert decision is not None and decision.choice is not None and view.game is not None
        choice = decision.choice
        hand = list(view.hand)
        if view.game.family is Family.KOPMISAR:
            n = choice.min_count
            away = kopmisar_away(hand)[:n]
            said = f"köpmisär: buying away {n} dangerous card(s)"
            return Choice(Buy(view.seat, tuple(away)), Reason("kopmisar_buy_away", said, count=n))
        trump = view.trump or Suit.S
        out = buying_discards(hand, trump, choice.max_count)
        if len(out) < choice.min_count:
            rest = sorted((c for c in hand if c not in out), key=lambda c: (c.suit is trump, c.rank))
            out += rest[: choice.min_count - len(out)]
        said = f"buying {len(out)}: laying aside side cards below the queen"
        return Choice(Buy(view.seat, tuple(out)), Reason("buy_below_queen", said, count=len(out)))

    def _raw_chance(self, view: View, hand: int, trump: Suit | None, dead: int) -> float:
        """The raw chance of going home with ``hand`` (a bitmask) in the game being decided
        (``dead``: the cards laid away, out of play): a misère's danger count, else the trick
        count less what the opponents' buying takes back."""
        game = view.game
        assert game is not None
        if view.low:
            cards = game.misere.cards if game.misere else 13
            kept = safest_mask(hand, cards, view.aces_low, dead)
            dead |= hand & ~kept
            return misere_chance_mask(kept, bool(game.misere and game.misere.open), view.aces_low, dead)
        defence = BUY_DEFENCE if game.family.is_buying or game.family.is_solo else 0.0
        return home_chance(trump_tricks_mask(hand, -1 if trump is None else int(trump)) - defence, game.tricks)

    def _raw_play_chance(self, view: View) -> float:
        """The raw chance of going home with the cards now held."""
        return self._raw_chance(view, mask_of(view.hand), view.trump, mask_of(view.own_laid_aside))

    def _play_chance(self, view: View) -> float:
        """The chance of going home with the cards now held, calibrated on self-play."""
        assert view.game is not None
        return self._shifted(play_calibrated(self._raw_play_chance(view), view.game, view.low))

    def _pins(self, view: View, trump: Suit | None, laid: bool = False) -> float:
        """Pins the game pays to or from both opponents, in bets, with ``trump`` (a laid gask,
        vira or solo pays as its suit level, a misère as off-suit)."""
        game = view.game
        assert game is not None
        if laid and not view.low and game.family in (Family.GASK, Family.VIRA, Family.SOLO):
            klass = SuitClass(view.suit_level)
        elif view.low or trump is None:
            klass = SuitClass.OFF_SUIT
        else:
            klass = suit_class(trump, view.highest)
        return 2 * (game.pins_for(klass) or 0) / 8

    def _play_or_lay(self, view: View, p: float, repurchased: bool, trump: Suit | None) -> tuple[float, float]:
        """Expected bets (pins included) of playing with chance ``p`` and of laying down,
        by the pulla row of a simple buy or of a repurchase."""
        return self._outcomes(view, repurchased, trump)(p)

    def _outcomes(self, view: View, repurchased: bool, trump: Suit | None) -> Callable[[float], tuple[float, float]]:
        """:meth:`_play_or_lay` as a function of the chance (the row and pins looked up once)."""
        game = view.game
        assert game is not None
        row = pulla_row(view, repurchased)
        pins = self._pins(view, trump)
        home, bet, kodilj, low = row.home, row.bet, row.kodilj * self.kodilj_aversion, view.low
        lay = -_laid(game, row) - self._pins(view, trump, laid=True)
        return lambda p: (_expected(p, home, bet, kodilj, low) + (2 * p - 1) * pins, lay)

    def _after_rebuy(self, view: View, samples: list[tuple[float, Suit | None]]) -> float:
        """Expected bets of a repurchase or a turn again whose sampled outcomes are ``samples``
        (chance of going home, trump): in each the better of playing and laying down then,
        less the pins paid for the first purchase whatever happens."""
        first = self._pins(view, view.trump, laid=True)
        by_trump = {trump: self._outcomes(view, True, trump) for trump in {t for _, t in samples}}
        total = sum(max(by_trump[trump](p)) for p, trump in samples)
        return total / len(samples) - first

    def _decide(self, view: View) -> Choice:
        """Play, lay down, repurchase or turn again: the best expected result, in bets and pins.
        A repurchase or a turn again is valued with the chance of laying down after it."""
        decision = view.decision
        assert decision is not None and view.game is not None
        chance = self._play_chance(view)
        play_ev, lay_ev = self._play_or_lay(view, chance, view.repurchased, view.trump)
        now = max(play_ev, lay_ev)
        rebuy = decision.choice
        if rebuy is not None and rebuy.action is Repurchase:
            option = self._repurchase_option(view, rebuy.min_count, rebuy.max_count)
            if option is not None and option[0] > now + 1e-9:
                worth, out, after = option
                said = (
                    f"repurchase {len(out)}: {after:.0%} on average after it (the cards bought decide) "
                    f"against {chance:.0%} now; {_better(worth - now)}"
                )
                why = Reason("repurchase", said, count=len(out), after=after, now=chance, better=worth - now)
                return Choice(Repurchase(view.seat, tuple(out)), why)
        again = Turn(view.seat, again=True)
        if again in decision.actions:
            samples = self._turn_again_samples(view)
            worth = self._after_rebuy(view, samples) if samples else now
            if worth > now + 1e-9:
                after = sum(p for p, _ in samples) / len(samples)
                said = (
                    f"turn again: {after:.0%} on average with a new trump (the cards turned decide) "
                    f"against {chance:.0%} now; {_better(worth - now)}"
                )
                return Choice(again, Reason("turn_again", said, after=after, now=chance, better=worth - now))
        if play_ev >= lay_ev:
            said = f"play: {chance:.0%} to go home by the count of the hand"
            return Choice(Decide(view.seat, True), Reason("play", said, pct=chance))
        said = f"lay down: only {chance:.0%} to go home by the count of the hand, laying down costs less"
        return Choice(Decide(view.seat, False), Reason("lay_down", said, pct=chance))

    def _repurchase_option(self, view: View, low: int, high: int) -> tuple[float, list[Card], float] | None:
        """The repurchase the bot would make: its expected bets, the cards laid aside and the
        mean chance after it; None when it has nothing to exchange."""
        game = view.game
        assert game is not None
        hand = list(view.hand)
        if game.family is Family.KOPMISAR:
            out = kopmisar_away(hand)[:low]
        elif view.trump is not None and not view.low:
            out = buying_discards(hand, view.trump, high)
        else:
            return None
        if not out or not low <= len(out) <= high:
            return None
        dead = mask_of(view.own_laid_aside) | mask_of(out)
        samples = [(self._chance_with(view, new, view.trump, dead), view.trump) for new in self._draws(view, out)]
        return self._after_rebuy(view, samples), out, sum(p for p, _ in samples) / len(samples)

    def _draws(self, view: View, out: list[Card]) -> list[int]:
        """``REBUY_SAMPLES`` hands (bitmasks) after laying ``out`` aside and drawing as many
        cards from the cards this seat has not seen."""
        hand, unseen = mask_of(view.hand), Knowledge(view).unseen
        return self._sampled(hand, hand & ~mask_of(out), len(out), [1 << c for c in bit_indices(unseen)], REBUY_SAMPLES)

    def _sampled(self, hand: int, kept: int, n: int, bits: list[int], count: int, turned: int = 0) -> list[int]:
        """``count`` hands: ``kept`` and the ``turned`` cards, and ``n`` cards drawn from ``bits``
        (the unseen cards less the turned ones), seeded by the hand and the turned cards."""
        rng = random.Random(self.seed ^ hand ^ turned)
        n = min(n, len(bits))
        return [kept | turned | draw_mask(rng, bits, n) for _ in range(count)]  # rng.sample's draws

    def _chance_with(self, view: View, hand: int, trump: Suit | None, dead: int) -> float:
        """The calibrated chance of going home with ``hand`` (after a buy), as at the decision."""
        assert view.game is not None
        return self._shifted(play_calibrated(self._raw_chance(view, hand, trump, dead), view.game, view.low))

    def _shifted(self, p: float) -> float:
        """``p`` moved by :attr:`play_shift` on the logit."""
        if not self.play_shift or p <= 0.0 or p >= 1.0:
            return p
        return 1.0 / (1.0 + math.exp(-(math.log(p / (1.0 - p)) + self.play_shift)))

    def _turn_again_samples(self, view: View) -> list[tuple[float, Suit | None]]:
        """Sampled outcomes of turning again: new cards turned from the stock, the best trump
        among them, the turned cards and the weak side cards bought (chance, trump)."""
        game = view.game
        assert game is not None
        k = game.family.turned_cards
        known = Knowledge(view)
        unseen = known.cards(known.unseen)
        rng = random.Random(self.seed ^ mask_of(view.hand))
        hand = list(view.hand)
        hand_mask = mask_of(hand)
        away: dict[Suit, list[Card]] = {}  # the cards bought away with each trump
        for trump in Suit:
            out_cards = buying_discards(hand, trump, view.stock_left)
            rest = sorted((c for c in hand if c not in out_cards), key=lambda c: (c.suit is trump, c.rank))
            away[trump] = out_cards + rest[: max(0, k - len(out_cards))]
        out: list[tuple[float, Suit | None]] = []
        for _ in range(TURN_SAMPLES):
            turned = draw(rng, unseen, k)  # rng.sample's draws
            turned_mask = mask_of(turned)
            bits = [1 << c for c in unseen if not turned_mask >> c & 1]
            suits = [turned[0].suit] if game.family is Family.TURNE else list(dict.fromkeys(c.suit for c in turned))
            best: tuple[float, Suit | None] = (-1.0, None)
            for trump in suits:
                kept = hand_mask & ~mask_of(away[trump])
                new = self._sampled(hand_mask, kept, len(away[trump]) - k, bits, 1, turned_mask)[0]
                p = self._chance_with(view, new, trump, 0)
                best = max(best, (p, trump), key=lambda x: x[0])
            out.append(best)
        return out

    def _defender_buy(self, view: View) -> Choice:
        decision = view.decision
        assert decision is not None and decision.choice is not None
        hand = list(view.hand)
        room = decision.choice.max_count
        declarer = view.declarer if view.declarer is not None else Seat.FOREHAND
        first = declarer.next == view.seat
        cap = (room + 1) // 2 if first else room
        if view.low:
            shown = view.open_hands.get(declarer)
            if shown:
                return self._royale_buy(view, list(shown), cap)
            out = sorted((c for c in hand if c.rank >= 10), key=lambda c: -c.rank)[:cap]
            said = f"defending a misère: exchanging {len(out)} high card(s)"
            return Choice(Buy(view.seat, tuple(out)), Reason("defend_misere", said, count=len(out)))
        trump = view.trump
        k = Knowledge(view)
        out = [c for c in hand if c.suit is not trump and c.rank < 11 and not k.is_master(c)]
        out.sort(key=lambda c: c.rank)
        out = out[:cap]
        said = f"defending: exchanging {len(out)} low side card(s)"
        return Choice(Buy(view.seat, tuple(out)), Reason("defend", said, count=len(out)))

    def _royale_buy(self, view: View, shown: list[Card], cap: int) -> Choice:
        """Buying against a misère laid out before the buy (royale): a card can force the
        declarer only under one of his dangerous cards (the misère danger model, from his
        side); every other card is exchanged: his void suits first (leading them lets him throw
        a danger away), then suits where he is safe, highest first."""
        game = view.game
        assert game is not None
        four_aces = sum(1 for c in shown if c.rank == 14) == 4  # he will announce them as ones
        aces_low = view.aces_low or (four_aces and game.aces_may_count_low(view.rules.aces_low_in_all_miseres))
        reach = dict.fromkeys(Suit, 0)
        for _, i in weighted_dangers(mask_of(shown), aces_low):
            card = Card(i)
            reach[card.suit] = max(reach[card.suit], rank_value(card, aces_low))
        useless = [c for c in view.hand if rank_value(c, aces_low) >= reach[c.suit]]
        held = {c.suit for c in shown}
        # his voids first, then suits where he is safe, highest first
        useless.sort(key=lambda c: (c.suit in held, reach[c.suit] > 0, -rank_value(c, aces_low)))
        out = useless[:cap]
        said = f"defending a royale: exchanging {len(out)} card(s) that cannot force the declarer"
        why = Reason("defend_royale", said, count=len(out))
        return Choice(Buy(view.seat, tuple(out)), why)

    def _level_value(self, view: View, game: Game) -> tuple[float, float]:
        """Expected pins and chance of playing ``game`` at the suit level that was bid."""
        chance = self.odds(view)[game.name].chance[view.suit_level]
        return self._bid_value(view, Bid(view.seat, game, None, view.suit_level), chance), chance

    # ------------------------------------------------------------------ card play
    def _play(self, view: View, actions: Sequence[Action]) -> Choice:
        legal = [a.card for a in actions if isinstance(a, PlayCard)]
        card, reason = choose_card(legal, Knowledge(view))
        return Choice(PlayCard(view.seat, card), reason)


class EasyBot(NormalBot):
    """A beginner: bids only on plain hand strength, plays simple cards."""

    name = "easy"
    threshold = 0.5

    def _bid(self, view: View, actions: Sequence[Action]) -> Choice:
        bids = [
            a for a in actions if isinstance(a, Bid) and a.game is not None and a.suit_level == 0 and not a.in_forehand
        ]
        simple = [b for b in bids if b.game is not None and b.game.family in (Family.BUYING, Family.SOLO, Family.TURNE)]
        odds = self.odds(view)
        good = [b for b in simple if b.game is not None and odds[b.game.name].chance[0] >= self.threshold]
        if good:
            bid = good[0]
            return Choice(bid, Reason("easy_strong", f"{bid.text}: a strong hand", bid=bid))
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            return Choice(passes[0], Reason("easy_pass", "pass"))
        return Choice(bids[0], Reason("easy_open", f"forehand must open: {bids[0].text}", bid=bids[0]))

    def _play(self, view: View, actions: Sequence[Action]) -> Choice:
        legal = [a.card for a in actions if isinstance(a, PlayCard)]
        rng = random.Random(self.seed ^ mask_of(view.hand) ^ len(view.tricks))
        if view.trick or rng.random() < 0.5:
            return super()._play(view, actions)
        card = max(legal, key=lambda c: (c.rank, c))
        return Choice(PlayCard(view.seat, card), Reason("lead_high", "leading a high card"))
