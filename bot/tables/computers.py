"""Computer players' decisions, off the event loop (DESIGN.md, "Computers").

Decisions run in a pool of worker processes (`COMPUTER_PROCESSES`; 0 runs them in a thread, for
tests and small hosts), each within a time budget, so one chat's computers never hold up another
chat's turn. A decision that overruns the budget is replaced by the cheapest level's choice, so a
table always goes on; so is one whose worker died, and the pool it broke is started again. The
player sees only the view, as a person in that seat would.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from bot.runtime.lifetime import end_with_parent
from core.ai.registry import LEVELS, computer_player
from core.ai.search import ThinkLimit, thinking_within
from core.engine import Action, Frozen

log = logging.getLogger(__name__)

#: The level that stands in when a decision overruns its budget: always cheap.
FALLBACK_LEVEL = LEVELS[0]


def decide(
    game_id: str, level: str, view: Frozen, legal: tuple[Action, ...], seed: str, think_seconds: float = 0
) -> Action:
    """One decision, in whatever process runs it: seeded, so a retried update decides the same
    (but for a search cut short by `think_seconds` of processor time, if not 0)."""
    with thinking_within(ThinkLimit(think_seconds, time.thread_time) if think_seconds else None):
        return computer_player(game_id, level).choose(view, legal, random.Random(seed))


#: How much less the computers' processes are given the processor than the bot's own: a person's
#: turn (engine, store, picture) goes first, computers think with what is left.
WORKER_NICENESS = 10


def _start_worker(parent: int) -> None:
    end_with_parent(parent)
    os.nice(WORKER_NICENESS)


def _warm_up() -> None:
    """Import the games and players in a fresh worker before the first real decision needs them."""
    import core.ai.registry  # noqa: F401


class Computers:
    def __init__(self, processes: int, budget_seconds: float, think_seconds: float = 0) -> None:
        self.processes = processes
        self.budget_seconds = budget_seconds
        self.think_seconds = think_seconds
        self._pool = self._new_pool() if processes > 0 else None

    def _new_pool(self) -> ProcessPoolExecutor:
        # Spawned, not forked: a fork of a process with an event loop and threads is unsafe.
        # Each worker ends with this process (a `kill -9` of the bot leaves none running) and yields
        # the processor to it.
        pool = ProcessPoolExecutor(
            self.processes,
            mp_context=get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        for _ in range(self.processes):
            pool.submit(_warm_up)
        return pool

    async def decide(
        self, game_id: str, level: str, view: Frozen, legal: tuple[Action, ...], seed: str
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        for _ in range(2):  # a new pool that breaks at once leaves the decision to the fallback
            pool = self._pool
            try:
                job = asyncio.get_running_loop().run_in_executor(
                    pool, decide, game_id, level, view, legal, seed, self.think_seconds
                )
                return await asyncio.wait_for(job, self.budget_seconds)
            except TimeoutError:
                log.warning("%s computer (%s) overran its %.1f s budget", game_id, level, self.budget_seconds)
                break
            except BrokenProcessPool:
                self._replace(pool)
        return decide(game_id, FALLBACK_LEVEL, view, legal, seed)

    def _replace(self, broken: ProcessPoolExecutor | None) -> None:
        """A worker died (killed, out of memory): its pool refuses all work from then on, so a new
        one takes its place, once, however many decisions were refused by the old one."""
        if self._pool is broken and broken is not None:
            log.warning("a computer worker process died: its pool is started again")
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    def close(self) -> None:
        """Cancel waiting decisions and wait for the workers to end: a pool left ending raced
        Python's exit, which could print an ignored OSError (Python 3.11 wakes its thread at exit
        while the thread closes the pipe it is woken by)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
