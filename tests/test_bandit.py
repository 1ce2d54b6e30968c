"""Game 9, the One-legged bandit (RULES.md): the strip, paytable and ladder as data, the worked
examples E9.1-E9.5, and the exact economics of rule 5.

E9.6 (a pull refused at a balance of 9) is the wallet's rule, not the engine's: the bot charges
PULL_COST before it creates a game, so it is tested with the wallet.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from core.engine import CHANCE, Event, GameOver, Outcome
from core.games.bandit import (
    CAREER,
    PAYTABLE,
    PULL_COST,
    REEL_OUTCOMES,
    STRIP,
    BanditGame,
    BanditState,
    CareerStep,
    ReelStopped,
    evaluate,
)
from i18n import t

GAME = BanditGame()
STOPS = range(len(STRIP))
ALL_STOPS: list[tuple[int, int, int]] = [(a, b, c) for a in STOPS for b in STOPS for c in STOPS]

#: Rule 2 exactly as RULES.md prints it.
RULES_STRIP = """
    0 DOUBLOON  1 BLANK   2 ANCHOR  3 SCROLL  4 RUM      5 BLANK   6 DOUBLOON 7 CUTLASS
    8 ANCHOR    9 SCROLL 10 BLANK  11 DOUBLOON 12 PARROT 13 RUM    14 ANCHOR  15 SCROLL
   16 BLANK    17 DOUBLOON 18 CHEST 19 CUTLASS 20 ANCHOR 21 RUM    22 BLANK   23 SCROLL
   24 DOUBLOON 25 PARROT 26 ANCHOR 27 CUTLASS 28 BLANK 29 DOUBLOON 30 RUM     31 SCROLL
