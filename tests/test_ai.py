"""Computer players: legal moves only, views only, reproducible, and the grid player is strong."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from core.ai.base import ComputerPlayer
from core.ai.grid import GridPlayer
from core.ai.random_player import RandomPlayer
from core.ai.registry import LEVELS, PLAYERS, computer_player
from core.engine import Action, Frozen
from core.games.grid import GridGame, GridView
from core.play import play, play_game
from core.registry import GAMES
from tests.kit import is_checkpoint

GRID = GridGame()


class _Checked:
    """Passes decisions through, asserting the player got a view and answered with a legal action;
    at the 1st, 2nd, 4th, 8th, ... decision it asks again with the same generator state (and the
    global `random` disturbed) and expects the same answer."""

    def __init__(self, player: ComputerPlayer[Any]) -> None:
        self.player = player
        self.decisions = 0

    def choose(self, view: Any, legal: tuple[Action, ...], rng: random.Random) -> Action:
        assert isinstance(view, Frozen)
        again = random.Random()
        again.setstate(rng.getstate())
        action = self.player.choose(view, legal, rng)
        assert action in legal
        self.decisions += 1
        if is_checkpoint(self.decisions):
            random.seed(self.decisions)
            assert self.player.choose(view, legal, again) == action, "another answer for the same seed"
        return action


#: Steps (actions, chance included) per game, level and seat count: a searching player thinks on
#: every move, so the budget counts steps, not games (the last game may stop half way).
STEPS = 150
#: The trick games' hard players search 8,000 simulated moves a decision: fewer steps of theirs.
SEARCHING_STEPS = {("tarot", "hard"): 50, ("minor_arcana", "hard"): 50}

SEATINGS = [
    (game_id, level, players)
    for game_id in PLAYERS
    for level in PLAYERS[game_id]
    for players in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1)
]


@pytest.mark.parametrize(("game_id", "level", "players"), SEATINGS)
def test_every_level_plays_legal_reproducible_moves(game_id: str, level: str, players: int) -> None:
    """The tested player takes each seat in turn, game by game, among random players (who keep a
    searching player's cost down to its own moves)."""
    checked = _Checked(computer_player(game_id, level))
    game = GAMES[game_id]
    budget = SEARCHING_STEPS.get((game_id, level), STEPS)
    steps = its_turns = 0
    for number in itertools.count():
        seat = number % players
        seats: list[ComputerPlayer[Any]] = [RandomPlayer()] * players
        seats[seat] = checked
        for turn in play(game, seats, random.Random(number)):
            steps += 1
            its_turns += turn.seat == seat
            if steps == budget:
                break
        if steps == budget:
            break
    # Every action of its seat came from the checked player (a game of pure chance has none).
    assert checked.decisions == its_turns


def test_every_registered_game_has_a_computer_player() -> None:
    assert set(PLAYERS) == set(GAMES)
    assert all(set(levels) <= set(LEVELS) for levels in PLAYERS.values())


def test_a_missing_level_falls_back_to_the_strongest() -> None:
    assert computer_player("grid", "grandmaster") is PLAYERS["grid"]["hard"]
    assert computer_player("grid") is PLAYERS["grid"]["normal"]


def _views_to_decide(players: int, games: int) -> list[tuple[GridView, tuple[Action, ...]]]:
    """Views and legal actions of every decision in some random games."""
    found = []
    for number in range(games):
        for turn in play(GRID, [RandomPlayer()] * players, random.Random(number)):
            if turn.seat >= 0:
                found.append((GRID.view(turn.before, turn.seat), GRID.legal_actions(turn.before, turn.seat)))
    return found


@pytest.mark.parametrize("players", [1, 2])
def test_grid_player_is_deterministic_for_a_seed(players: int) -> None:
    player = GridPlayer()
    for view, legal in _views_to_decide(players, 5):
        first = player.choose(view, legal, random.Random(3))
        assert player.choose(view, legal, random.Random(3)) == first
        assert first in legal


def test_grid_player_needs_only_the_view() -> None:
    # It decides the same whatever the hidden cards are, since it is handed nothing but the view.
    player = GridPlayer()
    shuffler = random.Random(0)
    for number in range(5):
        for turn in play(GRID, [RandomPlayer()] * 2, random.Random(number)):
            if turn.seat < 0:
                continue
            legal = GRID.legal_actions(turn.before, turn.seat)
            hidden = GRID.shuffle_hidden(turn.before, turn.seat, shuffler)
            assert player.choose(GRID.view(hidden, turn.seat), legal, random.Random(1)) == player.choose(
                GRID.view(turn.before, turn.seat), legal, random.Random(1)
            )


@pytest.mark.deep  # 100 games; `python -m benchmarks grid-ai` reports the figure over 1,000
def test_grid_player_beats_random() -> None:
    games, wins = 100, 0
    strong, baseline = GridPlayer(), RandomPlayer()
    for number in range(games):
        seat = number % 2
        players: list[ComputerPlayer[Any]] = [baseline, baseline]
        players[seat] = strong
        outcome = GRID.outcome(play_game(GRID, players, random.Random(f"ai:{number // 2}")))
        assert outcome is not None
        wins += seat in outcome.winners
    assert wins / games > 0.6
