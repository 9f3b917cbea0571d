"""The session ledger: token bowls, the pulla and the settlement (rulebook
"Pins, Rounds and the Pulla", "Bets", "Betting In", "Settlement").

Two layers are kept in step:

* **accounts** — each player's result in pins, changed by every payment at its
  nominal value; this is the figure a player wins or loses;
* **tokens** — the physical pieces in each player's own colour (pins, rounds =
  2 pins, bets = 8 pins, triangles = 5 bets) lying in the bowls, in the pulla
  and under it, moved as the rulebook moves them. Tokens are never created or
  lost: every place together always holds exactly what was issued.

A player whose bowl has no bets left puts rounds and pins into the pulla, each
counting as one bet; with those gone too, pins go *under* the pulla as
sexmastare, six bets each. Own-colour tokens lying in their owner's bowl are
worth nothing to anyone, so a bowl that cannot make a payment is topped up
from the owner's tin (an explicit ``TokensIssued`` event), which changes no
result.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum

from .errors import LedgerError

__all__ = [
    "DEFAULT_BOWL",
    "PULLA",
    "SEXMASTARE",
    "Kind",
    "Ledger",
    "Place",
    "Pot",
    "Settlement",
    "Sharing",
    "TokensIssued",
    "TokensMoved",
    "bet_in_payment",
    "reantes",
    "share_pulla",
]


class Pot(Enum):
    """The two places that are not a player's bowl (never equal to any player's name)."""

    PULLA = "pulla"
    SEXMASTARE = "under the pulla"

    def __str__(self) -> str:
        return self.value


PULLA = Pot.PULLA
SEXMASTARE = Pot.SEXMASTARE
Place = str | Pot  # a player's bowl (by name) or a pot


class Kind(IntEnum):
    """Token kinds by value in pins."""

    PIN = 1
    ROUND = 2
    BET = 8
    TRIANGLE = 40

    @property
    def label(self) -> str:
        return self.name.lower()


DEFAULT_BOWL: dict[Kind, int] = {Kind.TRIANGLE: 2, Kind.BET: 20, Kind.ROUND: 10, Kind.PIN: 20}

Token = tuple[str, Kind]  # (colour = owner's name, kind)


@dataclass(frozen=True, slots=True)
class TokensMoved:
    source: Place  # a player's name, PULLA or SEXMASTARE
    target: Place
    colour: str
    kind: Kind
    count: int
    reason: str


def reantes(events: Iterable[object], first: str) -> int:
    """How many times everyone anted again (åla om) in ``events``: the bets ``first``, the
    first player at the table, put in for it (each player puts in one bet a time)."""
    return sum(1 for ev in events if isinstance(ev, TokensMoved) and ev.reason == "åla om" and ev.source == first)


@dataclass(frozen=True, slots=True)
class TokensIssued:
    """Tokens taken from an owner's tin into the owner's bowl."""

    owner: str
    kind: Kind
    count: int
    reason: str


LedgerEvent = TokensMoved | TokensIssued


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a session: each player's share of the pulla and final result in pins."""

    pulla_bets: int
    shares: dict[str, int]  # pins each player received from the pulla
    remainder_to: tuple[str, ...]  # who took the last pin(s)
    results: dict[str, int]  # final result in pins (won +, lost -)

    @property
    def last_pins(self) -> int:
        """The pins left over when the pulla is shared equally (0, 1 or 2): the last pin(s)."""
        n = len(self.shares)
        return 8 * (self.pulla_bets % n) % n

    @property
    def winners(self) -> tuple[str, ...]:
        """Who ended with the best result: one player, or every player tied for it."""
        best = max(self.results.values(), default=0)
        return tuple(name for name, pins in self.results.items() if pins == best)


def bet_in_payment(pulla_bets: int) -> tuple[int, int]:
    """What a player who joins puts in (rulebook, Betting In): ``(bets into the pulla, pins
    to each other player)``: a third of the pulla's bets; one bet short of dividing by
    three, rounded up; two short, rounded down and a pin to each of the others."""
    third, rest = divmod(pulla_bets, 3)
    if rest == 2:  # one bet missing: round up
        return third + 1, 0
    return third, int(rest == 1)  # two bets missing: round down, one pin to each


