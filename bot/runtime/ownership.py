"""Who owns a data folder's embedded Redis server, and taking a folder over from a bot that is gone.

The server inherits an exclusive lock on `redis.lock` and holds it for as long as it runs; `redis.owner`
records the bot process that started it and the server's socket. A bot that finds the lock taken reads
the record: a live owner is a second bot on the same folder (refused); a dead one left its server
behind (a `kill -9` where no parent-death signal ends the server, or a server still shutting down), so
the new bot asks that server to shut down over its socket (Redis flushes its append-only file first),
waits for the lock and carries on.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.runtime.errors import StartupError

log = logging.getLogger(__name__)

LOCK_NAME = "redis.lock"
OWNER_NAME = "redis.owner"
#: How often a waiting bot looks at the lock again.
POLL_SECONDS = 0.05
#: Linux tells a process's start time, which tells a reused pid from the owner itself.
_PROC = Path("/proc/self/stat").exists()


@dataclass(frozen=True)
class Owner:
    """The bot process that started a data folder's server, and the server's unix socket."""

    pid: int
    #: The process's start time (Linux), so that another process given the same pid is not the owner.
    started: str | None
    socket: str

    @classmethod
    def this_process(cls, socket: str) -> Owner:
        return cls(os.getpid(), _start_time(os.getpid()), socket)

    def alive(self) -> bool:
        if not _PROC:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                return False
            except PermissionError:
                return True  # it exists, under another user
            return True
        fields = _stat(self.pid)
        if fields is None or fields[0] in ("Z", "X"):  # gone, or a zombie nobody has reaped yet
            return False
        return self.started is None or fields[19] == self.started


def _stat(pid: int) -> list[str] | None:
    """Fields 3 onwards of /proc/PID/stat (state, ppid, ...), or None when the process is gone."""
    try:
        text = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    return text[text.rindex(")") + 2 :].split()


def _start_time(pid: int) -> str | None:
    fields = _stat(pid) if _PROC else None
    return fields[19] if fields else None  # field 22: start time in clock ticks after boot


def read_owner(data_dir: Path) -> Owner | None:
    """The recorded owner of `data_dir`'s server, or None if no readable record is there."""
    try:
        return Owner(**json.loads((data_dir / OWNER_NAME).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def write_owner(data_dir: Path, owner: Owner) -> None:
    # Written aside and renamed, so that a reader never sees half a record.
    draft = data_dir / f".{OWNER_NAME}.{os.getpid()}"
    draft.write_text(json.dumps(asdict(owner)), encoding="utf-8")
    os.replace(draft, data_dir / OWNER_NAME)


def local_client(socket: str, *, timeout: float) -> redis.Redis:
    """A synchronous client on a server's unix socket that fails at once instead of retrying."""
    return redis.Redis(
        unix_socket_path=socket,
        socket_connect_timeout=timeout,
        socket_timeout=timeout,
        retry=Retry(NoBackoff(), 0),
    )


def _ask_to_shut_down(socket: str) -> None:
    client = local_client(socket, timeout=5.0)  # SHUTDOWN writes the data out before it answers
    try:
        with contextlib.suppress(redis.RedisError):  # already gone, or going
            client.shutdown()
    finally:
        client.close()


def claim(data_dir: Path, socket: str, timeout: float) -> tuple[int, Owner | None]:
    """Lock `data_dir` for a new server on `socket` and record this process as its owner.

    Returns the locked file descriptor (the server inherits it) and the previous owner's record, if any.
    Raises StartupError if a live bot owns the folder, or a server left behind does not stop in time.
    """
    fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _lock(fd, data_dir, timeout)
        previous = read_owner(data_dir)
        write_owner(data_dir, Owner.this_process(socket))
    except BaseException:
        os.close(fd)
        raise
    return fd, previous


def _lock(fd: int, data_dir: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    asked: set[str] = set()
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        owner = read_owner(data_dir)
        if owner is None:
            raise StartupError(
                f"{data_dir} is locked by a Redis server that no bot has recorded: stop that redis-server"
            )
        if owner.alive():
            raise StartupError(
                f"another bot (pid {owner.pid}) is using {data_dir}: "
                "stop it, or give this bot its own DATA_DIR"
            )
        if owner.socket not in asked:
            log.warning(
                "bot pid %s, which started the Redis server in %s, is gone: stopping it", owner.pid, data_dir
            )
            asked.add(owner.socket)
            _ask_to_shut_down(owner.socket)
        if time.monotonic() > deadline:
            raise StartupError(
                f"the Redis server that bot pid {owner.pid} left in {data_dir} "
                f"did not stop within {timeout:g} s"
            )
        time.sleep(POLL_SECONDS)
