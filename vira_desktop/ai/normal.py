"""The ``normal`` and ``easy`` bots: rules of thumb, every choice with a reason."""

from __future__ import annotations

import random
from collections.abc import Sequence

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
from ..rules.cards import Card, Suit, mask_of, suit_class
from ..rules.decision import Phase
from ..rules.games import BID_GROUPS, Family, Game, PullaRow
from ..rules.scoring import low_holding_suits
from ..rules.seat import Seat
from ..rules.view import View
from .base import Choice, Outlook, Reason
from .evaluate import danger_cards, home_chance, misere_chance, trump_tricks, weighted_dangers
from .knowledge import Knowledge
from .planning import (
    BUY_DEFENCE,
    HandOdds,
    best_thirteen_high,
    best_thirteen_low,
    buying_discards,
    play_calibrated,
    safest,
)
from .play import choose_card, rank_value

KODILJ_AVERSION = 1.5  # a club player fears going kodilj more than its bets: the table remembers


def _expected(p: float, home: int, bet: int, kodilj: int) -> float:
    """Expected bets of playing with chance ``p`` of going home, kodilj weighed with aversion."""
    share = 1.0 - 0.5 * p  # a hand unlikely to go home mostly fails by two or more
    return p * home - (1 - p) * ((1 - share) * bet + share * kodilj * KODILJ_AVERSION)


def _laid(game: Game, row: PullaRow) -> float:
    """What laying a game down costs, in bets: a solo pays as kodilj (with the same aversion)."""
    return row.kodilj * KODILJ_AVERSION if game.family.is_solo else float(row.bet)


def safest_out(hand: list[Card], n: int, aces_low: bool, dead: int) -> list[Card]:
    """The ``n`` cards to lay away from a misère hand: the most dangerous first."""
    kept = safest(hand, len(hand) - n, aces_low, dead)
    return [c for c in hand if c not in kept][:n]


__all__ = ["EasyBot", "NormalBot"]

_LEVEL_WORDS = ("", " in suit", " in highest suit")
_CHEAP_OPENING = 5  # gask 0: the forced opening stays at the bottom of the bid table


