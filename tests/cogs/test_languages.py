"""A server that plays in German, French, Spanish or Brazilian Portuguese, and members who read in their
own language: public messages follow the server's `language` setting (else its locale), private answers
follow each member's Discord client."""

from __future__ import annotations

from dataclasses import dataclass

import discord
import pytest
import simcord

from tests.cogs.conftest import Dice, Table
from tests.cogs.play import (
    FARKLE,
    ROLL_OFF,
    SIX_ONES,
    act,
    assert_within_discord_limits,
    big_turn,
    board_message,
    fields,
    keep_all,
    labels,
    parts,
    press,
    refused,
    title,
)
from tests.cogs.play import (
    texts as card_texts,
)


@dataclass(frozen=True)
class Words:
    """Words a player of that language reads where an English player reads the English ones."""

    saved: str  # "✅ Saved"
    players: str  # "Players (2/8)"
    join: str
    standings: str
    bank: str  # the Bank button, with the points of six 1s
    winner: str  # "🏆 ana wins!"
    final_standings: str
    total: str  # 10,000 as the results write it
    rematch: str
    wins: str  # the leaderboard by wins
    scoring: str  # the rules' first section
    your_turn: str  # the turn ping


NNBSP = "\u202f"  # French groups digits with a narrow no-break space
WORDS = {
    "de": Words(
        "✅ Gespeichert", "Spieler (", "Beitreten", "Spielstand", "2.000 sichern", "🏆 ana gewinnt!",
        "Endstand", "10.000", "Revanche", "Siege", "Wertung", "🎲 du bist dran!",
    ),
    "fr": Words(
        "✅ Enregistré", "Joueurs (", "Rejoindre", "Classement", f"Encaisser 2{NNBSP}000", "🏆 ana gagne !",
        "Classement final", f"10{NNBSP}000", "Revanche", "Victoires", "Points", "🎲 c’est ton tour !",
    ),
    "es": Words(
        "✅ Guardado", "Jugadores (", "Unirse", "Clasificación", "Plantarse con 2.000", "🏆 ¡ana gana!",
        "Clasificación final", "10.000", "Revancha", "Victorias", "Puntuación", "🎲 ¡te toca!",
    ),
    "pt-BR": Words(
        "✅ Salvo", "Jogadores (", "Entrar", "Placar", "Guardar 2.000", "🏆 ana vence!",
        "Classificação final", "10.000", "Revanche", "Vitórias", "Pontuação", "🎲 é a sua vez!",
    ),
}  # fmt: skip

# English a translated board must never show: sentences and labels from every stage of a game.
ENGLISH = (
    "turn total", "Standings", "Final standings", "Set aside this turn", "Next roll", "Press **Join**",
    "Rematch", "wins!", "Single 1:", "get on the board", "banked", "Players (", "Leave", "Roll ", "Hint",
    "it's your turn", "Latest", "farkled", "rules ·", "No piggybacking", "Nobody yet", "Set aside",
    "Bank all", "Hot dice", "hot dice", "best turn", "Farkle chance", "custom",
)  # fmt: skip


def texts(message: discord.Message) -> list[str]:
    """Everything a player reads on a message: content, embeds and button labels."""
    found = [message.content]
    for embed in message.embeds:
        found += [embed.title or "", embed.description or "", embed.footer.text or ""]
        found += [text for field in embed.fields for text in (field.name or "", field.value or "")]
    found += card_texts(message)
    found += [item.label or "" for item in parts(message) if isinstance(item, discord.Button)]
    return found


def assert_no_english(message: discord.Message) -> None:
    shown = "\n".join(texts(message))
    assert not [sentence for sentence in ENGLISH if sentence in shown], shown


@pytest.mark.parametrize("language", sorted(WORDS))
async def test_a_whole_game_in_the_servers_language(
    table: Table, admin: simcord.MemberActor, dice: Dice, locales: dict[int, str], language: str
) -> None:
    words, channel = WORDS[language], table.channel
    for member in (table.ana, table.ben, admin):
        locales[member.id] = language  # the private answers (config, rules) follow each member too
    answer = await admin.slash(channel, "farkle-config set", option="language", value=language)
    assert answer.response is not None and answer.response.embeds[0].title == words.saved
    dice.script(ROLL_OFF, *[SIX_ONES] * 5, FARKLE)

    await table.ana.slash(channel, "farkle new", rules="classic")
    lobby = board_message(channel)
    assert any(name.startswith(words.players) for name in fields(lobby))
    assert labels(lobby)["join"] == words.join
    await act(table.ben, channel, "join")
    await act(table.ana, channel, "start")
    board = board_message(channel)
    assert words.standings in fields(board)
    await act(table.ana, channel, "roll")
    hint = await press(table.ana, channel, "hint")
    assert hint.ephemeral and hint.response is not None and hint.response.content.startswith("💡")
    assert_within_discord_limits(hint.response)
    assert_no_english(hint.response)
    for position in range(3):  # three 1s chosen: the board says what Roll and Bank would do
        await act(table.ana, channel, f"die:{position}")
    assert_no_english(board_message(channel))
    for position in range(3, 6):
        await act(table.ana, channel, f"die:{position}")
    assert labels(board_message(channel))["bank"] == words.bank
    await act(table.ana, channel, "roll")  # hot dice: six fresh ones
    await keep_all(table.ana, channel)
    await big_turn(table.ana, channel, 3)  # three more hot-dice rolls of six 1s, then Bank
    await act(table.ben, channel, "roll")  # the last turn Farkles

    results = board_message(channel)
    assert title(results) == words.winner
    standings = fields(results)[words.final_standings]
    assert f"ana · {words.total}" in (standings or "")
    assert labels(results)["rematch"] == words.rematch
    rules = await table.ana.slash(channel, "farkle rules")
    assert rules.ephemeral and rules.response is not None
    assert rules.response.embeds[0].fields[0].name == words.scoring
    posted = [(r.json or {}).get("content") or "" for r in table.env.http_requests if r.method == "POST"]
    assert any(words.your_turn in content for content in posted), "pinged (the ping went with the turn)"
    leaderboard = await table.ben.slash(channel, "farkle leaderboard", metric="wins")
    assert not leaderboard.ephemeral, "posted for the channel: in the server's language"
    assert leaderboard.response is not None
    assert (leaderboard.response.embeds[0].title or "").endswith(f" · {words.wins}")
    for message in [*channel.history(), rules.response]:
        assert_within_discord_limits(message)
        assert_no_english(message)
    assert dice.unused == 0


