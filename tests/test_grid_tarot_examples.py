"""Game 2 (RULES.md): the worked examples E2.1-E2.10, on hand-built fields."""

from __future__ import annotations

from core.engine import GameOver
from core.games.grid_tarot_events import (
    ChariotRepeat,
    OptionUsed,
    Returned,
    Skipped,
    Swapped,
    Taken,
    TeamHopeless,
    TokenMoved,
    WheelTurned,
    WorldMoved,
)
from tests.tarot_fields import (
    CENTRE_CELL,
    GAME,
    cells_view,
    code,
    events_of,
    field,
    index,
    looks,
    move,
    next_counts,
    targets,
    token_cell,
)


def test_e2_1_empress_distance() -> None:
    """P1 opens the Empress; P2 on 10♠ at (0,6) must then move exactly D = 3 steps."""
    state = field(
        cards={(6, 5): "2W", (6, 7): "T3", (0, 6): "10S"},
        closed=[(6, 7), (0, 7), (0, 8), (0, 9), (1, 8), (6, 2), (6, 9)],
        tokens=[[(6, 5)], [(0, 6)]],
    )
    # Without the Empress, 10 steps reach the cards at even distances 2 and 10.
    assert next_counts(state, 1) == ("steps", (10,))
    after = move(state, 0, "1." + code((6, 7))).state
    assert after.turn == 1
    assert next_counts(after, 1) == ("steps", (3,))
    assert targets(after, 1) == {(0, 7), (0, 9), (1, 8)}
    # The opener's own next move is a D-move too.
    assert all(token.empress for token in after.tokens)


def test_e2_1_more_empress_distances() -> None:
    spots = [(0, 2), (3, 0), (6, 10), (3, 7)]
    state = field(
        cards={cell: card for cell, card in zip(spots, ("2W", "3W", "4W", "5W"), strict=True)},
        closed=[(6, 6)],
        tokens=[[cell] for cell in spots],
        empress=[(seat, 1) for seat in range(4)],
    )
    assert [next_counts(state, seat)[1] for seat in range(4)] == [(7,), (6,), (7,), (1,)]


def test_e2_2_empress_frees_the_tower() -> None:
    """P3 waits on the Tower at (5,6) with an empty pool; after P1 opens the Empress, D = 2."""
    state = field(
        cards={(6, 5): "2W", (6, 7): "T3", (0, 6): "10S", (5, 6): "T16", (0, 7): "T0"},
        closed=[(6, 7), (0, 7), (5, 8)],
        tokens=[[(6, 5)], [(0, 6)], [(5, 6)]],
    )
    assert next_counts(state, 2) == ("steps", ())
    state = move(state, 0, "1." + code((6, 7))).state
    state = move(state, 1, "1." + code((0, 7))).state
    assert state.turn == 2
    assert next_counts(state, 2) == ("steps", (2,))
    assert GAME.legal_actions(state, 2) == ("1." + code((5, 8)),)
    state = move(state, 2, "1." + code((5, 8))).state
    assert token_cell(state, 2) == (5, 8)
    # The Empress move is spent: the token now follows its new card.
    assert not state.tokens[2].empress


def test_e2_3_high_priestess_returns_you() -> None:
    state = field(cards={(1, 3): "7W", (1, 4): "T2"}, closed=[(1, 4), (1, 10)], tokens=[[(1, 3)]])
    # 7 - 1 = 6 is even, so the neighbour is 7 steps away.
    step = move(state, 0, "1.E2")
    after = step.state
    assert after.pools == (("T2",),)
    assert looks(after, (1, 4)) == "empty"
    assert token_cell(after, 0) == (1, 3)
    assert next_counts(after, 0) == ("steps", (7,))
    assert [type(e) for e in step.events] == [TokenMoved, Taken, Returned]


def test_e2_4_tower_and_star() -> None:
    """On the Tower with the Star in the pool, P2 must use the Star and move 5 steps."""
    state = field(
        cards={(5, 6): "T16", (0, 6): "2W"},
        closed=[(5, 9), (0, 8)],
        tokens=[[(0, 6)], [(5, 6)]],
        pools=[(), ("T17",)],
        turn=1,
    )
    assert GAME.legal_actions(state, 1) == ("1.star",)
    state = move(state, 1, "1.star").state
    assert GAME.legal_actions(state, 1) == ("1." + code((5, 9)),)
    step = move(state, 1, "1." + code((5, 9)))
    assert looks(step.state, (5, 6)) == "covered"
    assert cells_view(step.state).covers[index((5, 6))] == ("T17",)
    assert step.state.pools[1] == ()
    (moved,) = events_of(step, TokenMoved)
    assert isinstance(moved, TokenMoved) and moved.option == "star" and moved.steps == 5


