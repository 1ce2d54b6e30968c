"""A tiny local Bot API over HTTP, for the bot as a real process (`BOT_API_URL`)."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

#: The status and JSON body answering one method.
Answer = tuple[int, dict[str, Any]]

BOT_USER = {"id": 123456, "is_bot": True, "first_name": "Games", "username": "games_bot"}
UNAUTHORIZED: Answer = (401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
BAD_GATEWAY: Answer = (502, {"ok": False, "error_code": 502, "description": "Bad Gateway"})
#: What a bot with nothing set yet reads of its profile; every other method answers True.
GETTERS: dict[str, Any] = {
    "getMyCommands": [],
    "getMyDescription": {"description": ""},
    "getMyShortDescription": {"short_description": ""},
}


@dataclass
class LocalBotAPI:
    url: str
    #: The request paths, `/bot<token>/<method>`, in the order they came.
    paths: list[str] = field(default_factory=list)
    #: The parameters of each request, in the same order.
    params: list[dict[str, str]] = field(default_factory=list)
    closing: threading.Event = field(default_factory=threading.Event)

    @property
    def methods(self) -> list[str]:
        return [path.rpartition("/")[2] for path in self.paths]

    def working(self, method: str, params: dict[str, str]) -> Answer:
        """Telegram for a valid token and no updates: getUpdates holds for its `timeout` (long polling)."""
        if method == "getMe":
            return 200, {"ok": True, "result": BOT_USER}
        if method == "getUpdates":
            self.closing.wait(float(params.get("timeout", 0)))
            return 200, {"ok": True, "result": []}
        return 200, {"ok": True, "result": GETTERS.get(method, True)}


@contextmanager
def local_bot_api(
    answer: Callable[[LocalBotAPI, str, dict[str, str]], Answer] = LocalBotAPI.working,
) -> Iterator[LocalBotAPI]:
    """A Bot API on a loopback port answering every method with `answer(api, method, parameters)`."""
    api: LocalBotAPI

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            # PTB sends the parameters of a call without files as an urlencoded form.
            form = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            params = dict(parse_qsl(form))
            api.paths.append(self.path)
            api.params.append(params)
            status, body = answer(api, self.path.rpartition("/")[2], params)
            data = json.dumps(body).encode()
            with contextlib.suppress(ConnectionError):  # the bot stopped waiting (a long poll at shutdown)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the test reads `paths`

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    api = LocalBotAPI(f"http://127.0.0.1:{server.server_port}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        api.closing.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
