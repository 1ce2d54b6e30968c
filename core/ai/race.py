"""Computer players for the race (RULES.md, Game 3), each seeing only its `RaceView`.

Both levels search the rest of their turn with expectimax on the engine's own rules (`Race`, built
from the view with the closed cards unknown): a die and a token (or a buy-out answer) are max nodes,
and a closed card turning up is a chance node over the unseen cards, grouped by what they do: at most
ten kinds (Clubs, Diamonds paying one or two, Hearts, each pip Spade, the killing Spades). The first
closed card an action reaches is branched on exhaustively; a further one in the same move (a retreat
onto another closed card) is drawn at random.

The positions reached are scored by `CostModel`: how many die moves each token still needs, on
average, to reach the Finish over this track (its open cards, and the unseen ones for the closed
positions), with coins worth a fixed number of moves.

- normal looks one die ahead; hard looks at every die left this turn.
"""

from __future__ import annotations

import contextlib
import random
from functools import lru_cache
from typing import NamedTuple

from core.cards import Card
from core.engine import Action
from core.games.race import RaceGame, RaceView, unseen_cards
from core.games.race_rules import CHANCE_PHASES, Phase, Race, UnknownCard, distinct_moves
from core.games.race_track import FACES, FINISH, START, Effect, Kind, effect

#: What one coin is worth, in die moves: it pays part of a future buy-out.
COIN = 0.5
#: Added for having finished, and taken for having lost, so the end outweighs any estimate.
DECIDED = 1000.0

_GAME = RaceGame()


class _Landing(NamedTuple):
    """What a token landing on one position meets, as probabilities."""

    #: Clubs or Diamonds: the token stays.
    safe: float
    #: Coins a Diamond turned face up pays, on average.
    coins: float
    wait: float
    #: Where a Spade's retreat ends, with its probability.
    retreats: tuple[tuple[int, float], ...]
    death: float


def _landing(cards: dict[Effect, float], closed: bool, here: int) -> _Landing:
    safe = coins = wait = death = 0.0
    retreats: dict[int, float] = {}
    for (kind, amount, _), p in cards.items():
        if kind is Kind.WAIT:
            wait += p
        elif kind is Kind.RETREAT:
            end = max(here - amount, START)
            retreats[end] = retreats.get(end, 0.0) + p
        elif kind is Kind.DEATH:
            death += p
        else:
            safe += p
            coins += p * amount if closed else 0.0
    return _Landing(safe, coins, wait, tuple(retreats.items()), death)


class CostModel:
    """Expected die moves from each position to the Finish for a token moved by every die (rule 6),
    landing on the cards as they are known: an open card does what it says, a closed one is any
    unseen card. A Heart's acceleration (rule 12) is a free move; a Diamond turned face up pays
    `COIN` a coin.

    Solved by value iteration, sweeping from the Finish down. A death or a retreat looks back, which
    makes the iteration slow (each sweep shrinks the error by a nearly constant factor), so every few
    sweeps the error's geometric tail is added at once (Aitken's extrapolation).
    """

    SWEEPS = 500
    EXTRAPOLATE_EVERY = 5
    TOLERANCE = 1e-4

    def __init__(self, faces: tuple[Card | None, ...]) -> None:
        unseen = unseen_cards(faces)
        mixture: dict[Effect, float] = {}
        for card in unseen:
            mixture[effect(card)] = mixture.get(effect(card), 0.0) + 1 / len(unseen)
        self.landings = [_Landing(0.0, 0.0, 0.0, (), 0.0)] + [
            _landing(mixture, True, here) if face is None else _landing({effect(face): 1.0}, False, here)
            for here, face in enumerate(faces, start=1)
        ]
        #: Per position, die moves to the Finish; `waiting`: on a Heart, before the free move.
        self.moves: list[float] = [(FINISH - here) / 3.5 for here in range(FINISH + 1)]
        self.waiting: list[float] = self.moves[:]
        self._solve()

    def _solve(self) -> None:
        moves, waiting = self.moves, self.waiting
        #: After landing on a position and its card acting.
        landed = moves[:]
        previous: tuple[float, ...] = ()
        for sweep in range(self.SWEEPS):
            before = tuple(moves)
            for here in range(FINISH - 1, START, -1):
                waiting[here] = sum(landed[min(here + face, FINISH)] for face in FACES) / len(FACES)
                card = self.landings[here]
                value = card.safe * moves[here] - COIN * card.coins + card.wait * waiting[here]
                value += card.death * moves[START] + sum(p * landed[end] for end, p in card.retreats)
                landed[here] = value
            for here in range(FINISH - 1, START - 1, -1):
                moves[here] = 1.0 + sum(landed[min(here + face, FINISH)] for face in FACES) / len(FACES)
            landed[START] = moves[START]
            if max(abs(new - old) for new, old in zip(moves, before, strict=True)) < self.TOLERANCE:
                return
            if previous and sweep % self.EXTRAPOLATE_EVERY == 0:
                ratio = (moves[START] - before[START]) / (before[START] - previous[START] or 1.0)
                if 0.0 < ratio < 1.0:
                    tail = ratio / (1.0 - ratio)
                    for here in range(FINISH):
                        moves[here] += (moves[here] - before[here]) * tail
                    landed[START] = moves[START]
            previous = before


