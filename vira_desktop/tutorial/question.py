"""A question checkpoint: a question about the table, not a move (who is forehand after the
seating draw, who deals, cuts, sits out or shuffles the spare deck, what a player who
joins bets in, how the pulla is shared at the settlement), answered by choosing among a
few choices.

The lesson names *what* is asked and the situation; the engine (``rules/session.py``,
``rules/ledger.py``) computes the right answer, and the choices are computed too (the
players, or nearby numbers). A wrong choice is told with its own text where the lesson
wrote one (``why``), otherwise with a :class:`Fact`: what that choice would mean.

Nothing here knows a language: the texts are catalog keys and the facts are values
(``telling.py`` says them).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.cards import Card, Suit
from ..rules.errors import ViraError
from ..rules.ledger import Ledger, Sharing, bet_in_payment, share_pulla
from ..rules.session import DealRoles, SeatingDraw, deal_roles, first_heart, seat_by_draw

__all__ = ["KINDS", "Choice", "Fact", "Question", "QuestionError", "QuestionVerdict", "read_question"]

# What a question may ask, and the situation fields each kind takes (besides the texts).
KINDS: dict[str, tuple[str, ...]] = {
    "forehand": ("of", "draw", "laid", "players"),  # the first forehand by a draw or laid cards; or a deal's
    "dealer": ("of",),
    "sits_out": ("of",),
    "cuts": ("of",),
    "shuffles_spare": ("of",),
    "bet_in": ("pulla", "joins"),
    "ala_om": ("pulla", "lifts"),
    "share": ("pulla", "accounts"),
    "remainder": ("pulla", "accounts"),
}
TEXTS = ("hint", "right", "wrong", "why")
DEALS = ("this", "next")
PULLA_MAX = 60  # bets a lesson's pulla may hold (three bowls of 20 bets)
ROLES = ("forehand", "middle", "rear", "out")  # a player's place in a deal: forehand … sits out


class QuestionError(ViraError):
    """A question that cannot be asked (the lesson turns it into its own error)."""


@dataclass(frozen=True)
class Choice:
    """One answer on the lesson's card. ``key`` is how a lesson's ``why`` names it: a
    player's name (two joined by ``+``: a pin each), a number, or bets ``+`` pins each."""

    key: str
    names: tuple[str, ...] = ()  # the player(s) chosen
    amount: int = 0  # bets (bet_in, ala_om) or pins (share)
    pins: int = 0  # bet_in: a pin to each of the others (1) or none (0)


@dataclass(frozen=True)
class Fact:
    """What a choice would mean, for the learner's language to tell: ``what`` names the
    line (``lesson.ui.question.<what>``), ``values`` its figures, names and cards."""

    what: str
    values: Mapping[str, Any]


@dataclass(frozen=True)
class QuestionVerdict:
    right: bool
    say: str  # the catalog key (under ``lesson.``) of what the learner is told
    fact: Fact | None = None  # a wrong choice's meaning, told where no text was written for it
    own: bool = False  # ``say`` was written for this choice


