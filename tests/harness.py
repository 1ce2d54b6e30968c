"""The real Application behind the fake Bot API, on a real Redis: what every bot test drives.

Handler exceptions fail the test that caused them: the harness collects what the error handler
sees and raises it on exit, unless the test takes the errors it expects with `expect_errors`.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from telegram import Update
from telegram.ext import Application, ContextTypes

from bot.app import build_application, services_of
from bot.economy.career import SECRET_KEY as SPIN_SECRET_KEY
from bot.offline.fake_api import FakeBotAPI, FakeMessage, UpdateFactory
from bot.settings import Settings
from bot.tables import lifecycle
from bot.tables.model import Table

App = Application[Any, Any, Any, Any, Any, Any]
#: Names by seat for an adapter's buttons and captions outside a table (only Game 4's asks name a seat).
SEAT_NAMES = ("Alice", "Bob", "Carol")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class HandlerError(AssertionError):
    """A handler raised while the test drove the bot."""


class BotHarness:
    def __init__(
        self,
        redis: aioredis.Redis,
        *,
        api: FakeBotAPI | None = None,
        edits_per_minute: int = 10_000,
        clock: Callable[[], datetime] | None = None,
        turn_seconds: int = 90,
        outage_seconds: float = 0,
    ):
        self.redis = redis
        self.api = api or FakeBotAPI()
        self.updates = UpdateFactory(self.api)
        self.clock = clock or Clock()
        self.errors: list[BaseException] = []
        self.settings = Settings(
            group_edits_per_minute=edits_per_minute,
            group_turn_seconds=turn_seconds,
            default_lang="en",
            computer_processes=0,
            # No decision is cut short by a slow machine: a test's game goes the same way anywhere.
            computer_budget_seconds=3600,
            computer_think_seconds=0,
            tick_seconds=0,
            # Tests move the clock on between their ticks: only an outage test counts such a gap.
            outage_seconds=outage_seconds,
            _env_file=None,
        )
        self.app = self._build()

    def _build(self) -> App:
        app = build_application(
            self.settings, redis=self.redis, request=self.api, rate_limit=False, clock=self.clock
        )
        app.add_error_handler(self._collect)
        # Reveals play without pauses in tests.
        services_of(app).tables.publisher.frame_seconds = 0.0
        return app

    async def restart(self) -> None:
        """The worker stops and another starts in its place, on the same Redis and chats."""
        await self.app.stop()
        await self.app.shutdown()
        self.app = self._build()
        await self.app.initialize()
        await self.app.start()

    async def _collect(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.error is not None
        self.errors.append(context.error)

    def expect_errors(self) -> list[BaseException]:
        """The handler errors so far, taken: a test that provokes failures checks them itself."""
        taken, self.errors = self.errors, []
        return taken

    async def __aenter__(self) -> BotHarness:
        # Seeded tables: the same deals and dice every run, so a test replays (and takes as long).
        self._seeds, lifecycle.SEEDS = lifecycle.SEEDS, random.Random("harness")
        # Seeded pulls too, where a harness has a Redis: a /spin's pull is named by its message, so it
        # replays; a press's is named by its query id, new every run, so a test reads the pressed
        # machine's own message (a pull that climbs the career ladder shows its episode after it).
        with contextlib.suppress(RedisConnectionError, RedisTimeoutError):  # a harness on a Redis gone
            await self.redis.set(SPIN_SECRET_KEY, "harness", nx=True)
        await self.app.initialize()
        await self.app.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.app.stop()
        await self.app.shutdown()
        lifecycle.SEEDS = self._seeds
        if self.errors and exc[0] is None:
            raise HandlerError(f"handlers raised: {self.errors!r}") from self.errors[0]

    async def feed(self, update: dict[str, Any]) -> None:
        await self.app.process_update(Update.de_json(update, self.app.bot))

    async def say(self, chat_id: int, user_id: int, text: str, **kwargs: Any) -> None:
        kwargs.setdefault("language_code", "en")
        await self.feed(self.updates.message(chat_id, user_id, text, **kwargs))

    async def press(
        self, chat_id: int, user_id: int, data: str, message_id: int | None = None, **kwargs: Any
    ) -> None:
        target = message_id if message_id is not None else self.live(chat_id).message_id
        kwargs.setdefault("language_code", "en")
        await self.feed(self.updates.callback(chat_id, user_id, target, data, **kwargs))

    async def tick(self) -> None:
        """What one tick of every worker's ticker does: timeouts, deferred edits, jobs for later."""
        await services_of(self.app).timers.tick()

    def live(self, chat_id: int) -> FakeMessage:
        message = self.api.last_message(chat_id)
        assert message is not None, f"no bot message in chat {chat_id}"
        return message

    def button_data(self, chat_id: int) -> list[str]:
        message = self.live(chat_id)
        return [data for row in self.api.buttons(chat_id, message.message_id) for _, data in row if data]

    def button_labels(self, chat_id: int) -> list[str]:
        message = self.live(chat_id)
        return [label for row in self.api.buttons(chat_id, message.message_id) for label, _ in row]

    def button(self, chat_id: int, label: str, message_id: int | None = None) -> str:
        """The callback data of the button `label` on the chat's latest message (or `message_id`)."""
        message = self.live(chat_id) if message_id is None else self.api.messages[chat_id][message_id]
        for row in self.api.buttons(chat_id, message.message_id):
            for text, data in row:
                if text == label and data:
                    return data
        raise AssertionError(f"no button {label!r} in {self.api.buttons(chat_id, message.message_id)}")

    def last_alert(self) -> str | None:
        alerts = self.api.alerts()
        return alerts[-1].params.get("text") if alerts else None

    async def table(self, chat_id: int, topic: int = 0) -> Table | None:
        return await services_of(self.app).tables.store.get(chat_id, topic)
