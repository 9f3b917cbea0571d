"""Estimates for the auction: each game's chance of going home with this hand.

Every figure comes from the seat's own cards and the set of cards it has not
seen; the stock and the buys are sampled from that set with a seeded RNG, so
the same view always gives the same figures and hidden cards cannot matter.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.cards import Card, Suit
from ..rules.games import GAMES, Family, Game
from .evaluate import danger_cards, home_chance, misere_chance, trump_tricks

__all__ = ["GameOdds", "best_thirteen_high", "best_thirteen_low", "buying_discards", "estimate_all", "safest"]

SAMPLES = 10
BUY_DEFENCE = 0.4  # tricks the opponents' buying takes back


@dataclass(frozen=True, slots=True)
class GameOdds:
    """Chance of going home in ``game`` with suit level 0/1/2, and the planned trump."""

    game: Game
    chance: tuple[float, float, float]  # plain, in suit, in highest suit (0 where not allowed)
    trump: Suit | None
    low: bool
    note: str


def _allowed(level: int, highest: Suit) -> tuple[Suit, ...]:
    if level == 2:
        return (highest,)
    if level == 1:
        return (highest, highest.partner)
    return tuple(Suit)


def best_trump(cards: Sequence[Card], allowed: Sequence[Suit]) -> tuple[Suit, float]:
    scored = [(trump_tricks(cards, t), -int(t), t) for t in allowed]
    tricks, _, suit = max(scored)
    return suit, tricks


def buying_discards(cards: Sequence[Card], trump: Suit, limit: int) -> list[Card]:
    """Cards a buying declarer lays aside: side cards below the queen that are not aces,
    weakest first, at most ``limit``."""
    weak = [c for c in cards if c.suit is not trump and c.rank < 12]
    weak.sort(key=lambda c: (sum(1 for x in cards if x.suit is c.suit), c.rank))
    return weak[:limit]


def safest(cards: Sequence[Card], keep: int, aces_low: bool = False) -> list[Card]:
    """The ``keep`` cards safest for a misère: lowest ranks, dangerous cards last."""
    pool = list(cards)
    while len(pool) > keep:
        excess = len(pool) - keep
        bad = danger_cards(pool, aces_low)[: max(1, (excess + 1) // 2)]
        if not bad:
            bad = sorted(pool, key=lambda c: (-c.rank, c))[:excess]
        drop = set(bad)
        pool = [c for c in pool if c not in drop]
    return pool


def best_thirteen_low(cards: Sequence[Card], aces_low: bool = False) -> list[Card]:
    return safest(cards, 13, aces_low)


def thirteen_for_trump(cards: Sequence[Card], trump: Suit) -> tuple[list[Card], float]:
    """13 of up to 26 cards for a trump game: every card of the trump, then the
    highest cards of the other suits; with the tricks they are worth."""
    ordered = sorted(cards, key=lambda c: (c.suit is not trump, -c.rank, c))
    hand = ordered[:13]
    return hand, trump_tricks(hand, trump)


def best_thirteen_high(cards: Sequence[Card], allowed: Sequence[Suit]) -> tuple[list[Card], Suit, float]:
    """The best 13 cards and trump among ``allowed`` for a trump game."""
    options = [(*thirteen_for_trump(cards, t), t) for t in allowed]
    hand, value, trump = max(options, key=lambda o: (o[1], -int(o[2])))
    return hand, trump, value


def _sample(rng: random.Random, unseen: Sequence[Card], n: int) -> list[Card]:
    return rng.sample(list(unseen), n)


def _buying_tricks(hand: Sequence[Card], unseen: Sequence[Card], trump: Suit, rng: random.Random) -> list[float]:
    """Tricks expected after the declarer's buy with ``trump``, one figure per sampled stock."""
    out = buying_discards(hand, trump, 13)
    kept = [c for c in hand if c not in out]
    return [trump_tricks(kept + _sample(rng, unseen, len(out)), trump) - BUY_DEFENCE for _ in range(SAMPLES)]


