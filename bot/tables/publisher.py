"""Shows a table in its chat: sends the live message, or edits it in place.

Group edits are coalesced: a group gets at most `limit` edits per `window` seconds; an edit asked for
while the budget is spent is deferred, and when it runs it shows the table as it is *then*, so the
latest state always wins and intermediate states are skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict, deque
from collections.abc import Callable

from telegram import Bot, InputMediaPhoto, Message
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes, JobQueue

from bot.adapters import ADAPTERS
from bot.tables.model import Phase, Table
from bot.tables.screens import Screen, animation_of, panel_screen, screen_of
from bot.tables.store import TableStore, VersionConflict
from i18n import t

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
        #: (table id, seat) -> the screen number on that person's panel.
        self._panel_shown: dict[tuple[str, int], int] = {}
        self._deferred: set[str] = set()

    async def show(self, table: Table) -> None:
        """Bring the chat's live message up to `table` (edit it, or send it when there is none), and
        every person's private panel (those are not group messages: they are never deferred)."""
        if table.message_id is None:
            await self._send(table)
        elif table.chat_id < 0 and (delay := self.budget.wait(table.chat_id)) > 0:
            self._defer(table, delay)
        else:
            await self._edit(table)
        if ADAPTERS[table.game].panels and table.phase is not Phase.LOBBY:
            await asyncio.gather(*(self._show_panel(table, seat) for seat in self._people(table)))

    async def show_with_warning(self, table: Table, warned: tuple[int, ...]) -> None:
        """Show a table after a timeout, and warn the people who timed out for the first time with a
        short notice that deletes itself when their next turn time is up."""
        await self.show(table)
        if not warned:
            return
        names = ", ".join(table.players[seat].name for seat in warned)
        text = t(table.lang, "⏰ {names}, your move! Next time a computer will move for you.", names=names)
        note = await self.bot.send_message(table.chat_id, text, message_thread_id=table.topic or None)
        if self.job_queue is not None:
            self.job_queue.run_once(
                self._delete_note, max(table.turn_seconds, 1), data=(table.chat_id, note.message_id)
            )

    async def _delete_note(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.job is not None
        chat_id: int
        message_id: int
        chat_id, message_id = context.job.data  # type: ignore[misc]
        with contextlib.suppress(BadRequest):  # already gone
            await self.bot.delete_message(chat_id, message_id)

    async def resend_panel(self, table: Table, seat: int) -> None:
        """Send a person's panel as a new message (they asked for it again), retiring the old one."""
        old = table.panels.get(seat)
        user_id = table.players[seat].user_id
        if old is not None and user_id is not None:
            await self._drop_buttons(user_id, old)
        self._panel_shown.pop((table.id, seat), None)
        others = {other: message for other, message in table.panels.items() if other != seat}
        await self._show_panel(table.model_copy(update={"panels": others}), seat)

    @staticmethod
    def _people(table: Table) -> list[int]:
        return [seat for seat, player in enumerate(table.players) if player.user_id is not None]

    async def _show_panel(self, table: Table, seat: int) -> None:
        if self._panel_shown.get((table.id, seat)) == table.screen:
            return
        user_id = table.players[seat].user_id
        assert user_id is not None
        screen = await asyncio.to_thread(panel_screen, table, seat)
        assert screen.photo is not None
        message_id = table.panels.get(seat)
        try:
            if message_id is not None:
                await self.bot.edit_message_media(
                    InputMediaPhoto(screen.photo, caption=screen.text),
                    chat_id=user_id,
                    message_id=message_id,
                    reply_markup=screen.keyboard,
                )
            else:
                sent = await self.bot.send_photo(
                    user_id, screen.photo, caption=screen.text, reply_markup=screen.keyboard
                )
                await self._update_stored(table, lambda t: {"panels": {**t.panels, seat: sent.message_id}})
        except Forbidden:
            return  # they never started the bot: the group's "My panel" link is their way in
        except BadRequest as error:
            if "not modified" not in str(error).lower():
                raise
        self._panel_shown[(table.id, seat)] = table.screen

    async def _drop_buttons(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except BadRequest as error:
            log.info("could not retire message %s in %s: %s", message_id, chat_id, error)

    async def _send(self, table: Table) -> None:
        screen = await asyncio.to_thread(screen_of, table, self.bot.username)
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
        is_photo = screen.photo is not None
        await self._update_stored(
            table, lambda _: {"message_id": message.message_id, "message_is_photo": is_photo}
        )
        self._shown[key_of(table)] = table.screen

    async def _update_stored(self, table: Table, changes: Callable[[Table], dict[str, object]]) -> None:
        """Record where a message went (bookkeeping, not a move); other writes may race with this
        one, so it is applied to the latest stored table, retrying on conflict."""
        current: Table | None = table
        while current is not None and current.id == table.id:
            try:
                await self.store.put(
                    current.model_copy(update=changes(current)), expected_version=current.version
                )
                return
            except VersionConflict:
                current = await self.store.get(table.chat_id, table.topic)

    async def _edit(self, table: Table) -> None:
        if self._shown.get(key_of(table)) == table.screen:
            return
        screen = await asyncio.to_thread(screen_of, table, self.bot.username)
        assert table.message_id is not None
        if screen.photo is not None and not table.message_is_photo:
            # A lobby (text) becomes a game (photo): Telegram cannot turn one into the other.
            await self.retire(table)
            await self._send(table)
            return
        if ADAPTERS[table.game].animated and self._shown.get(key_of(table)) == table.screen - 1:
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
        if table.message_is_photo:
            await self._drop_buttons(table.chat_id, table.message_id)
            return
        try:
            await self.bot.delete_message(table.chat_id, table.message_id)
        except BadRequest as error:
            log.info("could not delete message %s in %s: %s", table.message_id, table.chat_id, error)

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