@dataclass(frozen=True, slots=True)
class Sharing:
    """How the pulla is shared at the settlement (rulebook, Settlement and Ending the Session)."""

    each: int  # pins every player's share comes to, bets changed into pins where they do not divide
    last: int  # pins left over that still do not divide
    takers: tuple[str, ...]  # who takes them, a pin each in turn (``by_lot``: one of them, by lot)
    by_lot: bool = False


def share_pulla(pulla_bets: int, accounts: Mapping[str, int]) -> Sharing:
    """The pulla's ``pulla_bets`` shared equally among the players of ``accounts`` (each one's
    result in pins so far): the last pin or two go to the player who has lost most; a
    remainder of two to the two who lost most when they lost the same or one pin apart; one
    last pin between two who lost the same goes by lot."""
    n = len(accounts)
    each, rest = divmod(pulla_bets, n)
    each_pins, last = divmod(8 * rest, n)
    losers = sorted(accounts, key=lambda p: accounts[p])
    takers: tuple[str, ...] = ()
    by_lot = False
    if last:
        worst, second = losers[0], losers[1]
        gap = accounts[second] - accounts[worst]
        if last == 2 and gap <= 1:
            takers = (worst, second)
        elif last == 1 and gap == 0:
            takers, by_lot = tuple(p for p in losers if accounts[p] == accounts[worst]), True
        else:
            takers = (worst,)
    return Sharing(8 * each + each_pins, last, takers, by_lot)


def _bet_units(kind: Kind, place: Place) -> int:
    """What a token counts for in the pulla: a bet 1, a triangle 5, a pin or round 1; under it 6."""
    if place == SEXMASTARE:
        return 6
    return 5 if kind is Kind.TRIANGLE else 1


