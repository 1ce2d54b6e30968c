"""Run the generic test kit over every registered game and every seat count it allows.

The budget is in steps (applied actions) per game and seat count, not in games, so a long game
costs no more than a short one; the kit spreads it over option settings that play every choice of
every option. `pytest --deep tests/test_kit.py` plays `DEEP_STEPS` instead, over every combination
of options: run it after changing a game's rules (it takes minutes per game).
"""

from __future__ import annotations

import pytest

from core.engine import OptionValue, Seat
from core.games.durak import DurakBoard, DurakState, TransferDurakGame
from core.games.grid import GridGame, GridState, GridView
from core.registry import GAMES
from tests.kit import Options, check_game, option_settings

#: Steps per game and seat count in the default run, and in the deep one.
STEPS = 3_000
DEEP_STEPS = 100_000
#: Games whose step costs several of another game's, as a divisor of their default budget: a Tarot
#: grid step weighs up to 77 destinations (its own kit test in `test_grid_tarot_rules.py` plays
#: every token and team setting besides).
DEAR_STEPS = {"grid_tarot": 4}

GAMES_AND_SEATS = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, game in GAMES.items()
    for players in range(game.min_players, game.max_players + 1)
]


@pytest.mark.parametrize(("game_id", "players"), GAMES_AND_SEATS)
def test_random_games_keep_the_engine_contract(
    game_id: str, players: int, request: pytest.FixtureRequest
) -> None:
    deep = bool(request.config.getoption("--deep"))
    game = GAMES[game_id]
    steps = DEEP_STEPS if deep else STEPS // DEAR_STEPS.get(game_id, 1)
    stats = check_game(game, players, steps, every_combination=deep)
    assert stats.steps >= steps
    # Every choice of every option that this seat count allows was played.
    assert stats.choices == _choices(option_settings(game, players))


def _choices(settings: list[Options]) -> set[tuple[str, OptionValue]]:
    return {item for options in settings for item in options.items()}


@pytest.mark.parametrize(("game_id", "players"), GAMES_AND_SEATS)
def test_the_option_settings_cover_every_valid_choice(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    settings = option_settings(game, players)
    assert settings[0] == game.default_options
    assert _choices(settings) == _choices(option_settings(game, players, every_combination=True))


class _LeakyGrid(GridGame):
    """A broken grid whose views show the unused 36th card during play."""

    def _view(self, state: GridState, seat: Seat | None) -> GridView:
        view = super()._view(state, seat)
        return view.model_copy(update={"aside": state.deck[-1] if state.deck else None})


def test_kit_catches_a_view_that_leaks_hidden_cards() -> None:
    with pytest.raises(AssertionError, match="hidden information"):
        check_game(_LeakyGrid(), 2, steps=200)


class _ForgetfulTransferDurak(TransferDurakGame):
    """A broken transfer Durak whose play-outs forget the transfers."""

    def simulation(self, state: DurakState) -> DurakBoard:
        return DurakBoard.from_state(state, transfer=False)


def test_kit_catches_a_simulation_that_differs_from_the_engine() -> None:
    with pytest.raises(AssertionError, match="simulation"):
        check_game(_ForgetfulTransferDurak(), 4, steps=2_000)
