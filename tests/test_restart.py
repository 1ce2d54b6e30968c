"""The whole bot as a real process on its embedded Redis: `kill -9`, restart, a second bot on one folder."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import redis

from bot import keys
from bot.runtime.ownership import local_client
from tests.processes import Console, answers, console, refusing_port, run_bot, server_socket, wait_until

#: The issue's bound for a restarted bot to be up again.
RESTART_SECONDS = 10.0
READY = "Offline console"


def snapshot(socket: str) -> dict[bytes, object]:
    """Every key of the server and its value (a DUMP would differ with a hash's field order)."""
    client = local_client(socket, timeout=5.0)
    try:
        return {key: value_of(client, key) for key in client.scan_iter()}
    finally:
        client.close()


def value_of(client: redis.Redis, key: bytes) -> object:
    kind = client.type(key)
    if kind == b"hash":
        return client.hgetall(key)
    if kind == b"zset":
        return client.zrange(key, 0, -1, withscores=True)
    if kind == b"set":
        return client.smembers(key)
    if kind == b"list":
        return client.lrange(key, 0, -1)
    return client.get(key)


def play_two_games(bot: Console) -> None:
    bot.expect(READY)
    bot.send("lang en")
    bot.send("/new grid")
    bot.expect("35 closed cards")
    bot.send("press 1")  # a move, so the stored table is past its first state
    bot.expect("34 closed cards")
    bot.send("as 2 Bob")
    bot.send("lang en")
    bot.send("/new grid")
    bot.expect("35 closed cards")


def test_kill_9_then_restart_keeps_every_game(tmp_path: Path) -> None:
    """The issue's defect: after `kill -9` the embedded Redis held the data folder and no restart worked."""
    data = {"DATA_DIR": str(tmp_path / "data")}
    with console(tmp_path, **data) as bot:
        play_two_games(bot)
        before = snapshot(server_socket(tmp_path / "data"))
        bot.kill()
    assert before
    with console(tmp_path, **data) as restarted:
        restarted.expect(READY, timeout=RESTART_SECONDS)
        after = snapshot(server_socket(tmp_path / "data"))
    # Every key as it was, but the count of console runs (it numbers each run's messages anew).
    runs = keys.CONSOLE_RUNS.encode()
    assert after.pop(runs) == b"2" and before.pop(runs) == b"1"
    assert {key: after.get(key) for key in before} == before


def server_pid(socket: str) -> int | None:
    """The pid of the server answering on `socket`, or None while none does."""
    client = local_client(socket, timeout=1.0)
    try:
        return int(client.info("server")["process_id"])
    except redis.RedisError:
        return None
    finally:
        client.close()


@pytest.mark.parametrize("ending", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "shut-down"])
def test_an_embedded_server_that_ends_is_started_again_with_every_game(
    tmp_path: Path, ending: signal.Signals
) -> None:
    """Redis stopped under a running bot: the bot starts its server again and plays on."""
    data_dir = tmp_path / "data"
    with console(tmp_path, DATA_DIR=str(data_dir)) as bot:
        play_two_games(bot)
        socket = server_socket(data_dir)
        before = snapshot(socket)
        first = server_pid(socket)
        assert first is not None
        os.kill(first, ending)
        wait_until(lambda: server_pid(socket) not in (None, first), RESTART_SECONDS, "a new server answers")
        assert snapshot(socket) == before
        bot.send("press 2")  # the second game, played on from the new server
        bot.expect("34 closed cards")


def test_the_embedded_server_ends_with_its_bot(tmp_path: Path) -> None:
    with console(tmp_path, DATA_DIR=str(tmp_path / "data")) as bot:
        bot.expect(READY)
        socket = server_socket(tmp_path / "data")
        assert answers(socket)
        bot.kill()
    wait_until(lambda: not answers(socket), RESTART_SECONDS, "the orphaned server stops")


@pytest.mark.parametrize("args", [(), ("--console",)], ids=["polling", "console"])
def test_a_second_bot_on_the_same_data_dir_gets_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    data_dir = tmp_path / "data"
    with console(tmp_path, DATA_DIR=str(data_dir)) as first, refusing_port() as port:
        first.expect(READY)
        first.send("lang en")
        second = run_bot(
            tmp_path,
            *args,
            DATA_DIR=str(data_dir),
            BOT_TOKEN="123:abc",
            BOT_API_URL=f"http://127.0.0.1:{port}",
        )
        first.send("/new grid")
        first.expect("35 closed cards")  # the first bot carries on
    assert second.returncode == 1
    assert second.stderr.strip().splitlines() == [
        f"Cannot start the bot: another bot (pid {first.process.pid}) is using {data_dir.resolve()}: "
        "stop it, or give this bot its own DATA_DIR"
    ]
