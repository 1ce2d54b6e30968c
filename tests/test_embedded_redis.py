"""The embedded Redis server keeps its data across restarts, and a data folder has one server at a time."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from bot.runtime.embedded import EmbeddedRedis, find_redis_server
from bot.runtime.errors import StartupError
from bot.runtime.ownership import OWNER_NAME, Owner, local_client, read_owner, write_owner
from bot.runtime.redis import connect
from bot.settings import Settings
from tests.conftest import TEST_REDIS_URL


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
    with EmbeddedRedis(tmp_path), pytest.raises(StartupError, match=f"another bot \\(pid {os.getpid()}\\)"):
        EmbeddedRedis(tmp_path).start()
    # The lock is released on stop.
    with EmbeddedRedis(tmp_path):
        pass


def finished_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(done.stdout)


@pytest.mark.parametrize(
    "gone",
    [
        lambda owner: dataclasses.replace(owner, pid=finished_pid()),
        # Its pid now belongs to another process (here this one), which started at another time.
        lambda owner: dataclasses.replace(owner, started="1"),
    ],
    ids=["pid gone", "pid reused"],
)
def test_a_server_whose_bot_is_gone_is_shut_down_and_replaced(
    tmp_path: Path, gone: Callable[[Owner], Owner]
) -> None:
    """Where no parent-death signal ends a server with its bot (or a server is still stopping)."""
    left = EmbeddedRedis(tmp_path)
    left.start()
    try:
        old = redis.Redis.from_url(left.url)
        old.set("game", "kept")
        old.close()
        owner = read_owner(tmp_path)
        assert owner is not None and owner.pid == os.getpid()
        write_owner(tmp_path, gone(owner))
        with EmbeddedRedis(tmp_path) as server:
            client = redis.Redis.from_url(server.url)
            assert client.get("game") == b"kept"
            client.close()
            with pytest.raises(redis.ConnectionError):
                local_client(owner.socket, timeout=1.0).ping()  # the old server is gone, not just idle
            assert not Path(owner.socket).parent.exists()  # and its socket folder with it
    finally:
        left.stop()


def test_a_locked_data_dir_without_an_owner_record_is_refused(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path):
        (tmp_path / OWNER_NAME).unlink()
        with pytest.raises(StartupError, match="no bot has recorded"):
            EmbeddedRedis(tmp_path).start()


def test_the_owner_record_names_this_process_and_the_socket(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        owner = read_owner(tmp_path)
        assert owner == Owner.this_process(server.url.removeprefix("unix://"))
        assert owner.alive()


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
    client, server = await connect(Settings(_env_file=None, redis_url=TEST_REDIS_URL))
    try:
        assert server is None
        assert await client.ping()
    finally:
        await client.aclose()
