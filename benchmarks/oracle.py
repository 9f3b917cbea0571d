"""How much could better inference give the strong bot's card play? Its search given the true cards.

The strong bot deals the hidden cards anew at each card (its inference: voids, the auction,
markings) and plays the card best over those layouts. Here, in a duplicate match against the
normal bot as ``vira match`` plays it, the strong bot searches the one true layout instead
(double dummy on the real cards: perfect inference); everything else is the strong bot's. The
gap between this match and ``vira match --a strong --b normal`` on the same seed is the most
that better inference could add to the card play (less: a bot that knew the cards would also
play differently before the first card, which this one does not). ``--know declarer``: a
defender is given the declarer's hand alone (as if laid open to it), its partner's dealt as
ever, and the declarer searches as the strong bot does: how much of the gap is the declarer's
hand.

This bot sees cards its seat may not: it is a measuring rod for this benchmark, never a level.
Run: ``python benchmarks/oracle.py [--deals N] [--seed S] [--know all|declarer]`` (one process: the oracle is made
here); prints the match as ``vira match --json`` does.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from vira_desktop.ai import Bot, make_bot
from vira_desktop.ai.sampling import Layout
from vira_desktop.ai.strong import MATCH_BUDGET, StrongBot
from vira_desktop.rules.cards import cards_from_mask
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.view import View
from vira_desktop.session import match


class Oracle(StrongBot):
    """The strong bot, its card search over the true layout alone (``truth``: the deal played)."""

    name = "oracle"

    def __init__(self, seed: int) -> None:
        super().__init__(seed, MATCH_BUDGET)
        self.truth: Deal | None = None

    know = "all"  # "declarer": a defender knows the declarer's hand alone (its partner's is dealt as ever)

    def _budgeted(self, view: View, rng: random.Random) -> Iterator[Layout]:
        assert self.truth is not None
        hands = self.truth.hands
        if self.know == "all":
            yield Layout((hands[0], hands[1], hands[2]), self.budget.layouts)
            return
        declarer = view.declarer
        if declarer is not None and declarer != view.seat:  # his hand as if laid open to this seat
            view = replace(view, open_hands={**view.open_hands, int(declarer): tuple(cards_from_mask(hands[declarer]))})
        yield from super()._budgeted(view, rng)


_headless: Callable[[str, int], Bot] = match.headless_bot
_play_deal = match.play_deal


def _bot(level: str, seed: int) -> Bot:
    return Oracle(seed) if level == "oracle" else _headless(level, seed)


def _play(deal: Deal, bots: Sequence[Bot], *args: object, **kwargs: object) -> int:
    for bot in bots:
        if isinstance(bot, Oracle):
            bot.truth = deal
    return _play_deal(deal, bots, *args, **kwargs)  # type: ignore[arg-type]


def _known(level: str, *args: object) -> Bot | None:
    """The match's check that its levels exist, "oracle" known too."""
    return None if level == "oracle" else make_bot(level, *args)  # type: ignore[arg-type]


def _install() -> None:
    """The match's bots made here."""
    match.headless_bot = _bot
    match.play_deal = _play
    setattr(match, "make_bot", _known)  # noqa: B010 - not exported: set as the match module holds it


_install()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--b", default="normal", help="the other side (default: normal)")
    parser.add_argument("--know", choices=("all", "declarer"), default="all", help="what the oracle sees")
    args = parser.parse_args()
    Oracle.know = args.know
    stats = match.duplicate_match("oracle", args.b, args.deals, args.seed)
    print(json.dumps(stats.as_json(), indent=1))


if __name__ == "__main__":
    main()
