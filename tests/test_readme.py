"""The operator's reference in the README lists every rule option and server setting the code accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import SETTINGS
from bot.engine import OPTIONS

README = (Path(__file__).parents[1] / "README.md").read_text()


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_rule_option_is_documented_with_its_values(name: str) -> None:
    option = OPTIONS[name]
    assert f"| `{name}` | {option.group} | {option.description} | {option.allowed} |" in README


@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_server_setting_is_documented_with_its_values(name: str) -> None:
    setting = SETTINGS[name]
    assert f"| `{name}` | {setting.description} | {setting.allowed} |" in README
