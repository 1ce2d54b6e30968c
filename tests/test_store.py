"""The Redis table store and preferences, on a real Redis server."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from bot.tables.model import Phase, Player, Table
from bot.tables.store import Preferences, TableStore, VersionConflict, index_key, table_key
from tests.conftest import TEST_REDIS_URL

TTL = 3600


@pytest.fixture
def store(redis_client: aioredis.Redis) -> TableStore:
    return TableStore(redis_client, ttl_seconds=TTL)


def make_table(table_id: str = "t1", chat_id: int = -100123, topic: int = 0) -> Table:
    return Table(id=table_id, chat_id=chat_id, topic=topic, game="grid", creator=42)


async def test_round_trip(store: TableStore) -> None:
    table = make_table().model_copy(update={"players": (Player(user_id=42, name="Ann"),), "seed": 7})
    stored = await store.put(table, expected_version=None)
    assert stored.version == 1
    assert stored == table.model_copy(update={"version": 1})
    assert await store.get(table.chat_id, 0) == stored
    assert await store.get(table.chat_id, 5) is None
    assert await store.get(1, 0) is None


async def test_every_write_bumps_the_version(store: TableStore) -> None:
    stored = await store.put(make_table(), expected_version=None)
    playing = stored.model_copy(update={"phase": Phase.PLAYING, "state": "{}"})
    again = await store.put(playing, expected_version=stored.version)
    assert again.version == stored.version + 1
    assert await store.get(stored.chat_id, 0) == again


async def test_stale_version_conflicts_and_changes_nothing(store: TableStore) -> None:
    first = await store.put(make_table(), expected_version=None)
    second = await store.put(first.model_copy(update={"seed": 1}), expected_version=first.version)
    with pytest.raises(VersionConflict):
        await store.put(first.model_copy(update={"seed": 2}), expected_version=first.version)
    assert await store.get(first.chat_id, 0) == second


async def test_put_of_missing_table_with_a_version_conflicts(store: TableStore) -> None:
    with pytest.raises(VersionConflict):
        await store.put(make_table(), expected_version=3)
    assert await store.get(make_table().chat_id, 0) is None


async def test_another_table_at_the_same_version_conflicts(store: TableStore) -> None:
    await store.put(make_table("old"), expected_version=None)
    with pytest.raises(VersionConflict):
        await store.put(make_table("new"), expected_version=1)
    assert (await store.get(make_table().chat_id, 0)) is not None
    assert (await store.get_by_id("new")) is None


async def test_new_table_conflicts_with_a_live_one(store: TableStore) -> None:
    live = await store.put(make_table("old"), expected_version=None)
    with pytest.raises(VersionConflict):
        await store.put(make_table("new"), expected_version=None)
    assert await store.get(live.chat_id, 0) == live


async def test_new_table_replaces_a_finished_one(store: TableStore) -> None:
    old = await store.put(make_table("old"), expected_version=None)
    old = await store.put(old.model_copy(update={"phase": Phase.FINISHED}), expected_version=old.version)
    new = await store.put(make_table("new"), expected_version=None)
    assert new.version == 1
    assert await store.get(new.chat_id, 0) == new
    assert await store.get_by_id("new") == new
    # The old id's index still points at the chat's key, which now holds another table.
    assert await store.get_by_id("old") is None


async def test_concurrent_puts_one_wins(store: TableStore) -> None:
    base = await store.put(make_table(), expected_version=None)
    attempts = [base.model_copy(update={"seed": seed}) for seed in range(10)]
    results = await asyncio.gather(
        *(store.put(table, expected_version=base.version) for table in attempts), return_exceptions=True
    )
    winners = [result for result in results if isinstance(result, Table)]
    assert len(winners) == 1
    assert all(isinstance(result, VersionConflict) for result in results if result is not winners[0])
    assert await store.get(base.chat_id, 0) == winners[0]


async def test_concurrent_creates_one_wins(store: TableStore) -> None:
    tables = [make_table(f"t{n}") for n in range(10)]
    results = await asyncio.gather(
        *(store.put(table, expected_version=None) for table in tables), return_exceptions=True
    )
    assert sum(isinstance(result, Table) for result in results) == 1


async def test_ttl_set_and_refreshed(store: TableStore, redis_client: aioredis.Redis) -> None:
    table = await store.put(make_table(), expected_version=None)
    key = table_key(table.chat_id, 0)
    assert 0 < await redis_client.ttl(key) <= TTL
    assert 0 < await redis_client.ttl(index_key(table.id)) <= TTL
    await redis_client.expire(key, 10)
    await redis_client.expire(index_key(table.id), 10)
    await store.put(table, expected_version=table.version)
    assert await redis_client.ttl(key) > 10
    assert await redis_client.ttl(index_key(table.id)) > 10


async def test_keys_carry_the_chat_in_a_hash_tag(store: TableStore, redis_client: aioredis.Redis) -> None:
    assert table_key(-100123, 7) == "tbl:{-100123}:7"
    table = await store.put(make_table(chat_id=-100123, topic=7), expected_version=None)
    keys = sorted(key.decode() if isinstance(key, bytes) else key for key in await redis_client.keys("*"))
    assert keys == ["tbl:{-100123}:7", "tid:t1"]
    tables = [key for key in keys if key.startswith("tbl:")]
    assert all(key[key.index("{") + 1 : key.index("}")] == str(table.chat_id) for key in tables)
    # Tables of one chat share a slot (what a Redis Cluster hashes is the part in braces).
    assert table_key(5, 0).split("}")[0] == table_key(5, 9).split("}")[0]


async def test_topics_are_separate_tables(store: TableStore) -> None:
    a = await store.put(make_table("a", topic=0), expected_version=None)
    b = await store.put(make_table("b", topic=3), expected_version=None)
    assert await store.get(a.chat_id, 0) == a
    assert await store.get(a.chat_id, 3) == b


async def test_get_by_id(store: TableStore) -> None:
    table = await store.put(make_table("abc"), expected_version=None)
    assert await store.get_by_id("abc") == table
    assert await store.get_by_id("nope") is None


async def test_delete(store: TableStore, redis_client: aioredis.Redis) -> None:
    table = await store.put(make_table(), expected_version=None)
    newer = await store.put(table, expected_version=table.version)
    with pytest.raises(VersionConflict):
        await store.delete(table)
    assert await store.get(table.chat_id, 0) == newer
    await store.delete(newer)
    assert await store.get(table.chat_id, 0) is None
    assert await store.get_by_id(table.id) is None
    assert await redis_client.keys("*") == []
    with pytest.raises(VersionConflict):
        await store.delete(newer)


async def test_store_works_with_a_decoding_client(redis_client: aioredis.Redis) -> None:
    decoding = aioredis.Redis.from_url(TEST_REDIS_URL, decode_responses=True)
    try:
        store = TableStore(decoding, ttl_seconds=TTL)
        table = await store.put(make_table(), expected_version=None)
        assert await store.get_by_id(table.id) == table
        await Preferences(decoding).set_lang(1, "en")
        assert await Preferences(decoding).get_lang(1) == "en"
    finally:
        await decoding.aclose()


async def test_preferences(redis_client: aioredis.Redis) -> None:
    prefs = Preferences(redis_client)
    assert await prefs.get_lang(1) is None
    assert await prefs.get_chat_lang(-5) is None
    await prefs.set_lang(1, "en")
    await prefs.set_chat_lang(-5, "ru")
    assert await prefs.get_lang(1) == "en"
    assert await prefs.get_chat_lang(-5) == "ru"
    assert await prefs.get_lang(-5) is None  # users and chats are separate
    assert await redis_client.get("pref:u:1") == b"en"
    assert await redis_client.get("pref:c:-5") == b"ru"
    await prefs.set_lang(1, None)
    assert await prefs.get_lang(1) is None
