"""A computer player under a stopwatch: the benchmarks' decision times."""

from __future__ import annotations

import random
import time
from typing import Any

from core.ai.base import ComputerPlayer
from core.engine import Action


class TimedPlayer:
    """Wraps a player and records how long each decision with a choice takes, in milliseconds: the
    CPU time of its thread (what one core spends, whatever else loads the machine) and the wall time."""

    def __init__(self, player: ComputerPlayer[Any]) -> None:
        self.player = player
        self.cpu_ms: list[float] = []
        self.wall_ms: list[float] = []

    def choose(self, view: Any, legal: tuple[Action, ...], rng: random.Random) -> Action:
        cpu, wall = time.thread_time(), time.perf_counter()
        action = self.player.choose(view, legal, rng)
        if len(legal) > 1:
            self.cpu_ms.append((time.thread_time() - cpu) * 1000)
            self.wall_ms.append((time.perf_counter() - wall) * 1000)
        return action