def test_e2_4_tower_and_star_skip_when_nothing_is_five_away() -> None:
    """No closed card is 5-reachable from the Tower: that token skips, and the Star stays."""
    state = field(
        cards={(5, 6): "T16", (1, 2): "2W", (1, 4): "2S", (3, 0): "AC", (3, 12): "AP"},
        closed=[(5, 8), (1, 4), (1, 6), (2, 0), (2, 12)],
        tokens=[[(3, 0), (3, 12)], [(5, 6), (1, 2)]],
        pools=[(), ("T17",)],
        turn=1,
    )
    assert GAME.legal_actions(state, 1) == ("2." + code((1, 4)),)
    step = move(state, 1, "2." + code((1, 4)))
    (skipped,) = events_of(step, Skipped)
    assert isinstance(skipped, Skipped) and (skipped.seat, skipped.token) == (1, 1)
    assert step.state.pools[1] == ("T17",)
    assert step.state.turn == 0
    assert GAME.outcome(step.state) is None


def test_e2_5_same_suit_jump() -> None:
    """P1 on a hopeless 4♣ must jump to the free 9♣; the 4♣ is taken and its position emptied."""
    state = field(cards={(2, 2): "4W", (5, 9): "9W", (4, 4): "9C"}, closed=[(2, 3)], tokens=[[(2, 2)]])
    assert GAME.legal_actions(state, 0) == ("1.suit",)
    state = move(state, 0, "1.suit").state
    assert GAME.legal_actions(state, 0) == ("1.J6",)
    step = move(state, 0, "1.J6")
    after = step.state
    assert token_cell(after, 0) == (5, 9)
    assert after.pools == (("4W",),)
    assert looks(after, (2, 2)) == "empty"
    assert looks(after, (5, 9)) == "open"
    assert next_counts(after, 0) == ("steps", (9,))
    used, moved = step.events[:2]
    assert isinstance(used, OptionUsed) and used.taken and used.cards == ("4W",)
    assert isinstance(moved, TokenMoved) and moved.kind == "jump"


def test_e2_5_justice_with_a_taken_minor() -> None:
    """Later, on a hopeless 2♥ with {Justice, 4♣} in the pool, P1 may move exactly 4 steps."""
    state = field(
        cards={(4, 4): "2C", (6, 10): "KP"},
        closed=[(0, 4), (5, 11)],
        tokens=[[(4, 4)], [(6, 10)]],
        pools=[("T8", "4W"), ()],
    )
    assert GAME.legal_actions(state, 0) == ("1.jus4",)
    state = move(state, 0, "1.jus4").state
    assert GAME.legal_actions(state, 0) == ("1.E1",)
    after = move(state, 0, "1.E1").state
    assert cells_view(after).covers[index((4, 4))] == ("T8", "4W")
    assert after.pools[0] == ()


def test_e2_6_wheel_flips_the_canonical_path() -> None:
    state = field(
        cards={(3, 2): "10P", (3, 10): "T10", (2, 4): "5S", (2, 6): "T6", (2, 7): "3C", (2, 9): "6P"},
        closed=[(3, 10), (2, 4)],
        tokens=[[(3, 2)], [(2, 9)]],
    )
    assert GAME.legal_actions(state, 0) == ("1.K4",)
    step = move(state, 0, "1.K4")
    after = step.state
    assert looks(after, (2, 4)) == "open" and cells_view(after).faces[index((2, 4))] == "5S"
    assert looks(after, (2, 7)) == "closed"
    assert looks(after, (2, 6)) == "open" and looks(after, (2, 9)) == "open"
    assert next_counts(after, 0) == ("steps", (7,))
    (wheel,) = events_of(step, WheelTurned)
    assert isinstance(wheel, WheelTurned)
    assert wheel.opened == (index((2, 4)),) and wheel.cards == ("5S",) and wheel.closed == (index((2, 7)),)


def test_e2_7_the_world() -> None:
    state = field(
        cards={(6, 2): "2S", (6, 4): "T21", (3, 5): "2C"},
        closed=[(6, 4), (3, 7), (0, 3)],
        tokens=[[(3, 5)], [(6, 2)]],
        turn=1,
    )
    # Before the World, the hole makes (3,7) 4 steps from (3,5).
    assert (3, 7) not in targets(field(cards={(3, 5): "2C"}, closed=[(3, 7)], tokens=[[(3, 5)]]), 0)
    step = move(state, 1, "1.E7")
    after = step.state
    assert token_cell(after, 1) == CENTRE_CELL
    view = cells_view(after)
    assert view.cells[index(CENTRE_CELL)] == "open" and view.faces[index(CENTRE_CELL)] == "T21"
    assert looks(after, (6, 4)) == "empty"
    assert next_counts(after, 1) == ("steps", (8,))
    assert events_of(step, WorldMoved)
    # The Centre is passable now: 2 steps from (3,5) reach (3,7) through it.
    assert targets(after, 0) == {(3, 7)}


