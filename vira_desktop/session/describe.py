"""A finished deal told in words for the table's result banner: who played what, how it
went, and what was paid (rulebook "Payments")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..rules.actions import SUIT_LEVELS
from ..rules.cards import Suit
from ..rules.games import Game, PullaTable
from ..rules.scoring import DealResult, Outcome, PinsPaid, PullaPaid
from .words import count, possessive, says, whom

__all__ = ["describe_game", "describe_result"]

_OUTCOME = {
    Outcome.HOME: "home",
    Outcome.BET: "bet (one trick short)",
    Outcome.KODILJ: "kodilj (two or more short)",
    Outcome.LAID: "laid down",
}

_OUTCOME_LOW = {Outcome.BET: "bet (one trick taken)", Outcome.KODILJ: "kodilj (two or more tricks taken)"}


def describe_result(result: DealResult, names: Sequence[str], suit_level: int = 0) -> tuple[str, list[str]]:
    """The banner's headline and its lines, e.g. ("Bertil's 7-spel in suit: bet (one trick
    short)", ["6 tricks of 7.", "Bertil pays 1 bet into the pulla.", "Bertil pays 1 pin to each
    opponent."]).

    >>> from vira_desktop.rules.games import game
    >>> r = DealResult(1, game("7-spel"), None, "suit", False, (3, 6, 4), Outcome.BET, (0, 1, 0), (1, -2, 1),
    ...                (PullaPaid(1, 1, "bet"), PinsPaid(1, 0, 1, "game"), PinsPaid(1, 2, 1, "game")))
    >>> headline, lines = describe_result(r, ("Anna", "Bertil", "Cecilia"), 1)
    >>> headline
    "Bertil's 7-spel in suit: bet (one trick short)"
    >>> lines
    ['6 tricks of 7.', 'Bertil pays 1 bet into the pulla.', 'Bertil pays 1 pin to each opponent.']
    """
    declarer = names[result.declarer]
    game = result.game
    low = result.trump_class == "none"
    said = _OUTCOME_LOW.get(result.outcome) if low else None
    headline = f"{possessive(declarer)} {game.name}{SUIT_LEVELS[suit_level]}: {said or _OUTCOME[result.outcome]}"
    taken = result.tricks[result.declarer]
    lines: list[str] = []
    if result.outcome is not Outcome.LAID:
        if low:
            lines.append(f"{count(taken, 'trick')} taken in misère (none allowed).")
        else:
            lines.append(f"{count(taken, 'trick')} of {game.tricks}.")
    for payment in result.payments:
        if isinstance(payment, PullaPaid):
            who = names[payment.seat]
            if payment.bets > 0:
                why = " (gök penalty)" if payment.reason == "gök penalty" else ""
                lines.append(f"{says(who, 'pays', 'pay')} {count(payment.bets, 'bet')} into the pulla{why}.")
            else:
                lines.append(f"{says(who, 'lifts', 'lift')} {count(-payment.bets, 'bet')} from the pulla.")
    pins: Counter[tuple[str, int, int]] = Counter()
    for payment in result.payments:
        if isinstance(payment, PinsPaid):
            pins[(payment.reason, payment.payer, payment.pins)] += 1
    for (reason, payer, amount), times in pins.items():
        what = "for the first purchase" if reason == "first purchase" else ""
        if payer == result.declarer and times == 2:
            line = f"{says(declarer, 'pays', 'pay')} {count(amount, 'pin')} to each opponent"
        elif payer != result.declarer:
            line = f"{says(names[payer], 'pays', 'pay')} {whom(declarer)} {count(amount, 'pin')}"
        else:
            line = f"{says(declarer, 'pays', 'pay')} {count(amount, 'pin')}"
        lines.append(f"{line} {what}".rstrip() + ".")
    return headline, _merge_opponents(lines, result, names)


def _merge_opponents(lines: list[str], result: DealResult, names: Sequence[str]) -> list[str]:
    """"Anna pays Bertil 2 pins" and "Cecilia pays Bertil 2 pins" → "each opponent pays Bertil 2 pins"."""
    declarer = names[result.declarer]
    others = [names[s] for s in range(3) if s != result.declarer]
    out: list[str] = []
    for line in lines:
        if line.startswith(f"{says(others[1], 'pays', 'pay')} {whom(declarer)} "):
            rest = line[len(says(others[1], "pays", "pay")) :]
            twin = says(others[0], "pays", "pay") + rest
            if twin in out:
                out[out.index(twin)] = "Each opponent pays" + rest
                continue
        out.append(line)
    return out


def describe_game(game: Game, suit_level: int, highest: Suit, pulla: PullaTable) -> list[str]:
    """What a game of the bid table asks and pays in a deal whose highest suit is ``highest``:
    the tricks, the pins from each opponent by the trump's class, and the pulla's bets.

    >>> from vira_desktop.rules.games import PullaTable, game
    >>> for line in describe_game(game("7-spel"), 1, Suit.H, PullaTable.default()):
    ...     print(line)
    7-spel in suit: 7 tricks, trump ♥ or ♦.
    Home: 1 pin from each opponent if ♥ is trump, 0 if ♦ is.
    Pulla: home lifts 1 bet; bet pays 1; kodilj pays 2.
    """
    lines = [f"{game.name}{SUIT_LEVELS[suit_level]}: {_tricks(game)}{_trumps(game, suit_level, highest)}."]
    lines.append(f"Home: {_pins(game, suit_level, highest)}.")
    row = pulla.row(game)
    lines.append(f"Pulla: home lifts {count(row.home, 'bet')}; bet pays {row.bet}; kodilj pays {row.kodilj}.")
    return lines


def _tricks(game: Game) -> str:
    if game.misere is not None and not game.can_play_low:
        kind = "open" if game.misere.open else "closed"
        return f"no trick may be taken ({kind} misère, {game.misere.cards} cards)"
    if game.can_play_low:
        return f"{game.tricks} tricks high, or none played low"
    return f"{game.tricks} tricks"


def _trumps(game: Game, level: int, highest: Suit) -> str:
    if not game.free_trump:
        return ""
    if level == 2:
        return f", trump {highest.symbol}"
    if level == 1:
        return f", trump {highest.symbol} or {highest.partner.symbol}"
    return ", any trump"


def _pins(game: Game, level: int, highest: Suit) -> str:
    off, suit, top = game.pins
    if suit is None or top is None:
        return f"{count(off, 'pin')} from each opponent"
    if level == 2:
        return f"{count(top, 'pin')} from each opponent"
    if level == 1:
        partner = highest.partner.symbol
        return f"{count(top, 'pin')} from each opponent if {highest.symbol} is trump, {suit} if {partner} is"
    others = "".join(s.symbol for s in Suit if s not in (highest, highest.partner))
    return (
        f"from each opponent {top} if {highest.symbol} is trump, {suit} if {highest.partner.symbol}, "
        f"{off} if {others}"
    )
