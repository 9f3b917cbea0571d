"""Card play by whist principles, for declarer and defenders, high and misère.

Each function takes the legal cards and the seat's :class:`Knowledge` and
returns a card with a one-line reason.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from ..rules.cards import SUIT_MASKS, Card, Rank, Suit
from ..rules.seat import Seat
from ..rules.tricks import trick_winner
from ..rules.view import View
from .base import Reason
from .knowledge import Knowledge, Marking, discards, marked_suits, read_markings

__all__ = ["choose_card", "expected_held", "rank_value", "rounds_to_force", "void_chance"]

DECLARER_TRUMPS = 5  # a trump declarer's trumps when the play starts, typically
SHORT_TRUMPS = 2.5  # the declarer's expected trumps at most which a defender leads trump to stop his ruffs
LIKELY_VOID = 0.5  # the chance the next player is void in the suit led that makes me ruff high, spare or not
OVERRUFF_RISK = 0.15  # the same chance that makes me ruff high with trumps to spare


def rank_value(card: Card, aces_low: bool) -> int:
    """A card's rank in a trick: 2..14, the ace 1 when four aces were announced as ones."""
    return 1 if aces_low and card.rank == 14 else int(card.rank)


def _beats(card: Card, current: Card, trump: Suit | None, led: Suit, aces_low: bool) -> bool:
    if card.suit is current.suit:
        return rank_value(card, aces_low) > rank_value(current, aces_low)
    return trump is not None and card.suit is trump


