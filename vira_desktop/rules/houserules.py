"""House rules of RULES-NOTES.md §3, each switchable (defaults as the notes give them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import astuple, dataclass, field, fields, replace
from typing import Any

from .errors import Keyed
from .games import DEFAULT_PULLA, GAMES, PullaRow, PullaTable, game, normalize_name

__all__ = ["HOUSE_RULE_NAMES", "PULLA_TABLE", "HouseRules", "pulla_rows"]

PULLA_TABLE = "pulla_table"  # the key of the pulla-table overrides in config.yaml and records


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Switches that change the rules; the record and ``config.yaml`` use these names."""

    aces_low_in_all_miseres: bool = False
    """Four aces may count as ones in every misère game, not only a low gask 0-4."""

    royale_defenders_see_each_other: bool = False
    """In solo grande misär ouverte royale the defenders see each other's cards."""

    gok_reentry: bool = False
    """A player who passed on a gök may bid again when the gök is raised."""

    pulla: PullaTable = field(default=DEFAULT_PULLA, compare=False)
    """The pulla table (bets to and from the pulla), overridable row by row."""

    def changed(self) -> dict[str, Any]:
        """Every house rule that differs from the defaults, as a record or a save writes it:
        the switches, and under ``pulla_table`` each overridden row as six cells
        ``[home, bet, kodilj, re_home, re_bet, re_kodilj]`` (``None``: no repurchase)."""
        default = HouseRules()
        out: dict[str, Any] = {
            name: getattr(self, name) for name in HOUSE_RULE_NAMES if getattr(self, name) != getattr(default, name)
        }
        rows = {
            name: list(astuple(row))
            for name, row in self.pulla.rows.items()
            if DEFAULT_PULLA.rows.get(name) != row
        }
        if rows:
            out[PULLA_TABLE] = rows
        return out

    @classmethod
    def from_changes(cls, changes: Mapping[Any, Any] | None, where: str = "house_rules") -> HouseRules:
        """The house rules that :meth:`changed` wrote (a record's or a save's ``house_rules``).
        A wrong name or value raises :class:`ValueError` naming the key under ``where``."""
        if changes is None:
            return cls()
        if not isinstance(changes, Mapping):
            raise ValueError(f"{where}: expected a mapping of house-rule names to values")
        switches: dict[str, bool] = {}
        pulla = DEFAULT_PULLA
        for key, value in changes.items():
            if key == PULLA_TABLE:
                pulla = pulla.overridden(pulla_rows(value, f"{where}.{PULLA_TABLE}"))
            elif key in HOUSE_RULE_NAMES:
                if not isinstance(value, bool):
                    raise ValueError(f"{where}.{key}: expected true or false, got {value!r}")
                switches[str(key)] = value
            else:
                known = ", ".join((*HOUSE_RULE_NAMES, PULLA_TABLE))
                raise ValueError(f"{where}.{key}: unknown house rule (known: {known})")
        return replace(cls(pulla=pulla), **switches)  # type: ignore[arg-type]


HOUSE_RULE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules) if f.name != "pulla")
_ROWS = {"ordinary": "ordinary"} | {normalize_name(g.name): g.name for g in GAMES}


def pulla_rows(value: Any, where: str) -> dict[str, PullaRow]:
    """Pulla-table overrides (row name → six cells), checked. A row a buying game is paid by
    (``ordinary`` or a köpspel) must have its repurchase cells: repurchase is legal there, and
    a deal could not be finished without them. Raises :class:`ValueError` naming the key."""
    if not isinstance(value, Mapping):
        said = f"{where}: expected a mapping of row names to six numbers"
        raise ValueError(Keyed("pulla_mapping", said, setting=where))
    rows: dict[str, PullaRow] = {}
    for row, cells in value.items():
        name = _ROWS.get(normalize_name(str(row)))
        key = f"{where}.{row}"
        if name is None:
            said = f"{key}: unknown row (use 'ordinary' or a game of the bid table)"
            raise ValueError(Keyed("unknown_row", said, setting=key))
        if not isinstance(cells, list) or len(cells) != 6 or not all(map(_cell, cells)) or None in cells[:3]:
            said = f"{key}: expected [home, bet, kodilj, re_home, re_bet, re_kodilj] (whole numbers)"
            raise ValueError(Keyed("row_cells", said, setting=key))
        repurchase = cells[3:]
        if None in repurchase and any(c is not None for c in repurchase):
            said = f"{key}: the repurchase cells are all numbers or all empty (null)"
            raise ValueError(Keyed("repurchase_mixed", said, setting=key))
        buying = name == "ordinary" or game(name).family.is_buying
        if buying and None in repurchase:
            games = "the ordinary games" if name == "ordinary" else name
            said = (
                f"{key}: the repurchase cells may not be empty (null): repurchase is legal in {games}, "
                "and the deal could not be paid"
            )
            which = "repurchase_needed_ordinary" if name == "ordinary" else "repurchase_needed"
            raise ValueError(Keyed(which, said, setting=key, game=name))
        rows[name] = PullaRow(*cells)
    return rows


def _cell(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)
