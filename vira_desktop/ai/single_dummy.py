"""Single dummy: each card a seat may play, judged on what that seat could see.

The strong bot's way (:mod:`.strong`), for a deal's analysis after the event: the hidden
cards are dealt anew consistent with the seat's view and weighed by what the auction and
the play told (:func:`.sampling.layouts`), each layout is solved double dummy for every
card, and each card gets the declarer's chances of home, bet and kodilj over the layouts.
The same layouts serve every card, so two cards are compared layout by layout (the
difference's own noise is known: :meth:`CardOdds.gap`).

Deterministic for a given view and seed; ``LAYOUTS`` is the one constant that buys more
layouts (and less noise) when the solver gets faster. Drawn with the seed the strong bot draws
a card's layouts with (:func:`.strong.card_seed`) and weighed as the coach's strong bot weighs
them, they are the very layouts the coach searched (its hint and the analysis give a card the
same figures; a strong bot at the table weighs the declarer's hand more sharply:
:data:`.sampling.DECLARER_POWER`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..rules.actions import PlayCard
from ..rules.cards import Card
from ..rules.view import View
from .knowledge import Knowledge
from .sampling import layouts
from .strong import Budget, Solved, card_classes, card_nodes, outcome_of, result_band, solve_layouts

__all__ = ["LAYOUTS", "CardOdds", "Chances", "card_odds"]

# Layouts drawn for a card's position (the noise of a difference falls as 1/sqrt of it): the
# coach's too, at most strong.LAYOUT_BATCH (drawn at once, as the strong bot draws its first batch).
LAYOUTS = 64
_SCORES = (1, 0, -1)  # home, bet, kodilj: a layout's worth to the declarer


@dataclass(frozen=True, slots=True)
class Chances:
    """The declarer's chances of home, bet and kodilj (shares of the layouts, summing to 1)."""

    home: float
    bet: float
    kodilj: float


@dataclass(frozen=True)
class CardOdds:
    """Each legal card's outcome (0 home, 1 bet, 2 kodilj) in each layout drawn (a layout
    drawn more than once counted as often), for the seat ``seat``; ``declarer``: whether
    that seat is the declarer (he wants home, the defenders want it beaten)."""

    outcomes: dict[Card, tuple[int, ...]]
    declarer: bool
    tricks: dict[Card, tuple[int, ...]]  # the declarer's tricks still to come (clamped unless asked exact)
    wants_tricks: bool  # the seat plays for the declarer's tricks (the declarer high, a defender low)
    solved: tuple[Solved, ...] = ()  # the layouts as solved (for each class's lowest card): see StrongBot.choose_with
    seed: int = 0  # the seed the layouts were drawn with ...
    drawn: int = 0  # ... how many were drawn ...
    nodes: int = 0  # ... and the nodes a card's search of one layout might take (one over: left out)

    @property
    def layouts(self) -> int:
        return len(next(iter(self.outcomes.values())))

    def chances(self, card: Card) -> Chances:
        got = self.outcomes[card]
        n = len(got)
        return Chances(got.count(0) / n, got.count(1) / n, got.count(2) / n)

    def scores(self, card: Card) -> list[int]:
        """The card's worth to the seat in each layout: +1 its side's best result, -1 its
        worst (home 1, bet 0, kodilj -1 for the declarer; the reverse for a defender)."""
        sign = 1 if self.declarer else -1
        return [sign * _SCORES[o] for o in self.outcomes[card]]

    def score(self, card: Card) -> float:
        """The card's mean worth to the seat, in points (100: its best result in every layout)."""
        got = self.scores(card)
        return 100 * sum(got) / len(got)

    def best(self, prefer: Card | None = None) -> Card:
        """The card of the highest worth (of equal ones ``prefer``, else the lowest)."""
        return max(sorted(self.outcomes), key=lambda c: (round(self.score(c), 9), c == prefer))

    def mean_tricks(self, card: Card) -> float:
        """The declarer's mean tricks still to come after ``card``."""
        got = self.tricks[card]
        return sum(got) / len(got)

    def dominates(self, card: Card, other: Card) -> bool:
        """``card`` is as good as ``other`` in every layout of the seat's view: a result and
        tricks (for the seat's side) at least as good in each."""
        sign = 1 if self.wants_tricks else -1
        results = zip(self.scores(card), self.scores(other), strict=True)
        tricks = zip(self.tricks[card], self.tricks[other], strict=True)
        return all(a >= b for a, b in results) and all(sign * (a - b) >= 0 for a, b in tricks)

    def gap(self, card: Card, other: Card) -> tuple[float, float]:
        """How much worse ``card`` is than ``other`` on the seat's own view, in points, and
        the standard error of that difference (the same layouts for both)."""
        diffs = [b - a for a, b in zip(self.scores(card), self.scores(other), strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return 100 * mean, math.inf
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return 100 * mean, 100 * math.sqrt(var / n)


def card_odds(
    view: View, seed: int, count: int = LAYOUTS, budget: Budget | None = None, exact: bool = False
) -> CardOdds | None:
    """Every legal card of ``view``'s seat (in trick play, on turn) judged over ``count``
    layouts of the hidden cards drawn with ``seed`` (``exact``: each card's tricks worked out
    in full, not only as far as they tell the results apart); None where there is nothing to
    judge: one card plays like every other (a single class), the result is settled whatever
    is played, or no layout fits the view or was solved within the budget's nodes."""
    decision = view.decision
    declarer, game = view.declarer, view.game
    if decision is None or declarer is None or game is None:
        return None
    legal = [a.card for a in decision.actions if isinstance(a, PlayCard)]
    classes = card_classes(legal, Knowledge(view))
    band = result_band(view)
    if len(classes) < 2 or band is None:
        return None
    floor, ceiling, home_at = (0, 13, band[2]) if exact else band
    nodes = card_nodes(view, budget or Budget())
    try:
        drawn = layouts(view, count, random.Random(seed))
    except ValueError:
        return None
    reps = list(classes)
    solved = tuple(solve_layouts(view, drawn, reps, (floor, ceiling), lambda: nodes))
    if not solved:
        return None

    def each(value: Callable[[int], int]) -> dict[Card, tuple[int, ...]]:
        """``value`` of the declarer's tricks after each card, layout by layout (a layout
        counted as often as it was drawn; a card as its class's lowest)."""
        return {
            m: tuple(value(got[rep]) for weight, got in solved for _ in range(weight))
            for rep, members in classes.items()
            for m in members
        }

    outcomes, taken = each(lambda v: outcome_of(view.low, v, home_at)), each(lambda v: v)
    declares = view.seat == declarer
    return CardOdds(outcomes, declares, taken, declares != view.low, solved, seed, count, nodes)