def choose_card(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    if len(legal) == 1:  # no choice: said so (a newcomer's hint called a forced card "ducking")
        return legal[0], Reason("only_card", "the only card that may be played")
    if view.low:
        chosen = _misere_declarer(legal, k) if view.seat == view.declarer else _misere_defender(legal, k)
    else:
        chosen = _declarer(legal, k) if view.seat == view.declarer else _defender(legal, k)
    return chosen[0], said_as_played(chosen[0], chosen[1], k)


# Reasons that call the card low, or say it does not overtake: their words must fit the card.
LOW_FOLLOWS = ("follow_low",)
# "no need to overtake": never on a card that does (partner's card wins as the trick's last card;
# with a player still to play, it is the highest still out, or a ruff)
PARTNER_WINS = (
    "partner_wins",
    "partner_wins_discard",
    "partner_master",
    "partner_master_discard",
    "partner_master_trump",
    "partner_master_trump_discard",
    "partner_ruffed",
    "partner_ruffed_discard",
)
LOW_LEADS = (
    "lead_low",
    "lead_low_longest",
    "lead_not_from_honour",
    "lead_low_trump",
    "give_up_weakest",
    "trump_not_into_ruff",
)
MARKED_LOW_LEADS = ("lead_avoid_marked_weak", "give_up_not_marked")  # the Ågren markings' lead hooks


def said_as_played(card: Card, reason: Reason, k: Knowledge) -> Reason:
    """``reason`` in words that fit ``card``: a card that takes the trick is never called low
    nor "no need to overtake" (and while a player is still to play it only wins the trick so
    far); a king or an ace, or a lone honour, is never "a low card"."""
    view = k.view
    if view.trick and reason.key in (*LOW_FOLLOWS, *PARTNER_WINS):
        seat, _ = trick_winner((*view.trick, (view.seat, card)), view.trump)
        if seat == view.seat:
            if reason.key in PARTNER_WINS:
                said = "every card that may be played beats partner's: overtaking, as there is no choice"
                return Reason("overtake_forced", said)
            if len(view.trick) < 2:  # a player is still to play to the trick: it may yet be taken from me
                return Reason("follow_lowest_leads", "following with the lowest card held, which wins the trick so far")
            return Reason("follow_lowest_wins", "following with the lowest card held, which takes the trick")
    if not view.trick and reason.key in (*LOW_LEADS, *MARKED_LOW_LEADS):
        suit = [c for c in view.hand if c.suit is card.suit]
        if len(suit) == 1 and card.rank >= Rank.JACK:
            return Reason("lead_lone_honour", "leading the only card held in the suit")
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


def _hidden_holders(k: Knowledge, seat: int, suit: Suit) -> tuple[int, int, int]:
    """For a hidden hand: its size, the unseen cards of ``suit``, and the unseen cards it
    draws from (the unseen ones less the hands of others shown void in the suit)."""
    view = k.view
    size = view.hand_sizes[seat]
    n = bin(SUIT_MASKS[suit] & k.unseen).count("1")
    pool = bin(k.unseen).count("1")
    for other in range(3):
        if other not in (seat, view.seat) and other not in view.open_hands and suit in k.voids.get(other, set()):
            pool -= view.hand_sizes[other]
    return size, n, max(pool, size)


def void_chance(k: Knowledge, seat: int, suit: Suit) -> float:
    """The chance that ``seat`` holds no card of ``suit``, from what this seat has seen."""
    if seat in k.view.open_hands:
        return float(not any(c.suit is suit for c in k.view.open_hands[seat]))
    if suit in k.voids.get(seat, set()):
        return 1.0
    size, n, pool = _hidden_holders(k, seat, suit)
    return math.comb(pool - n, size) / math.comb(pool, size) if pool >= n else 0.0


def expected_held(k: Knowledge, seat: int, suit: Suit) -> float:
    """How many cards of ``suit`` ``seat`` is expected to hold, from what this seat has seen."""
    if seat in k.view.open_hands:
        return float(sum(1 for c in k.view.open_hands[seat] if c.suit is suit))
    if suit in k.voids.get(seat, set()):
        return 0.0
    size, n, pool = _hidden_holders(k, seat, suit)
    return n * size / pool if pool else 0.0


def _sequence_bottom(cards: Sequence[Card], k: Knowledge) -> Card:
    """The lowest card of the run my highest card of a suit heads (no outside card between):
    from K-Q-9 the queen, since the king and the queen are worth the same."""
    ordered = sorted(cards, key=lambda c: -c.rank)
    out = ordered[0]
    for c in ordered[1:]:
        if k.outside_between(out, c):
            break
        out = c
    return out


def _sequence_top(cards: Sequence[Card], k: Knowledge) -> Card | None:
    """The highest honour (ten or higher) of a suit that has a card of equal worth just below
    it among mine (no outside card between): the K of K-Q-9, the J of K-J-10."""
    ordered = sorted(cards, key=lambda c: -c.rank)
    for c, below in itertools.pairwise(ordered):
        if c.rank >= Rank.TEN and not k.outside_between(c, below):
            return c
    return None


def _knock_out(cards: Sequence[Card], k: Knowledge) -> Card | None:
    """The top of a sequence that only one outstanding card beats (K-Q against the ace)."""
    top = _high(cards)
    if _above_outside(k, top) != 1:
        return None
    below = [c for c in cards if c != top]
    if not below:
        return None
    nxt = _high(below)
    return top if not k.outside_between(top, nxt) else None


def _declarer(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    if k.view.trick:
        return _follow_high(legal, k, partner=None)
    card, reason = _declarer_lead(legal, k)
    trump = k.view.trump
    if trump is not None and not any(c.suit is trump for c in legal):
        # Out of trumps nothing of mine ruffs later: a low card led only loses, the top may hold.
        top = _high([c for c in legal if c.suit is card.suit])
        if top != card:
            return top, Reason("lead_top_out_of_trumps", "out of trumps: leading the top of the suit, not a low card")
    return card, reason


def _declarer_lead(legal: Sequence[Card], k: Knowledge, draw: bool = True) -> tuple[Card, Reason]:
    """The declarer's lead; ``draw``: trumps may be drawn (False: my trumps are kept to ruff)."""
    view = k.view
    trump = view.trump
    defs = _defenders(view)
    trumps = [c for c in legal if c.suit is trump]
    live = trump is not None and any(_may_hold(k, s, trump) for s in defs)
    out_trumps = _expected_out(k, trump) if live and trump is not None else 0.0
    side = [c for c in legal if c.suit is not trump]

    def ruffable(suit: Suit) -> bool:
        return live and any(suit in k.voids.get(s, set()) and _may_hold(k, s, trump) for s in defs) if trump else False

    if trumps and live and draw:
        top = _high(trumps)
        if k.is_master(top):
            return top, Reason(
                "draw_master",
                "drawing trumps (leading trumps to clear theirs) with the highest trump still out"
            )
        knock = _knock_out(trumps, k)
        if knock is not None and len(trumps) >= 3:
            return knock, Reason(
                "draw_sequence",
                "drawing trumps (leading trumps to clear theirs): the top of a sequence forces out their high trump",
            )
        if len(trumps) >= 3 and len(trumps) > out_trumps + 0.5:
            keep = _ruff_to_keep(trumps, k) if side else None
            if keep is not None:  # the side card I would lead with trumps drawn
                return _declarer_lead(legal, k, draw=False)[0], _keep_reason(keep, len(trumps))
            # From the top: a low trump would lose to any of theirs and leave their high ones out.
            return top, Reason(
                "draw_from_top",
                "drawing trumps (leading trumps to clear theirs) from the top to force out their higher trumps",
            )
    masters = [c for c in side if k.is_master(c) and not ruffable(c.suit)]
    if masters:
        # Cash where the defenders have most cards left to follow with.
        best = max(masters, key=lambda c: (k.outside_in_suit(c.suit), c.rank, c))
        return best, Reason("cash_winner", "taking a sure trick with the highest card left in its suit")
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
        mine = [c for c in safe if c.suit is suit]
        head = _sequence_top(mine, k)
        if head is not None:
            return head, Reason("give_up_top_sequence", "giving up a trick with the top of a sequence")
        card = _low(mine)
        if not ruff_soon and strong & set(suits) and suit not in strong:
            return card, Reason("give_up_not_marked", "giving up a trick, not in a suit the defenders marked strong")
        return card, Reason("give_up_weakest", "giving up a trick in the weakest side suit")
    if side:
        if trumps:
            if k.is_master(_high(trumps)):
                return _high(trumps), Reason(
                    "draw_before_ruff",
                    "drawing trumps (leading trumps to clear theirs) before they can trump your other suits"
                )
            keep = _ruff_to_keep(trumps, k)
            if keep is not None:
                return _high(side), _keep_reason(keep, len(trumps))
            return _low(trumps), Reason("trump_not_into_ruff", "leading trump rather than a suit they would trump")
        return _low(side), Reason("lead_low", "leading a low card")
    return (_high(trumps) if k.is_master(_high(trumps)) else _low(trumps)), Reason("lead_trump", "leading trump")


def _keep_reason(keep: Suit, trumps: int) -> Reason:
    """Why I lead a side card with ``trumps`` trumps kept to ruff ``keep``."""
    if trumps == 1:
        said = f"keeping the last trump to trump {keep.word}: leading the highest side card"
        return Reason("keep_trump_to_ruff", said, suit=keep.name)
    said = f"keeping the trumps to trump {keep.word}: leading a side card, not a trump that loses to theirs"
    return Reason("keep_trumps_to_ruff", said, suit=keep.name)


KEEP_TRUMPS = 3  # the declarer's trumps at most that he keeps to ruff, when he cannot draw theirs


def _ruff_to_keep(trumps: Sequence[Card], k: Knowledge) -> Suit | None:
    """My trumps, none the master, counted against theirs: led, one falls to their higher
    trump; kept, they ruff the suit they will lead, one I am void in. My last trump is kept;
    two or three only where as many trumps are still out (I cannot draw theirs). The suit to
    ruff (the longest outstanding), or None where the trumps are not worth keeping."""
    if len(trumps) > KEEP_TRUMPS or (len(trumps) > 1 and k.outside_in_suit(trumps[0].suit) < len(trumps)):
        return None
    voids = [s for s in Suit if s is not trumps[0].suit and not any(c.suit is s for c in k.view.hand)]
    held = [s for s in voids if any(_may_hold(k, d, s) for d in _defenders(k.view))]
    return max(held, key=lambda s: (k.outside_in_suit(s), -int(s))) if held else None


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
            if card.suit is trump and led is not trump and not last:  # only trumps left: a ruff perforce
                return _ruff(legal, card, k)
            # partner's card wins only as the last: with the declarer still to play it is the
            # highest still out, or a ruff (a newcomer read "wins" before the declarer had played)
            if last:
                key, why = "partner_wins", "partner's card wins"
            elif not k.is_master(win_card, view.seat):
                key, why = "partner_ruffed", "partner has trumped the trick"
            elif win_card.suit is trump:
                key, why = "partner_master_trump", "partner's card is the highest trump still out"
            else:  # the declarer, still to play, beats it only with a trump (a newcomer read it as sure)
                why = "partner's card is the highest of its suit still out (only a trump beats it)"
                key = "partner_master"
            if card.suit is not led:
                return card, Reason(f"{key}_discard", f"{why}: discarding the least useful card")
            return card, Reason(key, f"{why}: no need to overtake")
    winner = _cheapest_winner(legal, win_card, trump, led, False)
    following = legal[0].suit is led
    if winner is not None:
        if last:
            return winner, Reason("win_cheaply", "winning the trick as cheaply as possible")
        if winner.suit is led and k.is_master(winner):
            # (the highest still out in its suit, not sure: a player after me may ruff it)
            return winner, Reason("win_sure", "taking the trick with a card nobody else can beat in the suit")
        if not following:
            return _ruff(legal, winner, k)
    if following:
        high = _third_hand_high(legal, k, partner, win_seat, win_card)
        if high is not None:
            return high, Reason("third_hand_high", "partner led: playing high before the declarer, who plays last")
        return _low(legal), Reason("follow_low", "following low")
    return _discard(legal, k), Reason("discard_least_useful", "discarding the least useful card")


def _ruff(legal: Sequence[Card], cheapest: Card, k: Knowledge) -> tuple[Card, Reason]:
    """Ruff; in second seat with the lowest trump above every trump the next player may
    overruff with, when it costs nothing (my other trumps still draw all of theirs), when he
    is likely void in the suit led, or when he may be and my trumps can spare it."""
    view = k.view
    trump = cheapest.suit
    nxt = Seat(view.seat).next
    cheap = cheapest, Reason("ruff", "ruffing (playing a trump on a suit you have none of)")
    chance = void_chance(k, nxt, view.trick[0][1].suit)
    if view.declarer not in (view.seat, nxt) or chance == 0.0 or not _may_hold(k, nxt, trump):
        return cheap  # the next player is partner, or must follow suit, or has no trump
    outside = k.cards(SUIT_MASKS[trump] & k.outside(view.seat))
    shown = {c for seat, hand in view.open_hands.items() if seat != nxt for c in hand}
    theirs = [c for c in outside if c not in shown]
    mine = [c for c in legal if c.suit is trump]
    safe = [c for c in mine if theirs and c.rank > max(x.rank for x in theirs)]
    if not safe or _low(safe) == cheapest:
        return cheap
    card = _low(safe)
    drawing = [c for c in mine if c != card and c.rank > max(x.rank for x in outside)]
    free = len(drawing) >= len(outside)
    spare = len(mine) > sum(expected_held(k, s, trump) for s in range(3) if s != view.seat)
    if free or chance >= LIKELY_VOID or (chance >= OVERRUFF_RISK and spare):
        return card, Reason(
            "ruff_high",
            "trumping with a high trump: the next player could beat a low one with a higher trump"
        )
    return cheap


def _third_hand_high(
    legal: Sequence[Card], k: Knowledge, partner: int | None, win_seat: int, win_card: Card
) -> Card | None:
    """Partner led a low card and the declarer plays last: play my highest card of the suit (the
    lowest of equals) when it beats partner's, so the declarer must spend a high card to win."""
    view = k.view
    if partner is None or len(view.trick) != 1 or win_seat != partner or view.declarer != Seat(view.seat).next:
        return None
    led = view.trick[0][1].suit
    if view.trump is not None and led is not view.trump and void_chance(k, view.declarer, led) >= 1.0:
        return None  # he ruffs: a high card would be wasted
    card = _sequence_bottom(legal, k)
    if win_card.rank >= Rank.TEN:
        return None  # partner led an honour, likely the top of his sequence: no overtaking it
    return card if card.rank > win_card.rank and card != _low(legal) else None


def _defender(legal: Sequence[Card], k: Knowledge) -> tuple[Card, Reason]:
    view = k.view
    partner = 3 - view.seat - (view.declarer or 0)
    trump = view.trump
    if not view.trick:
        declarer = view.declarer or 0
        ruffs = trump is not None and _may_hold(k, declarer, trump)
        into_ruff = k.voids.get(declarer, set()) if ruffs else set()
        masters = [c for c in legal if c.suit is not trump and k.is_master(c) and c.suit not in into_ruff]
        waiting = [c for c in masters if _tenace_below(c, legal, k)]
        if masters and len(waiting) < len(masters):
            return _high([c for c in masters if c not in waiting]), Reason(
                "cash_winner", "taking a sure trick with the highest card left in its suit"
            )
        trumps = [c for c in legal if c.suit is trump]
        if (
            trump is not None
            and trumps
            and into_ruff - {trump}
            and _declarer_trumps(k, declarer, trump) <= SHORT_TRUMPS
        ):
            force = [c for c in legal if c.suit in into_ruff and c.suit is not trump]
            if force and len(trumps) < _above_outside(k, _high(trumps)):
                # Fewer trumps than theirs above my best: led, mine only fall; he ruffs instead.
                card = _low(force)
                said = f"forcing the declarer to trump {card.suit.word}: the trumps held are too low to win trump leads"
                return card, Reason("force_low_trumps", said, suit=card.suit.name)
            return _low(trumps), Reason(
                "trump_stops_ruffs",
                "leading trump: the declarer is short of trumps and has none of a suit, so could trump it"
            )
        forcing = _forcing_lead(legal, k, declarer, into_ruff)
        if forcing is not None:
            return forcing, Reason(
                "force_declarer", "forcing the declarer to trump: the trumps held outlast the declarer's"
            )
        if trumps and all(c.suit in into_ruff for c in legal if c.suit is not trump):
            top = _high(trumps)
            if k.is_master(top):
                return top, Reason(
                    "draw_declarers_trump",
                    "drawing the declarer's trump: the declarer would trump any side suit led"
                )
            return _low(trumps), Reason(
                "trump_declarer_ruffs", "leading trump: the declarer would trump any side suit led"
            )
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
            return _side_lead(side, k, declarer, weak)
        return _low(legal), Reason("lead_low_trump", "leading a low trump")
    led = view.trick[0][1].suit
    discarding = trump is not None and legal[0].suit is not led and len(discards(view)[view.seat]) < 2
    if discarding and not _should_ruff(legal, k, partner):
        marking = _marking_discard(legal, k)
        if marking is not None:
            return marking
    return _follow_high(legal, k, partner)


def _declarer_trumps(k: Knowledge, declarer: int, trump: Suit) -> float:
    """The trumps the declarer is expected to hold now: a declarer starts the play with about
    ``DECLARER_TRUMPS`` (he chose the suit and bought for it), less those he has played, and
    never more than the unseen ones can give him."""
    played = sum(1 for _, cards in k.view.tricks for seat, c in cards if seat == declarer and c.suit is trump)
    played += sum(1 for seat, c in k.view.trick if seat == declarer and c.suit is trump)
    unseen = bin(SUIT_MASKS[trump] & k.outside(k.view.seat)).count("1")
    return min(float(unseen), max(DECLARER_TRUMPS - played, expected_held(k, declarer, trump)))


def _forcing_lead(legal: Sequence[Card], k: Knowledge, declarer: int, voids: set[Suit]) -> Card | None:
    """The forcing defence: with as many trumps as the declarer (three or more), lead a suit he
    is void in; each ruff shortens him until my trumps take control. None where it does not apply."""
    trump = k.view.trump
    if trump is None:
        return None
    mine = [c for c in legal if c.suit is trump]
    if len(mine) < 3 or len(mine) < _declarer_trumps(k, declarer, trump):
        return None
    force = [c for c in legal if c.suit in voids and c.suit is not trump]
    return _low(force) if force else None


def _tenace_below(master: Card, legal: Sequence[Card], k: Knowledge) -> bool:
    """I hold a card one outside card below ``master`` (Q-10 over the jack): cashing the master
    would make that card the master over mine, so the suit is left for the others to lead."""
    below = [c for c in legal if c.suit is master.suit and c.rank < master.rank]
    if not below:
        return False
    nxt = _high(below)
    return k.outside_between(master, nxt) == 1


def _side_lead(side: Sequence[Card], k: Knowledge, declarer: int, weak: Marking | None) -> tuple[Card, Reason]:
    """A defender's lead in a side suit: the top of an honour sequence; else low from the longest
    suit, but not from a tenace nor away from a lone honour (K-x-x, Q-x) when the declarer
    plays last and so may take it with a higher card or finesse against it. ``weak``: partner's
    weakness marking, where it took a suit out of ``side``."""
    suits = [s for s in Suit if any(c.suit is s for c in side)]
    cards = {s: [c for c in side if c.suit is s] for s in suits}
    tops = [t for t in (_sequence_top(cards[s], k) for s in suits) if t is not None]
    if tops:
        return _high(tops), Reason("lead_top_sequence", "leading the top of a sequence")
    declarer_last = Seat(k.view.seat).next != declarer

    def exposed(s: Suit) -> bool:
        top = _high(cards[s])
        if k.is_master(top):
            return _tenace_below(top, cards[s], k)
        return declarer_last and top.rank >= Rank.JACK and len(cards[s]) > 1

    calm = [s for s in suits if not exposed(s)]
    longest = max(calm or suits, key=lambda s: (len(cards[s]), -int(s)))
    card = _low(cards[longest])
    if weak is not None:
        said = f"leading low, not in partner's marked suit ({weak.describe()})"
        return card, Reason("lead_avoid_marked_weak", said, mark=weak)
    if calm and len(calm) < len(suits):
        return card, Reason(
            "lead_not_from_honour", "leading low elsewhere: the honours held there would fall to the declarer's"
        )
    return card, Reason("lead_low_longest", "leading low from the longest side suit")


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
    # Not weak either: a suit of two honours or more (K-J-10-6-5), though not strong enough
    # to ask partner to lead it, is not shown as weak.
    honours = {s: sum(1 for c in k.view.hand if c.suit is s and c.rank >= Rank.JACK) for s in Suit}

    def spare(c: Card) -> bool:
        return not k.is_master(c) and c not in strength[c.suit]

    def fits(c: Card, strong: bool) -> bool:
        return bool(strength[c.suit]) if strong else not strength[c.suit] and honours[c.suit] < 2

    pairs = []
    for f in [first] if first is not None else side:
        if first is None and not spare(f):
            continue
        strong = bool(strength[f.suit])
        if first is None and not fits(f, strong):
            continue
        for g in side:
            if g == f or not spare(g) or not fits(g, strong):
                continue
            if (f.rank > g.rank) is strong:
                pairs.append((f, g, strong))
    return pairs


def _in_sequence(card: Card, k: Knowledge) -> bool:
    """My next higher card of the suit touches ``card`` (nothing between them is out)."""
    higher = [c for c in k.view.hand if c.suit is card.suit and c.rank > card.rank]
    if not higher:
        return False
    return not k.outside_between(min(higher), card)


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
    said = f"Ågren marking, the first of two discards that tell partner about a suit: showing {mark.describe()}"
    return f, Reason("agren_first", said, mark=mark)


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
            return _high(under, al), Reason(
                "duck_highest",
                "letting the trick go with the highest card that still loses"
            )
        return _high(legal, al), Reason("cannot_duck", "cannot let the trick go: getting rid of the highest card")
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
        return _low(options, al), Reason(
            "lead_low_go_over", "leading your lowest card, for the declarer to go over it"
        )
    led = view.trick[0][1].suit
    dec_played = any(s == declarer for s, _ in view.trick)
    following = legal[0].suit is led
    if dec_played:
        win_seat, win_card = trick_winner(view.trick, None, al)
        if win_seat == declarer:
            under = [c for c in legal if not (c.suit is led and rank_value(c, al) > rank_value(win_card, al))]
            if under:
                return _high(under, al), Reason("let_declarer_keep", "letting the declarer keep the trick")
        if following:
            return _high(legal, al), Reason("ducked_keep_low", "the declarer let the trick go: keeping the low cards")
        return _high(legal, al), Reason("ducked_throw_high", "the declarer let the trick go: throwing a high card")
    if following:
        return _low(legal, al), Reason(
            "play_low_no_duck", "playing your lowest card of the suit, so the declarer cannot play under it"
        )
    return _high(legal, al), Reason("discard_high_keep_low", "discarding a high card, keeping the low ones")
