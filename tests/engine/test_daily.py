"""The daily game: its dice rule, its moves and refusals, its JSON, expert's score and streaks."""

import pytest

from bot.engine.daily import RULES, TURNS, DailyDice, DailyGame, DailyRefusal, expert_score, streaks
from tests.solved import policy_for

DAY = 20_417


def test_a_roll_depends_only_on_day_turn_and_roll_and_fewer_dice_are_its_first_faces() -> None:
    dice = DailyDice(DAY)
    six = dice.faces(3, 2)
    assert len(six) == 6 and all(1 <= face <= 6 for face in six)
    assert DailyDice(DAY).faces(3, 2) == six
    assert [dice.faces(3, 2, k) for k in range(1, 6)] == [six[:k] for k in range(1, 6)]
    assert len({dice.faces(turn, roll) for turn in range(1, 11) for roll in range(1, 4)}) > 25
    assert DailyDice(DAY + 1).faces(3, 2) != six or DailyDice(DAY + 1).faces(1, 1) != dice.faces(1, 1)


def test_moves_follow_the_days_dice_and_ten_turns_end_the_game() -> None:
    game = DailyGame(DAY)
    with pytest.raises(DailyRefusal):
        game.bank()
    turns_seen = 0
    while not game.finished:
        turn = len(game.turns) + 1
        game.roll_dice()
        assert game.roll == DailyDice(DAY).faces(turn, 1)
        if len(game.turns) < turn:  # not farkled: keep one scoring die and bank
            position = next(i for i, face in enumerate(game.roll) if face in (1, 5))
            with pytest.raises(DailyRefusal):
                game.bank([p for p in range(6) if game.roll[p] not in (1, 5)][:1] or [6])
            game.bank([position])
        turns_seen += 1
    assert turns_seen == TURNS and len(game.turns) == TURNS
    assert game.score == sum(points for _, points in game.turns)
    with pytest.raises(DailyRefusal):
        game.roll_dice()


def test_a_saved_game_loads_to_the_same_state() -> None:
    game = DailyGame(DAY)
    for _ in range(6):
        game.roll_dice([next(i for i, face in enumerate(game.roll) if face in (1, 5))] if game.roll else [])
        scoring = [i for i, face in enumerate(game.roll) if face in (1, 5)]
        if scoring:
            game.pick(scoring[0], picked=True)
            break
    loaded = DailyGame.from_json(game.to_json())
    assert game.selected
    seen = ("turns", "roll", "rolls", "score", "turn_total", "dice_left", "selected", "kept")
    assert [getattr(loaded, name) for name in seen] == [getattr(game, name) for name in seen]


def test_expert_scores_the_same_every_time() -> None:
    policy = policy_for(RULES)
    assert expert_score(DAY, policy) == expert_score(DAY, policy) > 0


def test_streaks_count_consecutive_days_and_hold_until_the_day_is_over() -> None:
    assert streaks([], DAY) == (0, 0)
    assert streaks([DAY - 2, DAY - 1], DAY) == (2, 2)
    assert streaks([DAY - 5, DAY - 4, DAY - 3, DAY - 1, DAY], DAY) == (2, 3)
    assert streaks([DAY - 3, DAY - 2], DAY) == (0, 2)
