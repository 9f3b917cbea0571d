"""Claims: what a lesson's words say is legal, written as data the engine checks.

A lesson that says "to outbid her you need row 4 or higher" teaches a rule; if the engine
disagrees (7-spel in suit outbids 7-spel on row 3), the lesson teaches something false. So
every step whose texts say what may, must or cannot be done carries ``claims:``, and
reading the lesson checks each claim against the engine's legal actions (``rules/``) at
that step's position (``docs/lesson-format.md``, *Claims*)::

    claims:
      - {lowest_bid: 7-spel in suit, legal: [vingel 6], illegal: [7-spel]}
      - {after: ["*", pass], choices: [play, lay down, repurchase]}

A claim stands at the step's position, or at ``at`` (another position of the record), then
plays ``after`` (a line that need not be the record's; ``"*"`` is the engine's first legal
action, ``"buy *11"`` a card choice of the first 11 cards it offers). Its assertions, any number of them:

=============  ==========================================================================
``to_act``     the player who acts there (a name of the record)
``legal``      actions legal there, for the one to act
``illegal``    actions that are not
``lowest_bid`` the lowest legal bid there: legal, and no legal bid ranks below it
``choices``    exactly the kinds of action the one to act may take: finite actions by their
               text (``play``, ``lay down``, ``turn again``, ``pass``; ``bid`` for any bid),
               card choices by their verb (``buy``, ``repurchase``, ``set aside``, ``keep``)
``cards``      how many cards the card choice takes: ``N``, or ``{min: N, max: M}``
``stock``      the cards left in the stock
=============  ==========================================================================

:func:`words_of_a_claim` finds the sentences that need one (the lint of
``tests/test_claims.py``), in each of the three languages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.actions import Action, Bid, Decide, Pass, Repurchase, Turn, parse_action
from ..rules.deal import Deal
from ..rules.decision import Phase
from ..rules.errors import ViraError

__all__ = ["CLAIM_FIELDS", "Claim", "ClaimError", "check", "kinds", "lists_choices", "read_claims", "words_of_a_claim"]

CLAIM_FIELDS = ("at", "after", "to_act", "legal", "illegal", "lowest_bid", "choices", "cards", "stock")
ASSERTIONS = CLAIM_FIELDS[2:]
ANY = "*"  # in ``after``: the engine's first legal action
# what a phase may ask beyond what it offers now (an ``illegal`` claim must be of the phase's kind)
PHASE_KINDS: dict[Phase, set[type]] = {Phase.AUCTION: {Bid, Pass}, Phase.DECIDE: {Decide, Turn, Repurchase}}
_FIRST = re.compile(r"(\w[\w ]*?) \*(\d+)")  # in ``after``: ``buy *11``, the first 11 cards the choice offers


class ClaimError(ViraError):
    """A claim that is malformed, or that the engine contradicts: one message."""


@dataclass(frozen=True)
class Claim:
    """One engine-checked statement of what is legal at a position (see the module)."""

    at: int | None = None  # a position of the record; None: the step's
    after: tuple[str, ...] = ()
    to_act: str | None = None
    legal: tuple[str, ...] = ()
    illegal: tuple[str, ...] = ()
    lowest_bid: str | None = None
    choices: frozenset[str] | None = None
    cards: tuple[int | None, int | None] | None = None  # (min, max); None: not claimed
    stock: int | None = None

    @property
    def assertions(self) -> int:
        """How many facts the claim asserts (each a check against the engine)."""
        return (
            len(self.legal)
            + len(self.illegal)
            + sum(x is not None for x in (self.to_act, self.lowest_bid, self.choices, self.cards, self.stock))
        )


def _texts(value: Any, field: str, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise ClaimError(f"{where}: {field} is a list of actions in the record's syntax")
    return tuple(str(v) for v in value)


def _count(value: Any, field: str, where: str) -> int:
    if type(value) is not int or value < 0:
        raise ClaimError(f"{where}: {field} is a whole number, not {value!r}")
    return value


def _cards(value: Any, where: str) -> tuple[int | None, int | None]:
    if isinstance(value, dict):
        unknown = set(value) - {"min", "max"}
        if unknown or not value:
            raise ClaimError(f"{where}: cards is a number or {{min: N, max: M}}")
        low = _count(value["min"], "cards min", where) if "min" in value else None
        high = _count(value["max"], "cards max", where) if "max" in value else None
        return low, high
    n = _count(value, "cards", where)
    return n, n


def read_claims(raw: Any, where: str) -> tuple[Claim, ...]:
    """The ``claims`` of a step, checked for form (the engine checks them in :func:`check`)."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw:
        raise ClaimError(f"{where}: claims is a list of claims, each a mapping")
    out = []
    for n, item in enumerate(raw, 1):
        at_claim = f"{where}: claim {n}"
        if not isinstance(item, dict):
            raise ClaimError(f"{at_claim}: a claim is a mapping of {', '.join(CLAIM_FIELDS)}")
        unknown = sorted(str(k) for k in item if k not in CLAIM_FIELDS)
        if unknown:
            raise ClaimError(f"{at_claim}: unknown field {unknown[0]!r} (known: {', '.join(CLAIM_FIELDS)})")
        if not any(k in item for k in ASSERTIONS):
            raise ClaimError(f"{at_claim}: asserts nothing (one of {', '.join(ASSERTIONS)})")
        choices = item.get("choices")
        out.append(
            Claim(
                at=_count(item["at"], "at", at_claim) if "at" in item else None,
                after=_texts(item.get("after", []), "after", at_claim),
                to_act=str(item["to_act"]) if "to_act" in item else None,
                legal=_texts(item.get("legal", []), "legal", at_claim),
                illegal=_texts(item.get("illegal", []), "illegal", at_claim),
                lowest_bid=str(item["lowest_bid"]) if "lowest_bid" in item else None,
                choices=None if choices is None else frozenset(_texts(choices, "choices", at_claim)),
                cards=_cards(item["cards"], at_claim) if "cards" in item else None,
                stock=_count(item["stock"], "stock", at_claim) if "stock" in item else None,
            )
        )
    return tuple(out)


