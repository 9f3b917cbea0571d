"""Golden deal records (docs/deal-record.md): every file in tests/records/ replays to the
result written in it by hand, records round-trip through record_of/dump_record, and bad
records are rejected with the spec's messages.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from vira_desktop.cli import main
from vira_desktop.rules.actions import Action, Buy, PlayCard, parse_action
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.errors import RecordError
from vira_desktop.rules.events import HandOpened
from vira_desktop.session.record import (
    Record,
    check_result,
    dump_record,
    load_record,
    read_record,
    record_of,
    replay,
    result_block,
    summary,
)

RECORDS_DIR = Path(__file__).parent / "records"
RECORDS = sorted(RECORDS_DIR.glob("*.yaml"))
POSITIONS = sorted((RECORDS_DIR / "positions").glob("*.yaml"))

RESULT_KEYS = ("declarer", "game", "trump", "trump_class", "repurchase", "tricks", "outcome", "pulla", "pins")


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def _data(name: str) -> dict[str, Any]:
    loaded = yaml.safe_load((RECORDS_DIR / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _actions(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(who), str(text)) for item in data["actions"] for who, text in item.items()]


def _parsed(record: Record) -> list[Action]:
    return [parse_action(text, record.names.index(who)) for who, text in record.actions]


def _replay_data(data: dict[str, Any]) -> tuple[Record, Deal]:
    record = read_record(data)
    return record, replay(record)


# ---------------------------------------------------------------------------- the golden records


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 30


@pytest.mark.parametrize("path", RECORDS, ids=_ids(RECORDS))
def test_record_replays_to_its_result(path: Path) -> None:
    record = load_record(path)
    deal = replay(record)
    assert deal.is_over and deal.result is not None
    assert record.result is not None, "a golden record carries its hand-derived result"
    assert set(RESULT_KEYS) <= set(record.result)
    assert check_result(record, deal) is None
    assert deal.cards_conserved()
    info = summary(deal, record.names)
    assert info["complete"] is True
    # bets and pins are zero-sum between the players; tricks add up to the tricks played
    assert sum(info["pins"].values()) == 0
    if info["outcome"] == "laid":
        assert record.actions[-1][1] == "lay down"
        assert sum(info["tricks"].values()) == 0
    else:
        assert sum(info["tricks"].values()) == deal.n_tricks


@pytest.mark.parametrize("path", RECORDS, ids=_ids(RECORDS))
def test_cli_replay_check(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(path), "--check", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    record = load_record(path)
    assert out["complete"] is True
    assert record.result is not None
    for key in RESULT_KEYS:
        want = record.result[key]
        if isinstance(want, dict):
            want = {str(k): v for k, v in want.items()}
        assert out[key] == want, key


@pytest.mark.parametrize("path", RECORDS, ids=_ids(RECORDS))
def test_check_catches_a_wrong_result(path: Path, tmp_path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    declarer = data["result"]["declarer"]
    data["result"]["pulla"][declarer] += 1
    bad = tmp_path / path.name
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    record = load_record(bad)
    problem = check_result(record, replay(record))
    assert problem is not None and problem.startswith("result pulla:")
    assert main(["replay", str(bad), "--check"]) == 2


# ---------------------------------------------------------------------------- writing records


@pytest.mark.parametrize("path", RECORDS, ids=_ids(RECORDS))
def test_record_of_and_dump_record_round_trip(path: Path, tmp_path: Path) -> None:
    record = load_record(path)
    deal = replay(record)
    assert deal.result is not None
    written = record_of(deal, record.names, record.sitting_out)
    text = dump_record(written)
    out = tmp_path / "written.yaml"
    out.write_text(text, encoding="utf-8")
    again = load_record(out)
    assert again.names == record.names
    assert again.sitting_out == record.sitting_out
    assert again.actions == _actions(written)
    assert _parsed(again) == _parsed(record)  # same actions (card lists may be written in another order)
    deal2 = replay(again)
    assert deal2.result is not None
    assert result_block(deal2.result, again.names) == result_block(deal.result, record.names)
    assert check_result(again, deal2) is None
    # the written result is the hand-derived one of the golden record
    assert record.result is not None
    assert again.result is not None
    for key in RESULT_KEYS:
        want = record.result[key]
        got = again.result[key]
        if isinstance(want, dict):
            want = {str(k): v for k, v in want.items()}
            got = {str(k): v for k, v in got.items()}
        assert got == want, key
    # writing the replayed record again gives the same text
    assert dump_record(record_of(deal2, again.names, again.sitting_out)) == text


def test_dump_record_keeps_four_player_seating() -> None:
    record = load_record(RECORDS_DIR / "4players_8spel_sitting_out.yaml")
    deal = replay(record)
    data = record_of(deal, record.names, record.sitting_out, players=["Bertil", "Cecilia", "David"])
    assert data["players"] == ["Bertil", "Cecilia", "David"]
    assert data["forehand"] == "Cecilia"
    assert data["sitting_out"] == "Anna"
    back = read_record(yaml.safe_load(dump_record(data)))
    assert back.names == ("Cecilia", "David", "Bertil")
    assert back.sitting_out == "Anna"


@pytest.mark.parametrize("odd", ["Svensson, Eva", "Eva [guest]", "[Eva", "Eva: guest", "no", "007", "- Eva"])
def test_round_trip_names_with_yaml_flow_characters(odd: str) -> None:
    record = load_record(RECORDS_DIR / "7spel_offsuit_home.yaml")
    deal = replay(record)
    assert deal.result is not None
    names = (odd, "Bertil", "Cecilia")
    back = read_record(yaml.safe_load(dump_record(record_of(deal, names))))
    assert back.names == names
    deal2 = replay(back)
    assert deal2.result is not None
    assert result_block(deal2.result, back.names) == result_block(deal.result, names)


# ---------------------------------------------------------------------------- positions


@pytest.mark.parametrize("path", RECORDS, ids=_ids(RECORDS))
def test_every_prefix_is_a_position(path: Path) -> None:
    """Cut a record after any action: the position names the phase and who acts next."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    actions = data["actions"]
    for cut in range(len(actions)):
        part = dict(data, actions=actions[:cut])
        part.pop("result")
        record = read_record(part)
        deal = replay(record)
        info = summary(deal, record.names)
        assert info["complete"] is False
        assert set(info) == {"complete", "phase", "to_act"}
        ((who, text),) = actions[cut].items()
        if text != "aces":  # the aces announcement may come from the declarer out of turn
            assert info["to_act"] == who, (cut, who, text)
        assert info["phase"] != "done"


