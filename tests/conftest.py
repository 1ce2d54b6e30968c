"""Shared fixtures. The store and bot tests run on a real Redis server (TEST_REDIS_URL)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis


def _test_database_url() -> str:
    """TEST_REDIS_URL, with one database per pytest-xdist worker (15, 14, ...) so that parallel
    workers never empty each other's data."""
    base = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    root, _, database = base.rpartition("/")
    return f"{root}/{int(database or 15) - int(worker.removeprefix('gw'))}"


TEST_REDIS_URL = _test_database_url()


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


@pytest.fixture
async def pooled(redis_client: aioredis.Redis) -> AsyncIterator[aioredis.Redis]:
    """A client whose pool waits for a free connection: the default pool raises at 100 in flight."""
    pool = redis_client.connection_pool
    blocking = aioredis.BlockingConnectionPool(
        connection_class=pool.connection_class, max_connections=50, **pool.connection_kwargs
    )
    client = aioredis.Redis(connection_pool=blocking)
    try:
        yield client
    finally:
        await client.aclose()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        help="the test kit plays many more steps and every combination of options (tests/test_kit.py)",
    )
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="write the golden playthroughs afresh instead of comparing (tests/test_golden.py)",
    )
