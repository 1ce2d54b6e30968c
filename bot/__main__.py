"""`python -m bot`: long polling, or a webhook when WEBHOOK_URL is set; `--console` plays offline.

Start-up problems (settings, Redis, Telegram, a data folder in use) end the process with one line on
stderr and a non-zero exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from telegram.error import TelegramError
from telegram.ext import Application

from bot.runtime.errors import StartupError
from bot.runtime.redis import connect
from bot.runtime.telegram import BOOTSTRAP_RETRIES, check_telegram
from bot.settings import Settings

#: The bot's own membership changes too: removed from a group, its games there stop.
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="The card games bot.")
    parser.add_argument(
        "--console",
        action="store_true",
        help="play offline in the terminal against a fake Bot API (no token needed)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        for problem in error.errors():
            where = ".".join(str(part) for part in problem["loc"]).upper() or "settings"
            print(f"Cannot start the bot: {where}: {problem['msg']}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The HTTP client logs every request at INFO and the scheduler every job run: noise for a bot.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)

    try:
        if args.console:
            from bot.offline.console import main as console_main

            return console_main(settings)
        if settings.bot_token is None:
            print(
                "BOT_TOKEN is not set. Put it in .env (see .env.example), or try the bot offline with "
                "`python -m bot --console`.",
                file=sys.stderr,
            )
            return 2
        run(settings)
    except StartupError as error:
        print(f"Cannot start the bot: {error}", file=sys.stderr)
        return 1
    return 0


def run(settings: Settings) -> None:
    """Connect to Redis, check Telegram, then serve until stopped; StartupError if any of it fails."""
    from bot.app import build_application

    # One loop for the checks and for PTB's run_* methods (they run the current loop), so that the
    # clients made here stay usable there.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        redis, embedded = loop.run_until_complete(connect(settings))
        try:
            application = build_application(settings, redis=redis)
            loop.run_until_complete(check_telegram(application, settings))
            serve(application, settings)
        finally:
            loop.run_until_complete(redis.aclose())
            if embedded is not None:
                embedded.stop()
    finally:
        loop.close()


def serve(application: Application[Any, Any, Any, Any, Any, Any], settings: Settings) -> None:
    try:
        if settings.webhook_url:
            secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            application.run_webhook(
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                # Served at the public address's path: a proxy passes it on as Telegram sent it.
                url_path=urlsplit(settings.webhook_url).path,
                webhook_url=settings.webhook_url,
                secret_token=secret,
                allowed_updates=ALLOWED_UPDATES,
                bootstrap_retries=BOOTSTRAP_RETRIES,
                close_loop=False,
            )
        else:
            application.run_polling(
                allowed_updates=ALLOWED_UPDATES, bootstrap_retries=BOOTSTRAP_RETRIES, close_loop=False
            )
    except TelegramError as error:  # the set-up calls failed past their retries, or post_init did
        raise StartupError(f"Telegram failed while the bot was starting: {error}") from None


if __name__ == "__main__":
    sys.exit(main())
