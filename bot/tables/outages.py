"""Outages: the ticker's heartbeat in Redis, and the last stretch of time in which nobody ticked.

Every tick stamps the time in one key. A tick that finds the stamp older than a gap (a setting,
`outage_seconds`: ticks come every couple of seconds, and the end of every tick stamps too) knows
that no worker ticked in between (every worker was down, or Redis was) and records that stretch.
A turn that ran out inside it ran out while nobody could press, so the timers give it a whole turn
again instead of counting it against the person (`bot/tables/timers.py`). The stretch is kept in
Redis, so whichever worker ticks next knows it, even if the one that found it dies at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

import redis.asyncio as aioredis

from bot import keys

# KEYS: the heartbeat hash. ARGV: now, gap seconds ('0': none is looked for), '1' at a tick's
# start (look for a gap) or '0' at its end. Returns the last recorded stretch (from, to), or nil.
_BEAT: Final = """
local now = tonumber(ARGV[1])
local stamp = redis.call('HGET', KEYS[1], 'last')
local last = stamp and tonumber(stamp)
local gap = tonumber(ARGV[2])
if ARGV[3] == '1' and gap > 0 and last and now - last > gap then
  redis.call('HSET', KEYS[1], 'from', stamp, 'to', ARGV[1])
end
if not last or now > last then redis.call('HSET', KEYS[1], 'last', ARGV[1]) end
local found = redis.call('HMGET', KEYS[1], 'from', 'to')
if found[1] then return found end
return nil
"""


@dataclass(frozen=True, slots=True)
class Outage:
    """A stretch of time in which no worker ticked (timestamps)."""

    start: float
    end: float

    def covers(self, moment: float) -> bool:
        return self.start < moment <= self.end


class Heartbeat:
    def __init__(self, redis: aioredis.Redis, gap_seconds: float, clock: Callable[[], float]) -> None:
        self._beat = redis.register_script(_BEAT)
        self._gap = gap_seconds
        self._clock = clock

    async def beat(self, *, look_for_gap: bool) -> Outage | None:
        """Stamp the time; at a tick's start, record the stretch since the last stamp if it is a gap.
        Returns the last outage recorded (by any worker, at any time)."""
        reply = await self._beat(
            keys=[keys.HEARTBEAT], args=[repr(self._clock()), repr(self._gap), "1" if look_for_gap else "0"]
        )
        if reply is None:
            return None
        start, end = cast(list[bytes], reply)
        return Outage(float(start), float(end))
