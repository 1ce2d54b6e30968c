"""The engine contract shared by every game (see DESIGN.md, "core/: the engine contract").

A game is a class with final public methods (`new`, `legal_actions`, `apply`, `view`, ...) and
per-game hooks (`_initial`, `_legal`, `_apply`, ...): the public methods do the checks every game
needs (whose turn, legality, version and history), so a hook never has to.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, final

from pydantic import BaseModel, ConfigDict

#: The seat number of chance (shuffles, dice, reel stops) in `to_move` and in `history`.
CHANCE = -1

#: An action is a short string, at the same time its own compact code in callback data.
Action = str
Seat = int
OptionValue = int | str | bool


class NotYourTurn(ValueError):
    """The seat may not act now."""


class IllegalAction(ValueError):
    """The action is not among the seat's legal actions."""


class Frozen(BaseModel):
    """Base of every state, view and event: immutable, tuples instead of lists."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class OptionSpec(Frozen):
    """One table option of a game, declared as data: the lobby shows it as a cycling button and the
    test kit plays every choice. `label` and `choice_labels` are English message ids (i18n)."""

    name: str
    choices: tuple[OptionValue, ...]
    default: OptionValue
    label: str
    #: A message id per choice, in `choices` order; empty: the choices are shown as they are.
    choice_labels: tuple[str, ...] = ()
    #: Set by the bot itself (a series' previous fool), never offered in the lobby.
    internal: bool = False

    def choice_label(self, value: OptionValue) -> str:
        if self.choice_labels:
            return self.choice_labels[self.choices.index(value)]
        return str(value)


class State(Frozen):
    """What every game state carries; games subclass it with their own fields."""

    game: str
    players: int
    options: Mapping[str, OptionValue] = {}
    #: Seat -> team number (teams are numbered 0, 1, ... by first seat); every seat its own team
    #: unless the game seats teams.
    teams: tuple[int, ...] = ()
    version: int = 0
    history: tuple[tuple[Seat, Action], ...] = ()


class Event(Frozen):
    """Something that happened. `audience` is the seat that may see it, or None for everyone."""

    audience: Seat | None = None


class Outcome(Frozen):
    """How a finished game ended. `winners` is empty for a solo loss or a game nobody won.

    `scores` holds a number per seat where the game has one (points, or the coins a gamble pays
    out), else empty. `order` is the finishing order, best first, where the game ranks every seat
    (the race, Durak), else empty.
    """

    winners: tuple[Seat, ...]
    losers: tuple[Seat, ...] = ()
    draw: bool = False
    scores: tuple[int, ...] = ()
    order: tuple[Seat, ...] = ()


class GameOver(Event):
    outcome: Outcome


class Simulation(Protocol):
    """A mutable position for fast play-outs (`Game.simulation`): the engine's own rules, on plain
    data where a game needs the speed. Computer players' searches run on it; nothing else does."""

    def to_move(self) -> Sequence[Seat]:
        """As `Game.to_move`: `(CHANCE,)` at a chance node, empty when the game is over."""
        ...

    def legal(self, seat: Seat) -> Sequence[Action]: ...

    def apply(self, seat: Seat, action: Action) -> None: ...

    def chance(self, rng: random.Random) -> Action:
        """Draw a chance outcome at a chance node."""
        ...

    def copy(self) -> Simulation: ...

    def returns(self) -> Sequence[float]:
        """Per seat, how good the position is, from 0 (lost) to 1 (won): exact once over, an
        estimate when a play-out is cut short."""
        ...


class Step(Frozen):
    """The result of `Game.apply`: the new state and what happened, in order."""

    state: Any
    events: tuple[Event, ...] = ()


class SeedOutcomes(Frozen):
    """Chance outcomes of a shuffle: any integer seed in [0, count), rendered as `prefix + str(seed)`."""

    prefix: str
    count: int = 2**32


ChanceOutcomes = tuple[Action, ...] | SeedOutcomes

S = TypeVar("S", bound=State)
V = TypeVar("V", bound=Frozen)


