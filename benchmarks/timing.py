"""Timings for the benchmarks: a computer player under a stopwatch, percentiles, and the report."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from core.ai.base import ComputerPlayer
from core.ai.search import THINK_SECONDS, ThinkLimit, thinking_within
from core.engine import Action


class TimedPlayer:
    """Wraps a player and records how long each decision with a choice takes, in milliseconds: the
    CPU time of its thread (what one core spends, whatever else loads the machine) and the wall time;
    and every action it chose, so that a change meant to be faster only can show that it plays the
    same. Its searches keep to `think` seconds of that time, as in the bot (0: no limit; then a
    seeded run makes the same decisions on any machine)."""

    def __init__(self, player: ComputerPlayer[Any], think: float = 0.0) -> None:
        self.player = player
        self.limit = ThinkLimit(think, time.thread_time) if think else None
        self.cpu_ms: list[float] = []
        self.wall_ms: list[float] = []
        self.actions: list[Action] = []

    def choose(self, view: Any, legal: tuple[Action, ...], rng: random.Random) -> Action:
        cpu, wall = time.thread_time(), time.perf_counter()
        with thinking_within(self.limit):
            action = self.player.choose(view, legal, rng)
        self.actions.append(action)
        if len(legal) > 1:
            self.cpu_ms.append((time.thread_time() - cpu) * 1000)
            self.wall_ms.append((time.perf_counter() - wall) * 1000)
        return action


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def spread(times: Sequence[float], prefix: str) -> dict[str, float]:
    """The median, p99 and slowest of `times`, keyed `{prefix}_p50`, `_p99`, `_max`."""
    return {
        f"{prefix}_p50": statistics.median(times),
        f"{prefix}_p99": percentile(times, 0.99),
        f"{prefix}_max": max(times),
    }


def report(result: Mapping[str, Any], as_json: bool) -> None:
    """Print a benchmark's result: one JSON object, or a line per figure."""
    if as_json:
        print(json.dumps(result))
        return
    width = max(map(len, result))
    for name, value in result.items():
        print(f"{name:<{width}}  {value:.3f}" if isinstance(value, float) else f"{name:<{width}}  {value}")


def add_think_option(parser: argparse.ArgumentParser) -> None:
    """`--think`: the tested player's think limit, by default the bot's."""
    parser.add_argument(
        "--think",
        type=float,
        default=THINK_SECONDS,
        help="processor seconds a search may take, as in the bot (COMPUTER_THINK_SECONDS); 0: no limit, "
        "and only then do two machines' runs make the same decisions",
    )
