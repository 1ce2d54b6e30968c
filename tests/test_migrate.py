"""Data of the first key layout is moved at start-up: no running game, wallet or timer is lost."""

from __future__ import annotations

import json

import redis.asyncio as aioredis

from bot import keys
from bot.economy.wallet import Wallet
from bot.runtime.migrate import migrate
from bot.tables.store import TableStore
from tests.harness import BotHarness


def _old_table(chat: int) -> dict[str, object]:
    return {
        "id": "oldtable",
        "chat_id": chat,
        "game": "grid",
        "creator": 5,
        "phase": "lobby",
        "players": [{"user_id": 5, "name": "Ann"}, {"user_id": 6, "name": "Ben"}],
        "tally": {"Ben": 2},
        "settled": False,
        "deadline": 4321.0,
        "version": 3,
    }


async def test_tables_wallets_and_timers_move_to_the_bucketed_layout(any_redis: aioredis.Redis) -> None:
    chat = -100123
    doc = json.dumps(_old_table(chat))
    await any_redis.hset(
        f"tbl:{{{chat}}}:0", mapping={"id": "oldtable", "v": "3", "phase": "lobby", "doc": doc}
    )
    await any_redis.expire(f"tbl:{{{chat}}}:0", 1000)
    await any_redis.set("tid:oldtable", f"tbl:{{{chat}}}:0")
    await any_redis.zadd("timers", {f"tbl:{{{chat}}}:0": 4321.0})
    await any_redis.hset("w:{5}", mapping={"balance": "777", "rank": "4"})
    await any_redis.lpush("w:{5}:log", "{}")
    assert await migrate(any_redis) == 3
    store = TableStore(any_redis, Wallet(any_redis), ttl_seconds=3600)
    table = await store.get(chat, 0)
    assert table is not None and table.id == "oldtable" and table.tally == {1: 2}
    assert await store.get_by_id("oldtable") == table
    key = keys.table(chat, 0)
    assert await any_redis.zscore(keys.due(keys.bucket_of(key)), key) == 4321.0
    assert 0 < await any_redis.ttl(key) <= 1000
    assert await Wallet(any_redis).balance(5) == 777
    assert await any_redis.lrange(keys.wallet_part(5, "log"), 0, -1) == [b"{}"]
    assert not await any_redis.exists("tbl:{-100123}:0", "w:{5}", "w:{5}:log", "timers")
    # Nothing is left to move, and the bot plays on with the moved table.
    assert await migrate(any_redis) == 0
    async with BotHarness(any_redis) as bot:
        await bot.say(chat, 5, "/start")
        assert (await bot.table(chat)) == table