class Game(ABC, Generic[S, V]):
    """One game's rules. Stateless: every method takes a state and returns a new one."""

    id: ClassVar[str]
    state_type: ClassVar[type[State]]
    view_type: ClassVar[type[Frozen]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: The table options: `new` rejects unknown names and values outside their choices.
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    #: Whether seats may form teams (a seat -> team map given to `new`).
    teams: ClassVar[bool] = False

    @property
    def default_options(self) -> dict[str, OptionValue]:
        return {spec.name: spec.default for spec in self.options}

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise KeyError(f"{self.id}: no option {name!r}")

    # ----- public, final API -------------------------------------------------------------------

    @final
    def new(
        self,
        players: int,
        options: Mapping[str, OptionValue] | None = None,
        teams: Sequence[int] | None = None,
    ) -> S:
        """A game at its first chance node. `teams` maps each seat to a team (games with `teams`)."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id}: {players} players, allowed {self.min_players}-{self.max_players}")
        merged = self.default_options
        specs = {spec.name: spec for spec in self.options}
        for name, value in (options or {}).items():
            spec = specs.get(name)
            # `type` as well: True == 1, and a bool must not pass for an int choice.
            if spec is None or not any(type(value) is type(c) and value == c for c in spec.choices):
                raise ValueError(f"{self.id}: bad option {name}={value!r}")
            merged[name] = value
        return self._initial(players, merged).model_copy(update={"teams": self._check_teams(players, teams)})

    def _check_teams(self, players: int, teams: Sequence[int] | None) -> tuple[int, ...]:
        """Teams renumbered 0, 1, ... in order of first seat; every seat alone when none are given."""
        if teams is None:
            return tuple(range(players))
        if len(teams) != players:
            raise ValueError(f"{self.id}: {len(teams)} team entries for {players} seats")
        numbers: dict[int, int] = {}
        normal = tuple(numbers.setdefault(team, len(numbers)) for team in teams)
        if not self.teams and len(numbers) != players:
            raise ValueError(f"{self.id}: this game seats no teams")
        return normal

    @final
    def to_move(self, state: S) -> tuple[Seat, ...]:
        """Seats that may act now: `(CHANCE,)` at a chance node, `()` when the game is over."""
        if self.outcome(state) is not None:
            return ()
        return self._to_move(state)

    @final
    def legal_actions(self, state: S, seat: Seat) -> tuple[Action, ...]:
        """Sorted, unique; empty for a seat that may not act (and for chance: see `chance_outcomes`)."""
        if seat == CHANCE or seat not in self.to_move(state):
            return ()
        return tuple(sorted(set(self._legal(state, seat))))

    @final
    def chance_outcomes(self, state: S) -> ChanceOutcomes:
        if self.to_move(state) != (CHANCE,):
            return ()
        return self._chance_outcomes(state)

    @final
    def apply(self, state: S, seat: Seat, action: Action) -> Step:
        """Apply one action, chance included. Raises and changes nothing when it may not be applied."""
        if seat not in self.to_move(state):
            raise NotYourTurn(f"{self.id}: seat {seat} may not act now")
        if seat == CHANCE:
            if not _chance_allows(self._chance_outcomes(state), action):
                raise IllegalAction(f"{self.id}: {action!r} is not a chance outcome here")
        elif action not in self._legal(state, seat):
            raise IllegalAction(f"{self.id}: {action!r} is not legal for seat {seat}")
        new_state, events = self._apply(state, seat, action)
        new_state = new_state.model_copy(
            update={"version": state.version + 1, "history": (*state.history, (seat, action))}
        )
        outcome = self.outcome(new_state)
        if outcome is not None and self.outcome(state) is None:
            events = (*events, GameOver(outcome=outcome))
        return Step(state=new_state, events=tuple(events))

    @final
    def view(self, state: S, seat: Seat | None) -> V:
        """What `seat` may know; `None` is the public view that a group chat gets."""
        return self._view(state, seat)

    @final
    def sample(self, view: V, rng: random.Random) -> S:
        """A full state consistent with what the view's seat has seen (OpenSpiel's resample from an
        information state): `view(sample(v), v's seat) == v`. Its `history` is not a real one.

        Computer players search over such samples; the test kit checks the equality."""
        return self._sample(view, rng)

    def simulation(self, state: S) -> Simulation:
        """A play-out copy of `state`. This default runs the engine itself; a game whose search
        needs speed returns its rules on plain data instead (never a second copy of the rules)."""
        return EngineSimulation(self, state)

    @final
    def replay(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        history: Sequence[tuple[Seat, Action]],
        teams: Sequence[int] | None = None,
    ) -> S:
        state = self.new(players, options, teams)
        for seat, action in history:
            state = self.apply(state, seat, action).state
        return state

    @final
    def load(self, data: str | bytes) -> S:
        state = self.state_type.model_validate_json(data)
        return state  # type: ignore[return-value]

    # ----- hooks each game implements ----------------------------------------------------------

    @abstractmethod
    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> S: ...

    @abstractmethod
    def _to_move(self, state: S) -> tuple[Seat, ...]: ...

    @abstractmethod
    def _legal(self, state: S, seat: Seat) -> Sequence[Action]: ...

    @abstractmethod
    def _chance_outcomes(self, state: S) -> ChanceOutcomes: ...

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action: Action) -> tuple[S, Sequence[Event]]: ...

    @abstractmethod
    def _view(self, state: S, seat: Seat | None) -> V: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    @abstractmethod
    def _sample(self, view: V, rng: random.Random) -> S: ...

    @abstractmethod
    def shuffle_hidden(self, state: S, seat: Seat | None, rng: random.Random) -> S:
        """A state that differs from `state` only in what `seat` (None: the public) cannot see.

        Used by the hidden-information tests and by computer players that sample unseen cards.
        """

    @abstractmethod
    def label(self, action: Action, lang: str) -> str:
        """A short human label for an action, as shown on a button."""


class EngineSimulation:
    """The generic `Simulation`: the pydantic engine behind a mutable face (states are immutable,
    so a copy costs nothing)."""

    def __init__(self, game: Game[Any, Any], state: State) -> None:
        self.game = game
        self.state = state

    def to_move(self) -> Sequence[Seat]:
        return self.game.to_move(self.state)

    def legal(self, seat: Seat) -> Sequence[Action]:
        return self.game.legal_actions(self.state, seat)

    def apply(self, seat: Seat, action: Action) -> None:
        self.state = self.game.apply(self.state, seat, action).state

    def chance(self, rng: random.Random) -> Action:
        return sample_chance(self.game.chance_outcomes(self.state), rng)

    def copy(self) -> EngineSimulation:
        return EngineSimulation(self.game, self.state)

    def returns(self) -> Sequence[float]:
        return outcome_returns(self.game.outcome(self.state), self.state.players)


def outcome_returns(outcome: Outcome | None, players: int) -> tuple[float, ...]:
    """1 for a winner, 0 for a loser, 0.5 for a draw or a game not over yet."""
    if outcome is None or outcome.draw:
        return (0.5,) * players
    return tuple(1.0 if seat in outcome.winners else 0.0 for seat in range(players))


def _chance_allows(outcomes: ChanceOutcomes, action: Action) -> bool:
    if isinstance(outcomes, SeedOutcomes):
        digits = action.removeprefix(outcomes.prefix)
        return (
            # isascii: str.isdigit() accepts "²", which int() rejects with a plain ValueError.
            action.startswith(outcomes.prefix)
            and digits.isascii()
            and digits.isdigit()
            and int(digits) < outcomes.count
            and str(int(digits)) == digits
        )
    return action in outcomes


def sample_chance(outcomes: ChanceOutcomes, rng: random.Random) -> Action:
    """Draw one chance outcome uniformly with the table's own seeded generator."""
    if isinstance(outcomes, SeedOutcomes):
        return f"{outcomes.prefix}{rng.randrange(outcomes.count)}"
    return rng.choice(outcomes)


def resolve_chance(game: Game[S, Any], state: S, rng: random.Random) -> tuple[S, list[Event]]:
    """Apply chance actions until a player (or nobody) is to move."""
    events: list[Event] = []
    while game.to_move(state) == (CHANCE,):
        step = game.apply(state, CHANCE, sample_chance(game.chance_outcomes(state), rng))
        state = step.state
        events.extend(step.events)
    return state, events
