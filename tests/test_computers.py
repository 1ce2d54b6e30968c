"""The decision pool: a decision over its time budget is made by the cheapest level instead."""

from __future__ import annotations

import random
import threading

import pytest

from bot.tables.computers import FALLBACK_LEVEL, Computers
from core.ai import registry
from core.engine import Action, resolve_chance
from core.registry import GAMES


class Stuck:
    """A player that thinks until the test lets it go."""

    def __init__(self) -> None:
        self.released = threading.Event()

    def choose(self, view: object, legal: tuple[Action, ...], rng: random.Random) -> Action:
        self.released.wait(timeout=60)
        return legal[-1]


async def test_a_decision_over_its_budget_falls_back_to_the_cheapest_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES["grid"]
    state, _ = resolve_chance(game, game.new(2, {}), random.Random(1))
    seat = game.to_move(state)[0]
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    assert len(legal) > 1
    stuck = Stuck()
    monkeypatch.setitem(registry.PLAYERS["grid"], "hard", stuck)
    computers = Computers(processes=0, budget_seconds=0.01)
    try:
        chosen = await computers.decide("grid", "hard", view, legal, "seed")
    finally:
        stuck.released.set()
    expected = registry.computer_player("grid", FALLBACK_LEVEL).choose(view, legal, random.Random("seed"))
    assert chosen == expected and chosen in legal
