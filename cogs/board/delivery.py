"""How a game's messages reach its conversation: by channel routes, or only through interaction tokens.

Where the app is a member (a server that installed it, its own DM with a member) the bot may post and
edit in the channel. Where it is not (a DM between members, a group DM, a server without the bot: the
app is used through a member's user install), Discord refuses every channel route (403 50001) and the
app acts only through interactions: the response, edits of the original response and a few follow-ups
per interaction, each token for 15 minutes. So for those games this module holds the freshest token
whose original response is the board, and edits, pings and tidies through it while it lives.
Tokens live in memory only: after a restart, or once every token has expired, the next press's answer
redraws the board.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

from bot.core.clock import Clock
from bot.render.components import Rendered

log = logging.getLogger(__name__)

# Discord: an interaction token is valid for 15 minutes; a little is kept back for the request itself.
TOKEN_LIFETIME = 15 * 60.0
TOKEN_MARGIN = 15.0
# Discord: follow-ups an interaction may send where the app is not installed in the conversation.
FOLLOW_UP_LIMIT = 5
# Expired tokens are let go at most this often, when a new one is held.
SWEEP_EVERY = 60.0


def board_scope(interaction: discord.Interaction) -> int:
    """The id games, settings and leaderboards are kept under: the server, else the conversation (a DM
    or group DM has no server; snowflakes never collide, so a channel id names its own board)."""
    scope = interaction.guild_id or interaction.channel_id
    assert scope is not None  # every slash command and press has a channel
    return scope


def channel_routes(interaction: discord.Interaction) -> bool:
    """Whether the app is a member of the interaction's channel: its own DM, or a server whose guild it
    knows (the gateway sends every guild the bot is in). Otherwise only the interaction reaches it."""
    context = interaction.context
    if context.private_channel:
        return False
    if context.dm_channel or interaction.guild_id is None:
        return True
    return interaction.client.get_guild(interaction.guild_id) is not None


def forced_ephemeral(interaction: discord.Interaction) -> bool:
    """A server that turned external apps off makes every response of a user-installed app ephemeral:
    the member lacks Use External Apps where the app is not a member."""
    return (
        interaction.guild_id is not None
        and not channel_routes(interaction)
        and not interaction.permissions.use_external_apps
    )


async def answer_with(interaction: discord.Interaction, rendered: Rendered) -> int:
    """Answer with a board and return its message id, taken from the answer itself: a second request
    for it would leave a window in which a quick press finds no board and posts another one."""
    answer = await interaction.response.send_message(**rendered.message)
    if answer.message_id is not None:
        return answer.message_id
    return (await interaction.original_response()).id  # an answer without its message (older API)


@dataclass
class _Token:
    """An answered interaction whose original response is a game's board."""

    interaction: discord.Interaction
    issued: float
    follow_ups: int = 0


class Delivery:
    """The freshest token of every game that lives in interaction responses, by channel."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._tokens: dict[int, _Token] = {}
        self._pings: dict[int, tuple[_Token, int]] = {}  # the last turn ping and the token that sent it
        self._conversations: set[int] = set()  # every channel a token has reached, expired or not
        self._next_sweep = 0.0

    def hold(self, channel_id: int, interaction: discord.Interaction) -> None:
        """`interaction` was just answered with the board of a game only tokens reach: it is now the way
        to edit it (answered within Discord's 3 s of its creation: the margin covers it)."""
        now = self._clock.now()
        self._tokens[channel_id] = _Token(interaction, now)
        self._conversations.add(channel_id)
        if now >= self._next_sweep:
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        """Let go of expired tokens, and of pings only they could delete: each holds its interaction
        (the press, its member, its message), which is of no use once the token has expired, and a
        bot in many conversations kept one for each of them, for the life of the process."""
        self._next_sweep = now + SWEEP_EVERY
        for channel_id, token in list(self._tokens.items()):
            if self._live(token) is None:
                del self._tokens[channel_id]
        for channel_id, (token, _) in list(self._pings.items()):
            if self._live(token) is None:
                del self._pings[channel_id]

    def followed_up(self, interaction: discord.Interaction) -> None:
        """Another follow-up of `interaction` was sent (a private note): it counts against the limit."""
        token = self._tokens.get(interaction.channel_id or 0)
        if token is not None and token.interaction.id == interaction.id:
            token.follow_ups += 1

    def _live(self, token: _Token | None) -> _Token | None:
        alive = token is not None and self._clock.now() < token.issued + TOKEN_LIFETIME - TOKEN_MARGIN
        return token if alive else None

    async def edit_board(self, channel_id: int, rendered: Rendered) -> bool:
        """Edit the board through the freshest token; False when none lives (the next press redraws)."""
        token = self._live(self._tokens.get(channel_id))
        if token is None:
            log.info("No live token for the board in conversation %s: the next press redraws it", channel_id)
            return False
        try:
            await token.interaction.edit_original_response(**rendered.message)
        except discord.HTTPException as error:
            log.warning("Could not edit the board in conversation %s: %s", channel_id, error)
            return False
        return True

    def holds(self, channel_id: int) -> bool:
        """Whether this process reaches the conversation's game through interaction tokens."""
        return channel_id in self._conversations

    async def tell(self, channel_id: int, text: str) -> bool:
        """A public line for the conversation (achievements, say) as a follow-up of the freshest token,
        while one lives and has a follow-up left; False otherwise (nothing is sent)."""
        token = self._live(self._tokens.get(channel_id))
        if token is None or token.follow_ups >= FOLLOW_UP_LIMIT:
            return False
        token.follow_ups += 1
        try:
            await token.interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("Could not post in conversation %s: %s", channel_id, error)
            return False
        return True

    async def swap_ping(self, channel_id: int, user_id: int | None, text: str) -> None:
        """The conversation's one ping: a follow-up mentioning exactly `user_id` (None: nobody) while
        the freshest token has one left, then the previous ping deleted through the token that sent it.
        Without a token the board alone says whose turn it is."""
        previous = self._pings.pop(channel_id, None)
        token = self._live(self._tokens.get(channel_id))
        if user_id is not None and token is not None and token.follow_ups < FOLLOW_UP_LIMIT:
            only_them = discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False)
            token.follow_ups += 1
            sent = await token.interaction.followup.send(
                f"<@{user_id}> {text}", allowed_mentions=only_them, wait=True
            )
            self._pings[channel_id] = (token, sent.id)
        if previous is not None and self._live(previous[0]) is not None:
            await previous[0].interaction.followup.delete_message(previous[1])
