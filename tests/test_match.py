"""The match tooling: duplicate matches, ``vira match``, per-seat bot mixes in ``simulate``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from vira_desktop.ai import Bot, Budget, make_bot
from vira_desktop.cli import main
from vira_desktop.rules.deal import Deal
from vira_desktop.session import match
from vira_desktop.session.match import SIDE_PATTERNS, duplicate_match, play_deal, simulate

TIMING = ("seconds", "deals_per_s")
KEYS = ("deals", "a", "b", "mean_bets_per_100", "diff_ci95", "sessions_won_pct", "declarer_home_pct", "kodilj_pct")


def _untimed(info: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in info.items() if k not in TIMING}


def _ci(info: dict[str, object]) -> tuple[float, float]:
    ci = info["diff_ci95"]
    assert isinstance(ci, list) and len(ci) == 2
    low, high = ci
    assert isinstance(low, float | int) and isinstance(high, float | int)
    return float(low), float(high)


@pytest.fixture(scope="module")
def five() -> dict[str, object]:
    return duplicate_match("normal", "random", deals=5, seed=1).as_json()


def test_duplicate_match_json_keys(five: dict[str, object]) -> None:
    for key in KEYS:
        assert key in five, key
    assert five["deals"] == 5
    assert five["plays"] == 30
    assert (five["a"], five["b"]) == ("normal", "random")
    for key in ("mean_bets_per_100", "sessions_won_pct", "declarer_home_pct", "kodilj_pct"):
        per_side = five[key]
        assert isinstance(per_side, dict) and set(per_side) == {"a", "b"}, (key, per_side)
    low, high = _ci(five)
    assert low <= high
    won = five["sessions_won_pct"]
    assert isinstance(won, dict)
    assert all(0.0 <= v <= 100.0 for v in won.values())
    assert won["a"] + won["b"] <= 100.0
    for key in ("declarer_home_pct", "kodilj_pct"):
        pct = five[key]
        assert isinstance(pct, dict)
        assert all(v is None or 0.0 <= v <= 100.0 for v in pct.values()), (key, pct)
    json.dumps(five)  # plain JSON


def test_duplicate_match_ci_contains_the_mean_difference(five: dict[str, object]) -> None:
    means = five["mean_bets_per_100"]
    assert isinstance(means, dict)
    low, high = _ci(five)
    assert low - 0.02 <= means["a"] - means["b"] <= high + 0.02


def test_side_patterns_give_each_side_each_seat_equally() -> None:
    assert len(SIDE_PATTERNS) == 6 == len(set(SIDE_PATTERNS))
    for seat in range(3):
        at_seat = Counter(p[seat] for p in SIDE_PATTERNS)
        assert at_seat == {"a": 3, "b": 3}
    for pattern in SIDE_PATTERNS:
        assert set(pattern) == {"a", "b"}


@pytest.fixture
def recorded_plays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int | None, tuple[str, ...]]]]:
    """Every deal ``match`` plays: its number and the bot level at each seat."""
    plays: list[tuple[int | None, tuple[str, ...]]] = []

    def recording(deal: Deal, bots: Sequence[Bot], apply: object = None, check: object = None) -> int:
        plays.append((deal.number, tuple(b.name for b in bots)))
        return play_deal(deal, bots, apply, check)  # type: ignore[arg-type]

    monkeypatch.setattr(match, "play_deal", recording)
    yield plays


def test_each_deal_is_played_six_times_with_sides_round_the_seats(
    recorded_plays: list[tuple[int | None, tuple[str, ...]]],
) -> None:
    deals = 5
    stats = duplicate_match("normal", "random", deals=deals, seed=1)
    assert stats.deals == deals
    assert len(recorded_plays) == 6 * deals
    numbers = []
    for i in range(deals):
        block = recorded_plays[6 * i : 6 * i + 6]
        assert len({number for number, _ in block}) == 1, "the six plays of a deal are the same deal"
        numbers.append(block[0][0])
        seatings = [levels for _, levels in block]
        assert len(set(seatings)) == 6, "six different seatings"
        for seat in range(3):
            assert Counter(levels[seat] for levels in seatings) == {"normal": 3, "random": 3}, (i, seat)
        per_play = [Counter(levels) for levels in seatings]
        assert sum(c["normal"] for c in per_play) == sum(c["random"] for c in per_play) == 9
    assert len(set(numbers)) == deals, "different deals"
    assert len(stats.scores["a"]) == len(stats.scores["b"]) == deals


def test_duplicate_match_is_repeatable(five: dict[str, object]) -> None:
    again = duplicate_match("normal", "random", deals=5, seed=1).as_json()
    assert _untimed(again) == _untimed(five)


def test_mirror_match_has_symmetric_sides() -> None:
    """The same level on both sides: every deal is scored the same for both."""
    info = duplicate_match("random", "random", deals=3, seed=4).as_json()
    means = info["mean_bets_per_100"]
    assert isinstance(means, dict)
    assert means["a"] == means["b"]
    assert info["diff_ci95"] == [0.0, 0.0]


def test_vira_match_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--a", "normal", "--b", "random", "--deals", "3", "--seed", "1", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["deals"] == 3 and info["plays"] == 18
    assert (info["a"], info["b"]) == ("normal", "random")
    low, high = info["diff_ci95"]
    assert low <= high
    assert _untimed(info) == _untimed(duplicate_match("normal", "random", deals=3, seed=1).as_json())


def test_vira_match_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--a", "easy", "--b", "random", "--deals", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for key in ("deals: 2", "a: easy", "b: random", "mean_bets_per_100:", "diff_ci95:", "sessions_won_pct:"):
        assert key in out, key


def test_vira_match_rejects_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--a", "grandmaster", "--b", "random", "--deals", "1"]) == 2
    assert "unknown bot level" in capsys.readouterr().err


# ---------------------------------------------------------------------- simulate with per-seat levels
@pytest.fixture
def made_bots(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The levels ``simulate`` asks ``make_bot`` for, in order."""
    levels: list[str] = []

    def recording(level: str, seed: int = 0, budget: Budget | None = None) -> Bot:
        levels.append(level)
        return make_bot(level, seed, budget)

    monkeypatch.setattr(match, "make_bot", recording)
    return levels


