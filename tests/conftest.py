"""Shared fixtures. The store and bot tests run on a real Redis server (TEST_REDIS_URL)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
async def redis_client() -> AsyncIterator[aioredis.Redis]:
    """A client on an emptied test database of a real Redis server."""
    client = aioredis.Redis.from_url(TEST_REDIS_URL)
    await client.flushdb()
    try:
        yield client
    finally:
        await client.flushdb()
        await client.aclose()
