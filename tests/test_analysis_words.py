"""What the double-dummy analysis says ("Could I have won?", ``vira analyse``): a misère's
figures, the best line's equal cards, and the legends, in every language."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from vira_desktop import i18n
from vira_desktop.ai.solver import all_move_values, position_of, python_solve, solve
from vira_desktop.cli import main
from vira_desktop.rules.actions import PlayCard
from vira_desktop.rules.cards import Card
from vira_desktop.rules.seat import Seat
from vira_desktop.scenes.analysis import verdict
from vira_desktop.session.analysis import analyse_record, play_start
from vira_desktop.session.coach import marking_hint
from vira_desktop.session.record import load_record, replay
from vira_desktop.session.words import card_text, say_marking

RECORDS = Path(__file__).parent / "records"
LANGUAGES = ("en", "sv", "fi")


@pytest.fixture(autouse=True)
def _english() -> object:
    yield
    i18n.configure("en")


def test_a_declarer_who_set_cards_aside_gets_the_misere_figure_alone() -> None:
    """Cards set aside leave no game by trump: the line said "by trump: ;" (an empty list)."""
    info = analyse_record(load_record(RECORDS / "gask0_low_set_aside.yaml"))
    assert set(info.other_games) == {"misère"}
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, info.declarer)
        said = [line for line in lines if "%{" not in line and str(info.other_games["misère"]) in line]
        assert said and not any(": ;" in line or ":  ;" in line for line in lines), lines
        assert i18n.t("analysis.other_games_misere", misere=0) in lines


@pytest.mark.parametrize("name", ["gask4_low_aces", "solo_grande_misar_aces_house_rule"])
def test_the_misere_figure_counts_the_aces_announced(name: str) -> None:
    """A misère played with the aces announced as ones: the declarer takes 0, and the misère
    figure, worked out with the aces high, said "could be held to 3"."""
    info = analyse_record(load_record(RECORDS / f"{name}.yaml"))
    assert info.low and info.other_games["misère"] == info.allowed == 0


def test_the_misere_figure_reads_as_what_best_defence_makes_the_declarer_take() -> None:
    for lang in LANGUAGES:
        i18n.configure(lang)
        text = i18n.t("analysis.other_games", games="♠ 4", misere=3)
        assert "3" in text and "%{" not in text
    i18n.configure("en")
    assert "held to" not in i18n.t("analysis.other_games", games="♠ 4", misere=3)
    assert "best defence would make the declarer take 3" in i18n.t("analysis.other_games", games="♠ 4", misere=3)


def test_the_tricks_by_trump_are_the_exact_double_dummy_values() -> None:
    """A newcomer's 7-spel in ♦, 7 tricks taken: at the first card his cards take 5 in ♦ and
    none with any other trump or none, though he held A♦ K♦ Q♦ (a report took the 0s for a
    clamped search): he bought for ♦, his other cards are beaten in their suits, and the
    defenders win every trick without once leading a diamond. Each other figure is the
    pure-Python twin's full solve of the hands as they lay (no band, no node limit, no table
    kept from another solve), ♦'s a fresh full solve (the twin takes seconds there), and the
    window says those; the misère's 10 is the twin's too (too slow to solve here)."""
    record = load_record(RECORDS / "analysis" / "7spel_bought_for_diamonds.yaml")
    info = analyse_record(record, layouts=0)
    first = position_of(replay(record, play_start(record)))
    trumps = {"S": 0, "H": 1, "D": 2, "C": 3, "none": -1}
    exact = {
        name: (solve if name == "D" else python_solve)(replace(first, trump=trump)) for name, trump in trumps.items()
    }
    assert exact == {"S": 0, "H": 0, "D": 5, "C": 0, "none": 0}
    assert info.other_games == {**exact, "misère": 10} and info.allowed == 5 and info.taken == 7
    i18n.configure("en")
    said = "\n".join(verdict(info, "You")[1])
    assert "by trump: ♠ 0 · ♥ 0 · ♦ 5 · ♣ 0 (with no trump at all, not a game here: 0)." in said  # (a newcomer
    # took "no trump" for a choice he had not been offered)


def test_the_best_line_tells_the_cards_as_good_as_the_one_it_shows() -> None:
    """Of equal best cards the line shows the lowest; ``also`` holds the others, each worth
    the same, and no other card is."""
    record = load_record(RECORDS / "gask3_low_open_bet.yaml")
    info = analyse_record(record)
    assert info.diverges is not None
    deal = replay(record, play_start(record))
    told = 0
    for trick in info.best_line:
        for c in trick.cards:
            if c.best:
                values = all_move_values(position_of(deal))
                value = values[int(c.card)]
                assert sorted(Card(k) for k, v in values.items() if v == value) == sorted((c.card, *c.also))
                assert all(c.card < other for other in c.also)
                told += bool(c.also)
            else:
                assert not c.also
            deal.apply(PlayCard(Seat(deal.to_act), c.card))
    assert told


def test_the_command_line_says_what_its_brackets_are(capsys: pytest.CaptureFixture[str]) -> None:
    """The played tricks' brackets are the declarer's tricks at the end with best play from
    there, the best line's his tricks after each trick: each is told before its list."""
    assert main(["analyse", str(RECORDS / "gask3_low_open_bet.yaml")]) == 0
    out = capsys.readouterr().out
    assert "[N]: the declarer's tricks at the end with best play from that trick on" in out
    assert "[N]: the declarer's tricks after the trick" in out
    assert "(or " in out  # a best card with others as good
    assert "no game by trump (cards set aside); misère (best defence) 1" in out


