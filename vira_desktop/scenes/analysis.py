"""'Could I have won?': a finished deal's analysis, the line played beside the best line,
trick by trick, and each card of the player's side judged on what its player could see
(the analysis comes worked out, from the worker)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygame

from ..i18n import t
from ..rules.cards import Card, Suit
from ..rules.errors import Keyed
from ..session.analysis import CLOSE, MISTAKE, Analysis, Chances, Costly, LineCard, Seen
from ..session.describe import is_you
from ..session.words import card_text, pretty, say_keyed, say_marking
from .base import AppPort
from .overlays import _Sheet
from .theme import GOLD, GOOD, INK, MUTED, RED, fit_text, fitting_size, font, wrap_text

__all__ = [
    "AMBER",
    "BLUE",
    "AnalysisScene",
    "answer",
    "card_colour",
    "label_of",
    "legend",
    "legend_lines",
    "verdict",
    "verdict_rows",
    "working_text",
]

Colour = tuple[int, int, int]
AMBER = (255, 130, 30)  # doubtful on what the player could see (orange: told apart from GOLD)
BLUE = (130, 170, 240)  # unlucky: costly only with every card known
LISTED = 3  # cards told by name in each of the verdict's lists
VERDICT_TYPES = ((16, 6), (15, 5), (14, 4), (13, 3), (12, 2))  # the verdict's type and paragraph gap, largest first
ROOMY = 22  # the least height of a trick's row the verdict's type is made smaller for
SHADE = (48, 58, 74)  # the band behind a trick of the best line that is as played
BULLET = "\n• "  # a judged card in its list: a line of its own, indented (see :func:`verdict_rows`)
INDENT = 22  # the pixels a list's cards stand in from its heading
_LABELLED = {  # the lists whose heading (up to its first colon) is drawn in the colour their cards are marked in
    "analysis.mistakes": RED,
    "analysis.doubtful": AMBER,
    "analysis.unlucky": BLUE,
    "analysis.costly_ours": RED,
    "analysis.tricks_only": MUTED,
    "analysis.costly_theirs": GOOD,
    "analysis.gifts_only": MUTED,
}

ROW_H = 36
TOP = 236
COLUMNS = (30, 660)  # the line played, the best line
COLUMN_W = 590


def _home(info: Analysis, tricks: int) -> bool:
    return tricks == 0 if info.low else tricks >= info.need


def on_side(info: Analysis, viewer: str, name: str) -> bool:
    """Whether ``name`` plays on ``viewer``'s side: the declarer alone, or the two defenders."""
    return (name == info.declarer) == (viewer == info.declarer)


def working_text(progress: tuple[int, int] | None) -> str:
    """What the table says while the analysis is worked out: how far, once it is judging."""
    if progress is None or not progress[1]:
        return t("analysis.working")
    return t("analysis.working_seen", done=progress[0], total=progress[1])


def _listed(costly: Sequence[Costly], gift: bool = False) -> str:
    """Costly cards as the sheet lists them: what each cost its side (or gave the other)."""
    key = "analysis.gift_card" if gift else "analysis.costly_card"
    said = [t(key, trick=c.trick, name=c.seat, card=card_text(c.card), lost=c.lost) for c in costly[:6]]
    return ", ".join(said)


def _pct(share: float) -> str:
    return t("reason.percent", n=round(100 * share))


def _odds(yours: Chances, best: Chances, declarer: bool) -> tuple[str, str, str]:
    """The figure that tells two cards apart for the player's side: its kind ("home", "beaten"
    for a defender, else "kodilj" where that is all that differs) and each card's share."""
    if round(100 * yours.home) == round(100 * best.home) and round(100 * yours.kodilj) != round(100 * best.kodilj):
        return "kodilj", _pct(yours.kodilj), _pct(best.kodilj)
    if declarer:
        return "home", _pct(yours.home), _pct(best.home)
    return "beaten", _pct(1 - yours.home), _pct(1 - best.home)


