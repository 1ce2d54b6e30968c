"""`python -m bot` as a real process: it polls a local Bot API or serves a webhook, and stops cleanly;
each start-up failure is one line on stderr and a non-zero exit."""

from __future__ import annotations

import json
import secrets
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.app import build_application
from bot.runtime.redis import client
from bot.settings import Settings
from tests.bot_api import BAD_GATEWAY, UNAUTHORIZED, Answer, LocalBotAPI, local_bot_api
from tests.conftest import TEST_REDIS_CLUSTER_URL, TEST_REDIS_URL
from tests.processes import (
    START_TIMEOUT,
    answers,
    bot_env,
    refusing_port,
    run_bot,
    server_socket,
    silent_port,
    wait_until,
)

TOKEN = "123456:not-a-real-token"


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("Cannot start the bot: ")
    return lines[0]


def start_bot(cwd: Path, **settings: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=bot_env(BOT_TOKEN=TOKEN, **settings),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(bot: subprocess.Popen[str]) -> str:
    """SIGTERM, as a process manager stops the bot; its stderr."""
    bot.send_signal(signal.SIGTERM)
    try:
        return bot.communicate(timeout=START_TIMEOUT)[1]
    finally:
        bot.kill()


def test_the_bot_polls_a_local_bot_api_and_stops_cleanly(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with local_bot_api() as api:
        bot = start_bot(tmp_path, BOT_API_URL=api.url, DATA_DIR=str(data_dir))
        try:
            wait_until(lambda: "getUpdates" in api.methods, START_TIMEOUT, "the bot polls")
            socket = server_socket(data_dir)
            assert answers(socket)
        finally:
            stderr = stop(bot)
    assert bot.returncode == 0, stderr
    assert "Traceback" not in stderr
    methods = api.methods
    assert methods[0] == "getMe"
    assert {"setMyCommands", "setMyDescription", "setMyShortDescription"} <= set(methods)
    assert methods.index("deleteWebhook") < methods.index("getUpdates")
    assert not answers(socket)  # the embedded Redis stopped with the bot


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(port: int, path: str, update: dict[str, Any], secret: str) -> int:
    """POST `update` as Telegram does to a webhook; the HTTP status (0: nothing listens yet)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(update).encode(),
        headers={"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret},
    )
    try:
        with urllib.request.urlopen(request, timeout=START_TIMEOUT) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except urllib.error.URLError:
        return 0


def test_a_webhook_takes_updates_at_its_address_with_its_secret(tmp_path: Path) -> None:
    """WEBHOOK_URL's path is where the bot listens (a proxy in front passes the path on as Telegram
    sent it); a post without WEBHOOK_SECRET is refused and changes nothing."""
    port, user, update_id = free_port(), 4242, secrets.randbits(40)
    start: dict[str, Any] = {
        # Telegram's ids never repeat, and the bot passes over one it handled (in an earlier run too).
        "update_id": update_id,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": user, "type": "private", "first_name": "Alice"},
            "from": {"id": user, "is_bot": False, "first_name": "Alice", "language_code": "en"},
            "text": "/start",
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }
    with local_bot_api() as api:
        bot = start_bot(
            tmp_path,
            BOT_API_URL=api.url,
            REDIS_URL=TEST_REDIS_URL,
            WEBHOOK_URL="https://bot.example.test/telegram/hook",
            WEBHOOK_LISTEN="127.0.0.1",
            WEBHOOK_PORT=str(port),
            WEBHOOK_SECRET="s3cret",
        )
        try:
            wait_until(lambda: "setWebhook" in api.methods, START_TIMEOUT, "the bot sets its webhook")
            forged = {**start, "update_id": update_id + 1}
            wait_until(lambda: post(port, "/telegram/hook", forged, "guess") == 403, START_TIMEOUT, "refused")
            assert post(port, "/telegram/hook", start, "s3cret") == 200
            # The greeting, then the menu of games.
            wait_until(lambda: api.methods.count("sendMessage") == 2, START_TIMEOUT, "the bot answers /start")
            assert post(port, "/", start, "s3cret") == 404  # only the webhook's own address
        finally:
            stderr = stop(bot)
    assert bot.returncode == 0, stderr
    # The forged update was never handled: one /start, answered once.
    sent = [params for method, params in zip(api.methods, api.params, strict=True) if method == "sendMessage"]
    assert [(message["chat_id"], message["text"].split("!")[0]) for message in sent] == [
        (str(user), "Hi"),
        (str(user), "Choose a game:"),
    ]
    webhook = api.params[api.methods.index("setWebhook")]
    assert webhook["url"] == "https://bot.example.test/telegram/hook" and webhook["secret_token"] == "s3cret"


def failing_once(api: LocalBotAPI, method: str, params: dict[str, str]) -> Answer:
    """Telegram with one failed getUpdates, as a network hiccup looks."""
    if method == "getUpdates" and api.methods.count("getUpdates") == 1:
        return BAD_GATEWAY
    return api.working(method, params)


def test_a_failed_poll_is_retried(tmp_path: Path) -> None:
    """PTB's polling loop retries a failed getUpdates after a pause (1 s, growing up to 30 s)."""
    with local_bot_api(failing_once) as api:
        bot = start_bot(tmp_path, BOT_API_URL=api.url, REDIS_URL=TEST_REDIS_URL)
        try:
            wait_until(lambda: api.methods.count("getUpdates") == 2, START_TIMEOUT, "the bot polls again")
            assert bot.poll() is None
        finally:
            stderr = stop(bot)
    assert bot.returncode == 0, stderr


def test_a_bad_token(tmp_path: Path) -> None:
    with local_bot_api(lambda api, method, params: UNAUTHORIZED) as api:
        done = run_bot(tmp_path, BOT_TOKEN=TOKEN, BOT_API_URL=api.url, REDIS_URL=TEST_REDIS_URL)
    assert done.returncode == 1
    assert one_line(done.stderr) == (
        f"Cannot start the bot: the Bot API at {api.url} refused BOT_TOKEN: "
        "copy the token from @BotFather again"
    )
    assert TOKEN not in done.stderr
    assert api.paths == [f"/bot{TOKEN}/getMe"]  # BOT_API_URL was used


def test_no_network(tmp_path: Path) -> None:
    with refusing_port() as port:
        done = run_bot(
            tmp_path, BOT_TOKEN=TOKEN, BOT_API_URL=f"http://127.0.0.1:{port}", REDIS_URL=TEST_REDIS_URL
        )
    assert done.returncode == 1
    assert f"the Bot API at http://127.0.0.1:{port} did not answer getMe: " in one_line(done.stderr)


def test_a_dead_redis(tmp_path: Path) -> None:
    with refusing_port() as port:
        done = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=f"redis://127.0.0.1:{port}/0")
    assert done.returncode == 1
    assert f"Redis at redis://127.0.0.1:{port}/0 does not answer: " in one_line(done.stderr)


