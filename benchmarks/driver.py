"""The real Application on the fake Bot API and a real Redis, timed update by update."""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import redis.asyncio as aioredis
from telegram import Update
from telegram.ext import Application

from bot.app import build_application, services_of
from bot.offline.fake_api import FakeBotAPI, UpdateFactory
from bot.runtime.redis import client
from bot.settings import Settings

App = Application[Any, Any, Any, Any, Any, Any]


#: A real Redis whose database the benchmarks empty: database 1, far from the tests' 15 and down.
DEFAULT_REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")


def add_redis_url(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url", default=DEFAULT_REDIS_URL, help="a real Redis; its database is emptied."
    )


class Driver:
    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self.api = FakeBotAPI()
        self.updates = UpdateFactory(self.api)
        self.app: App = build_application(
            Settings(_env_file=None, computer_processes=0), redis=redis, request=self.api, rate_limit=False
        )
        # A reveal's pauses are Telegram pacing, not work: measure the work.
        services_of(self.app).tables.publisher.frame_seconds = 0.0

    async def feed(self, update: dict[str, Any]) -> float:
        """Process one update; milliseconds until every outgoing call was made."""
        start = time.perf_counter()
        await self.app.process_update(Update.de_json(update, self.app.bot))
        return (time.perf_counter() - start) * 1000


async def open_redis(url: str) -> aioredis.Redis:
    redis = client(url)
    await redis.flushdb()
    return redis
