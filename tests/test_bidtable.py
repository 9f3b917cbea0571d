"""The bid table and the pulla table against RULES-NOTES.md §1 and §2, copied here as literal data.

Nothing in this file reads ``vira_desktop/rules/data``: the expected values are
the published tables themselves, so a mistake in the CSV files shows up here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest

from vira_desktop.cli import bidtable_rows, main
from vira_desktop.rules.actions import Bid, parse_action
from vira_desktop.rules.games import DEFAULT_PULLA, GAMES, Game, PullaRow, game, normalize_name
from vira_desktop.rules.houserules import HouseRules

# ---------------------------------------------------------------------------------------------------------------------
# RULES-NOTES.md §1, verbatim (No | Game | Tricks | Misère type | Off-suit / misère | Suit | Highest suit)
BID_TABLE_MD = """
| 1 | Begär (6-spel) | 6 | | 0 | 0 | 1 |
| 2 | Turné 6 | 6 | | 0 | 0 | 1 |
| 3 | 7-spel | 7 | | 0 | 0 | 1 |
| 4 | Vingel 6 | 6 | | 0 | 1 | 1 |
| 5 | Gask på 0 | 7/0 | closed, 11 | 0 | 0 | 1 |
| 6 | Gök | 0 | open, 13 | 0 | – | – |
| 7 | Turné 7 | 7 | | 0 | 1 | 1 |
| 8 | Köpmisär på 1 | 0 | closed, 11 | 0 | – | – |
| 9 | Gask på 1 | 8/0 | closed, 12 | 0 | 0 | 1 |
| 10 | 8-spel | 8 | | 0 | 1 | 1 |
| 11 | Vingel 7 | 7 | | 1 | 1 | 3 |
| 12 | Turné 8 | 8 | | 1 | 1 | 3 |
| 13 | Köpmisär på 2 | 0 | closed, 12 | 0 | – | – |
| 14 | Gask på 2 | 9/0 | closed, 13 | 0 | 1 | 1 |
| 15 | Solo 6 | 6 | | 0 | 1 | 1 |
| 16 | Vingel 8 | 8 | | 1 | 3 | 5 |
| 17 | Köpmisär på 3 | 0 | closed, 12 | 0 | – | – |
| 18 | Gask på 3 | 10/0 | open, 12 | 0 | 1 | 2 |
| 19 | 9-spel | 9 | | 1 | 1 | 3 |
| 20 | Köpmisär på 4 | 0 | closed, 12 | 1 | – | – |
| 21 | Gask på 4 | 11/0 | open, 13 | 1 | 1 | 3 |
| 22 | Tringel 9 | 9 | | 3 | 5 | 11 |
| 23 | Köpmisär på 5 | 0 | closed, 12 | 1 | – | – |
| 24 | Gask på 6 | 12 | | 1 | 2 | 4 |
| 25 | Solo 7 | 7 | | 0 | 1 | 2 |
| 26 | Köpmisär på 6 | 0 | closed, 12 | 1 | – | – |
| 27 | Gask på 5 | 12 | | 1 | 3 | 5 |
| 28 | Solo 8 | 8 | | 1 | 2 | 4 |
| 29 | Vira | 13 | | 2 | 4 | 8 |
| 30 | Solo petite misär | 0 | closed, 12 | 2 | – | – |
| 31 | Solo 9 | 9 | | 2 | 4 | 8 |
| 32 | Solo grande misär | 0 | closed, 13 | 4 | – | – |
| 33 | Solo 10 | 10 | | 4 | 8 | 16 |
| 34 | Solo petite misär ouverte | 0 | open, 12 | 8 | – | – |
| 35 | Solo petite misär ouverte royale | 0 | open, 12 | 16 | – | – |
| 36 | Solo 11 | 11 | | 8 | 16 | 32 |
| 37 | Solo grande misär ouverte | 0 | open, 13 | 24 | – | – |
| 38 | Solo grande misär ouverte royale | 0 | open, 13 | 32 | – | – |
| 39 | Solo 12 | 12 | | 16 | 32 | 64 |
| 40 | Solo Vira | 13 | | 32 | 64 | 128 |
"""

# The canonical record names (docs/deal-record.md "Game names"), in table order.
CANONICAL_NAMES = (
    "begär",
    "turné 6",
    "7-spel",
    "vingel 6",
    "gask 0",
    "gök",
    "turné 7",
    "köpmisär 1",
    "gask 1",
    "8-spel",
    "vingel 7",
    "turné 8",
    "köpmisär 2",
    "gask 2",
    "solo 6",
    "vingel 8",
    "köpmisär 3",
    "gask 3",
    "9-spel",
    "köpmisär 4",
    "gask 4",
    "tringel 9",
    "köpmisär 5",
    "gask 6",
    "solo 7",
    "köpmisär 6",
    "gask 5",
    "solo 8",
    "vira",
    "solo petite misär",
    "solo 9",
    "solo grande misär",
    "solo 10",
    "solo petite misär ouverte",
    "solo petite misär ouverte royale",
    "solo 11",
    "solo grande misär ouverte",
    "solo grande misär ouverte royale",
    "solo 12",
    "solo vira",
)

# One pin base per trump game (RULES-NOTES §1 self-check): points are base, 2×base, 4×base.
PIN_BASES = (1, 2, 3, 4, 6, 8, 12, 16, 24, 48, 96, 192)


def _pins(cell: str) -> int | None:
    return None if cell in ("–", "-") else int(cell)


def _parse_table() -> list[dict[str, Any]]:
    rows = []
    for line in BID_TABLE_MD.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        no, printed, tricks, misere, off, suit, highest = cells
        high, _, low = tricks.partition("/")
        kind = None
        if misere:
            openness, cards = (x.strip() for x in misere.split(","))
            kind = {"open": openness == "open", "cards": int(cards)}
        rows.append(
            {
                "no": int(no),
                "printed": printed,
                "name": CANONICAL_NAMES[int(no) - 1],
                "tricks": int(high),
                "can_play_low": low == "0",
                "misere": kind,
                "pins": (_pins(off), _pins(suit), _pins(highest)),
            }
        )
    return rows


TABLE = _parse_table()


def _row_id(row: dict[str, Any]) -> str:
    return f"{row['no']:02d}-{row['name']}"


def test_the_literal_table_has_forty_rows_in_order() -> None:
    assert [r["no"] for r in TABLE] == list(range(1, 41))
    assert len(GAMES) == 40


@pytest.mark.parametrize("row", TABLE, ids=_row_id)
def test_games_row_matches_rules_notes(row: dict[str, Any]) -> None:
    g = GAMES[row["no"] - 1]
    assert g.no == row["no"]
    assert g.name == row["name"]
    assert g.printed == row["printed"]
    assert g.tricks == row["tricks"]
    assert g.can_play_low == row["can_play_low"]
    if row["misere"] is None:
        assert g.misere is None
    else:
        assert g.misere is not None
        assert (g.misere.open, g.misere.cards) == (row["misere"]["open"], row["misere"]["cards"])
    assert g.pins == row["pins"]


@pytest.mark.parametrize("row", TABLE, ids=_row_id)
def test_low_games_need_no_tricks_and_have_only_a_misere_payment(row: dict[str, Any]) -> None:
    g = GAMES[row["no"] - 1]
    if row["tricks"] == 0:  # gök, köpmisär, solo misères
        assert g.is_low
        assert g.misere is not None
        assert g.pins[1] is None and g.pins[2] is None
    else:
        assert not g.is_low
        assert None not in g.pins


def _expected_json(row: dict[str, Any]) -> dict[str, Any]:
    off, suit, highest = row["pins"]
    return {
        "no": row["no"],
        "name": row["name"],
        "printed": row["printed"],
        "tricks": row["tricks"],
        "can_play_low": row["can_play_low"],
        "misere": row["misere"],
        "pins": {"off_suit": off, "suit": suit, "highest": highest},
    }


def test_bidtable_rows_match_rules_notes() -> None:
    rows = bidtable_rows()
    assert len(rows) == 40
    for got, row in zip(rows, TABLE, strict=True):
        assert got == _expected_json(row), _row_id(row)


def test_cli_bidtable_json_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bidtable", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == [_expected_json(r) for r in TABLE]


def test_cli_bidtable_json_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "vira_desktop", "bidtable", "--json"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    rows = json.loads(proc.stdout.decode("utf-8"))
    assert rows == [_expected_json(r) for r in TABLE]
    # canonical names are written as UTF-8, not \u escapes
    assert "köpmisär 1".encode() in proc.stdout


def test_cli_bidtable_text_lists_every_printed_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bidtable"]) == 0
    out = capsys.readouterr().out
    for row in TABLE:
        assert row["printed"] in out


# ---------------------------------------------------------------------------------------------------------------------
# Pin rounding self-check


def _round_half_down(x: Fraction) -> int:
    whole = x.numerator // x.denominator
    return whole + 1 if x - whole > Fraction(1, 2) else whole


def _pins_from_base(base: int) -> tuple[int, int, int]:
    return tuple(_round_half_down(Fraction(base * k, 6)) for k in (1, 2, 4))  # type: ignore[return-value]


def test_round_half_down_helper() -> None:
    assert _pins_from_base(1) == (0, 0, 1)  # begär: 1, 2, 4 points -> 0, 0, 1 pin (rulebook)
    assert _pins_from_base(3) == (0, 1, 2)  # 3/6 = .5 rounds down


TRUMP_ROWS = [r for r in TABLE if r["pins"][1] is not None]


@pytest.mark.parametrize("row", TRUMP_ROWS, ids=_row_id)
def test_trump_row_pins_come_from_one_point_base(row: dict[str, Any]) -> None:
    bases = [b for b in PIN_BASES if _pins_from_base(b) == row["pins"]]
    assert bases, f"{row['name']}: {row['pins']} is not round(points/6) of any base"
    g = GAMES[row["no"] - 1]
    assert g.pins == _pins_from_base(bases[0])


def test_every_base_is_used_and_trump_rows_are_the_free_and_turned_trump_games() -> None:
    used = {b for r in TRUMP_ROWS for b in PIN_BASES if _pins_from_base(b) == r["pins"]}
    assert used == set(PIN_BASES)
    assert len(TRUMP_ROWS) == 40 - 13  # all but gök, 6 köpmisärer, 6 solo misères
    assert all(GAMES[r["no"] - 1].misere is None or GAMES[r["no"] - 1].can_play_low for r in TRUMP_ROWS)


def test_gask_6_ranks_below_gask_5() -> None:
    assert game("gask 6").no == 24
    assert game("gask 5").no == 27
    assert game("gask 6") < game("gask 5")


# ---------------------------------------------------------------------------------------------------------------------
# Pulla table (RULES-NOTES §2): home, bet, kodilj; repurchase home, bet, kodilj
PULLA_TABLE = {
    "ordinary": PullaRow(1, 1, 2, 0, 3, 5),
    "gök": PullaRow(1, 2, 4, None, None, None),
    "vingel 6": PullaRow(1, 2, 4, 0, 6, 10),
    "vingel 7": PullaRow(1, 2, 4, 0, 6, 10),
    "vingel 8": PullaRow(2, 2, 4, 0, 6, 10),
}


@pytest.mark.parametrize("g", GAMES, ids=lambda g: g.name)
def test_pulla_row_for_each_game(g: Game) -> None:
    expected = PULLA_TABLE.get(g.name, PULLA_TABLE["ordinary"])
    assert DEFAULT_PULLA.row(g) == expected
    assert HouseRules().pulla.row(g) == expected


def test_pulla_table_has_exactly_the_published_rows() -> None:
    assert DEFAULT_PULLA.rows == PULLA_TABLE


def test_pulla_rows_can_be_overridden() -> None:
    changed = DEFAULT_PULLA.overridden({"vingel 8": PullaRow(2, 2, 5, 0, 7, 11)})
    assert changed.row(game("vingel 8")) == PullaRow(2, 2, 5, 0, 7, 11)
    assert changed.row(game("vingel 7")) == PULLA_TABLE["vingel 7"]
    assert DEFAULT_PULLA.row(game("vingel 8")) == PULLA_TABLE["vingel 8"]


# ---------------------------------------------------------------------------------------------------------------------
# Game name normalisation


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("turne 6", "turné 6"),
        ("TURNE 8", "turné 8"),
        ("kopmisar 3", "köpmisär 3"),
        ("Köpmisär på 3", "köpmisär 3"),
        ("kopmisar pa 6", "köpmisär 6"),
        ("gok", "gök"),
        ("Gök", "gök"),
        ("GOK", "gök"),
        ("begar", "begär"),
        ("Begär (6-spel)", "begär"),
        ("BEGÄR", "begär"),
        ("solo petite misar", "solo petite misär"),
        ("Solo Grande Misar Ouverte Royale", "solo grande misär ouverte royale"),
        ("gask på 2", "gask 2"),
        ("Gask på 2", "gask 2"),
        ("GASK PÅ 6", "gask 6"),
        ("gask pa 0", "gask 0"),
        ("  gask   4 ", "gask 4"),
        ("Vira", "vira"),
        ("Solo Vira", "solo vira"),
        ("7-SPEL", "7-spel"),
        ("Tringel 9", "tringel 9"),
        ("vingel 8", "vingel 8"),
    ],
)
def test_game_name_normalisation(text: str, canonical: str) -> None:
    assert game(text).name == canonical


@pytest.mark.parametrize("row", TABLE, ids=_row_id)
def test_every_canonical_and_printed_name_finds_its_row(row: dict[str, Any]) -> None:
    g = GAMES[row["no"] - 1]
    assert game(row["name"]) is g
    assert game(row["printed"]) is g
    assert game(row["name"].upper()) is g
    ascii_name = row["name"].replace("ä", "a").replace("é", "e").replace("ö", "o")
    assert game(ascii_name) is g


@pytest.mark.parametrize("text", ["gask 7", "köpmisär 0", "solo 5", "turné 9", "vingel", "10-spel", ""])
def test_unknown_game_names_are_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        game(text)


def test_normalize_name_folds_case_accents_and_decorations() -> None:
    assert normalize_name("Gask på 2") == normalize_name("gask 2") == normalize_name("GASK PA 2")
    assert normalize_name("Begär (6-spel)") == normalize_name("begar")


@pytest.mark.parametrize(
    ("text", "game_name", "group", "suit_level", "in_forehand", "higher"),
    [
        ("turne", None, "turné", 0, False, False),
        ("Vingel", None, "vingel", 0, False, False),
        ("kopmisar", None, "köpmisär", 0, False, False),
        ("higher kopmisar", None, "köpmisär", 0, False, True),
        ("HIGHER GASK", None, "gask", 0, False, True),
        ("higher solo in forehand", None, "solo", 0, True, True),
        ("gask in suit", None, "gask", 1, False, False),
        ("Gask på 2 in suit", "gask 2", None, 1, False, False),
        ("begar in highest suit in forehand", "begär", None, 2, True, False),
        ("7-spel in suit in forehand", "7-spel", None, 1, True, False),
        ("turne 7", "turné 7", None, 0, False, False),
        ("gok in forehand", "gök", None, 0, True, False),
    ],
)
def test_bids_parse_with_ascii_spellings(
    text: str, game_name: str | None, group: str | None, suit_level: int, in_forehand: bool, higher: bool
) -> None:
    bid = parse_action(text, 1)
    assert isinstance(bid, Bid)
    assert (bid.game.name if bid.game else None) == game_name
    assert bid.group == group
    assert (bid.suit_level, bid.in_forehand, bid.higher) == (suit_level, in_forehand, higher)
    assert parse_action(bid.text, 1) == bid


@pytest.mark.parametrize("text", ["higher turné", "higher vingel", "higher 7-spel", "higher gask 2"])
def test_higher_goes_only_with_gask_kopmisar_solo(text: str) -> None:
    with pytest.raises(ValueError, match="higher"):
        parse_action(text, 1)


@pytest.mark.parametrize("g", GAMES, ids=lambda g: g.name)
def test_bid_text_round_trips(g: Game) -> None:
    levels = (0, 1, 2) if g.free_trump else (0,)
    for level in levels:
        for in_forehand in (False, True):
            bid = Bid(2, g, None, level, in_forehand)
            assert parse_action(bid.text, 2) == bid


def test_free_trump_games_are_exactly_those_of_rules_notes() -> None:
    free = {g.name for g in GAMES if g.free_trump}
    expected = {"begär", "7-spel", "8-spel", "9-spel", "vira", "solo vira"}
    expected |= {f"gask {n}" for n in range(7)}
    expected |= {f"solo {n}" for n in range(6, 13)}
    assert free == expected
