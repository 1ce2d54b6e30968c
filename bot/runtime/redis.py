"""Redis clients for one server or a cluster, with short timeouts; the start-up check that Redis answers."""

from __future__ import annotations

from typing import Literal, TypeAlias, cast, overload
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError, RedisClusterException, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.runtime.embedded import EmbeddedRedis
from bot.runtime.errors import StartupError
from bot.settings import REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT, Settings

#: Either kind of client `client()` makes; the same commands and scripts work on both when every
#: script's keys share one hash tag.
RedisClient: TypeAlias = aioredis.Redis | RedisCluster

#: Redis not answering: an outage, told in one line where it is met (its traceback would say nothing
#: new), and passed up by the ticker's work so that the ticker tells it once.
OUTAGE = (ConnectionError, RedisTimeoutError)

#: Connections one process may hold; past this, commands wait for a free one instead of failing.
MAX_CONNECTIONS = 64
#: A connection idle this long is checked with a PING before it carries a command, so a restarted
#: server or a dropped connection is found (and replaced) there rather than failing a chat's update.
HEALTH_CHECK_SECONDS = 30


def _retry() -> Retry:
    """A dropped connection (a restarted server, a failover) is retried twice on a new one, after a short
    backoff. A timeout is not retried: the command may have run, and a hung Redis must fail fast.
    (A cluster client retries timeouts too, as its own way of finding a failed-over node.)"""
    return Retry(
        ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=2, supported_errors=(ConnectionError,)
    )


@overload
def client(
    url: str,
    *,
    cluster: Literal[False] = False,
    connect_timeout: float = REDIS_CONNECT_TIMEOUT,
    socket_timeout: float = REDIS_SOCKET_TIMEOUT,
) -> aioredis.Redis: ...


@overload
def client(
    url: str,
    *,
    cluster: bool,
    connect_timeout: float = REDIS_CONNECT_TIMEOUT,
    socket_timeout: float = REDIS_SOCKET_TIMEOUT,
) -> RedisClient: ...


def client(
    url: str,
    *,
    cluster: bool = False,
    connect_timeout: float = REDIS_CONNECT_TIMEOUT,
    socket_timeout: float = REDIS_SOCKET_TIMEOUT,
) -> RedisClient:
    """A client on `url`: one server, or with `cluster` the Redis Cluster that `url`'s node belongs to.

    The single-server pool makes a burst of commands wait for a free connection (redis-py's default pool
    raises instead).
    """
    options = {
        "socket_connect_timeout": connect_timeout,
        "socket_timeout": socket_timeout,
        "health_check_interval": HEALTH_CHECK_SECONDS,
        "retry": _retry(),
    }
    if cluster:
        return RedisCluster.from_url(url, **options)
    return aioredis.Redis(
        connection_pool=aioredis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=10, **options
        )
    )


def redacted(url: str) -> str:
    """`url` without its credentials, to be shown."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()


async def check(redis: RedisClient, url: str) -> None:
    """StartupError unless Redis answers at `url`, as the kind of server the client expects."""
    try:
        await redis.ping()
        misplaced = isinstance(redis, aioredis.Redis) and await _is_cluster_node(redis)
    except (RedisError, RedisClusterException) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise StartupError(f"Redis at {redacted(url)} does not answer: {reason}") from None
    if misplaced:
        raise StartupError(f"Redis at {redacted(url)} is a node of a Redis Cluster: set REDIS_CLUSTER=true")


async def _is_cluster_node(redis: aioredis.Redis) -> bool:
    try:
        info = await redis.info("cluster")
    except ResponseError:  # a managed Redis may not offer INFO
        return False
    return bool(info.get("cluster_enabled"))


async def connect(settings: Settings) -> tuple[aioredis.Redis, EmbeddedRedis | None]:
    """A client on REDIS_URL (a cluster with REDIS_CLUSTER), or on an embedded server started in DATA_DIR.

    Raises StartupError unless Redis answers. The embedded server is started on the calling thread (it
    ends with that thread, see `EmbeddedRedis.start`), blocking the loop briefly: nothing runs before it.
    The caller closes the client and stops the embedded server (if any) at shutdown.
    """
    server = None
    url = settings.redis_url
    if not url:
        server = EmbeddedRedis(settings.data_dir)
        url = server.start()
    try:
        redis = client(
            url,
            cluster=settings.redis_cluster,
            connect_timeout=settings.redis_connect_timeout,
            socket_timeout=settings.redis_socket_timeout,
        )
    except (ValueError, RedisClusterException) as error:  # a malformed URL, or a database in a cluster
        if server is not None:
            server.stop()
        raise StartupError(f"REDIS_URL {redacted(url)}: {error}") from None
    try:
        await check(redis, url)
    except BaseException:
        await redis.aclose()
        if server is not None:
            server.stop()
        raise
    # The store and the economy are typed for the single-server client; they use only what both offer.
    return cast(aioredis.Redis, redis), server
