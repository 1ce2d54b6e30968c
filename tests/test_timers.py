"""Turn timers: warn, move for the person, give the seat to a computer; persisted across a restart."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.app import services_of
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from bot.tables.timers import TIMERS_KEY
from tests.harness import BotHarness

ALICE, BOB = 51, 52
GROUP = -100950


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def expire_due(bot: BotHarness) -> int:
    """What one tick of the ticker does; the number of tables it handled."""
    services = services_of(bot.app)
    due = await services.timers.due()
    for table in due:
        await services.timers.expire(table, services.publisher.show_with_warning)
    return len(due)


async def group_game(bot: BotHarness) -> Table:
    await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    table = await bot.table(GROUP)
    assert table is not None and table.turn_seconds == 90 and table.deadline is not None
    return table


def mover(table: Table) -> int:
    return game_of(table).to_move(state_of(table))[0]


async def test_timeouts_warn_then_move_then_take_the_seat(redis_client: aioredis.Redis) -> None:
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        seat = mover(table)
        assert await expire_due(bot) == 0  # not due yet
        clock.now += timedelta(seconds=91)
        assert await expire_due(bot) == 1
        warned = await bot.table(GROUP)
        assert warned is not None and warned.strikes == {seat: 1}
        assert state_of(warned).version == state_of(table).version  # a warning moves nothing
        assert "your move! Next time a computer will move for you." in bot.live(GROUP).content
        clock.now += timedelta(seconds=91)
        assert await expire_due(bot) == 1
        moved = await bot.table(GROUP)
        assert moved is not None and moved.strikes.get(seat) == 2
        assert state_of(moved).version == state_of(table).version + 1  # a computer moved for them
        if moved.phase is not Phase.PLAYING:
            return
        # The other person now plays; when the first one's turn comes and times out again, a computer
        # takes the seat.
        other = mover(moved)
        user = moved.players[other].user_id
        assert user is not None
        assert moved.message_id is not None
        buttons = [d for row in bot.api.buttons(GROUP, moved.message_id) for _, d in row if d]
        await bot.press(GROUP, user, next(d for d in buttons if d.startswith("g:")), moved.message_id)
        again = await bot.table(GROUP)
        assert again is not None
        if again.phase is not Phase.PLAYING:
            return
        clock.now += timedelta(seconds=91)
        assert await expire_due(bot) == 1
        final = await bot.table(GROUP)
        assert final is not None and final.players[seat].away


async def test_a_restart_neither_loses_nor_doubles_a_timeout(redis_client: aioredis.Redis) -> None:
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        api = bot.api
    assert await redis_client.zscore(TIMERS_KEY, f"tbl:{{{GROUP}}}:0") == table.deadline
    clock.now += timedelta(seconds=91)
    # Two workers come up after the restart and tick at the same moment.
    async with (
        BotHarness(redis_client, api=api, clock=clock) as one,
        BotHarness(redis_client, api=api, clock=clock) as two,
    ):
        await asyncio.gather(expire_due(one), expire_due(two))
        after = await one.table(GROUP)
        assert after is not None and after.strikes == {mover(table): 1}
        assert after.deadline == (clock.now + timedelta(seconds=90)).timestamp()


async def test_private_games_have_no_timer(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid")
        table = await bot.table(ALICE)
        assert table is not None and table.deadline is None
        assert await redis_client.zcard(TIMERS_KEY) == 0
