"""Logging set-up that can never print the bot token or an interaction's token.

An interaction token lets anyone answer or edit that interaction for 15 minutes, and discord.py's DEBUG
logs carry them in webhook URLs (`/webhooks/<app id>/<token>`, `/interactions/<id>/<token>`) and in
gateway payloads (`'token': '...'`).
"""

from __future__ import annotations

import logging
import re

REDACTED = "[token]"
_INTERACTION_TOKENS = (
    re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?'\"]+"),
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
)


class RedactFilter(logging.Filter):
    """Replaces the bot token and interaction tokens wherever they would appear in a formatted record."""

    def __init__(self, secret: str = "") -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = message.replace(self._secret, REDACTED) if self._secret else message
        for pattern in _INTERACTION_TOKENS:
            redacted = pattern.sub(rf"\g<1>{REDACTED}", redacted)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def setup_logging(level: str, secret: str = "") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(secret))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # Alembic narrates every migration step at INFO; the bot logs which revisions it applied instead.
    logging.getLogger("alembic").setLevel(level.upper() if level.upper() == "DEBUG" else logging.WARNING)
