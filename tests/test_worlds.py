"""Worlds (ai/worlds.py): deals a seat cannot tell from its own, rebuilt at its decision."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator

from vira_desktop.ai.base import Choice
from vira_desktop.ai.normal import NormalBot
from vira_desktop.ai.worlds import playout, supported, world
from vira_desktop.rules.actions import Action, Bid, Decide
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.decision import Phase
from vira_desktop.rules.games import BID_GROUPS, GAMES, Game
from vira_desktop.rules.scoring import Outcome
from vira_desktop.rules.view import View
from vira_desktop.session.match import auction_won_by, forced_auction, play_deal


class Checking(NormalBot):
    """The normal bot, rebuilding a world at every decision worlds support and checking it."""

    def __init__(self, seed: int, seen: list[Phase], deals: list[Deal]) -> None:
        super().__init__(seed)
        self.seen = seen
        self.deals = deals

    def choose(self, view: View) -> Choice:
        if view.decision is not None and not view.decision.optional and supported(view):
            rng = random.Random(len(self.seen))
            w = world(view, rng)
            assert w is not None, (view.phase, view.game)
            again = w.view(view.seat)
            for f in dataclasses.fields(View):
                if f.name != "rules":
                    assert getattr(again, f.name) == getattr(view, f.name), (f.name, view.phase, view.game)
            # the hidden cards are dealt anew: the others' hands differ from the live deal's in some world
            self.deals.append(w)
            self.seen.append(view.phase)
        return super().choose(view)


def test_a_world_shows_the_seat_exactly_its_own_view_at_every_decision_before_play() -> None:
    seen: list[Phase] = []
    deals: list[Deal] = []
    for i, g in enumerate(GAMES * 2):
        deal = Deal.from_number(1000 + i)
        for action in forced_auction(deal, g, random.Random(i)):
            deal.apply(action)
        bots = [Checking(10 * i + s, seen, deals) for s in range(3)]
        play_deal(deal, bots)
    for i, (group, (_, chooses)) in enumerate(BID_GROUPS.items()):  # a level chosen after the auction
        if chooses:
            deal = Deal.from_number(3000 + i)
            for action in auction_won_by(Bid(i % 3, None, group, 0)):
                deal.apply(action)
            play_deal(deal, [Checking(3 * i + s, seen, deals) for s in range(3)])
    for i in range(40):  # and auctions as bots bid them
        bots = [Checking(7 * i + s, seen, deals) for s in range(3)]
        play_deal(Deal.from_number(5000 + i), bots)
    phases = set(seen)
    assert phases >= {Phase.AUCTION, Phase.LEVEL, Phase.KEEP, Phase.DISCARD, Phase.HIGH_LOW, Phase.TRUMP,
                      Phase.TURN, Phase.BUY, Phase.DECIDE, Phase.SET_ASIDE, Phase.OPPONENT_BUY}, phases


def test_what_a_deal_would_pay_is_what_it_pays() -> None:
    """``Deal.settled`` with the tricks a deal ended with is the deal's own result."""
    for i in range(30):
        deal = Deal.from_number(8000 + i)
        play_deal(deal, [NormalBot(i + s) for s in range(3)])
        assert deal.result is not None
        assert deal.settled(deal.result.tricks) == deal.result


def _declarers_worlds(
    start: int, game: Callable[[int], Game], policy: list[NormalBot], phase: Phase | None = None
) -> Iterator[tuple[Deal, int, Action]]:
    """Of 60 deals from ``start``, deal ``i`` in the contract ``game(i)``, at the declarer's
    first choice after the auction (in ``phase`` alone, if given): a world there, his seat and
    the policy's choice."""
    for i in range(60):
        deal = Deal.from_number(start + i)
        for action in forced_auction(deal, game(i), random.Random(i)):
            deal.apply(action)
        seat = deal.declarer
        assert seat is not None
        view = deal.view(seat)
        if not supported(view) or deal.phase is Phase.AUCTION or phase not in (None, deal.phase):
            continue
        w = world(view, random.Random(i))
        assert w is not None
        chosen = policy[seat].choose(view).action
        assert chosen is not None
        yield w, seat, chosen


def test_a_world_played_out_lays_down_where_laying_down_pays_better() -> None:
    """A candidate is valued as the declarer would best do in the world: never below laying
    the hand down after the same steps."""
    policy = [NormalBot(s) for s in range(3)]
    checked = 0
    begar_7_gask_turne = lambda i: GAMES[i % 4 * 2]  # noqa: E731 - begär, 7-spel, gask 0, turné 7
    for w, seat, chosen in _declarers_worlds(9000, begar_7_gask_turne, policy, Phase.TRUMP):
        got = playout(w, seat, chosen, policy)
        assert got is not None and got.declarer
        laid = w.clone()
        laid.apply(chosen)
        while laid.phase is not Phase.DECIDE:
            laid.apply(policy[laid.to_act].choose(laid.view(laid.to_act)).action)  # type: ignore[arg-type]
        laid.apply(Decide(seat, False))
        assert laid.result is not None
        assert got.bets >= laid.result.net_pins(seat) / 8
        checked += 1
    assert checked >= 20


