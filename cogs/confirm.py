"""A private "are you sure?" for destructive commands: only the member who asked can answer."""

from __future__ import annotations

from typing import Any

import discord

from bot.render.language import Translator


class Confirm(discord.ui.View):
    def __init__(self, owner_id: int, tr: Translator, *, label: str, timeout: float = 60) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.confirmed: bool | None = None
        self.interaction: discord.Interaction | None = None
        self.confirm.label = label
        self.cancel.label = tr.text("Cancel")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return interaction.user.id == self.owner_id

    @discord.ui.button(style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.confirmed, self.interaction = True, interaction
        self.stop()

    @discord.ui.button(style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.confirmed, self.interaction = False, interaction
        self.stop()


async def ask_to_confirm(
    interaction: discord.Interaction, tr: Translator, label: str, warning: str
) -> discord.Interaction | None:
    """Ask privately, in the member's language; the confirming press (to answer) or None when cancelled
    or ignored."""
    view = Confirm(interaction.user.id, tr, label=label)
    await interaction.response.send_message(warning, view=view, ephemeral=True)
    await view.wait()
    if view.confirmed:
        return view.interaction
    if view.interaction is not None:
        await view.interaction.response.edit_message(
            content=tr.text("Cancelled: nothing changed."), view=None
        )
    return None
