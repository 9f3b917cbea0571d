"""The 40 games of the bid table and the pulla table, loaded from data files.

The tables live in ``rules/data/*.csv`` (data, not code). Rows are ordered:
``GAMES[0]`` is begär, ``GAMES[39]`` solo vira; a game's ``no`` is its rank.

>>> game("7-spel").tricks, game("gask på 2").no, game("kopmisar 1").name
(7, 14, 'köpmisär 1')
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass
from enum import Enum
from importlib import resources

from .cards import SuitClass

__all__ = [
    "BID_GROUPS",
    "GAMES",
    "Family",
    "Game",
    "Misere",
    "PullaRow",
    "PullaTable",
    "game",
    "normalize_name",
    "table_cells",
]


class Family(Enum):
    """Games grouped by their procedure after the auction."""

    BUYING = "buying"  # begär, 7-, 8-, 9-spel: free trump, then buy
    TURNE = "turne"
    VINGEL = "vingel"
    TRINGEL = "tringel"
    GASK = "gask"  # gask 0-6: keep N, take the whole stock
    VIRA = "vira"
    GOK = "gok"
    KOPMISAR = "kopmisar"
    SOLO = "solo"  # solo 6-12, solo vira
    SOLO_MISERE = "solo_misere"

    @property
    def turned_cards(self) -> int:
        """Cards turned up by turné (1), vingel (2), tringel (3); 0 otherwise."""
        return _TURNED.get(self, 0)

    @property
    def takes_stock(self) -> bool:
        """Gask games: the declarer takes the whole stock."""
        return self in (Family.GASK, Family.VIRA, Family.GOK)

    @property
    def is_buying(self) -> bool:
        """Köpspel: declarer buys, may repurchase, then the opponents buy."""
        return self in (Family.BUYING, Family.TURNE, Family.VINGEL, Family.TRINGEL, Family.KOPMISAR)

    @property
    def is_solo(self) -> bool:
        return self in (Family.SOLO, Family.SOLO_MISERE)


_TURNED = {Family.TURNE: 1, Family.VINGEL: 2, Family.TRINGEL: 3}


@dataclass(frozen=True, slots=True)
class Misere:
    """How a game is played in misère: open or closed, with this many cards."""

    open: bool
    cards: int

    @property
    def set_aside(self) -> int:
        """Cards the declarer sets aside before the first lead (13 - cards)."""
        return 13 - self.cards


@dataclass(frozen=True, slots=True)
class Game:
    """One row of the bid table."""

    no: int
    name: str  # canonical record name, e.g. "köpmisär 3"
    printed: str  # as printed in the bid table, e.g. "Köpmisär på 3"
    family: Family
    level: int  # gask: cards kept; köpmisär: cards bought; trump games: tricks
    tricks: int  # to go home; gask 0-4: when played high
    can_play_low: bool
    misere: Misere | None  # when played low (gask 0-4) or always (misère games)
    royale: bool  # open before the opponents buy
    pins: tuple[int, int | None, int | None]  # off-suit (or misère), suit, highest

    @property
    def is_low(self) -> bool:
        """Always played in misère (gök, köpmisär, solo misères)."""
        return self.misere is not None and not self.can_play_low

    @property
    def free_trump(self) -> bool:
        """Free choice of trump: the only games that can be bid in suit."""
        return self.family in (Family.BUYING, Family.GASK, Family.VIRA, Family.SOLO)

    def plays_low(self, suit_level: int) -> bool:
        """Whether it may be played low when bid at ``suit_level``: a gask 0-4 bid plain
        ("A gask bid in a suit or in the highest suit may not be played low")."""
        return self.can_play_low and not suit_level

    def aces_may_count_low(self, in_all_miseres: bool) -> bool:
        """Whether four aces may be announced as ones when this game is played low: gask
        0-4 by the rulebook, every misère under the house rule ``in_all_miseres``."""
        return self.can_play_low or (in_all_miseres and self.misere is not None)

    def pins_for(self, klass: SuitClass) -> int:
        value = self.pins[klass]
        if value is None:
            raise ValueError(f"{self.name} has no pin payment for {klass.label}")
        return value

    def __str__(self) -> str:
        return self.name

    def __lt__(self, other: Game) -> bool:
        return self.no < other.no


def normalize_name(text: str) -> str:
    """Fold case, accents and the ``på``/``(6-spel)`` decorations of a game name.

    >>> normalize_name("Gask på 2"), normalize_name("Köpmisär  3"), normalize_name("Begär (6-spel)")
    ('gask 2', 'kopmisar 3', 'begar')
    """
    text = text.replace("(6-spel)", "")
    folded = unicodedata.normalize("NFKD", text.lower())
    ascii_text = "".join(ch for ch in folded if not unicodedata.combining(ch))
    words = [w for w in ascii_text.split() if w != "pa"]
    return " ".join(words)


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def _opt_int(text: str) -> int | None:
    return int(text) if text.strip() else None


def _load_games() -> tuple[Game, ...]:
    games = []
    for row in _read_csv("bidtable.csv"):
        misere = None
        if row["misere_cards"]:
            misere = Misere(open=row["misere_open"] == "1", cards=int(row["misere_cards"]))
        games.append(
            Game(
                no=int(row["no"]),
                name=row["name"],
                printed=row["printed"],
                family=Family(row["family"]),
                level=int(row["level"]),
                tricks=int(row["tricks"]),
                can_play_low=row["can_play_low"] == "1",
                misere=misere,
                royale=row["royale"] == "1",
                pins=(int(row["pins_off_suit"]), _opt_int(row["pins_suit"]), _opt_int(row["pins_highest"])),
            )
        )
    if [g.no for g in games] != list(range(1, 41)):
        raise RuntimeError("bidtable.csv must list games 1..40 in order")
    return tuple(games)


GAMES: tuple[Game, ...] = _load_games()
_BY_NAME = {normalize_name(g.name): g for g in GAMES}


def game(name: str) -> Game:
    """Look a game up by canonical, printed or ASCII name."""
    try:
        return _BY_NAME[normalize_name(name)]
    except KeyError:
        raise ValueError(f"no such game in the bid table: {name!r}") from None


# Groups that may be bid without a stated level (rulebook "Bidding Without a Stated Level").
# The flag says whether the declarer chooses the level when the bid is passed.
BID_GROUPS: dict[str, tuple[tuple[Game, ...], bool]] = {
    "gask": (tuple(g for g in GAMES if g.family is Family.GASK), True),
    "köpmisär": (tuple(g for g in GAMES if g.family is Family.KOPMISAR), True),
    "solo": (tuple(g for g in GAMES if g.family is Family.SOLO), True),
    "turné": (tuple(g for g in GAMES if g.family is Family.TURNE), False),
    "vingel": (tuple(g for g in GAMES if g.family is Family.VINGEL), False),
}
GROUPS_BY_KEY = {normalize_name(k): k for k in BID_GROUPS}


@dataclass(frozen=True, slots=True)
class PullaRow:
    """Bets to/from the pulla: simple buy (home, bet, kodilj) and after a repurchase."""

    home: int
    bet: int
    kodilj: int
    re_home: int | None
    re_bet: int | None
    re_kodilj: int | None

    @property
    def after_repurchase(self) -> tuple[int, int, int] | None:
        """Home, bet and kodilj after a repurchase (``None``: the game has no repurchase)."""
        if self.re_home is None or self.re_bet is None or self.re_kodilj is None:
            return None
        return self.re_home, self.re_bet, self.re_kodilj


@dataclass(frozen=True, slots=True)
class PullaTable:
    """The pulla table; rows by canonical game name, ``ordinary`` for the rest."""

    rows: dict[str, PullaRow]

    def row(self, g: Game) -> PullaRow:
        return self.rows.get(g.name, self.rows["ordinary"])

    def overridden(self, changes: dict[str, PullaRow]) -> PullaTable:
        return PullaTable({**self.rows, **changes})

    @classmethod
    def default(cls) -> PullaTable:
        return DEFAULT_PULLA


def _load_pulla() -> PullaTable:
    rows = {}
    for row in _read_csv("pulla.csv"):
        name = row["row"] if row["row"] == "ordinary" else game(row["row"]).name
        rows[name] = PullaRow(
            home=int(row["home"]),
            bet=int(row["bet"]),
            kodilj=int(row["kodilj"]),
            re_home=_opt_int(row["re_home"]),
            re_bet=_opt_int(row["re_bet"]),
            re_kodilj=_opt_int(row["re_kodilj"]),
        )
    return PullaTable(rows)


DEFAULT_PULLA = _load_pulla()


def table_cells(g: Game) -> tuple[str, str, tuple[str, str, str]]:
    """The printed cells of ``g``'s row: tricks (``5/0`` where it may be played low),
    the misère kind, and the pins off-suit / suit / highest (``–`` for a dash).

    >>> table_cells(game("gask 2")), table_cells(game("solo petite misär ouverte"))
    (('9/0', 'closed, 13', ('0', '1', '1')), ('0', 'open, 12', ('8', '–', '–')))
    """
    tricks = f"{g.tricks}/0" if g.can_play_low else str(g.tricks)
    misere = f"{'open' if g.misere.open else 'closed'}, {g.misere.cards}" if g.misere else ""
    off, suit, highest = ("–" if v is None else str(v) for v in g.pins)
    return tricks, misere, (off, suit, highest)
