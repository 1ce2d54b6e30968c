"""Game 1: card-grid exploration on a 36-card deck (RULES.md, Game 1, rules 1-12)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from functools import cache

# Cell and cell_code are re-exported: the grid's picture and buttons import them from here.
from core.board import Cell as Cell
from core.board import Layout, bits, board, rectangle
from core.board import cell_code as cell_code
from core.cards import Card, deck36, parse
from core.engine import (
    CHANCE,
    Action,
    ChanceOutcomes,
    Event,
    Frozen,
    Game,
    IllegalAction,
    OptionValue,
    Outcome,
    Seat,
    SeedOutcomes,
    State,
)

#: Rule 3 / A1.1: the field as data, a 5 x 7 rectangle in reading order; the centre is (2, 3).
LAYOUT_5X7: Layout = rectangle(5, 7)

#: Rule 5: steps given by each rank.
STEPS: dict[str, int] = {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 1, "Q": 2, "K": 3, "A": 4}

SHUFFLE = "deal:"
FIRST = "first:"


@cache
def steps_of(card: Card) -> int:
    return STEPS[parse(card).rank]


def reachable_cells(layout: Layout, opened: Collection[int], here: int | None, steps: int) -> tuple[int, ...]:
    """Rules 6 and 10: the closed cells (not in `opened`) that a token on `here` may end on, sorted;
    every closed cell if the token is not placed yet (`here` None).

    Pure, on view-sized inputs, so computer players reuse the rule instead of restating it.
    """
    candidates = range(len(layout)) if here is None else bits(board(layout).reach(here, steps))
    return tuple(i for i in candidates if i not in opened)


class GridState(State):
    game: str = "grid"
    #: The 35 field cards in layout order, then the unused 36th; empty until the deal.
    deck: tuple[Card, ...] = ()
    #: Cell indices in the order they were turned face up.
    opened: tuple[int, ...] = ()
    #: Each seat's token cell, None before its first turn.
    tokens: tuple[int | None, ...] = ()
    turn: Seat = CHANCE
    winners: tuple[Seat, ...] | None = None


class GridView(Frozen):
    """Everything about the field that anyone may know; the grid game has no private information."""

    seat: Seat | None
    players: int
    layout: tuple[Cell, ...]
    #: A card code per layout cell if it is face up, else None.
    faces: tuple[Card | None, ...]
    tokens: tuple[int | None, ...]
    to_move: Seat | None
    #: Steps the player to move must make; None on their first turn (any closed card).
    steps: int | None
    #: Cells the player to move may reach now, highlighted on the picture.
    reachable: tuple[int, ...]
    last_opened: int | None
    closed: int
    outcome: Outcome | None
    #: The unused 36th card, shown only when the game is over (A1.4).
    aside: Card | None


class Opened(Event):
    seat: Seat
    cell: int
    card: Card
    first: bool


class Stuck(Event):
    seat: Seat


class GridGame(Game[GridState, GridView]):
    id = "grid"
    state_type = GridState
    view_type = GridView
    min_players = 1
    max_players = 2
    layout: Layout = LAYOUT_5X7

    # ----- rules helpers ---------------------------------------------------------------------

    def cell(self, code: Action) -> int:
        """Cell index of a button code; raises IllegalAction for codes off the field."""
        index = board(self.layout).cell(code)
        if index is None:
            raise IllegalAction(f"grid: no cell {code!r}")
        return index

    def reachable(self, state: GridState, seat: Seat) -> tuple[int, ...]:
        """Rule 6 and rule 10: closed cells the seat's token may end on this turn."""
        here = state.tokens[seat]
        return reachable_cells(
            self.layout, frozenset(state.opened), here, steps_of(state.deck[here]) if here is not None else 0
        )

    # ----- hooks -----------------------------------------------------------------------------

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> GridState:
        return GridState(players=players, options=options, tokens=(None,) * players)

    def _to_move(self, state: GridState) -> tuple[Seat, ...]:
        return (state.turn,)

    def _legal(self, state: GridState, seat: Seat) -> Sequence[Action]:
        codes = board(self.layout).codes
        return [codes[i] for i in self.reachable(state, seat)]

    def _chance_outcomes(self, state: GridState) -> ChanceOutcomes:
        if not state.deck:
            return SeedOutcomes(prefix=SHUFFLE)
        return tuple(f"{FIRST}{seat}" for seat in range(state.players))

    def _apply(self, state: GridState, seat: Seat, action: Action) -> tuple[GridState, Sequence[Event]]:
        if seat == CHANCE:
            if action.startswith(SHUFFLE):
                deck = list(deck36())
                random.Random(int(action.removeprefix(SHUFFLE))).shuffle(deck)
                dealt = state.model_copy(update={"deck": tuple(deck)})
                # A1.6: with one player there is nobody to choose between.
                return (dealt.model_copy(update={"turn": 0}) if state.players == 1 else dealt), ()
            return state.model_copy(update={"turn": int(action.removeprefix(FIRST))}), ()

        target = self.cell(action)
        first = state.tokens[seat] is None
        tokens = list(state.tokens)
        tokens[seat] = target
        moved = state.model_copy(update={"tokens": tuple(tokens), "opened": (*state.opened, target)})
        events: list[Event] = [Opened(seat=seat, cell=target, card=state.deck[target], first=first)]
        return self._next_turn(moved, seat, events), events

    def _next_turn(self, state: GridState, mover: Seat, events: list[Event]) -> GridState:
        """Rule 12: the game ends when the field is open (solo) or the next player is stuck."""
        if state.players == 1 and len(state.opened) == len(self.layout):
            return state.model_copy(update={"winners": (0,)})
        following = (mover + 1) % state.players
        if not self.reachable(state, following):
            events.append(Stuck(seat=following))
            winners = tuple(s for s in range(state.players) if s != following)
            return state.model_copy(update={"winners": winners, "turn": following})
        return state.model_copy(update={"turn": following})

    def outcome(self, state: GridState) -> Outcome | None:
        if state.winners is None:
            return None
        losers = tuple(s for s in range(state.players) if s not in state.winners)
        return Outcome(winners=state.winners, losers=losers)

    def _view(self, state: GridState, seat: Seat | None) -> GridView:
        faces: list[Card | None] = [None] * len(self.layout)
        for i in state.opened:
            faces[i] = state.deck[i]
        over = state.winners is not None
        mover = None if over or state.turn == CHANCE else state.turn
        here = state.tokens[mover] if mover is not None else None
        return GridView(
            seat=seat,
            players=state.players,
            layout=self.layout,
            faces=tuple(faces),
            tokens=state.tokens,
            to_move=mover,
            steps=steps_of(state.deck[here]) if here is not None else None,
            reachable=self.reachable(state, mover) if mover is not None else (),
            last_opened=state.opened[-1] if state.opened else None,
            closed=len(self.layout) - len(state.opened),
            outcome=self.outcome(state),
            aside=state.deck[len(self.layout)] if over and state.deck else None,
        )

    def _sample(self, view: GridView, rng: random.Random) -> GridState:
        """The open faces where they are, the other cards dealt at random to the closed cells and the
        unused 36th place; the cell opened last is last in the opening order."""
        faces = view.faces
        shown = {card for card in (*faces, view.aside) if card is not None}
        unseen = [card for card in deck36() if card not in shown]
        rng.shuffle(unseen)
        deck = [card if card is not None else unseen.pop() for card in faces]
        deck.append(view.aside if view.aside is not None else unseen.pop())
        opened = [i for i, card in enumerate(faces) if card is not None and i != view.last_opened]
        if view.last_opened is not None:
            opened.append(view.last_opened)
        outcome = view.outcome
        return GridState(
            players=view.players,
            deck=tuple(deck),
            opened=tuple(opened),
            tokens=view.tokens,
            turn=view.to_move if view.to_move is not None else CHANCE,
            winners=outcome.winners if outcome is not None else None,
        )

    def shuffle_hidden(self, state: GridState, seat: Seat | None, rng: random.Random) -> GridState:
        """Deal the face-down cards (and the unused 36th) again among their own places."""
        if not state.deck:
            return state
        # A1.4: once the game is over the unused 36th card is shown, so it is no longer hidden.
        shown = set(state.opened) | ({len(self.layout)} if state.winners is not None else set())
        hidden = [i for i in range(len(state.deck)) if i not in shown]
        cards = [state.deck[i] for i in hidden]
        rng.shuffle(cards)
        deck = list(state.deck)
        for index, card in zip(hidden, cards, strict=True):
            deck[index] = card
        return state.model_copy(update={"deck": tuple(deck)})

    def label(self, action: Action, lang: str) -> str:
        return action
