"""Benchmark: Ågren markings in normal self-play, as meant by the marker and as read by partner.

Run: ``python benchmarks/markings.py [--deals N] [--seed S] [--json]``.

In every trump game, each defender's first two discards (cards played when unable to
follow, not ruffs) form a pair. The marker's intent is taken from the reasons of his two
discards (the bot knows why it discards): strength or weakness in the named suit(s), or
none (no marking meant, or none possible). Partner's reading is ``read_markings`` on
partner's view once the pair is complete. Printed: the share of pairs whose reading is
the intent (same kind, same suits; a pair not meant counts as read as meant when partner
does not read it as a marking), the pairs not meant that partner reads anyway, the pairs
by intended kind, and the share of weakness second discards made with a J, Q or K while
a smaller card higher than the first (not a master) was there to play. The reason keys
of the bot before this work are read too (``agren_strength`` or ``agren_weakness``, then
``agren_second``). With the declarer's home share in trump games (the auction does not
depend on card play, so two versions of the bot play the same contracts).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass

from vira_desktop.ai import make_bot
from vira_desktop.ai.knowledge import Knowledge, Marking, discards, read_markings
from vira_desktop.rules.actions import PlayCard
from vira_desktop.rules.cards import Card, Suit
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.decision import Phase

Intent = tuple[bool, frozenset[Suit]] | None  # (strong, suits), or no marking meant


@dataclass
class Tally:
    pairs: int = 0
    read_as_meant: int = 0
    unmeant_read: int = 0
    pairs_4plus: int = 0  # completed with four or more cards in hand: before the endgame forces discards
    read_as_meant_4plus: int = 0
    intents: Counter[str] | None = None
    weak_seconds: int = 0
    weak_seconds_honour_needless: int = 0
    trump_games: int = 0
    home: int = 0

    def __post_init__(self) -> None:
        self.intents = Counter()


def _intent(first: tuple[str, dict[str, object], Card], second: tuple[str, dict[str, object], Card]) -> Intent:
    """What the marker meant by his pair, from his two reasons."""
    key2, values2, _ = second
    mark = values2.get("mark")
    if key2 == "agren_complete" and isinstance(mark, Marking):
        return mark.strong, frozenset(mark.suits)
    key1, _, card1 = first
    if key2 == "agren_second" and key1 in ("agren_strength", "agren_weakness"):  # the bot before the rework
        return key1 == "agren_strength", frozenset({card1.suit})
    return None


def _kind(intent: Intent) -> str:
    return "none" if intent is None else ("strength" if intent[0] else "weakness")


def _needless_honour(first: Card, played: Card, legal: list[Card], k: Knowledge, trump: Suit) -> bool:
    """A J, Q or K completes a weakness marking though a smaller card higher than the first
    (of the first's suit or the played card's, not a master) was there to play."""
    if played.rank < 11 or played.rank > 13:
        return False
    return any(
        c.suit in (first.suit, played.suit)
        and c.suit is not trump
        and first.rank < c.rank < played.rank
        and not k.is_master(c)
        for c in legal
    )


def run(deals: int, seed: int, progress: bool = False) -> dict[str, object]:
    rng = random.Random(seed)
    tally = Tally()
    assert tally.intents is not None
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [make_bot("normal", seed * 31 + i * 3 + s) for s in range(3)]
        firsts: dict[int, tuple[str, dict[str, object], Card]] = {}
        while not deal.is_over:
            seat = deal.decision().seat
            view = deal.view(seat)
            choice = bots[seat].choose(view)
            action = choice.action
            marked = (
                view.phase is Phase.PLAY
                and isinstance(action, PlayCard)
                and view.trump is not None
                and not view.low
                and view.declarer is not None
                and seat != view.declarer
                and bool(view.trick)
                and action.card.suit is not view.trick[0][1].suit
                and action.card.suit is not view.trump
            )
            done = len(discards(view)[seat]) if marked else 2
            if action is not None:
                deal.apply(action)
            if not marked or done >= 2:
                continue
            assert isinstance(action, PlayCard) and view.trump is not None and view.declarer is not None
            said = (choice.reason.key, dict(choice.reason.values), action.card)
            if done == 0:
                firsts[seat] = said
                continue
            intent = _intent(firsts[seat], said)
            partner = 3 - seat - int(view.declarer)
            reading = [m for m in read_markings(deal.view(partner)) if m.seat == seat]
            read: Intent = (reading[0].strong, frozenset(reading[0].suits)) if reading else None
            tally.pairs += 1
            tally.read_as_meant += read == intent  # a pair not meant is read as meant when it is not read
            tally.unmeant_read += intent is None and read is not None
            if len(view.hand) >= 4:
                tally.pairs_4plus += 1
                tally.read_as_meant_4plus += read == intent
            tally.intents[_kind(intent)] += 1
            if intent is not None and not intent[0]:
                legal = [a.card for a in view.decision.actions if isinstance(a, PlayCard)] if view.decision else []
                tally.weak_seconds += 1
                first = firsts[seat][2]
                tally.weak_seconds_honour_needless += _needless_honour(
                    first, action.card, legal, Knowledge(view), view.trump
                )
        result = deal.result
        if result is not None and deal.view(0).trump is not None and not deal.view(0).low:
            tally.trump_games += 1
            tally.home += result.outcome.value == "home"
        if progress and (i + 1) % 1000 == 0:
            print(json.dumps(_figures(tally, i + 1, seed, time.perf_counter() - start)), file=sys.stderr, flush=True)
    return _figures(tally, deals, seed, time.perf_counter() - start)


def _pct(a: int, b: int) -> float | None:
    return round(100 * a / b, 1) if b else None


def _figures(tally: Tally, deals: int, seed: int, seconds: float) -> dict[str, object]:
    assert tally.intents is not None
    pct = _pct
    return {
        "deals": deals,
        "seed": seed,
        "pairs": tally.pairs,
        "read_as_meant_pct": pct(tally.read_as_meant, tally.pairs),
        "pairs_by_intent": dict(sorted(tally.intents.items())),
        "pairs_not_meant_but_read": tally.unmeant_read,
        "pairs_with_4plus_cards": tally.pairs_4plus,
        "read_as_meant_4plus_pct": pct(tally.read_as_meant_4plus, tally.pairs_4plus),
        "weakness_seconds": tally.weak_seconds,
        "weakness_second_needless_honour": tally.weak_seconds_honour_needless,
        "weakness_second_needless_honour_pct": pct(tally.weak_seconds_honour_needless, tally.weak_seconds),
        "trump_games": tally.trump_games,
        "trump_games_declarer_home_pct": pct(tally.home, tally.trump_games),
        "deals_per_s": round(deals / seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON line instead of a table")
    parser.add_argument("--progress", action="store_true", help="the figures so far every 1000 deals, on stderr")
    args = parser.parse_args()
    out = run(args.deals, args.seed, args.progress)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return
    for key, value in out.items():
        print(f"{key:40} {value}")


if __name__ == "__main__":
    main()
