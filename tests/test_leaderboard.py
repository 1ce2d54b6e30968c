"""Leaderboards on a real Redis: global and per-chat boards, names, places."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from bot.economy.leaderboard import Entry, Leaderboard, board_key

CHAT = -100123


@pytest.fixture
def board(any_redis: aioredis.Redis) -> Leaderboard:
    return Leaderboard(any_redis)


async def test_empty_board(board: Leaderboard) -> None:
    assert await board.top(None, "balance") == []
    assert await board.top(CHAT, "rank") == []


async def test_keys_carry_the_owner_in_a_hash_tag() -> None:
    assert board_key(None, "balance") == "lb:{g}:balance"
    assert board_key(CHAT, "rank") == "lb:{c-100123}:rank"


async def test_record_updates_global_and_chat_boards(board: Leaderboard) -> None:
    await board.record(1, "Ann", CHAT, balance=1500, rank=2)
    await board.record(2, "Bob", None, balance=900, rank=4)
    await board.record(3, "Кира", CHAT, balance=2000, rank=0)

    assert await board.top(None, "balance") == [
        Entry(3, "Кира", 2000, 1),
        Entry(1, "Ann", 1500, 2),
        Entry(2, "Bob", 900, 3),
    ]
    assert await board.top(CHAT, "balance") == [Entry(3, "Кира", 2000, 1), Entry(1, "Ann", 1500, 2)]
    assert [e.user_id for e in await board.top(None, "rank")] == [2, 1, 3]
    assert await board.top(CHAT + 1, "balance") == []


async def test_latest_record_wins(board: Leaderboard) -> None:
    await board.record(1, "Ann", CHAT, balance=1500, rank=2)
    await board.record(1, "Anna", CHAT, balance=300, rank=3)
    assert await board.top(CHAT, "balance") == [Entry(1, "Anna", 300, 1)]
    assert await board.top(None, "rank") == [Entry(1, "Anna", 3, 1)]


async def test_limit_and_shared_places(board: Leaderboard) -> None:
    for user_id, balance in [(1, 500), (2, 700), (3, 500), (4, 100), (5, 700)]:
        await board.record(user_id, f"u{user_id}", None, balance=balance, rank=0)
    top = await board.top(None, "balance", limit=4)
    assert [(e.score, e.place) for e in top] == [(700, 1), (700, 1), (500, 3), (500, 3)]
    assert {e.user_id for e in top} == {1, 2, 3, 5}