POSITION_EXPECTED: dict[str, dict[str, Any]] = {
    "7spel_mid_trick.yaml": {"complete": False, "phase": "play", "to_act": "Cecilia"},
    "gask_level_to_choose.yaml": {"complete": False, "phase": "level", "to_act": "Anna"},
    "solo_opponents_buy.yaml": {"complete": False, "phase": "opponents buy", "to_act": "Anna"},
}


def test_position_files_are_known() -> None:
    assert sorted(p.name for p in POSITIONS) == sorted(POSITION_EXPECTED)


@pytest.mark.parametrize("path", POSITIONS, ids=_ids(POSITIONS))
def test_position_record(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = load_record(path)
    deal = replay(record)
    assert deal.result is None
    assert summary(deal, record.names) == POSITION_EXPECTED[path.name]
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == POSITION_EXPECTED[path.name]
    assert main(["replay", str(path), "--check", "--json"]) == 0  # no result to check
    capsys.readouterr()


def test_position_with_a_result_fails_the_check() -> None:
    data = _data("7spel_offsuit_home.yaml")
    data["actions"] = data["actions"][:20]
    record, deal = _replay_data(data)
    assert check_result(record, deal) == "the record has a result but the deal is not over"


# ---------------------------------------------------------------------------- rules seen in the records


def _opening(path: Path) -> tuple[int | None, list[int], int]:
    """Index of the action that opened the declarer's hand, the opponents' buys, the first card."""
    record = load_record(path)
    deal = record.deal.clone()
    opened: int | None = None
    buys: list[int] = []
    first_card = -1
    for i, (who, text) in enumerate(record.actions):
        seat = record.names.index(who)
        action = parse_action(text, seat)
        phase = deal.phase
        events = deal.apply(action)
        if any(isinstance(e, HandOpened) for e in events):
            assert opened is None
            opened = i
        if isinstance(action, Buy) and phase is Phase.OPPONENT_BUY:
            buys.append(i)
        if isinstance(action, PlayCard) and first_card < 0:
            first_card = i
    return opened, buys, first_card


@pytest.mark.parametrize(
    "name",
    ["solo_petite_misar_ouverte_royale_home.yaml", "solo_grande_misar_ouverte_royale_home.yaml"],
)
def test_royale_is_opened_before_the_opponents_buy(name: str) -> None:
    opened, buys, _ = _opening(RECORDS_DIR / name)
    assert buys and opened is not None
    assert opened < buys[0]


@pytest.mark.parametrize(
    "name",
    ["solo_petite_misar_ouverte_home.yaml", "solo_grande_misar_ouverte_kodilj.yaml"],
)
def test_ouverte_is_opened_after_the_opponents_buy(name: str) -> None:
    opened, buys, first_card = _opening(RECORDS_DIR / name)
    assert len(buys) == 2 and opened is not None
    assert buys[-1] <= opened < first_card


@pytest.mark.parametrize("name", ["gok_home_penalty.yaml", "gask4_low_aces.yaml", "gask3_low_open_bet.yaml"])
def test_open_gask_misere_is_opened_before_the_first_card(name: str) -> None:
    opened, buys, first_card = _opening(RECORDS_DIR / name)
    assert not buys
    assert opened is not None and opened < first_card


@pytest.mark.parametrize(
    "name",
    [
        "solo_petite_misar_bet.yaml",
        "solo_grande_misar_home.yaml",
        "kopmisar4_repurchase_bet.yaml",
        "kopmisar1_set_aside_two.yaml",
        "gask0_low_set_aside.yaml",
    ],
)
def test_closed_misere_is_never_opened(name: str) -> None:
    opened, _, _ = _opening(RECORDS_DIR / name)
    assert opened is None


def test_aces_as_ones_decide_trick_one() -> None:
    """Without the announcement Anna's AS wins trick 1, so Cecilia may not lead trick 2."""
    data = _data("gask4_low_aces.yaml")
    actions = _actions(data)
    aces = actions.index(("Anna", "aces"))
    data["actions"] = [a for i, a in enumerate(data["actions"]) if i != aces]
    trick2 = aces + 3  # position (1-based) of trick 2's lead once "aces" is gone
    lead = actions[aces + 4]
    assert lead == ("Cecilia", "4H")
    with pytest.raises(RecordError) as err:
        _replay_data(data)
    assert str(err.value) == f"action {trick2 + 1} (Cecilia: 4H): it is Anna's turn, not Cecilia's"


def test_aces_in_a_solo_misere_need_the_house_rule() -> None:
    data = _data("solo_grande_misar_aces_house_rule.yaml")
    del data["house_rules"]
    n = _actions(data).index(("Anna", "aces")) + 1
    with pytest.raises(RecordError) as err:
        _replay_data(data)
    assert str(err.value).startswith(f"action {n} (Anna: aces): four aces can be announced only")


def test_gok_penalty_follows_the_låggard_rule() -> None:
    record = load_record(RECORDS_DIR / "gok_home_penalty.yaml")
    deal = replay(record)
    assert [(p.seat, p.needed, p.met) for p in deal.gok_passes] == [(1, 2, False), (2, 1, True)]
    record = load_record(RECORDS_DIR / "gok_home_both_short.yaml")
    deal = replay(record)
    # Bertil bid the gök: Cecilia is first hand (needs 2), Anna second hand (needs 1)
    assert [(p.seat, p.needed, p.met) for p in deal.gok_passes] == [(2, 2, False), (0, 1, False)]


# ---------------------------------------------------------------------------- bad records


def test_invalid_yaml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("vira: 1\nplayers: [Anna, Bertil\nforehand: Anna\n", encoding="utf-8")
    with pytest.raises(RecordError) as err:
        load_record(bad)
    assert str(err.value).startswith("not valid YAML")
    assert main(["replay", str(bad)]) == 2


@pytest.mark.parametrize("field", ["vira", "players", "forehand", "highest_suit", "hands", "stock", "actions"])
def test_missing_field(field: str) -> None:
    data = _data("7spel_offsuit_home.yaml")
    del data[field]
    with pytest.raises(RecordError) as err:
        read_record(data)
    assert str(err.value) == f"missing field: {field}"


def test_card_dealt_twice() -> None:
    data = _data("7spel_offsuit_home.yaml")
    assert "AS" in data["hands"]["Anna"]
    data["stock"][5] = "AS"
    with pytest.raises(RecordError) as err:
        read_record(data)
    assert str(err.value) == "card dealt twice: AS"


def test_short_hand() -> None:
    data = _data("7spel_offsuit_home.yaml")
    data["stock"].append(data["hands"]["Bertil"].pop())
    with pytest.raises(RecordError) as err:
        read_record(data)
    assert "Bertil" in str(err.value) and "12 cards" in str(err.value)


def test_illegal_action_names_position_player_action_and_reason() -> None:
    data = _data("7spel_offsuit_home.yaml")
    actions = _actions(data)
    # trick 1: Anna leads AS; Bertil holds spades but discards the JH
    n = actions.index(("Bertil", "2S"))
    assert actions[n - 1] == ("Anna", "AS")
    data["actions"][n] = {"Bertil": "JH"}
    record = read_record(data)
    with pytest.raises(RecordError) as err:
        replay(record)
    assert str(err.value) == f"action {n + 1} (Bertil: JH): must follow suit in spades"
    # nothing partly applied: the record's deal is untouched and a fixed record still replays
    assert record.deal.history == [] and record.deal.phase is Phase.AUCTION
    record.actions[n] = ("Bertil", "2S")
    deal = replay(record)
    assert check_result(record, deal) is None


def test_illegal_action_cli_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _data("7spel_offsuit_home.yaml")
    n = _actions(data).index(("Bertil", "2S"))
    data["actions"][n] = {"Bertil": "JH"}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["replay", str(bad), "--check", "--json"]) == 2
    err = capsys.readouterr().err
    assert f"action {n + 1} (Bertil: JH): must follow suit in spades" in err


