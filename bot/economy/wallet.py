"""The coin wallet: one balance per user, shared by every coin game (RULES.md A9.6, Appendix C).

Every change runs in one Lua script, so it is atomic, and carries an operation id, so it is
idempotent: a retried or doubled update never pays or charges twice.

Keys (`bot/keys.py`: one user's keys share a hash tag, so a Redis Cluster keeps them in one slot,
with the user's private tables, and one script may touch them all):

- `w:{b}:<uid>`: hash: `balance`, `refill_day` (local date of the last refill). Created at
  START_BALANCE by the first script that touches it. No expiry.
- `w:{b}:<uid>:log`: list of the last HISTORY_SIZE movements (JSON), newest first. No expiry.
- `w:{b}:<uid>:op:<op_id>`: string, the movement an operation made (JSON). Expires after
  `op_ttl_seconds`, which bounds memory; an operation retried later than that would apply again.
- `w:{b}:<uid>:daily`, `...:pull:<pull_id>`, `...:pending`: the daily free pulls (daily.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final, Literal
from zoneinfo import ZoneInfo

import redis.asyncio as aioredis

from bot import keys

START_BALANCE: Final = 1000
HISTORY_SIZE: Final = 10
#: Idempotency records live this long: far longer than any retry of a Telegram update.
OP_TTL_SECONDS: Final = 3 * 24 * 3600
#: The smallest bet of any coin game (McSweeney's Gold); below it a refill may be asked for.
MIN_BET: Final = 20

# Lua shared by every script that moves coins (the daily pulls, the career and the table store too).
# move(account, log, op record, op id, reason, time, start balance, history size, op ttl, delta)
# returns {'ok', movement} | {'dup', movement} (the op id was applied before) | {'conflict',
# movement} (... with another delta) | {'funds', balance}. check_funds(account, start, delta)
# returns the balance if a debit of -delta would overdraw it, else false.
LUA_MOVE_HELPERS: Final = """
local function check_funds(acct, start, delta)
  local balance = tonumber(redis.call('HGET', acct, 'balance') or start)
  if delta < 0 and balance + delta < 0 then return tostring(balance) end
  return false
end
local function move(acct, log, opkey, op_id, reason, at, start, size, ttl, delta)
  local old = redis.call('GET', opkey)
  if old then
    if cjson.decode(old).delta ~= delta then return {'conflict', old} end
    return {'dup', old}
  end
  local short = check_funds(acct, start, delta)
  if short then return {'funds', short} end
  redis.call('HSETNX', acct, 'balance', start)
  local balance = redis.call('HINCRBY', acct, 'balance', delta)
  local m = cjson.encode({op = op_id, at = at, delta = delta, reason = reason, balance = balance})
  redis.call('LPUSH', log, m)
  redis.call('LTRIM', log, 0, size - 1)
  redis.call('SET', opkey, m, 'EX', ttl)
  return {'ok', m}
end
"""

# apply_move(delta) over KEYS[1..3]: account, log, op record, and ARGV[1..6] (Wallet.move_args):
# op id, reason, time, start, history size, op ttl.
LUA_APPLY_MOVE: Final = (
    LUA_MOVE_HELPERS
    + """
local function apply_move(delta)
  return move(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4],
              tonumber(ARGV[5]), ARGV[6], delta)
end
"""
)

# KEYS, ARGV[1..6] as for apply_move; ARGV[7] delta.
_APPLY: Final = LUA_APPLY_MOVE + "return apply_move(tonumber(ARGV[7]))\n"

# KEYS: account. ARGV: start.
_BALANCE: Final = """
redis.call('HSETNX', KEYS[1], 'balance', ARGV[1])
return redis.call('HGET', KEYS[1], 'balance')
"""

# KEYS, ARGV[1..6] as for apply_move (op id 'refill:<today>'); ARGV[7] today, ARGV[8] minimum.
# Returns {'today'} | {'enough', balance} | apply_move's reply.
_REFILL: Final = (
    LUA_APPLY_MOVE
    + """
redis.call('HSETNX', KEYS[1], 'balance', ARGV[4])
if redis.call('HGET', KEYS[1], 'refill_day') == ARGV[7] then return {'today'} end
local balance = tonumber(redis.call('HGET', KEYS[1], 'balance'))
if balance >= tonumber(ARGV[8]) then return {'enough', tostring(balance)} end
local reply = apply_move(tonumber(ARGV[4]) - balance)
if reply[1] == 'ok' then redis.call('HSET', KEYS[1], 'refill_day', ARGV[7]) end
return reply
"""
)


def account_key(user_id: int) -> str:
    return keys.wallet(user_id)


def log_key(user_id: int) -> str:
    return keys.wallet_part(user_id, "log")


def op_key(user_id: int, op_id: str) -> str:
    return keys.wallet_part(user_id, f"op:{op_id}")


def local_day(now: datetime, tz: ZoneInfo) -> date:
    """The calendar date of `now` in `tz`; `now` must be aware, or the date would depend on the host."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return now.astimezone(tz).date()


