import json
from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.dice import ScriptedDice, SeededDice, _nth_roll, dice_from_state


def test_seeded_dice_repeat_with_the_same_seed_and_differ_with_another() -> None:
    assert SeededDice(7).roll(6) == SeededDice(7).roll(6)
    assert [SeededDice(7).roll(6) for _ in range(3)] != [SeededDice(8).roll(6) for _ in range(3)]


def test_seeded_dice_are_fair_enough() -> None:
    dice = SeededDice(1)
    counts = Counter(face for _ in range(6000) for face in dice.roll(6))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(5400 < c < 6600 for c in counts.values())  # 36,000 dice: 6,000 +- 10% per face


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 8])
def test_a_roll_has_the_asked_number_of_dice(n: int) -> None:
    roll = SeededDice(3).roll(n)
    assert len(roll) == n and all(1 <= face <= 6 for face in roll)


@given(st.integers(0, 2**32), st.lists(st.integers(1, 8), max_size=20))
def test_seeded_state_round_trips_through_json_and_continues_alike(seed: int, before: list[int]) -> None:
    dice = SeededDice(seed)
    for n in before:
        dice.roll(n)
    restored = dice_from_state(json.loads(json.dumps(dice.state())))
    assert restored.state() == dice.state()
    assert [restored.roll(6) for _ in range(5)] == [dice.roll(6) for _ in range(5)]


def test_scripted_dice_play_the_script_then_the_seeded_fallback() -> None:
    dice = ScriptedDice([[1, 2], [6, 6, 6]], seed=5)
    assert dice.roll(2) == (1, 2)
    assert dice.roll(3) == (6, 6, 6)
    assert dice.scripted_left == 0
    fallback = SeededDice(5)
    assert [dice.roll(6) for _ in range(3)] == [fallback.roll(6) for _ in range(3)]


def test_scripted_roll_of_the_wrong_length_fails_loudly() -> None:
    dice = ScriptedDice([[1, 2, 3]])
    with pytest.raises(ValueError, match="has 3 dice; the game rolled 2"):
        dice.roll(2)


def test_scripted_faces_must_be_dice_faces() -> None:
    with pytest.raises(ValueError):
        ScriptedDice([[0, 7]])


def test_scripted_state_round_trips_mid_script() -> None:
    dice = ScriptedDice([[1], [2, 3], [4, 5, 6]], seed=9)
    dice.roll(1)
    restored = dice_from_state(json.loads(json.dumps(dice.state())))
    assert isinstance(restored, ScriptedDice)
    assert restored.scripted_left == 2
    assert [restored.roll(n) for n in (2, 3, 6)] == [dice.roll(n) for n in (2, 3, 6)]


def test_unknown_dice_state_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown dice source"):
        dice_from_state({"kind": "loaded"})


def test_seeded_dice_roll_what_they_always_rolled() -> None:
    """Saved games and archived replays continue from seed and draws: the dice a seed gives, after any
    number of draws, must never change (these were rolled by a generator kept alive between rolls)."""
    dice = SeededDice(2**62 + 12345)
    rolled = [dice.roll(n) for n in (6, 3, 1, 8, 2)]
    assert rolled == [(3, 6, 4, 5, 6, 3), (6, 4, 3), (5,), (6, 6, 6, 4, 4, 3, 6, 6), (1, 4)]
    assert dice.state() == {"kind": "seeded", "seed": 2**62 + 12345, "draws": 12}
    assert SeededDice(2**62 + 12345, draws=7).roll(6) == (4, 4, 2, 6, 5, 3)


@pytest.mark.parametrize("n", range(1, 7))
def test_a_roll_drawn_from_one_number_is_the_ordered_roll_it_always_was(n: int) -> None:
    """Saved games replay from seed and draws: the mapping from a draw to dice must never change."""
    assert [_nth_roll(index, n) for index in range(6**n)] == list(product(range(1, 7), repeat=n))
