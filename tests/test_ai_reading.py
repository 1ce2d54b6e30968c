"""The hard trick players' reading of the others' plays (`core.ai.reading`): the true deal explains
every play of normal players, a plain sample often does not, and the walked worlds agree with the
view and explain the plays better than plain samples."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from benchmarks.reading import readings, seat_zero_states
from core.ai import minor_arcana, tarot
from core.ai.reading import Reading
from core.games.minor_arcana import MinorArcanaGame
from core.games.tarot import ASK, NUMERALS, TarotGame
from core.trickgame import PLAY, TrickGame

CASES: dict[str, tuple[TrickGame[Any, Any], Any, dict[str, Any]]] = {
    "tarot": (TarotGame(), tarot, {}),
    "minor_arcana": (MinorArcanaGame(), minor_arcana, {"length": "hand"}),
}


def _readings(game_id: str, players: int, seed: int) -> list[tuple[Any, Reading]]:
    game, module, options = CASES[game_id]
    return readings(game, module, players, seed, options)


@pytest.mark.parametrize(("game_id", "players"), [("tarot", 2), ("tarot", 3), ("minor_arcana", 4)])
def test_the_true_deal_explains_every_play_of_normal_players(game_id: str, players: int) -> None:
    game = CASES[game_id][0]
    readings = _readings(game_id, players, seed=3)
    assert len(readings) >= 5
    sampled = 0
    for state, reading in readings:
        assert reading.unexplained(state) == 0
        sampled += reading.unexplained(game.sample(reading.view, random.Random(len(reading.plays))))
    # ...which a deal that only agrees with the view often fails: there is something to read.
    assert sampled > 0


@pytest.mark.parametrize(("game_id", "players"), [("tarot", 3), ("minor_arcana", 4)])
def test_walked_worlds_agree_with_the_view_and_explain_more_plays(game_id: str, players: int) -> None:
    game = CASES[game_id][0]
    walked = sampled = walked_disagree = sampled_disagree = 0
    for seed in (1, 2):
        for _, reading in _readings(game_id, players, seed):
            view, rng = reading.view, random.Random(seed)
            worlds = reading.worlds(rng)
            for _ in range(3):
                world, sample = next(worlds), game.sample(view, rng)
                assert game.view(world, 0) == view
                walked += reading.unexplained(world)
                sampled += reading.unexplained(sample)
                walked_disagree += game.table(world).disagreements(0) > 0
                sampled_disagree += game.table(sample).disagreements(0) > 0
    assert walked < sampled * 0.7
    # Deals that contradict an announcement are rarer than among plain samples.
    assert walked_disagree < sampled_disagree or sampled_disagree == 0


def _decisions_of_a_seat_beside_the_dealer(seed: int) -> list[Any]:
    """Seat 0's views, from the asks to the end of the play, in a seeded 3-player hand of normal
    players that seat 0 does not deal."""
    game = TarotGame()
    return [
        game.view(state, 0)
        for state in seat_zero_states(game, tarot, 3, seed)
        if state.dealer != 0 and state.phase in (ASK, PLAY)
    ]


def test_another_dealers_discards_are_dealt_from_the_numerals() -> None:
    game = TarotGame()
    views = [view for seed in range(6) for view in _decisions_of_a_seat_beside_the_dealer(seed)]
    assert sum(view.phase == ASK for view in views) >= 2 and len(views) >= 40
    plain_sheds_more = 0
    for number, view in enumerate(views):
        rng = random.Random(number)
        worlds = Reading(game, tarot.STYLE, view).worlds(rng)
        for _ in range(2):
            world = next(worlds)
            assert game.view(world, 0) == view
            assert len(world.discards) == 3 and set(world.discards) <= NUMERALS
        plain_sheds_more += not set(game.sample(view, rng).discards) <= NUMERALS
    # A deal that only agrees with the view puts Kings, courts and trumps among them.
    assert plain_sheds_more > len(views) // 2


def test_the_discards_take_other_cards_when_the_dealers_own_cannot_fill_them() -> None:
    game = TarotGame()
    views = _decisions_of_a_seat_beside_the_dealer(seed=1)
    # A dealer said to discard from two cards only: no deal keeps to that, so the rules decide.
    style = dataclasses.replace(tarot.STYLE, discarded_from=frozenset(sorted(NUMERALS)[:2]))
    for view in views[:: len(views) // 5]:
        reading = Reading(game, style, view)
        assert reading.hidden.masks == game.hidden_deal(view)[1].masks
        world = next(reading.worlds(random.Random(7)))
        assert game.view(world, 0) == view and len(world.discards) == 3
