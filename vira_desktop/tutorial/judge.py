"""How a checkpoint judges the answer given: by the game, not by a list.

An answer is judged against the lesson's own answer (the record's next action) at the
checkpoint's position:

- **right**: the lesson's answer, or one that comes to the same deal: played on with
  the record's other actions unchanged, it reaches the very same result (an unspecified
  ``turné`` where the lesson bids ``turné 6``, a hold that wins the same contract), unless
  the checkpoint says otherwise of that very answer (``good``, ``why``);
- **also good**: as good, but another line: an answer the checkpoint names (``accept``,
  ``good``) or one its card rule admits (``choose``: "these cards, and any of those"), or
  a card the solver finds as good as the lesson's that is equivalent to it from the
  learner's seat, or one as good on what the learner could see (:func:`seen_good`: in every
  one of ``LESSON_LAYOUTS`` layouts of the hidden cards that fit the learner's view, its
  result and tricks no worse; a card only double dummy finds as good is not: that taught
  ruffable aces and any lead in a begär) (both in ``lessons/solver.yaml``, written by
  ``scripts/lesson_solver.py``), or
  a card that is the same card as any of these from the learner's seat (:func:`same_card`:
  6♥ led from 6♥5♥4♥3♥2♥ is 2♥), which gets that card's verdict, told as the same card.
  The lesson goes on with its own line and says so, naming what differs;
- **wrong**: with the checkpoint's explanation of that answer (``why``, by the answer
  or by its class: ``higher bid``, ``lower bid``, ``low game``, ``other level``, ``same suit``,
  ``other suit``, ``a repurchase``), or its general principle (``wrong``), and always a line of facts
  about the answer itself (:class:`Detail`) where no text was written for it.

A turné or vingel bid without a level is the same bid as its level (it is played at the
lowest level that outbids, the declarer choosing none): ``turné in forehand`` is judged as
``turné 7 in forehand`` where that is what it stands for, and gets that bid's texts.

Nothing here knows a language: the texts are catalog keys and the facts are values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..ai.knowledge import Knowledge
from ..ai.single_dummy import card_odds
from ..rules.actions import Action, Bid, Buy, Discard, Keep, Pass, PlayCard, Repurchase, SetAside
from ..rules.cards import Card, Suit, trumps_at
from ..rules.deal import Deal
from ..rules.errors import ViraError
from ..rules.games import BID_GROUPS, Game
from ..rules.scoring import DealResult

__all__ = [
    "CLASSES",
    "LESSON_LAYOUTS",
    "CardRule",
    "Detail",
    "Kind",
    "Rules",
    "Verdict",
    "detail",
    "judge",
    "not_same_card",
    "same_bid",
    "same_card",
    "same_deal",
    "seen_good",
]

# The classes a ``why`` may name instead of one answer, and what each covers.
CLASSES = {
    "higher bid": "a bid above the lesson's in the bid table",
    "lower bid": "a bid below the lesson's in the bid table",
    "low game": "a game played low (gök, köpmisär, a misère) where the lesson's is played high; "
    "without its own text, told as a higher or lower bid",
    "other level": "the lesson's game, in another suit level or hand",
    "same suit": "another card of the suit the lesson plays",
    "other suit": "a card of another suit than the lesson's",
    "a repurchase": "any repurchase, where the lesson does not repurchase",
}


class Kind(Enum):
    RIGHT = "right"
    ALSO_GOOD = "also good"
    WRONG = "wrong"


@dataclass(frozen=True)
class CardRule:
    """A card-set answer as good as the lesson's: every ``always`` card, the rest from
    ``any_of`` (the count is the engine's to allow)."""

    always: frozenset[Card]
    any_of: frozenset[Card]

    def admits(self, cards: tuple[Card, ...]) -> bool:
        chosen = set(cards)
        return bool(chosen) and self.always <= chosen and chosen <= self.always | self.any_of


@dataclass(frozen=True)
class Detail:
    """Facts about one answer, set against the lesson's, for the learner's language to tell.

    ``what`` names the form: ``bid`` (both bids' games), ``level`` (the lesson's game in
    another suit level, hand or without a level), ``cards`` (the cards the answer keeps
    that the lesson lets go, and the reverse), ``play``, ``choice``, ``same``, ``solver``
    (a card the solver finds as good, equivalent from the learner's seat), ``seen`` (as good on
    what the learner could see) or ``equal`` (the
    same card as ``twin``, an accepted one, from the learner's seat)."""

    what: str
    yours: Action
    main: Action
    your_game: Game | None = None
    main_game: Game | None = None
    kept: tuple[Card, ...] = ()  # in the learner's hand after the answer, not after the lesson's
    gone: tuple[Card, ...] = ()  # gone from it after the answer, kept by the lesson's
    trumps: tuple[Suit, ...] = ()  # ``level``: the trumps the answer's suit level allows
    tricks: int = 0  # ``solver``: the declarer's tricks with best play after either card
    layouts: int = 0  # ``seen``: the layouts of the hidden cards both cards were played in
    twin: Action | None = None  # ``equal``: the accepted card the answer is the same card as


@dataclass(frozen=True)
class Verdict:
    kind: Kind
    say: str  # the catalog key (under ``lesson.``) of what the learner is told
    detail: Detail | None = None  # the answer's own facts, told after ``say``
    own: bool = False  # ``say`` was written for this answer (or its class)
    like: Verdict | None = None  # ``equal``: the verdict of the accepted card the answer is the same as

    @property
    def right(self) -> bool:
        return self.kind is not Kind.WRONG


@dataclass(frozen=True)
class Rules:
    """What a checkpoint says about answers other than the lesson's (see the module)."""

    accept: tuple[Action, ...] = ()
    good: Mapping[Action, str] = field(default_factory=dict)
    choose: CardRule | None = None
    why: Mapping[Action | str, str] = field(default_factory=dict)
    solver: frozenset[Action] = frozenset()  # as good double dummy, equivalent from the seat (lessons/solver.yaml)
    solver_tricks: int = 0  # the declarer's tricks after the lesson's card, double dummy
    seen: frozenset[Action] = frozenset()  # as good on what the learner could see (lessons/solver.yaml)
    seen_layouts: int = 0  # the layouts they were compared over


CardSet = Keep | Discard | Buy | Repurchase | SetAside  # the actions that name a set of cards
# Layouts a lesson's card is compared over on the learner's view (worked out once, by
# scripts/lesson_solver.py): with 64, A♥ led instead of the trump ace in borup_settle was
# as good in every layout; with 256, ruffed in some (a habit's exception is rare).
LESSON_LAYOUTS = 256


def _staying(action: CardSet, hand: tuple[Card, ...]) -> set[Card]:
    """The cards of ``hand`` still held after a card-set action."""
    return set(action.cards) if isinstance(action, Keep) else set(hand) - set(action.cards)


def _cards_of(action: Action) -> tuple[Card, ...]:
    """The cards a card-set action names (none for any other)."""
    return action.cards if isinstance(action, CardSet) else ()


def detail(deal: Deal, answer: Action, main: Action) -> Detail:
    """What ``answer`` is, set against the lesson's ``main``, at ``deal``."""
    if isinstance(answer, Bid) and isinstance(main, Bid):
        game, lessons = deal.bid_game(answer), deal.bid_game(main)
        if game == lessons:
            bound = trumps_at(answer.suit_level, deal.highest) if answer.suit_level else ()
            return Detail("level", answer, main, game, lessons, trumps=bound)
        return Detail("bid", answer, main, game, lessons)
    if isinstance(answer, Pass) and isinstance(main, Bid):
        return Detail("bid", answer, main, None, deal.bid_game(main))
    if isinstance(answer, CardSet) and isinstance(main, CardSet) and type(answer) is type(main):
        hand = deal.hand(answer.seat)
        yours, lesson = _staying(answer, hand), _staying(main, hand)
        return Detail("cards", answer, main, kept=tuple(sorted(yours - lesson)), gone=tuple(sorted(lesson - yours)))
    if isinstance(answer, PlayCard):
        return Detail("play", answer, main)
    return Detail("choice", answer, main)


def answer_classes(facts: Detail) -> tuple[str, ...]:
    """The classes of ``CLASSES`` that the answer of ``facts`` falls in, the narrowest first."""
    answer, main = facts.yours, facts.main
    if facts.what == "level":
        return ("other level",)
    if facts.what == "bid" and facts.your_game is not None and facts.main_game is not None:
        row = "higher bid" if facts.your_game.no > facts.main_game.no else "lower bid"
        low = facts.your_game.is_low and not facts.main_game.is_low
        return ("low game", row) if low else (row,)
    if isinstance(answer, PlayCard) and isinstance(main, PlayCard):
        return ("same suit",) if answer.card.suit == main.card.suit else ("other suit",)
    if isinstance(answer, Repurchase) and not isinstance(main, Repurchase):
        return ("a repurchase",)
    return ()


def same_bid(deal: Deal, action: Action) -> Action:
    """``action`` with the level it stands for, where it is a turné or vingel without one
    (played at the lowest level that outbids, no level chosen: the rulebook's *Bidding
    Without a Stated Level*); any other action as it is."""
    if not isinstance(action, Bid) or action.game is not None or action.group is None:
        return action
    if BID_GROUPS.get(action.group, ((), True))[1]:
        return action  # gask, köpmisär, solo: its declarer chooses the level once passed
    try:
        game = deal.bid_game(action)
    except ViraError:
        return action
    return Bid(action.seat, game, suit_level=action.suit_level, in_forehand=action.in_forehand)


def _named(mapping: Mapping[Any, str], deal: Deal, answer: Action) -> str | None:
    """What ``mapping`` says of ``answer``, or of a key that is the same bid (:func:`same_bid`)."""
    if answer in mapping:
        return mapping[answer]
    bid = same_bid(deal, answer)
    for key, value in mapping.items():
        if not isinstance(key, str) and same_bid(deal, key) == bid:
            return value
    return None


def not_same_card(deal: Deal, answer: PlayCard, other: PlayCard) -> str | None:
    """Why ``answer`` is not the same card as ``other`` from the player's seat (``None``: it
    is): ``discard`` (``other`` is a discard, its rank an Ågren marking), ``suit``
    (another suit), ``ace`` (an ace counted low) or ``between`` (a card between them may still be
    held by another seat, or wins the trick in play). The same card plays alike however the hidden cards lie."""
    mine, theirs = answer.card, other.card
    led = deal.trick[0][1].suit if deal.trick else None
    if led is not None and theirs.suit is not led and (deal.low or theirs.suit is not deal.trump):
        return "discard"
    if mine.suit is not theirs.suit:
        return "suit"
    if deal.aces_low and 14 in (mine.rank, theirs.rank):
        return "ace"
    high, low = max(mine, theirs), min(mine, theirs)
    winning = _winning(deal)  # K♠ winning the trick: A♠ takes it, Q♠ does not (a played card between is gone)
    if winning is not None and winning.suit is mine.suit and low < winning < high:
        return "between"
    if Knowledge(deal.view(answer.seat)).outside_between(high, low):
        return "between"
    return None


def _winning(deal: Deal) -> Card | None:
    """The card winning the trick in play so far (``None``: nothing led yet)."""
    if not deal.trick:
        return None
    cards = [c for _, c in deal.trick]
    trump = None if deal.low else deal.trump
    ruffs = [c for c in cards if trump is not None and c.suit is trump]
    return max(ruffs or [c for c in cards if c.suit is cards[0].suit])


def same_card(deal: Deal, answer: PlayCard, other: PlayCard) -> bool:
    """``answer`` is another card than ``other`` but the same card from the player's seat
    (:func:`not_same_card`)."""
    return answer != other and not_same_card(deal, answer, other) is None


def same_deal(deal: Deal, answer: Action, rest: tuple[Action, ...], result: DealResult | None) -> bool:
    """``answer`` at ``deal``, then the record's ``rest`` unchanged, reaches ``result``."""
    if result is None:
        return False
    played = deal.clone()
    try:
        played.apply(answer)
        for action in rest:
            played.apply(action)
    except ViraError:
        return False
    return played.result == result


def judge(
    deal: Deal,
    answer: Action,
    main: Action,
    rules: Rules,
    texts: tuple[str, str],
    rest: tuple[Action, ...] = (),
    result: DealResult | None = None,
) -> Verdict:
    """Judge ``answer`` at ``deal`` (it must be legal there) against the lesson's ``main``;
    ``texts`` are the checkpoint's ``right`` and ``wrong`` keys, ``rest`` the record's
    actions after ``main`` and ``result`` the record's result."""
    right, wrong = texts
    if answer == main:
        return Verdict(Kind.RIGHT, right)
    facts = detail(deal, answer, main)
    good = _named(rules.good, deal, answer)
    if good is not None:  # the lesson's own word on this answer comes before the replay's
        return Verdict(Kind.ALSO_GOOD, good, facts, own=True)
    why = _named(rules.why, deal, answer)
    if why is not None:
        return Verdict(Kind.WRONG, why, own=True)
    if same_deal(deal, answer, rest, result) or same_bid(deal, answer) == same_bid(deal, main):
        return Verdict(Kind.RIGHT, right, Detail("same", answer, main))
    if answer in rules.accept or same_bid(deal, answer) in {same_bid(deal, a) for a in rules.accept}:
        return Verdict(Kind.ALSO_GOOD, right, facts)
    if answer in rules.solver:
        facts = Detail("solver", answer, main, tricks=rules.solver_tricks)
        return Verdict(Kind.ALSO_GOOD, "ui.solver_good", facts)
    if answer in rules.seen:
        return Verdict(Kind.ALSO_GOOD, "ui.seen_good", Detail("seen", answer, main, layouts=rules.seen_layouts))
    if rules.choose is not None and type(answer) is type(main) and rules.choose.admits(_cards_of(answer)):
        return Verdict(Kind.ALSO_GOOD, right, facts)
    if isinstance(answer, PlayCard):  # the same card as an accepted one gets its verdict
        accepted = sorted(rules.solver | rules.seen, key=lambda a: a.text)
        for twin in (main, *rules.accept, *rules.good, *accepted):
            if isinstance(twin, PlayCard) and same_card(deal, answer, twin):
                like = judge(deal, twin, main, rules, texts, rest, result)
                equal = Detail("equal", answer, main, tricks=rules.solver_tricks, twin=twin)
                return Verdict(Kind.ALSO_GOOD, like.say, equal, own=like.own, like=like)
    for kind in answer_classes(facts):
        if kind in rules.why:
            return Verdict(Kind.WRONG, rules.why[kind], facts, own=True)
    return Verdict(Kind.WRONG, wrong, facts)


def seen_good(deal: Deal, main: PlayCard, layouts: int = LESSON_LAYOUTS) -> dict[Card, bool] | None:
    """Each other legal card at ``deal`` (in trick play, the learner on turn) against the
    lesson's ``main``: whether it is as good on what the learner could see: in each of
    ``layouts`` layouts of the hidden cards that fit the learner's view (seeded by the deal),
    a result and tricks no worse. Every layout, not the average: a lesson teaches a habit,
    and a ruffable ace is as good as the trump ace on average until the one layout in twenty
    where it is ruffed. None where nothing tells the cards apart: one card plays like every
    other, or the result is settled whatever is played."""
    seed = sum(h << (52 * s) for s, h in enumerate(deal.hands)) ^ len(deal.history) << 160
    odds = card_odds(deal.view(main.seat), seed, layouts, exact=True)
    if odds is None:
        return None
    return {c: odds.dominates(c, main.card) for c in odds.outcomes if c != main.card}