async def test_private_refusals_follow_each_members_client(
    table: Table, dice: Dice, locales: dict[int, str]
) -> None:
    locales[table.ben.id], locales[table.cy.id] = "de", "pt-BR"
    dice.script((6, 2, 3))  # ana starts
    await table.ana.slash(table.channel, "farkle new")
    await act(table.ben, table.channel, "join")
    await act(table.cy, table.channel, "join")
    await act(table.ana, table.channel, "start")
    assert await refused(table.ben, table.channel, "roll") == "ana ist am Zug."
    assert await refused(table.cy, table.channel, "roll") == "É a vez de ana."
    assert labels(board_message(table.channel))["roll"] == "Roll 6 dice · 3.1% Farkle", (
        "the board stays in the server's language"
    )
    assert (await table.ana.slash(table.channel, "farkle new")).response.content == (  # type: ignore[union-attr]
        "There is already a Farkle game in this channel."
    )
    help_answer = await table.ben.slash(table.channel, "farkle help")
    assert help_answer.response is not None and help_answer.response.embeds[0].title == "So spielt man Farkle"


async def test_auto_follows_the_servers_own_locale(env: simcord.Env, locales: dict[int, str]) -> None:
    guild = env.create_guild(preferred_locale="es-ES")
    channel = guild.create_text_channel("partidas")
    host = guild.add_member(env.create_user("ana"))
    await host.slash(channel, "farkle new")
    assert labels(board_message(channel))["join"] == "Unirse", "no language set: the server's locale"
    await act(host, channel, "cpu:easy")
    lobby = board_message(channel)
    assert "• Ordenador 1 (fácil)" in "\n".join(fields(lobby).values()), "computers are named in Spanish too"


async def test_the_language_setting_is_autocompleted_checked_and_shown(
    table: Table, admin: simcord.MemberActor, locales: dict[int, str]
) -> None:
    options = await admin.autocomplete(table.channel, "farkle-config set", "option", "lang")
    assert [choice["value"] for choice in options] == ["language"]
    values = await admin.autocomplete(table.channel, "farkle-config set", "value", "", option="language")
    assert [choice["value"] for choice in values] == ["auto", "en", "de", "fr", "es", "pt-BR"]
    wrong = await admin.slash(table.channel, "farkle-config set", option="language", value="klingon")
    assert wrong.response is not None
    assert wrong.response.content == "language takes auto, en, de, fr, es or pt-BR."
    locales[admin.id] = "fr"
    wrong = await admin.slash(table.channel, "farkle-config set", option="language", value="klingon")
    assert wrong.response is not None
    assert wrong.response.content == "language accepte auto, en, de, fr, es ou pt-BR."
    await admin.slash(table.channel, "farkle-config set", option="language", value="PT-br")
    shown = await admin.slash(table.channel, "farkle-config show")
    assert shown.response is not None
    settings = next(f.value for f in shown.response.embeds[0].fields if f.name == "Réglages du serveur")
    assert "• language: pt-BR" in (settings or "")
    back = await admin.slash(table.channel, "farkle-config set", option="language", value="auto")
    assert back.response is not None and "language: pt-BR → auto" in (
        back.response.embeds[0].description or ""
    )


# The answer to /farkle-config target 10,000 → 1,000 for a member reading each language, then to 1,000 again.
CONFIG_NUMBERS = {
    "en-US": ("target: 10,000 → 1,000", "target is already 1,000."),
    "de": ("target: 10.000 → 1.000", "target ist bereits 1.000."),
    "fr": (f"target: 10{NNBSP}000 → 1{NNBSP}000", f"target vaut déjà 1{NNBSP}000."),
    "es-ES": ("target: 10.000 → 1.000", "target ya es 1.000."),
    "pt-BR": ("target: 10.000 → 1.000", "target já é 1.000."),
}


@pytest.mark.parametrize("locale", sorted(CONFIG_NUMBERS))
async def test_config_answers_write_numbers_in_the_admins_language(
    table: Table, admin: simcord.MemberActor, locales: dict[int, str], locale: str
) -> None:
    locales[admin.id] = locale
    changed, unchanged = CONFIG_NUMBERS[locale]
    answer = await admin.slash(table.channel, "farkle-config set", option="target", value="1000")
    assert answer.response is not None
    assert (answer.response.embeds[0].description or "").splitlines()[0] == changed
    again = await admin.slash(table.channel, "farkle-config set", option="target", value="1000")
    assert again.response is not None and again.response.embeds[0].description == unchanged
    history = await admin.slash(table.channel, "farkle-config history")
    assert history.response is not None
    assert (history.response.embeds[0].description or "").endswith(f"**ada** · {changed}")
