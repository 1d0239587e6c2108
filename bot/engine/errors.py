"""The one error type whose message is shown to people as it is."""

from __future__ import annotations

from bot.engine.messages import Message


class UserFacingError(ValueError):
    """A refusal carrying the `Message` written for the person who pressed or typed.

    Raised by the engine (`IllegalAction`, `RulesError`) and the config service; the bot's single error
    handler (`bot.app.errors.explain`) answers it privately, in that person's language. `str(error)` is the
    English sentence, for logs.
    """

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message