@lru_cache(maxsize=64)
def cost_model(faces: tuple[Card | None, ...]) -> CostModel:
    return CostModel(faces)


class _OutOfBudget(Exception):
    pass


class _Search:
    """Expectimax over the rest of `seat`'s turn (see the module docstring)."""

    def __init__(self, seat: int, model: CostModel, rng: random.Random, budget: int | None) -> None:
        self.seat = seat
        self.model = model
        self.rng = rng
        #: Actions tried so far, and at most (None: no limit).
        self.nodes = 0
        self.budget = budget

    def value(self, world: Race, dice: int) -> float:
        """How good `world` is for the seat, deciding on up to `dice` more dice."""
        phase = world.phase
        if world.turn != self.seat or phase in CHANCE_PHASES or phase is Phase.OVER:
            return self.score(world)
        if phase is Phase.MOVE and dice == 0:
            return self.score(world)
        if phase is Phase.QUEUE:
            # Tied tokens share a position: whichever goes first, the same can happen.
            world = world.copy()
            world.apply(self.seat, world.legal(self.seat)[0])
            return self.value(world, dice)
        spent = 1 if phase is Phase.MOVE else 0
        return max(self.expect(world, action, dice - spent) for action in candidates(world))

    def expect(self, world: Race, action: Action, dice: int, exhaustive: bool = True) -> float:
        """The value of `action`, averaged over the closed cards it turns up."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _OutOfBudget
        trial = world.copy()
        try:
            trial.apply(self.seat, action)
        except UnknownCard as unknown:
            kinds = list(_unseen_by_effect(world).values())
            if not exhaustive:
                kinds = self.rng.choices(kinds, [count for count, _ in kinds])
            index = unknown.position - 1
            total = weight = 0.0
            # The card is set on `world` itself for the branch and taken back after it.
            for count, card in kinds:
                world.deck[index] = card
                total += count * self.expect(world, action, dice, False)
                weight += count
            world.deck[index] = None
            return total / weight
        return self.value(trial, dice)

    def score(self, world: Race) -> float:
        seat = self.seat
        if seat in world.order:
            place = world.order.index(seat)
            return DECIDED * (1 if place < world.players - 1 else -1) - place
        moves, waiting = self.model.moves, self.model.waiting
        mine = world.turn == seat
        cost = 0.0
        for token, here in enumerate(world.tokens[seat]):
            if mine and (token in world.queue or token == world.accelerating):
                cost += waiting[here]
            else:
                cost += moves[here]
        return COIN * world.coins[seat] - cost


def _unseen_by_effect(world: Race) -> dict[Effect, tuple[int, Card]]:
    """The cards not on the world's track, one of each effect with how many there are."""
    kinds: dict[Effect, tuple[int, Card]] = {}
    for card in unseen_cards(world.deck):
        kind = effect(card)
        count, first = kinds.get(kind, (0, card))
        kinds[kind] = (count + 1, first)
    return kinds


def candidates(world: Race) -> list[Action]:
    """The seat's legal actions, one per distinct outcome: tokens on the same position are alike."""
    legal = world.legal(world.turn)
    return distinct_moves(legal, world.tokens[world.turn]) if world.phase is Phase.MOVE else legal


class RacePlayer:
    """Expectimax over at most `dice` dice of the turn (1: normal, 2: hard). A search over two dice
    that would try more than `budget` actions gives way to the one-die search, so a decision's time
    stays bounded (and the same for the same view)."""

    def __init__(self, dice: int, budget: int = 6000) -> None:
        self.dice = dice
        self.budget = budget

    def choose(self, view: RaceView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.seat is None:
            raise ValueError("race: a computer player needs its seat's view")
        world = _GAME.world(view)
        model = cost_model(view.faces)
        spent = 1 if view.phase is Phase.MOVE else 0
        left = len(view.left)
        scores = self._scores(_Search(view.seat, model, rng, budget=None), world, min(1, left) - spent)
        if self.dice > 1 and left > 1:
            with contextlib.suppress(_OutOfBudget):
                scores = self._scores(_Search(view.seat, model, rng, self.budget), world, left - spent)
        top = max(scores.values())
        return rng.choice([action for action, score in scores.items() if score >= top - 1e-9])

    @staticmethod
    def _scores(search: _Search, world: Race, dice: int) -> dict[Action, float]:
        return {action: search.expect(world, action, dice) for action in candidates(world)}
