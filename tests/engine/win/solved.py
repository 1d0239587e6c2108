"""Small rulesets whose win tables solve in moments, each solved once for the tests of the tables, the
turn and master."""

from __future__ import annotations

from functools import cache

from bot.engine.rules import Ruleset
from bot.engine.win.solve import solve_winprob
from bot.engine.win.tables import WinTables

SMALL = {
    "plain": Ruleset(target=1000),
    "entry": Ruleset(target=1500, entry_minimum=500, bank_minimum=300),
    "first wins": Ruleset(target=1500, end_rule="last_loses", straight=2500, three_pairs=1500),
    "piggyback": Ruleset(target=1500, piggyback="previous_points", hot_dice="forced", tie_rule="share"),
    "roll limit": Ruleset(target=1500, entry_minimum=500, entry_roll_limit=2, n_of_a_kind="doubling"),
    "three farkles": Ruleset(target=1000, three_farkles="reset", piggyback="previous_points"),
    "family": Ruleset(
        target=1500,
        n_of_a_kind="multiples",
        six_of_a_kind=1500,
        straight=1500,
        penalty_roll=-1000,
        bank_minimum=300,
        hot_dice="forced",
        piggyback="previous_points",
        end_rule="exact",
    ),
    "minus 1000": Ruleset(target=1500, three_farkles="minus_1000"),
    "six ones": Ruleset(target=3000, six_ones_instant_win=True),
}


@cache
def tables(name: str) -> WinTables:
    return solve_winprob(SMALL[name])
