"""The generic test kit: seeded random games of any registered game, checking the engine contract.

`check_game` plays `games` random games and checks, at every step, what DESIGN.md promises of every
game: legal actions, errors that change nothing, JSON round trips, replay, determinism under a
disturbed global `random`, and hidden information (views blind to `shuffle_hidden`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from core.ai.random_player import RandomPlayer
from core.engine import CHANCE, Action, Game, IllegalAction, NotYourTurn, Seat, State
from core.play import play, play_game

#: Actions no game uses: odd characters, empty, over-long, and a near miss of a seed outcome.
GARBAGE: tuple[Action, ...] = ("", "\x00", "no such action", "x" * 200, "deal:²", "deal:-1", "first:9")


@dataclass
class KitStats:
    games: int = 0
    steps: int = 0
    #: shuffle_hidden calls where a player is to move, and how many of them changed the state (the
    #: check is not vacuous). Only decisions count: a game where chance alone acts (the bandit) has
    #: nothing to hide, and its states are all chance nodes or over.
    shuffles: int = 0
    shuffles_changed: int = 0
    #: Every player action ever legal, to try as a "legal elsewhere, illegal here" action.
    seen_actions: set[Action] = field(default_factory=set)


def check_game(game: Game[Any, Any], players: int, games: int, seed: int = 0) -> KitStats:
    stats = KitStats()
    seats = [RandomPlayer()] * players
    for number in range(games):
        table_seed = f"{seed}:{game.id}:{players}:{number}"
        check_rng = random.Random(f"check:{table_seed}")
        state: State | None = None
        for turn in play(game, seats, random.Random(table_seed)):
            # Disturb the global generator between steps: a game that uses it would drift.
            random.seed(check_rng.random())
            check_state(game, turn.before, check_rng, stats)
            state = turn.step.state
            stats.steps += 1
        assert state is not None
        check_state(game, state, check_rng, stats)
        assert game.outcome(state) is not None
        assert game.replay(players, state.options, state.history, state.teams) == state
        # The same seed under another global random state plays the same game.
        random.seed(f"other:{table_seed}")
        assert play_game(game, seats, random.Random(table_seed)).history == state.history
        stats.games += 1
    assert stats.shuffles_changed >= 0.3 * stats.shuffles, "shuffle_hidden hardly ever hides anything"
    return stats


def check_state(game: Game[Any, Any], state: State, rng: random.Random, stats: KitStats) -> None:
    to_move = game.to_move(state)
    assert (game.outcome(state) is None) == bool(to_move)
    assert game.load(state.model_dump_json()) == state

    legal_by_seat = {seat: game.legal_actions(state, seat) for seat in (CHANCE, *range(state.players))}
    for seat, legal in legal_by_seat.items():
        assert list(legal) == sorted(set(legal)), f"seat {seat}: legal actions not sorted and unique"
        if seat == CHANCE or seat not in to_move:
            assert legal == (), f"seat {seat} may not act but has legal actions"
        else:
            assert legal, f"seat {seat} is to move without a legal action"
            stats.seen_actions.update(legal)

    # Rejected actions must change nothing. States are immutable, so checking once after all the
    # attempts catches any of them mutating the state or a cache behind it.
    before = state.model_dump()
    for seat in to_move:
        for action in _illegal_candidates(legal_by_seat[seat], stats.seen_actions, rng):
            _assert_rejected(game, state, seat, action, IllegalAction)
    some_action = next((legal_by_seat[seat][0] for seat in to_move if legal_by_seat[seat]), "x")
    for seat in (CHANCE, *range(state.players)):
        if seat not in to_move:
            _assert_rejected(game, state, seat, some_action, NotYourTurn)
    assert state.model_dump() == before
    assert {seat: game.legal_actions(state, seat) for seat in legal_by_seat} == legal_by_seat

    for seat in to_move if to_move != (CHANCE,) else ():
        view = game.view(state, seat)
        assert game.view(game.sample(view, rng), seat) == view, f"seat {seat}: a sample differs from its view"
    for seat in (None, *range(state.players)):
        shuffled = game.shuffle_hidden(state, seat, rng)
        assert game.view(shuffled, seat) == game.view(state, seat), f"seat {seat} sees hidden information"
        if to_move and to_move != (CHANCE,):
            stats.shuffles += 1
            stats.shuffles_changed += shuffled.model_dump() != state.model_dump()


def _illegal_candidates(legal: tuple[Action, ...], seen: set[Action], rng: random.Random) -> list[Action]:
    """One piece of garbage (each comes up thousands of times over a run), and one action that was
    legal at some point but is not now (if any)."""
    elsewhere = sorted(seen - set(legal))
    return [rng.choice(GARBAGE), *([rng.choice(elsewhere)] if elsewhere else [])]


def _assert_rejected(
    game: Game[Any, Any], state: State, seat: Seat, action: Action, error: type[ValueError]
) -> None:
    try:
        game.apply(state, seat, action)
    except error:
        return
    raise AssertionError(f"seat {seat} applied {action!r}; expected {error.__name__}")