def kinds(deal: Deal) -> frozenset[str]:
    """The kinds of action the one to act may take (``choices``' words)."""
    decision = deal.decision()
    out = {"bid" if isinstance(a, Bid) else a.text for a in decision.actions}
    if decision.choice is not None:
        out.add(decision.choice.action.verb)
    return frozenset(out)


def _rank(deal: Deal, bid: Bid) -> tuple[int, int]:
    """Where a legal bid stands in the bid table: its game's row, then its suit level."""
    return deal.bid_game(bid).no, bid.suit_level


def _parse(deal: Deal, text: str, where: str) -> Action:
    try:
        return parse_action(text, deal.decision().seat)
    except ValueError as exc:
        raise ClaimError(f"{where}: {text!r}: {exc}") from None


def _play(deal: Deal, line: Sequence[str], where: str) -> Deal:
    played = deal.clone()
    for text in line:
        if played.is_over:
            raise ClaimError(f"{where}: after: the deal is over before {text!r}")
        decision = played.decision()
        first = _FIRST.fullmatch(text)
        if text == ANY:
            action = decision.actions[0] if decision.actions else next(decision.choice.combinations())  # type: ignore[union-attr]
        elif first is not None and decision.choice is not None and decision.choice.action.verb == first[1]:
            action = decision.choice.make(decision.choice.candidates[: int(first[2])])
        else:
            action = _parse(played, text, where)
        try:
            played.apply(action)
        except ViraError as exc:
            raise ClaimError(f"{where}: after: {text!r} is not legal: {exc}") from None
    return played


