"""Card play by whist principles, for declarer and defenders, high and misère.

Each function takes the legal cards and the seat's :class:`Knowledge` and
returns a card with a one-line reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.cards import SUIT_MASKS, Card, Rank, Suit
from ..rules.seat import Seat
from ..rules.tricks import trick_winner
from ..rules.view import View
from .base import Reason
from .knowledge import Knowledge, Marking, discards, marked_suits, read_markings

__all__ = ["choose_card", "rank_value", "rounds_to_force"]


def rank_value(card: Card, aces_low: bool) -> int:
    """A card's rank in a trick: 2..14, the ace 1 when four aces were announced as ones."""
    return 1 if aces_low and card.rank == 14 else int(card.rank)


def _beats(card: Card, current: Card, trump: Suit | None, led: Suit, aces_low: bool) -> bool:
    if card.suit is current.suit:
        return rank_value(card, aces_low) > rank_value(current, aces_low)
    return trump is not None and card.suit is trump


def choose_card(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    if view.low:
        chosen = _misere_declarer(legal, k) if view.seat == view.declarer else _misere_defender(legal, k)
    else:
        chosen = _declarer(legal, k) if view.seat == view.declarer else _defender(legal, k)
    return chosen[0], said_as_played(chosen[0], chosen[1], k)


# Reasons that call the card low, or say it does not overtake: their words must fit the card.
LOW_FOLLOWS = ("follow_low",)
LOW_LEADS = ("lead_low", "lead_low_longest", "lead_low_trump", "give_up_weakest", "trump_not_into_ruff")
MARKED_LOW_LEADS = ("lead_avoid_marked_weak", "give_up_not_marked")  # the Ågren markings' lead hooks


def said_as_played(card: Card, reason: Reason, k: Knowledge) -> Reason:
    """``reason`` in words that fit ``card``: a card that takes the trick is never called low
    nor "no need to overtake"; a king or an ace, or a lone honour, is never "a low card"."""
    view = k.view
    if view.trick and reason.key in (*LOW_FOLLOWS, "partner_wins"):
        seat, _ = trick_winner((*view.trick, (view.seat, card)), view.trump)
        if seat == view.seat:
            if reason.key == "partner_wins":
                return Reason("overtake_forced", "every card I may play beats partner's: overtaking perforce")
            return Reason("follow_lowest_wins", "following with my lowest card, which takes the trick")
    if not view.trick and reason.key in (*LOW_LEADS, *MARKED_LOW_LEADS):
        suit = [c for c in view.hand if c.suit is card.suit]
        if len(suit) == 1 and card.rank >= Rank.JACK:
            return Reason("lead_lone_honour", "leading my only card of the suit")
        if card.rank >= Rank.KING:
            return Reason("lead_lowest_high", "leading the lowest card of the suit, though a high one")
    return reason


def _low(cards: Sequence[Card], aces_low: bool = False) -> Card:
    return min(cards, key=lambda c: (rank_value(c, aces_low), c))


def _high(cards: Sequence[Card], aces_low: bool = False) -> Card:
    return max(cards, key=lambda c: (rank_value(c, aces_low), c))


def _cheapest_winner(
    legal: Sequence[Card], current: Card, trump: Suit | None, led: Suit, aces_low: bool
) -> Card | None:
    winners = [c for c in legal if _beats(c, current, trump, led, aces_low)]
    if not winners:
        return None
    follow = [c for c in winners if c.suit is led]
    return _low(follow or winners)


def _discard(legal: Sequence[Card], k: Knowledge) -> Card:
    """Throw the least useful card: never a master while another card will do, low, from a
    suit without masters, never a trump if avoidable."""
    trump = k.view.trump
    side = [c for c in legal if c.suit is not trump] or list(legal)

    def value(c: Card) -> tuple[bool, int, int, int]:
        masters = sum(1 for x in side if x.suit is c.suit and k.is_master(x))
        return (k.is_master(c), masters, int(c.rank), c)

    return min(side, key=value)


# ---------------------------------------------------------------------- trump games
def _defenders(view: View) -> tuple[int, int]:
    return (view.declarer or Seat.FOREHAND).others()


def _may_hold(k: Knowledge, seat: int, suit: Suit) -> bool:
    """Whether ``seat`` may still hold a card of ``suit`` (not shown void, some outstanding)."""
    return suit not in k.voids.get(seat, set()) and k.outside_in_suit(suit) > 0


def _expected_out(k: Knowledge, suit: Suit) -> float:
    """Cards of ``suit`` the defenders are expected to hold (the rest of the unseen ones
    lie in the stock or among the discards)."""
    view = k.view
    live = [s for s in _defenders(view) if _may_hold(k, s, suit)]
    if not live:
        return 0.0
    in_hands = sum(view.hand_sizes[s] for s in _defenders(view)) - sum(1 for s, _ in view.trick if s != view.seat)
    unseen = bin(k.outside(view.seat)).count("1")
    share = min(1.0, in_hands / unseen) if unseen else 1.0
    return k.outside_in_suit(suit) * share


def _above_outside(k: Knowledge, card: Card) -> int:
    above = SUIT_MASKS[card.suit] & ~((2 << card) - 1)
    return bin(above & k.outside(k.view.seat)).count("1")


def _knock_out(cards: Sequence[Card], k: Knowledge) -> Card | None:
    """The top of a sequence that only one outstanding card beats (K-Q against the ace)."""
    top = _high(cards)
    if _above_outside(k, top) != 1:
        return None
    below = [c for c in cards if c != top]
    if not below:
        return None
    nxt = _high(below)
    gap = SUIT_MASKS[top.suit] & ~((2 << nxt) - 1) & ((1 << top) - 1)
    return top if not gap & k.outside(k.view.seat) else None


def _declarer(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    if k.view.trick:
        return _follow_high(legal, k, partner=None)
    return _declarer_lead(legal, k)


def _declarer_lead(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    trump = view.trump
    defs = _defenders(view)
    trumps = [c for c in legal if c.suit is trump]
    live = trump is not None and any(_may_hold(k, s, trump) for s in defs)
    out_trumps = _expected_out(k, trump) if live and trump is not None else 0.0
    side = [c for c in legal if c.suit is not trump]

    def ruffable(suit: Suit) -> bool:
        return live and any(suit in k.voids.get(s, set()) and _may_hold(k, s, trump) for s in defs) if trump else False

    if trumps and live:
        top = _high(trumps)
        if k.is_master(top):
            return top, Reason("draw_master", "drawing trumps with the master trump")
        knock = _knock_out(trumps, k)
        if knock is not None and len(trumps) >= 3:
            return knock, Reason("draw_sequence", "drawing trumps: the top of a sequence forces out their high trump")
        if len(trumps) >= 3 and len(trumps) > out_trumps + 0.5:
            # From the top: a low trump would lose to any of theirs and leave their high ones out.
            return top, Reason("draw_from_top", "drawing trumps from the top to force out their higher trumps")
    masters = [c for c in side if k.is_master(c) and not ruffable(c.suit)]
    if masters:
        # Cash where the defenders have most cards left to follow with.
        best = max(masters, key=lambda c: (k.outside_in_suit(c.suit), c.rank, c))
        return best, Reason("cash_winner", "cashing a sure winner")
    safe = [c for c in side if not ruffable(c.suit)]
    if safe:
        knocks = []
        for s in Suit:
            mine = [c for c in safe if c.suit is s]
            if mine:
                knock = _knock_out(mine, k)
                if knock is not None:
                    knocks.append(knock)
        if knocks:
            best = max(knocks, key=lambda c: (sum(1 for x in safe if x.suit is c.suit), c.rank, c))
            return best, Reason("set_up_suit", "setting up a suit: the top of a sequence forces out their high card")
        spare = len(trumps) > out_trumps + 0.5
        ruff_soon = spare and bool(trumps)
        strong = marked_suits(view).strong  # suits a defender marked strong: he holds their top cards

        def cost(s: Suit) -> tuple[float, int, int]:
            mine = [c for c in safe if c.suit is s]
            top = _high(mine)
            # An honour that is not yet master is worth keeping for when they lead the suit.
            keep = 1.0 if top.rank >= 11 and _above_outside(k, top) <= len(mine) - 1 else 0.0
            length = len(mine)
            if ruff_soon:  # a short suit soon lets me ruff; in their strong suit a loser is lost anyway
                return (keep, length, int(s not in strong))
            return (keep, int(s in strong), -length)  # else set up length, not where they have shown strength

        suits = [s for s in Suit if any(c.suit is s for c in safe)]
        suit = min(suits, key=lambda s: (*cost(s), int(s)))
        card = _low([c for c in safe if c.suit is suit])
        if not ruff_soon and strong & set(suits) and suit not in strong:
            return card, Reason("give_up_not_marked", "giving up a trick, not in a suit the defenders marked strong")
        return card, Reason("give_up_weakest", "giving up a trick in my weakest side suit")
    if side:
        if trumps:
            if k.is_master(_high(trumps)):
                return _high(trumps), Reason("draw_before_ruff", "drawing trumps before they can ruff")
            return _low(trumps), Reason("trump_not_into_ruff", "leading trump rather than into a ruff")
        return _low(side), Reason("lead_low", "leading a low card")
    return (_high(trumps) if k.is_master(_high(trumps)) else _low(trumps)), Reason("lead_trump", "leading trump")


def _follow_high(legal: Sequence[Card], k: Knowledge, partner: int | None) -> tuple[Card, Reason]:
    view = k.view
    trump = view.trump
    led = view.trick[0][1].suit
    win_seat, win_card = trick_winner(view.trick, trump)
    last = len(view.trick) == 2
    if partner is not None and win_seat == partner:
        partner_safe = (
            last
            or k.is_master(win_card, view.seat)
            or (trump is not None and win_card.suit is trump and led is not trump)
        )
        if partner_safe:
            card = (
                _low([c for c in legal if c.suit is led] or list(legal)) if legal[0].suit is led else _discard(legal, k)
            )
            return card, Reason("partner_wins", "partner's card wins: no need to overtake")
    winner = _cheapest_winner(legal, win_card, trump, led, False)
    following = legal[0].suit is led
    if winner is not None:
        if last:
            return winner, Reason("win_cheaply", "winning the trick as cheaply as possible")
        if winner.suit is led and k.is_master(winner):
            return winner, Reason("win_sure", "taking the trick with a sure winner")
        if winner.suit is trump and not following:
            return winner, Reason("ruff", "ruffing")
        if not following:
            return winner, Reason("ruff", "ruffing")
    if following:
        return _low(legal), Reason("follow_low", "following low")
    return _discard(legal, k), Reason("discard_least_useful", "discarding the least useful card")


def _defender(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    partner = 3 - view.seat - (view.declarer or 0)
    trump = view.trump
    if not view.trick:
        declarer = view.declarer or 0
        ruffs = trump is not None and _may_hold(k, declarer, trump)
        into_ruff = k.voids.get(declarer, set()) if ruffs else set()
        masters = [c for c in legal if c.suit is not trump and k.is_master(c) and c.suit not in into_ruff]
        if masters:
            return _high(masters), Reason("cash_winner", "cashing a sure winner")
        trumps = [c for c in legal if c.suit is trump]
        if trumps and all(c.suit in into_ruff for c in legal if c.suit is not trump):
            top = _high(trumps)
            if k.is_master(top):
                return top, Reason(
                    "draw_declarers_trump", "drawing the declarer's trump: he would ruff any side suit I lead"
                )
            return _low(trumps), Reason("trump_declarer_ruffs", "leading trump: he would ruff any side suit I lead")
        for mark in read_markings(view):
            if mark.seat == partner and mark.strong:
                suited = [c for c in legal if c.suit in mark.suits and c.suit is not trump and c.suit not in into_ruff]
                if suited:
                    return _high(suited), Reason(
                        "lead_marked_suit", f"leading partner's marked suit ({mark.describe()})", mark=mark
                    )
        side = [c for c in legal if c.suit is not trump]
        side = [c for c in side if c.suit not in into_ruff] or side
        side, weak = _not_marked_weak(side, view, partner)
        if side:
            # Top of a sequence, else low from the longest side suit (not where he ruffs).
            for c in sorted(side, key=lambda c: -c.rank):
                nxt = Card.of(Rank(c.rank - 1), c.suit) if c.rank > 2 else None
                if c.rank >= 11 and nxt is not None and nxt in legal:
                    return c, Reason("lead_top_sequence", "leading the top of a sequence")
            longest = max(Suit, key=lambda s: (sum(1 for c in side if c.suit is s), -int(s)))
            if weak is not None:
                said = f"leading low, not in partner's marked suit ({weak.describe()})"
                return _low([c for c in side if c.suit is longest]), Reason("lead_avoid_marked_weak", said, mark=weak)
            return _low([c for c in side if c.suit is longest]), Reason(
                "lead_low_longest", "leading low from the longest side suit"
            )
        return _low(legal), Reason("lead_low_trump", "leading a low trump")
    led = view.trick[0][1].suit
    discarding = trump is not None and legal[0].suit is not led and len(discards(view)[view.seat]) < 2
    if discarding and not _should_ruff(legal, k, partner):
        marking = _marking_discard(legal, k)
        if marking is not None:
            return marking
    return _follow_high(legal, k, partner)


def _not_marked_weak(side: list[Card], view: View, partner: int) -> tuple[list[Card], Marking | None]:
    """``side`` without the suits partner marked weak (and not strong), when that leaves a card;
    with partner's weakness marking when it took a suit out of the choice I would make."""
    marked = marked_suits(view, (partner,))
    avoid = marked.weak - marked.strong
    kept = [c for c in side if c.suit not in avoid]
    if not kept or len(kept) == len(side):
        return side, None
    mark = next(m for m in read_markings(view) if m.seat == partner and not m.strong)
    return kept, mark


def _should_ruff(legal: Sequence[Card], k: Knowledge, partner: int) -> bool:
    """A void defender ruffs when the trick is not already partner's and a trump can win it."""
    view = k.view
    trump = view.trump
    led = view.trick[0][1].suit
    win_seat, win_card = trick_winner(view.trick, trump)
    if win_seat == partner and (len(view.trick) == 2 or k.is_master(win_card, view.seat)):
        return False
    winner = _cheapest_winner(legal, win_card, trump, led, False)
    return winner is not None and winner.suit is trump


def _spend(card: Card) -> int:
    """What throwing ``card`` gives up: its rank, and more for an honour (it may yet take a trick)."""
    return int(card.rank) + (6 if card.rank >= Rank.JACK else 0)


def _marking_pairs(side: Sequence[Card], k: Knowledge, first: Card | None) -> list[tuple[Card, Card, bool]]:
    """Truthful Ågren pairs (first, second, strong): strength only in suits worth leading to me
    (``Knowledge.strength``) with cards that are no part of that strength, weakness only in
    weak suits; never a master. With ``first`` given (already discarded), its completions."""
    strength = {s: k.strength(s) for s in Suit}

    def spare(c: Card) -> bool:
        return not k.is_master(c) and c not in strength[c.suit]

    pairs = []
    for f in [first] if first is not None else side:
        if first is None and not spare(f):
            continue
        strong = bool(strength[f.suit])
        for g in side:
            if g == f or not spare(g) or bool(strength[g.suit]) is not strong:
                continue
            if (f.rank > g.rank) is strong:
                pairs.append((f, g, strong))
    return pairs


def _in_sequence(card: Card, k: Knowledge) -> bool:
    """My next higher card of the suit touches ``card`` (nothing between them is out)."""
    higher = [c for c in k.view.hand if c.suit is card.suit and c.rank > card.rank]
    if not higher:
        return False
    between = SUIT_MASKS[card.suit] & ((1 << min(higher)) - 1) & ~((2 << card) - 1)
    return not between & k.outside(k.view.seat)


def _marking_discard(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason] | None:
    """Ågren marking: every one of a defender's first two discards is read as a marking, so
    both are chosen as one that is true. High then low in suits worth leading to me (masters
    or an honour sequence), else low then high in weak suits, the second card as cheap as
    the marking allows; never with a master. None when no side card can be spared or the
    card is my last."""
    view = k.view
    side = [c for c in legal if c.suit is not view.trump and not k.is_master(c)]
    if not side or len(view.hand) == 1:
        return None  # forced: partner does not read a master nor a last card as a marking
    done = discards(view)[view.seat]
    pairs = _marking_pairs(side, k, done[0] if done else None)
    if not pairs:
        if not done:
            return _discard(legal, k), Reason(
                "agren_none", "no true Ågren marking possible: discarding the least useful card"
            )

        def false(g: Card) -> tuple[int, int]:  # suits the pair would misstate, then what g gives up
            strong = done[0].rank > g.rank
            return sum(1 for s in {done[0].suit, g.suit} if bool(k.strength(s)) is not strong), _spend(g)

        return min(side, key=lambda g: (*false(g), int(g))), Reason(
            "agren_least_false", "no true Ågren marking possible: the discard that misstates least"
        )

    def key(p: tuple[Card, Card, bool]) -> tuple[int, ...]:
        f, g, strong = p
        two = f.suit is not g.suit
        if done:  # complete with the cheapest card the marking allows
            return (g.rank >= Rank.JACK, _spend(g), two, int(g))
        honours = (f.rank >= Rank.JACK) + (g.rank >= Rank.JACK)
        # Strength: a high spare card first, so the low one to follow is plain, but not one that
        # lengthens the sequence; weakness: the two cheapest.
        if strong:
            return (honours, False, two, _in_sequence(f, k) + _in_sequence(g, k), _spend(g) - int(f.rank), f, g)
        return (honours, True, two, 0, _spend(f) + _spend(g), int(f), int(g))

    f, g, strong = min(pairs, key=key)
    mark = Marking(view.seat, tuple(dict.fromkeys((f.suit, g.suit))), strong)
    if done:
        return g, Reason("agren_complete", f"Ågren marking, second discard: showing {mark.describe()}", mark=mark)
    return f, Reason("agren_first", f"Ågren marking, first discard: showing {mark.describe()}", mark=mark)


# ---------------------------------------------------------------------- misère
def _misere_declarer(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    al = view.aces_low
    if not view.trick:
        # Lead the card the others can most surely go over: fewest cards below it outside.
        def risk(c: Card) -> tuple[int, int, int]:
            return (k.lower_outside(c) if not al else _lower_al(c, k), -k.outside_in_suit(c.suit), rank_value(c, al))

        return min(legal, key=risk), Reason("lead_others_go_over", "leading the card the others must go over")
    led = view.trick[0][1].suit
    _, win_card = trick_winner(view.trick, None, al)
    following = legal[0].suit is led
    if following:
        under = [c for c in legal if rank_value(c, al) < rank_value(win_card, al)]
        if under:
            return _high(under, al), Reason("duck_highest", "ducking with the highest card that still loses")
        return _high(legal, al), Reason("cannot_duck", "cannot duck: getting rid of the highest card")
    danger = sorted(legal, key=lambda c: (-rank_value(c, al), k.lower_outside(c)))
    return danger[0], Reason("discard_dangerous", "discarding the most dangerous card")


def _lower_al(card: Card, k: Knowledge) -> int:
    if card.rank == 14:
        return 0
    below = SUIT_MASKS[card.suit] & ((1 << card) - 1)
    ace = 1 << Card.of(Rank.ACE, card.suit)
    return bin(below & k.outside(k.view.seat)).count("1") + (1 if ace & k.outside(k.view.seat) else 0)


def rounds_to_force(mine: Sequence[int], his: Sequence[int]) -> int | None:
    """Rounds of leading my lowest card of a suit before the declarer, ducking each time with
    his highest card below it, has none below (None: he never has to win the trick).

    >>> rounds_to_force([5, 6], [2, 9])  # 5 (he ducks with 2), then 6: his 9 wins
    2
    >>> rounds_to_force([5, 6], [2, 3]) is None
    True
    """
    left = sorted(his)
    for n, lead in enumerate(sorted(mine), 1):
        if not left:
            return None
        under = [h for h in left if h < lead]
        if not under:
            return n
        left.remove(under[-1])
    return None


def _misere_defender(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    declarer = view.declarer or 0
    al = view.aces_low
    dec_cards = view.open_hands.get(declarer)
    if not view.trick:
        if dec_cards:
            # Lead in the suit where leading low soonest leaves the declarer nothing to duck with.
            lines = []
            for suit in {c.suit for c in legal}:
                mine = [c for c in legal if c.suit is suit]
                rounds = rounds_to_force(
                    [rank_value(c, al) for c in mine], [rank_value(d, al) for d in dec_cards if d.suit is suit]
                )
                if rounds is not None:
                    lines.append((rounds, _low(mine, al)))
            if lines:
                rounds, card = min(lines, key=lambda x: (x[0], rank_value(x[1], al), x[1]))
                if rounds == 1:
                    return card, Reason("lead_under_declarer", "leading under the declarer's lowest card")
                return card, Reason(
                    "lead_low_runs_out",
                    f"leading low where the declarer runs out of low cards in {rounds} rounds",
                    rounds=rounds,
                )
        void = k.voids.get(declarer, set())
        options = [c for c in legal if c.suit not in void] or list(legal)
        return _low(options, al), Reason("lead_low_go_over", "leading low for the declarer to go over")
    led = view.trick[0][1].suit
    dec_played = any(s == declarer for s, _ in view.trick)
    following = legal[0].suit is led
    if dec_played:
        win_seat, win_card = trick_winner(view.trick, None, al)
        if win_seat == declarer:
            under = [c for c in legal if not (c.suit is led and rank_value(c, al) > rank_value(win_card, al))]
            if under:
                return _high(under, al), Reason("let_declarer_keep", "letting the declarer keep the trick")
        return (
            (_high(legal, al), Reason("ducked_throw_high", "the declarer ducked: throwing a high card"))
            if not following
            else (
                _high(legal, al),
                Reason("ducked_keep_low", "the declarer ducked: keeping low cards for later"),
            )
        )
    if following:
        return _low(legal, al), Reason("play_low_no_duck", "playing low so the declarer cannot duck")
    return _high(legal, al), Reason("discard_high_keep_low", "discarding a high card, keeping the low ones")
