"""Game 1 (RULES.md): the worked examples E1.1-E1.6 and rules 5-12, on hand-built states."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import pytest

from core.ai.random_player import RandomPlayer
from core.cards import Card, deck36
from core.engine import CHANCE, GameOver, IllegalAction, NotYourTurn
from core.games.grid import LAYOUT_5X7, Cell, GridGame, GridState, Opened, Stuck, cell_code, steps_of
from core.play import play_game

GAME = GridGame()
ALL_CELLS: tuple[Cell, ...] = LAYOUT_5X7


def index(cell: Cell) -> int:
    return LAYOUT_5X7.index(cell)


def grid(
    *,
    cards: Mapping[Cell, Card],
    closed: Iterable[Cell],
    tokens: tuple[Cell | None, ...],
    turn: int = 0,
    aside: Card | None = None,
) -> GridState:
    """A state with `cards` at their cells (the rest of the deck fills in), every cell but `closed`
    open, and the tokens on their cells."""
    chosen = {index(cell): card for cell, card in cards.items()}
    if aside is not None:
        chosen[len(LAYOUT_5X7)] = aside
    rest = iter(card for card in deck36() if card not in chosen.values())
    deck = tuple(chosen[i] if i in chosen else next(rest) for i in range(36))
    hidden = {index(cell) for cell in closed}
    placed = [index(cell) for cell in tokens if cell is not None]
    # Token cells are opened last, in seat order, as in play.
    opened = [i for i in range(len(LAYOUT_5X7)) if i not in hidden and i not in placed] + placed
    return GridState(
        players=len(tokens),
        deck=deck,
        opened=tuple(opened),
        tokens=tuple(None if cell is None else index(cell) for cell in tokens),
        turn=turn,
    )


def codes(*cells: Cell) -> tuple[str, ...]:
    return tuple(sorted(cell_code(cell) for cell in cells))


# ----- rule 5: card values -------------------------------------------------------------------------


def test_card_values_rule_5() -> None:
    expected = {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 1, "Q": 2, "K": 3, "A": 4}
    for card in deck36():
        assert steps_of(card) == expected[card[:-1]]
    # The seed's own examples: 8♣ = 8 steps, K♦ = 3 steps.
    assert steps_of("8C") == 8
    assert steps_of("KD") == 3


# ----- worked examples -----------------------------------------------------------------------------


def test_e1_1_parity() -> None:
    state = grid(
        cards={(2, 3): "8C"}, closed=[(0, 0), (4, 6), (2, 5), (0, 3)], tokens=((2, 3), (4, 0)), turn=0
    )
    assert GAME.legal_actions(state, 0) == codes((0, 3), (2, 5))
    assert GAME.legal_actions(state, 1) == ()


def _stuck_after_last_move(mover: int, board: GridState, move: Cell) -> GridState:
    step = GAME.apply(board, mover, cell_code(move))
    stuck = 1 - mover
    assert Stuck(seat=stuck) in step.events
    assert any(isinstance(event, GameOver) for event in step.events)
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    assert outcome.winners == (mover,)
    assert outcome.losers == (stuck,)
    assert GAME.to_move(step.state) == ()
    final: GridState = step.state
    return final


def test_e1_2_adjacent_but_unreachable() -> None:
    # P2 (seat 1) on J at (4,6) takes (4,5); then P1 on A♥ at (0,0) has only (0,1), at distance 1.
    board = grid(cards={(0, 0): "AH", (4, 6): "JS"}, closed=[(0, 1), (4, 5)], tokens=((0, 0), (4, 6)), turn=1)
    final = _stuck_after_last_move(1, board, (4, 5))
    assert GAME.reachable(final, 0) == ()


def test_e1_3_jack_is_one_step() -> None:
    # P1 (seat 0) on J at (0,6) takes (0,5); then P2 on J♦ at (4,0) has only (4,2), at distance 2.
    board = grid(cards={(4, 0): "JD", (0, 6): "JS"}, closed=[(4, 2), (0, 5)], tokens=((0, 6), (4, 0)), turn=0)
    assert {index((3, 0)), index((4, 1))} <= set(board.opened)  # both neighbours are open
    final = _stuck_after_last_move(0, board, (0, 5))
    assert GAME.reachable(final, 1) == ()


def test_e1_4_long_move_through_occupied_and_open_cells() -> None:
    board = grid(cards={(0, 0): "10S", (4, 6): "7H"}, closed=[(4, 6)], tokens=((0, 0), (0, 1)), turn=0)
    assert GAME.legal_actions(board, 0) == codes((4, 6))
    step = GAME.apply(board, 0, cell_code((4, 6)))
    assert Opened(seat=0, cell=index((4, 6)), card="7H", first=False) in step.events
    view = GAME.view(step.state, None)
    assert view.faces[index((4, 6))] == "7H"
    assert view.tokens[0] == index((4, 6))


def test_e1_4_the_turned_card_gives_the_next_move() -> None:
    # E1.4 with two more closed cards, so the game goes on and P1 moves again from (4,6) with 7♥.
    board = grid(
        cards={(0, 0): "10S", (4, 6): "7H", (0, 1): "JC"},
        closed=[(4, 6), (1, 1), (0, 3)],
        tokens=((0, 0), (0, 1)),
        turn=0,
    )
    state = GAME.apply(board, 0, cell_code((4, 6))).state
    assert GAME.legal_actions(state, 1) == codes((1, 1))
    state = GAME.apply(state, 1, cell_code((1, 1))).state
    assert GAME.view(state, 0).steps == 7
    assert GAME.legal_actions(state, 0) == codes((0, 3))  # distance 7


def test_e1_5_first_turn() -> None:
    board = grid(cards={(2, 3): "KD"}, closed=ALL_CELLS, tokens=(None, None), turn=0)
    assert GAME.legal_actions(board, 0) == codes(*ALL_CELLS)
    state = GAME.apply(board, 0, cell_code((2, 3))).state
    # P2's first turn: any closed card, i.e. every cell except (2,3).
    assert GAME.view(state, 1).steps is None
    assert GAME.legal_actions(state, 1) == codes(*(cell for cell in ALL_CELLS if cell != (2, 3)))
    state = GAME.apply(state, 1, cell_code((0, 0))).state
    view = GAME.view(state, 0)
    assert view.steps == 3
    three_steps = [c for c in ALL_CELLS if c != (0, 0) and abs(c[0] - 2) + abs(c[1] - 3) in (1, 3)]
    assert GAME.legal_actions(state, 0) == codes(*three_steps)


@pytest.mark.parametrize("last", ["JS", "6H", "QD", "AC", "10C"])
def test_e1_6_solo_win_whatever_the_last_card(last: Card) -> None:
    board = grid(cards={(2, 3): "QC", (2, 5): last}, closed=[(2, 5)], tokens=((2, 3),))
    assert GAME.legal_actions(board, 0) == codes((2, 5))
    step = GAME.apply(board, 0, cell_code((2, 5)))
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert GAME.to_move(step.state) == ()


def test_solo_loses_when_stuck_with_closed_cards_left() -> None:
    board = grid(cards={(2, 3): "QC", (2, 5): "JS"}, closed=[(2, 5), (0, 0)], tokens=((2, 3),))
    outcome = GAME.outcome(GAME.apply(board, 0, cell_code((2, 5))).state)
    assert outcome is not None
    assert outcome.winners == ()
    assert outcome.losers == (0,)


# ----- rules 7-11 ----------------------------------------------------------------------------------


def test_diagonal_moves_are_illegal() -> None:
    around = [(1, 2), (1, 4), (3, 2), (3, 4), (1, 3)]
    board = grid(cards={(2, 3): "JH"}, closed=around, tokens=((2, 3), (4, 0)))
    assert GAME.legal_actions(board, 0) == codes((1, 3))
    with pytest.raises(IllegalAction):
        GAME.apply(board, 0, cell_code((1, 4)))


def test_open_cards_and_tokens_are_not_destinations() -> None:
    board = grid(cards={(2, 3): "QH"}, closed=[(2, 5), (0, 3)], tokens=((2, 3), (2, 1)))
    assert GAME.legal_actions(board, 0) == codes((0, 3), (2, 5))
    for taken in ((2, 1), (4, 3), (2, 3)):
        with pytest.raises(IllegalAction):
            GAME.apply(board, 0, cell_code(taken))


def test_only_the_seat_to_move_may_move() -> None:
    board = grid(cards={(2, 3): "QH"}, closed=[(2, 5), (0, 3)], tokens=((2, 3), (2, 1)), turn=0)
    with pytest.raises(NotYourTurn):
        GAME.apply(board, 1, cell_code((2, 5)))
    with pytest.raises(NotYourTurn):
        GAME.apply(board, CHANCE, "first:0")


# ----- A1.4: the 36th card -------------------------------------------------------------------------


def test_the_36th_card_stays_hidden_until_the_end() -> None:
    rng = random.Random(7)
    state = play_game(GAME, [RandomPlayer(), RandomPlayer()], rng)
    aside = state.deck[35]
    assert GAME.view(state, None).aside == aside
    for moves in range(len(state.history)):
        during = GAME.replay(2, {}, state.history[:moves])
        for seat in (None, 0, 1):
            view = GAME.view(during, seat)
            assert view.aside is None
            assert len(view.faces) == 35


def test_a_deal_uses_all_36_cards() -> None:
    state = GAME.apply(GAME.new(1), CHANCE, "deal:12345").state
    assert sorted(state.deck) == sorted(deck36())
    assert GAME.to_move(state) == (0,)
