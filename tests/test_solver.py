"""The double-dummy solver: against plain minimax on the rules' own trick play, the compiled
search against the Python one on 1,200 positions, and `vira solve` on golden records."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from vira_desktop.ai.native import NATIVE
from vira_desktop.ai.solver import Position, all_move_values, move_values, python_solve, solve
from vira_desktop.rules.cards import SUIT_MASKS, Card, mask_of, parse_cards
from vira_desktop.rules.errors import RecordError
from vira_desktop.rules.tricks import TrickPlay, card_value

ROOT = Path(__file__).resolve().parents[1]


def minimax(p: Position) -> int:
    """The declarer's tricks by trying every card, on :class:`TrickPlay` (no pruning)."""
    play = TrickPlay(list(p.hands), p.trump, p.to_act, p.aces_low, [(s, Card(c)) for s, c in p.trick])

    def wants(seat: int) -> bool:
        return (seat == p.declarer) != p.low

    def rec(left: int) -> int:
        if left == 0:
            return 0
        seat = play.to_act
        values = []
        legal = play.legal()
        for card in range(52):
            if legal >> card & 1:
                winner = play.push(card)
                values.append(rec(left) if winner is None else (winner == p.declarer) + rec(left - 1))
                play.pop()
        return max(values) if wants(seat) else min(values)

    return rec(p.left())


