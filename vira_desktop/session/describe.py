"""A finished deal told in words for the table's result banner: who played what, how it
went, and what was paid (rulebook "Payments")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..i18n import every_language, t
from ..rules.actions import Action, Bid, ChooseLevel, ChooseTrump, Decide, Turn
from ..rules.cards import Suit, SuitClass, suit_class, trumps_at
from ..rules.games import BID_GROUPS, Family, Game, PullaTable
from ..rules.scoring import DealResult, Outcome, PinsPaid, PullaPaid
from .words import game_label, say_action

__all__ = [
    "ala_om_line",
    "choice_label",
    "choice_notes",
    "deal_name",
    "describe_game",
    "describe_result",
    "group_bid_key",
    "is_you",
    "whose",
]


def deal_name(deal_index: int, again: bool = False) -> str:
    """The deal's name where it is headed: "Deal 3", or "Played again" for a deal from history
    played again (not the session's Nth)."""
    return t("table.deal_again") if again else t("table.deal", number=deal_index + 1)


def is_you(name: str) -> bool:
    """The player called "You" (in any of the game's languages: the name stays as it was
    typed when the language changes) is addressed as you, never inflected as a name."""
    return name in every_language("new_game.you")


def whose(name: str) -> str:
    """A player's possessive: "Your", "Anna's"; in Swedish "Annas", "Jonas", "Spelare 2:s"."""
    if is_you(name):
        return t("result.whose_you")
    ending = name[-1:].lower()
    if ending.isdigit():
        return t("result.whose_number", name=name)
    return t("result.whose_sibilant" if ending in ("s", "x", "z") else "result.whose", name=name)


def _said(key: str, name: str, **values: object) -> str:
    """``key`` about ``name``, or its ``_you`` form when the name is the player's own "You"."""
    return t(f"{key}_you", **values) if is_you(name) else t(key, name=name, **values)


def describe_result(
    result: DealResult, names: Sequence[str], suit_level: int = 0, ala_om: int = 0, players: int = 3
) -> tuple[str, list[str]]:
    """The banner's headline and its lines, e.g. ("Bertil's 7-spel in suit: bet (one trick
    short)", ["6 tricks taken, 7 needed.", "Bertil pays 1 bet into the pulla.", "Bertil pays 1 pin to each
    opponent."]). ``ala_om``: how many times the table (of ``players``) anted again before
    the winner could lift; said before the lift, as it was made.

    >>> from vira_desktop.rules.games import game
    >>> r = DealResult(1, game("7-spel"), None, "suit", False, (3, 6, 4), Outcome.BET, (0, 1, 0), (1, -2, 1),
    ...                (PullaPaid(1, 1, "bet"), PinsPaid(1, 0, 1, "game"), PinsPaid(1, 2, 1, "game")))
    >>> headline, lines = describe_result(r, ("Anna", "Bertil", "Cecilia"), 1)
    >>> headline
    "Bertil's 7-spel in suit: bet (one trick short)"
    >>> lines
    ['6 tricks taken, 7 needed.', 'Bertil pays 1 bet into the pulla.', 'Bertil pays 1 pin to each opponent.']
    """
    declarer = names[result.declarer]
    game = result.game
    low = result.trump_class == "none"
    outcome = result.outcome.value.split()[0]  # home, bet, kodilj, laid
    said = t(f"result.outcome.{outcome}_low" if low and outcome in ("bet", "kodilj") else f"result.outcome.{outcome}")
    headline = t("result.headline", whose=whose(declarer), game=game_label(game.name, suit_level), outcome=said)
    taken = t("table.tricks", count=result.tricks[result.declarer])
    lines: list[str] = []
    if result.outcome is not Outcome.LAID:
        lines.append(
            t("result.tricks_low", tricks=taken) if low else t("result.tricks", tricks=taken, needed=game.tricks)
        )
    for payment in result.payments:
        if isinstance(payment, PullaPaid):
            who, bets = names[payment.seat], t("words.bets_paid", count=abs(payment.bets))
            if payment.bets > 0:
                key = "result.gok_penalty" if payment.reason == "gök penalty" else "result.pays_pulla"
                lines.append(_said(key, who, bets=bets))
            else:
                if ala_om:
                    lines.append(ala_om_line(ala_om, players))
                lines.append(_said("result.lifts", who, bets=bets))
    lifted = any(isinstance(p, PullaPaid) and p.seat == result.declarer for p in result.payments)
    if result.outcome is Outcome.HOME and result.repurchase and not lifted:  # said, not left to be missed
        lines.append(_said("result.lifts_none", declarer))
    paid: Counter[tuple[str, int, int]] = Counter()
    for payment in result.payments:
        if isinstance(payment, PinsPaid):
            paid[(payment.reason, payment.payer, payment.pins)] += 1
    opponents = [s for s in range(3) if s != result.declarer]
    for (reason, payer, amount), times in paid.items():
        pins = t("words.pins_paid", count=amount)  # the object of a payment (Finnish: "1 tapin")
        if payer == result.declarer and times == 2:
            line = _said("result.pays_each", declarer, pins=pins)
        elif payer != result.declarer and paid.get((reason, _other(opponents, payer), amount)):
            if payer != opponents[0]:
                continue  # both opponents pay the same: one line
            line = _said("result.each_pays", declarer, pins=pins)
        else:
            payee = declarer if payer != result.declarer else names[opponents[0]]
            line = t("result.pays", payer=names[payer], payee=payee, pins=pins)
        if reason == "first purchase":
            line = t("result.first_purchase", line=line.rstrip(".")) + "."
        lines.append(line)
    each = {result.pins[s] for s in opponents}
    if len({reason for reason, _, _ in paid}) > 1 and len(each) == 1:  # paid twice (a repurchase): the sum said
        net = -each.pop()  # the declarer's from each opponent
        pins = t("words.pins_paid", count=abs(net))
        if net:
            said = _said("result.each_pays" if net > 0 else "result.pays_each", declarer, pins=pins)
            lines.append(t("result.in_all", line=said[:1].lower() + said[1:] if is_you(declarer) else said))
        else:
            lines.append(t("result.net_even"))
    for seat in range(3):  # a player whom nothing touched is told so, not left to wonder
        touched = any(
            p.seat == seat if isinstance(p, PullaPaid) else seat in (p.payer, p.payee) for p in result.payments
        )
        if is_you(names[seat]) and not touched:
            lines.append(t("result.nothing_you"))
    return headline, lines


def ala_om_line(times: int, players: int) -> str:
    """Everyone anted again ``times`` times (åla om); with four players, the sitter-out too."""
    return t("result.ala_om_four" if players == 4 else "result.ala_om", count=times)


def _other(opponents: list[int], seat: int) -> int:
    return opponents[1] if seat == opponents[0] else opponents[0]


def describe_game(game: Game, suit_level: int, highest: Suit, pulla: PullaTable) -> list[str]:
    """What a game of the bid table asks and pays in a deal whose highest suit is ``highest``:
    the tricks, the pins from each opponent by the trump's class, and the pulla's bets.

    >>> from vira_desktop.rules.games import PullaTable, game
    >>> for line in describe_game(game("7-spel"), 1, Suit.H, PullaTable.default()):
    ...     print(line)
    7-spel in suit: 7 tricks, trump ♥ or ♦.
    Home: 1 pin from each opponent if ♥ is trump, 0 if ♦ is.
    Pulla: home lifts 1 bet from it; one trick short (bet) pays 1 into it, two or more short (kodilj) 2.
    """
    label = game_label(game.name, suit_level)
    lines = [t("game.line", game=label, tricks=_tricks(game, suit_level), trumps=_trumps(game, suit_level, highest))]
    if game.family is Family.GASK:  # gask 6 ranks below gask 5: a newcomer took the order for a typo
        lines.append(t("game.gask_keeps", count=game.level))
    lines.append(t("game.home", pins=_pins(game, suit_level, highest)))
    row = pulla.row(game)
    lines.append(t("game.pulla", home=t("words.bets", count=row.home), bet=row.bet, kodilj=row.kodilj))
    return lines


def _tricks(game: Game, suit_level: int = 0) -> str:
    if game.misere is not None and not game.can_play_low:
        kind = t("game.misere_open" if game.misere.open else "game.misere_closed")
        return t("game.misere", kind=kind, cards=game.misere.cards)
    if game.plays_low(suit_level):
        return t("game.tricks_or_low", tricks=game.tricks)
    if game.can_play_low:  # a gask bid in suit: played high only
        return t("game.tricks_high_only", tricks=game.tricks)
    return t("game.tricks", tricks=game.tricks)


def _trumps(game: Game, level: int, highest: Suit) -> str:
    if not game.free_trump:
        return ""
    if level == 2:
        return t("game.trump_one", suit=highest.symbol)
    if level == 1:
        return t("game.trump_two", suit=highest.symbol, other=highest.partner.symbol)
    return t("game.trump_any")


def _pins(game: Game, level: int, highest: Suit) -> str:
    off, suit, top = game.pins
    if suit is None or top is None:
        return t("game.pins_each", pins=t("words.pins", count=off))
    if level == 2:
        return t("game.pins_each", pins=t("words.pins", count=top))
    partner = highest.partner.symbol
    if level == 1:
        return t("game.pins_suit", pins=t("words.pins", count=top), suit=highest.symbol, other_pins=suit, other=partner)
    rest = "".join(s.symbol for s in Suit if s not in (highest, highest.partner))
    top_pins = t("words.pins", count=top)  # the unit said once, on the first figure ("pins from each opponent")
    return t("game.pins_any", top=top_pins, suit=highest.symbol, mid=suit, other=partner, off=off, rest=rest)


def group_bid_key(bid: Bid) -> str:
    """The catalog key that says what a bid without a level stands for:
    the declarer of a passed gask, köpmisär or solo chooses its level; a turné or vingel stays
    at the lowest that outbids (rulebook "Bidding Without a Stated Level")."""
    chooses = BID_GROUPS[bid.group][1] if bid.group in BID_GROUPS else False
    return "message.group_bid_choose" if chooses else "message.group_bid"


def pins_by_trump(game: Game, suit_level: int, highest: Suit) -> list[tuple[str, int]]:
    """The pins from (or to) each opponent ``game`` pays at ``suit_level``, by the trump it
    may be played with: (suits, pins), most first; one entry when every way pays the same
    (a misère, or a game played low, pays its off-suit figure)."""
    if game.is_low:
        return [("", game.pins_for(SuitClass.OFF_SUIT))]
    allowed = trumps_at(suit_level if game.free_trump else 0, highest)
    by_pins: dict[int, str] = {}
    for suit in sorted(allowed, key=lambda s: -suit_class(s, highest)):
        pins = game.pins_for(suit_class(suit, highest))
        by_pins[pins] = by_pins.get(pins, "") + suit.symbol
    if game.plays_low(suit_level):
        low = game.pins_for(SuitClass.OFF_SUIT)
        by_pins.setdefault(low, "")
    if len(by_pins) == 1:
        return [("", next(iter(by_pins)))]
    return sorted(((suits, pins) for pins, suits in by_pins.items()), key=lambda x: -x[1])


def _pins_said(pins: list[tuple[str, int]]) -> str:
    """ "♠4 ♣2 ♥♦1", or one figure where every way pays the same."""
    if len(pins) == 1:
        return str(pins[0][1])
    return " ".join(f"{suits}{n}" for suits, n in pins if suits)


AGAIN_BY_FAMILY = {Family.VINGEL: "action.vingle_again", Family.TRINGEL: "action.tringle_again"}


def choice_label(action: Action, game: Game | None, highest: Suit, suit_level: int = 0) -> str:
    """An action as its button says it; a trump or a level to choose says what it pays
    (the pins from each opponent by the bid table; the notes say how, and the pulla's bets)."""
    if isinstance(action, ChooseTrump) and game is not None:
        pins = game.pins_for(suit_class(action.suit, highest))
        return t("choice.pays_each", action=say_action(action), pins=t("words.pins", count=pins))
    if isinstance(action, ChooseLevel):
        paid = _pins_said(pins_by_trump(action.game, suit_level, highest))
        return t("choice.pays_level", game=action.game.name, pins=paid)
    if isinstance(action, Turn) and action.again and game is not None and game.family in AGAIN_BY_FAMILY:
        return t(AGAIN_BY_FAMILY[game.family])  # "vingle again", as the lessons say it, not "turn again"
    return say_action(action)


def _bets(home: int, bet: int, kodilj: int) -> str:
    """Bets lifted at home and paid at bet and kodilj, signed: "+1 / −1 / −2", "0 / −3 / −5"."""
    return " / ".join(f"{sign}{n}" if n else "0" for sign, n in (("+", home), ("−", bet), ("−", kodilj)))


def choice_notes(
    actions: Sequence[Action], game: Game | None, pulla: PullaTable, repurchase: bool = False, repurchased: bool = False
) -> list[str]:
    """Above a trump or a level to choose: how its pins are paid, then the pulla's bets (where
    every choice's row agrees); above the declarer's choice after the buy, the bets played now
    and after a repurchase (or turning again, which is one); after a repurchase, its own."""
    games = [a.game for a in actions if isinstance(a, ChooseLevel)]
    if games:
        notes = [t("choice.level_note_low" if all(g.is_low for g in games) else "choice.level_note")]
    elif game is not None and any(isinstance(a, ChooseTrump) for a in actions):
        games, notes = [game], [t("choice.pays_note")]
    elif game is not None and any(isinstance(a, Decide) for a in actions):  # play, lay down, buy again
        row = pulla.row(game)
        after = row.after_repurchase
        if repurchased and after is not None:
            return [t("choice.bets_repurchased", bets=_bets(*after))]
        notes = [t("choice.bets_now", bets=_bets(row.home, row.bet, row.kodilj))]
        turn = any(isinstance(a, Turn) and a.again for a in actions)
        if (repurchase or turn) and after is not None:
            again = "choice.bets_turn_again" if turn else "choice.bets_repurchase"
            notes.append(t(again, bets=_bets(*after)))
        return notes
    else:
        return []
    rows = {pulla.row(g) for g in games}
    if len(rows) == 1:
        row = rows.pop()
        after = row.after_repurchase
        # a trump chosen after vingling again: the repurchase's prices
        home, bet, kodilj = after if repurchased and after is not None else (row.home, row.bet, row.kodilj)
        notes.append(t("game.pulla", home=t("words.bets", count=home), bet=bet, kodilj=kodilj))
    return notes
