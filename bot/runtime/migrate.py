"""Moves data written under the first key layout to the bucketed one (`bot/keys.py`) at start-up.

The first layout keyed tables by `tbl:{<chat>}:<topic>`, wallets by `w:{<uid>}...` and kept every
deadline in one `timers` set, which a Redis Cluster cannot write together with a table. An upgrade
must not lose a running game or a coin, so each old key is copied to its new name (DUMP/RESTORE
keeps type and TTL, and works across slots) and then deleted; the timer index is rebuilt from the
tables' own deadlines. Running it again finds nothing to move.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Final

import redis.asyncio as aioredis

from bot import keys

log = logging.getLogger(__name__)

_OLD_TABLE: Final = re.compile(r"^tbl:\{(-?\d+)\}:(\d+)$")
#: The old wallet and the keys beside it; a new key has the user id after its bucket instead.
_OLD_WALLET: Final = re.compile(r"^w:\{(\d+)\}(:(?:log|daily|op:.*|pull:.*|spin:.*))?$")
OLD_TIMERS: Final = "timers"


async def migrate(redis: aioredis.Redis) -> int:
    """Move every key of the first layout; returns how many were moved."""
    moved = 0
    async for raw in redis.scan_iter(match="tbl:{*", count=500):
        old = raw.decode() if isinstance(raw, bytes) else str(raw)
        if (match := _OLD_TABLE.match(old)) is not None:
            new = keys.table(int(match[1]), int(match[2]))
            if await _move(redis, old, new):
                await _reindex(redis, new)
                moved += 1
    async for raw in redis.scan_iter(match="w:{*", count=500):
        old = raw.decode() if isinstance(raw, bytes) else str(raw)
        if (match := _OLD_WALLET.match(old)) is not None:
            moved += await _move(redis, old, keys.wallet(int(match[1])) + (match[2] or ""))
    await redis.delete(OLD_TIMERS)
    if moved:
        log.info("moved %d keys to the bucketed layout", moved)
    return moved


async def _move(redis: aioredis.Redis, old: str, new: str) -> bool:
    dump = await redis.dump(old)
    if dump is None:
        return False
    ttl = await redis.pttl(old)
    await redis.restore(new, max(ttl, 0), dump, replace=True)
    await redis.delete(old)
    return True


async def _reindex(redis: aioredis.Redis, key: str) -> None:
    """A moved table's id index, deadline field and timer entry, from its document."""
    doc = await redis.hget(key, "doc")
    if doc is None:
        return
    table = json.loads(doc)
    # The first layout tallied losses by display name; they are kept by seat now.
    names = [player["name"] for player in table.get("players", ())]
    tally = table.get("tally", {})
    if any(not name.lstrip("-").isdigit() for name in tally):
        table["tally"] = {str(seat): tally[name] for seat, name in enumerate(names) if name in tally}
        await redis.hset(key, "doc", json.dumps(table, ensure_ascii=False))
    ttl = await redis.ttl(key)
    await redis.set(keys.table_index(table["id"]), key, ex=ttl if ttl > 0 else None)
    deadline = table.get("deadline")
    if deadline is not None:
        await redis.hset(key, "deadline", repr(float(deadline)))
        await redis.zadd(keys.due(keys.bucket_of(key)), {key: float(deadline)})
