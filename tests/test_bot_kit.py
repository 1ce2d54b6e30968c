"""The generic bot kit over every registered adapter, in a group and in private (tests/bot_kit.py)."""

from __future__ import annotations

import random

import pytest
import redis.asyncio as aioredis

from bot.adapters import ADAPTERS
from bot.tables.model import Phase
from tests.bot_kit import ALICE, GROUP, Run, open_group_table, play_to_the_end
from tests.harness import BotHarness, Clock

#: Games a group table plays at most for every check to have had its turn.
GAMES_FOR_THE_CHECKS = 5
#: Private modes whose whole match takes long on a slow machine (a Mathers' Tarot match to 100 against
#: two computers, the Minor Arcana game's matches to 300, Durak against strong computers, the Tarot
#: grid with two tokens): played with `--deep`; the same adapters play to their end in the other modes
#: (and tests/test_bot_tricks.py plays the first hand of the Minor Arcana against strong computers).
LONG_MODES = {
    ("tarot", "two_hard"),
    ("tarot", "two"),
    ("minor_arcana", "five"),
    ("minor_arcana", "three_hard"),
    ("minor_arcana", "three"),
    ("minor_arcana", "one"),
    ("grid_tarot", "one2"),
    ("durak", "hard"),
    ("durak_transfer", "hard"),
}
#: Group games whose match runs long (Game 4 to 100, Game 5 to 300): with `--deep`;
#: `tests/test_bot_tricks.py` puts Game 5 through the same checks at every seat count, one hand each,
#: and Game 4's asks, discard and restart through a group table.
LONG_GROUP_GAMES = {"tarot", "minor_arcana"}
GROUP_GAMES = [
    pytest.param(game_id, marks=[pytest.mark.deep] if game_id in LONG_GROUP_GAMES else [])
    for game_id, adapter in sorted(ADAPTERS.items())
    if adapter.in_groups
]
PRIVATE_GAMES = [
    pytest.param(game_id, mode.key, marks=[pytest.mark.deep] if (game_id, mode.key) in LONG_MODES else [])
    for game_id, adapter in sorted(ADAPTERS.items())
    for mode in adapter.private_modes
]


@pytest.mark.parametrize("game_id", GROUP_GAMES)
async def test_a_group_game_plays_to_its_end_through_every_check(
    redis_client: aioredis.Redis, game_id: str
) -> None:
    rng = random.Random(f"group:{game_id}")
    needed = {"stale", "restart", "leaks"}
    async with BotHarness(redis_client, clock=Clock()) as bot:
        table = await open_group_table(bot, game_id)
        run = Run(table)
        # The deal is the bot's own secret, so a game may end before a check's turn came: then the
        # same seats play again (Play again) until every check was made.
        for _ in range(GAMES_FOR_THE_CHECKS):
            await play_to_the_end(bot, GROUP, rng, run, restart_at=8)
            if needed <= set(run.checks):
                break
            run.calls_from = len(bot.api.calls)
            await bot.press(GROUP, ALICE, bot.button(GROUP, "Play again"))
    assert run.table.phase is Phase.FINISHED
    assert needed <= set(run.checks), run.checks
    if not ADAPTERS[game_id].panels:
        assert {"foreign"} <= set(run.checks)
    assert "Play again" in [
        label for row in bot.api.buttons(GROUP, run.table.message_id or 0) for label, _ in row
    ]


@pytest.mark.parametrize(("game_id", "mode"), PRIVATE_GAMES)
async def test_a_private_game_plays_to_its_end(redis_client: aioredis.Redis, game_id: str, mode: str) -> None:
    rng = random.Random(f"private:{game_id}:{mode}")
    async with BotHarness(redis_client, clock=Clock()) as bot:
        await bot.say(ALICE, ALICE, f"/new {game_id} {mode}", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None and table.phase is Phase.PLAYING
        run = Run(table)
        await play_to_the_end(bot, ALICE, rng, run, restart_at=4)
    assert run.table.phase is Phase.FINISHED
