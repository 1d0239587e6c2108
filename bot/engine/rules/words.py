"""The rules in plain words, grouped as the bot shows them: what `/rules` and the help page say."""

from __future__ import annotations

from bot.engine.messages import N_, Message, Param
from bot.engine.rules.fields import NOfAKind, RuleFields, triple_factor


class RuleWords(RuleFields):
    """A ruleset's summary; every line a `Message`, translated where it is shown."""

    def summary_sections(self) -> list[tuple[str, list[Message]]]:
        """The rules in plain words, grouped as the bot shows them (group names are message ids)."""
        return [
            (N_("Scoring"), self._scoring_lines()),
            (N_("Turn"), self._turn_lines()),
            (N_("End of game"), self._end_lines()),
        ]

    def summary(self) -> list[Message]:
        return [line for _, lines in self.summary_sections() for line in lines]

    def _scoring_lines(self) -> list[Message]:
        lines = [
            Message("Single 1: {points}", points=self.single_one),
            Message("Single 5: {points}", points=self.single_five),
            Message("Three 1s: {points}", points=self.three_ones),
            Message("Three of a kind: 100 times the face (three 4s: 400)"),
        ]
        kinds = (
            (4, N_("Four of a kind: {score}")),
            (5, N_("Five of a kind: {score}")),
            (6, N_("Six of a kind: {score}")),
        )
        for n, line in kinds:
            if n == 6 and self.six_of_a_kind is not None:
                lines.append(Message(line, score=self.six_of_a_kind))
            elif self.n_of_a_kind != "none":
                lines.append(Message(line, score=_n_of_a_kind_score(self.n_of_a_kind, n)))
        if self.n_of_a_kind == "none":
            lines.append(Message("Four or more of a kind: a triple plus single 1s and 5s"))
        if self.six_ones is not None:
            lines.append(Message("Six 1s: {points}", points=self.six_ones))
        if self.six_ones_instant_win:
            lines.append(Message("Six 1s from one roll: win the game at once"))
        if self.straight:
            lines.append(Message("Straight 1-6: {points}", points=self.straight))
        else:
            lines.append(Message("Straight 1-6: no points"))
        combinations = (
            (N_("Three pairs: {points}"), self.three_pairs),
            (N_("Four of a kind with a pair: {points}"), self.four_and_pair),
            (N_("Two triplets: {points}"), self.two_triplets),
        )
        for line, points in combinations:
            if points is not None:
                lines.append(Message(line, points=points))
        # How the ambiguous rolls are read (the rule sheets ask house rules to say so): `scoring.py`.
        if self.three_pairs is not None:
            lines.append(Message("Four of a kind with a pair, and six of a kind, also count as three pairs"))
        if self.two_triplets is not None:
            lines.append(Message("Six of a kind also counts as two triplets"))
        if self.three_pairs is not None or self.two_triplets is not None:
            lines.append(Message("Dice that can be read several ways score their best reading"))
        if self.penalty_roll is not None:
            lines.append(
                Message(
                    "Five 6s and a 1 on six dice: {points} (score not below 0), turn over",
                    points=self.penalty_roll,
                )
            )
        return lines

    def _turn_lines(self) -> list[Message]:
        lines = []
        if self.entry_minimum and self.entry_roll_limit:
            lines.append(
                Message.plural(
                    "Get on the board with {points} in at most {count} roll",
                    "Get on the board with {points} in at most {count} rolls",
                    self.entry_roll_limit,
                    points=self.entry_minimum,
                )
            )
        elif self.entry_minimum:
            lines.append(Message("Get on the board with {points}", points=self.entry_minimum))
        else:
            lines.append(Message("No minimum to get on the board"))
        if self.bank_minimum:
            lines.append(Message("Bank only with at least {points} this turn", points=self.bank_minimum))
        if self.hot_dice == "forced":
            lines.append(Message("Hot dice: you must roll all six again"))
        else:
            lines.append(Message("Hot dice: you may roll all six again"))
        three_farkles = {
            "none": N_("Three Farkles in a row: no penalty"),
            "minus_1000": N_("Three Farkles in a row: lose 1,000"),
            "reset": N_("Three Farkles in a row: your score goes back to 0"),
        }
        lines.append(Message(three_farkles[self.three_farkles]))
        if self.piggyback == "off":
            lines.append(Message("No piggybacking"))
        else:
            gain: Param = (
                Message("their turn's points")
                if self.piggyback == "previous_points"
                else self.piggyback_bonus
            )
            if self.piggyback_needs_all_on_board:
                line = N_(
                    "Piggyback: roll the dice the last player left; if they score, add {gain} "
                    "(once everyone is on the board)"
                )
            else:
                line = N_("Piggyback: roll the dice the last player left; if they score, add {gain}")
            lines.append(Message(line, gain=gain))
        return lines

    def _end_lines(self) -> list[Message]:
        target = self.target
        if self.end_rule == "last_loses":
            lines = [Message("Last player to reach {target} loses", target=target)]
        else:
            if self.end_rule == "exact":
                lines = [
                    Message("Land exactly on {target}; points over it go to the lowest score", target=target)
                ]
            else:
                lines = [
                    Message("Reaching {target} starts the final round; the highest score wins", target=target)
                ]
            if self.tie_rule == "playoff":
                lines.append(Message("Ties at the top play off"))
            else:
                lines.append(Message("Ties at the top share the win"))
        if self.teams:
            lines.append(Message("{teams} teams; teammates share one score", teams=self.teams))
        lines.append(Message("{least} to {most} players", least=self.min_players, most=self.max_players))
        return lines


def _n_of_a_kind_score(mode: NOfAKind, n: int) -> Param:
    if mode == "fixed":
        return 1000 * (n - 3)
    factor = triple_factor(mode, n)
    if factor == 2:
        return Message("double the triple")
    return Message("{factor}x the triple", factor=factor)
