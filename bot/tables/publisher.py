"""Shows a table in its chat: sends the live message, or edits it in place, and keeps the panels.

Nothing here lives in a worker's memory, so any worker may show any table and a crash loses
nothing (DESIGN.md, "Telegram limits"):

- the group edit budget (Telegram allows about 20 edits a minute in a group) paces a chat's edits
  in Redis: a few at once, then one every few seconds, never more than the limit in any minute; an
  edit asked for too soon is deferred in Redis, and whichever worker's ticker finds it due shows the
  table as it is *then*: the latest state wins, in-between states are told by the caption's journal
  instead;
- the screen shown on each message is recorded in the table's hash, only ever upwards, and an edit
  is made under a short lease on the message, always from the latest stored table, so a slower
  worker can never put an older picture back over a newer one;
- a transient notice's deletion is a job for later in Redis too (`bot/runtime/later.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any, Final

import redis.asyncio as aioredis
from telegram import Bot, InputMediaPhoto, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from bot import keys
from bot.adapters import ADAPTERS
from bot.runtime.later import Due, Later
from bot.runtime.redis import OUTAGE
from bot.tables.lifecycle import computers_to_move
from bot.tables.model import Phase, Player, Table
from bot.tables.refusals import gone, may_not_post, unchanged
from bot.tables.screens import Screen, animation_of, game_keyboard, panel_keyboard, panel_screen, screen_of
from bot.tables.store import TableStore, VersionConflict
from i18n import t, tn

log = logging.getLogger(__name__)

# KEYS: the chat's pace (when its next edit is due, had none been saved up). ARGV: now, interval,
# burst, reserve ('1' or '0'); times in whole milliseconds, which Lua's numbers hold exactly. A
# generic cell rate: `burst` edits at once, then one per `interval`. Returns the milliseconds until
# an edit is allowed (0: allowed now, and counted if reserving).
_BUDGET: Final = """
local now, interval, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local due = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
local wait = due - now - (burst - 1) * interval
if wait > 0 then return wait end
if ARGV[4] == '1' then
  redis.call('SET', KEYS[1], string.format('%d', due + interval), 'PX', due + interval - now + 1000)
