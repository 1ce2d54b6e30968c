"""Game 2 (RULES.md): one test per row of the Major Arcana table, each checking the arcanum's
arrival effect (a token's own move onto it) and its movement rule (a token standing on it)."""

from __future__ import annotations

from core.games.grid_tarot_events import (
    CardsClosed,
    CardsOpened,
    ChariotRepeat,
    EmpressSet,
    Returned,
    Swapped,
    Taken,
    TeamHopeless,
    TokenMoved,
    WorldMoved,
)
from tests.tarot_fields import (
    CENTRE_CELL,
    GAME,
    cells_view,
    events_of,
    field,
    index,
    looks,
    move,
    next_counts,
    targets,
    token_cell,
)


def test_the_fool() -> None:
    """0: no arrival effect; next, a move to any closed card on the field."""
    state = field(
        cards={(2, 2): "2W", (2, 4): "T0"}, closed=[(2, 4), (0, 10), (6, 2), (3, 12)], tokens=[[(2, 2)]]
    )
    step = move(state, 0, "1.E3")
    assert [type(e) for e in step.events] == [TokenMoved]
    assert next_counts(step.state, 0) == ("any", ())
    assert targets(step.state, 0) == {(0, 10), (6, 2), (3, 12)}


def test_the_magician() -> None:
    """I: no arrival effect; next, a step move of 1, 2, 3 or 4, the count named in the code."""
    state = field(
        cards={(3, 2): "AW", (3, 3): "T1"},
        closed=[(3, 3), (3, 4), (1, 3), (0, 2), (6, 3), (6, 9)],
        tokens=[[(3, 2)]],
    )
    step = move(state, 0, "1.D4")
    assert [type(e) for e in step.events] == [TokenMoved]
    after = step.state
    assert next_counts(after, 0) == ("steps", (1, 2, 3, 4))
    assert set(GAME.legal_actions(after, 0)) == {"1.E4.1", "1.E4.3", "1.D2.2", "1.D2.4", "1.C1.4", "1.D7.3"}
    (moved,) = events_of(move(after, 0, "1.D7.3"), TokenMoved)
    assert isinstance(moved, TokenMoved) and moved.steps == 3


def test_the_high_priestess() -> None:
    """II: taken into the pool, the position emptied, the token returned; on a first placement
    it returns off the field and is placed again next move (A2.7)."""
    state = field(cards={(1, 4): "T2"}, closed=[(1, 4), (5, 5)], tokens=[[None]])
    step = move(state, 0, "1.E2")
    after = step.state
    assert after.pools == (("T2",),)
    assert looks(after, (1, 4)) == "empty"
    assert token_cell(after, 0) is None
    (returned,) = events_of(step, Returned)
    assert isinstance(returned, Returned) and returned.cell is None
    assert next_counts(after, 0) == ("any", ())
    assert targets(after, 0) == {(5, 5)}


def test_the_empress() -> None:
    """III: every placed token's next move is a D-move, the opener's included; standing on her,
    a token moves D steps."""
    state = field(
        cards={(6, 5): "2W", (0, 2): "AW", (0, 6): "5W", (6, 7): "T3"},
        closed=[(6, 7), (6, 9), (0, 9), (2, 3)],
        tokens=[[(6, 5), (0, 2)], [(0, 6), None]],
    )
    step = move(state, 0, "1.H7")
    (marked,) = events_of(step, EmpressSet)
    assert isinstance(marked, EmpressSet) and marked.tokens == ((0, 1), (0, 2), (1, 1))
    after = step.state
    # D from (6,7) is 4, from (0,2) 7 instead of the Ace's 1, from (0,6) 3 instead of 5.
    assert next_counts(after, 0, 1) == ("steps", (4,))
    assert next_counts(after, 0, 2) == ("steps", (7,))
    assert next_counts(after, 1, 1) == ("steps", (3,))
    assert next_counts(after, 1, 2) == ("any", ())
    # With no Empress move pending, the card itself still says D.
    standing = field(cards={(6, 7): "T3"}, closed=[(6, 9)], tokens=[[(6, 7)]])
    assert next_counts(standing, 0) == ("steps", (4,))
    assert targets(standing, 0) == {(6, 9)}


