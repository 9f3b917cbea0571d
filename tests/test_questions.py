"""Question checkpoints (``tutorial/question.py``): the engine's answers against the rulebook's
own statements, every question of every lesson over every choice, and one clear fault for
each way a question can be written wrong."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from vira_desktop.i18n import LANGUAGES, configure, t
from vira_desktop.rules.cards import Card
from vira_desktop.rules.ledger import Ledger, bet_in_payment, share_pulla
from vira_desktop.rules.session import deal_roles, first_heart, seat_by_draw
from vira_desktop.tutorial.lesson import LessonError, chapters, lesson, read_lesson
from vira_desktop.tutorial.telling import question_label, tell_choice

ALL = [x for c in chapters() for x in c.lessons]
QUESTIONS = [(ident, n) for ident in ALL for n, s in enumerate(lesson(ident).steps) if s.question is not None]


# ---------------------------------------------------------------------- the engine, by the rulebook
def test_seating_hearts_is_the_first_forehand() -> None:
    """Seating: "The player who drew hearts becomes forehand"; laid out: "The player who
    first receives a heart card becomes forehand"."""
    draw = seat_by_draw({"A": Card.parse("AD"), "B": Card.parse("AH"), "C": Card.parse("AS")})
    assert draw.forehand == "B" and draw.order == ("C", "B", "A")  # places clockwise ♠ ♥ ♦
    laid = first_heart(["A", "B", "C"], [Card.parse(c) for c in ("KS", "9C", "4D", "JC", "2H", "3H")])
    assert laid.forehand == "B" and len(laid.cards) == 5
    with pytest.raises(ValueError):
        seat_by_draw({"A": Card.parse("AD"), "B": Card.parse("KD"), "C": Card.parse("AH")})
    with pytest.raises(ValueError):
        first_heart(["A", "B", "C"], [Card.parse("2S")])


def test_the_roles_of_a_deal_with_three_and_four_players() -> None:
    """The Deal: the dealer gives the deck "to the player on his right for cutting"; the other
    deck "with three players ... by the player who cuts; with four ... opposite the dealer";
    "shuffle in, cut out"; Seating: "the player to the right of the dealer sits out"."""
    three = deal_roles(["F", "M", "R"], "R")
    assert three.seats == ("F", "M", "R") and three.cuts == "M" == three.shuffles_spare and three.sits_out is None
    four = deal_roles(["F", "M", "O", "R"], "R")
    assert four.seats == ("F", "M", "R") and four.sits_out == "O" == four.cuts and four.shuffles_spare == "M"
    before = deal_roles(["F", "M", "O", "R"], "O")  # the deal before: O dealt, M sat out
    assert before.sits_out == four.shuffles_spare  # who shuffles sat out the deal before
    after = deal_roles(["F", "M", "O", "R"], "F")  # Continuing Play: forehand deals next
    assert after.dealer == three.seats[0] and after.seats[0] == "M"


@pytest.mark.parametrize(
    ("pulla", "bets", "pins"), [(12, 4, 0), (14, 5, 0), (13, 4, 1), (0, 0, 0), (2, 1, 0), (1, 0, 1)]
)
def test_betting_in(pulla: int, bets: int, pins: int) -> None:
    """Betting In: "one third of the number of bets in the pulla; if one bet is missing for the
    number to divide by three, the figure is rounded up; if two are missing, it is rounded
    down, but the player who joins must give one pin to each of the other players"."""
    assert bet_in_payment(pulla) == (bets, pins)
    ledger = Ledger()
    for name in "ABC":
        ledger.add_player(name)
    for i in range(pulla):
        ledger.pay_pulla("ABC"[i % 3], 1, "åla")
    before = dict(ledger.accounts)
    ledger.bet_in("D")
    assert ledger.pulla_bets() == pulla + bets
    assert all(ledger.accounts[n] == before[n] + pins for n in "ABC")


def test_the_pulla_shared_at_the_settlement() -> None:
    """Settlement: shared equally, bets changed into pins, "the player who has lost most takes
    the last pin or the last two pins"; two pins left and two who lost equally or one pin
    apart: "each of the two losers receives one pin"; one pin and two equal: lots."""
    assert share_pulla(10, {"A": -50, "B": -10, "C": -20}) == share_pulla(10, {"A": -50, "C": -20, "B": -10})
    most = share_pulla(10, {"A": -50, "B": -10, "C": -20})
    assert (most.each, most.last, most.takers, most.by_lot) == (26, 2, ("A",), False)
    close = share_pulla(10, {"A": -30, "B": -21, "C": -29})
    assert close.last == 2 and set(close.takers) == {"A", "C"}
    lots = share_pulla(11, {"A": -30, "B": -28, "C": -30})  # 88 pins: 29 each, one left
    assert (lots.each, lots.last, lots.by_lot, set(lots.takers)) == (29, 1, True, {"A", "C"})
    assert share_pulla(12, {"A": -96, "B": 0, "C": 0, "D": 0}).last == 0  # four share 8 pins a bet evenly


def test_ala_om_with_four_counts_the_one_sitting_out() -> None:
    """Bets: "When playing with four players, a bet is also put in by the player who sits out"."""
    question = lesson("four_players").steps[-1].question
    assert question is not None and question.kind == "ala_om"
    assert len(question.table) == 4 and question.answer().amount == 4


