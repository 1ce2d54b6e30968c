"""Small jobs for later, kept in Redis so that any worker runs them and a crash loses none.

A job is a kind and a JSON payload, due at a time, in one of the buckets' sorted sets; the ticker
claims due jobs (a claim moves them a lease ahead, so one worker runs each, and a job whose worker
died runs again when the lease is up) and runs them by kind. Jobs must be safe to run twice. A job
that fails runs again when its lease is up, unless Telegram refused it for good (the bot is no longer
in that chat, the chat moved, the message is gone): trying again could only be refused again.
Used for the deletion of transient notices and for the bandit's final still after its spin.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Final, cast

import redis.asyncio as aioredis
from telegram.error import BadRequest, ChatMigrated, Forbidden

from bot import keys
from bot.runtime.redis import OUTAGE

log = logging.getLogger(__name__)

#: Telegram's answers that the same request would get again, however long a job waited.
REFUSED_FOR_GOOD: Final = (BadRequest, Forbidden, ChatMigrated)

# KEYS: a sorted set of due work. ARGV: now, lease seconds, limit. Takes the due members and moves
# them a lease ahead, so each is handled by one worker; a worker that dies lets the lease run out.
CLAIM: Final = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local until_ = string.format('%.17g', tonumber(ARGV[1]) + tonumber(ARGV[2]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], until_, member) end
return {due, until_}
"""

# KEYS: a sorted set of due work. ARGV: member, the claimed score. Done: drop it unless it was
# scheduled again meanwhile.
DONE: Final = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

#: A claimed job is another worker's to run after this long.
LEASE_SECONDS: Final = 30

Job = Callable[[dict[str, Any]], Awaitable[None]]


def later_key(bucket: int) -> str:
    return f"later:{{{bucket}}}"


class Due:
    """Claims due members of sorted sets of work and marks them done (shared with the timers and
    the deferred edits, which keep their own sets)."""

    def __init__(self, redis: aioredis.Redis, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._claim = redis.register_script(CLAIM)
        self._done = redis.register_script(DONE)

    async def claim(self, zset: str, limit: int, lease: float = LEASE_SECONDS) -> tuple[list[str], str]:
        reply = await self._claim(keys=[zset], args=[repr(self.clock()), lease, limit])
        members = [m.decode() if isinstance(m, bytes) else str(m) for m in cast(list[bytes | str], reply[0])]
        claimed = reply[1].decode() if isinstance(reply[1], bytes) else str(reply[1])
        return members, claimed

    async def done(self, zset: str, member: str, claimed: str) -> None:
        await self._done(keys=[zset], args=[member, claimed])


class Later:
    def __init__(self, redis: aioredis.Redis, due: Due) -> None:
        self._redis = redis
        self._due = due
        self._jobs: dict[str, Job] = {}

    def register(self, kind: str, job: Job) -> None:
        self._jobs[kind] = job

    async def schedule(self, owner_id: int, delay: float, kind: str, payload: dict[str, Any]) -> None:
        """Run job `kind` with `payload` in `delay` seconds, in the bucket of a chat or user."""
        member = json.dumps({"kind": kind, "id": secrets.token_hex(4), **payload}, separators=(",", ":"))
        await self._redis.zadd(later_key(keys.bucket(owner_id)), {member: self._due.clock() + delay})

    async def run_due(self, bucket: int, limit: int = 100) -> None:
        members, claimed = await self._due.claim(later_key(bucket), limit)
        for member in members:
            payload = json.loads(member)
            job = self._jobs.get(payload["kind"])
            try:
                if job is not None:
                    await job(payload)
            except REFUSED_FOR_GOOD as error:
                log.warning("job %s dropped: Telegram refused it (%s)", payload["kind"], error)
            except OUTAGE:
                raise  # the ticker tells an outage once; the claim lapses and the job runs again
            except Exception:
                log.exception("job %s failed", payload["kind"])
                continue
            await self._due.done(later_key(bucket), member, claimed)
