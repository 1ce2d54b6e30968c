"""Shared fixtures. The store and bot tests run on a real Redis server (TEST_REDIS_URL), and on a real
Redis Cluster (TEST_REDIS_CLUSTER_URL, started by `.ci/run`)."""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from bot.runtime.redis import RedisClient, client

#: The databases a Redis server has unless configured otherwise (0-15).
DATABASES = 16


def _first_database(base: str) -> int:
    """The database named by `base`: its path (`redis://host:6379/15`, 15 when absent) or, for a unix
    socket, its `db` parameter."""
    parts = urlsplit(base)
    named = dict(parse_qsl(parts.query)).get("db") if parts.scheme == "unix" else parts.path.strip("/")
    first = int(named or DATABASES - 1)
    if not 0 < first < DATABASES:
        raise ValueError(f"TEST_REDIS_URL must name a database from 1 to {DATABASES - 1}: {base}")
    return first


def _with_database(base: str, database: int) -> str:
    parts = urlsplit(base)
    if parts.scheme == "unix":  # (urlunsplit would drop the empty host of unix:///path)
        query = dict(parse_qsl(parts.query))
        return f"{base.partition('?')[0]}?{urlencode({**query, 'db': str(database)})}"
    return parts._replace(path=f"/{database}").geturl()


#: The lock files of the databases this process holds: open for its lifetime.
_HELD: list[IO[str]] = []


def _claim_database(base: str, locks: Path) -> str:
    """`base` with the highest database from its own down to 1 that no other test process on this
    machine holds, held by this one until it exits (a lock file per database in `locks`): parallel
    pytest-xdist workers, and test runs of two checkouts at once, never empty each other's data.
    Never database 0, which may hold someone's real data."""
    server = re.sub(r"\W+", "_", urlsplit(base)._replace(path="", query="").geturl())
    for database in range(_first_database(base), 0, -1):
        file = (locks / f"cardgames-test-{server}-{database}.lock").open("a")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when the process ends
        except BlockingIOError:
            file.close()
            continue
        _HELD.append(file)
        return _with_database(base, database)
    raise ValueError(
        f"TEST_REDIS_URL: every database from {base}'s down to 1 is in use by other test processes"
    )


TEST_REDIS_URL = _claim_database(
    os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"), Path(tempfile.gettempdir())
)
TEST_REDIS_CLUSTER_URL = os.environ.get("TEST_REDIS_CLUSTER_URL", "redis://127.0.0.1:7000")


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


@contextmanager
def _cluster_turn(url: str) -> Iterator[None]:
    """Exclusive use of the cluster at `url` among every test process on this machine.

    A cluster has only database 0, and the bot's keys have fixed names (`secret:spin`, `due:{3}`, ...),
    so workers cannot be given keys of their own: they take turns instead, and each turn starts and ends
    with every master emptied.
    """
    where = urlsplit(url)
    lock = Path(tempfile.gettempdir()) / f"cardgames-test-cluster-{where.hostname}-{where.port}.lock"
    with lock.open("a") as file:
        # Blocks this worker's loop while it waits: the worker has nothing else to run meanwhile.
        fcntl.flock(file, fcntl.LOCK_EX)  # released when the file closes
        yield


@pytest.fixture
async def redis_cluster() -> AsyncIterator[RedisCluster]:
    """A client on the test Redis Cluster (three masters), every master emptied before and after."""
    with _cluster_turn(TEST_REDIS_CLUSTER_URL):
        cluster = client(TEST_REDIS_CLUSTER_URL, cluster=True)
        assert isinstance(cluster, RedisCluster)
        await cluster.flushall(target_nodes=RedisCluster.PRIMARIES)
        try:
            yield cluster
        finally:
            await cluster.flushall(target_nodes=RedisCluster.PRIMARIES)
            await cluster.aclose()


@pytest.fixture(params=["server", "cluster"])
def any_redis(request: pytest.FixtureRequest) -> RedisClient:
    """In turn, `redis_client` (one server) and `redis_cluster`: for code that must work on both."""
    found = request.getfixturevalue("redis_client" if request.param == "server" else "redis_cluster")
    assert isinstance(found, aioredis.Redis | RedisCluster)
    return found


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--deep",
        action="store_true",
        help="the long runs: the test kit plays many more steps and every combination of options "
        "(tests/test_kit.py), and the tests marked `deep` run",
    )
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="write the golden playthroughs afresh instead of comparing (tests/test_golden.py)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `deep` (minutes of CPU each) run with `--deep` only, as the long kit does."""
    if config.getoption("--deep"):
        return
    later = pytest.mark.skip(reason="a long run: played with --deep")
    for item in items:
        if item.get_closest_marker("deep"):
            item.add_marker(later)
