"""Pure Farkle rules engine: rulesets, scoring, game state, the optimal-turn solver and computer players."""

from bot.engine.dice import DiceSource, ScriptedDice, SeededDice, dice_from_state
from bot.engine.errors import UserFacingError
from bot.engine.game import Game
from bot.engine.game.keeps import KeepPreview
from bot.engine.game.types import Action, GameResult, IllegalAction, PlayerState, TurnState
from bot.engine.history import Event
from bot.engine.levels import LEVELS, strategy_for
from bot.engine.policies import TurnPolicies
from bot.engine.rules import Ruleset
from bot.engine.rules.options import OPTIONS, OptionSpec, RulesError
from bot.engine.rules.presets import PRESET_NAMES
from bot.engine.scoring import (
    ScoringOption,
    best_points,
    farkle_chance,
    is_penalty_roll,
    score_dice,
    scoring_options,
)
from bot.engine.solver import Decision, TurnPolicy, solve_turn, turn_expected_value
from bot.engine.strategies import Advice, Strategy, advise

__all__ = [
    "LEVELS",
    "OPTIONS",
    "PRESET_NAMES",
    "Action",
    "Advice",
    "Decision",
    "DiceSource",
    "Event",
    "Game",
    "GameResult",
    "IllegalAction",
    "KeepPreview",
    "OptionSpec",
    "PlayerState",
    "RulesError",
    "Ruleset",
    "ScoringOption",
    "ScriptedDice",
    "SeededDice",
    "Strategy",
    "TurnPolicies",
    "TurnPolicy",
    "TurnState",
    "UserFacingError",
    "advise",
    "best_points",
    "dice_from_state",
    "farkle_chance",
    "is_penalty_roll",
    "score_dice",
    "scoring_options",
    "solve_turn",
    "strategy_for",
    "turn_expected_value",
]
