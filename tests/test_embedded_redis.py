"""The embedded Redis server keeps its data across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from bot.runtime.redis import EmbeddedRedis, connect, find_redis_server
from bot.settings import Settings


def test_data_survives_a_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data with space"
    with EmbeddedRedis(data_dir) as server:
        client = redis.Redis.from_url(server.url)
        client.set("game", "kept")
        client.hset("tbl:{1}:0", mapping={"v": "3", "doc": "{}"})
        client.close()
    with EmbeddedRedis(data_dir) as server:
        client = redis.Redis.from_url(server.url)
        assert client.get("game") == b"kept"
        assert client.hget("tbl:{1}:0", "v") == b"3"
        client.close()


def test_a_second_server_may_not_share_the_data_dir(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path), pytest.raises(RuntimeError, match="another Redis"):
        EmbeddedRedis(tmp_path).start()
    # The lock is released on stop.
    with EmbeddedRedis(tmp_path):
        pass


def test_stop_removes_the_socket(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path)
    url = server.start()
    server.stop()
    assert not Path(url.removeprefix("unix://")).exists()
    with pytest.raises(RuntimeError):
        _ = server.url


def test_finds_a_redis_server() -> None:
    assert Path(find_redis_server()).is_file()


async def test_connect_without_url_starts_an_embedded_server(tmp_path: Path) -> None:
    client, server = await connect(Settings(_env_file=None, redis_url=None, data_dir=tmp_path))
    assert server is not None
    try:
        assert await client.ping()
    finally:
        await client.aclose()
        server.stop()


async def test_connect_with_url_uses_it() -> None:
    client, server = await connect(Settings(_env_file=None, redis_url="redis://127.0.0.1:6379/15"))
    try:
        assert server is None
        assert await client.ping()
    finally:
        await client.aclose()