@pytest.mark.parametrize(
    ("players", "bots"),
    [(3, ["normal", "random", "easy"]), (4, ["normal", "random", "easy", "normal"]), (4, ["easy"])],
)
def test_simulate_per_seat_levels(made_bots: list[str], players: int, bots: list[str]) -> None:
    stats = simulate(12, 5, players=players, bots=bots)
    info = stats.as_json()
    assert info["errors"] == 0 and info["conservation_ok"], info["first_error"]
    assert info["deals"] == 12
    expected = bots if len(bots) == players else bots * players
    assert made_bots == expected  # one bot per player, in the order given


def test_simulate_seats_play_their_own_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """With levels per player, the players (not the seats) keep their level as the deal passes round."""
    names_per_deal: list[tuple[str, ...]] = []

    def recording(deal: Deal, bots: Sequence[Bot], apply: object = None, check: object = None) -> int:
        names_per_deal.append(tuple(b.name for b in bots))
        return play_deal(deal, bots, apply, check)  # type: ignore[arg-type]

    monkeypatch.setattr(match, "play_deal", recording)
    stats = simulate(6, 9, players=3, bots=["normal", "random", "easy"])
    assert stats.errors == 0
    assert all(sorted(names) == ["easy", "normal", "random"] for names in names_per_deal)
    assert len(set(names_per_deal)) == 3, "the deal passes round: each player sits at each seat"


@pytest.mark.parametrize(("players", "bots"), [(3, ["normal", "random"]), (3, ["normal"] * 4), (4, ["normal"] * 3)])
def test_simulate_wrong_number_of_levels(players: int, bots: list[str]) -> None:
    with pytest.raises(ValueError, match="one per player"):
        simulate(1, 1, players=players, bots=bots)


def test_cli_simulate_per_seat_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deals", "5", "--seed", "2", "--bots", "normal, random ,easy", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["deals"] == 5 and info["errors"] == 0
    assert main(["simulate", "--deals", "1", "--bots", "normal,random"]) == 2
    assert "one per player" in capsys.readouterr().err
