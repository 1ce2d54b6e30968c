"""Shows a table in its chat: sends the live message, or edits it in place.

Group edits are coalesced: a group gets at most `limit` edits per `window` seconds; an edit asked for
while the budget is spent is deferred, and when it runs it shows the table as it is *then*, so the
latest state always wins and intermediate states are skipped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from collections.abc import Callable

from telegram import Bot, InputMediaPhoto, Message
from telegram.error import BadRequest
from telegram.ext import ContextTypes, JobQueue

from bot.screens import Screen, animation_of, screen_of
from bot.store import TableStore, VersionConflict
from bot.table import Table

log = logging.getLogger(__name__)


class EditBudget:
    """A sliding window of edit times per chat."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._edits: defaultdict[int, deque[float]] = defaultdict(deque)

    def wait(self, chat_id: int) -> float:
        """Seconds until an edit is allowed; when 0, the edit is counted as made now."""
        now = self.clock()
        edits = self._edits[chat_id]
        while edits and edits[0] <= now - self.window:
            edits.popleft()
        if len(edits) < self.limit:
            edits.append(now)
            return 0.0
        return edits[0] + self.window - now


class Publisher:
    def __init__(
        self,
        bot: Bot,
        store: TableStore,
        job_queue: JobQueue[ContextTypes.DEFAULT_TYPE] | None,
        budget: EditBudget,
    ) -> None:
        self.bot = bot
        self.store = store
        self.job_queue = job_queue
        self.budget = budget
        #: Pause between the pictures of a reveal (Telegram allows about one edit a second per chat).
        self.frame_seconds = 1.0
        #: Table key -> the screen number already on display, to skip redundant deferred edits.
        self._shown: dict[str, int] = {}
        self._deferred: set[str] = set()

    async def show(self, table: Table) -> None:
        """Bring the chat's live message up to `table`: edit it, or send it when there is none."""
        if table.message_id is None:
            await self._send(table)
            return
        if table.chat_id < 0:
            delay = self.budget.wait(table.chat_id)
            if delay > 0:
                self._defer(table, delay)
                return
        await self._edit(table)

    async def _send(self, table: Table) -> None:
        screen = await asyncio.to_thread(screen_of, table)
        thread = table.topic or None
        message: Message
        if screen.photo is not None:
            message = await self.bot.send_photo(
                table.chat_id,
                screen.photo,
                caption=screen.text,
                reply_markup=screen.keyboard,
                message_thread_id=thread,
            )
        else:
            message = await self.bot.send_message(
                table.chat_id, screen.text, reply_markup=screen.keyboard, message_thread_id=thread
            )
        await self._remember_message(table, message.message_id, screen.photo is not None)
        self._shown[key_of(table)] = table.screen

    async def _remember_message(self, table: Table, message_id: int, is_photo: bool) -> None:
        """Store the live message id; other writes may race with this one, so retry on conflict."""
        current: Table | None = table
        while current is not None and current.id == table.id:
            try:
                await self.store.put(
                    current.model_copy(update={"message_id": message_id, "message_is_photo": is_photo}),
                    expected_version=current.version,
                )
                return
            except VersionConflict:
                current = await self.store.get(table.chat_id, table.topic)

    async def _edit(self, table: Table) -> None:
        if self._shown.get(key_of(table)) == table.screen:
            return
        screen = await asyncio.to_thread(screen_of, table)
        assert table.message_id is not None
        if screen.photo is not None and not table.message_is_photo:
            # A lobby (text) becomes a game (photo): Telegram cannot turn one into the other.
            await self.retire(table)
            await self._send(table)
            return
        if self._shown.get(key_of(table)) == table.screen - 1:
            await self._animate(table)
        try:
            await self._apply_edit(table, screen)
        except BadRequest as error:
            if "not modified" not in str(error).lower():
                raise
        self._shown[key_of(table)] = table.screen

    async def _animate(self, table: Table) -> None:
        """Play a reveal step by step, paced for Telegram's one message a second in a chat."""
        assert table.message_id is not None
        for picture in await asyncio.to_thread(animation_of, table):
            await self.bot.edit_message_media(
                InputMediaPhoto(picture, caption="…"), chat_id=table.chat_id, message_id=table.message_id
            )
            await asyncio.sleep(self.frame_seconds)

    async def _apply_edit(self, table: Table, screen: Screen) -> None:
        assert table.message_id is not None
        if screen.photo is not None:
            await self.bot.edit_message_media(
                InputMediaPhoto(screen.photo, caption=screen.text),
                chat_id=table.chat_id,
                message_id=table.message_id,
                reply_markup=screen.keyboard,
            )
        else:
            await self.bot.edit_message_text(
                screen.text, chat_id=table.chat_id, message_id=table.message_id, reply_markup=screen.keyboard
            )

    async def retire(self, table: Table) -> None:
        """Take the buttons off a message that no longer drives a game (or delete a lobby)."""
        if table.message_id is None:
            return
        try:
            if table.message_is_photo:
                await self.bot.edit_message_reply_markup(table.chat_id, table.message_id, reply_markup=None)
            else:
                await self.bot.delete_message(table.chat_id, table.message_id)
        except BadRequest as error:
            log.info("could not retire message %s in %s: %s", table.message_id, table.chat_id, error)

    def _defer(self, table: Table, delay: float) -> None:
        key = key_of(table)
        if key in self._deferred or self.job_queue is None:
            return
        self._deferred.add(key)
        self.job_queue.run_once(self._deferred_edit, delay, data=(table.chat_id, table.topic), name=key)

    async def _deferred_edit(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.job is not None
        chat_id: int
        topic: int
        chat_id, topic = context.job.data  # type: ignore[misc]
        self._deferred.discard(context.job.name or "")
        table = await self.store.get(chat_id, topic)
        if table is not None and table.message_id is not None:
            await self.show(table)


def key_of(table: Table | None) -> str:
    return "" if table is None else f"{table.chat_id}:{table.topic}:{table.id}"
