"""The generic determinized search player, on the generic engine simulation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from core.ai.base import ComputerPlayer
from core.ai.random_player import RandomPlayer
from core.ai.search import SearchPlayer
from core.engine import Action, Seat, Simulation
from core.games.grid import GridGame
from core.play import play_game


def _random_policy(sim: Simulation, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
    return legal[rng.randrange(len(legal))]


def test_search_on_the_engine_simulation_beats_random_at_the_grid() -> None:
    game = GridGame()
    search = SearchPlayer(game, _random_policy, budget=300, max_worlds=8)
    wins = 0
    for number in range(60):
        # Alternate who sits first, so the first-move advantage cancels out.
        seats: list[ComputerPlayer[Any]] = [search, RandomPlayer()]
        if number % 2:
            seats.reverse()
        final = play_game(game, seats, random.Random(number))
        outcome = game.outcome(final)
        assert outcome is not None
        wins += (number % 2) in outcome.winners
    # Random against random wins about 30 of 60.
    assert wins >= 36


def test_search_is_reproducible_for_a_seed() -> None:
    game = GridGame()
    search = SearchPlayer(game, _random_policy, budget=200, max_worlds=4)
    state = game.new(2)
    final = play_game(game, [search, search], random.Random(3))
    assert play_game(game, [search, search], random.Random(3)).history == final.history
    assert state.version == 0
