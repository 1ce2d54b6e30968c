"""render/: the grid picture, card sprites and fonts, checked on real pixels of real game views."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from core.cards import deck36
from core.engine import Outcome, resolve_chance
from core.games.grid import GridState, GridView, cell_code
from core.registry import GAMES
from render import board, cards, grid, pips, seats
from render.board import geometry
from render.fonts import font, has_glyph, printable
from render.grid import render_grid, steps_text
from render.seats import player_name

GAME = GAMES["grid"]
NAMES = ("Алиса", "Борис")


def play(players: int, seed: int, moves: int) -> GridState:
    """Deal with a seeded generator, then make up to `moves` random legal moves."""
    rng = random.Random(seed)
    state, _ = resolve_chance(GAME, GAME.new(players), rng)
    for _ in range(moves):
        seats = GAME.to_move(state)
        if not seats:
            break
        state = GAME.apply(state, seats[0], rng.choice(GAME.legal_actions(state, seats[0]))).state
    state_out: GridState = state
    return state_out


def public(state: GridState) -> GridView:
    view: GridView = GAME.view(state, None)
    return view


@pytest.fixture(scope="module")
def mid() -> GridView:
    view = public(play(2, 3, 8))
    # The checks below need both tokens out, something to highlight and something not to.
    assert all(token is not None for token in view.tokens)
    assert view.steps is not None and view.reachable
    assert any(face is None and i not in view.reachable for i, face in enumerate(view.faces))
    return view


@pytest.fixture(scope="module")
def finished() -> GridView:
    view = public(play(2, 5, 200))
    assert view.outcome is not None and view.aside is not None
    return view


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def cell_crop(img: Image.Image, view: GridView, index: int, size: int = 1000) -> Image.Image:
    geo = geometry(view.layout, size)
    x, y = geo.cell_xy(view.layout[index])
    return img.crop((x, y, x + geo.card_w, y + geo.card_h))


Pixel = tuple[int, ...]


def pixels(img: Image.Image) -> list[Pixel]:
    return [p for p in img.get_flattened_data() if isinstance(p, tuple)]


def count(img: Image.Image, test: Callable[[Pixel], bool]) -> int:
    return sum(1 for pixel in pixels(img) if test(pixel))


# ----- the picture -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [1000, 640])
@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 1, 0), (2, 3, 8), (1, 7, 6), (2, 5, 200)])
def test_decodes_with_the_long_side_equal_to_size(players: int, seed: int, moves: int, size: int) -> None:
    img = decode(render_grid(public(play(players, seed, moves)), names=NAMES, size=size))
    assert max(img.size) == size
    assert min(img.size) > size // 2


def test_mid_game_fits_the_byte_budget(mid: GridView) -> None:
    for theme in grid.THEMES:
        for lang in ("ru", "en"):
            assert len(render_grid(mid, names=NAMES, theme=theme, lang=lang)) <= 80 * 1024


def test_deterministic_even_with_cold_caches(mid: GridView) -> None:
    first = render_grid(mid, names=NAMES)
    assert render_grid(mid, names=NAMES) == first
    for cached in (
        cards.card_face,
        cards.card_back,
        board.background,
        grid.palette,
        seats.token_disc,
        grid.board,
    ):
        cached.cache_clear()
    assert render_grid(mid, names=NAMES) == first


def test_reachable_cells_are_highlighted(mid: GridView) -> None:
    img = decode(render_grid(mid, names=NAMES))
    geo = geometry(mid.layout, 1000)
    closed = [i for i, face in enumerate(mid.faces) if face is None]
    lit = [i for i in closed if i in mid.reachable]
    dark = [i for i in closed if i not in mid.reachable]

    def halo(index: int) -> Image.Image:
        # The card plus a rim around it, where the glow shows.
        x, y = geo.cell_xy(mid.layout[index])
        rim = round(geo.card_w * 0.05)
        return img.crop((x - rim, y - rim, x + geo.card_w + rim, y + geo.card_h + rim))

    # Every highlighted cell differs from every plain closed one; plain closed cells look alike.
    for a in lit:
        for b in dark:
            assert ImageChops.difference(halo(a), halo(b)).getbbox() is not None
    glow = grid.THEMES["classic"].board.glow

    def glowing(p: Pixel) -> bool:
        return abs(p[0] - glow[0]) < 40 and abs(p[1] - glow[1]) < 40 and abs(p[2] - glow[2]) < 60

    assert min(count(halo(i), glowing) for i in lit) > 10 * max(1, max(count(halo(i), glowing) for i in dark))


def test_an_open_red_card_has_red_pixels(mid: GridView) -> None:
    img = decode(render_grid(mid, names=NAMES))

    def red(p: Pixel) -> bool:
        return p[0] > 150 and p[1] < 80 and p[2] < 90

    shown = {face[-1]: i for i, face in enumerate(mid.faces) if face is not None}
    red_cells = [i for i, face in enumerate(mid.faces) if face is not None and face[-1] in "HD"]
    black_cells = [i for i, face in enumerate(mid.faces) if face is not None and face[-1] in "SC"]
    assert red_cells and shown
    for index in red_cells:
        assert count(cell_crop(img, mid, index), red) > 100
    for index in black_cells:
        assert count(cell_crop(img, mid, index), red) < 10


def test_tokens_are_drawn_in_their_seat_colours(mid: GridView) -> None:
    img = decode(render_grid(mid, names=NAMES))

    def near(colour: tuple[int, int, int]) -> Callable[[Pixel], bool]:
        return lambda p: sum(abs(p[k] - colour[k]) for k in range(3)) < 60

    for seat, index in enumerate(mid.tokens):
        assert index is not None
        crop = cell_crop(img, mid, index)
        assert count(crop, near(seats.SEAT_COLOURS[seat])) > 300
        assert count(crop, near(seats.SEAT_COLOURS[1 - seat])) < 20


def test_the_finished_game_shows_the_unused_card(finished: GridView) -> None:
    with_aside = decode(render_grid(finished, names=NAMES))
    without = decode(render_grid(finished.model_copy(update={"aside": None}), names=NAMES))
    geo = geometry(finished.layout, 1000)
    header_right = (with_aside.width * 3 // 4, 0, with_aside.width, geo.header)
    assert ImageChops.difference(with_aside.crop(header_right), without.crop(header_right)).getbbox()
    # The field itself is the same picture.
    field = (0, geo.header, with_aside.width, with_aside.height)
    assert ImageChops.difference(with_aside.crop(field), without.crop(field)).getbbox() is None


def test_a_long_name_in_the_result_stops_before_the_unused_card(finished: GridView) -> None:
    """The result line and the unused card's label share the header's top row: however long the
    winner's name, the line is cut before the label."""
    geo = geometry(finished.layout, 1000)
    top = (0, 0, 1000, geo.header // 2)

    def drawn(names: tuple[str, ...], view: GridView = finished) -> Image.Image:
        return decode(render_grid(view, names=names)).crop(top)

    label = ImageChops.difference(drawn(NAMES), drawn(NAMES, finished.model_copy(update={"aside": None})))
    result = ImageChops.difference(drawn(("Ж" * 32, "Ж" * 32)), drawn(("Щ" * 32, "Щ" * 32)))
    label_box, result_box = label.getbbox(), result.getbbox()
    assert label_box is not None and result_box is not None
    assert result_box[2] < label_box[0]


def test_language_and_theme_change_the_picture(mid: GridView) -> None:
    ru = render_grid(mid, names=NAMES, lang="ru")
    assert render_grid(mid, names=NAMES, lang="en") != ru
    assert render_grid(mid, names=NAMES, theme="dark") != ru
    with pytest.raises(ValueError, match="theme"):
        render_grid(mid, theme="neon")


def test_the_layout_is_data_not_a_fixed_five_by_seven() -> None:
    # A wide 2 x 9 field with a gap: landscape, long side still `size`, every cell drawn.
    layout = tuple((r, c) for r in range(2) for c in range(9) if (r, c) != (1, 4))
    deck = deck36()
    view = GridView(
        seat=None,
        players=2,
        layout=layout,
        faces=tuple(deck[i] if i % 3 == 0 else None for i in range(len(layout))),
        tokens=(0, 3),
        to_move=1,
        steps=2,
        reachable=(1, 2),
        last_opened=3,
        closed=sum(1 for i in range(len(layout)) if i % 3),
        outcome=None,
        aside=None,
    )
    img = decode(render_grid(view, size=800))
    assert img.size[0] == 800 > img.size[1]
    geo = geometry(layout, 800)
    assert (geo.rows, geo.cols) == (2, 9)
    x, y = geo.cell_xy((1, 8))
    assert x + geo.card_w <= img.width and y + geo.card_h <= img.height


def test_labels_follow_the_button_codes() -> None:
    # The picture labels columns with cell_code's letters and rows with its numbers.
    assert cell_code((2, 3)) == "D3"
    assert [cell_code((0, c))[:-1] for c in range(7)] == list("ABCDEFG")
    assert [cell_code((r, 0))[1:] for r in range(5)] == ["1", "2", "3", "4", "5"]


def test_header_texts() -> None:
    assert [steps_text(n, "ru") for n in (1, 2, 4, 5, 10, 11, 21)] == [
        "1 шаг", "2 шага", "4 шага", "5 шагов", "10 шагов", "11 шагов", "21 шаг",
    ]  # fmt: skip
    assert steps_text(1, "en") == "1 step" and steps_text(3, "en") == "3 steps"
    assert player_name(0, (), "ru") == "Игрок 1"
    assert player_name(1, ("A",), "en") == "Player 2"
    assert player_name(0, ("Алиса 🎲",), "ru") == "Алиса"
    assert player_name(0, ("🎲",), "en") == "Player 1"
    # Invisible formatting is dropped: a right-to-left override would draw the name backwards.
    assert player_name(0, ("\u202eBob",), "en") == "Bob"
    assert player_name(0, ("\u202e\u200f",), "en") == "Player 1"


def test_solo_results() -> None:
    solo = public(play(1, 7, 6)).model_copy(update={"to_move": None, "reachable": (), "steps": None})
    won = render_grid(solo.model_copy(update={"outcome": Outcome(winners=(0,))}))
    lost = render_grid(solo.model_copy(update={"outcome": Outcome(winners=(), losers=(0,))}))
    assert won != lost


# ----- fonts -------------------------------------------------------------------------------------


def test_cyrillic_renders_as_real_glyphs() -> None:
    face = font(32)
    assert face.getlength("Ход: любая закрытая карта") > 0
    notdef = face.getmask("\ue000")
    for letter in "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя":
        assert has_glyph(letter), letter
        mask = face.getmask(letter)
        assert (mask.size, bytes(mask)) != (notdef.size, bytes(notdef))
    assert not has_glyph("\ue000") and not has_glyph("😀")
    assert printable("Ж 😀 ok") == "Ж ok"
    assert font(32) is face and font(32, bold=True) is not face


# ----- sprites -----------------------------------------------------------------------------------


def test_sprites_are_cached_and_shaped_right() -> None:
    face = cards.card_face("QH", 100, 140)
    assert cards.card_face("QH", 100, 140) is face
    assert cards.card_back(100, 140) is cards.card_back(100, 140)
    assert face.size == (100, 140) and face.mode == "RGBA"
    # Rounded corners are transparent, the middle is opaque.
    alpha = face.getchannel("A")
    assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((50, 70)) == 255
    assert cards.card_face("QH", 100, 140, "ru").tobytes() != face.tobytes()  # Д, not Q
    for card in deck36():
        assert cards.card_face(card, 60, 84).size == (60, 84)


def test_pips_are_shapes_in_suit_colours() -> None:
    for suit, colour in (("H", pips.RED), ("D", pips.RED), ("S", pips.BLACK), ("C", pips.BLACK)):
        pip = pips.pip_sprite(suit, 60)
        opaque = [p for p in pixels(pip) if p[3] == 255]
        assert len(opaque) > 0.3 * pip.width * pip.height
        assert all(p[:3] == colour for p in opaque)
    # The four shapes differ from each other.
    shapes = {pips.pip_sprite(s, 60, (0, 0, 0)).tobytes() for s in "SCDH"}
    assert len(shapes) == 4


def test_second_render_reuses_the_cache(mid: GridView) -> None:
    cards.card_face.cache_clear()
    board.background.cache_clear()
    grid.board.cache_clear()
    render_grid(mid, names=NAMES, size=900)
    misses = cards.card_face.cache_info().misses
    tiles = grid.board(mid.layout, 900, "classic", "ru").tiles
    drawn = len(tiles)
    render_grid(mid, names=NAMES, size=900)
    assert cards.card_face.cache_info().misses == misses  # every face came from the cache
    assert len(tiles) == drawn  # and every tile
    assert board.background.cache_info().hits >= 1


# ----- the picture from tiles --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seed", "moves", "size"), [(2, 1, 0, 640), (2, 3, 8, 1000), (2, 5, 200, 1000)]
)
def test_tiles_make_the_same_picture_as_drawing_it_whole(
    players: int, seed: int, moves: int, size: int
) -> None:
    view = public(play(players, seed, moves))
    whole = grid.compose_grid(view, names=NAMES, size=size)
    mapped = whole.quantize(palette=grid.palette(view.layout, size, "classic"), dither=Image.Dither.NONE)
    tiled = grid.compose_indexed(view, names=NAMES, size=size)
    assert tiled.mode == "P" and tiled.size == whole.size
    assert tiled.tobytes() == mapped.tobytes()
    assert tiled.getpalette() == mapped.getpalette()