def test_action_out_of_turn() -> None:
    data = _data("7spel_offsuit_home.yaml")
    data["actions"][1] = {"Cecilia": "pass"}
    with pytest.raises(RecordError) as err:
        _replay_data(data)
    assert str(err.value) == "action 2 (Cecilia: pass): it is Bertil's turn, not Cecilia's"


def test_unknown_player_in_actions() -> None:
    data = _data("7spel_offsuit_home.yaml")
    data["actions"][1] = {"David": "pass"}
    with pytest.raises(RecordError) as err:
        _replay_data(data)
    assert str(err.value).startswith("action 2 (David: pass):")


def test_card_not_in_hand() -> None:
    data = _data("7spel_offsuit_home.yaml")
    n = _actions(data).index(("Anna", "AS"))
    data["actions"][n] = {"Anna": "AH"}
    with pytest.raises(RecordError) as err:
        _replay_data(data)
    assert str(err.value).startswith(f"action {n + 1} (Anna: AH): AH is not in")


def test_actions_after_the_end() -> None:
    data = _data("laid_solo8.yaml")
    data["actions"].append({"Anna": "AS"})
    with pytest.raises(RecordError) as err:
        _replay_data(data)
    assert str(err.value) == f"action {len(data['actions'])} (Anna: AS): the deal is over"