_SAID = {  # each kind of figure: short, in words, in words for the best card itself
    "home": ("analysis.pct_home", "analysis.long_home", "analysis.long_home_own"),
    "beaten": ("analysis.pct_beaten", "analysis.long_beaten", "analysis.long_beaten_own"),
    "kodilj": ("analysis.pct_kodilj", "analysis.long_kodilj", "analysis.long_kodilj_own"),
}
_KODILJ_LOW = ("analysis.pct_kodilj", "analysis.long_kodilj_low", "analysis.long_kodilj_own_low")  # two taken
_ANSWERS = {  # the answer's keys, for the side's good result: the defenders', the declarer's
    "fine": ("analysis.answer_fine_beaten", "analysis.answer_fine_home_own"),  # (the declarer plays alone)
    "surer": ("analysis.answer_surer_beaten", "analysis.answer_surer_home"),
    "hindsight": ("analysis.answer_hindsight_beaten", "analysis.answer_hindsight_home"),
    "open": ("analysis.answer_open_beaten", "analysis.answer_open_home"),
    "yes": ("analysis.answer_yes_beaten", "analysis.answer_yes_home"),
}
_PARTNERS = {  # the same where only a partner's card was a mistake (a defender's: the declarer plays alone)
    "analysis.answer_yes_beaten": "analysis.answer_partner_yes",
    "analysis.answer_surer_beaten": "analysis.answer_partner_surer",
}


def _figures(info: Analysis, s: Seen, told: set[str] | None = None) -> tuple[str, str]:
    """A judged card's figure beside the best card's, short ("home 19%"); or, the report's
    first of its kind (not in ``told``, which takes it), said in words, which way is better
    told, as the first of the pair (the second empty)."""
    kind, yours, theirs = _odds(s.chances, s.best_chances, s.seat == info.declarer)
    short, long, own = _KODILJ_LOW if kind == "kodilj" and info.low else _SAID[kind]
    kodilj = _pct(s.chances.kodilj), _pct(s.best_chances.kodilj)
    also_kodilj = kind != "kodilj" and kodilj[0] != kodilj[1]  # said beside home too, so the points add up
    if told is None or kind in told:
        mine, best = t(short, pct=yours), t(short, pct=theirs)
        if also_kodilj:
            mine += ", " + t("analysis.pct_kodilj", pct=kodilj[0])
            best += ", " + t("analysis.pct_kodilj", pct=kodilj[1])
        return mine, best
    told.add(kind)
    key = own if s.best == s.card else long
    better = t("analysis.better_declarer" if s.seat == info.declarer else "analysis.better_defenders")
    said = t(key, card=card_text(s.card), best=card_text(s.best), yours=yours, theirs=theirs, better=better)
    if also_kodilj and s.best != s.card:
        said += t("analysis.long_and_kodilj", best=card_text(s.best), yours=kodilj[0], theirs=kodilj[1])
    return said, ""


def _points(info: Analysis, s: Seen) -> int:
    """A judged card's points below the best card, from the figures shown (whole percentages),
    so that they add up: the side's home less kodilj, in points (a defender's the other way)."""

    def worth(c: Chances) -> int:
        return round(100 * c.home) - round(100 * c.kodilj)

    sign = 1 if s.seat == info.declarer else -1
    return max(1, sign * (worth(s.best_chances) - worth(s.chances)))


def _judged(info: Analysis, seen: Sequence[Seen], key: str, told: set[str], own: str = "") -> str:
    """Judged cards as a verdict's list says them: each with its figure beside the best's
    (``own``: the words for a card that was the best itself; a kind of figure not yet
    ``told`` said in words)."""
    said = []
    for s in seen[:LISTED]:
        yours, best = _figures(info, s, told)
        values = {"trick": s.trick, "name": s.seat, "card": card_text(s.card), "yours": yours}
        if not best:  # said in words: the card, then its figures and the best's
            said.append(t("analysis.explained_card", **values))
        elif s.best == s.card and own:
            said.append(t(own, **values))
        else:  # the best, and the cards as good as it (within CLOSE points) with it
            bests = " / ".join(card_text(c) for c in (s.best, *s.as_good)[:3] if c != s.card)
            said.append(t(key, **values, best=bests, theirs=best))
        if s.call != "good":  # how far below the best, in the points the verdict is judged by
            said[-1] += f" ({t('analysis.points_worse', count=_points(info, s))})"
        marking = info.marking(s.seat, s.card)
        if marking is not None:  # the card the log and the coach read as a marking
            said[-1] += " " + t("analysis.marking_card", what=say_marking(marking.suits, marking.strong))
    more = len(seen) - LISTED
    # each card on a line of its own under its list's heading (run on with ";" a newcomer found them dense)
    return "".join(BULLET + card for card in said) + (t("analysis.and_more", count=more) if more > 0 else "")


