"""The Tarot card grid's picture (render/grid_tarot.py): states along seeded games render, small,
and the picture shows what the view says (glowing destinations, tokens, covered cards, pools)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageStat

from core.ai.random_player import RandomPlayer
from core.engine import Outcome
from core.games.grid_tarot import GridTarotView
from core.games.grid_tarot_rules import BOARD
from core.play import play
from render.board import Token, cell_badge, geometry
from render.grid_tarot import (
    cell_looks,
    changed_cells,
    compose,
    compose_indexed,
    render_grid_tarot,
    task_parts,
)
from render.seats import seat_colour
from tests.tarot_fields import GAME, cells_view, field, index, move

#: The turn picture's budget: a phone downloads it at once.
MOST_BYTES = 150 * 1024
NAMES = ("Alice", "Bob", "🤖 Eve", "Dan")


def views_of_a_game(players: int, tokens: int, seed: int) -> list[GridTarotView]:
    turns = play(GAME, [RandomPlayer()] * players, random.Random(seed), options={"tokens": tokens})
    return [GAME.view(turn.step.state, None) for turn in turns]


@pytest.mark.parametrize(("players", "tokens"), [(1, 1), (2, 2), (4, 1), (3, 2)])
def test_pictures_along_a_game_render_small(players: int, tokens: int) -> None:
    views = views_of_a_game(players, tokens, seed=players * 10 + tokens)
    picked = [views[0], views[len(views) // 3], views[2 * len(views) // 3], views[-1]]
    for lang in ("ru", "en"):
        for view in picked:
            data = render_grid_tarot(view, names=NAMES[:players], lang=lang, size=1000)
            assert len(data) < MOST_BYTES
            img = Image.open(io.BytesIO(data))
            assert img.mode == "P" and img.width == 1000
            assert img.height > geometry(view.layout, 1000).height  # the pools' band below the field


def test_smaller_sizes_render_too() -> None:
    view = views_of_a_game(2, 1, seed=3)[-1]
    for size in (480, 720):
        img = Image.open(io.BytesIO(render_grid_tarot(view, names=NAMES[:2], lang="ru", size=size)))
        assert img.width == size


def test_the_tiles_are_the_picture_drawn_from_scratch() -> None:
    """The palette picture of cached tiles matches the full-colour picture mapped to the palette."""
    view = views_of_a_game(2, 2, seed=7)[40]
    tiled = compose_indexed(view, names=NAMES[:2], lang="en", size=600).convert("RGB")
    fresh = compose(view, names=NAMES[:2], lang="en", size=600)
    assert tiled.size == fresh.size
    # Mapped onto the palette the colours move a little; the layout may not.
    diff = ImageStat.Stat(ImageChops.difference(tiled, fresh)).mean
    assert sum(diff) / 3 < 12


def test_the_looks_follow_the_view() -> None:
    """E2.4's field after the Star: the destination glows with its code, the Tower is covered, the
    token stands on the covered card, cards out of reach are dimmed, the Centre is a hole."""
    state = field(
        cards={(5, 6): "T16", (0, 6): "2W"},
        closed=[(5, 9), (0, 8), (4, 6)],
        tokens=[[(0, 6)], [(5, 6)]],
        pools=[(), ("T17",)],
        turn=1,
    )
    state = move(state, 1, "1.star").state
    looks = cell_looks(cells_view(state))
    target = looks[index((5, 9))]
    assert target.glow and target.badge == "J6" and not target.dimmed
    assert looks[index((0, 8))].dimmed and not looks[index((0, 8))].glow
    assert looks[index((3, 6))].state == "hole"
    assert [token.seat for token in looks[index((5, 6))].tokens] == [1]
    assert looks[index((1, 1))].state == "empty"
    after = move(state, 1, "1.J6").state
    covered = cell_looks(cells_view(after))[index((5, 6))]
    assert covered.state == "covered" and covered.cover == ("T17",) and covered.face == "T16"
    # A closed card shows no face: the look has nothing to draw it from.
    assert all(look.face is None for look in cell_looks(cells_view(after)) if look.state == "closed")


@pytest.mark.parametrize("tokens", [1, 2])
def test_a_badge_names_the_tokens_as_the_buttons_do(tokens: int) -> None:
    """With two tokens a player the buttons read "①E2": a reachable card's badge is led by the
    discs of the tokens that may end there (one or both); with one token, by none."""
    checked = 0
    for view in views_of_a_game(2, tokens, seed=5):
        if view.to_move is None or view.phase == "swap" or not view.reachable:
            continue
        reaching: dict[int, list[str]] = {}
        for number, cells in view.reachable:
            for cell in cells:
                reaching.setdefault(cell, []).append(str(number))
        looks = cell_looks(view, computers=frozenset({1}))
        for cell, look in enumerate(looks):
            if look.badge is None:
                continue
            checked += 1
            if tokens == 1:
                assert look.badge_tokens == ()
            else:
                assert [token.label for token in look.badge_tokens] == reaching[cell]
                assert {(token.seat, token.robot) for token in look.badge_tokens} == {
                    (view.to_move, view.to_move == 1)
                }
    assert checked > 0


def test_a_badge_with_tokens_leads_with_their_discs() -> None:
    plain = cell_badge("E2", (), 14)
    led = cell_badge("E2", (Token(0, "1"), Token(0, "2")), 14)
    assert led.width > plain.width + 14
    # The code's pill ends the badge; its left part shows the seat's colour.
    left = led.convert("RGB").crop((0, 0, led.width - plain.width, led.height))
    assert seat_colour(0) in {colour for _, colour in left.getcolors(maxcolors=4096) or []}


def test_the_fool_lights_every_closed_card_without_badges() -> None:
    state = field(
        cards={(3, 0): "T0"},
        closed=[c for c in BOARD.layout if c[0] <= 3 and c not in ((3, 0), (3, 6))],
        tokens=[[(3, 0)]],
    )
    looks = cell_looks(cells_view(state))
    lit = [look for look in looks if look.glow]
    assert len(lit) == sum(1 for look in looks if look.state == "closed") > 40
    assert all(look.badge is None and not look.dimmed for look in lit)
    assert task_parts(cells_view(state), "en") == ["to any closed card"]


def test_two_tokens_are_numbered_and_the_empress_is_marked() -> None:
    state = field(
        cards={(3, 0): "2W", (3, 12): "3C", (1, 1): "4S", (1, 11): "5S"},
        closed=[(3, 2), (2, 1), (2, 12), (0, 3)],
        tokens=[[(3, 0), (3, 12)], [(1, 1), (1, 11)]],
        empress=[(1, 1), (1, 2)],
    )
    view = cells_view(state)
    looks = cell_looks(view)
    assert [(t.seat, t.label) for t in looks[index((3, 12))].tokens] == [(0, "2")]
    assert [(t.seat, t.label) for t in looks[index((1, 1))].tokens] == [(1, "1")]
    # Bob's tokens move by the Empress: the picture (header) and the texts say so.
    plain = render_grid_tarot(view, names=NAMES[:2], lang="en", size=600)
    without = render_grid_tarot(
        cells_view(
            state.model_copy(
                update={"tokens": tuple(t.model_copy(update={"empress": False}) for t in state.tokens)}
            )
        ),
        names=NAMES[:2],
        lang="en",
        size=600,
    )
    assert plain != without


def test_the_hanged_mans_cards_glow_in_turn() -> None:
    """E2.10: first the free cards glow (F1 only), then the closed ones (E2, I7)."""
    state = field(
        cards={(4, 2): "5P", (4, 7): "T12", (0, 5): "2W", (6, 8): "KC", (6, 10): "T0"},
        closed=[(4, 7), (6, 8), (1, 4)],
        tokens=[[(6, 10)], [(4, 2)]],
        turn=1,
    )
    state = move(state, 1, "1.H5").state
    assert [look.badge for look in cell_looks(cells_view(state)) if look.glow] == ["F1"]
    state = move(state, 1, "f.F1").state
    assert [look.badge for look in cell_looks(cells_view(state)) if look.glow] == ["E2", "I7"]
    assert task_parts(cells_view(state), "en") == ["The Hanged Man: pick a closed card for F1"]
    # Once swapped, the picture rings both cards (and the Hanged Man, the card last turned up)
    # with the journal line that tells it.
    step = move(state, 1, "c.I7")
    ringed = [
        look.face for look in cell_looks(cells_view(step.state), changed_cells(step.events)) if look.ring
    ]
    assert sorted(ringed, key=str) == sorted([None, "2W", "T12"], key=str)


def test_two_tokens_with_one_task_are_told_once() -> None:
    state = field(cards={}, closed=[(0, 3), (1, 4)], tokens=[[None, None]])
    assert task_parts(cells_view(state), "en") == ["both tokens: onto any closed card"]
    state = move(state, 0, "2.D1").state
    assert task_parts(cells_view(state), "ru") == ["фишка 1: на любую закрытую карту"]


def test_a_closed_card_everyone_has_seen_shows_on_its_back() -> None:
    """An effect closed the Queen of Cups again: its back shows it; a card nobody has seen shows
    nothing."""
    state = field(
        cards={(0, 5): "2S", (6, 2): "AW"},
        closed={(0, 7): "QC", (0, 3): "4C"},
        tokens=[[(0, 5)], [(6, 2)]],
    ).model_copy(update={"known": (index((0, 7)),)})
    view = cells_view(state)
    looks = cell_looks(view)
    assert looks[index((0, 7))].seen == "QC" and looks[index((0, 3))].seen is None
    forgotten = cells_view(state.model_copy(update={"known": ()}))
    assert render_grid_tarot(view, names=NAMES[:2], lang="en", size=600) != render_grid_tarot(
        forgotten, names=NAMES[:2], lang="en", size=600
    )


def test_every_winner_is_named_with_their_token_however_long_the_names() -> None:
    """Three winners of long names: each keeps its token and the start of its name in the result
    line (a plain line cut at its end lost the third)."""
    final = views_of_a_game(4, 1, seed=41)[-1]
    won = final.model_copy(update={"outcome": Outcome(winners=(0, 1, 2), losers=(3,)), "teams": (0, 0, 0, 1)})
    long = ("Александр Сергеевич Пушкин", "Maximilian Alexander Habsburg", "Глеб Глебович Глебов", "Dan")
    renamed = (*long[:2], "Глеб Глебович Глебовский", "Dan")
    top = (0, 0, 1000, geometry(won.layout, 1000).header // 2)

    def header(names: tuple[str, ...]) -> Image.Image:
        return (
            Image.open(io.BytesIO(render_grid_tarot(won, names=names, lang="ru", size=1000)))
            .convert("RGB")
            .crop(top)
        )

    assert ImageChops.difference(header(long), header(renamed)).getbbox() is not None
