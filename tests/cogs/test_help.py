"""`/farkle help` lists every slash command with the description the command itself declares: walking
the bot's command tree, nothing is missing from the card and no line says something else."""

from __future__ import annotations

import re

from discord import app_commands

from tests.cogs.conftest import Table
from tests.cogs.play import farkle

LINE = re.compile(r"^`/([a-z -]+)` (.+)$")


async def test_help_lists_every_command_of_the_tree_with_its_own_description(table: Table) -> None:
    tree = {
        command.qualified_name: command.description
        for command in farkle(table.env).tree.walk_commands()
        if isinstance(command, app_commands.Command)
    }
    assert len(tree) > 30 and "farkle tournament new" in tree and "farkle-config history" in tree
    result = await table.ana.slash(table.channel, "farkle help")
    assert result.ephemeral and result.response is not None
    lines = [line for field in result.response.embeds[0].fields for line in (field.value or "").splitlines()]
    shown = dict(match.groups() for line in lines if (match := LINE.match(line)))
    assert len(shown) == len([line for line in lines if line.startswith("`/")]), "one line per command"
    assert sorted(set(tree) - set(shown)) == [], "commands missing from help"
    assert {name: text for name, text in shown.items() if tree.get(name) != text} == {}, "help differs"
