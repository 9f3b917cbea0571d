"""Estimates for the auction: each game's chance of going home with this hand.

Every figure comes from the seat's own cards and the set of cards it has not
seen; the stock and the buys are sampled from that set with a seeded RNG, so
the same view always gives the same figures and hidden cards cannot matter.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from ..rules.cards import SUIT_MASKS, Card, Suit, cards_from_mask, mask_of, suit_class
from ..rules.games import GAMES, Family, Game, game
from .base import Reason
from .evaluate import (
    danger_cards,
    home_chance,
    misere_chance,
    misere_chance_mask,
    sure_tricks_mask,
    trump_tricks,
    trump_tricks_mask,
    weighted_dangers,
)

__all__ = [
    "GameOdds",
    "HandOdds",
    "best_thirteen_high",
    "best_thirteen_low",
    "buying_discards",
    "play_calibrated",
    "safest",
]

SAMPLES = 10

# Platt scaling (slope, shift on the logit) that brings each game's estimated chance in the
# auction in line with how often the normal bot goes home when it plays the game, keyed
# by game name or family. Fitted with benchmarks/contracts.py (the declarer always plays)
# on hands whose raw estimate is 0.3 or more, the range where bids are decided.
CALIBRATION: dict[str, tuple[float, float]] = {
    "buying": (1.15, 0.1),
    "turne": (1.3, 1.0),
    "vingel": (1.3, 0.8),
    "tringel": (0.7, 0.4),
    "gask": (0.8, -0.2),  # the stock decides a gask far more than the kept cards
    "vira": (0.3, -1.7),
    "gok": (0.75, 0.3),
    "kopmisar": (1.05, 0.4),
    "solo": (1.3, 2.0),
    # Solo 9-11 go home far more often than solo 6-8 at the same raw figure: a hand strong
    # enough for them holds long solid suits the trick count undervalues (--min 0.1 runs).
    "solo 9": (0.95, 2.4),
    "solo 10": (0.95, 2.6),
    "solo 11": (0.95, 2.6),  # as solo 10: its own fit (0.7, 2.8) rests on 47 hands
    "solo_misere": (1.55, 1.3),
}


def auction_scaling(g: Game) -> tuple[float, float]:
    return CALIBRATION.get(g.name, CALIBRATION.get(g.family.value, (1.0, 0.0)))


# The same for the chance once the declarer holds the cards he plays with (to play, lay
# down or repurchase), keyed by game name or family and high (False) or low (True).
PLAY_CALIBRATION: dict[tuple[str, bool], tuple[float, float]] = {
    ("buying", False): (1.3, 0.7),
    ("turne", False): (1.3, 0.9),
    ("vingel", False): (1.4, 1.0),
    ("tringel", False): (1.45, 1.4),
    ("gask", False): (1.2, 2.1),  # no buying by the defenders: the trick count is cautious
    ("gask 4", False): (1.55, 2.3),
    ("gask 5", False): (1.5, 1.5),
    ("gask 6", False): (1.5, 1.5),
    ("vira", False): (1.55, 0.1),
    ("solo", False): (1.3, 0.6),
    ("solo 9", False): (0.95, 1.4),
    ("solo 10", False): (1.55, 1.5),
    ("solo 11", False): (1.05, 2.0),
    ("gask", True): (0.85, 1.1),
    ("gok", True): (1.05, 1.6),
    ("kopmisar", True): (0.95, 0.9),
    ("solo_misere", True): (1.0, 1.1),
}


def play_calibrated(chance: float, g: Game, low: bool) -> float:
    """``chance`` at the moment of play, calibrated."""
    return _scaled(chance, PLAY_CALIBRATION.get((g.name, low), PLAY_CALIBRATION.get((g.family.value, low), (1.0, 0.0))))


def _scaled(chance: float, slope_shift: tuple[float, float]) -> float:
    """Platt scaling: ``logit(chance)`` times the slope plus the shift."""
    slope, shift = slope_shift
    if chance <= 0.0 or chance >= 1.0 or (slope, shift) == (1.0, 0.0):
        return chance
    return 1.0 / (1.0 + math.exp(-(slope * math.log(chance / (1.0 - chance)) + shift)))


SURE = 0.97  # the chance given to a hand whose sure tricks are enough (a misplayed card aside)


def _sure_chance(mask: int, trump: int, needed: int) -> float:
    return SURE if sure_tricks_mask(mask, trump) >= needed else 0.0


Shares = tuple[float, float, float]


def _shares(weights: Sequence[float]) -> Shares:
    total = sum(weights)
    return (weights[0] / total, weights[1] / total, weights[2] / total) if total else (1.0, 0.0, 0.0)


BUY_DEFENCE = 0.4  # tricks the opponents' buying takes back


@dataclass(frozen=True, slots=True)
class GameOdds:
    """Chance of going home in ``game`` with suit level 0/1/2, and the planned trump."""

    game: Game
    chance: tuple[float, float, float]  # plain, in suit, in highest suit (0 where not allowed)
    trump: Suit | None
    low: bool
    note: Reason  # how the odds were reckoned ("buying", "2 turned" …)
    # The chance at the moment of play (calibrated) in each sampled stock, where the declarer
    # sees his cards before choosing to play or lay down (buying and stock games, level 0).
    at_play: tuple[float, ...] = ()
    # Where the trump is turned from the stock: the shares of off-suit, suit and highest-suit
    # trumps among the deals it goes home with, and among those it fails with (for the pins).
    turned_classes: tuple[Shares, Shares] | None = None


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


_BY_RANK = sorted(range(52), key=lambda i: (-(i % 13), i // 13))  # aces first, then kings, …


def _top(mask: int, n: int, skip_suit: int = -1) -> int:
    """The ``n`` highest cards of ``mask`` (outside ``skip_suit``)."""
    out = 0
    for i in _BY_RANK:
        if n <= 0:
            break
        if mask >> i & 1 and i // 13 != skip_suit:
            out |= 1 << i
            n -= 1
    return out


def safest_mask(mask: int, keep: int, aces_low: bool = False, dead: int = 0) -> int:
    """The ``keep`` cards of ``mask`` safest for a misère: dangerous cards go first, then high ones.
    Cards laid away are out of play, so they stop counting as the others' cards."""
    while mask.bit_count() > keep:
        excess = mask.bit_count() - keep
        bad = weighted_dangers(mask, aces_low, dead)[: max(1, (excess + 1) // 2)]
        if bad:
            for _, i in bad:
                mask &= ~(1 << i)
                dead |= 1 << i
        else:
            top = _top(mask, excess)
            mask &= ~top
            dead |= top
    return mask


def safest(cards: Sequence[Card], keep: int, aces_low: bool = False, dead: int = 0) -> list[Card]:
    """The ``keep`` cards safest for a misère."""
    return list(cards_from_mask(safest_mask(mask_of(cards), keep, aces_low, dead)))


def best_thirteen_low(cards: Sequence[Card], aces_low: bool = False) -> list[Card]:
    return safest(cards, 13, aces_low)


def thirteen_mask(pool: int, trump: int) -> int:
    """13 of up to 26 cards for a trump game: every card of the trump, then the highest others."""
    trumps = pool & SUIT_MASKS[trump]
    return trumps | _top(pool, 13 - trumps.bit_count(), trump)


def thirteen_for_trump(cards: Sequence[Card], trump: Suit) -> tuple[list[Card], float]:
    """13 of up to 26 cards for a trump game, with the tricks they are worth."""
    hand = thirteen_mask(mask_of(cards), int(trump))
    return list(cards_from_mask(hand)), trump_tricks_mask(hand, int(trump))


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


class HandOdds(Mapping[str, GameOdds]):
    """Each game's odds for a dealt hand, worked out when first asked for.

    Every game samples with its own RNG (seeded by the hand's seed and the
    game), so the figures do not depend on the order they are asked in.
    """

    def __init__(
        self, hand: Sequence[Card], unseen: Sequence[Card], highest: Suit, seed: int, aces_rule: bool = False
    ) -> None:
        self.hand = list(hand)
        self.unseen = list(unseen)
        self.highest = highest
        self.seed = seed
        self.aces_rule = aces_rule
        self._games: dict[str, GameOdds] = {}
        self._per_trump: dict[Suit, list[float]] = {}

    def _rng(self, salt: int) -> random.Random:
        return random.Random(self.seed * 1009 + salt)

    def buy_odds(self, trump: Suit, need: int) -> float:
        if trump not in self._per_trump:
            self._per_trump[trump] = _buying_tricks(self.hand, self.unseen, trump, self._rng(100 + int(trump)))
        return sum(home_chance(t, need) for t in self._per_trump[trump]) / SAMPLES

    def __getitem__(self, name: str) -> GameOdds:
        if name not in self._games:
            raw = self._estimate(game(name))
            scaling = auction_scaling(raw.game)
            # a chance that rests on sure tricks is never scaled down
            chances = tuple(max(_scaled(c, scaling), c if c >= SURE else 0.0) for c in raw.chance)
            self._games[name] = replace(raw, chance=chances)  # type: ignore[arg-type]
        return self._games[name]

    def __iter__(self) -> Iterator[str]:
        return iter(g.name for g in GAMES)

    def __len__(self) -> int:
        return len(GAMES)

    def _estimate(self, g: Game) -> GameOdds:
        hand, unseen, highest, aces_rule = self.hand, self.unseen, self.highest, self.aces_rule
        rng = self._rng(g.no)
        fam = g.family
        if fam is Family.BUYING:
            chances = [max(self.buy_odds(t, g.tricks) for t in _allowed(lv, highest)) for lv in range(3)]
            trump = max(Suit, key=lambda t: (self.buy_odds(t, g.tricks), -int(t)))
            at_play = tuple(play_calibrated(home_chance(t, g.tricks), g, False) for t in self._per_trump[trump])
            return GameOdds(
                g, (chances[0], chances[1], chances[2]), trump, False, Reason("note_buying", "buying"), at_play
            )
        if fam.turned_cards:
            k = fam.turned_cards
            home, fail = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]  # by the class of the trump turned
            if k == 1:
                turns = [(sum(1 for c in unseen if c.suit is t) / len(unseen), t) for t in Suit]
            else:
                picks = (
                    max({c.suit for c in _sample(rng, unseen, k)}, key=lambda t: (self.buy_odds(t, g.tricks), -int(t)))
                    for _ in range(SAMPLES)
                )
                turns = [(1 / SAMPLES, t) for t in picks]
            for weight, t in turns:
                p = self.buy_odds(t, g.tricks)
                home[suit_class(t, highest)] += weight * p
                fail[suit_class(t, highest)] += weight * (1 - p)
            shares = (_shares(home), _shares(fail))
            return GameOdds(
                g,
                (sum(home), 0.0, 0.0),
                None,
                False,
                Reason("note_turned", f"{k} turned", count=k),
                turned_classes=shares,
            )
        if fam is Family.SOLO:
            mask = mask_of(hand)
            solo = [
                max(
                    home_chance(best_trump(hand, allowed)[1] - 1.2, g.tricks, 0.6),
                    max(_sure_chance(mask, int(t), g.tricks) for t in allowed),
                )
                for allowed in (_allowed(lv, highest) for lv in range(3))
            ]
            suit = max(Suit, key=lambda t: (sure_tricks_mask(mask, int(t)), trump_tricks(hand, t), -int(t)))
            return GameOdds(g, (solo[0], solo[1], solo[2]), suit, False, Reason("note_solo", "solo"))
        if fam is Family.SOLO_MISERE:
            assert g.misere is not None
            cards = safest(hand, g.misere.cards, aces_rule)
            chance = misere_chance(cards, g.misere.open)
            return GameOdds(g, (chance, 0.0, 0.0), None, True, Reason("note_solo_misere", "solo misère"))
        if fam is Family.KOPMISAR:
            assert g.misere is not None
            away = list(dict.fromkeys(danger_cards(hand) + sorted(hand, key=lambda c: -c.rank)))[: g.level]
            kept = [c for c in hand if c not in away]
            total = 0.0
            for _ in range(SAMPLES):
                new = kept + _sample(rng, unseen, g.level)
                total += misere_chance(safest(new, g.misere.cards, aces_rule), False)
            return GameOdds(g, (total / SAMPLES, 0.0, 0.0), None, True, Reason("note_kopmisar", "köpmisär"))
        return _stock_odds(g, hand, unseen, highest, rng, aces_rule)


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
    hand_mask = mask_of(hand)
    kept_high = _top(hand_mask, keep)
    kept_low = safest_mask(hand_mask, keep) if keep < 13 else hand_mask
    dead = hand_mask & ~kept_low  # cards set aside before taking the stock are out of play
    aces_low = aces_rule or g.can_play_low
    at_play = []
    for _ in range(SAMPLES):
        stock = mask_of(_sample(rng, unseen, 13))
        seen = 0.0
        if high:
            pool = kept_high | stock
            per_trump = {}
            most = -math.inf  # the most tricks with any trump: seen by the declarer, calibrated once
            for t in Suit:
                thirteen = thirteen_mask(pool, t)
                tricks = trump_tricks_mask(thirteen, t)
                sure = _sure_chance(thirteen, t, g.tricks)
                per_trump[t] = max(home_chance(tricks, g.tricks, 0.6), sure)
                most = max(most, tricks)
                seen = max(seen, sure)
            seen = max(seen, play_calibrated(home_chance(most, g.tricks), g, False))
            for lv in range(3):
                chances[lv] += max(per_trump[t] for t in _allowed(lv, highest))
            trump = max(Suit, key=lambda t: (per_trump[t], -int(t)))
            trump_votes[trump] = trump_votes.get(trump, 0) + 1
        if g.misere is not None:
            pool = kept_low | stock
            cards = safest_mask(safest_mask(pool, 13, False, dead), g.misere.cards, aces_low, dead)
            low = misere_chance_mask(cards, g.misere.open, False, dead | (pool & ~cards))
            low_chance += low
            seen = max(seen, play_calibrated(low, g, True))
        at_play.append(seen)
    chances = [c / SAMPLES for c in chances]
    low_chance /= SAMPLES
    planned = max(trump_votes, key=lambda t: trump_votes[t]) if trump_votes else None
    if not high:
        return GameOdds(g, (low_chance, 0.0, 0.0), None, True, Reason("note_gok", "gök"), tuple(at_play))
    if g.can_play_low and low_chance > chances[0]:
        return GameOdds(
            g, (low_chance, chances[1], chances[2]), None, True, Reason("note_gask_low", "gask low"), tuple(at_play)
        )
    return GameOdds(
        g, (chances[0], chances[1], chances[2]), planned, False, Reason("note_gask_high", "gask high"), tuple(at_play)
    )
