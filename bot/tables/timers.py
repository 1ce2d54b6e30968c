"""Turn timers (RULES.md Appendix C), kept in Redis so a restart neither loses nor doubles a timeout.

A table whose people must act carries a `deadline`, written in the same script as the table into
its bucket's sorted set (`bot/keys.py`). Every worker's ticker claims the due tables of each bucket
(a claim moves them a lease ahead, so each is handled by one worker, and a worker that dies lets
the lease run out) and handles a batch concurrently. A seat's expiries in a row count up: the first
warns, the second lets a computer move for the person, the third gives the seat to a computer,
which plays at once and keeps playing until the person presses "I'm back". Any move of their own
resets the count. A person who never comes back cannot stop the table: it plays on by timers. A
group that nobody can see the game in (its pictures refused) has its timers wait instead, and a
turn that ran out while no worker ticked (the bot or Redis was down) starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Final

from bot import keys
from bot.runtime.later import Due, Later
from bot.runtime.redis import OUTAGE
from bot.tables.lifecycle import computers_to_move, move_for, set_away
from bot.tables.model import Phase, Table
from bot.tables.outages import Heartbeat, Outage
from bot.tables.refusals import out_of_reach
from bot.tables.service import Tables, people_to_move
from bot.tables.store import VersionConflict

log = logging.getLogger(__name__)

#: Expiries in a row: warn, then move for the person, then hand the seat to a computer.
WARN, MOVE_FOR, TAKE_SEAT = 1, 2, 3
#: A claimed table is another worker's to retry after this long (its handler died).
CLAIM_SECONDS: Final = 60
#: Due tables one worker claims and handles at once.
CONCURRENCY: Final = 16
#: Buckets one worker reads at the same time (each read is a few quick Redis calls).
BUCKETS_AT_ONCE: Final = 8


class Timers:
    def __init__(
        self, tables: Tables, due: Due, later: Later, heartbeat: Heartbeat, clock: Callable[[], datetime]
    ) -> None:
        self._tables = tables
        self._due = due
        self._later = later
        self._heartbeat = heartbeat
        self._clock = clock
        self._limit = asyncio.Semaphore(CONCURRENCY)
        self._buckets = asyncio.Semaphore(BUCKETS_AT_ONCE)
        self._next_bucket = 0

    async def claim(self, wanted: int) -> list[str]:
        """Take up to `wanted` due table keys for this worker, from the buckets in turn (starting
        where the last claim left off, so a busy bucket does not starve the others)."""
        found: list[str] = []
        for step in range(keys.BUCKETS):
            bucket = (self._next_bucket + step) % keys.BUCKETS
            members, _ = await self._due.claim(keys.due(bucket), wanted - len(found), CLAIM_SECONDS)
            found += members
            if len(found) >= wanted:
                self._next_bucket = bucket
                break
        return found

    async def handle(self, key: str, outage: Outage | None) -> None:
        """One claimed table: expire it if it is still due, and put its timer entry back in line.

        A failure leaves the claim in place, so the table is due again when the claim lapses: put
        back at its passed deadline, it would be claimed again at once, and a table that fails every
        time would hold the ticker in a loop."""
        async with self._limit:
            table = None
            try:
                table = await self._tables.store.get_key(key)
                if (
                    table is not None
                    and table.deadline is not None
                    and table.deadline <= self._clock().timestamp()
                ):
                    await self.expire(table, outage)
            except OUTAGE:
                raise  # the ticker tells an outage once
            except Exception as error:
                if table is not None and not table.private and (gone := out_of_reach(table, error)):
                    log.warning("table %s: Telegram refuses it (%s): the games there stop", key, error)
                    await self._tables.abandon_chat(
                        table.chat_id, "", topic=table.topic if gone == "topic" else None
                    )
                    return
                log.exception("timeout of %s failed; tried again in %d s", key, CLAIM_SECONDS)
                return
            await self._tables.store.resync_timer(key)

    async def expire(self, table: Table, outage: Outage | None) -> None:
        """One expiry of `table`: count it for every person to move and act on the counts.

        Stored with compare-and-set: if anything else wrote the table first (a move, another worker's
        tick), this expiry is dropped and the fresh deadline decides. A lobby's expiry closes it."""
        if await self._waits(table, outage):
            # Storing it again restarts the time (and tries the picture once more).
            with contextlib.suppress(VersionConflict):
                await self._tables.commit(table, table)
            return
        if table.phase is Phase.LOBBY:
            with contextlib.suppress(VersionConflict):  # a join or a start came first
                await self._tables.close_lobby(table, idle=True)
            return
        # Computers to move (their chain cut, or their worker gone): they move now, and a person who
        # may act beside them (a throw-in) has missed nothing: their time starts once the computers
        # are done.
        seats = () if computers_to_move(table) else people_to_move(table)
        strikes = dict(table.strikes)
        for seat in seats:
            strikes[seat] = strikes.get(seat, 0) + 1
        warned = tuple(seat for seat in seats if strikes[seat] == WARN)
        counted = set_away(
            table.model_copy(update={"strikes": strikes}), [s for s in seats if strikes[s] >= TAKE_SEAT]
        )
        # The stand-in computers of seats just taken over play at once (move_for goes on with play).
        updated = await move_for(counted, [s for s in seats if strikes[s] == MOVE_FOR], self._tables.decide)
        try:
            stored = await self._tables.commit(table, updated)
        except VersionConflict:
            return
        if stored is not None:
            await self._tables.publisher.warn(stored, warned)

    async def _waits(self, table: Table, outage: Outage | None) -> bool:
        """Whether the time ran out where nobody could act: while no worker ticked (nobody's presses
        were played; a lobby's idle time too), or in a group that took pictures from the bot (nobody
        sees whose turn it is). A computers' grace is not waited: they move now."""
        if table.deadline is None or not (table.phase is Phase.LOBBY or people_to_move(table)):
            return False
        if outage is not None and outage.covers(table.deadline):
            return True
        return table.phase is Phase.PLAYING and await self._tables.publisher.unseen(table)

    async def tick(self) -> None:
        """Deliver every due deferred edit and job, then handle due tables a handful at a time until
        none is due: workers ticking together share a burst between them."""
        outage = await self._heartbeat.beat(look_for_gap=True)
        await asyncio.gather(*(self._deliver(bucket) for bucket in range(keys.BUCKETS)))
        while claimed := await self.claim(CONCURRENCY):
            await asyncio.gather(*(self.handle(key, outage) for key in claimed))
        await self._heartbeat.beat(look_for_gap=False)

    async def _deliver(self, bucket: int) -> None:
        async with self._buckets:
            await self._tables.publisher.deliver_due(bucket)
            await self._later.run_due(bucket)
