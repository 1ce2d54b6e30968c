"""Run the generic test kit over every registered game and every seat count it allows."""

from __future__ import annotations

import pytest

from core.engine import Seat
from core.games.grid import GridGame, GridState, GridView
from core.registry import GAMES
from tests.kit import check_game

GAMES_AND_SEATS = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, game in GAMES.items()
    for players in range(game.min_players, game.max_players + 1)
]


@pytest.mark.parametrize(("game_id", "players"), GAMES_AND_SEATS)
def test_random_games_keep_the_engine_contract(game_id: str, players: int) -> None:
    stats = check_game(GAMES[game_id], players, games=1000)
    assert stats.games == 1000


class _LeakyGrid(GridGame):
    """A broken grid whose views show the unused 36th card during play."""

    def _view(self, state: GridState, seat: Seat | None) -> GridView:
        view = super()._view(state, seat)
        return view.model_copy(update={"aside": state.deck[-1] if state.deck else None})


def test_kit_catches_a_view_that_leaks_hidden_cards() -> None:
    with pytest.raises(AssertionError, match="hidden information"):
        check_game(_LeakyGrid(), 2, games=5)
