"""Sessions: seating, the deal passing round, the two decks, joining, Borup, settlement
(rulebook "Seating", "The Deal", "Continuing Play", "Betting In", "Settlement")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from vira_desktop.ai import RandomBot
from vira_desktop.rules.actions import Action
from vira_desktop.rules.cards import Card, Suit
from vira_desktop.rules.deal import MIN_CUT, cut, cut_point, deal_number_decks
from vira_desktop.rules.errors import IllegalAction, LedgerError
from vira_desktop.rules.games import game
from vira_desktop.rules.ledger import TokensMoved
from vira_desktop.rules.session import Session, draw_seating, heart_deal
from vira_desktop.session.flow import FlowEvent
from vira_desktop.session.match import forced_auction, play_deal
from vira_desktop.session.record import load_record, record_actions

NAMES = ["Anna", "Bertil", "Cecilia", "David"]
PLACES = [Suit.S, Suit.H, Suit.D, Suit.C]  # the engine's places round the table, clockwise


def play_current(session: Session, seed: int = 0) -> None:
    """Finish the session's deal with random bots (a quick forced begär or 7-spel)."""
    deal = session.deal
    assert deal is not None
    rng = random.Random(seed)
    for action in forced_auction(deal, game(rng.choice(["begär", "7-spel", "gask 2"])), rng):
        session.apply(action)
    bots = [RandomBot(seed + i) for i in range(3)]

    def do(action: Action) -> Sequence[FlowEvent]:
        events = session.apply(action)
        assert deal.cards_conserved() and session.ledger.conserved()
        return events

    play_deal(deal, bots, do)
    assert deal.is_over


def play_deals(session: Session, n: int, seed: int = 0) -> None:
    for k in range(n):
        session.new_deal()
        play_current(session, seed + k)


# ---------------------------------------------------------------------- seating
@pytest.mark.parametrize("players", [3, 4])
def test_seating_draw_hearts_drawer_is_first_forehand(players: int) -> None:
    names = NAMES[:players]
    forehands = set()
    for seed in range(200):
        draw = draw_seating(list(names), random.Random(seed))
        suits = [card.suit for _, card in draw.cards]
        assert sorted(n for n, _ in draw.cards) == sorted(names)  # each player drew one card
        assert len(set(suits)) == players, "the cards must be of different suits"
        assert Suit.H in suits, "one of them must be hearts"
        suit_of = {n: c.suit for n, c in draw.cards}
        assert suit_of[draw.forehand] is Suit.H
        # everyone sits at the place of the suit drawn: the order follows the places
        assert sorted(draw.order) == sorted(names)
        assert [PLACES.index(suit_of[n]) for n in draw.order] == sorted(PLACES.index(s) for s in suits)
        forehands.add(draw.forehand)
    assert forehands == set(names), "any player may draw hearts"


def test_seating_draw_is_seeded() -> None:
    a = draw_seating(NAMES[:4], random.Random(9))
    b = draw_seating(NAMES[:4], random.Random(9))
    assert a == b


@pytest.mark.parametrize("players", [3, 4])
def test_first_come_heart_deal(players: int) -> None:
    order = NAMES[:players]
    firsts = set()
    for seed in range(200):
        draw = heart_deal(list(order), random.Random(seed))
        assert draw.order == tuple(order)  # first come, first served: nobody moves
        # laid out one at a time, clockwise from the first player
        assert [n for n, _ in draw.cards] == [order[i % players] for i in range(len(draw.cards))]
        # the first heart makes forehand; no heart before it
        *before, (who, card) = draw.cards
        assert card.suit is Suit.H and who == draw.forehand
        assert all(c.suit is not Suit.H for _, c in before)
        assert len({c for _, c in draw.cards}) == len(draw.cards)
        firsts.add(draw.forehand)
    assert firsts == set(order)


@pytest.mark.parametrize("players", [3, 4])
def test_start_makes_the_drawn_player_forehand(players: int) -> None:
    names = NAMES[:players]
    for first in names:
        session, _ = Session.start(list(names), first, seed=1)
        session.new_deal()
        assert session.seats[0] == first
        # rear-hand (the dealer) sits to the right of forehand: just before it clockwise
        assert names.index(session.seats[2]) == (names.index(first) - 1) % players
        assert names.index(session.seats[1]) == (names.index(first) + 1) % players


def test_start_rejects_bad_tables() -> None:
    with pytest.raises(ValueError):
        Session.start(NAMES[:2], NAMES[0], 1)
    with pytest.raises(ValueError):
        Session.start([*NAMES, "Erik"], NAMES[0], 1)
    with pytest.raises(ValueError):
        Session.start(["A", "A", "B"], "A", 1)


