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
from vira_desktop.session.record import load_record, replay

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
    assert "by trump: ♠ 0 · ♥ 0 · ♦ 5 · ♣ 0 · no trump 0." in said


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
