"""The coach at the player's shoulder: a hint for the decision at hand, and the partner's
Ågren marking read aloud. Both work from the player's view only.

Its card in trick play is the strong bot's (the normal bot's habit, kept unless a search
over layouts of the hidden cards finds a card clearly better on what the player can see),
so the analysis of the deal, which judges each card on that same view, does not call the
coach's card a mistake where the habit loses; every other hint is the normal bot's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from ..ai import NormalBot, Outlook
from ..ai.knowledge import read_markings
from ..ai.sampling import PLAIN_CANDIDATES, PLAIN_POWER
from ..ai.single_dummy import LAYOUTS, CardOdds
from ..ai.strong import Budget, StrongBot, card_nodes, card_seed
from ..i18n import number, t
from ..rules.actions import Action, Bid, Pass
from ..rules.decision import Phase
from ..rules.errors import Keyed
from ..rules.games import BID_GROUPS
from ..rules.view import View
from .words import pretty, say_action, say_keyed, say_marking

__all__ = ["BidAdvice", "Coach", "Hint", "Rating", "bid_advice"]

DOUBTFUL_FROM = 0.4  # below this chance of going home a bid is poor whatever it pays
# The coach's search in trick play: the analysis's layouts and no time limit, so a hint depends on
# the view alone (the analysis asks the coach again for each card and must get the hint given,
# and judges the cards over the very layouts the coach searched: Coach.card_seed).
COACH_BUDGET = Budget(seconds=None, layouts=LAYOUTS)


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action | None
    reason: str

    def text(self) -> str:
        """ "Hint: pass — no game above the standing bid is likely to go home" (a reason that
        starts by naming the action again does not say it twice)."""
        said = say_action(self.action) if self.action else t("coach.nothing")
        if isinstance(self.reason, Keyed):
            reason = say_keyed(self.reason, "reason")
            return t("coach.hint", action=said, reason=reason.removeprefix(f"{said}: "))
        reason = self.reason.removeprefix(f"{self.action.text}: ") if self.action else self.reason
        return t("coach.hint", action=said, reason=pretty(reason))


class Rating(Enum):
    """How sensible a bid looks to the coach (drawn by fill and marker, not by hue alone)."""

    GOOD = "good"  # the normal bot would consider it: likely home and worth more than passing
    DOUBTFUL = "doubtful"  # a fair chance, but not one the bot would take
    POOR = "poor"


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """The coach's word on one legal bid: the normal bot's estimate of the game it would be
    played as (for a bid without a level: the level the coach would choose)."""

    outlook: Outlook
    can_pass: bool = True  # a pass is legal (not at a forced opening): the cell compares with it
    passing: float = 0.0  # what a pass is worth in pins: below 0 where it risks the gök penalty
    gok_needs: int = 0  # the suits with låggardar a pass on that gök asks (2 passing first, 1 second)

    @property
    def rating(self) -> Rating:
        if self.outlook.worth_bidding or (self.passing < 0 and self.outlook.value > self.passing):
            return Rating.GOOD  # over a gök: worth more than the pass's penalty risked, as the bot bids
        # by the chance as the cell shows it (~40% was called "under 40%")
        return Rating.DOUBTFUL if _percent(self.outlook.chance) >= _percent(DOUBTFUL_FROM) else Rating.POOR

    @property
    def total_pins(self) -> float:
        """The expected pins from both opponents together."""
        return 2 * self.outlook.pins

    @property
    def shown_total(self) -> float:
        """The bets (to two places) and the pins (to one) as the cell shows them, summed in pins:
        the sum a reader makes (rounded apart, "+1.0 bets and +1.9 pins" once said "in all +9.6")."""
        return 8 * round(self.outlook.bets, 2) + round(self.total_pins, 1)

    def text(self) -> str:
        """ "Coach: ~64% to go home · on average for you −0.25 bets and +1.2 pins, in all −0.8
        pins (a bet is 8 pins), where a pass is 0 (good: …)": the two signs summed (a newcomer
        could not tell a bid's worth from a minus beside a plus)."""
        o = self.outlook
        gok = self.passing < 0  # a pass on a gök may cost a bet
        threshold = t("reason.percent", n=_percent(o.threshold))
        meaning = t(f"coach.meaning.{self.rating.value}", threshold=threshold)
        if gok and self.rating is Rating.GOOD and not o.worth_bidding:
            meaning = t("coach.meaning_gok_good")  # good only beside that pass
        elif self.rating is Rating.DOUBTFUL and o.chance >= o.threshold:
            meaning = t("coach.meaning_doubtful_worth")  # likely home, but worth less than a pass
        elif self.rating is Rating.DOUBTFUL and _percent(o.chance) >= _percent(o.threshold):
            meaning = t("coach.meaning_doubtful_just", threshold=threshold)  # "~62%" beside "under the 62%"
        family = o.game.family
        stock = ". " + t("coach.cell_stock") if family.is_buying or family.takes_stock else ""  # 87% fell to 42%
        return t(
            ("coach.cell_gok" if gok else "coach.cell") if self.can_pass else "coach.cell_forced",
            passing=signed(self.passing),
            needed=t("coach.gok_needs", count=self.gok_needs),
            pct=t("reason.percent", n=_percent(o.chance)),
            bets=signed(o.bets, 2),
            pins=signed(self.total_pins),
            total=signed(self.shown_total),
            rating=t(f"coach.rating.{self.rating.value}"),
            meaning=meaning,
        ) + stock


