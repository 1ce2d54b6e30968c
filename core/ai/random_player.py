"""A uniformly random player: the baseline for benchmarks and tests, and an "easy" level."""

from __future__ import annotations

import random

from core.engine import Action


class RandomPlayer:
    def choose(self, view: object, legal: tuple[Action, ...], rng: random.Random) -> Action:
        return rng.choice(legal)