# ---------------------------------------------------------------------- the deal passes round
def test_three_players_deal_passes_clockwise() -> None:
    names = NAMES[:3]
    session, _ = Session.start(list(names), "Bertil", seed=3)
    previous = None
    for k in range(7):
        session.new_deal()
        seats = session.seats
        assert session.sitting_out is None
        assert sorted(seats) == sorted(names)
        if previous is not None:
            # "The player who was forehand in the finished deal therefore becomes rear-hand and dealer"
            assert seats[2] == previous[0]
            assert seats[0] == previous[1]
            assert seats[1] == previous[2]
        previous = seats
        play_current(session, k)
    assert session.deals[0].seats[0] == "Bertil"


def test_four_players_shuffle_in_cut_out() -> None:
    names = NAMES[:4]
    session, _ = Session.start(list(names), "Cecilia", seed=4)
    history: list[tuple[tuple[str, str, str], str]] = []
    for k in range(9):
        session.new_deal()
        seats, out = session.seats, session.sitting_out
        assert out is not None
        assert sorted([*seats, out]) == sorted(names)
        dealer = names.index(seats[2])
        # "With four players, the player to the right of the dealer sits out"; the dealer
        # gives the deck "to the player on his right for cutting": the cutter sits out.
        right_of_dealer = names[(dealer - 1) % 4]
        assert out == right_of_dealer
        # forehand sits to the dealer's left
        assert seats[0] == names[(dealer + 1) % 4]
        if history:
            prev_seats, prev_out = history[-1]
            assert seats[2] == prev_seats[0], "forehand becomes the next dealer"
            # "The player who shuffles is always the one who sat out the previous deal"
            # and with four players the shuffler sits opposite the dealer.
            opposite = names[(dealer + 2) % 4]
            assert opposite == prev_out
            assert out == prev_seats[2], "the previous dealer cuts and sits out"
        history.append((seats, out))
        play_current(session, k)
    outs = [out for _, out in history]
    for k in range(len(outs) - 3):
        assert sorted(outs[k : k + 4]) == sorted(names), "everyone sits out once every four deals"
    assert [(d.seats, d.sitting_out) for d in session.deals] == history


def test_new_deal_refused_while_a_deal_is_running() -> None:
    session, _ = Session.start(NAMES[:3], NAMES[0], 5)
    session.new_deal()
    with pytest.raises(IllegalAction):
        session.new_deal()
    play_current(session)
    session.new_deal()


def test_apply_without_a_deal_is_refused() -> None:
    from vira_desktop.rules.actions import Pass

    session, _ = Session.start(NAMES[:3], NAMES[0], 5)
    with pytest.raises(IllegalAction):
        session.apply(Pass(0))


# ---------------------------------------------------------------------- the two decks
@pytest.mark.parametrize("players", [3, 4])
def test_decks_chain_from_deal_to_deal(players: int) -> None:
    session, _ = Session.start(NAMES[:players], NAMES[0], seed=11)
    numbers = []
    deals = []
    for k in range(8):
        deal = session.new_deal()
        numbers.append(deal.number)
        deals.append(deal)
        play_current(session, k)
    assert [d.number for d in session.deals] == numbers
    for k in range(len(numbers) - 1):
        a, b = numbers[k], numbers[k + 1]
        assert a is not None and b is not None
        assert a & 0xFFFFFF == b >> 24, "the spare deck of one deal is the next deal's deck"
        spare, dealt = deal_number_decks(a)[1], deal_number_decks(b)[0]
        at = cut_point(b)
        assert dealt == spare[at:] + spare[:at], "... cut before it is dealt"
        assert MIN_CUT <= at <= 52 - MIN_CUT
        # the visible bottom card set the highest suit of deal k, and is not where all saw it
        assert deals[k].spare_bottom == spare[-1] and deals[k].highest is spare[-1].suit
        assert list(deals[k + 1].started().deck).index(spare[-1]) == 51 - at
    assert len(set(numbers)) == len(numbers)


def test_the_spare_decks_bottom_card_is_not_always_the_last_card_of_the_next_stock() -> None:
    """The fault the cut removes: every player saw a card that was sure to lie at the
    bottom of the next stock. With the cut it is anywhere from the 5th to the 48th card."""
    session, _ = Session.start(NAMES[:3], NAMES[0], seed=3)
    places = set()
    seen: Card | None = None  # the bottom card of the spare deck all saw in the deal before
    for k in range(40):
        deal = session.new_deal()
        if seen is not None:
            places.add(list(deal.started().deck).index(seen))
        seen = deal.spare_bottom
        play_current(session, k)
    assert len(places) > 20 and min(places) >= MIN_CUT - 1 and max(places) <= 51 - MIN_CUT


