"""The generic test kit: seeded random games of any registered game, checking the engine contract.

`check_game` plays random games until a budget of steps (applied actions, chance included) is
spent, spread over option settings that between them play every choice of every option. It checks
what DESIGN.md promises of every game, as OpenSpiel's random simulation tests do:

- at every step, the cheap checks: whose turn it is against the outcome, legal actions sorted,
  unique, non-empty for a seat to move and empty for the others, and rejected actions (garbage,
  actions legal elsewhere, a seat out of turn) raising and changing nothing;
- at checkpoints (the first state, every state whose version is a power of two, and the end), the
  dear ones: the JSON round trip, replay from the history, hidden information (every view blind to
  `shuffle_hidden`), `view(sample(view)) == view` for the seats to move, and the play-out
  `Simulation` (a fresh one, and one fed every action since the start) agreeing with the engine;
- per game, determinism: the same seed under a disturbed global `random` plays the same game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.ai.random_player import RandomPlayer
from core.engine import (
    CHANCE,
    Action,
    Game,
    IllegalAction,
    NotYourTurn,
    OptionValue,
    Seat,
    Simulation,
    State,
)
from core.play import play, play_game

#: Actions no game uses: odd characters, empty, over-long, and a near miss of a seed outcome.
GARBAGE: tuple[Action, ...] = ("", "\x00", "no such action", "x" * 200, "deal:²", "deal:-1", "first:9")

Options = dict[str, OptionValue]


@dataclass
class KitStats:
    games: int = 0
    steps: int = 0
    checkpoints: int = 0
    #: Every (option, choice) some game was played with.
    choices: set[tuple[str, OptionValue]] = field(default_factory=set)
    #: shuffle_hidden calls where a player is to move, and how many of them changed the state (the
    #: check is not vacuous). Only decisions count: a game where chance alone acts (the bandit) has
    #: nothing to hide, and its states are all chance nodes or over.
    shuffles: int = 0
    shuffles_changed: int = 0
    #: Every player action ever legal, to try as a "legal elsewhere, illegal here" action.
    seen_actions: set[Action] = field(default_factory=set)


def option_settings(game: Game[Any, Any], players: int, every_combination: bool = False) -> list[Options]:
    """Option settings that between them play every choice of every option, internal ones too,
    defaults first: setting k moves every option k choices on from its default. With
    `every_combination`, every combination instead. A setting `new` rejects for this seat count
    gives way to its choices one at a time (the rest default); a choice rejected even alone is not
    valid here and is left out."""
    specs = game.options
    if every_combination:
        combinations = itertools.product(*(spec.choices for spec in specs))
        wanted = [{s.name: value for s, value in zip(specs, combo, strict=True)} for combo in combinations]
    else:
        rounds = max((len(spec.choices) for spec in specs), default=1)
        wanted = [
            {s.name: s.choices[(s.choices.index(s.default) + k) % len(s.choices)] for s in specs}
            for k in range(rounds)
        ]
    settings: list[Options] = []
    for options in wanted:
        candidates = [options] if _valid(game, players, options) else _one_at_a_time(game, options)
        settings += [c for c in candidates if c not in settings and _valid(game, players, c)]
    return settings


def _one_at_a_time(game: Game[Any, Any], options: Mapping[str, OptionValue]) -> list[Options]:
    defaults = game.default_options
    return [{**defaults, name: value} for name, value in options.items() if value != defaults[name]]


def _valid(game: Game[Any, Any], players: int, options: Mapping[str, OptionValue]) -> bool:
    try:
        game.new(players, options)
    except ValueError:
        return False
    return True


def check_game(
    game: Game[Any, Any], players: int, steps: int, seed: int = 0, every_combination: bool = False
) -> KitStats:
    """Random games until `steps` actions were applied and every option setting had a game."""
    stats = KitStats()
    settings = option_settings(game, players, every_combination)
    while stats.steps < steps or stats.games < len(settings):
        options = settings[stats.games % len(settings)]
        _check_one_game(game, players, options, f"{seed}:{game.id}:{players}:{stats.games}", stats)
        stats.choices.update(options.items())
        stats.games += 1
    assert stats.shuffles_changed >= 0.3 * stats.shuffles, "shuffle_hidden hardly ever hides anything"
    return stats


def is_checkpoint(version: int) -> bool:
    """The first state and every power of two (1, 2, 4, 8, ...)."""
    return version & (version - 1) == 0


def _check_one_game(
    game: Game[Any, Any], players: int, options: Options, table_seed: str, stats: KitStats
) -> None:
    seats = [RandomPlayer()] * players
    check_rng = random.Random(f"check:{table_seed}")
    state: State = game.new(players, options)
    follower = game.simulation(state)
    for turn in play(game, seats, random.Random(table_seed), options):
        # Disturb the global generator between steps: a game that uses it would drift.
        random.seed(check_rng.random())
        state = turn.before
        check_state(game, state, check_rng, stats)
        if is_checkpoint(state.version):
            check_checkpoint(game, state, follower, check_rng, stats)
        follower.apply(turn.seat, turn.action)
        state = turn.step.state
        stats.steps += 1
    check_state(game, state, check_rng, stats)
    check_checkpoint(game, state, follower, check_rng, stats)
    assert game.outcome(state) is not None
    # The same seed under another global random state plays the same game.
    random.seed(f"other:{table_seed}")
    assert play_game(game, seats, random.Random(table_seed), options).history == state.history


def check_state(game: Game[Any, Any], state: State, rng: random.Random, stats: KitStats) -> None:
    """The cheap checks, at every step."""
    to_move = game.to_move(state)
    assert (game.outcome(state) is None) == bool(to_move)

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


def check_checkpoint(
    game: Game[Any, Any], state: State, follower: Simulation, rng: random.Random, stats: KitStats
) -> None:
    """The dear checks: serialization, replay, hidden information, sampling, the simulation."""
    stats.checkpoints += 1
    assert game.load(state.model_dump_json()) == state, "the JSON round trip changes the state"
    assert game.replay(state.players, state.options, state.history, state.teams) == state, "replay differs"

    to_move = game.to_move(state)
    deciding = bool(to_move) and to_move != (CHANCE,)
    for seat in to_move if deciding else ():
        view = game.view(state, seat)
        assert game.view(game.sample(view, rng), seat) == view, f"seat {seat}: a sample differs from its view"
    for seat in (None, *range(state.players)):
        shuffled = game.shuffle_hidden(state, seat, rng)
        assert game.view(shuffled, seat) == game.view(state, seat), f"seat {seat} sees hidden information"
        if deciding:
            stats.shuffles += 1
            stats.shuffles_changed += shuffled.model_dump() != state.model_dump()

    _assert_simulation_agrees(game, state, follower, "the simulation fed every action")
    fresh = game.simulation(state)
    _assert_simulation_agrees(game, state, fresh, "a fresh simulation")
    if to_move:
        # A copy moves on alone: the position it came from stays where it was.
        twin = fresh.copy()
        seat = to_move[0]
        action = twin.chance(rng) if seat == CHANCE else twin.legal(seat)[0]
        game.apply(state, seat, action)  # a simulation's chance draw is a real chance outcome
        twin.apply(seat, action)
        _assert_simulation_agrees(game, state, fresh, "a simulation whose copy moved")


def _assert_simulation_agrees(game: Game[Any, Any], state: State, sim: Simulation, what: str) -> None:
    to_move = game.to_move(state)
    assert tuple(sim.to_move()) == to_move, f"{what}: other seats to move"
    for seat in to_move if to_move != (CHANCE,) else ():
        assert sorted(sim.legal(seat)) == list(game.legal_actions(state, seat)), f"{what}: other actions"
    outcome = game.outcome(state)
    if outcome is not None:
        returns = sim.returns()
        assert len(returns) == state.players and all(0 <= r <= 1 for r in returns), f"{what}: returns"
        assert all(returns[w] > returns[loser] for w in outcome.winners for loser in outcome.losers), (
            f"{what}: a winner returns no more than a loser"
        )


def _illegal_candidates(legal: Sequence[Action], seen: set[Action], rng: random.Random) -> list[Action]:
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
