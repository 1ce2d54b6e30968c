"""The race's computer players: the cost model, sensible choices, views only, and strength."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.ai.base import ComputerPlayer
from core.ai.race import CostModel, RacePlayer
from core.ai.random_player import RandomPlayer
from core.games.race_rules import Phase
from core.games.race_track import FINISH, START
from core.play import play, play_game
from tests.test_race_rules import GAME, act, chance, track

HARD, NORMAL = RacePlayer(dice=2), RacePlayer(dice=1)


def test_the_cost_model_counts_down_to_the_finish() -> None:
    model = CostModel((None,) * 36)
    assert model.moves[FINISH] == 0.0
    assert all(model.moves[here] > model.moves[here + 1] for here in range(START, FINISH))
    # From the Start a token needs far more than the 37 / 3.5 moves a bare track would take.
    assert model.moves[START] > 2 * FINISH / 3.5


def test_the_cost_model_sees_open_cards() -> None:
    closed = CostModel((None,) * 36)
    faces: list[str | None] = [None] * 36
    faces[9] = "AS"  # position 10 kills
    deadly = CostModel(tuple(faces))
    faces[9] = "AH"  # position 10 accelerates
    lucky = CostModel(tuple(faces))
    assert lucky.moves[4] < closed.moves[4] < deadly.moves[4]


@pytest.mark.parametrize("player", [HARD, NORMAL], ids=["hard", "normal"])
def test_a_die_goes_where_no_spade_waits(player: RacePlayer) -> None:
    state = track({13: "7S", 23: "9C"}, opened=[13, 23], tokens=((10, 20, 37), (0, 0, 0)))
    state, _ = chance(state, 3, 3)
    legal = GAME.legal_actions(state, 0)
    assert player.choose(GAME.view(state, 0), legal, random.Random(0)) == "3.1"


@pytest.mark.parametrize("player", [HARD, NORMAL], ids=["hard", "normal"])
def test_a_token_far_ahead_is_bought_out_of_death(player: RacePlayer) -> None:
    state = track({30: "KS"}, opened=[30], tokens=((27, 0, 0), (0, 0, 0)), coins=(4, 0))
    state, _ = chance(state, 3, 2)
    state, _ = act(state, "3.0")
    assert state.phase is Phase.BUYOUT
    legal = GAME.legal_actions(state, 0)
    assert player.choose(GAME.view(state, 0), legal, random.Random(0)) == "pay.4"


def test_hard_plans_both_dice() -> None:
    # T1 races alone. A 5 first reaches the Heart at 15, and the 2 burns (E3.4); a 2 first, then the
    # 5, uses both dice and still reaches a Heart. Normal looks one die ahead and takes the Heart.
    state = track({15: "6H", 12: "6C", 17: "7H"}, opened=[12, 15, 17], tokens=((10, 37, 37), (0, 0, 0)))
    state, _ = chance(state, 5, 2)
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    assert HARD.choose(view, legal, random.Random(0)) == "2.0"
    assert NORMAL.choose(view, legal, random.Random(0)) == "5.0"


def test_players_need_only_the_view_and_are_reproducible() -> None:
    shuffler = random.Random(0)
    for number in range(3):
        for turn in play(GAME, [RandomPlayer()] * 2, random.Random(number)):
            if turn.seat < 0:
                continue
            legal = GAME.legal_actions(turn.before, turn.seat)
            hidden = GAME.shuffle_hidden(turn.before, turn.seat, shuffler)
            chosen = HARD.choose(GAME.view(turn.before, turn.seat), legal, random.Random(1))
            assert chosen in legal
            assert HARD.choose(GAME.view(hidden, turn.seat), legal, random.Random(1)) == chosen


@pytest.mark.deep  # 30 whole games (half a minute of CPU on a slow machine); `python -m benchmarks race`
def test_hard_beats_random() -> None:
    games, wins = 30, 0
    for number in range(games):
        seat = number % 2
        players: list[ComputerPlayer[Any]] = [RandomPlayer(), RandomPlayer()]
        players[seat] = HARD
        outcome = GAME.outcome(play_game(GAME, players, random.Random(f"ai:{number // 2}")))
        assert outcome is not None
        wins += seat in outcome.winners
    # Random against random wins about 15 of 30; hard wins about 90 % (see the benchmark).
    assert wins >= 21