def test_a_turn_changes_only_the_cells_that_changed(mid: GridView) -> None:
    # The same field with one more card opened elsewhere and no highlight: only that card's and the
    # highlighted cells' surroundings (card plus glow) and the header may differ.
    closed = next(i for i, face in enumerate(mid.faces) if face is None and i not in mid.reachable)
    opened = mid.model_copy(
        update={"faces": tuple("AS" if i == closed else f for i, f in enumerate(mid.faces)), "reachable": ()}
    )
    before, after = render_grid(mid, names=NAMES), render_grid(opened, names=NAMES)
    assert before != after
    diff = ImageChops.difference(decode(before), decode(after))
    geo = geometry(mid.layout, 1000)
    spread = cards.glow_spread(geo.card_w)
    allowed = Image.new("1", diff.size, 0)
    allowed.paste(1, (0, 0, geo.width, geo.header))
    for index in (closed, *mid.reachable):
        x, y = geo.cell_xy(mid.layout[index])
        allowed.paste(1, (x - spread, y - spread, x + geo.card_w + spread, y + geo.card_h + spread))
        assert cell_crop(diff, mid, index).getbbox() is not None  # every changed cell did change
    outside = ImageChops.multiply(
        diff.convert("L").point(lambda v: 255 if v else 0), ImageChops.invert(allowed.convert("L"))
    )
    assert outside.getbbox() is None


def test_coins_take_russian_plurals() -> None:
    from render.text import balance_text

    assert balance_text(981, "ru") == "На счёте: 981 монета"
    assert balance_text(193, "ru") == "На счёте: 193 монеты"
    assert balance_text(12_345, "ru") == "На счёте: 12\u202f345 монет"
    assert balance_text(1, "en") == "Balance: 1 coin" and balance_text(11, "en") == "Balance: 11 coins"
