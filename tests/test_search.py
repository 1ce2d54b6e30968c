"""The generic determinized search player, on the generic engine simulation."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from core.ai.random_player import RandomPlayer
from core.ai.search import MIN_WORLDS, SearchPlayer, ThinkLimit, thinking_within
from core.engine import Action, Frozen, Seat, Simulation
from core.games.grid import GridGame, GridState
from core.play import play, play_game

GAME = GridGame()


def _random_policy(sim: Simulation, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
    return legal[rng.randrange(len(legal))]


def _winning_positions(count: int) -> Iterator[tuple[GridState, Seat, set[Action]]]:
    """Positions from random games where some moves, but not all, leave the opponent stuck at once."""
    found = 0
    for number in range(500):
        for turn in play(GAME, [RandomPlayer(), RandomPlayer()], random.Random(number)):
            state, seat = turn.before, turn.seat
            if seat < 0 or state.players != 2:
                continue
            legal = GAME.legal_actions(state, seat)
            winning = {
                a for a in legal if seat in (GAME.outcome(GAME.apply(state, seat, a).state) or _none).winners
            }
            if winning and len(winning) < len(legal):
                yield state, seat, winning
                found += 1
                if found == count:
                    return


class _None:
    winners: tuple[Seat, ...] = ()


_none = _None()


def test_search_finds_the_move_that_wins_at_once() -> None:
    search = SearchPlayer(GAME, _random_policy, budget=200, max_worlds=4)
    positions = list(_winning_positions(20))
    assert len(positions) == 20
    found = sum(
        search.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), random.Random(7)) in winning
        for state, seat, winning in positions
    )
    # A random choice finds such a move about a third of the time; the search nearly always does (it
    # may prefer another move that wins in every world it sampled).
    chance = sum(len(winning) / len(GAME.legal_actions(state, seat)) for state, seat, winning in positions)
    assert chance < 10 and found >= 18


def test_search_is_reproducible_for_a_seed() -> None:
    search = SearchPlayer(GAME, _random_policy, budget=200, max_worlds=4)
    final = play_game(GAME, [search, search], random.Random(3))
    assert play_game(GAME, [search, search], random.Random(3)).history == final.history


class _Timed:
    """A search whose every dealt world takes one second of a fake clock."""

    def __init__(self, max_worlds: int) -> None:
        self.now = 0.0
        self.worlds = 0
        self.player = SearchPlayer(
            GAME, _random_policy, budget=10**9, max_worlds=max_worlds, simulate=self._world
        )

    def _world(self, state: GridState) -> Simulation:
        self.now += 1
        self.worlds += 1
        return GAME.simulation(state)

    def clock(self) -> float:
        return self.now

    def search(self, view: Frozen, legal: tuple[Action, ...]) -> int:
        """How many worlds one decision dealt."""
        self.worlds = 0
        self.player.choose(view, legal, random.Random(5))
        return self.worlds


def test_a_think_limit_ends_the_search_at_its_time_after_a_few_worlds_at_least() -> None:
    state, seat, _ = next(_winning_positions(1))
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    timed = _Timed(max_worlds=40)
    assert timed.search(view, legal) == 40  # no limit: the budget and the deal cap decide
    with thinking_within(ThinkLimit(10.0, timed.clock)):
        assert timed.search(view, legal) == 10
        with thinking_within(None):
            assert timed.search(view, legal) == 40  # lifted within
        assert timed.search(view, legal) == 10
    with thinking_within(ThinkLimit(1.0, timed.clock)):
        assert timed.search(view, legal) == MIN_WORLDS
    assert timed.search(view, legal) == 40
