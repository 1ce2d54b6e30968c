"""Runs the updates of one chat in order and different chats concurrently."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


def chat_of(update: object) -> int | None:
    """The chat an update belongs to: its chat, or for a press on an inline message (no chat) its user."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    if update.effective_user is not None:
        return update.effective_user.id
    return None


@dataclass
class _ChatLock:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Updates holding or waiting for the lock; the entry is dropped when this falls to 0.
    users: int = 0


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Updates of one chat run one at a time, in arrival order; other chats run concurrently.

    At most `max_concurrent_updates` updates run at once. An update waiting for an earlier update of
    its chat gives its slot back while it waits, so a busy chat cannot hold every slot and stall
    other chats. Updates without a chat (polls, for example) run without a lock.
    """

    __slots__ = ("_chats",)

    def __init__(self, max_concurrent_updates: int) -> None:
        super().__init__(max_concurrent_updates)
        self._chats: dict[int, _ChatLock] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat_id = chat_of(update)
        if chat_id is None:
            await coroutine
            return
        entry = self._chats.get(chat_id)
        if entry is None:
            entry = self._chats[chat_id] = _ChatLock()
        entry.users += 1
        try:
            await self._run_locked(entry.lock, coroutine)
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._chats[chat_id]

    async def _run_locked(self, lock: asyncio.Lock, coroutine: Awaitable[Any]) -> None:
        # process_update (final, in the base class) holds a slot of `_semaphore` around this call and
        # releases it afterwards, so a slot given back here is always taken again before returning.
        waiting = lock.locked()
        if waiting:
            self._semaphore.release()
        holding = False
        try:
            try:
                await lock.acquire()
                holding = True
            finally:
                if waiting:
                    await self._semaphore.acquire()
            await coroutine
        finally:
            if holding:
                lock.release()

    async def initialize(self) -> None:
        """Nothing to set up: locks are made on demand."""

    async def shutdown(self) -> None:
        """Nothing to free: a lock is dropped as soon as its chat is idle."""

    @property
    def active_chats(self) -> int:
        """Chats with an update running or waiting (for monitoring, and to check locks are dropped)."""
        return len(self._chats)