def _percent(share: float) -> int:
    """``share`` as the cell shows it: a whole percent (its words compare with this)."""
    return round(100 * share)


def signed(value: float, places: int = 1) -> str:
    """``places`` decimals with the sign (−0.4, +1.2; ±0 for nothing)."""
    if round(value, places) == 0:
        return "±0"
    return ("+" if value > 0 else "−") + number(abs(value), places)


def bid_advice(bot: NormalBot, view: View) -> dict[Bid, BidAdvice]:
    """The coach's advice on every legal bid of ``view`` (its seat's observation only): each
    game's estimate as the normal bot makes it. A bid without a level is worth the best of its
    games that outbid now where the declarer chooses the level when it is passed (gask,
    köpmisär, solo), else the lowest (turné, vingel)."""
    decision = view.decision
    if decision is None or decision.phase is not Phase.AUCTION or decision.optional:
        return {}
    bids = [a for a in decision.actions if isinstance(a, Bid)]
    named = {b: bot.outlook(view, b) for b in bids if b.game is not None}
    can_pass = any(isinstance(a, Pass) for a in decision.actions)
    passing, needs = -bot.gok_penalty(view), bot.gok_pass_needs(view)  # the hint weighs a bid over a gök so
    out = {b: BidAdvice(o, can_pass, passing, needs) for b, o in named.items()}
    for bid in bids:
        if bid.game is not None or bid.group not in BID_GROUPS:
            continue
        games, chooses = BID_GROUPS[bid.group]
        options = [
            o
            for b, o in named.items()
            if b.game in games and b.suit_level == bid.suit_level and (chooses or b.in_forehand == bid.in_forehand)
        ]
        if options:
            pick = max(options, key=lambda o: o.value) if chooses else min(options, key=lambda o: o.game.no)
            out[bid] = BidAdvice(pick, can_pass, passing, needs)
    return out


class Coach:
    """Suggests what the normal bot would do in the player's place, its card in trick play
    checked by the strong bot's search (slow: run it off the frame loop)."""

    def __init__(self, seed: int = 99, search: bool = True) -> None:
        self._bot = NormalBot(seed)
        self._cards = StrongBot(seed, COACH_BUDGET) if search else self._bot  # search=False: habit alone
        if isinstance(self._cards, StrongBot):  # the analysis's layouts, so hint and analysis agree
            self._cards.declarer_power, self._cards.candidates = PLAIN_POWER, PLAIN_CANDIDATES
            self._cards.out_mix, self._cards.remember_aside = 0.0, False

    def hint(self, view: View, odds: CardOdds | None = None) -> Hint:
        """The hint for ``view``; ``odds``: its cards judged already (the analysis's), which
        the search takes rather than solving again where they are its very layouts (drawn
        with :meth:`card_seed`, as many as it searches)."""
        bot = self._cards if view.phase is Phase.PLAY else self._bot
        if isinstance(bot, StrongBot) and odds is not None and self._searched(view, odds):
            choice = bot.choose_with(view, odds.solved)
        else:
            choice = bot.choose(view)
        return Hint(choice.action, choice.reason)

    def _searched(self, view: View, odds: CardOdds) -> bool:
        """Whether ``odds`` were judged over the layouts the coach's search draws in ``view``,
        solved within its nodes (so the same layouts were left out)."""
        same_nodes = odds.nodes == card_nodes(view, COACH_BUDGET)
        return odds.seed == self.card_seed(view) and odds.drawn == COACH_BUDGET.layouts and same_nodes

    def card_seed(self, view: View) -> int:
        """The seed of the layouts the coach searches for a card in ``view`` (drawn with it,
        :func:`..ai.single_dummy.card_odds` judges the cards over those very layouts)."""
        return card_seed(self._cards.seed, view)  # the seed of the bot that searches the card

    def bids(self, view: View) -> Mapping[Bid, BidAdvice]:
        """The advice on every bid the seat may make now (see :func:`bid_advice`)."""
        return bid_advice(self._bot, view)


def marking_hint(view: View, names: Sequence[str]) -> str:
    """The partner's Ågren marking as a line for the player (empty when there is none)."""
    if view.spectator or view.declarer in (None, view.seat) or view.low:
        return ""
    for mark in read_markings(view):
        if mark.seat != view.seat:
            return t("coach.marking", name=names[mark.seat], what=say_marking(mark.suits, mark.strong))
    return ""
