"""Ruleset: the presets by name, admin refusals, option parsing, summary, JSON, key."""

from typing import Any, get_args

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bot.engine.rules import OPTIONS, PRESET_NAMES, RulesError, Ruleset


def test_preset_names() -> None:
    assert PRESET_NAMES == ("classic", "box", "doubling", "last-loses", "family")


def test_preset_is_one_instance_and_unknown_preset_is_refused() -> None:
    assert Ruleset.preset("box") is Ruleset.preset("box")
    with pytest.raises(RulesError, match="There is no rule set called 'zilch'"):
        Ruleset.preset("zilch")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"three_pairs": 400}, "three_pairs takes off, 300, 500, 600, 750, 1000 or 1500."),
        ({"target": 10250}, "target takes a multiple of 500 from 1,000 to 100,000."),
        ({"target": "lots"}, "target takes a multiple of 500 from 1,000 to 100,000."),
        ({"three_ones": 500}, "three_ones takes 200, 300 or 1000."),
        ({"straight": 0}, "straight takes off, 1000, 1500, 2000, 2500 or 3000."),
        ({"penalty_roll": 10000}, "penalty_roll takes off or a multiple of 500 from -10,000 to -500."),
        (
            {"n_of_a_kind": "tripling"},
            "n_of_a_kind takes none, doubling, multiples, high_multiples or fixed.",
        ),
        ({"entry_minimum": 333}, "entry_minimum takes 0 (off) or a multiple of 50 up to 2,000."),
        ({"teams": 1}, "teams takes 0 (no teams), 2, 3 or 4."),
        ({"colour": "red"}, "There is no rule called 'colour'."),
        ({"entry_roll_limit": 3}, "An entry roll limit needs an entry minimum: set entry_minimum first."),
        (
            {"piggyback_needs_all_on_board": True},
            "Piggybacking can't wait for everyone to be on the board while piggybacking is off.",
        ),
        (
            {"target": 1000, "entry_minimum": 1500},
            "The entry minimum (1,500) can't be above the target (1,000).",
        ),
        (
            {"target": 1000, "bank_minimum": 2000},
            "The bank minimum (2,000) can't be above the target (1,000).",
        ),
        ({"min_players": 5, "max_players": 3}, "The most players (3) can't be fewer than the fewest (5)."),
        (
            {"teams": 2, "end_rule": "last_loses"},
            "Teams can't play last-loses: turn teams off or choose another end rule.",
        ),
        ({"teams": 4, "max_players": 3}, "4 teams need room for at least 4 players: raise max_players."),
        (
            {"six_ones_instant_win": True, "end_rule": "last_loses"},
            "Six 1s can't win at once when the last player to reach the target loses.",
        ),
    ],
)
def test_refusals_are_sentences(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        Ruleset(**fields)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_model_copy_revalidates_and_rebuilds_tables() -> None:
    from bot.engine.scoring import score_dice

    classic = Ruleset.preset("classic")
    assert score_dice([1, 2, 3, 4, 5, 6], classic) == 1000  # builds and keeps classic's tables
    no_straight = classic.model_copy(update={"straight": None})
    assert score_dice([1, 2, 3, 4, 5, 6], no_straight) is None
    with pytest.raises(RulesError, match="three_pairs takes"):
        classic.model_copy(update={"three_pairs": 400})


@pytest.mark.parametrize(
    ("option", "raw", "field", "value"),
    [
        ("three_pairs", "off", "three_pairs", None),
        ("three_pairs", " 1,500 ", "three_pairs", 1500),
        ("target", "20,000", "target", 20000),
        ("Hot-Dice", "Forced", "hot_dice", "forced"),
        ("six ones instant win", "on", "six_ones_instant_win", True),
        ("entry_minimum", "off", "entry_minimum", 0),
        ("end_rule", "last-loses", "end_rule", "last_loses"),
        ("three_farkles", "off", "three_farkles", "none"),
        ("penalty_roll", "−10,000", "penalty_roll", -10000),
    ],
)
def test_with_option_parses_typed_values(option: str, raw: str, field: str, value: object) -> None:
    changed = Ruleset(name="house").with_option(option, raw)
    assert getattr(changed, field) == value
    assert changed.name == "house"


def test_with_option_on_a_preset_makes_it_custom_and_leaves_the_preset_alone() -> None:
    box = Ruleset.preset("box")
    changed = box.with_option("straight", "off")
    assert (changed.name, changed.straight) == ("custom", None)
    assert (box.name, box.straight) == ("box", 1500)
    assert box.with_option("straight", "1500").name == "box"  # same value: still the preset


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_with_option_refuses_nonsense_with_the_allowed_values(option: str) -> None:
    with pytest.raises(RulesError) as caught:
        Ruleset().with_option(option, "banana")
    assert str(caught.value) == f"{option} takes {OPTIONS[option].allowed}."


def test_with_option_messages() -> None:
    with pytest.raises(RulesError) as caught:
        Ruleset().with_option("three_pairs", "400")
    assert str(caught.value) == "three_pairs takes off, 300, 500, 600, 750, 1000 or 1500."
    with pytest.raises(RulesError, match="There is no rule called 'colour'"):
        Ruleset().with_option("colour", "red")
    with pytest.raises(RulesError) as caught:
        Ruleset().with_option("entry_roll_limit", "3")
    assert str(caught.value) == "An entry roll limit needs an entry minimum: set entry_minimum first."


def test_options_catalogue_covers_every_settable_field() -> None:
    assert set(OPTIONS) == set(Ruleset.model_fields) - {"name"}
    for name, spec in OPTIONS.items():
        assert spec.name == name
        assert spec.group in ("Scoring", "Turn", "End of game")
        assert spec.description and spec.allowed
        literal = get_args(Ruleset.model_fields[name].annotation)
        if literal and all(isinstance(v, str) for v in literal):
            assert spec.choices == literal


def english(rules: Ruleset) -> list[str]:
    return [str(line) for line in rules.summary()]


def test_summary_in_plain_words() -> None:
    doubling = Ruleset.preset("doubling").summary_sections()
    assert [title for title, _ in doubling] == ["Scoring", "Turn", "End of game"]
    scoring, turn, end = ([str(line) for line in lines] for _, lines in doubling)
    assert "Three 1s: 1,000" in scoring
    assert "Four of a kind: double the triple" in scoring
    assert "Six of a kind: 8x the triple" in scoring
    assert "Three pairs: 300" in scoring
    assert "Get on the board with 500 in at most 3 rolls" in turn
    assert "Ties at the top play off" in end
    assert "Last player to reach 10,000 loses" in english(Ruleset.preset("last-loses"))
    family = english(Ruleset.preset("family"))
    assert "Six of a kind: 10,000" in family
    assert "Bank only with at least 500 this turn" in family
    assert "Hot dice: you must roll all six again" in family
    assert "Straight 1-6: no points" in english(Ruleset(straight=None))
    assert Ruleset.preset("box").summary() == [
        line for _, lines in Ruleset.preset("box").summary_sections() for line in lines
    ]


def test_key_covers_scoring_and_turn_only() -> None:
    base = Ruleset()
    assert len(base.key()) == 64 and int(base.key(), 16) >= 0
    assert Ruleset(name="other", target=20000, end_rule="exact").key() == base.key()
    assert Ruleset(straight=1500).key() != base.key()
    assert Ruleset(bank_minimum=500).key() != base.key()
    assert len({Ruleset.preset(n).key() for n in PRESET_NAMES}) == len(PRESET_NAMES)


# Valid values per field (from the catalogue's own wording, written out here independently).
VALUES: dict[str, list[Any]] = {
    "single_one": [50, 100, 150, 1000],
    "single_five": [50, 100, 500],
    "three_ones": [200, 300, 1000],
    "n_of_a_kind": ["none", "doubling", "multiples", "high_multiples", "fixed"],
    "six_of_a_kind": [None, 1000, 3000, 10000],
    "six_ones": [None, 5000, 10000],
    "six_ones_instant_win": [False, True],
    "straight": [None, 1000, 1500, 2000, 3000],
    "three_pairs": [None, 300, 500, 600, 750, 1000, 1500],
    "four_and_pair": [None, 1500],
    "two_triplets": [None, 2000, 2500],
    "penalty_roll": [None, -500, -10000],
    "target": [1000, 5000, 10000, 20000, 100000],
    "entry_minimum": [0, 350, 400, 500, 2000],
    "entry_roll_limit": [None, 1, 3, 10],
    "bank_minimum": [0, 300, 500],
    "hot_dice": ["optional", "forced"],
    "three_farkles": ["none", "minus_1000", "reset"],
    "piggyback": ["off", "previous_points", "bonus"],
    "piggyback_bonus": [50, 1000, 5000],
    "piggyback_needs_all_on_board": [False, True],
    "end_rule": ["highest", "last_loses", "exact"],
    "tie_rule": ["playoff", "share"],
    "teams": [0, 2, 3, 4],
    "min_players": [2, 3, 8],
    "max_players": [2, 4, 8],
}


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    fields = {name: draw(st.sampled_from(values)) for name, values in VALUES.items()}
    try:
        return Ruleset(name=draw(st.text(max_size=20)), **fields)
    except RulesError:
        assume(False)
        raise


@given(rulesets())
def test_json_round_trip(rules: Ruleset) -> None:
    again = Ruleset.model_validate_json(rules.model_dump_json())
    assert again == rules
    assert hash(again) == hash(rules)
    assert again.key() == rules.key()
    assert all(line for line in rules.summary())