"""


def test_strip_is_rule_2() -> None:
    words = RULES_STRIP.split()
    printed = {int(index): name.lower() for index, name in zip(words[::2], words[1::2], strict=True)}
    assert tuple(printed[i] for i in range(32)) == STRIP
    assert Counter(STRIP) == {
        "chest": 1,
        "parrot": 2,
        "cutlass": 3,
        "rum": 4,
        "anchor": 5,
        "doubloon": 6,
        "scroll": 5,
        "blank": 6,
    }


def test_paytable_probabilities_are_rule_3() -> None:
    lines = Counter(evaluate(stops, 0).line for stops in ALL_STOPS)
    expected = {
        "chest3": (2000, 1),
        "parrot3": (750, 8),
        "cutlass3": (400, 27),
        "rum3": (150, 64),
        "doubloon3": (150, 216),
        "anchor3": (80, 125),
        "doubloon2": (40, 2808),
        "doubloon1": (5, 12168),
        "scroll3": (0, 125),
    }
    assert {line.code: (line.pays, lines[line.code]) for line in PAYTABLE} == expected


def test_career_ladder_is_rule_4() -> None:
    assert [(r.rank, t("ru", r.title), r.bonus) for r in CAREER] == [
        (0, "Простой пират", 0),
        (1, "Марсовый", 100),
        (2, "Канонир", 150),
        (3, "Боцман", 200),
        (4, "Штурман", 300),
        (5, "Квартирмейстер", 400),
        (6, "Старший помощник", 500),
        (7, "Капитан", 700),
        (8, "Капитан эскадры", 1000),
        (9, "Капитан эскадры, нашедший клад старика Флинта", 1500),
    ]
    # Every rank has an episode, translated like its title.
    assert all(r.episode and t("ru", r.episode) != r.episode for r in CAREER)


# ----- worked examples -----------------------------------------------------------------------------


def pull(stops: tuple[int, int, int], rank: int = 0) -> BanditState:
    state = GAME.new(1, {"rank": rank})
    for reel, stop in enumerate(stops):
        assert GAME.to_move(state) == (CHANCE,)
        assert GAME.chance_outcomes(state) == REEL_OUTCOMES[reel]
        assert GAME.legal_actions(state, 0) == ()
        state = GAME.apply(state, CHANCE, f"r{reel}:{stop}").state
    assert isinstance(state, BanditState)
    return state


def test_e9_1_two_doubloons() -> None:
    result = evaluate((0, 1, 6), 0)
    assert result.symbols == ("doubloon", "blank", "doubloon")
    assert (result.line, result.win, result.bonus) == ("doubloon2", 40, 0)
    assert result.win - PULL_COST == 30
    state = pull((0, 1, 6))
    view = GAME.view(state, 0)
    assert (view.stops, view.line, view.win) == ((0, 1, 6), "doubloon2", 40)
    assert GAME.outcome(state) == Outcome(winners=(0,), scores=(40,))


def test_e9_2_a_triple_beats_the_doubloon_count() -> None:
    result = evaluate((0, 6, 11), 0)
    assert result.symbols == ("doubloon",) * 3
    assert (result.line, result.win) == ("doubloon3", 150)


def test_e9_3_flint_then_a_new_voyage() -> None:
    result = evaluate((3, 9, 15), 8)
    assert result.symbols == ("scroll",) * 3
    assert (result.line, result.win, result.bonus) == ("scroll3", 0, 1500)
    assert (result.reached, result.new_rank, result.career_step, result.new_voyage) == (9, 0, True, True)
    step_view = GAME.view(pull((3, 9, 15), rank=8), 0)
    assert t("ru", step_view.title) == "Капитан эскадры, нашедший клад старика Флинта"
    assert (step_view.rank_before, step_view.rank, step_view.bonus) == (8, 0, 1500)
    assert step_view.new_voyage
    # The next career step starts the ladder again.
    again = evaluate((3, 9, 15), result.new_rank)
    assert (again.reached, again.new_rank, again.bonus, again.new_voyage) == (1, 1, 100, False)


def test_e9_4_two_scrolls_and_a_doubloon() -> None:
    result = evaluate((3, 9, 0), 4)
    assert (result.line, result.win, result.bonus) == ("doubloon1", 5, 0)
    assert (result.career_step, result.new_rank) == (False, 4)


def test_e9_5_two_chests_are_not_a_triple() -> None:
    result = evaluate((18, 18, 17), 0)
    assert result.symbols == ("chest", "chest", "doubloon")
    assert (result.line, result.win) == ("doubloon1", 5)


def test_a_career_step_through_the_engine() -> None:
    state = GAME.new(1, {"rank": 2})
    events: list[Event] = []
    for reel, stop in enumerate((3, 9, 15)):
        step = GAME.apply(state, CHANCE, f"r{reel}:{stop}")
        events.extend(step.events)
        state = step.state
    outcome = Outcome(winners=(0,), scores=(200,))
    assert events == [
        ReelStopped(reel=0, stop=3, symbol="scroll"),
        ReelStopped(reel=1, stop=9, symbol="scroll"),
        ReelStopped(reel=2, stop=15, symbol="scroll"),
        CareerStep(rank=3, bonus=200, new_voyage=False),
        GameOver(outcome=outcome),
    ]
    view = GAME.view(state, None)
    assert (view.rank, t("ru", view.title), view.title, view.career_step) == (3, "Боцман", "Boatswain", True)
    assert t("ru", view.episode) == "Вы усмирили бунт на нижней палубе одной дудкой. Отныне вы боцман."


def test_a_blank_pull_loses() -> None:
    state = pull((1, 1, 1))
    assert GAME.view(state, 0).line is None
    assert GAME.outcome(state) == Outcome(winners=(), losers=(0,), scores=(0,))


def test_the_view_while_spinning() -> None:
    state = GAME.apply(GAME.new(1, {"rank": 5}), CHANCE, "r0:18").state
    view = GAME.view(state, 0)
    assert (view.stops, view.symbols, view.line, view.win) == (None, None, None, 0)
    assert (view.rank_before, view.rank, t("ru", view.title)) == (5, 5, "Квартирмейстер")


@pytest.mark.parametrize("rank", [-1, 10])
def test_rank_option_is_checked(rank: int) -> None:
    with pytest.raises(ValueError):
        GAME.new(1, {"rank": rank})


def test_a_finished_career_given_as_rank_9_steps_to_rank_1() -> None:
    result = evaluate((3, 9, 15), 9)
    assert (result.reached, result.new_rank, result.bonus) == (1, 1, 100)


# ----- rule 5: exact economics ---------------------------------------------------------------------


def test_rule_5_exact_rtp() -> None:
    pulls = len(ALL_STOPS)
    assert pulls == 32768
    base = Fraction(sum(evaluate(stops, 0).win for stops in ALL_STOPS), pulls * PULL_COST)
    assert base == Fraction(243960, 327680)
    assert round(float(base), 5) == 0.74451
    # The career cycles through ranks 0-8 before each step, each equally often in the long run.
    bonuses = Fraction(
        sum(evaluate(stops, rank).bonus for rank in range(9) for stops in ALL_STOPS), 9 * pulls * PULL_COST
    )
    assert bonuses == Fraction(125, 32768) * Fraction(4850, 9) / 10
    assert round(float(bonuses), 5) == 0.20557
    assert round(float(base + bonuses) * 100, 2) == 95.01
    # Any pull that pays, the career step included.
    hits = sum(1 for stops in ALL_STOPS if evaluate(stops, 0).line is not None)
    assert hits == 15542
    assert round(hits / pulls * 100, 1) == 47.4
    assert round(Fraction(pulls, 125) * 9) == 2359
