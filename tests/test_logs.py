import logging

import pytest

from bot.logs import setup_logging

TOKEN = "MTA" + "x" * 21 + ".GAbcde." + "y" * 30


def test_the_token_never_reaches_the_log_output(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    setup_logging("INFO", secret=TOKEN)
    try:
        logging.getLogger("discord.http").info("login with %s failed", TOKEN)
        logging.getLogger("bot").warning(f"header Authorization: Bot {TOKEN}")
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
    output = capsys.readouterr().err
    assert TOKEN not in output
    assert output.count("[token]") == 2