end
return 0
"""

# KEYS: lease. ARGV: token. Releases the lease only if it is still ours.
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

#: How long one worker may hold a message for its edit before another may take over.
EDIT_LEASE_SECONDS: Final = 20
#: A busy message (another worker is editing it) is looked at again this soon.
RETRY_SECONDS: Final = 1.0
#: Pictures one refresh shows at most, when newer tables keep arriving while it edits.
REFRESHES: Final = 3
#: A group that took photos from the bot is told so again after this many seconds at the soonest.
NO_PICTURES_TOLD: Final = 3600
#: How long a group whose pictures were refused counts as unable to see its game, at the most (a
#: picture that gets through ends it at once; a game left so goes out with its table's TTL anyway).
UNSEEN_SECONDS: Final = 7 * 24 * 3600
#: How long the group's notice asking a person to open the bot stays at most, and how long it is
#: not repeated for the same game and seat.
OPEN_BOT_NOTICE_SECONDS: Final = 600
OPEN_BOT_ASKED_SECONDS: Final = 6 * 3600
#: The job that deletes a transient notice.
DELETE: Final = "delete"


class EditBudget:
    """A group's edits per minute, paced in Redis for every worker.

    A sliding window of `limit` edits a minute would let a busy table spend the minute in a few
    seconds and then hold its picture back for the rest of it, the game seemingly frozen. Instead a
    few edits (`burst`, a fifth of the limit) go out at once and the rest are spread evenly: never
    more than `limit` in any `window`, and never more than one `interval` (3.5 s at 20 a minute) to
    wait for the next."""

    def __init__(self, redis: aioredis.Redis, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.burst = max(1, limit // 5)
        # `burst` at once and one per interval after: `limit` in any half-open `window`.
        self.interval_ms = math.ceil(window * 1000 / (limit - self.burst + 1))
        self.clock = clock
        self._script = redis.register_script(_BUDGET)

    async def reserve(self, chat_id: int) -> float:
        """Seconds until an edit is allowed; when 0, the edit is counted as made now."""
        return await self._run(chat_id, reserve=True)

    async def wait(self, chat_id: int) -> float:
        """Seconds until an edit would be allowed, counting nothing."""
        return await self._run(chat_id, reserve=False)

    async def _run(self, chat_id: int, *, reserve: bool) -> float:
        args = [math.floor(self.clock() * 1000), self.interval_ms, self.burst, "1" if reserve else "0"]
        return int(await self._script(keys=[keys.edit_budget(chat_id)], args=args)) / 1000


class PicturesRefused(Exception):
    """The group (or the table's topic) does not let the bot post pictures: its table cannot be
    shown for now."""


class Publisher:
    def __init__(
        self, bot: Bot, store: TableStore, redis: aioredis.Redis, budget: EditBudget, due: Due, later: Later
    ) -> None:
        self.bot = bot
        self.store = store
        self.redis = redis
        self.budget = budget
        self.due = due
        self.later = later
        self.clock = due.clock
        #: Pause between the pictures of a reveal (Telegram allows about one edit a second per chat).
        self.frame_seconds = 1.0
        self._release = redis.register_script(_RELEASE)
        later.register(DELETE, self._delete)

    # ----- the live message ----------------------------------------------------------------------

    async def show(self, table: Table) -> None:
        """Bring the chat's live message up to the latest stored state of `table`'s chat, and every
        person's private panel (those are not group messages: they are never deferred). A private
        game with panels has no live message: its panel shows the table too."""
        panels = ADAPTERS[table.game].panels and table.phase is not Phase.LOBBY
        if not (panels and table.private):
            await self.refresh(table.chat_id, table.topic)
        if panels:
            latest = await self.store.get(table.chat_id, table.topic)
            if latest is not None and latest.id == table.id:
                await asyncio.gather(*(self._show_panel(latest, seat) for seat in latest.people))

    async def refresh(self, chat_id: int, topic: int) -> None:
        """Send or edit the live message to the latest stored table, within the group's budget.

        Whoever holds the message's lease shows the latest table, and again while a newer one was
        stored meanwhile (another press, a computer's move), so a press that found the message busy
        can leave it to the holder; what the budget holds back is deferred to a tick."""
        moved_to: int | None = None
        for _ in range(REFRESHES):
            table = await self.store.get(chat_id, topic)
            if table is None:
                return
            if table.message_id is not None and await self.store.shown(table) >= table.screen:
                return
            if (
                table.message_id is not None
                and chat_id < 0
                and (wait := await self.budget.reserve(chat_id)) > 0
            ):
                await self.defer(table, wait)
                return
            lease = keys.edit_lease(chat_id, topic)
            token = secrets.token_hex(8)
            if not await self.redis.set(lease, token, nx=True, ex=EDIT_LEASE_SECONDS):
                # Should the holder die before it looks again, a tick shows the table.
                await self.defer(table, RETRY_SECONDS)
                return
            try:
                async with self._retried_if_lost(table), self._told_if_refused_pictures(table):
                    # Read again under the lease: another worker may have shown (or sent) it meanwhile.
                    table = await self.store.get(chat_id, topic) or table
                    shown = await self.store.shown(table)
                    if table.message_id is None:
                        await self._send(table, shown)
                    elif shown < table.screen:
                        await self._edit(table, shown)
                    else:
                        continue
                    if chat_id < 0 and await self.redis.delete(keys.unseen(chat_id, topic)):
                        await self._update_stored(table, self._turn_restarted)
            except PicturesRefused:
                return  # the next change tries again
            except ChatMigrated as error:
                moved_to = error.new_chat_id
                break
            finally:
                await self._release(keys=[lease], args=[token])
        if moved_to is not None:
            # The group became a supergroup before its notice reached the bot: follow it now.
            await self.move_chat(chat_id, moved_to)
            return
        # Still newer tables after these pictures: the rest goes to a tick.
        latest = await self.store.get(chat_id, topic)
        if latest is not None and await self.store.shown(latest) < latest.screen:
            await self.defer(latest, await self.budget.wait(chat_id) if chat_id < 0 else 0.0)

    async def move_chat(self, old_chat: int, new_chat: int) -> None:
        """A group became a supergroup, with a new chat id: its table goes with it and is shown
        there anew (Telegram refuses the old id from now on). Telegram's notices of the move, and a
        show refused for it, may each come first; the others find nothing left to move."""
        table = await self.store.get(old_chat, 0)
        if table is None:
            return
        try:
            moved = await self.store.move(table, new_chat)
        except VersionConflict:
            log.warning("table %s could not move from chat %s to %s", table.id, old_chat, new_chat)
            return
        await self.show(moved)

    @contextlib.asynccontextmanager
    async def _retried_if_lost(self, table: Table) -> AsyncIterator[None]:
        """Telegram slow or out of reach for a moment (not a refusal): a tick shows `table` again
        soon, so a picture does not wait for someone to press its lagging buttons."""
        try:
            yield
        except RetryAfter as error:  # past the rate limiter's own retries: not before Telegram's pause
            pause = error.retry_after
            await self.defer(
                table, pause.total_seconds() if isinstance(pause, timedelta) else pause, wait=True
            )
            raise
        except NetworkError as error:
            if not isinstance(error, BadRequest):
                await self.defer(table, RETRY_SECONDS)
            raise

    @contextlib.asynccontextmanager
    async def _told_if_refused_pictures(self, table: Table) -> AsyncIterator[None]:
        """The group took photos from the bot during a game (Start checks them), or an admin closed
        its forum topic: nobody can see the game, so the chat is told in words where it may be (once
        an hour at most), the table's turn timers wait (`unseen`), and the next change or timer
        tries again."""
        try:
            yield
        except BadRequest as error:
            if table.chat_id > 0 or not may_not_post(error):
                raise
            log.info("table %s cannot be shown: %s", table.id, error)
            await self.redis.set(keys.unseen(table.chat_id, table.topic), "1", ex=UNSEEN_SECONDS)
            if await self.redis.set(
                keys.no_pictures_told(table.chat_id, table.topic), "1", nx=True, ex=NO_PICTURES_TOLD
            ):
                text = t(
                    table.lang,
                    "I may no longer send pictures in this chat, so «{game}» cannot be shown: it waits, with "
                    "no turn running out. An admin can let me send photos, or make me an admin.",
                    game=ADAPTERS[table.game].title(table.lang),
                )
                with contextlib.suppress(BadRequest, Forbidden):  # words may be refused as well
                    await self.bot.send_message(table.chat_id, text, message_thread_id=table.topic or None)
            raise PicturesRefused from error

    async def unseen(self, table: Table) -> bool:
        """Whether the group's last picture of `table` was refused: nobody there sees its game."""
        return table.chat_id < 0 and bool(await self.redis.exists(keys.unseen(table.chat_id, table.topic)))

    async def defer(self, table: Table, delay: float, *, wait: bool = False) -> None:
        """Show the table again after `delay` seconds, from whichever worker ticks first (or sooner,
        if it was deferred to an earlier time; with `wait`, not sooner)."""
        key = keys.table(table.chat_id, table.topic)
        due = {key: self.clock() + delay}
        await self.redis.zadd(keys.edits(keys.bucket_of(key)), due, gt=wait, lt=not wait)

    async def catching_up(self, table: Table) -> float | None:
        """Seconds until the group's edit budget lets a held-back picture of `table` out, or None
        if nothing holds it back: its message is up to date, or the next show brings it at once
        (a stored change is always deferred a little in case its worker dies before showing it,
        which holds nothing back)."""
        if table.message_id is None or table.chat_id > 0 or await self.store.shown(table) >= table.screen:
            return None
        budget = await self.budget.wait(table.chat_id)
        if budget <= 0:
            return None
        key = keys.table(table.chat_id, table.topic)
        due = await self.redis.zscore(keys.edits(keys.bucket_of(key)), key)
        return max(budget, 0.0 if due is None else due - self.clock())

    async def deliver_due(self, bucket: int, limit: int = 100) -> int:
        """Show the tables whose deferred edit is due in one bucket; returns how many."""
        members, claimed = await self.due.claim(keys.edits(bucket), limit, EDIT_LEASE_SECONDS)
        for key in members:
            chat, topic = _chat_and_topic(key)
            try:
                table = await self.store.get(chat, topic)
                if table is not None:
                    await self.show(table)
            except Forbidden as error:
                # The chat refuses the bot (a person blocked it): trying again could only be refused
                # again. The table is shown at its next change, or a press under its old picture.
                log.warning("deferred edit of %s dropped: Telegram refused it (%s)", key, error)
            except OUTAGE:
                raise  # the ticker tells an outage once; the claim lapses and the edit is tried again
            except Exception:
                log.exception("deferred edit of %s failed", key)
                continue
            await self.due.done(keys.edits(bucket), key, claimed)
        return len(members)

    async def _send(self, table: Table, shown: int) -> None:
        screen = await asyncio.to_thread(screen_of, table, self.bot.username, shown)
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
        stored = await self._update_stored(
            table, lambda _: {"message_id": message.message_id, "message_is_photo": is_photo}
        )
        if stored is not None:
            await self.store.mark_shown(table)

    async def _edit(self, table: Table, shown: int) -> None:
        screen = await asyncio.to_thread(screen_of, table, self.bot.username, shown)
        assert table.message_id is not None
        if screen.photo is not None and not table.message_is_photo:
            # A lobby (text) becomes a game (photo): Telegram cannot turn one into the other. The
            # panels stay: a picture held back by the edit budget comes after they went out.
            await self._delete_message(table)
            await self._send(table, shown)
            return
        try:
            if ADAPTERS[table.game].animated and shown == table.screen - 1:
                await self._animate(table)
            await self._apply_edit(table, screen)
        except BadRequest as error:
            if gone(error):
                # Someone deleted the table's message (an admin tidying the chat): the game goes on
                # in a new one, or nobody could see or press it again.
                log.info("the message of table %s is gone (%s): sending it again", table.id, error)
                await self._send(table, shown)
                return
            if not unchanged(error):
                raise
        await self.store.mark_shown(table)

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

    async def retire(self, table: Table, marks: Mapping[str, int]) -> None:
        """Take the buttons off the messages that no longer drive a game (or delete a lobby); `marks`
        are the screens they show (`TableStore.marks`). A message showing the last screen with no
        button (a game over, in its panels; a private game stopped for a new one) is left alone. A
        picture that had not caught up with the table (a group's edit budget held it back) shows
        its last screen instead, without buttons, so that the chat sees how the game ended: the same
        one request."""
        await self._retire_panels(table, marks)
        if table.message_id is None:
            return
        if not table.message_is_photo:
            await self._delete_message(table)
            return
        shown = marks.get("shown", -1)
        if shown < table.screen:
            if not await self._show_last(table, shown):
                await self.drop_buttons(table.chat_id, table.message_id)
        elif game_keyboard(table, self.bot.username) is not None:
            await self.drop_buttons(table.chat_id, table.message_id)

    async def _delete_message(self, table: Table) -> None:
        assert table.message_id is not None
        try:
            await self.bot.delete_message(table.chat_id, table.message_id)
        except BadRequest as error:
            log.info("could not delete message %s in %s: %s", table.message_id, table.chat_id, error)

    async def _show_last(self, table: Table, shown: int) -> bool:
        """Edit the table's picture to its last screen, without buttons; whether that is done (or the
        message is gone, with nothing left to take off)."""
        assert table.message_id is not None
        screen = await asyncio.to_thread(screen_of, table, self.bot.username, shown)
        if screen.photo is None:
            return False
        try:
            await self.bot.edit_message_media(
                InputMediaPhoto(screen.photo, caption=screen.text),
                chat_id=table.chat_id,
                message_id=table.message_id,
                reply_markup=None,
            )
        except BadRequest as error:
            log.info("could not show the last screen of table %s: %s", table.id, error)
            return gone(error)
        return True

    async def _retire_panels(self, table: Table, marks: Mapping[str, int] | None = None) -> None:
        """Take the buttons off the panels; with `marks`, off those that show any."""
        for seat, message_id in table.panels.items():
            user_id = table.players[seat].user_id
            last = marks is not None and marks.get(keys.panel_shown(seat), -1) >= table.screen
            if user_id is not None and not (last and panel_keyboard(table, seat) is None):
                await self.drop_buttons(user_id, message_id)

    async def tell_abandoned(self, table: Table, title: str, *, topic_gone: bool = False) -> None:
        """Tell each person of `table`, stopped because the bot was removed from its group `title` (""
        when unknown) or its forum topic was deleted, why (in private: the group is out of reach),
        and take the buttons off their panels."""
        await self._retire_panels(table)
        for player in table.players:
            if player.user_id is None:
                continue
            game = ADAPTERS[table.game].title(player.lang)
            if topic_gone:
                text = t(player.lang, "🚫 {game} in a group was stopped: its topic was deleted.", game=game)
            elif title:
                text = t(
                    player.lang,
                    "🚫 {game} in “{chat}” was stopped: the bot was removed from that chat.",
                    game=game,
                    chat=title,
                )
            else:  # Telegram refused the bot there without telling of its removal: the title is unknown
                text = t(
                    player.lang,
                    "🚫 {game} in a group was stopped: the bot was removed from that chat.",
                    game=game,
                )
            try:
                await self.bot.send_message(player.user_id, text)
            except (BadRequest, Forbidden) as error:  # they never opened the bot, or blocked it
                log.info("could not tell %s that table %s stopped: %s", player.user_id, table.id, error)

    async def close_lobby(self, lobby: Table, idle_minutes: int | None = None) -> None:
        """The lobby's message says that the table is closed (by its host or its last player, or
        after `idle_minutes` without a start), so that those who joined know; with the group's
        edit budget spent it is deleted instead."""
        if lobby.message_id is None:
            return
        values = {"game": ADAPTERS[lobby.game].title(lobby.lang), "game_id": lobby.game}
        if idle_minutes is None:
            text = t(lobby.lang, "🚫 {game}: the table is closed. /new {game_id} opens a new one.", **values)
        else:
            text = tn(
                lobby.lang,
                "⌛ {game}: the table is closed, nobody started the game for {n} minute. "
                "/new {game_id} opens a new one.",
                "⌛ {game}: the table is closed, nobody started the game for {n} minutes. "
                "/new {game_id} opens a new one.",
                idle_minutes,
                **values,
            )
        try:
            if await self.budget.reserve(lobby.chat_id) > 0:
                await self.bot.delete_message(lobby.chat_id, lobby.message_id)
            else:
                await self.bot.edit_message_text(text, chat_id=lobby.chat_id, message_id=lobby.message_id)
        except BadRequest as error:
            log.info("could not close the lobby message of %s: %s", lobby.id, error)

    async def drop_buttons(self, chat_id: int, message_id: int) -> None:
        """Best effort: a message gone, or in a chat that refuses the bot (a person who blocked it, a
        group it left), keeps what it has, and whatever retires it goes on with the others."""
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except (BadRequest, Forbidden) as error:
            log.info("could not retire message %s in %s: %s", message_id, chat_id, error)

    def _turn_restarted(self, table: Table) -> dict[str, object]:
        """A group sees its game again after its pictures were refused: whoever is to move gets a
        whole turn from now (the timers waited meanwhile)."""
        if table.phase is not Phase.PLAYING or table.deadline is None or computers_to_move(table):
            return {}
        return {"deadline": max(table.deadline, self.clock() + table.turn_seconds)}

    async def _update_stored(
        self, table: Table, changes: Callable[[Table], dict[str, object]]
    ) -> Table | None:
        """Record where a message went (bookkeeping, not a move); other writes may race with this
        one, so it is applied to the latest stored table, retrying on conflict."""
        current: Table | None = table
        while current is not None and current.id == table.id:
            if not (changed := changes(current)):
                return current
            try:
                return await self.store.put(
                    current.model_copy(update=changed), expected_version=current.version
                )
            except VersionConflict:
                current = await self.store.get(table.chat_id, table.topic)
        return None

    # ----- panels ------------------------------------------------------------------------------

    async def _show_panel(self, table: Table, seat: int) -> None:
        """Bring a person's panel up to the latest stored `table`, under a lease on the panel as for
        the live message: the holder looks again after letting go, and a show that finds the panel
        busy stored its table first, so the holder sees it (or a tick does, should the holder die).
        A slow picture of an older screen can never cover a newer one."""
        where = keys.panel_shown(seat)
        latest: Table | None = table  # just read or written by the caller: only a second look reads
        for look in range(REFRESHES):
            if look:
                latest = await self.store.get(table.chat_id, table.topic)
            if (
                latest is None
                or latest.id != table.id
                or await self.store.shown(latest, where) >= latest.screen
            ):
                return
            lease = keys.edit_lease(table.chat_id, table.topic, seat)
            token = secrets.token_hex(8)
            if not await self.redis.set(lease, token, nx=True, ex=EDIT_LEASE_SECONDS):
                await self.defer(latest, RETRY_SECONDS)
                return
            try:
                async with self._retried_if_lost(latest):
                    if not await self._draw_panel(latest, seat, where):
                        return
            finally:
                await self._release(keys=[lease], args=[token])

    async def _draw_panel(self, table: Table, seat: int, where: str) -> bool:
        """Whether the panel is up to `table` now; not when the person's chat refused it (they never
        opened the bot, or blocked it): a second look would only be refused again."""
        user_id = table.players[seat].user_id
        assert user_id is not None
        shown, drawn = await self.store.panel_shown(table, where)
        message_id = table.panels.get(seat)
        # A change another person made alone (a dealer's marks) leaves this panel as it is: it is
        # neither drawn nor edited again. A new panel message is always drawn.
        unless = drawn if message_id is not None else None
        look, screen = await asyncio.to_thread(panel_screen, table, seat, shown, unless)
        if screen is None:
            await self.store.mark_shown(table, where, look)
            return True
        assert screen.photo is not None
        try:
            if message_id is not None:
                try:
                    await self.bot.edit_message_media(
                        InputMediaPhoto(screen.photo, caption=screen.text),
                        chat_id=user_id,
                        message_id=message_id,
                        reply_markup=screen.keyboard,
                    )
                except BadRequest as error:
                    if not gone(error):
                        raise
                    # They deleted their panel: it comes back as a new message.
                    await self._send_panel(table, seat, screen)
            else:
                await self._send_panel(table, seat, screen)
        except Forbidden:
            await self._ask_to_open_the_bot(table, seat)
            return False
        except BadRequest as error:
            if not unchanged(error):
                raise
        await self.store.mark_shown(table, where, look)
        return True

    async def _send_panel(self, table: Table, seat: int, screen: Screen) -> None:
        user_id = table.players[seat].user_id
        assert user_id is not None and screen.photo is not None
        sent = await self.bot.send_photo(
            user_id, screen.photo, caption=screen.text, reply_markup=screen.keyboard
        )
        await self._update_stored(
            table, lambda current: {"panels": {**current.panels, seat: sent.message_id}}
        )
        if notice := await self.redis.getdel(keys.panel_refused(table.id, seat)):
            await self._delete({"chat": table.chat_id, "message": notice})

    async def bring_back(self, table: Table, user_id: int) -> None:
        """Send a game's message again at the foot of its chat (it scrolled far up, or was deleted):
        a private panel game's panel, else the table's message, the old one deleted (or, past the
        two days in which a bot may delete its message, left without buttons)."""
        seat = table.seat_of(user_id)
        if table.private and ADAPTERS[table.game].panels and seat is not None:
            await self.resend_panel(table, seat)
            return
        if table.message_id is not None:
            try:
                await self.bot.delete_message(table.chat_id, table.message_id)
            except BadRequest:
                await self.drop_buttons(table.chat_id, table.message_id)
        if await self._update_stored(table, lambda _: {"message_id": None}) is not None:
            await self.refresh(table.chat_id, table.topic)

    async def resend_panel(self, table: Table, seat: int) -> None:
        """Send a person's panel as a new message (they asked for it again), retiring the old one."""
        old = table.panels.get(seat)
        user_id = table.players[seat].user_id
        if old is not None and user_id is not None:
            await self.drop_buttons(user_id, old)
        others = {other: message for other, message in table.panels.items() if other != seat}
        stored = await self._update_stored(table, lambda _: {"panels": others})
        if stored is not None:
            await self.redis.hdel(
                keys.table(table.chat_id, table.topic),
                keys.panel_shown(seat),
                f"{keys.panel_shown(seat)}:look",
            )
            await self._show_panel(stored, seat)

    # ----- notices -----------------------------------------------------------------------------

    async def warn(self, table: Table, seats: tuple[int, ...]) -> None:
        """Warn the people who timed out for the first time, with a short notice that deletes itself
        when their next turn time is up."""
        if not seats:
            return
        text = t(table.lang, "⏰ {names}, your move! Next time a computer will move for you.", names="\0")
        try:
            note = await self._notify(table, seats, text)
        except BadRequest as error:
            if not may_not_post(error):
                raise
            # A closed topic (or a group keeping words from the bot): the table's picture, which may
            # still change, says whose turn it is.
            log.info("could not warn seats %s of table %s: %s", seats, table.id, error)
            return
        await self.delete_later(table.chat_id, note.message_id, max(table.turn_seconds, 1))

    async def _ask_to_open_the_bot(self, table: Table, seat: int) -> None:
        """A person's panel could not be sent (they never opened the bot, or blocked it): the group
        asks them, once, to open it with the table's "My panel" link; the notice goes once their
        panel gets through, or after a while. A game that is over needs no panel: nobody is asked."""
        key = keys.panel_refused(table.id, seat)
        if table.private or table.phase is Phase.FINISHED:
            return
        if not await self.redis.set(key, "", nx=True, ex=OPEN_BOT_ASKED_SECONDS):
            return
        text = t(
            table.lang,
            "🔒 {names}, I cannot send you your cards: open the bot with «🤖 My panel» under the table.",
            names="\0",
        )
        try:
            note = await self._notify(table, (seat,), text)
        except (BadRequest, Forbidden) as error:  # the group refuses words too: the link is still there
            log.info("could not ask seat %s of table %s to open the bot: %s", seat, table.id, error)
            return
        await self.redis.set(key, str(note.message_id), xx=True, keepttl=True)
        await self.delete_later(table.chat_id, note.message_id, OPEN_BOT_NOTICE_SECONDS)

    async def _notify(self, table: Table, seats: Sequence[int], text: str) -> Message:
        """Send `text` to the table's chat, the people of `seats` mentioned in place of its NUL, as
        a reply to the table's message: a tap on the quote brings a busy chat back to the table."""
        # Mentions, so that the notice reaches their phones: an edited table message notifies nobody.
        names = ", ".join(_mention(table.players[seat]) for seat in seats)
        where: dict[str, Any] = {"message_thread_id": table.topic or None}
        if table.message_id is not None:
            # A table message an admin deleted leaves a notice without the quote, not unsent.
            where["reply_parameters"] = ReplyParameters(table.message_id, allow_sending_without_reply=True)
        try:
            return await self.bot.send_message(
                table.chat_id, html.escape(text).replace("\0", names), parse_mode=ParseMode.HTML, **where
            )
        except BadRequest as error:
            # Telegram may refuse a mention (a person who left the chat): the names then go plain.
            log.info("a notice with mentions was refused (%s): sent without them", error)
            plain = ", ".join(table.players[seat].name for seat in seats)
            return await self.bot.send_message(table.chat_id, text.replace("\0", plain), **where)

    async def delete_later(self, chat_id: int, message_id: int, delay: float) -> None:
        """Delete a message of the bot's in `delay` seconds, from whichever worker is up then."""
        await self.later.schedule(chat_id, delay, DELETE, {"chat": chat_id, "message": message_id})

    async def _delete(self, job: dict[str, Any]) -> None:
        with contextlib.suppress(BadRequest):  # already gone: nothing to delete
            await self.bot.delete_message(int(job["chat"]), int(job["message"]))


def _mention(player: Player) -> str:
    """A person's name that notifies them (HTML); a computer's plain name."""
    name = html.escape(player.name)
    return name if player.user_id is None else f'<a href="tg://user?id={player.user_id}">{name}</a>'


def _chat_and_topic(key: str) -> tuple[int, int]:
    _, _, chat, topic = key.split(":")
    return int(chat), int(topic)