def _coach_lost(info: Analysis, s: Seen) -> str:
    """Why a card the coach advised was a mistake (or doubtful) here: its reason, and what did better."""
    yours, best = _figures(info, s)
    values = {"trick": s.trick, "card": card_text(s.card), "best": card_text(s.best)}
    key = "analysis.coach_lost" if s.call == "mistake" else "analysis.coach_doubtful"
    return t(key, **values, reason=_coach_reason(s), yours=yours, theirs=best)


def _coach_reason(s: Seen) -> str:
    """The coach's reason for the card it advised, in words."""
    reason = s.coach_reason or ""
    return say_keyed(reason, "reason") if isinstance(reason, Keyed) else pretty(reason)


def _coach_card(s: Seen) -> str:
    return t("analysis.coach_card", trick=s.trick, card=card_text(s.card), reason=_coach_reason(s))


def _seen_lines(info: Analysis, viewer: str, told: set[str], said_fine: bool = False) -> list[str]:
    """The verdict's lines on the side's cards judged on what their players could see (each
    kind of figure said in words the first time: ``told``, the kinds said so far; ``said_fine``:
    the answer has said already that no card was a mistake)."""
    ours = [s for s in info.seen if on_side(info, viewer, s.seat)]
    mistakes = [s for s in ours if s.call == "mistake"]
    doubtful = [s for s in ours if s.call == "doubtful"]
    unlucky = [s for s in ours if s.unlucky]
    lines = []
    point = " " + t("analysis.point")  # said where points are first met (a newcomer found it only in the foot)
    if mistakes:
        cards = _judged(info, mistakes, "analysis.seen_card", told)
        lines.append(t("analysis.mistakes", cards=cards, points=round(MISTAKE)) + point)
        point = ""
    lines += [_coach_lost(info, s) for s in mistakes if s.coached and s.seat == viewer][:1]
    if unlucky:
        cards = _judged(info, unlucky, "analysis.unlucky_card", told, "analysis.unlucky_card_best")
        lines.append(t("analysis.unlucky", cards=cards))
    if doubtful:
        cards = _judged(info, doubtful, "analysis.seen_card", told)
        lines.append(t("analysis.doubtful", cards=cards, points=round(CLOSE)) + point)
    coached_doubtful = [s for s in doubtful if s.coached and s.seat == viewer]
    lines += [_coach_lost(info, s) for s in coached_doubtful[:1]]
    rest = [s for s in mistakes if s.coached and s.seat == viewer][1:] + coached_doubtful[1:]
    if rest:  # the coach's other cards among them, each with its reason
        lines.append(t("analysis.coach_also", cards="; ".join(_coach_card(s) for s in rest[:LISTED])))
    if not mistakes and not doubtful and not said_fine:
        lines.append(t("analysis.no_mistakes_own" if viewer == info.declarer else "analysis.no_mistakes"))
    if any(info.marking(s.seat, s.card) for s in mistakes + doubtful):  # why the marking read aloud is blamed
        lines.append(t("analysis.marking_judged"))
    return lines


