"""Turn timers (RULES.md Appendix C), kept in Redis so a restart neither loses nor doubles a timeout.

A table whose people must act carries a `deadline`; the table key sits in the sorted set `timers`
scored by it. One ticker per worker claims due tables with the store's compare-and-set, so when two
workers (or a restart) race for the same expiry, exactly one handles it. A seat's expiries in a row
count up: the first warns, the second lets a computer move for the person, the third gives the seat to
a computer until they press "I'm back". Any move of their own resets the count.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Final, cast

import redis.asyncio as aioredis
from telegram.ext import ContextTypes

from bot.tables.lifecycle import game_of, move_for, state_of
from bot.tables.model import Phase, Table
from bot.tables.store import TableStore, VersionConflict, table_key

log = logging.getLogger(__name__)

TIMERS_KEY: Final = "timers"
#: Expiries in a row: warn, then move for the person, then hand the seat to a computer.
WARN, MOVE_FOR, TAKE_SEAT = 1, 2, 3
#: Default turn time in a group (Appendix C); private games have none.
GROUP_TURN_SECONDS: Final = 90


def people_to_move(table: Table) -> tuple[int, ...]:
    """Seats whose person (not a computer) must act now."""
    if table.phase is not Phase.PLAYING or table.state is None:
        return ()
    return tuple(
        seat
        for seat in game_of(table).to_move(state_of(table))
        if seat >= 0 and not table.players[seat].is_computer
    )


def stamp(table: Table, now: datetime) -> Table:
    """Set (or clear) the deadline of a table about to be stored: restarted on every visible change."""
    if table.turn_seconds <= 0 or not people_to_move(table):
        return table.model_copy(update={"deadline": None}) if table.deadline is not None else table
    return table.model_copy(update={"deadline": now.timestamp() + table.turn_seconds})


class Timers:
    def __init__(self, redis: aioredis.Redis, store: TableStore, clock: Callable[[], datetime]) -> None:
        self._redis = redis
        self._store = store
        self._clock = clock

    async def schedule(self, table: Table) -> None:
        """Keep the sorted set in line with a table just stored."""
        member = table_key(table.chat_id, table.topic)
        if table.deadline is None:
            await self._redis.zrem(TIMERS_KEY, member)
        else:
            await self._redis.zadd(TIMERS_KEY, {member: table.deadline})

    async def due(self) -> list[Table]:
        now = self._clock().timestamp()
        # Without scores the reply is a plain list of members; the stubs cannot say so.
        members = cast(list[bytes | str], await self._redis.zrangebyscore(TIMERS_KEY, "-inf", now))
        found: list[Table] = []
        for member in members:
            key = member.decode() if isinstance(member, bytes) else str(member)
            chat, topic = key.removeprefix("tbl:{").split("}:")
            table = await self._store.get(int(chat), int(topic))
            if table is None or table.deadline is None:
                await self._redis.zrem(TIMERS_KEY, key)
            elif table.deadline <= now:
                found.append(table)
        return found

    async def expire(self, table: Table, show: Callable[[Table, tuple[int, ...]], Awaitable[None]]) -> None:
        """One expiry of `table`: count it for every person to move and act on the counts.

        Stored with compare-and-set: if anything else wrote the table first (a move, another worker's
        tick), this expiry is dropped and the fresh deadline decides.
        """
        seats = people_to_move(table)
        strikes = dict(table.strikes)
        for seat in seats:
            strikes[seat] = strikes.get(seat, 0) + 1
        warned = tuple(seat for seat in seats if strikes[seat] == WARN)
        players = list(table.players)
        for seat in seats:
            if strikes[seat] >= TAKE_SEAT:
                players[seat] = players[seat].model_copy(update={"away": True})
        updated = table.model_copy(
            update={"strikes": strikes, "players": tuple(players), "screen": table.screen + 1}
        )
        updated = move_for(updated, [seat for seat in seats if strikes[seat] == MOVE_FOR])
        updated = stamp(updated, self._clock())
        try:
            stored = await self._store.put(updated, expected_version=table.version)
        except VersionConflict:
            return
        await self.schedule(stored)
        await show(stored, warned)


async def tick(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The ticker job: handle every table whose deadline passed."""
    services = context.bot_data["services"]
    for table in await services.timers.due():
        try:
            await services.timers.expire(table, services.publisher.show_with_warning)
        except Exception:
            log.exception("timeout of table %s failed", table.id)
