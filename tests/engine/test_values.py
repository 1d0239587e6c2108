"""One vocabulary for typed values: every on/off word works for every switch, rule or setting."""

import pytest

from bot.core.server_settings import SETTINGS
from bot.engine import Ruleset, UserFacingError
from bot.engine.values import OFF_WORDS, ON_WORDS, number, switch


@pytest.mark.parametrize("word", sorted(ON_WORDS | OFF_WORDS))
def test_every_switch_word_means_the_same_for_a_rule_flag_and_a_server_setting(word: str) -> None:
    expected = word in ON_WORDS
    rules = Ruleset.preset("classic").with_option("six_ones_instant_win", f"  {word.upper()} ")
    assert rules.six_ones_instant_win is expected
    assert SETTINGS["hints"].parse(word) is expected


@pytest.mark.parametrize("word", sorted(OFF_WORDS))
def test_off_words_turn_off_optional_numbers_and_pick_the_none_choice(word: str) -> None:
    rules = Ruleset.preset("doubling")
    assert rules.entry_roll_limit == 3
    assert rules.with_option("entry_roll_limit", word).entry_roll_limit is None
    assert rules.with_option("penalty_roll", word).penalty_roll is None
    assert rules.with_option("three_farkles", word).three_farkles == "none"


def test_numbers_as_people_write_them() -> None:
    assert [number(t) for t in ("1,000", "1 000", "1_000", "−500", " 42 ")] == [1000, 1000, 1000, -500, 42]
    assert number("90s", unit="s") == 90 and number("90s") is None
    assert number("lots") is None and switch("maybe") is None


def test_a_server_timeout_reads_units_and_refuses_out_of_range() -> None:
    spec = SETTINGS["turn_timeout"]
    assert [spec.parse(t) for t in ("90", "90s", "90 seconds", "1,000")] == [90, 90, 90, 1000]
    for bad in ("on", "10", "lots"):
        with pytest.raises(UserFacingError, match="turn_timeout takes"):
            spec.parse(bad)
