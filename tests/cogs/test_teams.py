"""Team Farkle set up by an admin: team buttons in the lobby, shared banks on the board."""

import discord
import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    SIX_ONES,
    act,
    board_message,
    description,
    field,
    keep_all,
    labels,
    refused,
)


async def test_two_teams_join_by_button_and_share_their_bank(table: Table, dice: Dice) -> None:
    env, channel, ana, ben, cy = table.env, table.channel, table.ana, table.ben, table.cy
    admins = table.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin: simcord.MemberActor = table.guild.add_member(env.create_user("ada"), roles=[admins])
    result = await admin.slash(channel, "farkle-config set", option="teams", value="2")
    assert result.response is not None and result.response.embeds[0].title == "✅ Saved"

    dice.script((6, 2), SIX_ONES, FARKLE)  # one die per team in the roll-off: Red starts
    await ana.slash(channel, "farkle new")
    lobby = board_message(channel)
    assert {"team:1": "Join Red", "team:2": "Join Blue"}.items() <= labels(lobby).items()
    assert "join" not in labels(lobby), "team games are joined by picking a team"
    await act(ana, channel, "team:1")
    await act(ben, channel, "team:2")
    await act(cy, channel, "team:1")
    players = field(board_message(channel), "Players (3/8)")
    assert "ana · Red team" in players and "ben · Blue team" in players and "cy · Red team" in players
    await act(ana, channel, "start")

    board = board_message(channel)
    assert "ana's turn" in description(board)
    await act(ana, channel, "roll")
    await keep_all(ana, channel)
    await act(ana, channel, "bank")
    banks = field(board_message(channel), "Team banks")
    assert "**Red**: 2,000" in banks and "**Blue**: 0" in banks  # classic scores six 1s as two triples
    assert await refused(cy, channel, "roll") == "It's ben's turn."  # teams alternate
    await act(ben, channel, "roll")  # Blue farkles
    assert "cy's turn" in description(board_message(channel)), "Red's next member plays"
