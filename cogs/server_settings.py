"""`/farkle-config`: server admins choose the house rules and table settings that new games start with.

Its own top-level command because Discord applies default member permissions per top-level command:
that is what hides it from members without Manage Server. Server owners can override command
permissions, so the permission is checked again on every use.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.app.errors import reply_ephemeral
from bot.engine import PRESET_NAMES, UserFacingError
from bot.render.choices import matching
from bot.render.server_settings import change_embed, config_embed, history_embed
from bot.render.words import clip
from bot.services.i18n import for_member
from bot.services.server_settings import (
    Change,
    Editor,
    option_allowed,
    option_choices,
    option_description,
    option_names,
)
from cogs.confirm import ask_to_confirm

if TYPE_CHECKING:
    from bot.app.client import FarkleBot

Choices = list[app_commands.Choice[str]]

# Autocomplete skips the cog's permission check: without this, option and saved names leak to anyone.
admins_only = app_commands.checks.has_permissions(manage_guild=True)


def _editor(interaction: discord.Interaction) -> Editor:
    return Editor(interaction.user.id, interaction.user.display_name)


@app_commands.guild_only()
@app_commands.allowed_installs(
    guilds=True, users=False
)  # a server's settings: only where it installed the app
@app_commands.default_permissions(manage_guild=True)
class Config(
    commands.GroupCog,
    group_name="farkle-config",
    group_description=locale_str("Choose this server's Farkle rules"),
):
    def __init__(self, bot: FarkleBot) -> None:
        self.bot = bot
        self.config = bot.services.config

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])  # answered privately by the tree
        return True

    async def _answer(self, interaction: discord.Interaction, change: Awaitable[Change]) -> None:
        """A change privately: what moved, or the refusal (a `UserFacingError`) in its own words."""
        tr = for_member(interaction)
        try:
            done = await change
        except UserFacingError as error:
            await reply_ephemeral(interaction, tr.say(error.message))
            return
        await interaction.response.send_message(embed=change_embed(done, tr), ephemeral=True)

    @app_commands.command(description=locale_str("This server's Farkle rules and settings"))
    async def show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        config = await self.config.get(interaction.guild_id)
        saved = list(await self.config.named(interaction.guild_id))
        embed = config_embed(config, saved, for_member(interaction))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description=locale_str("Start from one of the preset rulesets"))
    @app_commands.describe(name=locale_str("The preset"))
    @app_commands.choices(name=[app_commands.Choice(name=n, value=n) for n in PRESET_NAMES])
    async def preset(self, interaction: discord.Interaction, name: str) -> None:
        assert interaction.guild_id is not None
        await self._answer(
            interaction, self.config.use_preset(interaction.guild_id, _editor(interaction), name)
        )

    @app_commands.command(description=locale_str("Change one rule or server setting"))
    @app_commands.describe(option=locale_str("The rule or setting"), value=locale_str("Its new value"))
    async def set(self, interaction: discord.Interaction, option: str, value: str) -> None:
        assert interaction.guild_id is not None
        change = self.config.set_option(interaction.guild_id, _editor(interaction), option, value)
        await self._answer(interaction, change)

    @set.autocomplete("option")
    @admins_only
    async def _option_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        typed = current.strip().lower().replace("-", "_").replace(" ", "_")
        tr = for_member(interaction)
        return [
            app_commands.Choice(name=clip(f"{name} · {tr.term(option_description(name))}", 100), value=name)
            for name in option_names()
            if typed in name
        ][:25]

    @set.autocomplete("value")
    @admins_only
    async def _value_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        option = str(getattr(interaction.namespace, "option", "") or "")
        matches = matching(option_choices(option), current)
        typed, allowed = current.strip(), for_member(interaction).say(option_allowed(option))
        if typed and allowed and all(choice.value != typed for choice in matches):
            matches.insert(0, app_commands.Choice(name=clip(f"{typed} ({allowed})", 100), value=typed[:100]))
        return matches[:25]

    @app_commands.command(description=locale_str("Put every rule and setting back to the bot's defaults"))
    async def reset(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        tr = for_member(interaction)
        confirming = await ask_to_confirm(
            interaction,
            tr,
            tr.text("Reset"),
            tr.text(
                "Reset this server's Farkle rules and settings to the defaults? Saved rulesets are kept."
            ),
        )
        if confirming is not None:
            change = await self.config.reset(interaction.guild_id, _editor(interaction))
            await confirming.response.edit_message(content=None, embed=change_embed(change, tr), view=None)

    @app_commands.command(
        description=locale_str("Keep the current rules under a name, for /farkle new rules:")
    )
    @app_commands.describe(name=locale_str("A short name, like friday-night (an existing one is replaced)"))
    async def save(self, interaction: discord.Interaction, name: str) -> None:
        assert interaction.guild_id is not None
        await self._answer(
            interaction, self.config.save_named(interaction.guild_id, _editor(interaction), name)
        )

    @app_commands.command(description=locale_str("Forget a saved ruleset"))
    @app_commands.describe(name=locale_str("The saved ruleset"))
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        assert interaction.guild_id is not None
        change = self.config.delete_named(interaction.guild_id, _editor(interaction), name)
        await self._answer(interaction, change)

    @app_commands.command(description=locale_str("Make a preset or saved ruleset this server's rules"))
    @app_commands.describe(name=locale_str("A preset or saved ruleset"))
    async def default(self, interaction: discord.Interaction, name: str) -> None:
        assert interaction.guild_id is not None
        change = self.config.make_default(interaction.guild_id, _editor(interaction), name)
        await self._answer(interaction, change)

    @save.autocomplete("name")
    @delete.autocomplete("name")
    @admins_only
    async def _saved_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        assert interaction.guild_id is not None
        return matching(await self.config.named(interaction.guild_id), current)

    @default.autocomplete("name")
    @admins_only
    async def _rules_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        assert interaction.guild_id is not None
        return matching(await self.config.rules_names(interaction.guild_id), current)

    @app_commands.command(description=locale_str("Who changed which setting, and when"))
    async def history(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        entries = await self.config.history(interaction.guild_id)
        embed = history_embed(entries, for_member(interaction))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: FarkleBot) -> None:
    await bot.add_cog(Config(bot))
