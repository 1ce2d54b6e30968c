"""Builds the one `Application` that polling, webhooks, the console, the tests and the benchmarks run."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import redis.asyncio as aioredis
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, ContextTypes, JobQueue
from telegram.request import BaseRequest

from bot.chat.coins import STILL, still_job
from bot.chat.commands import add_command_handlers
from bot.chat.context import Services
from bot.chat.duplicates import add_duplicate_filter
from bot.chat.errors import on_error
from bot.chat.membership import add_membership_handler
from bot.chat.migration import add_migration_handler
from bot.chat.presses import add_press_handlers
from bot.chat.processor import PerChatUpdateProcessor
from bot.chat.profile import register_profile
from bot.economy.career import Career
from bot.economy.daily import Daily
from bot.economy.leaderboard import Leaderboard
from bot.economy.pulls import Pulls
from bot.economy.wallet import Wallet
from bot.runtime.later import Due, Later
from bot.runtime.migrate import migrate
from bot.runtime.redis import OUTAGE
from bot.settings import Settings
from bot.tables.computers import Computers
from bot.tables.outages import Heartbeat
from bot.tables.publisher import EditBudget, Publisher
from bot.tables.service import Tables
from bot.tables.store import Preferences, TableStore
from bot.tables.timers import Timers

#: Updates of different chats handled at once; one chat's updates always run in order.
CONCURRENT_UPDATES = 64

#: A token the offline fake API accepts; Telegram would refuse it.
OFFLINE_TOKEN = "123456:offline"
#: The name of the ticker's job: each tick sets the next (`ticking`).
TICKER = "timers"
#: Set in `bot_data` while the ticker finds Redis unreachable (only what is logged depends on it).
REDIS_DOWN = "redis down"

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]


def utc_now() -> datetime:
    return datetime.now(UTC)


def build_application(
    settings: Settings,
    *,
    redis: aioredis.Redis,
    request: BaseRequest | None = None,
    rate_limit: bool = True,
    clock: Callable[[], datetime] = utc_now,
) -> App:
    """The bot, wired to `redis`; `request` replaces the HTTP transport (the fake Bot API offline)."""
    token = settings.bot_token.get_secret_value() if settings.bot_token else OFFLINE_TOKEN
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        Application.builder().token(token).concurrent_updates(PerChatUpdateProcessor(CONCURRENT_UPDATES))
    )
    if settings.bot_api_url:
        api = settings.bot_api_url
        builder = (
            builder.base_url(f"{api}/bot").base_file_url(f"{api}/file/bot").local_mode(settings.bot_api_local)
        )
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    if rate_limit:
        builder = builder.rate_limiter(AIORateLimiter())
    computers = Computers(
        settings.computer_processes, settings.computer_budget_seconds, settings.computer_think_seconds
    )
    builder = builder.post_init(lambda app: _start(app, redis)).post_shutdown(lambda _: _close(computers))
    application = builder.build()

    def seconds() -> float:
        return clock().timestamp()

    wallet = Wallet(redis)
    leaderboard = Leaderboard(redis)
    store = TableStore(redis, wallet, ttl_seconds=settings.table_ttl_seconds)
    budget = EditBudget(redis, settings.group_edits_per_minute, 60.0, seconds)
    due = Due(redis, seconds)
    later = Later(redis, due)
    publisher = Publisher(application.bot, store, redis, budget, due, later)
    tables = Tables(store, publisher, computers, wallet, leaderboard, budget, clock)
    pulls = Pulls(wallet, Daily(redis), Career(redis, wallet), leaderboard)
    found = Services(
        settings=settings,
        redis=redis,
        tables=tables,
        prefs=Preferences(redis),
        pulls=pulls,
        timers=Timers(tables, due, later, Heartbeat(redis, settings.outage_seconds, seconds), clock),
        later=later,
        clock=clock,
    )
    later.register(STILL, still_job(application.bot, found))
    application.bot_data["services"] = found
    if application.job_queue is not None and settings.tick_seconds > 0:
        _tick_in(application.job_queue, settings.tick_seconds)
    add_duplicate_filter(application)
    add_command_handlers(application)
    add_press_handlers(application)
    add_migration_handler(application)
    add_membership_handler(application)
    application.add_error_handler(on_error)
    return application


async def _start(application: App, redis: aioredis.Redis) -> None:
    """Before the first update: data of the first key layout moved over, the menu and descriptions set."""
    await migrate(redis)
    await register_profile(application.bot)


async def _close(computers: Computers) -> None:
    await asyncio.to_thread(computers.close)  # a decision under way ends within its think limit


async def ticking(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The ticker job: a tick, then the next one `tick_seconds` after this one ended. A tick longer
    than that (computers moving for people who timed out) delays the next instead of overlapping it,
    where a repeating job would log a warning for every run it had to skip."""
    try:
        await tick(context)
    finally:
        if context.job_queue is not None:
            _tick_in(context.job_queue, services_of(context.application).settings.tick_seconds)


def _tick_in(job_queue: JobQueue[Any], seconds: float) -> None:
    # However late the loop gets to it (a busy start-up), the tick runs: a missed one would be the last.
    job_queue.run_once(ticking, when=seconds, name=TICKER, job_kwargs={"misfire_grace_time": None})


async def tick(context: ContextTypes.DEFAULT_TYPE) -> None:
    """One tick: every worker ticks; claims in Redis share the work out. A Redis outage is logged
    when the ticker first meets it and when it is over, not at every tick."""
    data = context.application.bot_data
    try:
        await services_of(context.application).timers.tick()
    except OUTAGE as error:
        if not data.get(REDIS_DOWN):
            log.warning("Redis is unreachable, the timers wait for it: %s", error)
        data[REDIS_DOWN] = True
        return
    if data.pop(REDIS_DOWN, False):
        log.info("Redis answers again, the timers go on")


def services_of(application: App) -> Services:
    found = application.bot_data["services"]
    assert isinstance(found, Services)
    return found


__all__ = ["OFFLINE_TOKEN", "build_application", "services_of"]