class NormalBot:
    """A solid club player by rules of thumb (the default opponent)."""

    name = "normal"
    threshold = 0.62  # chance of going home needed to bid a game

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
        bids = sorted(
            (a for a in actions if isinstance(a, Bid) and a.game is not None),
            key=lambda b: (b.game.no if b.game else 0, b.suit_level, not b.in_forehand),
        )
        odds = self.odds(view)
        best = self.best_bid(view, bids)
        if best is not None:
            game = best[1].game
            assert game is not None
            self.last_bid = (game.name, best[1].suit_level, best[2])
            bid = self._unspecified(best[1], actions)
            return Choice(bid, self._bid_reason(best[1], odds, best[2], bid))
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            return Choice(passes[0], self._pass_reason(view))
        return self._forced_opening(view, bids, actions)

    def best_bid(self, view: View, bids: Sequence[Bid]) -> tuple[float, Bid, float] | None:
        """Of ``bids`` (games named), the one likely to go home that is worth most, with its
        value and chance; None when none is worth more than passing."""
        odds = self.odds(view)
        best: tuple[float, Bid, float] | None = None
        for bid in bids:
            assert bid.game is not None
            if odds.hopeless(bid.game.name, self.threshold):  # saves sampling the rest of its stocks
                continue
            chance = odds[bid.game.name].chance[bid.suit_level]
            if chance >= self.threshold:
                value = self._bid_value(view, bid, chance)
                if value > 0 and (best is None or value > best[0] + 1e-9):
                    best = (value, bid, chance)
        return best

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
        value, chance, _, bid = max(scored, key=lambda x: x[:3])
        said = self._unspecified(bid, actions)
        aim = f" (aiming at {bid.text})" if said is not bid else ""
        english = f"forehand must open: {said.text}{aim} risks least ({chance:.0%} to go home)"
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
            return max(_expected(p, row.home, row.bet, row.kodilj) + (2 * p - 1) * pins, lay)

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
        plan = f"trump {o.trump.name}" if o.trump is not None else "in misère" if o.low else "trump from the stock"
        aim = f" aiming at {bid.text}" if said is not None and said is not bid else ""
        english = f"{(said or bid).text}{aim}: {chance:.0%} to go home ({o.note}, {plan})"
        plan_key = "plan_trump" if o.trump is not None else "plan_misere" if o.low else "plan_stock"
        values: dict[str, object] = {"bid": said or bid, "pct": chance, "note": o.note, "plan": plan_key}
        if o.trump is not None:
            values["suit"] = o.trump.name
        if aim:
            return Reason("bid_aim", english, aim=bid, **values)
        return Reason("bid", english, **values)

    def _pass_reason(self, view: View) -> Reason:
        standing = view.bids[-1][1] if view.bids else ""
        if "gök" in standing and view.bids and view.bids[-1][1] != "pass":
            lows = low_holding_suits(view.hand)
            return Reason("pass_gok", f"pass on the gök with low holdings in {lows} suit(s)", count=lows)
        return Reason("pass", "pass: no game above the standing bid is worth its risk for this hand")

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
                said = f"trump {planned.suit.name}: the trump this hand was bid with"
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
            away = list(dict.fromkeys(danger_cards(hand) + sorted(hand, key=lambda c: -c.rank)))[:n]
            said = f"köpmisär: buying away {n} dangerous card(s)"
            return Choice(Buy(view.seat, tuple(away)), Reason("kopmisar_buy_away", said, count=n))
        trump = view.trump or Suit.S
        out = buying_discards(hand, trump, choice.max_count)
        if len(out) < choice.min_count:
            rest = sorted((c for c in hand if c not in out), key=lambda c: (c.suit is trump, c.rank))
            out += rest[: choice.min_count - len(out)]
        said = f"buying {len(out)}: laying aside side cards below the queen"
        return Choice(Buy(view.seat, tuple(out)), Reason("buy_below_queen", said, count=len(out)))

    def _raw_play_chance(self, view: View) -> float:
        game = view.game
        assert game is not None
        hand = list(view.hand)
        if view.low:
            cards = game.misere.cards if game.misere else 13
            dead = mask_of(view.own_laid_aside)
            kept = safest(hand, cards, view.aces_low, dead)
            dead |= mask_of(hand) & ~mask_of(kept)
            return misere_chance(kept, bool(game.misere and game.misere.open), view.aces_low, dead)
        defence = BUY_DEFENCE if game.family.is_buying or game.family.is_solo else 0.0
        return home_chance(trump_tricks(hand, view.trump) - defence, game.tricks)

    def _play_chance(self, view: View) -> float:
        """The chance of going home with the cards now held, calibrated on self-play."""
        assert view.game is not None
        return play_calibrated(self._raw_play_chance(view), view.game, view.low)

    def _decide(self, view: View) -> Choice:
        """Play, lay down, repurchase or turn again: the best expected bets."""
        decision = view.decision
        assert decision is not None and view.game is not None
        game = view.game
        row = view.rules.pulla.row(game)
        chance = self._play_chance(view)

        expected = _expected
        if view.repurchased:
            play_ev = expected(chance, row.re_home or 0, row.re_bet or 0, row.re_kodilj or 0)
            lay_ev = -float(row.re_bet or 0)
        else:
            play_ev = expected(chance, row.home, row.bet, row.kodilj)
            lay_ev = -_laid(game, row)
        rebuy = decision.choice
        if rebuy is not None and not view.low and view.trump is not None and row.re_bet is not None:
            out = buying_discards(list(view.hand), view.trump, rebuy.max_count)
            if out:
                after = self._rebuy_chance(view, out)
                re_ev = expected(after, row.re_home or 0, row.re_bet, row.re_kodilj or 0)
                if re_ev > max(play_ev, lay_ev):
                    said = f"repurchase {len(out)}: {after:.0%} after it against {chance:.0%} now"
                    why = Reason("repurchase", said, count=len(out), after=after, now=chance)
                    return Choice(Repurchase(view.seat, tuple(out)), why)
        if play_ev >= lay_ev:
            return Choice(Decide(view.seat, True), Reason("play", f"play: {chance:.0%} to go home", pct=chance))
        said = f"lay down: only {chance:.0%} to go home, laying down costs less"
        return Choice(Decide(view.seat, False), Reason("lay_down", said, pct=chance))

    def _rebuy_chance(self, view: View, out: list[Card]) -> float:
        """The chance after exchanging ``out`` for cards from the stock (sampled from unseen)."""
        game = view.game
        assert game is not None and view.trump is not None
        k = Knowledge(view)
        unseen = k.cards(k.unseen)
        rng = random.Random(self.seed ^ mask_of(view.hand))
        kept = [c for c in view.hand if c not in out]
        n = min(len(out), len(unseen))
        total = 0.0
        for _ in range(8):
            new = kept + rng.sample(unseen, n)
            total += home_chance(trump_tricks(new, view.trump) - BUY_DEFENCE, game.tricks)
        return play_calibrated(total / 8, game, False) * 0.9  # a repurchase is a gamble: a tenth off

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
