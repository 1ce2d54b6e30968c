"""The one game-driving loop: resolve chance with a seeded generator, ask the seat to move, apply.

Benchmarks, tests and (later) the bot's computer seats all drive games through here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from core.ai.base import ComputerPlayer
from core.engine import CHANCE, Action, Game, OptionValue, Seat, State, Step, sample_chance

#: No registered game comes near this many actions; reaching it means a game does not end.
MAX_STEPS = 10_000


S = TypeVar("S", bound=State)


class Turn(NamedTuple, Generic[S]):
    """One applied action: the state before it, who acted, what, and the resulting step."""

    before: S
    seat: Seat
    action: Action
    step: Step


def play(
    game: Game[S, Any],
    players_by_seat: Sequence[ComputerPlayer[Any]],
    rng: random.Random,
    options: Mapping[str, OptionValue] | None = None,
    max_steps: int = MAX_STEPS,
) -> Iterator[Turn[S]]:
    """Play one game with `len(players_by_seat)` seats, yielding every action, chance included.

    `rng` draws the chance outcomes; each seat gets its own generator derived from it up front, so
    the deal and the first player depend only on the seed, not on how the players use randomness:
    the same seed with the seats swapped replays the same deal.
    """
    state = game.new(len(players_by_seat), options)
    seat_rngs = [random.Random(rng.getrandbits(64)) for _ in players_by_seat]
    for _ in range(max_steps):
        to_move = game.to_move(state)
        if not to_move:
            return
        if to_move == (CHANCE,):
            seat, action = CHANCE, sample_chance(game.chance_outcomes(state), rng)
        else:
            # Several seats may act at once (Durak's throw-ins): the table's generator picks who is first.
            seat = to_move[0] if len(to_move) == 1 else rng.choice(to_move)
            legal = game.legal_actions(state, seat)
            action = players_by_seat[seat].choose(game.view(state, seat), legal, seat_rngs[seat])
        step = game.apply(state, seat, action)
        yield Turn(state, seat, action, step)
        state = step.state
    raise RuntimeError(f"{game.id}: no end after {max_steps} actions")


def play_game(
    game: Game[S, Any],
    players_by_seat: Sequence[ComputerPlayer[Any]],
    rng: random.Random,
    options: Mapping[str, OptionValue] | None = None,
) -> S:
    """Play one game to the end and return its final state."""
    state: S | None = None
    for turn in play(game, players_by_seat, rng, options):
        state = turn.step.state
    if state is None:
        raise RuntimeError(f"{game.id}: a game that ends before anyone acts")
    return state
