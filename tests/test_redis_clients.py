"""The Redis client factory (one server or a cluster, short timeouts) and the test fixtures for both."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
import redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisClusterException

from bot.runtime.redis import HEALTH_CHECK_SECONDS, RedisClient, client, connect, redacted
from bot.settings import Settings
from tests.conftest import TEST_REDIS_CLUSTER_URL, TEST_REDIS_URL, _claim_database, _with_database

#: Writes a table and its player's wallet together, as the bot's scripts do: keys in one hash tag.
MOVE = """
redis.call('HSET', KEYS[1], 'v', ARGV[1])
local balance = redis.call('HINCRBY', KEYS[2], 'balance', ARGV[2])
return {redis.call('HGET', KEYS[1], 'v'), balance}
"""


async def test_a_multi_key_script_runs_on_a_server_and_on_a_cluster(any_redis: RedisClient) -> None:
    move = any_redis.register_script(MOVE)
    assert await move(keys=["t:{7}:7:0", "w:{7}:7"], args=[3, -25]) == [b"3", -25]
    assert await move(keys=["t:{7}:7:0", "w:{7}:7"], args=[4, -25]) == [b"4", -50]
    assert await any_redis.hget("w:{7}:7", "balance") == b"-50"


async def test_the_cluster_fixture_is_a_real_cluster(redis_cluster: RedisCluster) -> None:
    assert len(redis_cluster.get_primaries()) == 3
    # Keys of two slots in one script: a cluster refuses what one server would run.
    with pytest.raises(RedisClusterException, match="same key slot"):
        await redis_cluster.eval(MOVE, 2, "t:{1}:1:0", "w:{2}:2", 1, 1)


@pytest.mark.parametrize("run", [1, 2])
async def test_the_cluster_fixture_starts_empty(redis_cluster: RedisCluster, run: int) -> None:
    """Whichever run comes second finds nothing of the first one's."""
    assert await redis_cluster.dbsize() == 0
    await redis_cluster.set("leftover", "x")


@pytest.mark.parametrize(
    ("base", "database", "url"),
    [
        ("redis://127.0.0.1:6379/15", 12, "redis://127.0.0.1:6379/12"),
        ("rediss://u:p@cache:6380/9", 7, "rediss://u:p@cache:6380/7"),
        ("unix:///tmp/redis.sock?db=5", 4, "unix:///tmp/redis.sock?db=4"),
    ],
)
def test_a_database_is_put_into_the_url(base: str, database: int, url: str) -> None:
    assert _with_database(base, database) == url


def test_each_test_process_holds_a_database_of_its_own(tmp_path: Path) -> None:
    """Claims from the same base get the next free database down; none is ever 0. (The claims of one
    process stand for those of several: each takes its own lock file.)"""
    claimed = [_claim_database("redis://127.0.0.1:6379/3", tmp_path) for _ in range(3)]
    assert claimed == ["redis://127.0.0.1:6379/3", "redis://127.0.0.1:6379/2", "redis://127.0.0.1:6379/1"]
    with pytest.raises(ValueError, match="in use"):
        _claim_database("redis://127.0.0.1:6379/3", tmp_path)
    assert _claim_database("redis://127.0.0.1:6379", tmp_path) == "redis://127.0.0.1:6379/15"


@pytest.mark.parametrize("base", ["redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/16"])
def test_never_database_0_or_one_that_does_not_exist(base: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="TEST_REDIS_URL"):
        _claim_database(base, tmp_path)


def connections_made(listener: socket.socket) -> int:
    """How many connections reached `listener`: the kernel accepts them for it, into its backlog."""
    listener.setblocking(False)
    count = 0
    while True:
        try:
            listener.accept()[0].close()
        except BlockingIOError:
            return count
        count += 1


async def test_a_hung_redis_times_out_once_and_is_not_retried() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:  # connections are taken, never answered
        port = listener.getsockname()[1]
        hung = client(f"redis://127.0.0.1:{port}/0", connect_timeout=0.2, socket_timeout=0.2)
        try:
            # The outer bound only turns a hang (no socket timeout) into a failure.
            with pytest.raises(redis.TimeoutError):
                await asyncio.wait_for(hung.ping(), timeout=30)
        finally:
            await hung.aclose()
        assert connections_made(listener) == 1  # a timed-out command may have run: it is not sent again


def options_of(redis_client: RedisClient) -> dict[str, object]:
    if isinstance(redis_client, RedisCluster):
        return redis_client.connection_kwargs
    return redis_client.connection_pool.connection_kwargs


@pytest.mark.parametrize("cluster", [False, True], ids=["server", "cluster"])
async def test_connect_applies_the_timeout_settings(cluster: bool) -> None:
    settings = Settings(
        _env_file=None,
        redis_url=TEST_REDIS_CLUSTER_URL if cluster else TEST_REDIS_URL,
        redis_cluster=cluster,
        redis_connect_timeout=0.7,
        redis_socket_timeout=1.5,
    )
    connected, server = await connect(settings)
    try:
        assert server is None
        assert isinstance(connected, RedisCluster) is cluster
        options = options_of(connected)
        assert options["socket_connect_timeout"] == 0.7
        assert options["socket_timeout"] == 1.5
        assert options["health_check_interval"] == HEALTH_CHECK_SECONDS
    finally:
        await connected.aclose()


def test_a_shown_url_hides_its_credentials() -> None:
    assert redacted("rediss://bot:s3cret@cache:6380/0") == "rediss://***@cache:6380/0"
    assert redacted("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