def test_the_emperor() -> None:
    """IV: no arrival effect; next, any closed card in its row or column, across the hole."""
    state = field(
        cards={(3, 0): "2W", (3, 2): "T4"},
        closed=[(3, 2), (3, 11), (0, 2), (6, 2), (5, 4), (2, 3)],
        tokens=[[(3, 0)]],
    )
    step = move(state, 0, "1.C4")
    assert [type(e) for e in step.events] == [TokenMoved]
    assert next_counts(step.state, 0) == ("line", ())
    assert targets(step.state, 0) == {(3, 11), (0, 2), (6, 2)}


def test_the_hierophant() -> None:
    """V: taken and the token returned; with the High Priestess it gives 1, 5 or 9 steps."""
    state = field(
        cards={(2, 2): "2W", (2, 4): "T5"}, closed=[(2, 4), (0, 2)], tokens=[[(2, 2)]], pools=[("T2",)]
    )
    step = move(state, 0, "1.E3")
    assert [type(e) for e in step.events] == [TokenMoved, Taken, Returned]
    assert step.state.pools == (("T2", "T5"),)
    assert looks(step.state, (2, 4)) == "empty" and token_cell(step.state, 0) == (2, 2)
    tower = field(
        cards={(5, 6): "T16"}, closed=[(5, 7), (5, 11), (0, 6)], tokens=[[(5, 6)]], pools=[("T2", "T5")]
    )
    assert GAME.legal_actions(tower, 0) == ("1.ph",)
    chosen = move(tower, 0, "1.ph").state
    assert set(GAME.legal_actions(chosen, 0)) == {"1.H6.1", "1.H6.5", "1.H6.9", "1.L6.5", "1.L6.9", "1.G1.9"}
    after = move(chosen, 0, "1.L6.5").state
    assert cells_view(after).covers[index((5, 6))] == ("T2", "T5") and after.pools == ((),)


def test_the_lovers() -> None:
    """VI: no arrival effect; next, 6 or 9 steps."""
    state = field(
        cards={(3, 2): "AW", (3, 3): "T6"},
        closed=[(3, 3), (3, 5), (1, 4), (0, 8), (6, 9), (3, 4)],
        tokens=[[(3, 2)]],
    )
    step = move(state, 0, "1.D4")
    assert [type(e) for e in step.events] == [TokenMoved]
    assert next_counts(step.state, 0) == ("steps", (6, 9))
    assert set(GAME.legal_actions(step.state, 0)) == {"1.F4.6", "1.E2.9", "1.J7.9", "1.E4.9"}


def test_the_chariot() -> None:
    """VII: the move that brought the token here is repeated at once, a placement too (A2.8);
    standing on it, the token moves as it came (here: like the Emperor)."""
    state = field(cards={(2, 2): "T7"}, closed=[(2, 2), (6, 10), (0, 3)], tokens=[[None]])
    step = move(state, 0, "1.C3")
    (repeat,) = events_of(step, ChariotRepeat)
    assert isinstance(repeat, ChariotRepeat) and repeat.possible and repeat.kind == "any"
    assert GAME.legal_actions(step.state, 0) == ("1.D1", "1.K7")
    (moved,) = events_of(move(step.state, 0, "1.K7"), TokenMoved)
    assert isinstance(moved, TokenMoved) and moved.repeat and moved.kind == "any"
    standing = field(
        cards={(2, 2): "T7"}, closed=[(2, 10), (6, 2), (4, 4)], tokens=[[(2, 2)]], chariot={(0, 1): "line"}
    )
    assert next_counts(standing, 0) == ("line", ())
    assert targets(standing, 0) == {(2, 10), (6, 2)}