def test_a_marking_the_coach_read_aloud_is_named_as_one_where_the_analysis_blames_it() -> None:
    """A newcomer heard the coach read a partner's Ågren marking aloud, then saw the analysis
    call that very card a mistake, with nothing to tie the two. North's 6♣ (then 8♣: weakness
    in clubs, as the table's note reads it for South) is judged a mistake on what North could
    see; the sheet names it as the marking and says why a marking can be judged worse."""
    record = load_record(RECORDS / "analysis" / "begar_marking_a_mistake.yaml")
    info = analyse_record(record, frozenset({"South", "North"}))
    marked = [(m.seat, m.cards, m.strong) for m in info.markings]
    assert marked == [("North", (Card.parse("6C"), Card.parse("8C")), False)]
    blamed = next(s for s in info.seen if s.seat == "North" and s.card == Card.parse("6C"))
    assert blamed.call == "mistake"
    deal = replay(record)
    read = marking_hint(deal.view(record.names.index("South")), record.names)  # the note the player saw
    assert read.startswith("Ågren marking: North shows weakness in clubs")
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, "South")
        what = say_marking(info.markings[0].suits, strong=False)
        named = i18n.t("analysis.marking_card", what=what)
        mistakes = next(line for line in lines if card_text(Card.parse("6C")) in line and named in line)
        assert mistakes.index(named) > mistakes.index(card_text(Card.parse("6C")))
        assert i18n.t("analysis.marking_judged") in lines and not any("%{" in line for line in lines)
    i18n.configure("en")
    _, lines = verdict(info, "South")
    assert "6♣" in lines[3] and "— an Ågren marking (weakness in clubs)" in lines[3], lines


def test_a_trick_given_up_and_given_back_is_not_called_a_trick_of_difference() -> None:
    """East's J♥ at trick 2 gave up a trick with best play after it, and the defenders gave it
    back: the best line and the play both end at 7. The sheet said "that would have made one
    trick's difference", then "the play ends as this line does"; a newcomer read the two as a
    contradiction. It now says what happened in one sentence."""
    info = analyse_record(load_record(RECORDS / "analysis" / "begar_marking_a_mistake.yaml"), frozenset({"East"}), 0)
    assert info.diverges is not None and info.diverges.trick == 2 and info.best_line[-1].declarer_tricks == info.taken
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, "East")
        assert lines[-1].endswith(i18n.t("analysis.turn_given_back", count=1, card=card_text(Card.parse("JH"))))
        assert not any(i18n.t("analysis.turn_same_result", count=1) in line for line in lines)
        assert i18n.t("analysis.line_even") not in lines


