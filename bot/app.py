"""Builds the one `Application` that polling, webhooks, the console, the tests and the benchmark all run."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import redis.asyncio as aioredis
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, ContextTypes
from telegram.request import BaseRequest

from bot.chat.coins import Coins
from bot.chat.handlers import Services, add_handlers, register_commands
from bot.chat.processor import PerChatUpdateProcessor
from bot.economy.career import Career
from bot.economy.daily import Daily
from bot.economy.leaderboard import Leaderboard
from bot.economy.stakes import Economy, utc_now
from bot.economy.wallet import Wallet
from bot.settings import Settings
from bot.tables.publisher import EditBudget, Publisher
from bot.tables.store import Preferences, TableStore
from bot.tables.timers import Timers, tick

#: Updates of different chats handled at once; one chat's updates always run in order.
CONCURRENT_UPDATES = 64

#: How often a worker looks for turns that timed out.
TICK_SECONDS = 2.0

#: A token the offline fake API accepts; Telegram would refuse it.
OFFLINE_TOKEN = "123456:offline"


def build_application(
    settings: Settings,
    *,
    redis: aioredis.Redis,
    request: BaseRequest | None = None,
    rate_limit: bool = True,
    clock: Callable[[], datetime] = utc_now,
) -> Application[Any, Any, Any, Any, Any, Any]:
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
    builder = builder.post_init(register_commands)
    application = builder.build()
    store = TableStore(redis, ttl_seconds=settings.table_ttl_seconds)
    budget = EditBudget(settings.group_edits_per_minute, 60.0)
    publisher = Publisher(application.bot, store, application.job_queue, budget)
    wallet = Wallet(redis)
    leaderboard = Leaderboard(redis)
    economy = Economy(wallet, leaderboard, clock)
    coins = Coins(wallet, Daily(redis), Career(redis, wallet), leaderboard)
    timers = Timers(redis, store, clock)
    application.bot_data["services"] = Services(
        settings, store, Preferences(redis), publisher, economy, coins, clock, timers
    )
    if application.job_queue is not None:
        application.job_queue.run_repeating(tick, interval=TICK_SECONDS, first=TICK_SECONDS, name="timers")
    add_handlers(application)
    return application


def services_of(application: Application[Any, Any, Any, Any, Any, Any]) -> Services:
    found = application.bot_data["services"]
    assert isinstance(found, Services)
    return found


__all__ = ["OFFLINE_TOKEN", "ContextTypes", "build_application", "services_of"]