def test_justice() -> None:
    """VIII: taken and the token returned; with a taken minor it gives that minor's steps, and both
    cover the card the token stood on."""
    state = field(cards={(2, 2): "2W", (2, 4): "T8"}, closed=[(2, 4), (0, 2)], tokens=[[(2, 2)]])
    step = move(state, 0, "1.E3")
    assert [type(e) for e in step.events] == [TokenMoved, Taken, Returned]
    assert step.state.pools == (("T8",),)
    tower = field(
        cards={(5, 6): "T16"},
        closed=[(5, 9), (5, 11), (5, 7)],
        tokens=[[(5, 6)]],
        pools=[("T8", "3W", "3C", "5S")],
    )
    assert GAME.legal_actions(tower, 0) == ("1.jus3", "1.jus5")
    chosen = move(tower, 0, "1.jus3").state
    assert GAME.legal_actions(chosen, 0) == ("1.H6", "1.J6")
    after = move(chosen, 0, "1.J6").state
    assert cells_view(after).covers[index((5, 6))] == ("T8", "3C")
    assert after.pools == (("3W", "5S"),)


def test_the_hermit() -> None:
    """IX: no arrival effect; next, any closed card whose four neighbours are closed, empty, the
    Centre hole or off the field (A2.5)."""
    state = field(
        cards={(5, 4): "AW", (5, 5): "T9", (6, 10): "2C"},
        closed=[(5, 5), (2, 6), (1, 6), (0, 2), (6, 9)],
        tokens=[[(5, 4)]],
    )
    step = move(state, 0, "1.F6")
    assert [type(e) for e in step.events] == [TokenMoved]
    assert next_counts(step.state, 0) == ("hermit", ())
    # (6,9) touches the open 2♥.
    assert targets(step.state, 0) == {(2, 6), (1, 6), (0, 2)}
    # Once the World fills the Centre, (2,6) has an open neighbour.
    world = field(
        cards={(5, 5): "T9", CENTRE_CELL: "T21"},
        closed=[(2, 6), (1, 6), (0, 2)],
        tokens=[[(5, 5)], [CENTRE_CELL]],
    )
    assert targets(world, 0) == {(1, 6), (0, 2)}


def test_wheel_of_fortune() -> None:
    """X: free cards on the path close and closed ones open (no effect); a covered card is not
    free; next, 7 steps."""
    state = field(
        cards={(0, 3): "4W", (0, 7): "T10", (0, 4): "7S", (0, 5): "9S", (0, 6): "3C"},
        closed=[(0, 7), (0, 5), (6, 6)],
        covers={(0, 4): ("T17",)},
        tokens=[[(0, 3)]],
    )
    after = move(state, 0, "1.H1").state
    assert [looks(after, (0, c)) for c in (4, 5, 6)] == ["covered", "open", "closed"]
    assert next_counts(after, 0) == ("steps", (7,))


def test_strength() -> None:
    """XI: taken and the token returned; it doubles the steps of the card the token stands on,
    each choice of a choice rule, and does nothing on the Tower."""
    state = field(cards={(2, 2): "2W", (2, 4): "T11"}, closed=[(2, 4), (0, 2)], tokens=[[(2, 2)]])
    step = move(state, 0, "1.E3")
    assert [type(e) for e in step.events] == [TokenMoved, Taken, Returned]
    assert step.state.pools == (("T11",),)
    magician = field(cards={(3, 3): "T1"}, closed=[(0, 6), (6, 10)], tokens=[[(3, 3)]], pools=[("T11",)])
    assert GAME.legal_actions(magician, 0) == ("1.str",)
    chosen = move(magician, 0, "1.str").state
    assert GAME.legal_actions(chosen, 0) == ("1.G1.6", "1.G1.8")
    tower = field(
        cards={(5, 6): "T16", (1, 2): "2W"},
        closed=[(5, 7), (1, 4)],
        tokens=[[(5, 6), (1, 2)]],
        pools=[("T11",)],
    )
    assert GAME.view(tower, 0).options == ()
    assert GAME.legal_actions(tower, 0) == ("2.E2",)


