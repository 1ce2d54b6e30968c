"""The Redis table store and preferences, on a real Redis server."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
import redis.asyncio as aioredis

from bot import keys
from bot.economy.wallet import InsufficientFunds, Wallet
from bot.tables.model import Phase, Player, Table
from bot.tables.store import CoinMove, Preferences, TableStore, VersionConflict
from tests.conftest import TEST_REDIS_URL

TTL = 3600


NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(any_redis: aioredis.Redis) -> TableStore:
    return TableStore(any_redis, Wallet(any_redis), ttl_seconds=TTL)


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


async def test_the_same_new_table_stored_again_is_returned_unchanged(store: TableStore) -> None:
    """A retried request makes the table with the same id: the first one stands, nothing doubles."""
    first = await store.put(make_table("same"), expected_version=None)
    again = await store.put(make_table("same").model_copy(update={"seed": 99}), expected_version=None)
    assert again == first


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


async def test_ttl_set_and_refreshed(store: TableStore, any_redis: aioredis.Redis) -> None:
    table = await store.put(make_table(), expected_version=None)
    key = keys.table(table.chat_id, 0)
    assert 0 < await any_redis.ttl(key) <= TTL
    assert 0 < await any_redis.ttl(keys.table_index(table.id)) <= TTL
    await any_redis.expire(key, 10)
    await any_redis.expire(keys.table_index(table.id), 10)
    await store.put(table, expected_version=table.version)
    assert await any_redis.ttl(key) > 10
    assert await any_redis.ttl(keys.table_index(table.id)) > 10


async def test_keys_share_a_bucket_tag_with_the_chat(store: TableStore, any_redis: aioredis.Redis) -> None:
    assert keys.table(-100123, 7) == f"t:{{{-100123 % keys.BUCKETS}}}:-100123:7"
    await store.put(make_table(chat_id=-100123, topic=7), expected_version=None)
    found = sorted([key.decode() if isinstance(key, bytes) else key async for key in any_redis.scan_iter()])
    assert found == [keys.table(-100123, 7), "tid:t1"]
    # A table, its timer bucket and a private player's wallet hash to one Redis Cluster slot.
    assert keys.tag(5) in keys.table(5, 0) and keys.tag(5) in keys.wallet(5)
    assert keys.due(keys.bucket_of(keys.table(5, 0))).endswith(keys.tag(5))


async def test_the_deadline_is_written_with_the_table(store: TableStore, any_redis: aioredis.Redis) -> None:
    """One script writes both: no crash can leave a table with a deadline and no timer entry."""
    table = await store.put(make_table().model_copy(update={"deadline": 1234.5}), expected_version=None)
    key = keys.table(table.chat_id, 0)
    due = keys.due(keys.bucket_of(key))
    assert await any_redis.zscore(due, key) == 1234.5
    cleared = await store.put(table.model_copy(update={"deadline": None}), expected_version=table.version)
    assert await any_redis.zscore(due, key) is None
    # A claim that moved the entry away is put back in line with the table's own deadline.
    await store.put(cleared.model_copy(update={"deadline": 50.0}), expected_version=cleared.version)
    await any_redis.zadd(due, {key: 9999.0})
    await store.resync_timer(key)
    assert await any_redis.zscore(due, key) == 50.0


async def test_coins_move_with_the_table_or_not_at_all(store: TableStore, any_redis: aioredis.Redis) -> None:
    wallet = Wallet(any_redis)
    private = make_table("gold", chat_id=77)
    stake = CoinMove(77, "gold:stake", -200, "gold:stake")
    stored = await store.put(private, expected_version=None, coins=[stake], now=NOW)
    assert await wallet.balance(77) == 800
    # The same write again (a retried request): neither the table nor the stake doubles.
    assert await store.put(private, expected_version=None, coins=[stake], now=NOW) == stored
    assert await wallet.balance(77) == 800
    # A debit the balance cannot cover stores nothing.
    await wallet.apply(77, "drain", -790, "test", now=NOW)
    with pytest.raises(InsufficientFunds):
        await store.put(
            make_table("dear", chat_id=77, topic=1),
            expected_version=None,
            coins=[CoinMove(77, "dear", -20, "gold:stake")],
            now=NOW,
        )
    assert await store.get(77, 1) is None and await wallet.balance(77) == 10
    # A conflicting write moves no coins.
    with pytest.raises(VersionConflict):
        await store.put(
            stored,
            expected_version=stored.version + 5,
            coins=[CoinMove(77, "payout", 300, "gold:payout")],
            now=NOW,
        )
    assert await wallet.balance(77) == 10
    # Another user's wallet lives in another slot: refused before anything is sent.
    with pytest.raises(ValueError, match="coins"):
        await store.put(stored, expected_version=stored.version, coins=[CoinMove(78, "x", 1, "x")], now=NOW)


async def test_the_shown_screen_only_goes_up(store: TableStore) -> None:
    table = await store.put(make_table().model_copy(update={"screen": 5}), expected_version=None)
    assert await store.shown(table) == -1
    assert await store.mark_shown(table)
    assert not await store.mark_shown(table.model_copy(update={"screen": 4}))
    assert await store.shown(table) == 5
    assert await store.mark_shown(table.model_copy(update={"screen": 6}), "panel:2")
    assert await store.shown(table, "panel:2") == 6 and await store.shown(table) == 5
    # A new table in the chat starts with nothing shown.
    finished = await store.put(
        table.model_copy(update={"phase": Phase.FINISHED}), expected_version=table.version
    )
    fresh = await store.put(make_table("next"), expected_version=None)
    assert await store.shown(fresh) == -1 and finished.id != fresh.id


async def test_topics_are_separate_tables(store: TableStore) -> None:
    a = await store.put(make_table("a", topic=0), expected_version=None)
    b = await store.put(make_table("b", topic=3), expected_version=None)
    assert await store.get(a.chat_id, 0) == a
    assert await store.get(a.chat_id, 3) == b


async def test_get_by_id(store: TableStore) -> None:
    table = await store.put(make_table("abc"), expected_version=None)
    assert await store.get_by_id("abc") == table
    assert await store.get_by_id("nope") is None


async def test_delete(store: TableStore, any_redis: aioredis.Redis) -> None:
    table = await store.put(make_table(), expected_version=None)
    newer = await store.put(table, expected_version=table.version)
    with pytest.raises(VersionConflict):
        await store.delete(table)
    assert await store.get(table.chat_id, 0) == newer
    await store.delete(newer)
    assert await store.get(table.chat_id, 0) is None
    assert await store.get_by_id(table.id) is None
    assert [key async for key in any_redis.scan_iter()] == []
    with pytest.raises(VersionConflict):
        await store.delete(newer)


async def test_store_works_with_a_decoding_client(any_redis: aioredis.Redis) -> None:
    decoding = aioredis.Redis.from_url(TEST_REDIS_URL, decode_responses=True)
    try:
        store = TableStore(decoding, Wallet(decoding), ttl_seconds=TTL)
        table = await store.put(make_table(), expected_version=None)
        assert await store.get_by_id(table.id) == table
        await Preferences(decoding).set_lang(1, "en")
        assert await Preferences(decoding).get_lang(1) == "en"
    finally:
        await decoding.aclose()


async def test_preferences(any_redis: aioredis.Redis) -> None:
    prefs = Preferences(any_redis)
    assert await prefs.get_lang(1) is None
    assert await prefs.get_chat_lang(-5) is None
    await prefs.set_lang(1, "en")
    await prefs.set_chat_lang(-5, "ru")
    assert await prefs.get_lang(1) == "en"
    assert await prefs.get_chat_lang(-5) == "ru"
    assert await prefs.get_lang(-5) is None  # users and chats are separate
    assert await any_redis.get("pref:u:1") == b"en"
    assert await any_redis.get("pref:c:-5") == b"ru"
    await prefs.set_lang(1, None)
    assert await prefs.get_lang(1) is None
