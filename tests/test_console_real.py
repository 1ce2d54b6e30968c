"""The console with the real bot: a scripted group game and a private game, pictures written to disk."""

from __future__ import annotations

import io
from pathlib import Path

import redis.asyncio as aioredis
from PIL import Image

from bot.offline.console import run_console
from bot.settings import Settings
from tests.conftest import TEST_REDIS_URL
from tests.harness import BotHarness

SCRIPT = """\
# Alice opens a table in a group, Bob joins, Alice starts (the third button of a full lobby).
as 1 Alice
lang en
in group 1
/new grid
as 2 Bob
press 1
as 1 Alice
press 3
show
as 3 Carol
press 1
quit
"""


async def play(redis_client: aioredis.Redis, script: str, images: Path) -> str:
    """What the console prints for `script`, played on the real Application over the fake API (as
    the console builds it), its pictures written to `images`."""
    harness = BotHarness(redis_client)
    out = io.StringIO()
    await run_console(
        harness.app.bot_data["services"].settings, io.StringIO(script), out, images, application=harness.app
    )
    return out.getvalue()


async def test_console_plays_the_real_bot(redis_client: aioredis.Redis, tmp_path: Path) -> None:
    text = await play(redis_client, SCRIPT, tmp_path)
    assert "Players (1 of 2)" in text and "Players (2 of 2)" in text
    assert "[1] Join" in text and "[5] Start" in text
    assert "your turn" in text
    # Alerts speak the presser's language: Carol's Telegram is Russian, only Alice chose English.
    assert "(alert to Carol) Вы не играете за этим столом." in text
    images = sorted(tmp_path.glob("*.png"))
    assert images, text
    assert str(images[0]) in text
    assert max(Image.open(images[0]).size) == 1000


async def test_a_restarted_console_numbers_its_messages_after_the_last_runs(
    redis_client: aioredis.Redis, tmp_path: Path
) -> None:
    """The store keeps a group's lobby from one run to the next while the fake API forgets its
    messages: the second run's /new is a new request (the bot says a game is open), not the first
    run's delivered again (which the bot would pass over in silence)."""
    settings = Settings(_env_file=None, redis_url=TEST_REDIS_URL, data_dir=tmp_path)
    script = "as 1 Alice\nlang en\nin group 1\n/new race\nquit\n"
    runs = []
    for _ in range(2):
        out = io.StringIO()
        await run_console(settings, io.StringIO(script), out, tmp_path / "img")
        runs.append(out.getvalue())
    assert "[chat -1001 · msg 2] 🏁 Race track" in runs[0] and "earlier console runs" not in runs[0]
    assert "Games of earlier console runs go on" in runs[1]
    assert "[chat -1001 · msg 1002 · reply to msg 1001] A game is already open here:" in runs[1]


async def test_the_console_writes_as_the_group_and_removes_and_adds_the_bot(
    redis_client: aioredis.Redis, tmp_path: Path
) -> None:
    script = """\
as 1 Alice
lang en
/start
in group 1
/new grid
anon /join
anon /stop
/new grid
bot out
bot in
quit
"""
    text = await play(redis_client, script, tmp_path)
    assert "You are writing as the group or as a channel" in text
    assert "The table is closed." in text  # an anonymous admin's /stop
    assert (
        "[chat 1 · msg" in text and "was stopped: the bot was removed" not in text
    )  # a lobby closes silently
    assert text.count("Hi! I host card and board games. Choose a game below to open a table here.") == 1


async def test_a_person_blocks_the_bot_in_the_console(redis_client: aioredis.Redis, tmp_path: Path) -> None:
    """`block` refuses the bot's requests to the current user, as Telegram does: Bob's panel is
    refused when the game stops, and the group is not asked to bring him back to a game that is over.
    Writing to the bot again unblocks it, as a Telegram client does."""
    script = """\
as 1 Alice
lang en
/start
as 2 Bob
lang en
/start
as 1 Alice
in group 1
/new durak
as 2 Bob
press 1
as 1 Alice
press 9
as 2 Bob
in private
block
as 1 Alice
in group 1
/stop
as 2 Bob
in private
/games
quit
"""
    text = await play(redis_client, script, tmp_path)
    assert "(Bob blocked the bot)" in text
    assert "Bob (2) in private> /games\n(Bob unblocked the bot)\n[chat 2 · msg" in text  # writing unblocks
    assert "[chat 2 · error] editMessageMedia: Forbidden: bot was blocked by the user" in text
    assert "The game was stopped." in text
    assert "I cannot send you your cards" not in text