def test_the_hanged_man() -> None:
    """XII: the token returns and the Hanged Man stays face up; with no free card to swap, the
    swap is skipped (E2.10 has the swap itself)."""
    state = field(
        cards={(4, 2): "5P", (4, 7): "T12", (6, 10): "T0"},
        closed=[(4, 7), (1, 4)],
        tokens=[[(6, 10)], [(4, 2)]],
        turn=1,
    )
    step = move(state, 1, "1.H5")
    (swapped,) = events_of(step, Swapped)
    assert isinstance(swapped, Swapped) and swapped.free is None and swapped.closed is None
    assert token_cell(step.state, 1) == (4, 2)
    assert looks(step.state, (4, 7)) == "open"
    assert step.state.turn == 0
    assert next_counts(step.state, 1) == ("steps", (5,))


def test_death() -> None:
    """XIII: every free card in Death's row and column closes (not majors, covered or occupied
    cards); next, 5 steps."""
    state = field(
        cards={
            (0, 7): "4S",
            (3, 8): "T13",
            (3, 1): "3W",
            (0, 8): "5W",
            (5, 8): "6W",
            (3, 10): "7W",
            (1, 8): "T6",
            (2, 7): "8W",
        },
        closed=[(3, 8), (6, 2)],
        covers={(3, 10): ("T17",)},
        tokens=[[(0, 7)], [(5, 8)]],
    )
    step = move(state, 0, "1.I4")
    (closed,) = events_of(step, CardsClosed)
    assert isinstance(closed, CardsClosed) and closed.cells == tuple(sorted((index((3, 1)), index((0, 8)))))
    after = step.state
    assert [looks(after, cell) for cell in ((5, 8), (3, 10), (1, 8), (2, 7), (0, 7))] == [
        "open",
        "covered",
        "open",
        "open",
        "open",
    ]
    assert next_counts(after, 0) == ("steps", (5,))


def test_temperance() -> None:
    """XIV: the token returns; Temperance stays face up; the next move is the old card's."""
    state = field(cards={(2, 2): "3W", (2, 5): "T14"}, closed=[(2, 5), (2, 1)], tokens=[[(2, 2)]])
    step = move(state, 0, "1.F3")
    assert [type(e) for e in step.events] == [TokenMoved, Returned]
    assert looks(step.state, (2, 5)) == "open" and cells_view(step.state).faces[index((2, 5))] == "T14"
    assert token_cell(step.state, 0) == (2, 2)
    assert next_counts(step.state, 0) == ("steps", (3,))


def test_the_devil() -> None:
    """XV: every free card within Manhattan distance 3 closes, across the hole too, and so does
    the card the token just left; next, 4 steps."""
    state = field(
        cards={
            (3, 8): "AW",
            (3, 7): "T15",
            (3, 5): "2W",
            (0, 7): "3W",
            (6, 7): "4W",
            (0, 6): "5W",
            (2, 6): "T6",
        },
        closed=[(3, 7)],
        tokens=[[(3, 8)]],
    )
    step = move(state, 0, "1.H4")
    (closed,) = events_of(step, CardsClosed)
    assert isinstance(closed, CardsClosed)
    assert set(closed.cells) == {index(cell) for cell in ((3, 5), (0, 7), (6, 7), (3, 8))}
    assert looks(step.state, (0, 6)) == "open" and looks(step.state, (2, 6)) == "open"
    assert next_counts(step.state, 0) == ("steps", (4,))


def test_the_tower() -> None:
    """XVI: 0 steps; with nothing in the pool the token is hopeless, so a lone token's team loses
    at once."""
    state = field(
        cards={(5, 4): "2W", (5, 6): "T16", (0, 6): "T0"},
        closed=[(5, 6), (0, 10)],
        tokens=[[(5, 4)], [(0, 6)]],
    )
    step = move(state, 0, "1.G6")
    assert next_counts(step.state, 0) == ("steps", ())
    (hopeless,) = events_of(step, TeamHopeless)
    assert isinstance(hopeless, TeamHopeless) and hopeless.seats == (0,)
    outcome = GAME.outcome(step.state)
    assert outcome is not None and outcome.winners == (1,) and outcome.losers == (0,)


