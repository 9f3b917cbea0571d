"""House rules of RULES-NOTES.md §3, each switchable (defaults as the notes give them)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .games import DEFAULT_PULLA, PullaTable

__all__ = ["HOUSE_RULE_NAMES", "HouseRules"]


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

    def changed(self) -> dict[str, bool]:
        """The switches that differ from the defaults (what a record writes)."""
        default = HouseRules()
        return {name: getattr(self, name) for name in HOUSE_RULE_NAMES if getattr(self, name) != getattr(default, name)}


HOUSE_RULE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules) if f.name != "pulla")