def test_a_given_deal_number_keeps_the_two_deck_chain() -> None:
    session, _ = Session.start(NAMES[:3], NAMES[0], seed=5)
    given = 0x123456_ABCDEF
    session.new_deal(given)
    play_current(session, 0)
    after = session.new_deal()
    assert after.number is not None and after.number >> 24 == given & 0xFFFFFF


def test_a_cut_leaves_at_least_four_cards_in_each_part() -> None:
    deck = [Card(i) for i in range(52)]
    assert cut(deck, 4)[:2] == [Card(4), Card(5)] and cut(deck, 48)[-1] == Card(47)
    for bad in (0, 3, 49, 52):
        with pytest.raises(ValueError, match="at least 4 cards"):
            cut(deck, bad)


def test_same_seed_same_session() -> None:
    def numbers(seed: int) -> list[int | None]:
        session, _ = Session.start(NAMES[:4], NAMES[1], seed=seed)
        out = []
        for k in range(4):
            out.append(session.new_deal().number)
            play_current(session, k)
        return out

    assert numbers(21) == numbers(21)
    assert numbers(21) != numbers(22)


def test_new_deal_with_a_given_number() -> None:
    session, _ = Session.start(NAMES[:3], NAMES[0], seed=1)
    deal = session.new_deal(123456789012345)
    assert deal.number == 123456789012345
    from vira_desktop.rules.deal import Deal

    again = Deal.from_number(123456789012345)
    assert deal.dealt == again.dealt and deal.initial_stock == again.initial_stock and deal.highest == again.highest


# ---------------------------------------------------------------------- joining
def test_fourth_player_joins_between_deals_and_bets_in() -> None:
    names = NAMES[:3]
    session, _ = Session.start(list(names), "Anna", seed=7)
    play_deals(session, 2)
    last = session.deals[-1].seats
    pulla = session.ledger.pulla_bets()
    others_before = {n: session.ledger.accounts[n] for n in names}
    session.join("David", after="Cecilia")
    assert session.players == ["Anna", "Bertil", "Cecilia", "David"]
    third, rest = divmod(pulla, 3)
    want = third + (1 if rest == 2 else 0)
    assert session.ledger.accounts["David"] == -8 * want - (3 if rest == 1 else 0)
    for n in names:
        assert session.ledger.accounts[n] == others_before[n] + (1 if rest == 1 else 0)
    assert session.ledger.pulla_bets() == pulla + want
    assert session.ledger.conserved()
    deal = session.new_deal()
    assert deal is session.deal
    assert session.seats[2] == last[0], "the deal still passes to the last forehand"
    assert session.sitting_out is not None
    dealer = session.players.index(session.seats[2])
    assert session.sitting_out == session.players[(dealer - 1) % 4]
    play_current(session, 99)
    assert session.ledger.conserved()


@pytest.mark.parametrize("after", NAMES[:3])
def test_join_keeps_the_dealer(after: str) -> None:
    session, _ = Session.start(NAMES[:3], "Bertil", seed=8)
    play_deals(session, 1)
    next_dealer = session.deals[-1].seats[0]
    session.join("David", after=after)
    assert session.players.index("David") == session.players.index(after) + 1
    session.new_deal()
    assert session.seats[2] == next_dealer
    assert "David" in (*session.seats, session.sitting_out)


def test_join_refused_during_a_deal_when_full_or_unknown() -> None:
    session, _ = Session.start(NAMES[:3], "Anna", seed=9)
    session.new_deal()
    with pytest.raises(IllegalAction):
        session.join("David", after="Anna")
    play_current(session)
    with pytest.raises(ValueError):
        session.join("David", after="Nobody")
    session.join("David", after="Anna")
    with pytest.raises(LedgerError):
        session.join("Erik", after="Anna")
    with pytest.raises(LedgerError):
        Session.start(NAMES[:3], "Anna", seed=9)[0].join("Anna", after="Bertil")


# ---------------------------------------------------------------------- Borup and settling
def test_borup_marks_the_last_deal_and_no_deal_follows_it() -> None:
    session, _ = Session.start(NAMES[:3], "Anna", seed=12)
    play_deals(session, 2)
    assert not session.borup and session.deals_left is None
    session.announce_borup()
    assert session.borup and session.deals_left == 1
    play_deals(session, 1, seed=5)
    assert [d.borup for d in session.deals] == [False, False, True]
    assert session.is_over and not session.borup
    with pytest.raises(IllegalAction, match="Borup was the last deal"):
        session.new_deal()  # it dealt on after Borup before
    session.settle()


