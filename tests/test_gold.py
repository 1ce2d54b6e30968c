"""Game 8, McSweeney's Gold (RULES.md): the symbol table, the worked examples E8.1-E8.7, marking a
route, the fingerprint, and the exact economics of rule 7."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest

from core.engine import CHANCE, GameOver, IllegalAction, OptionValue, Outcome, SeedOutcomes
from core.games.gold import (
    BETS,
    CODES,
    FIELD,
    GO,
    ROUTE_LENGTH,
    SYMBOLS,
    GoldGame,
    GoldState,
    Marked,
    Revealed,
    deal,
    fingerprint,
    reveal,
    tour,
    tour_total,
    verify,
)

GAME = GoldGame()
#: A route that is not in reading order, so that marking order is what the reveal follows.
ROUTE: tuple[int, ...] = (24, 3, 48, 0, 17, 40, 9)


def test_symbol_table_is_a8_1() -> None:
    counts = {symbol.code: symbol.copies for symbol in SYMBOLS}
    assert counts == {
        "bag": 1,
        "purse": 3,
        "coin": 12,
        "x2": 2,
        "x5": 1,
        "d2": 3,
        "d5": 2,
        "zero": 4,
        "z": 2,
        "empty": 19,
    }
    assert len(FIELD) == 49
    assert len(CODES) == 49
    assert (CODES[0], CODES[6], CODES[7], CODES[48]) == ("A1", "G1", "A2", "G7")


def built(route_symbols: Sequence[str], bet: int = 20, salt: str = "0123456789abcdef") -> GoldState:
    """A dealt field with `route_symbols` under ROUTE, marked in order; the rest of the multiset fills in."""
    rest = Counter(FIELD)
    rest.subtract(route_symbols)
    assert min(rest.values()) >= 0, "not a sub-multiset of the field"
    filler = iter(sorted(rest.elements()))
    placed = dict(zip(ROUTE, route_symbols, strict=True))
    layout = tuple(placed[i] if i in placed else next(filler) for i in range(49))
    return GoldState(
        players=1,
        options={"bet": bet},
        layout=layout,
        salt=salt,
        fingerprint=fingerprint(layout, salt),
        marked=ROUTE,
    )


# Worked examples: the route's symbols, then T and z after each reveal.
EXAMPLES = {
    "E8.1": (
        ["coin", "purse", "x2", "bag", "d2", "z", "zero"],
        [1, 11, 22, 122, 61, 61, 61],
        [0, 0, 0, 0, 0, 1, 0],
    ),
    "E8.2": (
        ["z", "bag", "zero", "d5", "x5", "coin", "purse"],
        [0, 100, 100, 20, 100, 101, 111],
        [1, 1, 0, 0, 0, 0, 0],
    ),
    "E8.3": (
        ["bag", "zero", "purse", "x5", "coin", "empty", "empty"],
        [100, 0, 10, 50, 51, 51, 51],
        [0] * 7,
    ),
    "E8.4": (
        ["purse", "coin", "coin", "coin", "d2", "d5", "empty"],
        [10, 11, 12, 13, 6, 1, 1],
        [0] * 7,
    ),
    "E8.5": (
        ["z", "z", "purse", "d2", "d5", "zero", "coin"],
        [0, 0, 10, 10, 10, 0, 1],
        [1, 2, 2, 1, 0, 0, 0],
    ),
    "E8.6": (
        ["x5", "coin", "d2", "x2", "z", "purse", "x2"],
        [0, 1, 0, 0, 0, 10, 20],
        [0, 0, 0, 0, 1, 1, 1],
    ),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_examples_through_tour_total(name: str) -> None:
    symbols, sums, zs = EXAMPLES[name]
    assert tour(symbols) == tuple(zip(sums, zs, strict=True))
    assert tour_total(symbols) == sums[-1]


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_examples_through_the_engine(name: str) -> None:
    symbols, sums, zs = EXAMPLES[name]
    state = built(symbols)
    step = GAME.apply(state, 0, GO)
    revealed = [event for event in step.events if isinstance(event, Revealed)]
    assert revealed == [
        Revealed(cell=cell, symbol=symbol, total=total, z=z)
        for cell, symbol, total, z in zip(ROUTE, symbols, sums, zs, strict=True)
    ]
    view = GAME.view(step.state, 0)
    assert view.revealed == tuple(zip(ROUTE, symbols, strict=True))
    assert (view.sums, view.zs) == (tuple(sums), tuple(zs))
    assert view.total == view.payout == sums[-1]
    assert GAME.to_move(step.state) == ()
    outcome = GAME.outcome(step.state)
    assert outcome is not None
    assert outcome.scores == (sums[-1],)
    assert GameOver(outcome=outcome) == step.events[-1]


def test_e8_1_net_and_e8_7_bet_scaling() -> None:
    symbols = EXAMPLES["E8.1"][0]
    at_20 = GAME.apply(built(symbols, bet=20), 0, GO).state
    assert GAME.view(at_20, 0).payout == 61  # net +41
    assert GAME.outcome(at_20) == Outcome(winners=(0,), scores=(61,))
    at_100 = GAME.apply(built(symbols, bet=100), 0, GO).state
    view = GAME.view(at_100, 0)
    assert (view.multiplier, view.total, view.payout) == (5, 61, 305)  # net +205
    assert GAME.outcome(at_100) == Outcome(winners=(0,), scores=(305,))


def test_e8_6_at_bet_100_breaks_even() -> None:
    state = GAME.apply(built(EXAMPLES["E8.6"][0], bet=100), 0, GO).state
    assert GAME.view(state, 0).payout == 100  # net 0: neither a win nor a loss
    assert GAME.outcome(state) == Outcome(winners=(), draw=True, scores=(100,))


def test_a_losing_tour() -> None:
    state = GAME.apply(built(EXAMPLES["E8.4"][0]), 0, GO).state
    assert GAME.outcome(state) == Outcome(winners=(), losers=(0,), scores=(1,))


def test_reveal_consumes_z_even_at_zero() -> None:
    # A8.3: a held Z is spent on a penalty even when T is already 0.
    assert reveal(0, 1, "d2") == (0, 0)
    assert reveal(7, 0, "zero") == (0, 0)
    assert reveal(7, 0, "d5") == (1, 0)


# ----- marking a route -----------------------------------------------------------------------------


def dealt(seed: int = 7, bet: int = 20) -> GoldState:
    state = GAME.new(1, {"bet": bet})
    assert GAME.to_move(state) == (CHANCE,)
    assert GAME.chance_outcomes(state) == SeedOutcomes(prefix="deal:", count=2**128)
    state = GAME.apply(state, CHANCE, f"deal:{seed}").state
    assert isinstance(state, GoldState)
    return state


def mark(state: GoldState, *codes: str) -> GoldState:
    for code in codes:
        state = GAME.apply(state, 0, code).state
    return state


def test_marking_toggles_and_keeps_order() -> None:
    state = dealt()
    step = GAME.apply(state, 0, "C2")
    assert step.events == (Marked(cell=9, marked=True),)
    state = mark(step.state, "A1", "G7")
    assert state.marked == (9, 0, 48)
    step = GAME.apply(state, 0, "C2")
    assert step.events == (Marked(cell=9, marked=False),)
    assert step.state.marked == (0, 48)
    # Marked again, it goes to the end of the route.
    assert mark(step.state, "C2").marked == (0, 48, 9)


def test_go_only_with_exactly_seven_marks() -> None:
    state = mark(dealt(), "A1", "B1", "C1", "D1", "E1", "F1")
    assert GO not in GAME.legal_actions(state, 0)
    assert len(GAME.legal_actions(state, 0)) == 49
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, GO)
    state = mark(state, "G1")
    # Seven marked: send the route or unmark; an eighth cell is not allowed.
    assert GAME.legal_actions(state, 0) == ("A1", "B1", "C1", "D1", "E1", "F1", "G1", GO)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "A2")
    assert GAME.view(state, 0).revealed == ()
    assert GAME.outcome(state) is None


@pytest.mark.parametrize("bet", BETS)
def test_allowed_bets(bet: int) -> None:
    view = GAME.view(GAME.new(1, {"bet": bet}), 0)
    assert (view.bet, view.multiplier) == (bet, bet // 20)


@pytest.mark.parametrize("options", [{"bet": 50}, {"bet": 0}, {"bet": -20}, {"bet": "20"}, {"bet": True}])
def test_other_bets_are_rejected(options: dict[str, OptionValue]) -> None:
    with pytest.raises(ValueError):
        GAME.new(1, options)


def test_default_bet_is_20() -> None:
    assert GAME.view(GAME.new(1), 0).bet == 20


# ----- commitment ----------------------------------------------------------------------------------


def test_the_fingerprint_is_fixed_before_the_first_mark_and_verifies_at_the_end() -> None:
    state = dealt(seed=2024)
    shown = GAME.view(state, 0).fingerprint
    assert shown is not None and len(shown) == 32
    hidden = GAME.view(state, 0)
    assert (hidden.layout, hidden.salt, hidden.total, hidden.payout) == (None, None, None, None)
    played = state.layout
    state = mark(state, *(CODES[i] for i in ROUTE))
    assert GAME.view(state, None).fingerprint == shown
    final = GAME.apply(state, 0, GO).state
    view = GAME.view(final, None)
    assert view.fingerprint == shown
    assert view.layout == played
    assert view.salt is not None
    assert verify(view.layout, view.salt, shown)
    assert Counter(view.layout) == Counter(FIELD)
    assert all(view.layout[cell] == symbol for cell, symbol in view.revealed)
    # Any other layout fails the check.
    other = list(view.layout)
    first_different = next(i for i in range(1, 49) if other[i] != other[0])
    other[0], other[first_different] = other[first_different], other[0]
    assert not verify(other, view.salt, shown)
    assert not verify(view.layout, "0" * 16, shown)


def test_deal_is_a_function_of_the_seed() -> None:
    assert deal(5) == deal(5)
    assert deal(5) != deal(6)
    layout, salt = deal(5)
    assert len(salt) == 16 and set(salt) <= set("0123456789abcdef")
    assert Counter(layout) == Counter(FIELD)


def test_the_hidden_field_does_not_change_the_view() -> None:
    state = mark(dealt(), "A1", "B2")
    shuffled = GAME.shuffle_hidden(state, 0, random.Random(1))
    assert shuffled.layout != state.layout
    assert GAME.view(shuffled, 0) == GAME.view(state, 0)


# ----- rule 7: exact economics ---------------------------------------------------------------------


def exact_distribution() -> tuple[Counter[int], int]:
    """The number of ordered routes (7 distinct cells of 49) giving each tour sum T.

    A route's chance depends only on the symbols it draws, so a forward pass over (symbols left,
    T, z) with integer route counts covers all 49!/42! routes exactly; `reveal` is the rule.
    """
    codes = [symbol.code for symbol in SYMBOLS]
    layer: Counter[tuple[tuple[int, ...], int, int]] = Counter({(tuple(s.copies for s in SYMBOLS), 0, 0): 1})
    for _ in range(ROUTE_LENGTH):
        following: Counter[tuple[tuple[int, ...], int, int]] = Counter()
        for (left, total, z), routes in layer.items():
            for kind, copies in enumerate(left):
                if copies:
                    after = (*left[:kind], copies - 1, *left[kind + 1 :])
                    following[(after, *reveal(total, z, codes[kind]))] += routes * copies
        layer = following
    totals: Counter[int] = Counter()
    for (_, total, _), routes in layer.items():
        totals[total] += routes
    return totals, math.perm(49, ROUTE_LENGTH)


def test_rule_7_exact_rtp() -> None:
    totals, routes = exact_distribution()
    assert sum(totals.values()) == routes
    mean = Fraction(sum(t * n for t, n in totals.items()), routes)
    assert mean == Fraction(2058305300087, 108234735840)
    assert round(float(mean), 3) == 19.017
    assert round(float(mean / 20) * 100, 1) == 95.1
    assert round(float(Fraction(totals[0], routes)) * 100, 1) == 24.8
    variance = Fraction(sum(t * t * n for t, n in totals.items()), routes) - mean**2
    assert round(math.sqrt(variance), 1) == 55.9