def check(claim: Claim, deal: Deal, names: Sequence[str], where: str) -> None:
    """Check ``claim`` at ``deal`` (its position, before ``after``); ``names`` are the
    record's players from forehand. A claim the engine contradicts raises :class:`ClaimError`
    saying what the engine finds instead."""
    deal = _play(deal, claim.after, where)
    if deal.is_over:
        raise ClaimError(f"{where}: the deal is over here: nothing is legal")
    decision = deal.decision()
    who = names[decision.seat]
    if claim.to_act is not None and claim.to_act != who:
        raise ClaimError(f"{where}: {claim.to_act} is said to act, but {who} acts here")
    for text in claim.legal:
        try:
            deal.check(_parse(deal, text, where))
        except ViraError as exc:
            raise ClaimError(f"{where}: {text!r} is said to be legal, but the engine says: {exc}") from None
    asked = {type(a) for a in decision.actions} | ({decision.choice.action} if decision.choice else set())
    asked |= PHASE_KINDS.get(decision.phase, set())  # forehand's pass, turning again short of stock
    for text in claim.illegal:
        action = _parse(deal, text, where)
        if type(action) not in asked:  # a bid where cards are played proves nothing: the claim stands nowhere
            raise ClaimError(f"{where}: {text!r} is not the kind of action asked here ({decision.phase.value})")
        if deal.is_legal(action):
            raise ClaimError(f"{where}: {text!r} is said not to be legal, but it is")
    if claim.lowest_bid is not None:
        said = _parse(deal, claim.lowest_bid, where)
        if not isinstance(said, Bid) or not deal.is_legal(said):
            raise ClaimError(f"{where}: lowest_bid {claim.lowest_bid!r} is not a legal bid here")
        bids = [a for a in decision.actions if isinstance(a, Bid)]
        lowest = min(bids, key=lambda b: _rank(deal, b))
        if _rank(deal, lowest) < _rank(deal, said):
            raise ClaimError(f"{where}: {claim.lowest_bid!r} is said to be the lowest, but {lowest.text!r} is lower")
    if claim.choices is not None and claim.choices != (found := kinds(deal)):
        raise ClaimError(f"{where}: the choices are said to be {sorted(claim.choices)}, but they are {sorted(found)}")
    if claim.cards is not None:
        choice = decision.choice
        if choice is None:
            raise ClaimError(f"{where}: a number of cards is claimed, but no cards are chosen here")
        low, high = claim.cards
        if (low is not None and low != choice.min_count) or (high is not None and high != choice.max_count):
            raise ClaimError(
                f"{where}: {low}..{high} cards are claimed, but {choice.min_count}..{choice.max_count} may be chosen"
            )
    if claim.stock is not None and claim.stock != deal.stock_left:
        raise ClaimError(f"{where}: the stock is said to hold {claim.stock}, but it holds {deal.stock_left}")