def answer(info: Analysis, viewer: str, told: set[str]) -> tuple[str, bool]:
    """The plain answer to the sheet's title, first of its lines: could ``viewer``'s side have
    won (or done better), from the double-dummy result and the side's first mistake on what
    it could see (its figure said in words: its kind goes into ``told``); and whether it says
    that no card of the side was a mistake."""
    mine = viewer == info.declarer
    home = _home(info, info.taken)
    mistake = next((s for s in info.seen if s.call == "mistake" and on_side(info, viewer, s.seat)), None)
    # could the side have won: with best play from the first card, or on the best line, which
    # leaves the play at the side's first costly card (the other side's slip may open a door)
    possible = _home(info, info.allowed) == mine or (info.diverges is not None and _home(info, _line_end(info)) == mine)
    if home == mine:  # won: could it have been surer?
        if mistake is None:
            return t(_ANSWERS["fine"][mine]), True
        key = _ANSWERS["surer"][mine]
    elif not possible and mistake is None:
        return t("analysis.answer_no_home" if home else "analysis.answer_no_down"), False
    elif not possible:  # a plain "No" above red lines that give a card better odds read as a contradiction
        key = "analysis.answer_no_but_beaten" if home else "analysis.answer_no_but_home"
    elif mistake is None and not info.layouts and _home(info, info.allowed) != mine:
        assert info.diverges is not None  # possible on the best line alone, every card known
        key = "analysis.answer_open_line_home" if mine else "analysis.answer_open_line_beaten"
        return t(key, trick=info.diverges.trick), False
    elif mistake is None:
        door = _door(info, viewer)
        if door is not None:  # best play from the first card does not do it: the other side's slip did
            key = "analysis.answer_door_home" if mine else "analysis.answer_door_beaten"
            return t(key, card=card_text(door.card), name=door.seat, trick=door.trick), True
        return t(_ANSWERS["hindsight" if info.layouts else "open"][mine]), True
    else:
        key = _ANSWERS["yes"][mine]
    assert mistake is not None  # every branch without one has answered
    values = {"best": card_text(mistake.best), "card": card_text(mistake.card), "trick": mistake.trick}
    if mistake.seat == viewer:
        card = t("analysis.answer_card", **values)
    else:  # a partner's card: whose it was
        card = t("analysis.answer_card_other", **values, name=mistake.seat)
    if not any(s.call == "mistake" and s.seat == viewer for s in info.seen):  # "Could I …?": not with mine
        key = _PARTNERS.get(key, key)  # said first (a newcomer read the "Yes" as about their own cards)
    return t(key, card=card, odds=_figures(info, mistake, told)[0]), False


def _door(info: Analysis, viewer: str) -> Costly | None:
    """Where best play from the first card would not give ``viewer``'s side the result but
    the best line does: the other side's last card before the line leaves the play that
    changed the result (it opened the door); None otherwise."""
    if info.diverges is None or _home(info, info.allowed) == (viewer == info.declarer):
        return None
    slips = _theirs_before_turn(info, viewer, info.costly)
    return slips[-1] if slips else None


def _theirs_before_turn(info: Analysis, viewer: str, cards: Iterable[Costly]) -> list[Costly]:
    """The other side's cards of ``cards`` played before the best line leaves the play, in order."""
    turn = info.diverges
    assert turn is not None
    theirs = (c for c in cards if not on_side(info, viewer, c.seat) and c.index < turn.index)
    return sorted(theirs, key=lambda c: c.index)


def _other_games(info: Analysis) -> list[str]:
    """What the declarer's cards would have taken with each trump (only where he chose the
    trump), and in a misère (only for a misère contract)."""
    games = info.other_games
    chose = info.game is not None and info.game.free_trump
    trumps = [f"{Suit.parse(k).symbol} {v}" for k, v in games.items() if k in ("S", "H", "D", "C")]
    said = " · ".join(trumps)
    if trumps and "none" in games:  # for comparison only: no game is played without a trump (a newcomer asked)
        said += " " + t("analysis.no_trump", tricks=games["none"])
    bought = info.game is not None and info.game.family.is_buying  # the hands as they lay were bought for the trump
    ask = t("analysis.trump_question") + " "  # why the line is there
    if not info.low:
        key = "analysis.other_games_trump_bought" if bought else "analysis.other_games_trump"
        return [ask + t(key, games=said)] if trumps and chose else []
    if not trumps:  # the declarer set cards aside: a misère's figure alone
        return [t("analysis.other_games_misere", misere=games["misère"])] if "misère" in games else []
    if chose:  # a gask played low: the trump games it could have been
        key = "analysis.other_games_bought" if bought else "analysis.other_games"
        return [ask + t(key, games=said, misere=games["misère"])]
    return []  # a misère's own figure is the line above's


