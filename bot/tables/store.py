"""The Redis store: tables written with compare-and-set, and language preferences.

Key layout (the chat id sits in a hash tag, so a Redis Cluster keeps a table in one slot):

- `tbl:{<chat_id>}:<topic>`: hash of one table: `id`, `v` (version), `phase`, `doc` (the Table JSON).
  The script compares `id` and `v` without parsing JSON. Expires `ttl_seconds` after the last write.
- `tid:<table_id>`: string, the table key; lets a press in a private panel find its group table.
  Written after the table (a separate slot), with the same TTL; readers check the id they find.
- `pref:u:<user_id>`, `pref:c:<chat_id>`: string, a language override. No expiry.
"""

from __future__ import annotations

from typing import Final

import redis.asyncio as aioredis

from bot.tables.model import Phase, Table

# KEYS[1] table key. ARGV: id, expected version ('' = new), new version, phase, doc, ttl seconds,
# the finished phase.
# A new table may take the place of a finished one (the chat starts its next game).
_PUT: Final = """
local cur = redis.call('HMGET', KEYS[1], 'id', 'v', 'phase')
if ARGV[2] == '' then
  if cur[2] and cur[3] ~= ARGV[7] then return 0 end
elseif cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'v', ARGV[3], 'phase', ARGV[4], 'doc', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 1
"""

# KEYS[1] table key. ARGV: id, expected version.
_DELETE: Final = """
local cur = redis.call('HMGET', KEYS[1], 'id', 'v')
if cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""


def table_key(chat_id: int, topic: int) -> str:
    return f"tbl:{{{chat_id}}}:{topic}"


def index_key(table_id: str) -> str:
    return f"tid:{table_id}"


class VersionConflict(Exception):
    """The stored table is not the one the caller read: another update wrote it first."""


class TableStore:
    def __init__(self, redis: aioredis.Redis, *, ttl_seconds: int) -> None:
        self._redis = redis
        self._ttl = ttl_seconds
        self._put = redis.register_script(_PUT)
        self._delete = redis.register_script(_DELETE)

    async def get(self, chat_id: int, topic: int) -> Table | None:
        doc = await self._redis.hget(table_key(chat_id, topic), "doc")
        return None if doc is None else Table.model_validate_json(doc)

    async def get_by_id(self, table_id: str) -> Table | None:
        key = await self._redis.get(index_key(table_id))
        if key is None:
            return None
        doc = await self._redis.hget(key, "doc")
        table = None if doc is None else Table.model_validate_json(doc)
        # The key may hold a newer table by now (a finished one was replaced).
        return table if table is not None and table.id == table_id else None

    async def put(self, table: Table, *, expected_version: int | None) -> Table:
        """Write `table` if the stored one is still at `expected_version`; return what was stored.

        `expected_version=None` creates a table: the chat/topic must have none, or a finished one,
        which the new table replaces. A new table is stored with version 1, and every write adds 1,
        so the version in callback data never repeats within a table. Otherwise the stored table must
        have the same id and version `expected_version`. Raises VersionConflict, changing nothing.
        """
        version = 1 if expected_version is None else expected_version + 1
        stored = table.model_copy(update={"version": version})
        key = table_key(table.chat_id, table.topic)
        args = [
            table.id,
            "" if expected_version is None else str(expected_version),
            str(version),
            stored.phase.value,
            stored.model_dump_json(),
            str(self._ttl),
            Phase.FINISHED.value,
        ]
        if not await self._put(keys=[key], args=args):
            raise VersionConflict(f"{key}: table {table.id} is not at version {expected_version}")
        await self._redis.set(index_key(table.id), key, ex=self._ttl)
        return stored

    async def delete(self, table: Table) -> None:
        """Delete `table` if the stored one is still this table at this version, else VersionConflict."""
        key = table_key(table.chat_id, table.topic)
        if not await self._delete(keys=[key], args=[table.id, str(table.version)]):
            raise VersionConflict(f"{key}: table {table.id} is not at version {table.version}")
        await self._redis.delete(index_key(table.id))


class Preferences:
    """Language overrides per user and per chat; None means "no override"."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self._redis = redis

    async def get_lang(self, user_id: int) -> str | None:
        return await self._get(f"pref:u:{user_id}")

    async def set_lang(self, user_id: int, lang: str | None) -> None:
        await self._set(f"pref:u:{user_id}", lang)

    async def get_chat_lang(self, chat_id: int) -> str | None:
        return await self._get(f"pref:c:{chat_id}")

    async def set_chat_lang(self, chat_id: int, lang: str | None) -> None:
        await self._set(f"pref:c:{chat_id}", lang)

    async def _get(self, key: str) -> str | None:
        value: bytes | str | None = await self._redis.get(key)
        # The client may or may not decode responses.
        return value.decode() if isinstance(value, bytes) else value

    async def _set(self, key: str, lang: str | None) -> None:
        if lang is None:
            await self._redis.delete(key)
        else:
            await self._redis.set(key, lang)
