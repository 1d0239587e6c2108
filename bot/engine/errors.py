"""The one error type whose message is shown to people as it is."""


class UserFacingError(ValueError):
    """A refusal whose message is a sentence written for the person who pressed or typed.

    Raised by the engine (`IllegalAction`, `RulesError`) and the config service; the bot's single error
    handler (`bot.errors.explain`) answers it privately, word for word.
    """
