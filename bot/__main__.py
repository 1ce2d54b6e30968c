"""`python -m bot`: long polling, or a webhook when WEBHOOK_URL is set; `--console` plays offline."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.runtime.redis import EmbeddedRedis, client
from bot.settings import Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="The card games bot.")
    parser.add_argument(
        "--console",
        action="store_true",
        help="play offline in the terminal against a fake Bot API (no token needed)",
    )
    args = parser.parse_args(argv)
    settings = Settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The HTTP client logs every request at INFO; that is noise for a bot.
    logging.getLogger("httpx").setLevel(logging.WARNING)

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
    return 0


def run(settings: Settings) -> None:
    from bot.app import build_application

    # Started before the event loop: PTB's run_* methods own the loop, and the client connects lazily.
    embedded = None
    url = settings.redis_url
    if not url:
        embedded = EmbeddedRedis(settings.data_dir)
        url = embedded.start()
    application = build_application(settings, redis=client(url))
    try:
        if settings.webhook_url:
            secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            application.run_webhook(
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                webhook_url=settings.webhook_url,
                secret_token=secret,
                allowed_updates=["message", "callback_query"],
            )
        else:
            application.run_polling(allowed_updates=["message", "callback_query"])
    finally:
        if embedded is not None:
            embedded.stop()


if __name__ == "__main__":
    sys.exit(main())
