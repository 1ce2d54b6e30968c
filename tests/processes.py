"""The bot as a real process: `python -m bot` and its offline console, with a clean environment.

Every wait has a deadline and polls for a condition; none sleeps for a fixed time.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from pydantic import AliasChoices

from bot.runtime.ownership import local_client, read_owner
from bot.settings import Settings

#: Long enough for a loaded machine to import the bot; a test waits this long only when it fails.
START_TIMEOUT = 60.0


def setting_names() -> set[str]:
    """Every environment variable a setting reads."""
    names: set[str] = set()
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [field]
        names.update(str(choice).upper() for choice in choices)
    return names


def bot_env(**settings: str) -> dict[str, str]:
    """This environment without any bot setting (CI exports REDIS_URL, say), plus `settings`."""
    names = setting_names()
    env = {name: value for name, value in os.environ.items() if name.upper() not in names}
    env.update({name.upper(): value for name, value in settings.items()})
    return env


def run_bot(cwd: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` to its end, in `cwd` (where no .env is), with only `settings` set."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=bot_env(**settings),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(0.02)


def server_socket(data_dir: Path) -> str:
    owner = read_owner(data_dir)
    assert owner is not None
    return owner.socket


def answers(socket: str) -> bool:
    client = local_client(socket, timeout=1.0)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


class Console:
    """`python -m bot --console` reading lines from a pipe; its output is read by a thread."""

    def __init__(self, cwd: Path, **settings: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "--console"],
            cwd=cwd,
            env=bot_env(**settings),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, text: str, timeout: float = START_TIMEOUT) -> str:
        """The next output line holding `text`, waiting at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {text!r} within {timeout:g} s; output: {self.seen}") from None
            if line is None:
                raise AssertionError(f"the console ended before {text!r}; output: {self.seen}")
            self.seen.append(line)
            if text in line:
                return line

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind runs in the bot."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=START_TIMEOUT)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=START_TIMEOUT)
        self._reader.join(timeout=START_TIMEOUT)  # it reads to the end of the output, then stops
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


@contextmanager
def console(cwd: Path, **settings: str) -> Iterator[Console]:
    running = Console(cwd, **settings)
    try:
        yield running
    finally:
        running.close()


@contextmanager
def refusing_port() -> Iterator[int]:
    """A loopback port that refuses connections: bound, never listening, so nobody else can take it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@contextmanager
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections and never answers: a hung server."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock.getsockname()[1]
