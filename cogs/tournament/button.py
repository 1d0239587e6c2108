"""Join, Leave and Start on a tournament's card; Ready on a match's call: each press goes to the door
and is answered privately."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.app.errors import reply_ephemeral
from bot.engine.messages import N_
from bot.render.tournament import TEMPLATE
from bot.services.i18n import for_member
from bot.sessions.tournament.book import Answer
from cogs.buttons import answer_press

if TYPE_CHECKING:
    from bot.app.client import FarkleBot


async def answer_privately(interaction: discord.Interaction, answer: Answer, done: str) -> None:
    """The door's refusal, else `done`, in the member's language."""
    tr = for_member(interaction)
    await reply_ephemeral(interaction, tr.say(answer.refusal) if answer.refusal else tr.text(done))


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """`farkle-tour:<tournament>:<action>[:<match>]`: the action is join, leave, start or ready."""

    def __init__(self, tournament: str, action: str, key: str | None) -> None:
        tail = f":{key}" if key else ""
        super().__init__(discord.ui.Button(custom_id=f"farkle-tour:{tournament}:{action}{tail}"))
        self.tournament, self.action, self.key = tournament, action, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(match["tournament"], match["action"], match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, lambda bot: self._pressed(interaction, bot))

    async def _pressed(self, interaction: discord.Interaction, bot: FarkleBot) -> None:
        door, user, tournament = bot.services.tournaments, interaction.user, self.tournament
        match self.action:
            case "join":
                answer = await door.join(tournament, user.id, user.display_name)
                done = N_("You're signed up. Your matches will ping you.")
            case "leave":
                answer = await door.leave(tournament, user.id)
                done = N_("You've left the tournament.")
            case "start":
                manager = interaction.permissions.manage_guild
                answer = await door.start(tournament, user.id, manager=manager)
                done = N_("Started: the first round's matches are opening.")
            case _:
                answer = await door.ready(tournament, self.key or "", user.id)
                done = N_("Ready! The game starts here when your opponent is ready too.")
        await answer_privately(interaction, answer, done)