def next_midnight(day: date, tz: ZoneInfo) -> datetime:
    """00:00 local time after `day`, the moment daily allowances reset."""
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)


@dataclass(frozen=True, slots=True)
class Movement:
    op_id: str
    at: datetime
    delta: int
    reason: str
    #: The balance right after this movement.
    balance: int


class InsufficientFunds(Exception):
    def __init__(self, balance: int, needed: int) -> None:
        super().__init__(f"balance {balance} cannot cover {needed}")
        self.balance = balance
        self.needed = needed


class OpConflict(ValueError):
    """The operation id was already applied with a different amount."""

    def __init__(self, op_id: str, applied: Movement) -> None:
        super().__init__(f"operation {op_id!r} was applied with delta {applied.delta}")
        self.applied = applied


RefillReason = Literal["not_broke", "already_today"]


class RefillRefused(Exception):
    def __init__(self, reason: RefillReason) -> None:
        super().__init__(reason)
        self.reason: RefillReason = reason


def _text(value: bytes | str) -> str:
    # The client may or may not decode responses.
    return value.decode() if isinstance(value, bytes) else value


def parse_movement(raw: bytes | str) -> Movement:
    doc = json.loads(raw)
    return Movement(
        op_id=doc["op"],
        at=datetime.fromisoformat(doc["at"]),
        delta=int(doc["delta"]),
        reason=doc["reason"],
        balance=int(doc["balance"]),
    )


def movement_from_reply(reply: list[bytes | str], needed: int) -> Movement:
    """Decode apply_move's reply: the movement made (or made before, for a repeated op id), or raise."""
    status = _text(reply[0])
    if status == "funds":
        raise InsufficientFunds(int(reply[1]), needed)
    movement = parse_movement(reply[1])
    if status == "conflict":
        raise OpConflict(movement.op_id, movement)
    return movement


class Wallet:
    def __init__(
        self,
        redis: aioredis.Redis,
        *,
        start_balance: int = START_BALANCE,
        history_size: int = HISTORY_SIZE,
        op_ttl_seconds: int = OP_TTL_SECONDS,
    ) -> None:
        self.start_balance = start_balance
        self.history_size = history_size
        self.op_ttl_seconds = op_ttl_seconds
        self._redis = redis
        self._apply = redis.register_script(_APPLY)
        self._balance = redis.register_script(_BALANCE)
        self._refill = redis.register_script(_REFILL)

    def move_keys(self, user_id: int, op_id: str) -> list[str]:
        """KEYS[1..3] for LUA_APPLY_MOVE."""
        return [account_key(user_id), log_key(user_id), op_key(user_id, op_id)]

    def move_args(self, op_id: str, reason: str, now: datetime) -> list[str | int]:
        """ARGV[1..6] for LUA_APPLY_MOVE."""
        return [op_id, reason, *self.shared_move_args(now)]

    def shared_move_args(self, now: datetime) -> list[str | int]:
        """The arguments of `move` every movement of one script shares: time, start balance,
        history size, op ttl."""
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        return [now.astimezone(UTC).isoformat(), self.start_balance, self.history_size, self.op_ttl_seconds]

    async def apply(self, user_id: int, op_id: str, delta: int, reason: str, *, now: datetime) -> Movement:
        """Add `delta` (negative: a debit) once per `op_id`; return the movement.

        A repeated op id returns the original movement and changes nothing; with a different delta
        it raises OpConflict. A debit the balance cannot cover raises InsufficientFunds and changes
        nothing (and records nothing, so the same op id may succeed later).
        """
        args = [*self.move_args(op_id, reason, now), delta]
        reply = await self._apply(keys=self.move_keys(user_id, op_id), args=args)
        return movement_from_reply(reply, -delta)

    async def balance(self, user_id: int) -> int:
        return int(await self._balance(keys=[account_key(user_id)], args=[self.start_balance]))

    async def history(self, user_id: int) -> list[Movement]:
        """The last `history_size` movements, newest first."""
        return [parse_movement(raw) for raw in await self._redis.lrange(log_key(user_id), 0, -1)]

    async def refill(self, user_id: int, *, now: datetime, tz: ZoneInfo, minimum: int = MIN_BET) -> Movement:
        """Set the balance back to the start balance (RULES.md A8.5).

        Allowed when the balance is below `minimum`, at most once per calendar day in `tz`;
        otherwise raises RefillRefused and changes nothing.
        """
        today = local_day(now, tz).isoformat()
        op_id = f"refill:{today}"
        args = [*self.move_args(op_id, "refill", now), today, minimum]
        reply = await self._refill(keys=self.move_keys(user_id, op_id), args=args)
        status = _text(reply[0])
        if status == "today":
            raise RefillRefused("already_today")
        if status == "enough":
            raise RefillRefused("not_broke")
        return movement_from_reply(reply, 0)
