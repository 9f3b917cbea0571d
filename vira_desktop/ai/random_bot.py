"""Uniformly random legal actions (tests and benchmarks)."""

from __future__ import annotations

import random

from ..rules.view import View
from .base import Choice, Reason

RANDOM = Reason("random", "a random legal move")


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Choice:
        decision = view.decision
        if decision is None:
            raise ValueError(f"seat {view.seat} is not asked anything now")
        actions = decision.actions
        if decision.optional and self.rng.random() < 0.5:
            return Choice(None, RANDOM)
        if decision.choice is not None and (not actions or self.rng.random() < 0.5):
            return Choice(decision.choice.random(self.rng), RANDOM)
        return Choice(self.rng.choice(actions), RANDOM)