class Ledger:
    """Tokens and accounts of one session. Every method returns the events it caused."""

    def __init__(self, bowl: dict[Kind, int] | None = None) -> None:
        self.bowl = dict(DEFAULT_BOWL if bowl is None else bowl)
        self.players: list[str] = []
        self.places: dict[Place, Counter[Token]] = {PULLA: Counter(), SEXMASTARE: Counter()}
        self.issued: Counter[Token] = Counter()
        self.accounts: dict[str, int] = {}
        self._nominal_pulla = 0  # bets the pulla holds by the accounts

    def copy(self) -> Ledger:
        """A copy of its own (a table's undo goes back to it); tokens and names are immutable."""
        new = copy.copy(self)
        new.bowl, new.players, new.accounts = dict(self.bowl), list(self.players), dict(self.accounts)
        new.places = {place: Counter(held) for place, held in self.places.items()}
        new.issued = Counter(self.issued)
        return new

    # ------------------------------------------------------------------ queries
    def conserved(self) -> bool:
        """All places together hold exactly what was issued."""
        held: Counter[Token] = Counter()
        for counter in self.places.values():
            held.update(counter)
        nominal = self._nominal_pulla
        return +held == +self.issued and self.pulla_bets() == nominal and sum(self.accounts.values()) == -8 * nominal

    def pulla_bets(self) -> int:
        """The pulla counted in bets (substitutes as one bet, sexmastare as six)."""
        return sum(
            _bet_units(kind, place) * n for place in (PULLA, SEXMASTARE) for (_, kind), n in self.places[place].items()
        )

    def holdings(self, place: Place) -> dict[Token, int]:
        return {t: n for t, n in sorted(self.places[place].items()) if n}

    def token_result(self, player: str) -> int:
        """The rulebook's reckoning: others' tokens in my bowl minus mine in others' bowls (pins)."""
        won = sum(k * n for (colour, k), n in self.places[player].items() if colour != player)
        lost = sum(
            k * n
            for place in self.players
            if place != player
            for (colour, k), n in self.places[place].items()
            if colour == player
        )
        return won - lost

    # ------------------------------------------------------------------ moving
    def _move(
        self, source: Place, target: Place, token: Token, count: int, reason: str, out: list[LedgerEvent]
    ) -> None:
        if self.places[source][token] < count:
            raise LedgerError(f"{source} holds no {token[1].label} of {token[0]}")  # pragma: no cover
        self.places[source][token] -= count
        self.places[target][token] += count
        out.append(TokensMoved(source, target, token[0], token[1], count, reason))

    def _issue(self, owner: str, kind: Kind, count: int, reason: str, out: list[LedgerEvent]) -> None:
        self.issued[(owner, kind)] += count
        self.places[owner][(owner, kind)] += count
        out.append(TokensIssued(owner, kind, count, reason))

    def _pick(self, place: Place, owner: str, kinds: Iterable[Kind]) -> Token | None:
        """A token of one of ``kinds`` in ``place``, the owner's own colour first."""
        counter = self.places[place]
        for kind in kinds:
            if counter[(owner, kind)] > 0:
                return (owner, kind)
            for (colour, k), n in sorted(counter.items()):
                if k is kind and n > 0:
                    return (colour, k)
        return None

    # ------------------------------------------------------------------ players
    def add_player(self, name: str) -> list[LedgerEvent]:
        """Seat a player with a full bowl of their own colour."""
        if name in self.places:
            raise LedgerError(f"{name} is already at the table")
        self.players.append(name)
        self.places[name] = Counter()
        self.accounts[name] = 0
        out: list[LedgerEvent] = []
        for kind, count in self.bowl.items():
            if count:
                self._issue(name, kind, count, "bowl", out)
        return out

    # ------------------------------------------------------------------ the pulla
    def pay_pulla(self, player: str, bets: int, reason: str) -> list[LedgerEvent]:
        """``player`` puts ``bets`` bets into the pulla."""
        out: list[LedgerEvent] = []
        self.accounts[player] -= 8 * bets
        self._nominal_pulla += bets
        left = bets
        while left > 0:
            token = self._pick(player, player, [Kind.BET])
            if token is None and left >= 5:
                token = self._pick(player, player, [Kind.TRIANGLE])
            if token is None:
                token = self._pick(player, player, [Kind.ROUND, Kind.PIN])  # substitutes, one bet each
            if token is not None:
                self._move(player, PULLA, token, 1, reason, out)
                left -= _bet_units(token[1], PULLA)
                continue
            if left >= 6:  # sexmastare: a pin under the pulla counts six bets
                self._issue(player, Kind.PIN, 1, "sexmastare", out)
                self._move(player, SEXMASTARE, (player, Kind.PIN), 1, reason, out)
                left -= 6
                continue
            self._issue(player, Kind.BET, left, "empty bowl", out)
        return out

    def ante(self, players: Iterable[str], reason: str = "åla") -> list[LedgerEvent]:
        """Each of ``players`` puts one bet into the pulla (åla / åla om)."""
        out: list[LedgerEvent] = []
        for p in players:
            out += self.pay_pulla(p, 1, reason)
        return out

    def lift(self, player: str, bets: int, reason: str, everyone: Iterable[str]) -> list[LedgerEvent]:
        """``player`` lifts ``bets`` from the pulla; if it is too small, ``everyone`` antes again first."""
        out: list[LedgerEvent] = []
        table = list(everyone)
        while self.pulla_bets() < bets:
            out += self.ante(table, "åla om")
        self.accounts[player] += 8 * bets
        self._nominal_pulla -= bets
        self._take_from_pulla(player, bets, reason, out)
        return out

    def _take_from_pulla(self, player: str, bets: int, reason: str, out: list[LedgerEvent]) -> None:
        left = bets
        while left > 0:
            token = self._pick(PULLA, player, [Kind.BET, Kind.ROUND, Kind.PIN])
            if token is None and left >= 5:
                token = self._pick(PULLA, player, [Kind.TRIANGLE])
            place = PULLA
            if token is None and left >= 6:
                token, place = self._pick(SEXMASTARE, player, [Kind.PIN]), SEXMASTARE
            if token is not None:
                self._move(place, player, token, 1, reason, out)
                left -= _bet_units(token[1], place)
                continue
            # Only large pieces are left: take one and give change back in bets.
            token = self._pick(PULLA, player, [Kind.TRIANGLE])
            place = PULLA
            if token is None:
                token, place = self._pick(SEXMASTARE, player, [Kind.PIN]), SEXMASTARE
            if token is None:
                raise LedgerError("the pulla is empty")  # pragma: no cover - lift antes first
            self._move(place, player, token, 1, reason, out)
            change = _bet_units(token[1], place) - left
            self._give_bets(player, PULLA, change, "change", out)
            left = 0

    def _give_bets(self, player: str, target: Place, bets: int, reason: str, out: list[LedgerEvent]) -> None:
        have = self.places[player][(player, Kind.BET)]
        if have < bets:
            self._issue(player, Kind.BET, bets - have, reason, out)
        self._move(player, target, (player, Kind.BET), bets, reason, out)

    # ------------------------------------------------------------------ pins
    def pay_pins(self, payer: str, payee: str, pins: int, reason: str) -> list[LedgerEvent]:
        """``payer`` gives ``payee`` tokens worth ``pins``, with change where needed."""
        out: list[LedgerEvent] = []
        self.accounts[payer] -= pins
        self.accounts[payee] += pins
        self._transfer_value(payer, payee, pins, reason, out)
        return out

    def _transfer_value(
        self, payer: str, payee: str, pins: int, reason: str, out: list[LedgerEvent], change: bool = True
    ) -> None:
        """Move tokens worth ``pins``: small pieces first; else one larger piece and the payee
        gives change (``change=False`` for the change itself, which never asks for change back)."""
        left = pins
        while left > 0:
            token = self._pick(payer, payer, [k for k in sorted(Kind, reverse=True) if k <= left])
            if token is not None:
                self._move(payer, payee, token, 1, reason, out)
                left -= token[1]
                continue
            bigger = self._pick(payer, payer, sorted(k for k in Kind if k > left)) if change else None
            if bigger is None:  # no piece fits: the payer takes pins of his own colour from his tin
                self._issue(payer, Kind.PIN, left, "change" if not change else "empty bowl", out)
                continue
            self._move(payer, payee, bigger, 1, reason, out)
            self._transfer_value(payee, payer, bigger[1] - left, "change", out, change=False)
            left = 0

    # ------------------------------------------------------------------ joining and ending
    def bet_in(self, player: str) -> list[LedgerEvent]:
        """A player joining mid-session puts in a third of the pulla (rulebook "Betting In")."""
        others = list(self.players)
        out = self.add_player(player)
        bets, pins = bet_in_payment(self.pulla_bets())
        out += self.pay_pulla(player, bets, "bet in")
        for other in others if pins else ():
            out += self.pay_pins(player, other, pins, "bet in")
        return out

    def settle(self, rng: random.Random) -> tuple[Settlement, list[LedgerEvent]]:
        """Share the pulla out equally (rulebook "Settlement and Ending the Session")."""
        out: list[LedgerEvent] = []
        bets = self.pulla_bets()
        sharing = share_pulla(bets, {p: self.accounts[p] for p in self.players})
        shares = {p: sharing.each for p in self.players}
        takers = (rng.choice(sharing.takers),) if sharing.by_lot else sharing.takers
        for i in range(sharing.last):
            shares[takers[i % len(takers)]] += 1
        self._share_tokens(shares, out)
        for p in self.players:
            self.accounts[p] += shares[p]
        self._nominal_pulla = 0
        settlement = Settlement(bets, shares, takers, dict(self.accounts))
        return settlement, out

    def _share_tokens(self, shares: dict[str, int], out: list[LedgerEvent]) -> None:
        """Hand out the pulla's pieces by value: bets round the table, the rest to the biggest
        receiver, who pays the others their remaining pins."""
        want = dict(shares)
        order = sorted(want, key=lambda p: -want[p])
        for place in (PULLA, SEXMASTARE):
            for token in sorted(self.places[place].elements()):
                value = 8 * _bet_units(token[1], place)
                taker = max(order, key=lambda p: want[p])
                self._move(place, taker, token, 1, "settlement", out)
                want[taker] -= value
        for p in order:
            while want[p] > 0:
                giver = min(order, key=lambda q: want[q])
                if want[giver] >= 0:
                    break
                amount = min(want[p], -want[giver])
                self._transfer_value(giver, p, amount, "settlement", out)
                want[p] -= amount
                want[giver] += amount
