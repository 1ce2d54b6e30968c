"""Leaderboards of the coin games: balance and bandit career rank, globally and per chat.

The bot calls `record` after every payout, so the boards follow the wallet.

Key layout (one hash tag per board owner; the boards of one owner share a slot):

- `lb:{g}:balance`, `lb:{g}:rank`: sorted sets, member = user id, score = balance / career rank.
- `lb:{c<chat_id>}:balance`, `lb:{c<chat_id>}:rank`: the same for the players seen in one chat.
- `lb:names`: hash, user id -> display name (the latest one seen).

No expiry. The writes go to several slots, so `record` pipelines them without a transaction: a reader
may briefly see one board updated before another, and the next `record` repairs any gap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, cast

import redis.asyncio as aioredis

Board = Literal["balance", "rank"]

NAMES_KEY: Final = "lb:names"


def board_key(chat_id: int | None, board: Board) -> str:
    owner = "g" if chat_id is None else f"c{chat_id}"
    return f"lb:{{{owner}}}:{board}"


@dataclass(frozen=True, slots=True)
class Entry:
    user_id: int
    name: str
    score: int
    #: 1-based; equal scores share a place ("1, 2, 2, 4").
    place: int


class Leaderboard:
    def __init__(self, redis: aioredis.Redis) -> None:
        self._redis = redis

    async def record(
        self, user_id: int, name: str, chat_id: int | None, *, balance: int, rank: int | None
    ) -> None:
        """Put the user's balance and career rank (None: unchanged) on the global boards and, given a
        chat, on its boards."""
        owners = [None] if chat_id is None else [None, chat_id]
        pipe = self._redis.pipeline(transaction=False)
        for owner in owners:
            pipe.zadd(board_key(owner, "balance"), {str(user_id): balance})
            if rank is not None:
                pipe.zadd(board_key(owner, "rank"), {str(user_id): rank})
        pipe.hset(NAMES_KEY, str(user_id), name)
        await pipe.execute()

    async def move_chat(self, old_chat: int, new_chat: int) -> None:
        """A chat's boards under its new id (a group that became a supergroup)."""
        boards: tuple[Board, ...] = ("balance", "rank")
        for board in boards:
            old_key = board_key(old_chat, board)
            rows = cast(
                list[tuple[bytes | str, float]], await self._redis.zrange(old_key, 0, -1, withscores=True)
            )
            if rows:
                await self._redis.zadd(
                    board_key(new_chat, board), {_text(member): score for member, score in rows}
                )
            await self._redis.delete(old_key)

    async def top(self, chat_id: int | None, board: Board, limit: int = 10) -> list[Entry]:
        """The best `limit` users of a board (global for chat_id None), best first."""
        # With scores the reply is (member, score) pairs (lists under RESP3); the stubs cannot say so.
        rows = cast(
            list[tuple[bytes | str, float]],
            await self._redis.zrevrange(board_key(chat_id, board), 0, limit - 1, withscores=True),
        )
        if not rows:
            return []
        names = await self._redis.hmget(NAMES_KEY, [member for member, _ in rows])
        entries: list[Entry] = []
        for index, ((member, score), name) in enumerate(zip(rows, names, strict=True)):
            user_id = int(member)
            points = int(score)
            place = entries[-1].place if entries and entries[-1].score == points else index + 1
            entries.append(Entry(user_id, str(user_id) if name is None else _text(name), points, place))
        return entries


def _text(value: bytes | str) -> str:
    # The client may or may not decode responses.
    return value.decode() if isinstance(value, bytes) else value