def random_position(rng: random.Random, most: int) -> Position:
    """Up to ``most`` cards a hand, any trump or none, a high game or a misère, aces as ones
    now and then, and up to two cards of the trick already played."""
    n = rng.randint(1, most)
    cards = rng.sample(range(52), 3 * n)
    hands = [mask_of(cards[i * n : (i + 1) * n]) for i in range(3)]
    low = rng.random() < 0.3
    trump = -1 if low or rng.random() < 0.2 else rng.randrange(4)
    seat = rng.randrange(3)
    trick: list[tuple[int, int]] = []
    for _ in range(rng.randint(0, 2)):
        hand = hands[seat]
        if trick and hand & SUIT_MASKS[trick[0][1] // 13]:
            hand &= SUIT_MASKS[trick[0][1] // 13]
        card = rng.choice([c for c in range(52) if hand >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append((seat, card))
        seat = (seat + 1) % 3
    declarer, aces_low = rng.randrange(3), rng.random() < 0.15
    return Position((hands[0], hands[1], hands[2]), trump, seat, declarer, low, aces_low, tuple(trick), n)


def test_the_python_solver_is_minimax() -> None:
    rng = random.Random(21)
    for _ in range(300):
        p = random_position(rng, 4)
        assert python_solve(p) == minimax(p), p


def test_every_cards_value_is_the_value_after_it() -> None:
    """The best card's value is the position's value, and a card's is the solve after it."""
    rng = random.Random(5)
    for _ in range(150):
        p = random_position(rng, 4)
        values = all_move_values(p, "python")
        assert (max if p.wants_tricks(p.to_act) else min)(values.values()) == python_solve(p) == minimax(p)


def test_hands_whose_value_is_known() -> None:
    """Solo vira takes all 13; the lowest cards in misère take none; aces as ones are low."""
    vira = mask_of(parse_cards("AS KS QS JS TS 9S 8S 7S AH KH AD KD AC"))
    rest = [c for c in range(52) if not vira >> c & 1]
    left, right = mask_of(rest[:13]), mask_of(rest[13:26])
    assert solve(Position((vira, left, right), 0, 1, 0)) == 13
    low = mask_of(parse_cards("2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C"))
    others = [c for c in range(52) if not low >> c & 1]
    p = Position((mask_of(others[:13]), low, mask_of(others[13:26])), -1, 0, 1, low=True)
    assert solve(p) == python_solve(p) == 0
    aces = mask_of(parse_cards("AS AH AD"))  # one card each: the declarer's ace wins, unless aces are ones
    p = Position((aces & SUIT_MASKS[0], mask_of(parse_cards("2S")), mask_of(parse_cards("3S"))), -1, 0, 0)
    assert solve(p) == 1 and solve(Position(p.hands, -1, 0, 0, aces_low=True)) == 0


@pytest.mark.skipif(NATIVE is None, reason="the compiled helper is not built")
def test_the_compiled_solver_gives_the_python_values() -> None:
    """1,200 random positions of up to 6 cards a hand, each kind of game."""
    rng = random.Random(2212)
    for i in range(1200):
        p = random_position(rng, 6 if i % 4 else 3)
        assert solve(p) == python_solve(p), p
        if i % 10 == 0:  # every card's value, the compiled solver keeping its table between them
            assert move_values(p) == move_values(p, "python"), p


@pytest.mark.skipif(NATIVE is None, reason="the compiled helper is not built")
def test_the_compiled_solver_on_larger_hands() -> None:
    rng = random.Random(8)
    for _ in range(12):
        p = random_position(rng, 8)
        assert solve(p) == python_solve(p), p


@pytest.mark.skipif(NATIVE is None, reason="the compiled helper is not built")
def test_the_compiled_solver_gives_the_python_values_in_misere() -> None:
    """1,000 misères of up to 7 cards a hand, the declarer's often low (where the compiled
    search stops at a safe declarer: every i-th lowest card of a suit below the defenders'
    i-th lowest) and now and then fewer than the defenders'."""
    rng = random.Random(4417)
    for i in range(1000):
        p = random_position(rng, 7 if i % 5 else 4)
        hands = list(p.hands)
        if rng.random() < 0.5:  # the declarer's high cards swapped for the defenders' low ones
            for _ in range(rng.randint(1, 4)):
                other = (p.declarer + rng.randint(1, 2)) % 3
                mine, theirs = hands[p.declarer], hands[other]
                if mine and theirs:
                    high, low = mine.bit_length() - 1, (theirs & -theirs).bit_length() - 1
                    if high > low:
                        hands[p.declarer] ^= 1 << high | 1 << low
                        hands[other] ^= 1 << high | 1 << low
        left = -1 if rng.random() < 0.3 else p.tricks_left
        if left < 0 and hands[p.declarer]:
            hands[p.declarer] &= hands[p.declarer] - 1  # one card fewer: play stops when his run out
        q = Position((hands[0], hands[1], hands[2]), -1, p.to_act, p.declarer, True, p.aces_low, p.trick, left)
        assert solve(q) == python_solve(q), q


def trump_heavy_position(rng: random.Random, most: int) -> Position:
    """A high game with trumps, a side's hands holding the top trumps (where the compiled
    search counts sure trump tricks and quick tricks of the declarer or a defender on lead):
    up to ``most`` cards a hand, now and then a trick in progress."""
    n = rng.randint(2, most)
    trump = rng.randrange(4)
    tops = [13 * trump + r for r in range(12, 12 - rng.randint(1, 5), -1)]
    rest = rng.sample([c for c in range(52) if c not in tops], 3 * n - len(tops))
    declarer = rng.randrange(3)
    strong = declarer if rng.random() < 0.5 else (declarer + rng.randint(1, 2)) % 3
    order = [strong, *(s for s in range(3) if s != strong)]
    hands = [0, 0, 0]
    cards = tops + rest
    for seat in order:  # the strong hand gets the top trumps, the others fill up
        take = [c for c in cards if not any(hands[s] >> c & 1 for s in range(3))][:n]
        hands[seat] = mask_of(take)
        cards = [c for c in cards if c not in take]
    aces_low = rng.random() < 0.1
    play = TrickPlay(hands, trump, rng.randrange(3), aces_low)
    trick: list[tuple[int, int]] = []
    for _ in range(rng.choice((0, 0, 0, 1, 2))):  # now and then a card or two of the trick played
        card = rng.choice([c for c in range(52) if play.legal() >> c & 1])
        trick.append((int(play.to_act), card))
        play.push(card)
    p = Position(
        (play.hands[0], play.hands[1], play.hands[2]),
        trump,
        int(play.to_act),
        declarer,
        False,
        aces_low,
        tuple(trick),
        n,
    )
    return p


@pytest.mark.skipif(NATIVE is None, reason="the compiled helper is not built")
def test_the_compiled_solver_gives_the_python_values_with_the_top_trumps_in_one_hand() -> None:
    """600 high games with trumps, the top trumps in the declarer's hand or a defender's
    (the sure-trick and quick-trick cut-offs of either side), each value exact and in the
    bands the bots ask for (with a guess, as they give it), and every card's value."""
    rng = random.Random(3907)
    for i in range(600):
        p = trump_heavy_position(rng, 7 if i % 3 else 9)
        exact = python_solve(p)
        assert solve(p) == exact, p
        floor = rng.randint(0, p.left())
        ceiling = min(p.left(), floor + rng.randint(0, 2))
        assert solve(p, False, rng.randint(-1, p.left()), floor, ceiling) == max(floor, min(ceiling, exact)), p
        if i % 10 == 0:
            assert move_values(p, floor=floor, ceiling=ceiling) == move_values(
                p, "python", floor=floor, ceiling=ceiling
            )


def _vira(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vira_desktop", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_vira_solve_on_a_golden_record() -> None:
    """At the first card of a finished 7-spel: every legal card with its value."""
    out = _vira("solve", "tests/records/7spel_offsuit_home.yaml", "--json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["actions"] == 8 and info["declarer"] == "Anna" and info["wants"] == "most"
    assert len(info["moves"]) == 13 and info["best"] == max(info["moves"].values())
    text = _vira("solve", "tests/records/7spel_offsuit_home.yaml")
    assert text.returncode == 0 and "tricks with best play" in text.stdout
    early = _vira("solve", "tests/records/7spel_offsuit_home.yaml", "--at", "3")
    assert early.returncode == 2 and "not in trick play" in early.stderr


def test_card_value_is_the_trick_rule() -> None:
    """The solver and the deal rank cards by the one rule in rules/tricks.py."""
    assert card_value(12, 0, -1, False) > card_value(11, 0, -1, False)
    assert card_value(12, 0, -1, True) < card_value(0, 0, -1, True)
    assert card_value(13, 0, 1, False) > card_value(12, 0, 1, False)  # a trump deuce beats the ace led


@pytest.mark.parametrize(
    ("record", "allowed", "taken", "costly"),
    [
        ("7spel_offsuit_home", 9, 9, []),  # every card best
        ("solo12_offsuit_home", 12, 13, []),  # the defence let a 13th trick go: home either way (below)
        ("gask3_low_open_bet", 1, 1, [(1, "Anna", "2H", 2), (2, "Cecilia", "3S", 2)]),  # a misère: both ways
    ],
)
def test_vira_analyse_names_the_cards_that_cost(
    record: str, allowed: int, taken: int, costly: list[tuple[int, str, str, int]]
) -> None:
    """Costly: the cards that changed the declarer's result (home, bet, kodilj) double dummy;
    tricks given up that change nothing are listed apart."""
    out = _vira("analyse", f"tests/records/{record}.yaml", "--json", "--layouts", "0")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert (info["allowed"], info["taken"]) == (allowed, taken)
    assert [(c["trick"], c["seat"], c["card"], c["lost"]) for c in info["costly"]] == costly
    only = [(c["trick"], c["seat"], c["card"], c["lost"]) for c in info["tricks_only"]]
    assert only == ([(12, "Cecilia", "AH", 1)] if record == "solo12_offsuit_home" else [])
    assert sum(len(t["cards"]) for t in info["tricks"]) == 3 * len(info["tricks"])


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "records").glob("*.yaml")), ids=lambda p: p.stem)
def test_the_best_line_plays_out_what_the_cards_allowed(path: Path) -> None:
    """ "Show me how": the best line is the play as it went up to the first card that gave up a
    trick, then best play by all, so it ends with the tricks the cards allowed; from a costly
    card of one side's it ends with the value before that card; its cards are legal (the deal
    plays them through) and every trick has its three cards (or the misère's last)."""
    from vira_desktop.session.analysis import analyse_record, best_line
    from vira_desktop.session.record import load_record

    record = load_record(path)
    try:
        info = analyse_record(record, layouts=0)
    except RecordError:
        return  # a laid deal: no play to analyse
    line = info.best_line
    assert line and line[-1].declarer_tricks == info.allowed
    assert len(line) == len(info.tricks)
    turn = info.diverges
    assert (turn is None) == (not info.costly and not info.tricks_only)
    # turning at a card that gave up tricks (the last: the shortest line) keeps its value before
    for costly in (*info.costly, *info.tricks_only)[-1:]:
        assert best_line(record, costly.index)[-1].declarer_tricks == costly.before


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "records").rglob("*.yaml")), ids=lambda p: p.stem)
def test_an_analysis_crosses_the_port_as_json_and_back(path: Path) -> None:
    """A record's analysis (and the values at its first card, or where it stops) is plain JSON
    through the table's port and back, the same tree of dataclasses."""
    from vira_desktop.session import wire
    from vira_desktop.session.analysis import Analysis, Solution, analyse_record, solve_record
    from vira_desktop.session.record import load_record

    try:
        record = load_record(path)
        info = analyse_record(record, layouts=4)  # a few layouts: the judged cards cross too
        solution = solve_record(record)
    except RecordError:
        return  # a laid deal, or a record stopped before trick play: nothing to analyse
    assert wire.loads(wire.dumps(info), Analysis) == info
    assert wire.loads(wire.dumps(solution), Solution) == solution