@dataclass(frozen=True)
class Question:
    """A question checkpoint and its situation (see :data:`KINDS`)."""

    kind: str
    hint: str  # catalog keys, under ``lesson.``
    right: str
    wrong: str  # the principle, told with the fact of a wrong choice no ``why`` was written for
    table: tuple[str, ...] = ()  # the lesson's table, clockwise from the deal's forehand (3 or 4)
    of: str = "this"  # the deal on the table, or the next
    draw: tuple[tuple[str, Card], ...] = ()  # the seating draw: who drew which card
    laid: tuple[Card, ...] = ()  # first come, first served: cards laid out clockwise from players[0]
    players: tuple[str, ...] = ()  # who the cards are laid out to, clockwise (default: the table)
    pulla: int = 0  # bets in the pulla
    joins: str = ""  # the player who bets in
    lifts: int = 0  # bets the winner lifts (ala_om)
    accounts: tuple[tuple[str, int], ...] = ()  # each player's result in pins before the pulla is shared
    why: Mapping[str, str] = field(default_factory=dict)  # a choice's key → its own text

    # ------------------------------------------------------------------ the engine's answer
    def roles(self, deal: str | None = None) -> DealRoles:
        """The roles of the deal on the table (``this``) or the next."""
        dealer = self.table[-1]  # rear-hand: the table is listed from forehand, the sitter-out before the dealer
        if (deal or self.of) == "next":
            dealer = self.table[(self.table.index(dealer) + 1) % len(self.table)]
        return deal_roles(self.table, dealer)

    @property
    def seating(self) -> SeatingDraw | None:
        """The seating draw or the cards laid out, as the engine seats them."""
        if self.draw:
            return seat_by_draw(dict(self.draw))
        if self.laid:
            return first_heart(self.players or self.table, self.laid)
        return None

    @property
    def sharing(self) -> Sharing:
        return share_pulla(self.pulla, dict(self.accounts))

    def antes(self) -> int:
        """Bets put in by åla om before the lift (every player at the table, one sitting out too)."""
        ledger = Ledger()
        for name in self.table:
            ledger.add_player(name)
        for i in range(self.pulla):
            ledger.pay_pulla(self.table[i % len(self.table)], 1, "åla")
        ledger.lift(self.table[0], self.lifts, "home", self.table)
        return ledger.pulla_bets() + self.lifts - self.pulla

    def answer(self) -> Choice:
        """The right choice, computed by the engine."""
        kind = self.kind
        if kind == "forehand" and self.seating is not None:
            return _named(self.seating.forehand)
        if kind in ("forehand", "dealer", "cuts", "shuffles_spare", "sits_out"):
            roles = self.roles()
            who = {"forehand": roles.seats[0], "dealer": roles.dealer, "cuts": roles.cuts}.get(kind)
            who = who or (roles.shuffles_spare if kind == "shuffles_spare" else roles.sits_out)
            assert who is not None
            return _named(who)
        if kind == "bet_in":
            bets, pins = bet_in_payment(self.pulla)
            return _bets(bets, pins)
        if kind == "ala_om":
            return _amount(self.antes())
        if kind == "share":
            return _amount(self.sharing.each)
        return _named(*self.sharing.takers)

    def choices(self) -> tuple[Choice, ...]:
        """The choices shown, the right one among them (two to four)."""
        kind = self.kind
        if kind == "bet_in":
            low = self.pulla // 3
            return tuple(_bets(b, p) for b in (low, low + 1) for p in (0, 1))
        if kind in ("ala_om", "share"):
            right = self.answer().amount
            whole = 8 * (right // 8)  # a share: its whole bets, the odd bet not changed into pins
            near = [right - 2, right - 1, right + 1] if kind == "ala_om" else [whole, right + 1, whole + 8, right - 1]
            found = [n for n in dict.fromkeys([right, *near, right + 2, right + 3]) if n > 0][:4]
            return tuple(_amount(n) for n in sorted(found))
        if kind == "remainder":
            names = [name for name, _ in self.accounts]
            out = [_named(name) for name in names]
            if self.sharing.last == 2:  # a pin each to the two who lost most, where they are close
                losers = sorted(names, key=dict(self.accounts).__getitem__)
                out.append(_named(*losers[:2]))
            return tuple(out)
        seating = self.seating
        if seating is not None:
            return tuple(_named(name) for name in (dict(self.draw) if self.draw else seating.order))
        return tuple(_named(name) for name in self.table)

    # ------------------------------------------------------------------ judging a choice
    def judge(self, choice: Choice) -> QuestionVerdict:
        """The verdict on one of :meth:`choices`."""
        if choice == self.answer():
            return QuestionVerdict(True, self.right)
        if choice.key in self.why:
            return QuestionVerdict(False, self.why[choice.key], own=True)
        return QuestionVerdict(False, self.wrong, self.fact(choice))

    def fact(self, choice: Choice) -> Fact:
        """What a wrong ``choice`` would mean."""
        kind = self.kind
        if kind == "bet_in":  # the pulla, nearest this one, where the choice is betting in right
            meant = [n for n in range(3 * choice.amount + 2) if bet_in_payment(n) == (choice.amount, choice.pins)]
            pulla = min(meant, key=lambda n: abs(n - self.pulla))
            case = ("even", "down", "up")[pulla % 3]
            return Fact("bet_in", {"bets": choice.amount, "pins": choice.pins, "pulla": pulla, "case": case})
        if kind == "ala_om":
            return Fact("ala_om", {"count": choice.amount, "table": len(self.table)})
        if kind == "share":
            pins, total = 8 * self.pulla, choice.amount * len(self.accounts)
            what = "share_over" if total > pins else "share_under"
            return Fact(what, {"each": choice.amount, "total": total, "pins": pins, "left": pins - total})
        if kind == "remainder":
            accounts = dict(self.accounts)
            takers = self.sharing.takers
            losers = sorted(accounts, key=accounts.__getitem__)
            pair = {"first": losers[0], "a": accounts[losers[0]], "second": losers[1], "b": accounts[losers[1]]}
            if len(choice.names) == 2:
                return Fact("remainder_pair_apart", pair)
            name = choice.names[0]
            if len(takers) == 2 and name in takers:  # one of two who lost within a pin of each other
                other = takers[1 - takers.index(name)]
                return Fact("remainder_half", {"name": name, "a": accounts[name], "other": other, "b": accounts[other]})
            if len(takers) == 2:
                return Fact("remainder_not_pair", {**pair, "name": name, "c": accounts[name]})
            return Fact(
                "remainder_not_most", {"name": name, "a": accounts[name], "worst": takers[0], "b": accounts[takers[0]]}
            )
        seating = self.seating
        name = choice.names[0]
        if seating is not None and self.draw:
            return Fact("drew", {"name": name, "card": dict(self.draw)[name]})
        if seating is not None:
            got = tuple(card for who, card in seating.cards if who == name)
            heart = seating.cards[-1][1]
            return Fact("laid", {"name": name, "cards": got, "heart": heart})
        now = _role(self.roles("this"), name)
        if self.of == "next":
            return Fact("roles", {"name": name, "now": now, "then": _role(self.roles("next"), name)})
        return Fact("in_deal", {"name": name, "role": now})


def _named(*names: str) -> Choice:
    return Choice("+".join(names), names=tuple(names))


def _amount(n: int) -> Choice:
    return Choice(str(n), amount=n)


def _bets(bets: int, pins: int) -> Choice:
    return Choice(f"{bets}+{pins}" if pins else str(bets), amount=bets, pins=pins)


def _role(roles: DealRoles, name: str) -> str:
    """``name``'s place in a deal (one of :data:`ROLES`)."""
    return ROLES[roles.seats.index(name)] if name in roles.seats else "out"


# ---------------------------------------------------------------------- reading
def unknown_field(data: Mapping[Any, Any], allowed: Sequence[str], known: str) -> str | None:
    """The fault of the first key of ``data`` not in ``allowed``, with the nearest known one
    or ``known`` (what the fields are) as its hint; ``None`` when every key is known."""
    for key in data:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, 1)
            return f"unknown field {key} ({f'did you mean {close[0]}?' if close else known})"
    return None