def estimate_all(
    hand: Sequence[Card], unseen: Sequence[Card], highest: Suit, seed: int, aces_rule: bool = False
) -> dict[str, GameOdds]:
    """Odds for all 40 games (by name) for a dealt hand."""
    rng = random.Random(seed)
    out: dict[str, GameOdds] = {}
    per_trump = {t: _buying_tricks(hand, unseen, t, rng) for t in Suit}

    def buy_odds(trump: Suit, need: int) -> float:
        return sum(home_chance(t, need) for t in per_trump[trump]) / SAMPLES

    suit_share = {s: sum(1 for c in unseen if c.suit is s) / len(unseen) for s in Suit}
    for g in GAMES:
        fam = g.family
        if fam is Family.BUYING:
            chances = tuple(max(buy_odds(t, g.tricks) for t in _allowed(lv, highest)) for lv in range(3))
            trump = max(Suit, key=lambda t: buy_odds(t, g.tricks))
            out[g.name] = GameOdds(g, (chances[0], chances[1], chances[2]), trump, False, "buying")
        elif fam.turned_cards:
            k = fam.turned_cards
            total = 0.0
            for _ in range(SAMPLES):
                suits = {c.suit for c in _sample(rng, unseen, k)}
                total += max(buy_odds(t, g.tricks) for t in suits)
            if k == 1:
                total = SAMPLES * sum(suit_share[t] * buy_odds(t, g.tricks) for t in Suit)
            out[g.name] = GameOdds(g, (total / SAMPLES, 0.0, 0.0), None, False, f"{k} turned")
        elif fam is Family.SOLO:
            solo = [home_chance(best_trump(hand, _allowed(lv, highest))[1] - 1.2, g.tricks, 0.6) for lv in range(3)]
            suit, _ = best_trump(hand, tuple(Suit))
            out[g.name] = GameOdds(g, (solo[0], solo[1], solo[2]), suit, False, "solo")
        elif fam is Family.SOLO_MISERE:
            assert g.misere is not None
            cards = safest(hand, g.misere.cards, aces_rule)
            chance = misere_chance(cards, g.misere.open) * (0.8 if g.royale else 1.0)
            out[g.name] = GameOdds(g, (chance, 0.0, 0.0), None, True, "solo misère")
        elif fam is Family.KOPMISAR:
            assert g.misere is not None
            total = 0.0
            for _ in range(SAMPLES):
                away = (danger_cards(hand) + sorted(hand, key=lambda c: -c.rank))[: g.level]
                away = list(dict.fromkeys(away))[: g.level]
                new = [c for c in hand if c not in away] + _sample(rng, unseen, g.level)
                total += misere_chance(safest(new, g.misere.cards, aces_rule), False)
            out[g.name] = GameOdds(g, (total / SAMPLES, 0.0, 0.0), None, True, "köpmisär")
        else:  # gask games, vira, gök: the whole stock
            out[g.name] = _stock_odds(g, hand, unseen, highest, rng, aces_rule)
    return out


def _stock_odds(
    g: Game,
    hand: Sequence[Card],
    unseen: Sequence[Card],
    highest: Suit,
    rng: random.Random,
    aces_rule: bool,
) -> GameOdds:
    keep = 13 if g.family in (Family.VIRA, Family.GOK) else g.level
    high = g.family is not Family.GOK
    chances = [0.0, 0.0, 0.0]
    low_chance = 0.0
    trump_votes: dict[Suit, int] = {}
    for _ in range(SAMPLES):
        stock = _sample(rng, unseen, 13)
        if high:
            kept_high = sorted(hand, key=lambda c: -c.rank)[:keep] if keep < 13 else list(hand)
            per_trump = {t: home_chance(thirteen_for_trump(kept_high + stock, t)[1], g.tricks, 0.6) for t in Suit}
            for lv in range(3):
                chances[lv] += max(per_trump[t] for t in _allowed(lv, highest))
            trump = max(Suit, key=lambda t: (per_trump[t], -int(t)))
            trump_votes[trump] = trump_votes.get(trump, 0) + 1
        if g.misere is not None:
            kept_low = safest(hand, keep) if keep < 13 else list(hand)
            cards = safest(best_thirteen_low(kept_low + stock), g.misere.cards, aces_rule or g.can_play_low)
            low_chance += misere_chance(cards, g.misere.open)
    chances = [c / SAMPLES for c in chances]
    low_chance /= SAMPLES
    planned = max(trump_votes, key=lambda t: trump_votes[t]) if trump_votes else None
    if not high:
        return GameOdds(g, (low_chance, 0.0, 0.0), None, True, "gök")
    if g.can_play_low and low_chance > chances[0]:
        return GameOdds(g, (low_chance, chances[1], chances[2]), None, True, "gask low")
    return GameOdds(g, (chances[0], chances[1], chances[2]), planned, False, "gask high")
