"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from vira_desktop.rules.games import GAMES
from vira_desktop.rules.houserules import HouseRules

numbers = st.integers(0, 2**48 - 1)  # deal numbers
tables = st.sampled_from([3, 4])
contracts = st.none() | st.sampled_from(GAMES)
seeds = st.integers(0, 2**32 - 1)
house_rules = st.builds(
    HouseRules,
    aces_low_in_all_miseres=st.booleans(),
    royale_defenders_see_each_other=st.booleans(),
    gok_reentry=st.booleans(),
)
