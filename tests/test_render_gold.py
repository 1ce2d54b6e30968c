"""render/gold.py: McSweeney's Gold map, checked on real pixels of real game views."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from core.engine import CHANCE
from core.games.gold import CODES, GO, GoldGame, GoldState, GoldView
from render import gold, treasure
from render.gold import geometry, render_gold

GAME = GoldGame()


def marked_state(seed: int, marks: int, bet: int = 40) -> GoldState:
    rng = random.Random(seed)
    state: GoldState = GAME.apply(GAME.new(1, {"bet": bet}), CHANCE, f"deal:{seed}").state
    for cell in rng.sample(range(49), marks):
        state = GAME.apply(state, 0, CODES[cell]).state
    return state


def view(state: GoldState) -> GoldView:
    seen: GoldView = GAME.view(state, 0)
    return seen


@pytest.fixture(scope="module")
def before() -> GoldView:
    return view(marked_state(11, 7))


@pytest.fixture(scope="module")
def after() -> GoldView:
    return view(GAME.apply(marked_state(11, 7), 0, GO).state)


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def cell(img: Image.Image, index: int, size: int = 1000, inset: float = 0.0) -> Image.Image:
    """A cell's square, or with `inset` its middle only (where the route's dashes never go)."""
    geo = geometry(size)
    x, y = geo.cell_xy(index)
    cut = round(geo.cell * inset)
    return img.crop((x + cut, y + cut, x + geo.cell - cut, y + geo.cell - cut))


def differs(a: Image.Image, b: Image.Image, share: float = 0.05) -> bool:
    """Whether more than `share` of the pixels differ noticeably."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255] > share * a.width * a.height


@pytest.mark.parametrize("size", [1000, 640])
def test_sizes_and_budget(before: GoldView, after: GoldView, size: int) -> None:
    for seen, shown in ((before, None), (after, 0), (after, 3), (after, None)):
        for lang in ("ru", "en"):
            data = render_gold(seen, shown=shown, lang=lang, size=size, balance=12_345)
            img = decode(data)
            assert max(img.size) == size and min(img.size) > size * 0.7
            assert len(data) <= 80 * 1024
            assert Image.open(io.BytesIO(data)).mode == "P"


def test_deterministic_even_with_cold_caches(after: GoldView) -> None:
    first = render_gold(after, shown=4, balance=100)
    assert render_gold(after, shown=4, balance=100) == first
    for cached in (gold.background, gold.palette, gold.cell_sprite, treasure.symbol_sprite, gold.order_badge):
        cached.cache_clear()
    assert render_gold(after, shown=4, balance=100) == first


def test_marked_cells_show_their_order() -> None:
    three = decode(render_gold(view(marked_state(5, 3))))
    four = decode(render_gold(view(marked_state(5, 4))))
    first_marks = view(marked_state(5, 4)).marked
    for index in first_marks[:3]:
        assert not differs(cell(three, index, inset=0.25), cell(four, index, inset=0.25), 0.0)
    assert differs(cell(three, first_marks[3]), cell(four, first_marks[3]))
    # Different order numbers on the same cell look different.
    empty = decode(render_gold(view(marked_state(5, 0))))
    assert differs(cell(empty, first_marks[0]), cell(three, first_marks[0]))


def test_reveal_steps_open_one_cell_each(after: GoldView) -> None:
    shots = [decode(render_gold(after, shown=n)) for n in range(8)]
    for n in range(1, 8):
        index = after.marked[n - 1]
        assert differs(cell(shots[n - 1], index), cell(shots[n], index))
        for later in after.marked[n:]:
            assert not differs(cell(shots[n - 1], later), cell(shots[n], later), 0.0)
        # The header (running sum, Z, step text) changes with every step.
        header = (0, 0, shots[n].width, geometry(1000).header)
        assert differs(shots[n - 1].crop(header), shots[n].crop(header), 0.001)


def test_end_reveals_every_unmarked_cell(before: GoldView, after: GoldView) -> None:
    assert after.layout is not None
    closed, over = decode(render_gold(before)), decode(render_gold(after))
    for index in range(49):
        if index not in after.marked:
            assert differs(cell(closed, index), cell(over, index)), index
    # Mid-reveal the rest of the field stays closed.
    mid = decode(render_gold(after, shown=6))
    for index in range(49):
        if index not in after.marked:
            assert not differs(cell(closed, index), cell(mid, index), 0.0)


def test_every_symbol_looks_different() -> None:
    sprites = [treasure.symbol_sprite(code, 64).convert("RGB") for code in treasure.CODES]
    for i, a in enumerate(sprites):
        for b in sprites[i + 1 :]:
            assert differs(a, b, 0.02)


def test_cyrillic_is_drawn() -> None:
    ru = decode(render_gold(view(marked_state(3, 2)), lang="ru"))
    en = decode(render_gold(view(marked_state(3, 2)), lang="en"))
    header = (0, 0, ru.width, geometry(1000).header)
    assert differs(ru.crop(header), en.crop(header), 0.005)
    assert gold.symbol_text("bag", "ru") == "Мешок с деньгами +100"


def test_the_words_are_the_bots(before: GoldView, after: GoldView) -> None:
    # A full route: the picture names the button that sends it, in the button's own words.
    assert gold.send_button("ru") == "Отправить экспедицию"
    assert gold.send_button("en") == "Send the expedition"
    text, _ = gold.status_text(before, 0, "ru")
    assert "«Отправить экспедицию»" in text
    # The result and the running tally say "tour sum", never "T =".
    assert gold.tour_sum(61, "ru") == "Сумма тура: 61" and gold.tour_sum(61, "en") == "Tour sum: 61"
    assert gold.payout_text(981, 941, "ru") == "Выплата: 981 монета (+941)"
    assert gold.payout_text(193, 153, "ru") == "Выплата: 193 монеты (+153)"
    shots = [decode(render_gold(after, shown=n, lang=lang)) for n in (3, None) for lang in ("ru", "en")]
    header = (0, 0, shots[0].width, geometry(1000).header)
    assert differs(shots[0].crop(header), shots[1].crop(header), 0.005)
    assert differs(shots[2].crop(header), shots[3].crop(header), 0.005)
