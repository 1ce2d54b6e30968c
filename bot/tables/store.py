"""The Redis store: a table written with compare-and-set, together with what must change with it.

One script writes the table, its turn deadline in the timer index and any coin movement the change
carries (a stake when a coin game starts, the payout when it ends), so a crash can never leave a
game without its timer, a stake taken for a table that was never stored, or a finished game unpaid.
The keys of one table, its timer bucket and a private player's wallet share a hash tag
(`bot/keys.py`), so the script runs on a Redis Cluster as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import redis.asyncio as aioredis

from bot import keys
from bot.economy.wallet import LUA_MOVE_HELPERS, InsufficientFunds, Wallet
from bot.tables.model import Phase, Table

# KEYS: table, timer bucket, then 3 wallet keys per coin movement (account, log, op record).
# ARGV: id, expected version ('' = new), new version, phase, doc, ttl, finished phase,
# deadline ('' = none), then the movements' shared wallet args (5: at, start, size, op ttl, count)
# and 3 args per movement (op id, reason, delta).
# A new table may take the place of a finished one (the chat starts its next game); the same new
# table stored again (a retried request: its id derives from the request) is 'dup'.
_PUT: Final = (
    LUA_MOVE_HELPERS
    + """
local cur = redis.call('HMGET', KEYS[1], 'id', 'v', 'phase')
if ARGV[2] == '' then
  if cur[1] == ARGV[1] then return {'dup'} end
  if cur[2] and cur[3] ~= ARGV[7] then return {'conflict'} end
elseif cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] then
  return {'conflict'}
end
local at, start, size, ttl, count = ARGV[9], ARGV[10], tonumber(ARGV[11]), ARGV[12], tonumber(ARGV[13])
for i = 0, count - 1 do
  local short = check_funds(KEYS[3 + 3 * i], start, tonumber(ARGV[16 + 3 * i]))
  if short then return {'funds', short, tostring(i)} end
end
-- A new table starts with none of its predecessor's fields (what its messages showed).
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'v', ARGV[3], 'phase', ARGV[4], 'doc', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[6])
if ARGV[8] == '' then
  redis.call('HDEL', KEYS[1], 'deadline')
  redis.call('ZREM', KEYS[2], KEYS[1])
else
  redis.call('HSET', KEYS[1], 'deadline', ARGV[8])
  redis.call('ZADD', KEYS[2], ARGV[8], KEYS[1])
end
for i = 0, count - 1 do
  move(KEYS[3 + 3 * i], KEYS[4 + 3 * i], KEYS[5 + 3 * i],
       ARGV[14 + 3 * i], ARGV[15 + 3 * i], at, start, size, ttl, tonumber(ARGV[16 + 3 * i]))
end
return {'ok'}
"""
)

# KEYS: table, timer bucket. ARGV: id, expected version.
_DELETE: Final = """
local cur = redis.call('HMGET', KEYS[1], 'id', 'v')
if cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1
"""

# KEYS: table. ARGV: id, screen, field. The screen now on a message of the table, if it is newer
# than the one recorded: 1 if recorded, 0 if a newer one was already shown (or the table is gone).
_SHOWN: Final = """
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
local shown = tonumber(redis.call('HGET', KEYS[1], ARGV[3]) or '-1')
if shown >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], ARGV[3] .. ':look', ARGV[4]) end
return 1
"""


# KEYS: table, timer bucket. Puts the table's entry in the timer index back in line with its
# deadline (after a ticker's claim moved it), or takes it out when the table has none or is gone.
_RESYNC: Final = """
local deadline = redis.call('HGET', KEYS[1], 'deadline')
if deadline then
  redis.call('ZADD', KEYS[2], deadline, KEYS[1])
else
  redis.call('ZREM', KEYS[2], KEYS[1])
