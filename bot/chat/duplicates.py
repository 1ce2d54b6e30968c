"""Drops an update delivered twice (a load balancer's retry sends it to a second worker).

The first worker to see an update marks it in Redis for a short while, and for an hour once it is
handled; a second delivery meanwhile is dropped silently. A crash mid-update leaves only the short
mark, so Telegram's own redelivery after a restart is handled. Handling stays correct without this
(every change is compare-and-set, every coin movement idempotent); this spares the loser's noise.
"""

from __future__ import annotations

import contextlib
from typing import Final

from redis.exceptions import RedisError
from telegram import Update
from telegram.ext import Application, ApplicationHandlerStop, ContextTypes, TypeHandler

from bot import keys
from bot.chat.context import services

#: Seconds an update is held by the worker handling it, and remembered once handled.
HANDLING_SECONDS: Final = 10
HANDLED_SECONDS: Final = 3600


async def _claim(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    try:
        first = await services(context).redis.set(
            keys.update_mark(update.update_id), "1", nx=True, ex=HANDLING_SECONDS
        )
    except RedisError:
        return  # cannot tell: handle it (and report the outage there)
    if not first:
        raise ApplicationHandlerStop


async def _handled(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    with contextlib.suppress(RedisError):  # the short mark will do
        await services(context).redis.set(keys.update_mark(update.update_id), "2", ex=HANDLED_SECONDS)


def add_duplicate_filter(application: Application) -> None:  # type: ignore[type-arg]
    application.add_handler(TypeHandler(Update, _claim), group=-1)
    application.add_handler(TypeHandler(Update, _handled), group=1)