def test_an_answer_only_the_other_sides_slip_made_possible_says_so_and_not_the_opposite_of_the_next_line() -> None:
    """A newcomer's begär: best play from the first card brings it home (the sheet's third
    line), and only after Bertil's 3♠ at trick 5 could the defenders beat it. The first line
    said "with every card known the contract could have been beaten", which read as the
    opposite of the third; it now names the card that opened the way. The grey "+1" list
    says, as the green one does, that such a card may win its own trick."""
    record = load_record(RECORDS / "analysis" / "begar_their_slip_opens_a_door.yaml")
    info = analyse_record(record, frozenset({"You", "Cecilia"}))
    assert info.allowed >= info.need and info.best_line[-1].declarer_tricks < info.need  # home from the first card
    assert not any(s.call == "mistake" for s in info.seen)
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, "You")
        slip = card_text(Card.parse("3S"))
        assert lines[0] == i18n.t("analysis.answer_door_beaten", card=slip, name="Bertil", trick=5)
        assert lines[2] == i18n.t("analysis.same_home", allowed=info.allowed, need=i18n.t("analysis.need", need=6))
    i18n.configure("en")
    assert "can win its own trick" in i18n.t("analysis.gifts_only", cards="")


def test_a_point_is_said_where_points_are_first_met_not_only_in_the_foot() -> None:
    """A newcomer met "(24 points worse)" in the list of mistakes and found what a point is only
    in the small print at the foot: the first list that counts points now says it, once."""
    record = load_record(RECORDS / "analysis" / "begar_marking_a_mistake.yaml")
    info = analyse_record(record, frozenset({"South", "North"}))
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, "South")
        point = i18n.t("analysis.point")
        said = [line for line in lines if point in line]
        assert len(said) == 1 and said[0].startswith(i18n.t("analysis.mistakes", cards="", points=10)[:8])


def test_the_best_line_copies_the_plays_marks_and_says_why_it_beats_best_play_from_the_first_card() -> None:
    """A newcomer's turné 6: Cecilia's A♥ at trick 2 gave the defenders a trick (green +1), then
    the best line leaves the play at the newcomer's K♥ and ends with 4, where best play from the
    first card gives 5. The best line's copy of that trick lacked the +1 its legend promised
    ("marked as on the left"), and nothing tied the 4 to the 5: the line now says it."""
    from vira_desktop.scenes.analysis import best_line_cards, legend
    from vira_desktop.scenes.theme import GOOD

    record = load_record(RECORDS / "analysis" / "turne6_their_gift_before_the_line.yaml")
    info = analyse_record(record, frozenset({"You", "Bertil"}), 0)
    assert info.allowed == 5 and info.best_line[-1].declarer_tricks == 4 and info.diverges is not None
    second, _ = best_line_cards(info, "You")[1]
    assert second[0] == ("Cecilia", Card.parse("AH"), " +1", GOOD)  # as in the line played
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, "You")
        gift = i18n.t("analysis.gift_card", trick=2, name="Cecilia", card=card_text(Card.parse("AH")), lost=1)
        assert any(i18n.t("analysis.line_after_gifts", cards=gift) in line for line in lines), lines
    i18n.configure("en")
    whole = replace(info, diverges=None)  # no card gave up a trick: the whole line as played, shaded
    assert "shaded: as played" in legend(whole)[1]


def test_a_partners_mistake_answers_could_i_and_a_defenders_kodilj_says_more_is_better() -> None:
    """A newcomer defending a vingel 6 asked "Could I have won?" and read only about Bertil's
    J♥ at trick 11, left to wonder about their own cards: the answer now says none of them was
    a mistake, before Bertil's card (it said "Yes: …" about Bertil's first: a newcomer read it as
    about their own). And Bertil's doubtful A♥ said of kodilj "fewer is better for the declarer", a
    muddle for a defender's card: a defender's says more is better for the defenders."""
    record = load_record(RECORDS / "analysis" / "vingel6_partner_slip.yaml")
    info = analyse_record(record, frozenset({"You", "Bertil"}))
    assert not any(s.call == "mistake" and s.seat == "You" for s in info.seen)
    assert any(s.call == "mistake" and s.seat == "Bertil" for s in info.seen)
    for lang in LANGUAGES:
        i18n.configure(lang)
        _, lines = verdict(info, "You")
        first = i18n.t("analysis.answer_partner_yes", card="", odds="").split(". ")[0]
        assert lines[0].startswith(first + ". ") and "Bertil" in lines[0], lines[0]  # "not with yours" first
        said = " ".join(lines)
        assert i18n.t("analysis.better_defenders") in said and i18n.t("analysis.better_declarer") not in said
    i18n.configure("en")