def test_e2_7_empress_distance_with_the_world_in_the_centre() -> None:
    state = field(
        cards={CENTRE_CELL: "T21", (0, 6): "10S", (3, 0): "9W"},
        closed=[(6, 6)],
        tokens=[[(0, 6)], [CENTRE_CELL], [(3, 0)]],
        empress=[(0, 1), (1, 1), (2, 1)],
    )
    # The plain BFS distance to (3,6); on the Centre D = 0 and the World's own 8 steps apply.
    assert [next_counts(state, seat)[1] for seat in range(3)] == [(3,), (8,), (6,)]


def test_e2_8_team_loss_check() -> None:
    """Teams X = {P1, P3} and Y = {P2, P4}: P1 is stuck on the Tower and skips while P3 can move;
    once P3 is stuck too, X loses at once."""
    state = field(
        cards={(0, 2): "T16", (0, 10): "AW", (6, 10): "T0", (6, 6): "AP"},
        closed={(1, 10): "KS", (6, 2): "2P", (6, 5): "3P", (5, 3): "4P"},
        tokens=[[(0, 2)], [(6, 6)], [(0, 10)], [(6, 10)]],
        teams=[0, 1, 0, 1],
        turn=3,
    )
    step = move(state, 3, "1.C7")
    assert [(e.seat, e.token) for e in events_of(step, Skipped) if isinstance(e, Skipped)] == [(0, 1)]
    assert GAME.outcome(step.state) is None
    assert step.state.turn == 1
    state = move(step.state, 1, "1.F7").state
    step = move(state, 2, "1.K2")
    (hopeless,) = events_of(step, TeamHopeless)
    assert isinstance(hopeless, TeamHopeless) and hopeless.seats == (0, 2)
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (1, 3) and outcome.losers == (0, 2)
    assert isinstance(step.events[-1], GameOver)


def test_e2_9_chariot_repeats_the_move() -> None:
    state = field(
        cards={(0, 2): "6C", (0, 8): "T7", (2, 6): "3S", (6, 10): "KP"},
        closed=[(0, 8), (2, 6), (6, 6), (2, 9)],
        tokens=[[(0, 2)], [(6, 10)]],
    )
    step = move(state, 0, "1.I1")
    assert events_of(step, ChariotRepeat)
    state = step.state
    assert GAME.to_move(state) == (0,)
    assert GAME.legal_actions(state, 0) == ("1.G3",)
    state = move(state, 0, "1.G3").state
    assert token_cell(state, 0) == (2, 6)
    assert next_counts(state, 0) == ("steps", (3,))
    assert state.turn == 1


def test_e2_9_chariot_waits_when_the_repeat_is_impossible() -> None:
    state = field(
        cards={(0, 2): "6C", (0, 8): "T7", (6, 10): "KP", (6, 6): "T0"},
        closed=[(0, 8), (0, 9), (6, 6)],
        tokens=[[(0, 2)], [(6, 10)]],
        pools=[("T17",), ()],
    )
    step = move(state, 0, "1.I1")
    (repeat,) = events_of(step, ChariotRepeat)
    assert isinstance(repeat, ChariotRepeat) and not repeat.possible and repeat.steps == 6
    state = step.state
    assert state.turn == 1 and token_cell(state, 0) == (0, 8)
    state = move(state, 1, "1." + code((6, 6))).state
    # Next turn: 6 steps again from the Chariot; none reach (0,9), so the Star is the way out.
    assert next_counts(state, 0) == ("steps", (6,))
    assert GAME.legal_actions(state, 0) == ("1.star",)


def test_e2_10_hanged_man() -> None:
    state = field(
        cards={(4, 2): "5P", (4, 7): "T12", (0, 5): "2W", (6, 8): "KC", (6, 10): "T0"},
        closed=[(4, 7), (6, 8), (1, 4)],
        tokens=[[(6, 10)], [(4, 2)]],
        turn=1,
    )
    step = move(state, 1, "1." + code((4, 7)))
    state = step.state
    assert token_cell(state, 1) == (4, 2)
    assert looks(state, (4, 7)) == "open" and cells_view(state).faces[index((4, 7))] == "T12"
    # The swap is the player's choice, in two steps: the free card, then the closed one.
    assert GAME.legal_actions(state, 1) == ("f.F1",)
    state = move(state, 1, "f.F1").state
    assert GAME.legal_actions(state, 1) == ("c.E2", "c.I7")
    step = move(state, 1, "c.I7")
    state = step.state
    assert looks(state, (0, 5)) == "closed"
    assert looks(state, (6, 8)) == "open" and cells_view(state).faces[index((6, 8))] == "2W"
    assert state.cards[index((0, 5))] == "KC"
    (swapped,) = events_of(step, Swapped)
    assert isinstance(swapped, Swapped)
    assert (swapped.free, swapped.closed, swapped.card) == (index((0, 5)), index((6, 8)), "2W")
    assert next_counts(state, 1) == ("steps", (5,))
    assert state.turn == 0