def test_the_star() -> None:
    """XVII: taken and the token returned (E2.4 has its 5-step way out)."""
    state = field(cards={(2, 2): "2W", (2, 4): "T17"}, closed=[(2, 4), (0, 2)], tokens=[[(2, 2)]])
    step = move(state, 0, "1.E3")
    assert [type(e) for e in step.events] == [TokenMoved, Taken, Returned]
    assert step.state.pools == (("T17",),)
    assert looks(step.state, (2, 4)) == "empty" and token_cell(step.state, 0) == (2, 2)
    assert next_counts(step.state, 0) == ("steps", (2,))


def test_the_moon() -> None:
    """XVIII: free cards on the path close (closed, major and occupied ones stay); next, 6 steps."""
    state = field(
        cards={(0, 2): "6W", (0, 8): "T18", (0, 3): "3C", (0, 4): "2C", (0, 6): "T1"},
        closed=[(0, 8), (0, 5)],
        tokens=[[(0, 2)], [(0, 3)]],
    )
    step = move(state, 0, "1.I1")
    (closed,) = events_of(step, CardsClosed)
    assert isinstance(closed, CardsClosed) and closed.cells == (index((0, 4)),)
    assert [looks(step.state, (0, c)) for c in (3, 4, 5, 6)] == ["open", "closed", "closed", "open"]
    assert next_counts(step.state, 0) == ("steps", (6,))


def test_the_sun() -> None:
    """XIX: closed cards on the path open, with no effect (rule 14: the Priestess is not taken);
    next, 7 steps."""
    state = field(
        cards={(4, 0): "7W", (4, 7): "T19", (4, 2): "T2", (4, 4): "5S", (4, 5): "6C"},
        closed=[(4, 7), (4, 2), (4, 4), (0, 6)],
        tokens=[[(4, 0)]],
    )
    step = move(state, 0, "1.H5")
    (opened,) = events_of(step, CardsOpened)
    assert isinstance(opened, CardsOpened) and opened.cards == ("T2", "5S")
    after = step.state
    assert looks(after, (4, 2)) == "open" and after.pools == ((),)
    assert looks(after, (4, 4)) == "open" and looks(after, (4, 5)) == "open"
    assert next_counts(after, 0) == ("steps", (7,))


def test_judgment() -> None:
    """XX: the token returns, then every closed card within 3 of the returned-to position opens
    (no effects); Judgment stays face up."""
    state = field(
        cards={(1, 2): "5W", (1, 7): "T20", (0, 3): "T2"},
        closed=[(1, 7), (0, 3), (3, 3), (4, 2), (1, 6), (5, 2)],
        tokens=[[(1, 2)]],
    )
    step = move(state, 0, "1.H2")
    after = step.state
    assert token_cell(after, 0) == (1, 2)
    assert looks(after, (1, 7)) == "open"
    assert [looks(after, cell) for cell in ((0, 3), (3, 3), (4, 2))] == ["open"] * 3
    assert looks(after, (1, 6)) == "closed" and looks(after, (5, 2)) == "closed"
    assert after.pools == ((),)
    assert next_counts(after, 0) == ("steps", (5,))


def test_the_world() -> None:
    """XXI: the token and the World move to the Centre, which becomes passable (E2.7 has a step
    move onto it); next, 8 steps, through the Centre."""
    state = field(cards={(6, 4): "T21"}, closed=[(6, 4), (0, 6), (3, 10), (6, 10), (3, 0)], tokens=[[None]])
    step = move(state, 0, "1.E7")
    assert events_of(step, WorldMoved)
    after = step.state
    assert token_cell(after, 0) == CENTRE_CELL and looks(after, (6, 4)) == "empty"
    assert next_counts(after, 0) == ("steps", (8,))
    assert targets(after, 0) == {(3, 10), (3, 0)}
    # Other tokens may now cross the Centre: 2 steps from (3,5) reach (3,7).
    crossing = field(cards={CENTRE_CELL: "T21", (3, 5): "2C"}, closed=[(3, 7)], tokens=[[(3, 5)]])
    assert targets(crossing, 0) == {(3, 7)}