def test_reading_does_not_change_the_data() -> None:
    data = _data("kopmisar4_repurchase_bet.yaml")
    before = copy.deepcopy(data)
    record, deal = _replay_data(data)
    assert data == before
    assert deal.result is not None and record.deal.result is None


def test_a_record_written_under_a_pulla_override_carries_it_and_passes_its_own_check(tmp_path: Path) -> None:
    """HouseRules.changed() left the pulla rows out: a record made under an override failed --check."""
    from vira_desktop.rules.houserules import HouseRules

    rules = HouseRules.from_changes({"pulla_table": {"ordinary": [2, 3, 4, 1, 5, 7]}, "gok_reentry": True})
    data = _data("7spel_highest_bet.yaml")
    data["house_rules"] = rules.changed()
    record, replayed = _replay_data(data)
    assert replayed.rules.pulla.rows["ordinary"].bet == 3 and replayed.rules.gok_reentry
    written = record_of(replayed, record.names)
    assert written["house_rules"] == {"gok_reentry": True, "pulla_table": {"ordinary": [2, 3, 4, 1, 5, 7]}}
    path = tmp_path / "override.yaml"
    path.write_text(dump_record(written), encoding="utf-8")
    assert main(["replay", "--check", str(path)]) == 0
    again = load_record(path)
    assert replay(again).result == replayed.result and replayed.result is not None
    assert replayed.result.pulla[replayed.result.declarer] == 3  # bet, by the overridden row


@pytest.mark.parametrize(
    ("house_rules", "message"),
    [
        (
            {"pulla_table": {"ordinary": [1, 1, 2, None, None, None]}},
            "house_rules.pulla_table.ordinary: the repurchase",
        ),
        ({"pulla_table": {"vingel 9": [1, 1, 1, 1, 1, 1]}}, "house_rules.pulla_table.vingel 9: unknown row"),
        ({"pulla_table": [1, 2]}, "house_rules.pulla_table: expected a mapping"),
        ({"gok_reentry": "yes"}, "house_rules.gok_reentry: expected true or false"),
        ({"gok_rentry": True}, "house_rules.gok_rentry: unknown house rule"),
    ],
)
def test_bad_house_rules_in_a_record_are_named(house_rules: dict[str, Any], message: str) -> None:
    data = _data("7spel_highest_bet.yaml")
    data["house_rules"] = house_rules
    with pytest.raises(RecordError, match=re.escape(message)):
        _replay_data(data)
