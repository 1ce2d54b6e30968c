"""A strong computer player for the grid game (RULES.md, Game 1), seeing only a `GridView`.

It searches an expectimax tree: a token's move, then the card that turns up there (drawn from the
cards it has not seen: the 36-card deck minus the open faces, the unused 36th included), then the
next player's move, and so on. Depth grows while the tree stays under a node budget, so a cramped
late game is searched much deeper than an open early one. Positions are bit masks of closed cells,
and each (cell, steps) pair maps to the mask of cells the rules let that token end on.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from core.board import Layout, bits, board
from core.cards import deck36
from core.engine import Action
from core.games.grid import STEPS, GridView, steps_of

#: The distinct step counts a card can give, low to high; unseen cards are counted per value.
VALUES: tuple[int, ...] = tuple(sorted(set(STEPS.values())))
#: Each deck card's index in VALUES.
_DECK_VALUE_INDEX: dict[str, int] = {card: VALUES.index(steps_of(card)) for card in deck36()}

WIN, LOSS = 1.0, -1.0

#: A token: (cell or None before its first placement, steps it must make next).
Token = tuple[int | None, int]
Counts = tuple[int, ...]


@cache
def _reach_masks(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """masks[cell][steps]: cells that `steps` steps from `cell` may end on, were they all closed."""
    geometry = board(layout)
    return tuple(
        tuple(geometry.reach(here, steps) for steps in range(max(VALUES) + 1)) for here in range(len(layout))
    )


class _OutOfBudget(Exception):
    """A search pass hit its node budget; the previous, shallower pass stands."""


class _Search:
    """Negamax expectimax: every value is for the player about to act (solo: for the only one)."""

    def __init__(self, masks: tuple[tuple[int, ...], ...], budget: int, closed: int, counts: Counts) -> None:
        self.masks = masks
        self.budget = budget
        self.nodes = 0
        # Per cell: how many cells a token landing there may reach next, averaged over the unseen
        # cards. Computed once for the root position: a good enough guess a few moves deeper.
        total = sum(counts)
        self.future = tuple(
            sum(c * (row[VALUES[i]] & closed & ~(1 << cell)).bit_count() for i, c in enumerate(counts))
            / total
            for cell, row in enumerate(masks)
        )

    def moves(self, token: Token, closed: int) -> int:
        here, steps = token
        return closed if here is None else self.masks[here][steps] & closed

    def decide(self, mover: Token, other: Token | None, closed: int, counts: Counts, depth: int) -> float:
        moves = self.moves(mover, closed)
        # Leaves cost about one unit per cell they look at, inner nodes one.
        self.nodes += 1 + (closed.bit_count() if depth == 0 and other is None else 0)
        if self.nodes > self.budget:
            raise _OutOfBudget
        if not moves:
            return LOSS  # rule 12: stuck at the start of one's turn
        if depth == 0:
            return self.evaluate(moves, other, closed, counts)
        return max(self.expect(cell, other, closed, counts, depth) for cell in bits(moves))

    def expect(self, cell: int, other: Token | None, closed: int, counts: Counts, depth: int) -> float:
        """Value of moving onto `cell`, averaged over the unseen card that turns up there."""
        closed &= ~(1 << cell)
        if not closed:
            return WIN  # solo: the field is clear; two players: the other one is stuck
        if other is not None and not self.moves(other, closed):
            return WIN
        total = 0.0
        for index, count in enumerate(counts):
            if not count:
                continue
            rest = (*counts[:index], count - 1, *counts[index + 1 :])
            token = (cell, VALUES[index])
            if other is None:
                total += count * self.decide(token, None, closed, rest, depth - 1)
            else:
                total -= count * self.decide(other, token, closed, rest, depth - 1)
        return total / sum(counts)

    def clear_chance(self, closed: int, counts: Counts) -> float:
        """Solo: a rough chance of clearing the field, as if each closed cell were left independently.

        Every closed cell but the last must be left again, with whatever card turns up there; a cell
        far from the others can be left only with a few card values, so such cells cost the most.
        """
        total = sum(counts)
        chances = []
        for cell in bits(closed):
            rest = closed & ~(1 << cell)
            row = self.masks[cell]
            chances.append(sum(c for i, c in enumerate(counts) if row[VALUES[i]] & rest) / total)
        chances.remove(max(chances))
        product = 1.0
        for chance in chances:
            product *= chance
        return product

    def evaluate(self, moves: int, other: Token | None, closed: int, counts: Counts) -> float:
        """A cheap guess strictly between LOSS and WIN (unless decided already).

        Two players: how many cells each may reach; solo: the chance of clearing the field.
        """
        if other is None:
            return 2 * self.clear_chance(closed, counts) - 1
        theirs = self.moves(other, closed)
        if not theirs or (theirs.bit_count() == 1 and theirs & moves):
            return WIN  # they are stuck already, or we take their last cell
        # What counts is what each side can do after its next move: ours is the mean future mobility
        # of the cells we may move to, theirs the cells open to them once we have moved.
        cells = bits(moves)
        mine = sum(self.future[cell] for cell in cells) / len(cells)
        their_count = theirs.bit_count()
        return 0.9 * (mine - their_count) / (mine + their_count)


class GridPlayer:
    """Expectimax with iterative deepening under a node budget; deterministic apart from ties."""

    def __init__(self, budget: int = 1500, max_depth: int = 12) -> None:
        self.budget = budget
        self.max_depth = max_depth

    def choose(self, view: GridView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = view.seat if view.seat is not None else view.to_move
        if seat is None:
            raise ValueError("grid: a computer player needs the view of the seat to move")
        codes = board(view.layout).code_index
        closed = sum(1 << i for i, face in enumerate(view.faces) if face is None)
        unseen = Counter(deck36()) - Counter(face for face in view.faces if face is not None)
        counts = [0] * len(VALUES)
        for card, count in unseen.items():
            counts[_DECK_VALUE_INDEX[card]] += count
        other = self._other(view, seat)

        # Depth 1 always completes (one evaluation per move and card value). A deeper pass runs only
        # if its predicted size (nodes grow about geometrically with depth) fits the budget, and is
        # dropped if it overruns anyway, so the time per decision stays bounded.
        search = _Search(_reach_masks(view.layout), 1 << 62, closed, tuple(counts))
        scores: dict[Action, float] = {}
        previous = len(legal)
        for depth in range(1, self.max_depth + 1):
            search.nodes = 0
            try:
                scores = {
                    code: search.expect(codes[code], other, closed, tuple(counts), depth) for code in legal
                }
            except _OutOfBudget:
                break
            if all(abs(value) == WIN for value in scores.values()):
                break  # every move is decided already
            growth = max(search.nodes / previous, 2.0)
            previous = max(search.nodes, 1)
            if search.nodes * growth > self.budget:
                break
            search.budget = self.budget
        top = max(scores.values())
        return rng.choice([code for code in legal if scores[code] >= top - 1e-9])

    @staticmethod
    def _other(view: GridView, seat: int) -> Token | None:
        """The opponent's token in a two-player game; None when playing solo."""
        if view.players == 1:
            return None
        here = view.tokens[1 - seat]
        face = view.faces[here] if here is not None else None
        return (here, steps_of(face) if face is not None else 0)
