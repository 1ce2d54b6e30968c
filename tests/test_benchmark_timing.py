"""The benchmarks' stopwatch runs the tested player as the bot does: within the think limit it is given."""

from __future__ import annotations

import random
import time

from benchmarks.timing import TimedPlayer
from core.ai.search import ThinkLimit, think_limit
from tests.test_computers import Thinking


def test_a_timed_player_decides_within_the_think_limit_it_is_given() -> None:
    limited, free = Thinking(), Thinking()
    TimedPlayer(limited, 0.25).choose(None, ("a", "b"), random.Random(0))
    TimedPlayer(free).choose(None, ("a", "b"), random.Random(0))
    assert limited.limits == [ThinkLimit(0.25, time.thread_time)]
    assert free.limits == [None]
    assert think_limit() is None  # the limit stays inside the decision