def _known(raw: Mapping[Any, Any], allowed: Sequence[str], where: str) -> None:
    fault = unknown_field(raw, allowed, f"a {raw.get('question')} question takes {', '.join(allowed)}")
    if fault is not None:
        raise QuestionError(f"{where}: {fault}")


def _whole(value: Any, low: int, high: int, what: str, where: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise QuestionError(f"{where}: {what}, a whole number from {low} to {high}, not {value!r}")
    return value


def _card(value: Any, where: str) -> Card:
    try:
        return Card.parse(str(value))
    except ValueError as exc:
        raise QuestionError(f"{where}: {exc}") from None


def read_question(raw: Mapping[Any, Any], table: tuple[str, ...], texts: Mapping[str, Any], where: str) -> Question:
    """Check a question's fields (``raw``, its texts already read into ``texts``) at a table
    of ``table`` (clockwise from the deal's forehand) and build it; any fault is one
    :class:`QuestionError`."""
    kind = str(raw.get("question"))
    if kind not in KINDS:
        close = difflib.get_close_matches(kind, list(KINDS), 1)
        hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(KINDS)}"
        raise QuestionError(f"{where}: question {kind!r} is not one the engine answers ({hint})")
    _known(raw, ("question", *KINDS[kind], *TEXTS), f"{where}: ask")
    of = raw.get("of", "this")
    if of not in DEALS:
        raise QuestionError(f"{where}: of is this or next (the deal on the table, or the one after), not {of!r}")
    if kind == "sits_out" and len(table) != 4:
        raise QuestionError(f"{where}: sits_out asks about four players: the record names no sitting_out")
    made: dict[str, Any] = {"table": table, "of": of, **_seating(raw, table, where), **_money(kind, raw, table, where)}
    question = Question(kind, texts["hint"], texts["right"], texts["wrong"], **made)
    try:
        question.seating  # noqa: B018 - the cards are checked by seating them
    except ValueError as exc:
        raise QuestionError(f"{where}: {exc}") from None
    if kind == "remainder":
        sharing = question.sharing
        if not sharing.last:
            raise QuestionError(f"{where}: the pulla divides evenly: no pin is left over to ask about")
        if sharing.by_lot:
            raise QuestionError(f"{where}: the last pin goes by lot between equal losers: nothing to choose")
    keys = {c.key for c in question.choices()}
    why = texts["why"]
    for key in why:
        if key not in keys:
            raise QuestionError(f"{where}: why names {key!r}, not one of the choices ({', '.join(sorted(keys))})")
        if key == question.answer().key:
            raise QuestionError(f"{where}: why explains {key!r}, the right answer")
    return Question(kind, texts["hint"], texts["right"], texts["wrong"], why=why, **made)