def test_the_others_hands_are_drawn_to_fit_their_bids_and_passes() -> None:
    """A seat that passed is drawn weaker, one that bid a trump game stronger: by its own best
    count of trump tricks, the weights of one hand and another, and the worlds drawn."""
    from vira_desktop.ai.evaluate import trump_tricks_mask
    from vira_desktop.ai.sampling import auction_weight
    from vira_desktop.rules.actions import Pass
    from vira_desktop.rules.cards import Card, mask_of
    from vira_desktop.rules.games import game

    def cards(text: str) -> int:
        return mask_of(Card.parse(c) for c in text.split())

    strong = cards("AS KS QS JS TS 9S AH KH AD KD AC KC QC")
    weak = cards("2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C")
    deal = Deal.from_number(1)  # the weights read the bids alone, whatever cards the seat holds
    deal.apply(Bid(0, game("7-spel"), None, 0))
    deal.apply(Pass(1))
    view = deal.view(2)
    assert auction_weight(view, 1, strong) < 0.3 < 0.9 < auction_weight(view, 1, weak)
    assert auction_weight(view, 0, strong) > 0.9 > 0.3 > auction_weight(view, 0, weak)
    assert auction_weight(view, 2, weak) == 1.0  # nothing said yet

    def best(hand: int) -> float:
        return max(trump_tricks_mask(hand, t) for t in range(4))

    drawn = [world(view, random.Random(i)) for i in range(60)]
    bidder = sum(best(w.hands[0]) for w in drawn if w) / 60
    passer = sum(best(w.hands[1]) for w in drawn if w) / 60
    assert bidder > passer + 1.0


def test_the_outcomes_as_played_are_chances_that_fall_as_the_hand_falls_short() -> None:
    from vira_desktop.ai.worlds import AS_PLAYED

    for chances in AS_PLAYED.values():
        assert abs(sum(chances) - 1) < 1e-9 and min(chances) >= 0
    for low, overs in ((False, range(1, -4, -1)), (True, range(0, -2, -1))):
        homes = [AS_PLAYED[(low, over)][0] for over in overs]
        kodiljs = [AS_PLAYED[(low, over)][2] for over in overs]
        assert homes == sorted(homes, reverse=True) and kodiljs == sorted(kodiljs)


def test_a_world_valued_as_played_mixes_the_outcomes_its_double_dummy_tricks_lead_to() -> None:
    """As played, a world home double dummy is home in most but not all plays, and pays a
    little less; one short of it is home in some, and pays more."""
    from vira_desktop.ai.worlds import AS_PLAYED

    policy = [NormalBot(s) for s in range(3)]
    home_dd = {AS_PLAYED[k][0] for k in AS_PLAYED if k[1] >= 0}
    short_dd = {AS_PLAYED[k][0] for k in AS_PLAYED if k[1] < 0}
    seen = {True: 0, False: 0}
    for w, seat, chosen in _declarers_worlds(9500, lambda i: GAMES[i % 8 * 3], policy):
        dd = playout(w, seat, chosen, policy)
        played = playout(w, seat, chosen, policy, as_played=True)
        assert dd is not None and played is not None
        if dd.home in (0.0, 1.0) and played.home in (0.0, 1.0):  # laid down: the same either way
            assert played == dd
            continue
        assert played.home in (home_dd if dd.home == 1.0 else short_dd)
        assert played.bets < dd.bets if dd.home == 1.0 else played.bets > dd.bets
        seen[dd.home == 1.0] += 1
    assert seen[True] >= 5 and seen[False] >= 5, seen


def test_a_world_rolled_out_is_played_to_its_end_by_the_policy_on_what_each_seat_sees() -> None:
    """``rollout``: no double dummy, the policy plays every card on its own view; from the
    first lead, what the world pays is what the deal, played on by the same bots, pays."""
    checked = 0
    for w, _, _ in _declarers_worlds(9700, lambda i: GAMES[i % 8 * 3], [NormalBot(s) for s in range(3)]):
        policy = [NormalBot(s) for s in range(3)]
        while w.phase not in (Phase.PLAY, Phase.DONE):  # on to the first lead (played, not laid down)
            asked = policy[w.to_act].choose(w.view(w.to_act)).action
            w.apply(Decide(w.to_act, True) if w.phase is Phase.DECIDE else asked)  # type: ignore[arg-type]
        if w.phase is not Phase.PLAY:
            continue
        leader = w.to_act
        lead = policy[leader].choose(w.view(leader)).action
        assert lead is not None
        got = playout(w, leader, lead, [NormalBot(s) for s in range(3)], rollout=True)
        own = w.clone()
        own.apply(lead)
        while own.phase is Phase.PLAY:
            own.apply(policy[own.to_act].choose(own.view(own.to_act)).action)  # type: ignore[arg-type]
        assert own.result is not None and got is not None
        assert got.bets == own.result.net_pins(leader) / 8 and got.home == float(own.result.outcome is Outcome.HOME)
        checked += 1
    assert checked >= 20