# ---------------------------------------------------------------------- the words that need one
# What a sentence says about legality, in each language: outbidding and the row it needs, what
# must, may not or cannot be bid, bought, kept, set aside, followed or turned, how many cards,
# who alone may act, and what the stock must hold. Strategy ("cannot win this trick") is not
# matched: the verbs are those of the rules.
_EN_VERBS = (
    r"(bid|hold\b[^.]{0,20}\bbid|outbid|open|pass|buy|be bought|re-?enter|repurchase|turn|vingla|tringla|set|keep|lay|"
    r"be played|play it|choose|follow|go higher|say|exchange|discard|saka|remain|stay in the stock)"
)
_SV_VERBS = (
    r"(bjuda|bjuds|hålla\b[^.]{0,20}\bbud|öppna|passa|köpa|köpas|köpa om|vända|vända om|turnéra om|"
    r"vingla om|tringla om|lägga (undan|ned|ner|bort|ut)|"
    r"behålla|spelas|välja|följa|gå högre|säga|byta|saka|ligga kvar|finnas kvar)"
)
_FI_VERBS = (
    r"(tarjo\w*|pitää tarjou\w*|avat\w*|passa\w*|osta\w*|kääntä\w*|vingla\w*|tringla\w*|pan\w* sivuun|"
    r"laitta\w*|valit\w*|tunnusta\w*|men\w* (ylemmäs|korkeammalle)|sano\w*|vaihta\w*|saka\w*|jää\w*)"
)
_PATTERNS: Mapping[str, tuple[str, ...]] = {
    "en": (
        r"\brow \d+ or (higher|above)\b",
        r"\b(must|have to|has to) (go|bid) higher\b",
        rf"\b(must|must not|may not|cannot|can't|can not|may only|have to|has to|is not allowed to)\b"
        rf" (\w+ )?{_EN_VERBS}\b",
        rf"\bonly\b[^.:;]{{0,60}}\b(may|can) (\w+ )?{_EN_VERBS}\b",
        r"\b(at least|at most|exactly) (\d+|one|two|three|four|five|six|seven|eight|nine|ten) cards?\b",
        r"\bmust be bought\b|\bis (not )?legal\b|\b(il)?legal (bid|answer|move)s?\b|\bnot allowed\b",
        r"\b(at least|needs?) (\d+|two|three|four) cards? (left |remaining )?in the stock\b",
    ),
    "sv": (
        r"\brad \d+ eller (högre|över)\b",
        r"\bmåste (gå|bjuda) högre\b",
        rf"\b(måste|får inte|får bara|kan inte|kan du inte|får du inte|måste du|får man inte)\b"
        rf" (\w+ )?{_SV_VERBS}\b",
        rf"\b(bara|endast)\b[^.:;]{{0,60}}\bfår (\w+ )?{_SV_VERBS}\b",
        r"\b(minst|högst|exakt|precis) (\d+|ett|en|två|tre|fyra|fem|sex|sju|åtta|nio|tio) kort\b",
        r"\bmåste köpas\b|\b(inte )?tillåt\w*\b|\bregelrätt\w*\b",
        r"\bminst (\d+|två|tre|fyra) kort (kvar )?i talongen\b",
    ),
    "fi": (
        r"\brivi\w* \d+ tai (ylemmä\w*|korkeamma\w*)\b",
        r"\b(on mentävä|täytyy mennä|pitää mennä|on tarjottava) (ylemmäs|korkeammalle|korkeampi)\b",
        rf"\b(täytyy|on pakko|ei saa|et saa|ei voi|et voi|saa vain|ei ole lupa)\b (\w+ )?{_FI_VERBS}",
        r"\b(ei saa|et saa|täytyy|on pakko) (\w+ )?pelata\b",
        r"\b\w+ on (ostettava|tarjottava|avattava|tunnustettava|pelattava|jätettävä)\b",
        rf"\bvain\b[^.:;]{{0,60}}\bsaa (\w+ )?{_FI_VERBS}",
        r"\b(vähintään|enintään|tasan|täsmälleen) "
        r"(\d+|yksi|yhden|kaksi|kolme|neljä|viisi|kuusi|seitsemän|kahdeksan|yhdeksän|kymmenen) kortt\w*",
        r"\bsallittu\w*\b|\bluvallinen\w*\b",
    ),
}
WORDS: Mapping[str, tuple[re.Pattern[str], ...]] = {
    language: tuple(re.compile(p, re.IGNORECASE) for p in patterns) for language, patterns in _PATTERNS.items()
}


# A sentence that lists the declarer's choices ("play, lay down, or turn again?") must list
# every legal one: it needs a ``choices`` claim. Such a sentence names two of them or more
# and joins them with "or".
CHOICE_WORDS: Mapping[str, re.Pattern[str]] = {
    "en": re.compile(r"\b(play|lay down|turn again|repurchase|buy again|vingle again|tringle again)\b", re.I),
    "sv": re.compile(r"\b(spela|lägga ned|lägga ner|turnéra om|vingla om|tringla om|köpa om|köpa igen|omköp)\b", re.I),
    "fi": re.compile(r"\b(pelaa(tko)?|luovuta(tko)?|osta(a|tko)? uudelleen|kään\w* uudelleen)\b", re.I),
}
_OR_WORDS = {"en": r"\bor\b", "sv": r"\beller\b", "fi": r"\b(tai|vai)\b"}
_OR = {language: re.compile(p, re.I) for language, p in _OR_WORDS.items()}


def lists_choices(text: str, language: str) -> bool:
    """``text`` lists the declarer's choices (and so needs a ``choices`` claim)."""
    for sentence in re.split(r"[.?!:]", text):
        named = {m.group(0).lower() for m in CHOICE_WORDS[language].finditer(sentence)}
        if len(named) >= 2 and _OR[language].search(sentence):
            return True
    return False


def words_of_a_claim(text: str, language: str) -> str | None:
    """The words of ``text`` (in ``language``) that say what is legal, or ``None``."""
    for pattern in WORDS[language]:
        found = pattern.search(text)
        if found is not None:
            return found.group(0)
    return None
