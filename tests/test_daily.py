"""Daily free bandit pulls on a real Redis: allowance, local-midnight reset, streaks, atomic charging."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import redis.asyncio as aioredis

from bot.economy.daily import Daily, PullTicket
from bot.economy.wallet import InsufficientFunds, Wallet

MOSCOW = ZoneInfo("Europe/Moscow")
USER = 7
COST = 10
# Noon in Moscow on day 1 of the tests.
DAY1 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def wallet(any_redis: aioredis.Redis) -> Wallet:
    return Wallet(any_redis)


@pytest.fixture
def daily(any_redis: aioredis.Redis) -> Daily:
    return Daily(any_redis)


class Puller:
    """Pulls with fresh ids, as the bot does with one id per lever press."""

    def __init__(self, daily: Daily, wallet: Wallet) -> None:
        self.daily = daily
        self.wallet = wallet
        self.count = 0

    async def __call__(self, now: datetime) -> PullTicket:
        self.count += 1
        return await self.daily.take_pull(
            USER, f"p{self.count}", now=now, tz=MOSCOW, cost=COST, wallet=self.wallet
        )

    async def free_pulls(self, now: datetime) -> int:
        """Pull until a pull is paid; return how many were free."""
        free = 0
        while not (await self(now)).paid:
            free += 1
        return free


@pytest.fixture
def pull(daily: Daily, wallet: Wallet) -> Puller:
    return Puller(daily, wallet)


async def test_five_free_pulls_then_paid(pull: Puller, daily: Daily, wallet: Wallet) -> None:
    status = await daily.status(USER, now=DAY1, tz=MOSCOW)
    assert (status.free_left, status.streak) == (5, 1)
    assert status.resets_at == datetime(2025, 3, 2, tzinfo=MOSCOW)

    tickets = [await pull(DAY1) for _ in range(7)]
    assert [t.free_left for t in tickets] == [4, 3, 2, 1, 0, 0, 0]
    assert [t.paid for t in tickets] == [False] * 5 + [True] * 2
    assert tickets[0].movement is None
    paid = tickets[5].movement
    assert paid is not None and (paid.op_id, paid.delta, paid.balance) == ("pull:p6", -10, 990)
    assert await wallet.balance(USER) == 980
    assert all(t.resets_at == datetime(2025, 3, 2, tzinfo=MOSCOW) for t in tickets)
    assert (await daily.status(USER, now=DAY1, tz=MOSCOW)).free_left == 0


async def test_reset_at_local_midnight(pull: Puller, daily: Daily) -> None:
    # 23:59 and 00:01 Moscow time (UTC+3).
    before = datetime(2025, 3, 1, 20, 59, tzinfo=UTC)
    after = datetime(2025, 3, 1, 21, 1, tzinfo=UTC)
    assert await pull.free_pulls(before) == 5
    assert (await daily.status(USER, now=before, tz=MOSCOW)).free_left == 0
    status = await daily.status(USER, now=after, tz=MOSCOW)
    # A new local day, and the second day of the streak.
    assert (status.free_left, status.streak) == (6, 2)
    assert status.resets_at == datetime(2025, 3, 3, tzinfo=MOSCOW)
    ticket = await pull(after)
    assert (ticket.paid, ticket.free_left, ticket.streak) == (False, 5, 2)


async def test_streak_grows_to_plus_five_and_breaks_on_a_missed_day(pull: Puller) -> None:
    allowances = [await pull.free_pulls(DAY1 + timedelta(days=day)) for day in range(8)]
    assert allowances == [5, 6, 7, 8, 9, 10, 10, 10]
    # Day 9 skipped: the streak starts again.
    assert await pull.free_pulls(DAY1 + timedelta(days=9)) == 5
    assert await pull.free_pulls(DAY1 + timedelta(days=10)) == 6


async def test_status_before_a_pull_shows_the_streak_today_continues(pull: Puller, daily: Daily) -> None:
    await pull(DAY1)
    await pull(DAY1 + timedelta(days=1))
    status = await daily.status(USER, now=DAY1 + timedelta(days=2), tz=MOSCOW)
    assert (status.free_left, status.streak) == (7, 3)
    status = await daily.status(USER, now=DAY1 + timedelta(days=3), tz=MOSCOW)
    assert (status.free_left, status.streak) == (5, 1)


async def test_same_pull_id_counts_once(daily: Daily, wallet: Wallet) -> None:
    first = await daily.take_pull(USER, "x", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
    again = await daily.take_pull(USER, "x", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
    assert again == first
    assert (await daily.status(USER, now=DAY1, tz=MOSCOW)).free_left == 4


async def test_same_paid_pull_id_charges_once(pull: Puller, daily: Daily, wallet: Wallet) -> None:
    await pull.free_pulls(DAY1)
    assert await wallet.balance(USER) == 990
    ticket = await daily.take_pull(USER, "paid", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
    again = await daily.take_pull(USER, "paid", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
    assert again == ticket and ticket.paid
    assert await wallet.balance(USER) == 980
    assert [m.op_id for m in await wallet.history(USER)] == ["pull:paid", "pull:p6"]


async def test_no_free_pull_and_no_coins_is_refused(daily: Daily, wallet: Wallet) -> None:
    await wallet.apply(USER, "bet", -995, "gold:bet", now=DAY1)
    for i in range(5):
        await daily.take_pull(USER, f"f{i}", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
    before = (await wallet.balance(USER), await wallet.history(USER))
    status_before = await daily.status(USER, now=DAY1, tz=MOSCOW)
    with pytest.raises(InsufficientFunds) as error:
        await daily.take_pull(USER, "broke", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
    assert (error.value.balance, error.value.needed) == (5, 10)
    assert (await wallet.balance(USER), await wallet.history(USER)) == before
    assert await daily.status(USER, now=DAY1, tz=MOSCOW) == status_before


async def test_concurrent_pulls_are_counted_and_charged_exactly(pooled: aioredis.Redis) -> None:
    wallet, daily = Wallet(pooled), Daily(pooled)

    async def take(i: int) -> PullTicket | None:
        try:
            return await daily.take_pull(USER, f"c{i}", now=DAY1, tz=MOSCOW, cost=COST, wallet=wallet)
        except InsufficientFunds:
            return None

    tickets = [t for t in await asyncio.gather(*(take(i) for i in range(1000))) if t is not None]
    assert sum(not t.paid for t in tickets) == 5
    assert sum(t.paid for t in tickets) == 100
    assert await wallet.balance(USER) == 0
    charged = sorted(t.movement.balance for t in tickets if t.movement is not None)
    assert charged == list(range(0, 1000, 10))
    assert (await daily.status(USER, now=DAY1, tz=MOSCOW)).free_left == 0
