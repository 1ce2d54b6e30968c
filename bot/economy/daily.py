"""Daily free bandit pulls with streaks (RULES.md Appendix C).

Every user gets `free_per_day` free pulls a day (5), reset at 00:00 in the bot's time zone. Days in a
row with at least one pull build a streak: day 2 gives +1 free pull, day 3 +2, ..., capped at
`max_bonus` (+5 from day 6 on); a missed day starts the streak again at day 1. The allowance is per user,
across all chats. Once it is used up, a pull costs coins, charged in the same script as the pull
accounting, so concurrent pulls can neither create nor lose coins or free pulls.

Python does the day arithmetic (which date it is in the time zone); Lua does the counting.

Key layout (under the wallet's hash tag, so one script may touch the wallet and the pulls):

- `w:{b}:<uid>:daily`: hash: `day` (local date of the last pull), `streak` (the streak day that date
  counted as), `used` (free pulls used that date). Expires DAILY_TTL_SECONDS after the last pull:
  by then the streak is broken anyway.
- `w:{b}:<uid>:pull:<pull_id>`: string, the ticket the pull got (JSON), for idempotency. Expires with
  the wallet's operation records. A paid pull's charge is wallet operation `pull:<pull_id>`.
- `w:{b}:<uid>:pending`: set of pull ids taken and not shown yet (settled or not: settling twice is
  harmless, it is idempotent).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

import redis.asyncio as aioredis

from bot import keys
from bot.economy.wallet import (
    LUA_APPLY_MOVE,
    InsufficientFunds,
    Movement,
    Wallet,
    local_day,
    next_midnight,
    parse_movement,
)

FREE_PER_DAY: Final = 5
MAX_STREAK_BONUS: Final = 5
DAILY_TTL_SECONDS: Final = 3 * 24 * 3600

# count(daily key, today, yesterday, free per day, max bonus) -> streak day today counts as, free pulls
# used today, today's allowance. Shared by both scripts so status and pulls agree.
_COUNT: Final = """
local function count(key, today, yesterday, free, max_bonus)
  local d = redis.call('HMGET', key, 'day', 'streak', 'used')
  local streak, used = 1, 0
  if d[1] == today then
    streak, used = tonumber(d[2]), tonumber(d[3])
  elseif d[1] == yesterday then
    streak = tonumber(d[2]) + 1
  end
  return streak, used, tonumber(free) + math.min(streak - 1, tonumber(max_bonus))
end
"""

# KEYS[1..3], ARGV[1..6] as for apply_move (op id 'pull:<pull_id>'); KEYS[4] daily, KEYS[5] pull,
# KEYS[6] pending pulls. ARGV[7] today, ARGV[8] yesterday, ARGV[9] free per day, ARGV[10] max bonus,
# ARGV[11] cost, ARGV[12] daily ttl, ARGV[13] pull id.
# Returns {'ok', ticket} | {'dup', ticket} | {'funds', balance}.
_TAKE: Final = (
    LUA_APPLY_MOVE
    + _COUNT
    + """
local rec = redis.call('GET', KEYS[5])
if rec then return {'dup', rec} end
local today = ARGV[7]
local streak, used, allowance = count(KEYS[4], today, ARGV[8], ARGV[9], ARGV[10])
local movement = false
if used < allowance then
  used = used + 1
else
  local reply = apply_move(-tonumber(ARGV[11]))
  if reply[1] == 'funds' then return reply end
  -- The pull record and the charge are written together, so only a foreign use of the op id lands here.
  if reply[1] ~= 'ok' then return redis.error_reply('wallet operation ' .. ARGV[1] .. ' already exists') end
  movement = reply[2]
end
redis.call('HSET', KEYS[4], 'day', today, 'streak', streak, 'used', used)
redis.call('EXPIRE', KEYS[4], ARGV[12])
local ticket = cjson.encode({day = today, streak = streak, free_left = allowance - used, movement = movement})
redis.call('SET', KEYS[5], ticket, 'EX', ARGV[6])
-- Taken and not shown yet: shown pulls leave the set, and the next pull settles and shows what a
-- crash left in it.
redis.call('SADD', KEYS[6], ARGV[13])
return {'ok', ticket}
"""
)

# KEYS[1] daily. ARGV: today, yesterday, free per day, max bonus. Returns {streak, free left}.
_STATUS: Final = (
    _COUNT
    + """
