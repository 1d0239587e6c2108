"""Logging set-up that can never print the bot token."""

from __future__ import annotations

import logging


class RedactFilter(logging.Filter):
    """Replaces a secret wherever it would appear in a formatted record."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self._secret and self._secret in record.getMessage():
            record.msg = record.getMessage().replace(self._secret, "[token]")
            record.args = None
        return True


def setup_logging(level: str, secret: str = "") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    if secret:
        handler.addFilter(RedactFilter(secret))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