def _seating(raw: Mapping[Any, Any], table: tuple[str, ...], where: str) -> dict[str, Any]:
    """A seating draw's cards (``draw``) or the cards laid out to ``players`` (``laid``)."""
    if "draw" in raw:
        draw = raw["draw"]
        if "laid" in raw or "of" in raw or not isinstance(draw, dict) or not 3 <= len(draw) <= 4:
            raise QuestionError(f"{where}: draw maps each of three or four players to the card drawn, alone")
        return {"draw": tuple((str(name), _card(card, f"{where}: draw")) for name, card in draw.items())}
    if "laid" not in raw:
        if "players" in raw:
            raise QuestionError(f"{where}: players belongs to laid")
        return {}
    laid, players = raw["laid"], raw.get("players", list(table))
    if "of" in raw or not isinstance(laid, list) or not laid or not isinstance(players, list):
        raise QuestionError(f"{where}: laid lists the cards laid out, alone (with players, clockwise)")
    cards = tuple(_card(c, f"{where}: laid") for c in laid)
    if not 3 <= len(players) <= 4 or len(set(map(str, players))) != len(players):
        raise QuestionError(f"{where}: players: three or four different names, clockwise")
    if [c.suit for c in cards].count(Suit.H) != 1 or cards[-1].suit is not Suit.H:
        raise QuestionError(f"{where}: laid: the cards are laid out until the first heart, which is the last")
    return {"laid": cards, "players": tuple(map(str, players))}


def _money(kind: str, raw: Mapping[Any, Any], table: tuple[str, ...], where: str) -> dict[str, Any]:
    """The pulla, and who joins, what is lifted or each one's account, by the kind asked."""
    if kind not in ("bet_in", "ala_om", "share", "remainder"):
        return {}
    if "pulla" not in raw:
        raise QuestionError(f"{where}: a {kind} question needs pulla: the bets in the pulla")
    least = 1 if kind in ("share", "remainder") else 0  # an empty pulla has nothing to share
    made: dict[str, Any] = {"pulla": _whole(raw["pulla"], least, PULLA_MAX, "pulla: the bets in the pulla", where)}
    if kind == "bet_in":
        if len(table) != 3:
            raise QuestionError(f"{where}: bet_in: a player joins a table of three (this one is full)")
        made["joins"] = str(raw.get("joins", ""))
        if made["joins"] in table:
            raise QuestionError(f"{where}: joins: {made['joins']} is already at the table")
    elif kind == "ala_om":
        made["lifts"] = _whole(raw.get("lifts"), 1, 2, "lifts: the bets the winner lifts", where)
        if made["lifts"] <= made["pulla"]:
            raise QuestionError(f"{where}: the pulla holds the lift: there is no åla om to ask about")
    else:
        accounts = raw.get("accounts")
        if not isinstance(accounts, dict) or not 3 <= len(accounts) <= 4:
            raise QuestionError(f"{where}: accounts maps each of three or four players to his result in pins")
        pins = tuple((str(n), _whole(v, -9999, 9999, f"accounts: {n}'s pins", where)) for n, v in accounts.items())
        if sum(v for _, v in pins) != -8 * made["pulla"]:
            raise QuestionError(f"{where}: accounts: the results before the sharing add up to minus the pulla's pins")
        made["accounts"] = pins
    return made
