"""The group edit budget: never more edits a minute than Telegram allows, and never a long wait.

A budget of 20 a minute spent as a sliding window let a busy group table make its 20 edits in a few
seconds and then hold its picture back for most of a minute (players pressing saw «catching up: it
changes in 53 s»). The budget now paces the edits; these tests hold it to both promises, on a real
Redis server and on a cluster."""

from __future__ import annotations

import random

import pytest
import redis.asyncio as aioredis

from bot.tables.publisher import EditBudget

GROUP = -100777
WINDOW = 60.0


class Seconds:
    """A clock in seconds the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("limit", [1, 3, 7, 20])
async def test_no_minute_ever_holds_more_edits_than_the_limit(any_redis: aioredis.Redis, limit: int) -> None:
    clock = Seconds()
    budget = EditBudget(any_redis, limit, WINDOW, clock)
    rng = random.Random(limit)
    made: list[float] = []
    start = clock.now
    while clock.now < start + 15 * WINDOW:
        # Presses and computers' moves, in bursts, more than the budget allows.
        clock.now += rng.choice((0.0, 0.0, 0.1, 0.5, 1.0, 2.0, 5.0))
        if await budget.reserve(GROUP) == 0:
            made.append(clock.now)
    # The budget is used, not only kept: once an edit is due, the next request (at most 5 s later)
    # makes it.
    assert len(made) >= 15 * WINDOW / (budget.interval_ms / 1000 + 5)
    for first, at in enumerate(made):
        within = [other for other in made[first:] if other < at + WINDOW]
        assert len(within) <= limit, (at, within)


async def test_a_spent_budget_frees_the_next_edit_within_seconds(any_redis: aioredis.Redis) -> None:
    clock = Seconds()
    budget = EditBudget(any_redis, 20, WINDOW, clock)
    allowed = [await budget.reserve(GROUP) == 0 for _ in range(20)]
    # A few go out at once; the rest wait their turn.
    assert allowed == [True] * 4 + [False] * 16
    wait = await budget.reserve(GROUP)
    assert 0 < wait <= 3.53
    clock.now += wait
    assert await budget.reserve(GROUP) == 0
    # Kept busy, the group gets an edit every 3.53 s: 17 a minute once the first 4 are spent.
    made = 0
    for _ in range(170):
        clock.now += 3.531  # the interval, and a little for the clock's floating point
        made += await budget.reserve(GROUP) == 0
    assert made == 170


async def test_asking_how_long_to_wait_counts_no_edit(any_redis: aioredis.Redis) -> None:
    clock = Seconds()
    budget = EditBudget(any_redis, 20, WINDOW, clock)
    for _ in range(50):
        assert await budget.wait(GROUP) == 0
    for _ in range(4):
        assert await budget.reserve(GROUP) == 0
    first = await budget.wait(GROUP)
    assert first > 0
    for _ in range(10):
        assert await budget.wait(GROUP) == first
    # Another group has a budget of its own.
    assert await budget.reserve(GROUP - 1) == 0
