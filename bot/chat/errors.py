"""The error handler: log the failure, tell the person briefly, in a language Redis is not needed for.

A move is stored whole or not at all, so nothing is half-changed; a picture that failed to update is
brought up to date by the next press or tick. A press has been answered by `answers.pressed`
already; a command gets a short reply here, which in a group goes after a minute.
"""

from __future__ import annotations

import contextlib
import logging

from redis.exceptions import RedisError
from telegram import Message, Update
from telegram.error import BadRequest, Forbidden, NetworkError, TelegramError
from telegram.ext import ContextTypes

from bot.chat.actions import PASSING_SECONDS
from bot.chat.answers import TROUBLE
from bot.chat.context import is_group, services, telegram_lang, user_lang
from bot.chat.duplicates import note_failure
from bot.runtime.redis import OUTAGE
from bot.tables.refusals import may_not_post
from i18n import N_, t

log = logging.getLogger(__name__)

#: Told privately to whoever spoke to the bot in a group (or topic) where it may not post: nothing
#: said there reaches it.
MAY_NOT_WRITE = N_(
    "I may not write in “{chat}”, so I could not answer you there. An admin can let me send messages "
    "and photos, or make me an admin."
)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    # The bot was removed from the chat, or blocked: an everyday refusal, and a reply would get it too.
    refused = isinstance(context.error, Forbidden)
    muted = _muted_group(update, context.error)
    if isinstance(context.error, OUTAGE):
        log.warning("update failed: Redis is unreachable (%s)", context.error)
    elif refused or muted:
        log.warning("update failed: Telegram refused the bot (%s)", context.error)
    elif isinstance(context.error, NetworkError) and not isinstance(context.error, BadRequest):
        # Telegram slow or out of reach for a moment (a timeout, a gateway): the next press or tick
        # shows what was stored, so a line says it, not a traceback.
        log.warning("update failed: Telegram did not answer (%s)", context.error)
    else:
        log.error("update failed", exc_info=context.error)
    note_failure(update, context)
    if refused or not isinstance(update, Update) or update.effective_user is None:
        return
    if muted and update.callback_query is None:
        await _tell_privately(update, context)
        return
    if update.callback_query is not None:
        return  # answered already, as every press is (`answers.pressed`)
    message = (
        TROUBLE if isinstance(context.error, RedisError) else N_("Something went wrong. Please try again.")
    )
    if update.effective_message is None:
        return
    try:
        sent = await update.effective_message.reply_text(
            t(telegram_lang(context, update.effective_user), message)
        )
    except TelegramError as error:  # the error may be Telegram itself being unreachable
        log.warning("could not report the error to the user: %s", error)
        return
    if is_group(sent.chat):
        await _delete_in_passing(context, sent)


def _muted_group(update: object, error: Exception | None) -> bool:
    """Whether `error` is a group's refusal to let the bot post there (or in the topic)."""
    return (
        isinstance(update, Update)
        and update.effective_chat is not None
        and is_group(update.effective_chat)
        and may_not_post(error)
    )


async def _tell_privately(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A command (or the bot's arrival) in a group that keeps the bot from writing: the person who
    spoke is told privately, if they ever opened the bot, instead of hearing nothing."""
    assert update.effective_user is not None and update.effective_chat is not None
    try:
        lang = await user_lang(context, update.effective_user)
    except RedisError:
        lang = telegram_lang(context, update.effective_user)
    text = t(lang, MAY_NOT_WRITE, chat=update.effective_chat.title or "")
    try:
        await context.bot.send_message(update.effective_user.id, text)
    except TelegramError as error:  # most often they never opened the bot
        log.info("could not tell user %s privately: %s", update.effective_user.id, error)


async def _delete_in_passing(context: ContextTypes.DEFAULT_TYPE, sent: Message) -> None:
    """An apology in a group goes after `PASSING_SECONDS`, as every passing answer there does. With
    Redis away (most often why the update failed) the job cannot be stored, so this worker's own job
    queue deletes it: a crash within that minute leaves one apology in the chat, nothing worse."""
    try:
        await services(context).tables.publisher.delete_later(sent.chat_id, sent.message_id, PASSING_SECONDS)
    except RedisError:
        if context.job_queue is not None:
            context.job_queue.run_once(_delete_now, PASSING_SECONDS, data=(sent.chat_id, sent.message_id))


async def _delete_now(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None and isinstance(context.job.data, tuple)
    chat_id, message_id = context.job.data
    with contextlib.suppress(TelegramError):  # already gone, or the bot was removed meanwhile
        await context.bot.delete_message(int(chat_id), int(message_id))