def label_of(line: str) -> tuple[str, Colour] | None:
    """The heading of a verdict's list (its words up to the first colon) and the colour its
    cards are marked in, for a line that is one of those lists; None for any other line."""
    for key, colour in _LABELLED.items():
        label = t(key, cards="", points=0).split(":", 1)[0]
        if line.startswith(label + ":"):
            return label, colour
    return None


Row = tuple[int, str, bool, bool]  # a verdict row: its indent, its words, whether it starts a paragraph, bold


def verdict_rows(lines: Sequence[str], size: int, width: int) -> list[Row]:
    """The verdict's ``lines`` wrapped to ``width`` in type of ``size`` (the first in bold): a
    line's own lines (its list's cards, after :data:`BULLET`) indented by :data:`INDENT`, a
    card's wrapped words half as far again (under its words, not its bullet)."""
    rows: list[Row] = []
    for k, line in enumerate(lines):
        for j, part in enumerate(line.split("\n")):
            indent, hang = (INDENT, INDENT // 2) if j else (0, 0)
            for n, text in enumerate(wrap_text(part, size, k == 0, width - indent - hang)):
                rows.append((indent + (hang if n else 0), text, j == n == 0, k == 0))
    return rows


def legend(info: Analysis) -> tuple[str, str]:
    """What the colours and marks of each column mean, in words: the line played's (judged on
    what could be seen: red, orange, blue; else the tricks alone: red, grey, green), and the
    best line's (the gold card where it leaves the play, grey the tricks as played, the "=")."""
    played = t("analysis.legend") if info.layouts else t("analysis.legend_open")
    turn = info.diverges
    best = [t("analysis.legend_best")] if turn is not None else []
    if info.best_line and (turn is None or turn.trick > 1):  # tricks as played, on a shaded band
        best.append(t("analysis.legend_same"))
    turning = _turning(info)
    if turning is not None and turning.also:
        best.append(t("analysis.as_good"))
    name = info.declarer  # the brackets of both columns
    best.append(t("analysis.legend_count_you") if is_you(name) else t("analysis.legend_count", name=name))
    return played, " · ".join(best)


def legend_lines(text: str, room: int) -> tuple[int, list[str]]:
    """A legend beside its heading in ``room`` pixels: one line, in type from 13 down to 11
    where it must; else two lines broken between its items, from 12 down to 10; else three
    (nothing is left out: a newcomer met an "=" and a "(n)" the legend had lost)."""
    size = fitting_size(text, 13, 11, False, room)
    if font(size).size(text)[0] <= room:
        return size, [text]
    for lines in (2, 3):
        for size in (12, 11, 10):
            parts = wrap_text(text, size, False, room, " · ")
            if len(parts) <= lines:
                return size, parts
    return size, parts


def card_colour(
    info: Analysis, viewer: str, trick: int, seat: str, card: Card, lost: int, changed: bool
) -> tuple[str, Colour]:
    """How the line played marks a card: the tricks it gave up (your side's, −; the other
    side's, given to yours, +) and its colour: red a mistake on what its player could see,
    amber doubtful, blue unlucky (costly only with every card known), grey tricks that
    changed nothing, green the other side's gift that changed the result."""
    ours = on_side(info, viewer, seat)
    mark = f" {'−' if ours else '+'}{lost}" if lost else ""
    if not ours:
        return mark, (GOOD if changed else MUTED) if lost else INK
    called = seen_call(info, trick, seat, card)
    if called is not None:
        return mark + called[0], called[1]
    if not lost:
        return "", INK
    if not changed:
        return mark, MUTED
    return mark, BLUE if info.layouts else RED


def seen_call(info: Analysis, trick: int, seat: str, card: Card) -> tuple[str, Colour] | None:
    """The mark and colour of a card judged a mistake (" ??", red: a newcomer read a "!" as a good
    move, as chess writes it) or doubtful (" ?", amber) on what its player could see; None for
    any other card."""
    seen = next((s for s in info.seen if s.trick == trick and s.seat == seat and s.card == card), None)
    if seen is not None and seen.call == "mistake":
        return " ??", RED
    if seen is not None and seen.call == "doubtful":
        return " ?", AMBER
    return None


def best_line_cards(info: Analysis, viewer: str) -> list[tuple[list[tuple[str, Card, str, Colour]], bool]]:
    """The best line's tricks as drawn for ``viewer``: each card's seat, card, mark and colour
    (gold where the line leaves the play; a card it copies from the play keeps its mark and
    colour there, a mistake's "!" too: copied, not endorsed), and whether the trick is as
    played (drawn on a shaded band: grey is the line played's "changed nothing", not this)."""
    turn = info.diverges
    played = [[(c.seat, c.card) for c in trick.cards] for trick in info.tricks]
    rows = []
    n = 0
    for i, best_trick in enumerate(info.best_line):
        same = i < len(played) and played[i] == [(c.seat, c.card) for c in best_trick.cards]
        cards: list[tuple[str, Card, str, Colour]] = []
        for j, c in enumerate(best_trick.cards):
            turning = turn is not None and n == turn.index
            mark = " =" if c.also and turning else ""  # other cards as good: told where the line leaves the play
            colour = GOLD if turning else INK
            if (turn is None or n < turn.index) and j < len(info.tricks[i].cards):  # copied: marked as played
                cost = info.tricks[i].cards[j]
                mark, colour = card_colour(info, viewer, i + 1, cost.seat, cost.card, cost.lost, cost.changed)
            cards.append((c.seat, c.card, mark, colour))
            n += 1
        rows.append((cards, same))
    return rows


def verdict(info: Analysis, viewer: str) -> tuple[str, list[str]]:
    """The sheet's title and its first lines, for the player ``viewer``: could their side have
    won (or done better), and what the cards allowed."""
    declarer, taken, allowed = info.declarer, info.taken, info.allowed
    mine = viewer == declarer
    home = _home(info, taken)
    won = home == mine
    title = t("analysis.title_better" if won else "analysis.title_won")
    game = info.game.name if info.game else None
    told: set[str] = set()  # the kinds of figure said in words so far
    said, fine = answer(info, viewer, told)  # fine: it says no card was a mistake
    lines = [said, t("analysis.played", name=declarer, game=game, count=taken)]
    could = _home(info, allowed)
    need = t("analysis.need_none") if info.low else t("analysis.need", need=info.need)
    if could == home:
        key = "analysis.same_home" if home else "analysis.same_down"
    else:
        key = "analysis.allowed_home" if could else "analysis.allowed_down"
    lines.append(t(key, allowed=allowed, need=need))
    mistaken = any(s.call == "mistake" and on_side(info, viewer, s.seat) for s in info.seen)
    door_told = not mistaken and _door(info, viewer) is not None  # the answer named the slip already
    turn = info.diverges  # (a line from the first card ends as best play from it does)
    if turn is not None and turn.index and could == home != _home(info, _line_end(info)) and not door_told:
        # the best line gets what best play from the first card did not: the other side's slips
        # before it opened the way (after a "Yes", "down with best play too" read as a contradiction)
        lines[-1] += " " + t("analysis.line_opens_beaten" if could else "analysis.line_opens_home")
    if mine:  # what the declarer's hands would have made otherwise: his question, not the defenders'
        lines += _other_games(info)
    ours = [c for c in info.costly if on_side(info, viewer, c.seat)]
    theirs = [c for c in info.costly if not on_side(info, viewer, c.seat)]
    if info.layouts:
        lines += _seen_lines(info, viewer, told, fine)
    elif ours:
        lines.append(t("analysis.costly_ours", cards=_listed(ours)))
    else:
        lines.append(t("analysis.no_costly_ours"))
    quiet = [c for c in info.tricks_only if on_side(info, viewer, c.seat)]
    if quiet:
        lines.append(t("analysis.tricks_only", cards=_listed(quiet)))
    if theirs:
        lines.append(t("analysis.costly_theirs", cards=_listed(theirs, gift=True)))
    quiet_gifts = [c for c in info.tricks_only if not on_side(info, viewer, c.seat)]
    if quiet_gifts:  # the grey +1 of the line played, in words
        lines.append(t("analysis.gifts_only", cards=_listed(quiet_gifts, gift=True)))
    if info.diverges is not None:
        lines += _best_line_words(info, viewer)
    return title, lines


_SHOW_ME = (  # the best line's words: [better with every card known only][the player's own card][at the first card]
    (("analysis.show_me", "analysis.show_me_first"), ("analysis.show_me_you", "analysis.show_me_you_first")),
    (
        ("analysis.show_me_known", "analysis.show_me_known_first"),
        ("analysis.show_me_known_you", "analysis.show_me_known_you_first"),
    ),
)


def _turning(info: Analysis) -> LineCard | None:
    """The best line's card where it leaves the play (its first card of best play)."""
    return next((c for trick in info.best_line for c in trick.cards if c.best), None)


def _line_end(info: Analysis) -> int:
    """The declarer's tricks at the end of the best line (with none drawn: what the cards allowed)."""
    return info.best_line[-1].declarer_tricks if info.best_line else info.allowed


def _best_line_words(info: Analysis, viewer: str) -> list[str]:
    """What the best line shows: where it leaves the play and how it ends; "could have done
    better" only where the card played was worse on what its player could see (else the
    better card is one that every card known finds, perhaps a trick's difference alone); and
    that the play did better than the line, where the other side gave tricks away."""
    turn = info.diverges
    assert turn is not None
    final = _line_end(info)
    hindsight = any(s.index == turn.index and s.call == "good" for s in info.seen)
    quiet = next((c for c in info.tricks_only if c.index == turn.index), None)  # it changed no result
    known = hindsight or quiet is not None or not on_side(info, viewer, turn.seat)
    key = _SHOW_ME[known][turn.seat == viewer][turn.index == 0]
    line = t(key, trick=turn.trick, name=turn.seat, final=final)
    turning = _turning(info)
    if turning is not None and turning.also:  # the best line's own card was not the only one
        others = ", ".join(card_text(c) for c in turning.also)
        line += " " + t("analysis.as_good_there", cards=others, card=card_text(turning.card))
    line += _gifts_before(info, viewer, final)
    even = final == info.taken  # the play ends as the line does: what the card cost was given back
    if quiet is not None and even:  # ("one trick's difference" with both ending alike read as nonsense)
        line += " " + t("analysis.turn_given_back", count=quiet.lost, card=card_text(quiet.card))
    elif quiet is not None:
        line += " " + t("analysis.turn_same_result", count=quiet.lost)
    elif hindsight:
        line += " " + t("analysis.turn_hindsight")
    if even:
        return [line] if quiet is not None else [line, t("analysis.line_even")]
    declarer_ahead = final > info.taken if info.low else final < info.taken  # the declarer did better as played
    if viewer == info.declarer:  # (who plays alone)
        return [line] + ([t("analysis.line_behind_own")] if declarer_ahead else [])
    return [line] + ([t("analysis.line_behind")] if not declarer_ahead else [])


def _gifts_before(info: Analysis, viewer: str, final: int) -> str:
    """Where the best line ends better for ``viewer``'s side than best play from the first
    card: the other side's cards before it that gave tricks away, in words (else nothing)."""
    wants_more = (viewer == info.declarer) != info.low  # the side wants the declarer's tricks up
    if final == info.allowed or (final > info.allowed) != wants_more:
        return ""
    gifts = _theirs_before_turn(info, viewer, (*info.costly, *info.tricks_only))
    return " " + t("analysis.line_after_gifts", cards=_listed(gifts, gift=True)) if gifts else ""


class AnalysisScene(_Sheet):
    """The analysis of the deal just played (or of a record): the verdict, the cards that gave
    up tricks, and the line played beside the best line."""

    close_key = pygame.K_a  # the title is the verdict's (drawn by draw)

    def __init__(self, app: AppPort, info: Analysis, viewer: str) -> None:
        super().__init__(app)
        self.info = info
        self.viewer = viewer
        self.top, self.row_h = TOP, ROW_H  # where the tricks' rows begin, and their height

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        info = self.info
        title, lines = verdict(info, self.viewer)
        surface.blit(font(26, True).render(title, True, GOLD), (30, 18))
        said = t("analysis.foot")
        if any(c.lost for trick in info.tricks for c in trick.cards):  # a −1 on a card that won its trick puzzled
            said = t("analysis.foot_marks") + " " + said
        if info.layouts:
            said = t("analysis.foot_seen", layouts=info.layouts) + " " + said
        foot = wrap_text(said, 13, False, 1060)[:3]
        for k, part in enumerate(foot):
            surface.blit(font(13).render(part, True, MUTED), (30, 760 - 17 * (len(foot) - k)))
        turn = info.diverges
        best = t("analysis.best_from", trick=turn.trick) if turn is not None else t("analysis.best_line")
        heads = [font(17, True).render(head, True, GOLD) for head in (t("analysis.as_played"), best)]
        # each legend beside its heading, in smaller type (or two or three lines) where it runs long
        legends = [
            legend_lines(said, COLUMN_W - head.get_width() - 16) for head, said in zip(heads, legend(info), strict=True)
        ]
        tall = max(len(parts) for _, parts in legends) > 2
        bottom = 756 - 17 * len(foot)  # the tricks' rows end above the foot
        # the verdict in the largest type (and paragraph gap) that leaves the tricks rows of ROOMY
        # pixels, else in the smallest (Finnish runs long: its rows once ran into each other)
        for size, gap in VERDICT_TYPES:
            rows = verdict_rows(lines, size, 1220)
            end = 64 + (size + 5) * len(rows) + gap * (len(lines) - 1)
            if (bottom - max(TOP, end + 46 + 12 * tall)) // 13 >= ROOMY:
                break
        y = 64 - gap
        for indent, part, starts, bold in rows:  # the first, the plain answer to the title, in bold
            y += gap if starts else 0
            x = 30 + indent
            label = label_of(part) if starts else None
            if label is not None:  # a list's heading in the colour of its cards
                head = font(size).render(label[0], True, label[1])
                surface.blit(head, (x, y))
                x, part = x + head.get_width(), part[len(label[0]) :]
            surface.blit(font(size, bold).render(part, True, INK), (x, y))
            y += size + 5
        self.top = max(TOP, y + 46 + 12 * tall)  # below the verdict however long it runs (Finnish runs long)
        self.row_h = min(ROW_H, (bottom - self.top) // 13)
        for x, head, (size, parts) in zip(COLUMNS, heads, legends, strict=True):
            surface.blit(head, (x, self.top - 30))
            step = 13 if len(parts) < 3 else 12
            for k, part in enumerate(parts):
                said_small = font(size).render(part, True, MUTED)
                y_part = self.top - 27 if len(parts) == 1 else self.top - 21 - step * (len(parts) - 1 - k)
                surface.blit(said_small, (x + COLUMN_W - said_small.get_width(), y_part))
        for i, trick in enumerate(info.tricks):
            marked = [
                (c.seat, c.card, *card_colour(info, self.viewer, trick.trick, c.seat, c.card, c.lost, c.changed))
                for c in trick.cards
            ]
            self._row(surface, COLUMNS[0], i, trick.trick, marked, trick.declarer_tricks)
        for i, (best_trick, (cards, same)) in enumerate(
            zip(info.best_line, best_line_cards(info, self.viewer), strict=True)
        ):
            self._row(surface, COLUMNS[1], i, i + 1, cards, best_trick.declarer_tricks, shaded=same)

    def _row(
        self,
        surface: pygame.Surface,
        x: int,
        i: int,
        number: int,
        cards: Sequence[tuple[str, Card, str, Colour]],  # seat, card, its mark, its colour
        count: int | None,
        shaded: bool = False,  # a trick of the best line as played
    ) -> None:
        y = self.top + i * self.row_h
        f = font(max(10, min(15, self.row_h - 5)))  # rows squeezed by a very long verdict: smaller, never overlapping
        if shaded:
            pygame.draw.rect(surface, SHADE, (x - 6, y - 3, COLUMN_W + 6, self.row_h - 2), border_radius=4)
        surface.blit(f.render(f"{number:>2}.", True, MUTED), (x, y))
        cx = x + 36
        room = (COLUMN_W - 36 - (60 if count is not None else 0)) // 3
        for seat, card, mark, colour in cards:
            text = f"{fit_text(seat, 15, False, room - 70)} {card_text(card)}"
            surface.blit(f.render(text + mark, True, colour), (cx, y))
            cx += room
        if count is not None:
            surface.blit(f.render(f"({count})", True, GOLD), (x + COLUMN_W - 50, y))
