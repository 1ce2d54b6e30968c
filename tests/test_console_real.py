"""The console with the real bot: a scripted group game and a private game, pictures written to disk."""

from __future__ import annotations

import io
from pathlib import Path

import redis.asyncio as aioredis
from PIL import Image

from bot.offline.console import run_console
from tests.harness import BotHarness

SCRIPT = """\
# Alice opens a table in a group, Bob joins, Alice starts.
as 1 Alice
lang en
in group 1
/new grid
as 2 Bob
press 1
as 1 Alice
press 5
show
as 3 Carol
press 1
quit
"""


async def test_console_plays_the_real_bot(redis_client: aioredis.Redis, tmp_path: Path) -> None:
    harness = BotHarness(redis_client)  # the real Application on the fake API, as the console builds it
    out = io.StringIO()
    await run_console(
        harness.app.bot_data["services"].settings, io.StringIO(SCRIPT), out, tmp_path, application=harness.app
    )
    text = out.getvalue()
    assert "Players (1 of 2)" in text and "Players (2 of 2)" in text
    assert "[1] Join" in text and "[5] Start" in text
    assert "your turn" in text
    # Alerts speak the presser's language: Carol's Telegram is Russian, only Alice chose English.
    assert "(alert to Carol) Вы не играете за этим столом." in text
    images = sorted(tmp_path.glob("*.png"))
    assert images, text
    assert str(images[0]) in text
    assert max(Image.open(images[0]).size) == 1000