# ---------------------------------------------------------------------- every question, every choice
@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize(("ident", "n"), QUESTIONS)
def test_every_question_over_every_choice(ident: str, n: int, language: str) -> None:
    """One right choice, the engine's; each wrong one told with its own words, never alike."""
    taught = lesson(ident)
    question = taught.steps[n].question
    assert question is not None
    you = taught.record.names[taught.you]
    configure(language)
    try:
        choices = question.choices()
        assert 2 <= len(choices) <= 4 and len(set(choices)) == len(choices)
        verdicts = [question.judge(c) for c in choices]
        assert [v.right for v in verdicts].count(True) == 1 and verdicts[choices.index(question.answer())].right
        told = [tell_choice(v, you) for v in verdicts]
        assert all(x.strip() and "%{" not in x for x in told)
        assert len(set(told)) == len(told)
        labels = [question_label(c, question.kind, you) for c in choices]
        assert len(set(labels)) == len(labels)
        assert t("new_game.you") in labels or you not in {name for c in choices for name in c.names}
    finally:
        configure("en")


# ---------------------------------------------------------------------- reading faults
def _data(ask: dict[str, Any], sitting_out: bool = False) -> dict[str, Any]:
    """A lesson of one question over deal_rotation's record."""
    good = lesson("deal_rotation")
    record: dict[str, Any] = {"vira": 1, "players": list(good.record.names), "forehand": "Anna", "highest_suit": "C"}
    if sitting_out:
        record["sitting_out"] = "David"
    record["hands"] = {n: [str(c) for c in good.record.deal.dealt[i]] for i, n in enumerate(good.record.names)}
    record["stock"] = [str(c) for c in good.record.deal.initial_stock]
    record["actions"] = [
        {good.record.names[a.seat]: text} for a, (_, text) in zip(good.actions, good.record.actions, strict=True)
    ]
    texts = {"hint": "a.h", "right": "a.r", "wrong": "a.w"}
    return {
        "lesson": 1,
        "id": "x",
        "chapter": "deal",
        "title": "a.t",
        "teaches": [],
        "you": "Cecilia",
        "record": record,
        "steps": [{"at": 0, "say": "a.s", "ask": {**texts, **ask}}],
    }


FAULTS = [
    ({"question": "dealr"}, "question 'dealr' is not one the engine answers \\(did you mean dealer\\?\\)"),
    ({"question": "dealer", "pulla": 3}, "unknown field pulla"),
    ({"question": "dealer", "of": "later"}, "of is this or next"),
    ({"question": "sits_out"}, "sits_out asks about four players"),
    ({"question": "forehand", "draw": {"Anna": "AD", "Bertil": "KD", "Cecilia": "AS"}}, "different suits"),
    ({"question": "forehand", "draw": {"Anna": "AD"}}, "draw maps each of three or four players"),
    ({"question": "forehand", "draw": {"Anna": "AD", "Bertil": "AH", "Cecilia": "AS"}, "of": "next"}, "alone"),
    ({"question": "forehand", "laid": ["2H", "3S"]}, "until the first heart, which is the last"),
    ({"question": "forehand", "laid": ["ZZ"]}, "laid"),
    ({"question": "forehand", "players": ["A", "B", "C"]}, "players belongs to laid"),
    ({"question": "bet_in"}, "needs pulla"),
    ({"question": "bet_in", "pulla": 61}, "pulla: the bets in the pulla, a whole number from 0 to 60"),
    ({"question": "bet_in", "pulla": 12, "joins": "Anna"}, "Anna is already at the table"),
    ({"question": "ala_om", "pulla": 2, "lifts": 1}, "no åla om to ask about"),
    ({"question": "share", "pulla": 10, "accounts": {"Anna": -50, "Bertil": 0, "Cecilia": 0}}, "add up to minus"),
    ({"question": "remainder", "pulla": 9, "accounts": {"Anna": -72, "Bertil": 0, "Cecilia": 0}}, "divides evenly"),
    ({"question": "remainder", "pulla": 11, "accounts": {"Anna": -30, "Bertil": -28, "Cecilia": -30}}, "by lot"),
    ({"question": "dealer", "of": "next", "why": {"David": "a.x"}}, "why names 'David', not one of the choices"),
    ({"question": "dealer", "of": "next", "why": {"Anna": "a.x"}}, "why explains 'Anna', the right answer"),
    ({"question": "dealer", "why": ["Anna"]}, "why maps a choice"),
    ({"question": "dealer", "hint": None}, "hint: a text is a catalog key"),
]


@pytest.mark.parametrize(("ask", "fault"), FAULTS)
def test_a_faulty_question_is_one_clear_message(ask: dict[str, Any], fault: str) -> None:
    data = _data(copy.deepcopy(ask))
    with pytest.raises(LessonError, match=fault):
        read_lesson(data)


def test_a_good_question_is_read_and_a_fourth_player_sits_at_the_dealers_right() -> None:
    made = read_lesson(_data({"question": "dealer", "of": "next", "why": {"Bertil": "a.b"}}))
    question = made.steps[0].question
    assert question is not None and made.questions == 1 and made.checkpoints == 0 and made.steps[0].asks
    assert question.answer().names == ("Anna",) and "a.b" in made.texts()
    four = read_lesson(_data({"question": "sits_out", "of": "next"}, sitting_out=True))
    assert four.table == ("Anna", "Bertil", "David", "Cecilia")
    assert four.steps[0].question is not None and four.steps[0].question.answer().names == ("Cecilia",)