local streak, used, allowance = count(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return {streak, allowance - used}
"""
)


def daily_key(user_id: int) -> str:
    return keys.wallet_part(user_id, "daily")


def pull_key(user_id: int, pull_id: str) -> str:
    return keys.wallet_part(user_id, f"pull:{pull_id}")


def pending_key(user_id: int) -> str:
    return keys.wallet_part(user_id, "pending")


@dataclass(frozen=True, slots=True)
class DailyStatus:
    free_left: int
    #: The streak day today counts as (1 = no streak); shown before today's first pull too.
    streak: int
    #: The next local midnight, when the free pulls reset.
    resets_at: datetime


@dataclass(frozen=True, slots=True)
class PullTicket:
    pull_id: str
    #: The charge, for a paid pull; None for a free one.
    movement: Movement | None
    #: Free pulls left on the pull's day, right after it.
    free_left: int
    streak: int
    resets_at: datetime

    @property
    def paid(self) -> bool:
        return self.movement is not None


class Daily:
    def __init__(
        self,
        redis: aioredis.Redis,
        *,
        free_per_day: int = FREE_PER_DAY,
        max_streak_bonus: int = MAX_STREAK_BONUS,
    ) -> None:
        self._redis = redis
        self._free_per_day = free_per_day
        self._max_bonus = max_streak_bonus
        self._take = redis.register_script(_TAKE)
        self._status = redis.register_script(_STATUS)

    async def take_pull(
        self, user_id: int, pull_id: str, *, now: datetime, tz: ZoneInfo, cost: int, wallet: Wallet
    ) -> PullTicket:
        """Use a free pull, or else charge `cost` coins from `wallet`; once per `pull_id`.

        A repeated pull id returns the first ticket unchanged. With no free pull left and a balance
        below `cost`, raises InsufficientFunds and changes nothing. `wallet` must use the same
        Redis server as this object.
        """
        if cost <= 0:
            raise ValueError("a paid pull must cost something")
        op_id = f"pull:{pull_id}"
        script_keys = [
            *wallet.move_keys(user_id, op_id),
            daily_key(user_id),
            pull_key(user_id, pull_id),
            pending_key(user_id),
        ]
        args = [
            *wallet.move_args(op_id, "bandit", now),
            *self._day_args(now, tz),
            cost,
            DAILY_TTL_SECONDS,
            pull_id,
        ]
        status, payload = await self._take(keys=script_keys, args=args)
        if status in (b"funds", "funds"):
            raise InsufficientFunds(int(payload), cost)
        doc = json.loads(payload)
        return PullTicket(
            pull_id=pull_id,
            movement=parse_movement(doc["movement"]) if doc["movement"] else None,
            free_left=int(doc["free_left"]),
            streak=int(doc["streak"]),
            resets_at=next_midnight(date.fromisoformat(doc["day"]), tz),
        )

    async def pending(self, user_id: int) -> list[str]:
        """Pulls taken and never shown (a crash came between the charge and the picture)."""
        members = await self._redis.smembers(pending_key(user_id))
        return sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)

    async def shown(self, user_id: int, pull_id: str) -> None:
        """The pull's result reached the person: it is no longer pending."""
        await self._redis.srem(pending_key(user_id), pull_id)

    async def status(self, user_id: int, *, now: datetime, tz: ZoneInfo) -> DailyStatus:
        streak, free_left = await self._status(keys=[daily_key(user_id)], args=self._day_args(now, tz))
        return DailyStatus(
            free_left=int(free_left), streak=int(streak), resets_at=next_midnight(local_day(now, tz), tz)
        )

    def _day_args(self, now: datetime, tz: ZoneInfo) -> list[str | int]:
        """Today and yesterday in `tz`, free pulls per day, max streak bonus: the counting's ARGV."""
        today = local_day(now, tz)
        yesterday = today - timedelta(days=1)
        return [today.isoformat(), yesterday.isoformat(), self._free_per_day, self._max_bonus]
