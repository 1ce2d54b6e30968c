"""Game 2: a card that was face up and an effect closed again is known to every player, and the
view, the sampled deals and the reshuffles of the hidden cards keep it where it lies."""

from __future__ import annotations

import random

from core.ai.random_player import RandomPlayer
from core.games.grid_tarot import GridTarotState
from core.play import play
from tests.tarot_fields import GAME, cells_view, code, field, index, move


def seen(state: GridTarotState) -> dict[int, str]:
    return {i: card for i, card in enumerate(cells_view(state).seen) if card is not None}


def deathly() -> GridTarotState:
    """Death at (3,8) closes the free 3W at (3,1) and 5W at (0,8); (6,2) was never seen."""
    state = field(
        cards={(0, 7): "4S", (3, 8): "T13", (3, 1): "3W", (0, 8): "5W"},
        closed=[(3, 8), (6, 2)],
        tokens=[[(0, 7)], [(5, 8)]],
    )
    after: GridTarotState = move(state, 0, "1.I4").state
    return after


def test_cards_an_effect_closes_are_seen_by_everyone() -> None:
    state = deathly()
    expected = {index((3, 1)): "3W", index((0, 8)): "5W"}
    assert seen(state) == expected
    for seat in (0, 1):
        assert {i: c for i, c in enumerate(GAME.view(state, seat).seen) if c is not None} == expected
    # The card nobody has seen stays hidden.
    assert cells_view(state).seen[index((6, 2))] is None


def test_a_sampled_deal_keeps_the_seen_cards_in_place() -> None:
    state = deathly()
    view = GAME.view(state, 1)
    for number in range(5):
        sample = GAME.sample(view, random.Random(number))
        assert sample.cards[index((3, 1))] == "3W" and sample.cards[index((0, 8))] == "5W"
        assert sample.cards[index((6, 2))] not in {"3W", "5W", "4S", "T13"}
        assert GAME.view(sample, 1) == view


def test_reshuffling_the_hidden_cards_leaves_the_seen_ones() -> None:
    state = field(
        cards={(0, 7): "4S", (3, 8): "T13", (3, 1): "3W", (0, 8): "5W"},
        closed=[(3, 8), *((2, c) for c in range(13))],
        tokens=[[(0, 7)], [(5, 8)]],
    )
    state = move(state, 0, "1.I4").state
    moved = 0
    for number in range(5):
        other = GAME.shuffle_hidden(state, 1, random.Random(number))
        assert other.cards[index((3, 1))] == "3W" and other.cards[index((0, 8))] == "5W"
        moved += other.cards != state.cards
    assert moved


def test_turning_a_seen_card_up_again_forgets_it() -> None:
    state = field(
        cards={(3, 8): "T13", (3, 9): "AW", (0, 8): "5W", (3, 10): "2S"},
        closed=[(3, 8), (3, 12)],
        tokens=[[(3, 9)], [None]],
    )
    state = move(state, 0, "1." + code((3, 8))).state
    assert set(seen(state)) == {index(cell) for cell in ((3, 9), (0, 8), (3, 10))}
    state = move(state, 1, "1." + code((3, 10))).state
    assert set(seen(state)) == {index(cell) for cell in ((3, 9), (0, 8))}
    # Death gives 5 steps: (3,8) to (3,9) is 1 away, 5 - 1 is even.
    state = move(state, 0, "1." + code((3, 9))).state
    assert index((3, 9)) not in seen(state) and cells_view(state).faces[index((3, 9))] == "AW"


def hanged(known: list[tuple[int, int]]) -> GridTarotState:
    """E2.10's field (free 2W at (0,5); closed KC at (6,8) and a card at (1,4)), the Hanged Man
    turned up, with the listed closed cells already seen."""
    state = field(
        cards={(4, 2): "5P", (4, 7): "T12", (0, 5): "2W", (6, 8): "KC", (6, 10): "T0"},
        closed=[(4, 7), (6, 8), (1, 4)],
        tokens=[[(6, 10)], [(4, 2)]],
        turn=1,
    )
    state = state.model_copy(update={"known": tuple(sorted(index(cell) for cell in known))})
    state = move(state, 1, "1." + code((4, 7))).state
    chosen: GridTarotState = move(state, 1, "f.F1").state
    return chosen


def test_a_seen_card_swapped_by_the_hanged_man_stays_known_where_it_goes() -> None:
    after = move(hanged([(6, 8)]), 1, "c.I7").state
    assert seen(after) == {index((0, 5)): "KC"}


def test_an_unseen_card_swapped_stays_unknown_and_others_stay_known() -> None:
    after = move(hanged([(6, 8)]), 1, "c.E2").state
    assert seen(after) == {index((6, 8)): "KC"}
    assert cells_view(after).seen[index((0, 5))] is None


def test_seen_cards_are_exactly_the_closed_ones_once_face_up() -> None:
    """Along random games, a closed card is in the view's `seen` exactly when an earlier view
    showed it face up at that position or followed it there through a swap."""
    found = 0
    for number in range(6):
        for turn in play(GAME, [RandomPlayer()] * 2, random.Random(number)):
            view = GAME.view(turn.before, 0)
            for i, card in enumerate(view.seen):
                if card is not None:
                    found += 1
                    assert view.cells[i] == "closed" and turn.before.cards[i] == card
    assert found