end
return deadline
"""


class VersionConflict(Exception):
    """The stored table is not the one the caller read: another update wrote it first."""


@dataclass(frozen=True, slots=True)
class CoinMove:
    """A wallet movement written with a table: `op_id` makes it happen once whatever is retried."""

    user_id: int
    op_id: str
    delta: int
    reason: str


class TableStore:
    def __init__(self, redis: aioredis.Redis, wallet: Wallet, *, ttl_seconds: int) -> None:
        self._redis = redis
        self._wallet = wallet
        self._ttl = ttl_seconds
        self._put = redis.register_script(_PUT)
        self._delete = redis.register_script(_DELETE)
        self._shown = redis.register_script(_SHOWN)
        self._resync = redis.register_script(_RESYNC)

    async def get(self, chat_id: int, topic: int) -> Table | None:
        doc = await self._redis.hget(keys.table(chat_id, topic), "doc")
        return None if doc is None else Table.model_validate_json(doc)

    async def unfinished(self, chat_id: int, topic: int) -> Table | None:
        """The chat's table unless its game is over: a lobby or a game people may still play."""
        table = await self.get(chat_id, topic)
        return None if table is None or table.phase is Phase.FINISHED else table

    async def get_key(self, key: str) -> Table | None:
        doc = await self._redis.hget(key, "doc")
        return None if doc is None else Table.model_validate_json(doc)

    async def in_chat(self, chat_id: int) -> list[Table]:
        """The tables of every topic of a chat: a scan of the key space, for rare events only (the
        bot leaving the chat)."""
        found = []
        # A large count: the pattern matches a handful of keys among all of them.
        async for key in self._redis.scan_iter(match=keys.chat_tables(chat_id), count=1000):
            table = await self.get_key(key.decode() if isinstance(key, bytes) else key)
            if table is not None:
                found.append(table)
        return found

    async def get_by_id(self, table_id: str) -> Table | None:
        key = await self._redis.get(keys.table_index(table_id))
        if key is None:
            return None
        table = await self.get_key(key.decode() if isinstance(key, bytes) else key)
        # The key may hold a newer table by now (a finished one was replaced).
        return table if table is not None and table.id == table_id else None

    async def put(
        self,
        table: Table,
        *,
        expected_version: int | None,
        coins: Sequence[CoinMove] = (),
        now: datetime | None = None,
    ) -> Table:
        """Write `table` if the stored one is still at `expected_version`; return what was stored.

        `expected_version=None` creates a table: the chat/topic must have none, or a finished one,
        which the new table replaces; storing the same new table again returns it unchanged. A new
        table is stored with version 1 and every write adds 1, so the version never repeats within
        a table. The table's `deadline` goes into the timer index and `coins` into the wallets (at
        time `now`) in the same script. Raises VersionConflict or InsufficientFunds, changing nothing.
        """
        if coins and now is None:
            raise ValueError("coins move at a time: give `now`")
        version = 1 if expected_version is None else expected_version + 1
        stored = table.model_copy(update={"version": version})
        key = keys.table(table.chat_id, table.topic)
        script_keys = [key, keys.due(keys.bucket_of(key))]
        move_args: list[str | int] = []
        for move in coins:
            if keys.tag(move.user_id) != keys.tag(table.chat_id):
                raise ValueError(
                    f"coins of user {move.user_id} cannot move with a table of chat {table.chat_id}"
                )
            script_keys += self._wallet.move_keys(move.user_id, move.op_id)
            move_args += [move.op_id, move.reason, move.delta]
        args: list[str | int] = [
            table.id,
            "" if expected_version is None else str(expected_version),
            str(version),
            stored.phase.value,
            stored.model_dump_json(),
            str(self._ttl),
            Phase.FINISHED.value,
            "" if table.deadline is None else repr(table.deadline),
            *(self._wallet.shared_move_args(now) if now is not None else ["", 0, 0, 0]),
            len(coins),
            *move_args,
        ]
        reply = await self._put(keys=script_keys, args=args)
        status = _text(reply[0])
        if status == "conflict":
            raise VersionConflict(f"{key}: table {table.id} is not at version {expected_version}")
        if status == "funds":
            raise InsufficientFunds(int(reply[1]), -coins[int(reply[2])].delta)
        if status == "dup":
            found = await self.get(table.chat_id, table.topic)
            if found is None or found.id != table.id:
                raise VersionConflict(f"{key}: table {table.id} is gone")
            return found
        await self._index(stored)
        return stored

    async def move(self, table: Table, chat_id: int) -> Table:
        """`table` stored under another chat (a group that became a supergroup has a new id), its
        message to be sent anew there, and gone from the old chat. VersionConflict, changing
        nothing, if the new chat has a running table or the old one changed meanwhile."""
        moved = await self.put(
            table.model_copy(update={"chat_id": chat_id, "message_id": None}), expected_version=None
        )
        try:
            await self.delete(table)
        except VersionConflict:
            await self.delete(moved)
            await self._index(table)
            raise
        # `delete` dropped the id's index entry, which the moved table shares.
        await self._index(moved)
        return moved

    async def _index(self, table: Table) -> None:
        await self._redis.set(
            keys.table_index(table.id), keys.table(table.chat_id, table.topic), ex=self._ttl
        )

    async def delete(self, table: Table) -> None:
        """Delete `table` if the stored one is still this table at this version, else VersionConflict."""
        key = keys.table(table.chat_id, table.topic)
        if not await self._delete(keys=[key, keys.due(keys.bucket_of(key))], args=[table.id, table.version]):
            raise VersionConflict(f"{key}: table {table.id} is not at version {table.version}")
        await self._redis.delete(keys.table_index(table.id))

    async def resync_timer(self, key: str) -> None:
        """The timer index entry of the table at `key`, made to match the table's own deadline."""
        await self._resync(keys=[key, keys.due(keys.bucket_of(key))])

    async def mark_shown(self, table: Table, where: str = "shown", look: str = "") -> bool:
        """Record that the live message (or a panel: `where` = `panel:<seat>`) shows `table`'s
        screen now, and what it looks like (`look`, a panel's digest); False if a newer screen was
        recorded there already."""
        key = keys.table(table.chat_id, table.topic)
        return bool(await self._shown(keys=[key], args=[table.id, table.screen, where, look]))

    async def panel_shown(self, table: Table, where: str) -> tuple[int, str | None]:
        """The screen number a panel shows (-1 if none was recorded) and what it looks like (the
        digest given to `mark_shown`, None if none), in one read."""
        screen, look = await self._redis.hmget(
            keys.table(table.chat_id, table.topic), [where, f"{where}:look"]
        )
        return -1 if screen is None else int(screen), look.decode() if isinstance(look, bytes) else look

    async def marks(self, table: Table) -> dict[str, int]:
        """The screen numbers shown on the live message ("shown") and on each panel (`panel:<seat>`),
        -1 where none was recorded, in one read."""
        wheres = ["shown", *map(keys.panel_shown, table.panels)]
        values = await self._redis.hmget(keys.table(table.chat_id, table.topic), wheres)
        return {
            where: -1 if value is None else int(value) for where, value in zip(wheres, values, strict=True)
        }

    async def shown(self, table: Table, where: str = "shown") -> int:
        """The screen number shown on the live message (or a panel), -1 if none was recorded."""
        value = await self._redis.hget(keys.table(table.chat_id, table.topic), where)
        return -1 if value is None else int(value)


class Preferences:
    """Language overrides per user and per chat; None means "no override"."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self._redis = redis

    async def get_lang(self, user_id: int) -> str | None:
        return await self._get(keys.user_pref(user_id))

    async def set_lang(self, user_id: int, lang: str | None) -> None:
        await self._set(keys.user_pref(user_id), lang)

    async def get_chat_lang(self, chat_id: int) -> str | None:
        return await self._get(keys.chat_pref(chat_id))

    async def set_chat_lang(self, chat_id: int, lang: str | None) -> None:
        await self._set(keys.chat_pref(chat_id), lang)

    async def _get(self, key: str) -> str | None:
        value: bytes | str | None = await self._redis.get(key)
        return None if value is None else _text(value)

    async def _set(self, key: str, lang: str | None) -> None:
        if lang is None:
            await self._redis.delete(key)
        else:
            await self._redis.set(key, lang)


def _text(value: bytes | str) -> str:
    # The client may or may not decode responses.
    return value.decode() if isinstance(value, bytes) else value
