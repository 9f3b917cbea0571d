"""The session ledger (rulebook "Pins, Rounds and the Pulla", "Bets", "Betting In",
"Settlement and Ending the Session"; RULES-NOTES §3 "Pulla too small for a win")."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vira_desktop.rules.actions import Action, Bid, Buy, ChooseTrump, Decide, Pass
from vira_desktop.rules.cards import ALL_CARDS, Suit
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.games import game
from vira_desktop.rules.ledger import PULLA, SEXMASTARE, Kind, Ledger, Place, Settlement, TokensIssued, TokensMoved
from vira_desktop.rules.session import Session

ABC = ["A", "B", "C"]
EMPTY_BOWL = {Kind.TRIANGLE: 0, Kind.BET: 0, Kind.ROUND: 0, Kind.PIN: 0}


def ledger(players: list[str] = ABC, bowl: dict[Kind, int] | None = None) -> Ledger:
    led = Ledger(bowl)
    for p in players:
        led.add_player(p)
        assert led.conserved()
    return led


def moved(events: Sequence[object], reason: str | None = None) -> list[TokensMoved]:
    return [e for e in events if isinstance(e, TokensMoved) and (reason is None or e.reason == reason)]


def in_place(led: Ledger, place: Place, kind: Kind) -> int:
    return sum(n for (_, k), n in led.holdings(place).items() if k is kind)


# ---------------------------------------------------------------------- tokens
def test_token_values() -> None:
    assert int(Kind.PIN) == 1
    assert int(Kind.ROUND) == 2, "a round is worth two pins"
    assert int(Kind.BET) == 8, "a bet is worth eight pins"
    assert int(Kind.TRIANGLE) == 5 * int(Kind.BET), "a triangle is worth five bets"


def test_each_player_has_a_bowl_of_own_colour() -> None:
    led = ledger()
    for p in ABC:
        assert led.accounts[p] == 0
        assert all(colour == p for colour, _ in led.holdings(p))
        assert led.token_result(p) == 0
    with pytest.raises(ValueError):
        led.add_player("A")


# ---------------------------------------------------------------------- åla
@pytest.mark.parametrize("players", [3, 4])
def test_ala_at_the_start_one_bet_each(players: int) -> None:
    names = ["A", "B", "C", "D"][:players]
    session, events = Session.start(names, "A", seed=1)
    led = session.ledger
    assert led.pulla_bets() == players
    assert led.accounts == {n: -8 for n in names}
    ala = moved(events, "åla")
    assert sorted(str(e.source) for e in ala) == sorted(names)
    assert all(e.target == PULLA and e.kind is Kind.BET and e.count == 1 and e.colour == e.source for e in ala)
    assert led.conserved()


def test_lift_from_too_small_pulla_antes_everyone_first_including_sitter_out() -> None:
    led = ledger(["A", "B", "C", "D"])
    led.ante(["A", "B", "C", "D"])
    led.lift("A", 4, "drain", ["A", "B", "C", "D"])
    assert led.pulla_bets() == 0 and led.conserved()
    before = dict(led.accounts)
    events = led.lift("B", 1, "home", ["A", "B", "C", "D"])  # D sits out this deal
    ala = moved(events, "åla om")
    assert sorted(str(e.source) for e in ala) == ["A", "B", "C", "D"]
    assert all(e.target == PULLA for e in ala)
    first_lift = next(i for i, e in enumerate(moved(events)) if e.reason == "home")
    assert first_lift == len(ala), "everyone antes before the lift"
    assert led.pulla_bets() == 3
    assert led.accounts == {"A": before["A"] - 8, "B": before["B"], "C": before["C"] - 8, "D": before["D"] - 8}
    assert led.conserved()


def test_lift_of_two_from_a_pulla_of_one() -> None:
    led = ledger()
    led.pay_pulla("A", 1, "bet")
    events = led.lift("B", 2, "home", ABC)
    assert len(moved(events, "åla om")) == 3
    assert led.pulla_bets() == 2
    assert led.conserved()


def test_no_ala_om_when_the_pulla_suffices() -> None:
    led = ledger()
    led.ante(ABC)
    events = led.lift("C", 2, "home", ABC)
    assert not moved(events, "åla om")
    assert led.pulla_bets() == 1 and led.conserved()


def _all_spades_deal() -> Deal:
    """Forehand holds all thirteen spades: begär with spades trump goes home."""
    spades = [c for c in ALL_CARDS if c.suit is Suit.S]
    rest = [c for c in ALL_CARDS if c.suit is not Suit.S]
    return Deal([spades, rest[:13], rest[13:26]], rest[26:], Suit.H)


def test_session_win_with_empty_pulla_antes_all_four_including_sitter_out() -> None:
    names = ["A", "B", "C", "D"]
    session, _ = Session.start(names, "A", seed=2)
    led = session.ledger
    led.lift("D", 4, "drain", names)
    assert led.pulla_bets() == 0
    session.new_deal()
    session.deal = deal = _all_spades_deal()  # a deal the declarer cannot lose
    out = session.sitting_out
    assert out is not None and out not in session.seats
    declarer = session.seats[0]
    before = dict(led.accounts)
    opening: list[Action] = [
        Bid(0, game("begär")),
        Pass(1),
        Pass(2),
        ChooseTrump(0, Suit.S),
        Buy(0, ()),
        Decide(0, True),
    ]
    for step in opening:
        session.apply(step)
    assert deal.phase is Phase.OPPONENT_BUY
    events: list[object] = []
    while not deal.is_over:
        d = deal.decision()
        action = d.choice.make(()) if d.choice is not None else d.actions[0]
        events += session.apply(action)
        assert led.conserved() and deal.cards_conserved()
    assert deal.result is not None and deal.result.outcome == "home"
    assert deal.result.pulla[0] == -1
    ala = moved(events, "åla om")
    assert sorted(str(e.source) for e in ala) == sorted(names), "the player sitting out antes too"
    assert led.pulla_bets() == 3
    for n in names:
        pins = deal.result.pins[session.seats.index(n)] if n != out else 0
        expected = before[n] - 8 + (8 if n == declarer else 0) + pins
        assert led.accounts[n] == expected


# ---------------------------------------------------------------------- substitutes and sexmastare
def test_rounds_and_pins_substitute_for_bets_one_bet_each() -> None:
    led = ledger(["A"], {**EMPTY_BOWL, Kind.ROUND: 2, Kind.PIN: 3})
    events = led.pay_pulla("A", 4, "bet")
    assert led.pulla_bets() == 4
    assert in_place(led, PULLA, Kind.ROUND) + in_place(led, PULLA, Kind.PIN) == 4
    assert in_place(led, PULLA, Kind.BET) == 0
    assert not [e for e in events if isinstance(e, TokensIssued)]
    assert led.accounts["A"] == -32
    assert led.conserved()


def test_bets_first_then_substitutes() -> None:
    led = ledger(["A"], {**EMPTY_BOWL, Kind.BET: 1, Kind.ROUND: 1, Kind.PIN: 1})
    led.pay_pulla("A", 3, "kodilj")
    assert in_place(led, PULLA, Kind.BET) == 1
    assert in_place(led, PULLA, Kind.ROUND) == 1 and in_place(led, PULLA, Kind.PIN) == 1
    assert led.pulla_bets() == 3 and led.conserved()


def test_sexmastare_when_nothing_is_left() -> None:
    led = ledger(["A", "B"], EMPTY_BOWL)
    led.pay_pulla("A", 6, "repurchase kodilj")
    assert in_place(led, SEXMASTARE, Kind.PIN) == 1, "one pin under the pulla"
    assert in_place(led, PULLA, Kind.PIN) == 0
    assert led.pulla_bets() == 6, "a sexmastare counts six bets"
    assert led.accounts["A"] == -48
    assert led.conserved()
    led.pay_pulla("A", 12, "more")
    assert in_place(led, SEXMASTARE, Kind.PIN) == 3
    assert led.pulla_bets() == 18 and led.conserved()


def test_no_sexmastare_while_pins_remain() -> None:
    led = ledger(["A"], {**EMPTY_BOWL, Kind.PIN: 6})
    led.pay_pulla("A", 6, "x")
    assert in_place(led, SEXMASTARE, Kind.PIN) == 0 and in_place(led, PULLA, Kind.PIN) == 6
    assert led.conserved()


def test_lifting_from_a_sexmastare_gives_change() -> None:
    led = ledger(["A", "B"], EMPTY_BOWL)
    led.pay_pulla("A", 6, "x")
    led.lift("B", 1, "home", ["A", "B"])
    assert led.pulla_bets() == 5
    assert led.accounts == {"A": -48, "B": 8}
    assert led.conserved()


# ---------------------------------------------------------------------- betting in
def _pulla_of(bets: int) -> Ledger:
    led = ledger()
    for i in range(bets):
        led.pay_pulla(ABC[i % 3], 1, "bet")
    assert led.pulla_bets() == bets
    return led


@pytest.mark.parametrize(
    ("pulla", "bets_in", "pins_each"),
    [
        (9, 3, 0),  # divisible by three: a third
        (8, 3, 0),  # one bet missing: round up
        (7, 2, 1),  # two bets missing: round down, one pin to each other player
        (6, 2, 0),
        (5, 2, 0),
        (4, 1, 1),
        (3, 1, 0),
        (0, 0, 0),
        (1, 0, 1),
        (2, 1, 0),
    ],
)
def test_bet_in_rounding(pulla: int, bets_in: int, pins_each: int) -> None:
    led = _pulla_of(pulla)
    before = dict(led.accounts)
    led.bet_in("D")
    assert led.players == ["A", "B", "C", "D"]
    assert led.pulla_bets() == pulla + bets_in
    assert led.accounts["D"] == -8 * bets_in - 3 * pins_each
    for p in ABC:
        assert led.accounts[p] == before[p] + pins_each
    assert led.conserved()


@given(st.integers(0, 60))
def test_bet_in_formula(pulla: int) -> None:
    led = _pulla_of(pulla)
    led.bet_in("D")
    paid = led.pulla_bets() - pulla
    assert (pulla + 2) // 3 == paid + (1 if pulla % 3 == 1 else 0)
    assert led.conserved()


# ---------------------------------------------------------------------- settlement
def _settle_case(
    payments: dict[str, int], pins: list[tuple[str, str, int]], seed: int = 0
) -> tuple[Ledger, Settlement]:
    led = ledger()
    for p, bets in payments.items():
        led.pay_pulla(p, bets, "bet")
    for payer, payee, n in pins:
        led.pay_pins(payer, payee, n, "game")
    assert led.conserved()
    settlement, _ = led.settle(random.Random(seed))
    assert led.conserved()
    assert led.pulla_bets() == 0
    assert not led.holdings(PULLA) and not led.holdings(SEXMASTARE)
    assert sum(led.accounts.values()) == 0, "accounts sum to zero after settlement"
    assert settlement.results == led.accounts
    for p in ABC:
        assert led.token_result(p) == led.accounts[p]
    return led, settlement


def test_settle_equal_shares() -> None:
    _, s = _settle_case({"A": 2, "B": 2, "C": 2}, [("A", "B", 3)])
    assert s.shares == {"A": 16, "B": 16, "C": 16}
    assert s.remainder_to == ()


def test_settle_remainder_two_to_the_biggest_loser() -> None:
    # 4 bets = 32 pins: 10 each, 2 over; A lost most (-16 vs B -13)
    led, s = _settle_case({"A": 2, "B": 1, "C": 1}, [("B", "C", 5)])
    assert s.shares == {"A": 12, "B": 10, "C": 10}
    assert s.remainder_to == ("A",)
    assert led.accounts == {"A": -4, "B": -3, "C": 7}


def test_settle_remainder_two_when_the_gap_is_two() -> None:
    _, s = _settle_case({"A": 2, "B": 1, "C": 1}, [("B", "C", 6)])  # A -16, B -14
    assert s.shares == {"A": 12, "B": 10, "C": 10}


def test_settle_remainder_two_split_when_only_one_pin_between_losers() -> None:
    _, s = _settle_case({"A": 2, "B": 1, "C": 1}, [("B", "C", 7)])  # A -16, B -15
    assert s.shares == {"A": 11, "B": 11, "C": 10}
    assert set(s.remainder_to) == {"A", "B"}


def test_settle_remainder_two_split_when_two_lost_equally() -> None:
    _, s = _settle_case({"A": 2, "B": 1, "C": 1}, [("B", "C", 8)])  # A -16, B -16
    assert s.shares == {"A": 11, "B": 11, "C": 10}


def test_settle_remainder_one_to_the_biggest_loser() -> None:
    # 5 bets = 40 pins: 13 each, 1 over
    _, s = _settle_case({"A": 3, "B": 1, "C": 1}, [])
    assert s.shares == {"A": 14, "B": 13, "C": 13}
    assert s.remainder_to == ("A",)


def test_settle_remainder_one_with_a_tie_is_drawn_by_lot() -> None:
    takers = []
    for seed in range(40):
        # A -24, B -24 after B pays C 16 pins; C +8
        _, s = _settle_case({"A": 3, "B": 1, "C": 1}, [("B", "C", 16)], seed)
        (taker,) = s.remainder_to
        assert taker in ("A", "B")
        assert s.shares[taker] == 14 and s.shares["C"] == 13
        # seeded: the same seed draws the same lot
        _, again = _settle_case({"A": 3, "B": 1, "C": 1}, [("B", "C", 16)], seed)
        assert again.remainder_to == (taker,)
        takers.append(taker)
    assert set(takers) == {"A", "B"}, "a lot, not a fixed rule"


def test_settle_four_players_no_remainder() -> None:
    led = ledger(["A", "B", "C", "D"])
    led.ante(["A", "B", "C", "D"])
    led.pay_pulla("A", 1, "bet")  # 5 bets = 40 pins: 10 each
    settlement, _ = led.settle(random.Random(0))
    assert settlement.shares == {"A": 10, "B": 10, "C": 10, "D": 10}
    assert settlement.remainder_to == ()
    assert sum(led.accounts.values()) == 0 and led.conserved()


def test_settle_with_sexmastare_and_substitutes() -> None:
    led = ledger(ABC, {**EMPTY_BOWL, Kind.PIN: 2})
    led.pay_pulla("A", 2, "bet")  # two pins as bets
    led.pay_pulla("B", 6, "bet")  # a sexmastare
    assert led.pulla_bets() == 8
    settlement, _ = led.settle(random.Random(0))
    assert sum(settlement.shares.values()) == 64
    assert sum(led.accounts.values()) == 0 and led.conserved()
    assert led.pulla_bets() == 0


# ---------------------------------------------------------------------- pins with change
def test_pin_payment_with_change() -> None:
    led = ledger(["A", "B"], {**EMPTY_BOWL, Kind.BET: 2, Kind.PIN: 10})
    led.pay_pins("A", "B", 10, "x")  # A pays with its ten pins
    led.pay_pins("A", "B", 3, "x")  # only bets left: a bet, and B gives 5 pins change
    assert led.accounts == {"A": -13, "B": 13}
    assert led.token_result("A") == -13 and led.token_result("B") == 13
    assert led.conserved()


# ---------------------------------------------------------------------- a random walk
ops = st.lists(
    st.tuples(
        st.sampled_from(["pulla", "pins", "lift"]), st.sampled_from(ABC), st.sampled_from(ABC), st.integers(1, 6)
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(ops, st.integers(0, 2**32 - 1), st.booleans())
def test_random_payments_conserve_and_settle_to_zero(
    steps: list[tuple[str, str, str, int]], seed: int, small_bowl: bool
) -> None:
    bowl = {Kind.TRIANGLE: 1, Kind.BET: 3, Kind.ROUND: 2, Kind.PIN: 3} if small_bowl else None
    led = ledger(ABC, bowl)
    led.ante(ABC)
    substitutes = False  # pins and rounds counted as bets in the pulla (or under it)
    for op, a, b, n in steps:
        events: Sequence[object] = []
        if op == "pulla":
            events = led.pay_pulla(a, n, "bet")
        elif op == "pins" and a != b:
            events = led.pay_pins(a, b, n, "game")
        elif op == "lift":
            events = led.lift(a, min(n, 2), "home", ABC)  # may ante again (åla om)
        substitutes |= any(e.target in (PULLA, SEXMASTARE) and e.kind in (Kind.PIN, Kind.ROUND) for e in moved(events))
        assert led.conserved()
        assert led.pulla_bets() >= 0
    settlement, _ = led.settle(random.Random(seed))
    assert led.conserved()
    assert sum(led.accounts.values()) == 0
    assert settlement.results == led.accounts
    assert led.pulla_bets() == 0
    if not substitutes:
        for p in ABC:
            assert led.token_result(p) == led.accounts[p]


@pytest.mark.parametrize("name", ["pulla", "under the pulla"])
def test_a_player_may_share_a_name_with_the_pulla(name: str) -> None:
    """Player names are free text; the ledger's own places must not collide with them."""
    session, _ = Session.start([name, "B", "C"], name, seed=1)
    assert session.ledger.pulla_bets() == 3
    assert session.ledger.accounts[name] == -8
    assert session.ledger.conserved()


def test_a_tie_for_the_best_result_names_every_winner() -> None:
    """Players tied at the top all won: the settlement names them all, never one by dict order."""
    shares = {"A": 8, "B": 8, "C": 8}
    tied = Settlement(pulla_bets=3, shares=shares, remainder_to=(), results={"A": 5, "B": 5, "C": -10})
    assert tied.winners == ("A", "B")
    alone = Settlement(pulla_bets=3, shares=shares, remainder_to=(), results={"A": -1, "B": 6, "C": -5})
    assert alone.winners == ("B",)
