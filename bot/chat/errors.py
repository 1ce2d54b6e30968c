"""The error handler: log the failure, tell the person briefly, in a language Redis is not needed for.

A move is stored whole or not at all, so nothing is half-changed; a picture that failed to update is
brought up to date by the next press or tick. A press has been answered by `answers.pressed`
already; a command gets a short reply here.
"""

from __future__ import annotations

import logging

from redis.exceptions import RedisError
from telegram import Update
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.chat.answers import TROUBLE
from bot.chat.context import telegram_lang
from bot.chat.duplicates import note_failure
from bot.runtime.redis import OUTAGE
from i18n import N_, t

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    # The bot was removed from the chat, or blocked: an everyday refusal, and a reply would get it too.
    refused = isinstance(context.error, Forbidden)
    if isinstance(context.error, OUTAGE):
        log.warning("update failed: Redis is unreachable (%s)", context.error)
    elif refused:
        log.warning("update failed: Telegram refused the bot (%s)", context.error)
    else:
        log.error("update failed", exc_info=context.error)
    note_failure(update, context)
    if refused or not isinstance(update, Update) or update.effective_user is None:
        return
    if update.callback_query is not None:
        return  # answered already, as every press is (`answers.pressed`)
    message = (
        TROUBLE if isinstance(context.error, RedisError) else N_("Something went wrong. Please try again.")
    )
    if update.effective_message is None:
        return
    try:
        await update.effective_message.reply_text(t(telegram_lang(context, update.effective_user), message))
    except TelegramError:  # the error may be Telegram itself being unreachable
        log.warning("could not report the error to the user", exc_info=True)
