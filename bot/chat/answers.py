"""Every button press is answered, at once, whatever fails behind it.

A press is answered as soon as it is judged (an alert for a refusal, nothing for an accepted move),
before any computer thinks or any picture is drawn. `pressed` wraps each press handler: a handler
that raises still answers, a failure of Redis or of anything else answers with a short apology in
the language Telegram gives (Redis may be what failed), and a watchdog answers a press that nothing
answered within `WATCHDOG_SECONDS` (a hung server, a busy machine), so nobody is left looking at a
spinner. The watchdog cannot know how the press will end (a slow move is often stored a moment later),
so it says only that the bot is slow, in a toast, not that the press failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

from redis.exceptions import RedisError
from telegram import CallbackQuery, Update
from telegram.error import BadRequest, NetworkError, TelegramError
from telegram.ext import ContextTypes

from bot.chat.callback import BadCallback, Callback, decode
from bot.chat.context import telegram_lang, user_lang
from bot.chat.lengths import MAX_ANSWER, clipped
from bot.tables.lifecycle import Refusal
from bot.tables.store import VersionConflict
from i18n import N_, t

log = logging.getLogger(__name__)

#: A press not answered by then hears that the bot is slow (Telegram shows a spinner until it is answered).
WATCHDOG_SECONDS: Final = 0.8
#: Tries of a press's answer that Telegram did not take in time (a second one finds it answered, if
#: the first got through after all: a refusal, logged).
ANSWER_ATTEMPTS: Final = 2
TROUBLE: Final = N_("The bot is having trouble, try again in a minute.")
SLOW: Final = N_("⏳ The bot is slow to answer: if nothing changes, press again.")


class Notice(Exception):
    """Not an error: a short private answer to a press (an alert only the presser sees)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Answer:
    """Answers one callback query once; later calls do nothing."""

    def __init__(self, query: CallbackQuery, slow: str) -> None:
        self.query = query
        self.done = False
        self._watchdog = asyncio.get_running_loop().call_later(
            WATCHDOG_SECONDS, lambda: asyncio.ensure_future(self(slow))
        )

    async def __call__(self, text: str | None = None, *, alert: bool = False) -> None:
        if self.done:
            return
        self.done = True
        self._watchdog.cancel()
        shown = clipped(text, MAX_ANSWER) if text else None
        for attempt in range(ANSWER_ATTEMPTS):
            try:
                await self.query.answer(shown, show_alert=alert and bool(text))
                return
            except BadRequest as error:  # answered elsewhere (a duplicate delivery), or too old
                log.info("could not answer a press: %s", error)
                return
            except NetworkError as error:
                # Telegram slow for a moment: once more, or the spinner waits for Telegram's own end.
                log.info("could not answer a press (try %d): %s", attempt + 1, error)
            except TelegramError as error:
                log.info("could not answer a press: %s", error)
                return


PressHandler = Callable[[Update, ContextTypes.DEFAULT_TYPE, Callback, Answer], Awaitable[None]]


def pressed(
    handler: PressHandler,
) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    """A CallbackQueryHandler callback around `handler`, which answers refusals and failures."""

    async def run(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        lang = telegram_lang(context, query.from_user)
        answer = Answer(query, t(lang, SLOW))
        try:
            await handler(update, context, decode(query.data), answer)
        except BadCallback:
            await _refuse(context, query, answer, N_("This button is out of date."))
        except Notice as notice:
            await answer(notice.text, alert=True)
        except Refusal as refusal:
            await _refuse(context, query, answer, refusal.message, **refusal.values)
        except VersionConflict:
            await _refuse(context, query, answer, N_("Someone was faster. Look at the table again."))
        except Exception:
            # Redis down, Telegram failing, a bug: the person hears at once; the error handler logs.
            await answer(t(lang, TROUBLE), alert=True)
            raise
        finally:
            await answer()

    return run


async def _refuse(
    context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, answer: Answer, message: str, **values: object
) -> None:
    lang = telegram_lang(context, query.from_user)
    with contextlib.suppress(RedisError):
        lang = await user_lang(context, query.from_user)
    await answer(t(lang, message, **values), alert=True)