def test_borup_announced_during_a_deal_is_the_next_deal() -> None:
    session, _ = Session.start(NAMES[:3], "Anna", seed=12)
    session.new_deal()
    session.announce_borup()
    assert session.deals_left == 2 and not session.borup
    play_current(session, 0)
    assert session.borup
    play_deals(session, 1, seed=5)
    assert [d.borup for d in session.deals] == [False, True] and session.is_over


@pytest.mark.parametrize("players", [3, 4])
def test_the_last_round_gives_each_player_forehand_once_more_and_ends_with_borup(players: int) -> None:
    session, _ = Session.start(NAMES[:players], NAMES[0], seed=14)
    play_deals(session, 2)
    session.announce_last_round()
    assert session.deals_left == players
    forehands = []
    while not session.is_over:
        session.new_deal()
        forehands.append(session.seats[0])
        play_current(session, len(forehands))
        assert session.deals_left == players - len(forehands)
    assert sorted(forehands) == sorted(NAMES[:players])
    assert [d.borup for d in session.deals] == [False] * (1 + players) + [True]
    with pytest.raises(IllegalAction):
        session.new_deal()
    with pytest.raises(IllegalAction, match="already over"):
        session.announce_borup()
    settlement, _ = session.settle()  # the settlement follows the last deal
    assert settlement is session.settlement


@pytest.mark.parametrize("players", [3, 4])
def test_settle_ends_the_session(players: int) -> None:
    session, _ = Session.start(NAMES[:players], NAMES[0], seed=13)
    play_deals(session, 5)
    session.new_deal()
    with pytest.raises(IllegalAction):
        session.settle()
    play_current(session, 50)
    bets = session.ledger.pulla_bets()
    settlement, _ = session.settle()
    assert settlement is session.settlement
    assert settlement.pulla_bets == bets
    assert sum(settlement.shares.values()) == 8 * bets
    assert sum(settlement.results.values()) == 0
    assert settlement.results == session.ledger.accounts
    assert session.ledger.pulla_bets() == 0 and session.ledger.conserved()
    with pytest.raises(IllegalAction):
        session.new_deal()


def test_settle_between_deals_without_any_deal() -> None:
    session, _ = Session.start(NAMES[:3], NAMES[0], seed=14)
    settlement, _ = session.settle()
    # three ålar, shared back: nobody won or lost
    assert settlement.results == {n: 0 for n in NAMES[:3]}
    assert session.ledger.conserved()


# ---------------------------------------------------------------------- session-level golden records
SESSION_RECORDS = sorted((Path(__file__).parent / "records" / "sessions").glob("*.yaml"))


@pytest.mark.parametrize("path", SESSION_RECORDS, ids=[p.stem for p in SESSION_RECORDS])
def test_session_golden_record(path: Path) -> None:
    """A deal record played at a session whose pulla holds ``pulla_before`` bets: the ledger's
    moves at the end of the deal, in order, the pulla after and the change in each account."""
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = load_record(path.parent.parent / spec["deal"])
    names = list(record.names)
    session, _ = Session.start(names, names[0], seed=1)
    ledger = session.ledger
    ledger.lift(names[0], ledger.pulla_bets() - spec["pulla_before"], "set up", names)
    assert ledger.pulla_bets() == spec["pulla_before"]
    session.dealer = names.index(record.names[2])
    before = dict(ledger.accounts)
    session.seat_deal(record.deal.clone())
    events = [ev for action in record_actions(record) for ev in session.apply(action)]
    moves: list[list[str]] = []
    for ev in events:
        if isinstance(ev, TokensMoved) and ev.reason != "change":
            move = [str(getattr(p, "value", p)) for p in (ev.source, ev.target)] + [ev.reason]
            if not moves or moves[-1] != move:
                moves.append(move)
    assert moves == spec["moves"]
    assert ledger.pulla_bets() == spec["pulla_after"]
    assert {n: ledger.accounts[n] - before[n] for n in names} == spec["accounts"]
    assert ledger.conserved()


def test_a_saved_game_keeps_its_pulla_table_overrides() -> None:
    from vira_desktop.rules.houserules import HouseRules
    from vira_desktop.session.table import SeatConfig, Table

    rules = HouseRules.from_changes({"pulla_table": {"gök": [2, 3, 5, None, None, None]}, "gok_reentry": True})
    table = Table([SeatConfig(n, False) for n in NAMES[:3]], seed=3, rules=rules)
    again = Table.from_json(table.to_json())
    assert again.rules.pulla.rows["gök"].bet == 3 and again.rules.gok_reentry
    assert again.rules.changed() == rules.changed()
