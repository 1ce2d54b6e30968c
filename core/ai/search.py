"""The one determinized search player (DESIGN.md, "Sampling"), for every game with hidden cards.

Perfect-information Monte Carlo: deal worlds consistent with the player's view (`Game.sample`),
play every candidate action out in each world with the game's fast play-out policy on its
`Simulation`, and choose the candidate with the best total return. Every candidate is played out
in the same worlds with the same random stream, so their scores differ by the action alone.

The budget counts simulated moves, not seconds: a seeded table replays the same decisions. Where
the caller sets a think limit (`thinking_within`, with its own clock: the bot does, so that a slow
host's players still answer at once), a search also stops when that clock says its time is up, once
it has dealt `MIN_WORLDS` worlds; then its choice depends on the machine's speed, as a person's on
their time.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from core.engine import CHANCE, Action, Frozen, Game, Seat, Simulation

#: A play-out policy: the move `seat` makes in a simulated position (the game's cheap heuristic).
Policy = Callable[[Simulation, Seat, Sequence[Action], random.Random], Action]
#: The actions worth searching among the legal ones, best guess first (default: all of them).
Candidates = Callable[[Any, tuple[Action, ...]], Sequence[Action]]
#: One decision's sampled worlds (states that agree with the view), for as many as are asked.
Worlds = Callable[[Any, random.Random], Iterator[Any]]
#: A candidate of `SearchPlayer.best`: an action, or anything its `apply` plays (several moves).
T = TypeVar("T")
#: Plays a simulation on to its end or `max_moves` (chance from the generator); returns the moves.
PlayOut = Callable[[Simulation, random.Random, int], int]

#: The processor time a decision's search may take where the bot runs it: a decision within 300 ms of
#: one core, less the last world's play-outs and the choosing around the search.
THINK_SECONDS = 0.25
#: The worlds every search deals, whatever the think limit: fewer would choose nearly at random.
MIN_WORLDS = 4


@dataclass(frozen=True)
class ThinkLimit:
    """At most `seconds` of `clock` a search (the bot's clock: the processor time of the thread,
    one core's work whatever else loads the machine)."""

    seconds: float
    clock: Callable[[], float]


_THINK_LIMIT: ContextVar[ThinkLimit | None] = ContextVar("think_limit", default=None)


@contextlib.contextmanager
def thinking_within(limit: ThinkLimit | None) -> Iterator[None]:
    """Every search in this context keeps to `limit` (None: no limit, only the budget of moves)."""
    token = _THINK_LIMIT.set(limit)
    try:
        yield
    finally:
        _THINK_LIMIT.reset(token)


def think_limit() -> ThinkLimit | None:
    """The think limit of this context (`thinking_within`), if any."""
    return _THINK_LIMIT.get()


def time_up() -> Callable[[], bool]:
    """From now, whether this context's think limit is up (never, without one)."""
    limit = think_limit()
    if limit is None:
        return lambda: False
    stop_at = limit.clock() + limit.seconds
    return lambda: limit.clock() >= stop_at


def play_out(sim: Simulation, policy: Policy, rng: random.Random, max_moves: int) -> int:
    """Play `sim` on with `policy` (chance drawn from `rng`) until the end or `max_moves`; returns
    the moves made."""
    for moves in range(max_moves):
        to_move = sim.to_move()
        if not to_move:
            return moves
        if to_move[0] == CHANCE:
            sim.apply(CHANCE, sim.chance(rng))
            continue
        # Several seats may act at once (Durak's throw-ins): the stream picks who goes first.
        seat = to_move[0] if len(to_move) == 1 else to_move[rng.randrange(len(to_move))]
        sim.apply(seat, policy(sim, seat, sim.legal(seat), rng))
    return max_moves


class SearchPlayer:
    """A computer player that searches: `choose(view, legal, rng)` like every other player.

    `budget` caps the simulated moves per decision, `max_worlds` the sampled deals, and
    `max_playout` the moves of one play-out (cut short, a play-out scores its `returns` estimate).
    `keep_first` is the mean return per world by which another candidate must beat the first (the
    caller's best guess) to be chosen instead: with few worlds, small differences are mostly noise.
    `simulate` makes a sampled world's play-out position (default: `Game.simulation`); a game can
    hand a shorter horizon there (the Tarot trick games stop at the end of the hand). `worlds`, if
    given, deals one decision's worlds instead of independent `Game.sample` calls. `fast_play_out`,
    if given, plays out instead of `play_out` with the policy: a game's own loop making the same
    moves with less overhead.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        policy: Policy,
        *,
        candidates: Candidates | None = None,
        budget: int = 10_000,
        max_worlds: int = 64,
        max_playout: int = 1_000,
        keep_first: float = 0.0,
        simulate: Callable[[Any], Simulation] | None = None,
        worlds: Worlds | None = None,
        fast_play_out: PlayOut | None = None,
    ) -> None:
        self.fast_play_out = fast_play_out
        self.worlds = worlds
        self.keep_first = keep_first
        self.game = game
        self.simulate = simulate or game.simulation
        self.policy = policy
        self.candidates = candidates
        self.budget = budget
        self.max_worlds = max_worlds
        self.max_playout = max_playout

    def choose(self, view: Frozen, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat: Seat | None = getattr(view, "seat", None)
        if seat is None:
            raise ValueError("a search player needs a seat's own view")
        candidates = list(self.candidates(view, legal) if self.candidates else legal)
        if len(candidates) == 1:
            return candidates[0]
        return self.best(view, seat, candidates, lambda sim, action: sim.apply(seat, action), rng)

    def best(
        self,
        view: Frozen,
        seat: Seat,
        candidates: Sequence[T],
        apply: Callable[[Simulation, T], None],
        rng: random.Random,
        budget: int | None = None,
        max_worlds: int | None = None,
    ) -> T:
        """The candidate with the best total return for `seat` when `apply` plays it in each sampled
        world and the policy plays on (`budget`, `max_worlds`: this search's, default the player's)."""
        if len(candidates) == 1:
            return candidates[0]
        scores = [0.0] * len(candidates)
        spent = worlds = 0
        budget = self.budget if budget is None else budget
        max_worlds = self.max_worlds if max_worlds is None else max_worlds
        over = time_up()
        dealt = self.worlds(view, rng) if self.worlds else None
        while spent < budget and worlds < max_worlds:
            if worlds >= MIN_WORLDS and over():
                break
            world = self.simulate(next(dealt) if dealt else self.game.sample(view, rng))
            seed = rng.getrandbits(32)
            for number, candidate in enumerate(candidates):
                sim = world.copy()
                apply(sim, candidate)
                stream = random.Random(seed)
                if self.fast_play_out:
                    spent += 1 + self.fast_play_out(sim, stream, self.max_playout)
                else:
                    spent += 1 + play_out(sim, self.policy, stream, self.max_playout)
                scores[number] += sim.returns()[seat]
            worlds += 1
        # Ties go to the earlier candidate: the caller lists its best guess first.
        scores[0] += self.keep_first * worlds
        best = max(range(len(candidates)), key=lambda n: (scores[n], -n))
        return candidates[best]
