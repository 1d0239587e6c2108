"""The README stays a first read, and the operator's reference (docs/CONFIGURATION.md, linked from it)
lists every rule option, server setting and `/farkle-config` command the code accepts, and nothing else:
it cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.server_settings import SETTINGS
from bot.engine import OPTIONS
from cogs.server_settings import Config

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
CONFIGURATION = (ROOT / "docs" / "CONFIGURATION.md").read_text()
REFERENCE = CONFIGURATION.split("## Server rules: the `/farkle-config` reference", 1)[1].split("\n## ", 1)[0]


def test_the_readme_is_a_first_read() -> None:
    assert len(README.splitlines()) < 400
    assert len(README.encode()) < 25 * 1024


def test_the_readme_links_the_reference() -> None:
    assert "(docs/CONFIGURATION.md)" in README


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_rule_option_is_documented_with_its_values(name: str) -> None:
    option = OPTIONS[name]
    assert f"| `{name}` | {option.group} | {option.description} | {option.allowed} |" in REFERENCE


@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_server_setting_is_documented_with_its_values(name: str) -> None:
    setting = SETTINGS[name]
    assert f"| `{name}` | {setting.description} | {setting.allowed} |" in REFERENCE


def test_the_reference_documents_no_option_the_code_lacks() -> None:
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", REFERENCE, flags=re.MULTILINE))
    assert documented == {*OPTIONS, *SETTINGS}


def test_every_farkle_config_command_is_in_the_reference() -> None:
    documented = set(re.findall(r"`/farkle-config ([a-z-]+)", REFERENCE))
    assert documented == {command.name for command in Config.__cog_app_commands__}
