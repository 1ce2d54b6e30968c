"""The bandit career rank per user, and the settlement of one pull: rank and winnings together.

A pull is settled once per pull id in one Lua script that checks the rank it was evaluated at,
moves the rank and credits the win through the wallet's own movement code. A pull evaluated at a
rank that another pull has moved meanwhile is told so and evaluated again (the stops stay the same:
they derive from the pull id), so concurrent pulls never lose a career step or pay one twice.

Keys (under the wallet's hash tag): the rank is field `rank` of `w:{b}:<uid>`; a settled pull is
`w:{b}:<uid>:spin:<pull_id>` (JSON), kept as long as the wallet's operation records.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import redis.asyncio as aioredis

from bot import keys
from bot.economy.wallet import LUA_APPLY_MOVE, OpConflict, Wallet, account_key, parse_movement

SECRET_KEY: Final = "secret:spin"

# KEYS[1..3], ARGV[1..6] as for apply_move (op id 'spin:<pull_id>'); KEYS[4] the settled-pull record.
# ARGV[7] the rank the pull was evaluated at, ARGV[8] the rank after it, ARGV[9] coins to credit,
# ARGV[10] the record (JSON). Returns {'ok'|'dup', record, movement or false} | {'moved', rank}.
_SETTLE: Final = (
    LUA_APPLY_MOVE
    + """
local rec = redis.call('GET', KEYS[4])
if rec then return {'dup', rec, false} end
local rank = tonumber(redis.call('HGET', KEYS[1], 'rank') or '0')
if rank ~= tonumber(ARGV[7]) then return {'moved', tostring(rank)} end
local movement = false
local credit = tonumber(ARGV[9])
if credit > 0 then
  local reply = apply_move(credit)
  if reply[1] ~= 'ok' then return redis.error_reply('wallet operation ' .. ARGV[1] .. ' already exists') end
  movement = reply[2]
end
redis.call('HSET', KEYS[1], 'rank', ARGV[8])
redis.call('SET', KEYS[4], ARGV[10], 'EX', ARGV[6])
return {'ok', ARGV[10], movement}
"""
)


class RankMoved(Exception):
    """Another pull changed the rank after this one read it: evaluate again at `rank`."""

    def __init__(self, rank: int) -> None:
        super().__init__(f"rank moved to {rank}")
        self.rank = rank


@dataclass(frozen=True, slots=True)
class Settled:
    #: The record stored for the pull (what the caller passed the first time).
    record: dict[str, object]
    #: The balance right after the credit, or None when nothing was credited.
    balance: int | None
    repeated: bool


def spin_key(user_id: int, pull_id: str) -> str:
    return keys.wallet_part(user_id, f"spin:{pull_id}")


class Career:
    def __init__(self, redis: aioredis.Redis, wallet: Wallet) -> None:
        self._redis = redis
        self._wallet = wallet
        self._settle = redis.register_script(_SETTLE)
        self._secret: bytes | None = None

    async def rank(self, user_id: int) -> int:
        value = await self._redis.hget(account_key(user_id), "rank")
        return int(value) if value is not None else 0

    async def seed(self, pull_id: str) -> int:
        """The pull's random seed: fixed per pull id (a retried update draws the same stops), and
        unpredictable without the deployment's secret, which lives in Redis for every worker."""
        if self._secret is None:
            await self._redis.set(SECRET_KEY, secrets.token_hex(32), nx=True)
            stored = await self._redis.get(SECRET_KEY)
            assert stored is not None
            self._secret = stored if isinstance(stored, bytes) else stored.encode()
        digest = hmac.new(self._secret, pull_id.encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:16], "big")

    async def settle(
        self,
        user_id: int,
        pull_id: str,
        *,
        rank_before: int,
        rank_after: int,
        credit: int,
        record: dict[str, object],
        now: datetime,
    ) -> Settled:
        op_id = f"spin:{pull_id}"
        script_keys = [*self._wallet.move_keys(user_id, op_id), spin_key(user_id, pull_id)]
        args = [
            *self._wallet.move_args(op_id, "bandit:win", now),
            rank_before,
            rank_after,
            credit,
            json.dumps(record),
        ]
        reply = await self._settle(keys=script_keys, args=args)
        status = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
        if status == "moved":
            raise RankMoved(int(reply[1]))
        movement = parse_movement(reply[2]) if reply[2] else None
        if movement is not None and movement.delta != credit:
            raise OpConflict(op_id, movement)
        stored: dict[str, object] = json.loads(reply[1])
        return Settled(stored, movement.balance if movement else None, repeated=status == "dup")
