"""The wallet on a real Redis: balances, idempotency, refusals, history, concurrency, refills."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import redis.asyncio as aioredis

from bot.economy.wallet import InsufficientFunds, Movement, OpConflict, RefillRefused, Wallet, op_key

MOSCOW = ZoneInfo("Europe/Moscow")
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
USER = 42


@pytest.fixture
def wallet(any_redis: aioredis.Redis) -> Wallet:
    return Wallet(any_redis)


async def test_new_user_starts_with_1000(wallet: Wallet) -> None:
    assert await wallet.balance(USER) == 1000
    assert await wallet.history(USER) == []


async def test_first_debit_sees_start_balance(wallet: Wallet) -> None:
    movement = await wallet.apply(USER, "bet-1", -20, "gold:bet", now=NOW)
    assert movement == Movement("bet-1", NOW, -20, "gold:bet", 980)
    assert await wallet.balance(USER) == 980


async def test_debit_and_credit(wallet: Wallet) -> None:
    await wallet.apply(USER, "a", -100, "gold:bet", now=NOW)
    credit = await wallet.apply(USER, "b", 305, "gold:payout", now=NOW)
    assert credit.balance == 1205
    assert await wallet.balance(USER) == 1205
    assert await wallet.balance(USER + 1) == 1000


async def test_same_op_applies_once(wallet: Wallet) -> None:
    first = await wallet.apply(USER, "op", -40, "gold:bet", now=NOW)
    again = await wallet.apply(USER, "op", -40, "gold:bet", now=NOW + timedelta(seconds=5))
    assert again == first
    assert await wallet.balance(USER) == 960
    assert await wallet.history(USER) == [first]


async def test_same_op_with_another_delta_is_refused(wallet: Wallet) -> None:
    first = await wallet.apply(USER, "op", -40, "gold:bet", now=NOW)
    with pytest.raises(OpConflict) as error:
        await wallet.apply(USER, "op", -200, "gold:bet", now=NOW)
    assert error.value.applied == first
    assert await wallet.balance(USER) == 960
    assert await wallet.history(USER) == [first]


async def test_debit_above_balance_changes_nothing(wallet: Wallet) -> None:
    await wallet.apply(USER, "a", -990, "gold:bet", now=NOW)
    before = (await wallet.balance(USER), await wallet.history(USER))
    with pytest.raises(InsufficientFunds) as error:
        await wallet.apply(USER, "b", -20, "gold:bet", now=NOW)
    assert (error.value.balance, error.value.needed) == (10, 20)
    assert (await wallet.balance(USER), await wallet.history(USER)) == before
    # Nothing was recorded, so the same op id may go through once the balance covers it.
    await wallet.apply(USER, "c", 10, "bandit:win", now=NOW)
    assert (await wallet.apply(USER, "b", -20, "gold:bet", now=NOW)).balance == 0


async def test_history_keeps_last_ten_newest_first(wallet: Wallet) -> None:
    for i in range(15):
        await wallet.apply(USER, f"op{i}", i + 1, "test", now=NOW + timedelta(minutes=i))
    history = await wallet.history(USER)
    assert [m.op_id for m in history] == [f"op{i}" for i in range(14, 4, -1)]
    assert history[0].balance == 1000 + sum(range(1, 16))
    assert history[0].at == NOW + timedelta(minutes=14)
    assert all(newer.balance - newer.delta == older.balance for newer, older in itertools.pairwise(history))


async def test_op_records_expire(wallet: Wallet, any_redis: aioredis.Redis) -> None:
    await wallet.apply(USER, "op", -10, "test", now=NOW)
    ttl = await any_redis.ttl(op_key(USER, "op"))
    assert 0 < ttl <= wallet.op_ttl_seconds


async def test_naive_time_is_refused(wallet: Wallet) -> None:
    with pytest.raises(ValueError):
        await wallet.apply(USER, "op", -10, "test", now=datetime(2025, 3, 1, 12, 0))


async def test_concurrent_debits_neither_lose_nor_create_coins(pooled: aioredis.Redis) -> None:
    wallet = Wallet(pooled)
    op_ids = [f"spin-{i}" for i in range(1000)] + [f"spin-{i}" for i in range(0, 1000, 7)]

    async def debit(op_id: str) -> Movement | None:
        try:
            return await wallet.apply(USER, op_id, -10, "bandit:pull", now=NOW)
        except InsufficientFunds:
            return None

    results = await asyncio.gather(*(debit(op_id) for op_id in op_ids))
    applied = {m.op_id: m for m in results if m is not None}
    assert len(applied) == 100
    assert await wallet.balance(USER) == 1000 - 10 * len(applied) == 0
    # Every balance after 1000 - 10k was reached by exactly one distinct operation.
    assert sorted(m.balance for m in applied.values()) == list(range(0, 1000, 10))
    # A duplicate of an applied op returned the same movement, never a second one.
    for op_id, movement in zip(op_ids, results, strict=True):
        if movement is not None:
            assert movement == applied[op_id]


async def test_refill_refused_while_balance_reaches_minimum(wallet: Wallet) -> None:
    await wallet.apply(USER, "a", -980, "gold:bet", now=NOW)
    with pytest.raises(RefillRefused) as error:
        await wallet.refill(USER, now=NOW, tz=MOSCOW)
    assert error.value.reason == "not_broke"
    assert await wallet.balance(USER) == 20


async def test_refill_once_per_local_day(wallet: Wallet) -> None:
    # 23:59 and 00:01 Moscow time (UTC+3) on either side of local midnight.
    before_midnight = datetime(2025, 3, 1, 20, 59, tzinfo=UTC)
    after_midnight = datetime(2025, 3, 1, 21, 1, tzinfo=UTC)
    await wallet.apply(USER, "a", -995, "gold:bet", now=before_midnight - timedelta(hours=1))

    movement = await wallet.refill(USER, now=before_midnight - timedelta(minutes=30), tz=MOSCOW)
    assert (movement.delta, movement.balance, movement.reason) == (995, 1000, "refill")

    await wallet.apply(USER, "b", -1000, "gold:bet", now=before_midnight)
    with pytest.raises(RefillRefused) as error:
        await wallet.refill(USER, now=before_midnight, tz=MOSCOW)
    assert error.value.reason == "already_today"
    assert await wallet.balance(USER) == 0

    movement = await wallet.refill(USER, now=after_midnight, tz=MOSCOW)
    assert (movement.delta, movement.balance) == (1000, 1000)
    assert await wallet.balance(USER) == 1000
    assert [m.reason for m in await wallet.history(USER)] == ["refill", "gold:bet", "refill", "gold:bet"]


async def test_concurrent_refills_pay_once(pooled: aioredis.Redis) -> None:
    wallet = Wallet(pooled)
    await wallet.apply(USER, "a", -1000, "gold:bet", now=NOW)

    async def refill() -> Movement | None:
        try:
            return await wallet.refill(USER, now=NOW, tz=MOSCOW)
        except RefillRefused:
            return None

    results = await asyncio.gather(*(refill() for _ in range(50)))
    assert sum(m is not None for m in results) == 1
    assert await wallet.balance(USER) == 1000
