"""Telegram at start-up: a refused token or an unreachable Bot API is one clear line, not a traceback.

Once running, PTB retries by itself: the polling loop retries every failed getUpdates for ever (at once
after a timeout, else after 1 s growing by half up to 30 s), and `BOOTSTRAP_RETRIES` covers the set-up
calls (deleteWebhook / setWebhook) that run_polling and run_webhook make after getMe.
"""

from __future__ import annotations

from typing import Any

from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application

from bot.runtime.errors import StartupError
from bot.settings import Settings

#: Retries of run_polling's / run_webhook's set-up calls; getMe has just shown the API answers.
BOOTSTRAP_RETRIES = 5


async def check_telegram(application: Application[Any, Any, Any, Any, Any, Any], settings: Settings) -> None:
    """Initialize `application` (getMe); StartupError if the token is refused or the API does not answer."""
    where = settings.bot_api_url or "api.telegram.org"
    try:
        await application.initialize()
    except InvalidToken:
        # PTB's message quotes the token; this one must not.
        await application.bot.shutdown()
        raise StartupError(
            f"the Bot API at {where} refused BOT_TOKEN: copy the token from @BotFather again"
        ) from None
    except TelegramError as error:  # NetworkError, TimedOut, a server error
        await application.bot.shutdown()
        reason = " ".join(str(error).split()) or type(error).__name__
        raise StartupError(f"the Bot API at {where} did not answer getMe: {reason}") from None
