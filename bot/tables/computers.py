"""Computer players' decisions, off the event loop (DESIGN.md, "Computers").

Decisions run in a pool of worker processes (`COMPUTER_PROCESSES`; 0 runs them in a thread, for
tests and small hosts), each within a time budget, so one chat's computers never hold up another
chat's turn. A decision that overruns the budget is replaced by the cheapest level's choice, so a
table always goes on; the player sees only the view, as a person in that seat would.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor
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
        self.budget_seconds = budget_seconds
        self.think_seconds = think_seconds
        # Spawned, not forked: a fork of a process with an event loop and threads is unsafe.
        # Each worker ends with this process (a `kill -9` of the bot leaves none running) and yields
        # the processor to it.
        self._pool: Executor | None = (
            ProcessPoolExecutor(
                processes,
                mp_context=get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
            if processes > 0
            else None
        )
        if isinstance(self._pool, ProcessPoolExecutor):
            for _ in range(processes):
                self._pool.submit(_warm_up)

    async def decide(
        self, game_id: str, level: str, view: Frozen, legal: tuple[Action, ...], seed: str
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        job = asyncio.get_running_loop().run_in_executor(
            self._pool, decide, game_id, level, view, legal, seed, self.think_seconds
        )
        try:
            return await asyncio.wait_for(job, self.budget_seconds)
        except TimeoutError:
            log.warning("%s computer (%s) overran its %.1f s budget", game_id, level, self.budget_seconds)
            return decide(game_id, FALLBACK_LEVEL, view, legal, seed)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
