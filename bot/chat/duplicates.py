"""Drops an update delivered again after it was handled (a load balancer's retry, Telegram's own).

An update is marked in Redis once it is handled; a later delivery is dropped silently. Two
deliveries at the same moment are both handled: every change is compare-and-set and every coin
movement idempotent, so the second one changes nothing, and its refused answer is not an error.
An update that failed is not marked, so a redelivery after a crash is handled in full.
"""

from __future__ import annotations

import contextlib
from typing import Final

from redis.exceptions import RedisError
from telegram import Update
from telegram.ext import Application, ApplicationHandlerStop, ContextTypes, TypeHandler

from bot import keys
from bot.chat.context import services

#: Seconds a handled update is remembered: longer than any redelivery.
HANDLED_SECONDS: Final = 3600
#: Update ids that failed in this process, so that they are not marked handled.
FAILED: Final = "failed updates"


async def _drop_handled(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    try:
        handled = await services(context).redis.exists(keys.update_mark(update.update_id))
    except RedisError:
        return  # cannot tell: handle it (and report the outage there)
    if handled:
        raise ApplicationHandlerStop


async def _mark_handled(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    failed: set[int] = context.bot_data.setdefault(FAILED, set())
    if update.update_id in failed:
        failed.discard(update.update_id)
        return
    with contextlib.suppress(RedisError):  # a redelivery would be handled again: harmless
        await services(context).redis.set(keys.update_mark(update.update_id), "1", ex=HANDLED_SECONDS)


def note_failure(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    if isinstance(update, Update):
        context.bot_data.setdefault(FAILED, set()).add(update.update_id)


def add_duplicate_filter(application: Application) -> None:  # type: ignore[type-arg]
    application.add_handler(TypeHandler(Update, _drop_handled), group=-1)
    application.add_handler(TypeHandler(Update, _mark_handled), group=1)