def test_a_hung_redis(tmp_path: Path) -> None:
    with silent_port() as port:
        done = run_bot(
            tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=f"redis://127.0.0.1:{port}/0", REDIS_SOCKET_TIMEOUT="0.2"
        )
    assert done.returncode == 1
    assert "Timeout" in one_line(done.stderr)


def test_a_cluster_node_without_redis_cluster(tmp_path: Path) -> None:
    done = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=TEST_REDIS_CLUSTER_URL)
    assert done.returncode == 1
    assert one_line(done.stderr).endswith("is a node of a Redis Cluster: set REDIS_CLUSTER=true")


def test_redis_cluster_on_a_single_server(tmp_path: Path) -> None:
    node = urlsplit(TEST_REDIS_URL)._replace(path="").geturl()  # only PINGed: database 0 is safe
    done = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=node, REDIS_CLUSTER="true")
    assert done.returncode == 1
    assert one_line(done.stderr).endswith(
        "does not answer: Redis Cluster cannot be connected. "
        "Please provide at least one reachable node: Cluster mode is not enabled on this node"
    )


def test_a_database_in_a_cluster_url(tmp_path: Path) -> None:
    done = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_URL=f"{TEST_REDIS_CLUSTER_URL}/3", REDIS_CLUSTER="true")
    assert done.returncode == 1
    assert one_line(done.stderr).endswith("Argument 'db' must be 0 or None in cluster mode")


def test_invalid_settings(tmp_path: Path) -> None:
    done = run_bot(tmp_path, BOT_TOKEN=TOKEN, REDIS_CLUSTER="true")
    assert done.returncode == 2
    assert "REDIS_CLUSTER needs REDIS_URL" in one_line(done.stderr)


def test_bot_api_url_sets_the_base_urls() -> None:
    settings = Settings(
        _env_file=None, bot_token=TOKEN, bot_api_url="http://127.0.0.1:8081/", bot_api_local=True
    )
    application = build_application(settings, redis=client(TEST_REDIS_URL))
    assert application.bot.base_url == f"http://127.0.0.1:8081/bot{TOKEN}"
    assert application.bot.base_file_url == f"http://127.0.0.1:8081/file/bot{TOKEN}"
    assert application.bot.local_mode is True
