"""render/bandit.py: the slot machine still and the spin GIF, checked on real pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageSequence

from core.engine import CHANCE
from core.games.bandit import REEL_OUTCOMES, STRIP, BanditGame, BanditView
from render import bandit, pirate
from render.bandit import reels, render_bandit, render_spin_animation
from render.draw import paste

GAME = BanditGame()


def pull(stops: tuple[int, int, int] | tuple[()], rank: int = 0) -> BanditView:
    state = GAME.new(1, {"rank": rank})
    for reel, stop in enumerate(stops):
        state = GAME.apply(state, CHANCE, REEL_OUTCOMES[reel][stop]).state
    seen: BanditView = GAME.view(state, 0)
    return seen


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    gif = Image.open(io.BytesIO(data))
    return [(frame.convert("RGB"), int(frame.info["duration"])) for frame in ImageSequence.Iterator(gif)]


def distance(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0-255."""
    hist = ImageChops.difference(a, b).convert("L").histogram()
    return sum(value * count for value, count in enumerate(hist)) / (a.width * a.height)


def payline_cell(img: Image.Image, reel: int, top: int, width: int) -> Image.Image:
    """The payline cell of a reel, inside the win frame (which only some results draw)."""
    geo = reels(width)
    x0, y0, x1, y1 = geo.cell(reel, 1)
    inset = round(geo.row * 0.15)
    return img.crop((x0 + inset, y0 + top + inset, x1 - inset, y1 + top - inset))


def reference(code: str, width: int) -> Image.Image:
    """What a reel's payline cell shows for `code` when it stops: the sprite on the reel's ivory."""
    geo = reels(width)
    img = Image.new("RGB", (width, geo.height), pirate.IVORY)
    icon = round(geo.row * 0.84)
    x0, y0, _, _ = geo.cell(0, 1)
    paste(img, pirate.symbol_sprite(code, icon), (x0 + (geo.reel_w - icon) // 2, y0 + (geo.row - icon) // 2))
    return payline_cell(img, 0, 0, width)


CASES = [((0, 1, 6), 0), ((0, 6, 11), 3), ((3, 9, 15), 4), ((3, 9, 15), 8), ((2, 4, 7), 6), ((18, 12, 28), 0)]


@pytest.mark.parametrize("size", [1000, 640])
@pytest.mark.parametrize(("stops", "rank"), CASES)
def test_still_sizes_and_budget(stops: tuple[int, int, int], rank: int, size: int) -> None:
    for lang in ("ru", "en"):
        data = render_bandit(pull(stops, rank), lang=lang, size=size, free_left=3, balance=12_345)
        img = decode(data)
        assert img.height == size and img.width == round(size * 0.8)
        assert len(data) <= 80 * 1024


def test_spinning_view_renders() -> None:
    img = decode(render_bandit(pull(())))
    assert img.height == 1000


def test_still_deterministic_with_cold_caches() -> None:
    view = pull((3, 9, 15), 4)
    first = render_bandit(view, free_left=1, balance=50)
    assert render_bandit(view, free_left=1, balance=50) == first
    for cached in (
        bandit.backdrop,
        bandit.strip_image,
        pirate.symbol_sprite,
        pirate.emblem,
        bandit.window_art,
    ):
        cached.cache_clear()
    assert render_bandit(view, free_left=1, balance=50) == first


def test_every_symbol_and_emblem_differs() -> None:
    codes = sorted(set(STRIP))
    sprites = [pirate.symbol_sprite(code, 64).convert("RGB") for code in codes]
    emblems = [pirate.emblem(rank, 96).convert("RGB") for rank in range(10)]
    for group in (sprites, emblems):
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                assert distance(a, b) > 3


def test_still_payline_shows_the_stops() -> None:
    view = pull((24, 12, 7))
    img = decode(render_bandit(view))
    geo = bandit.layout(1000)
    for reel, stop in enumerate((24, 12, 7)):
        shown = payline_cell(img, reel, geo.reels_y, geo.width)
        nearest = min(set(STRIP), key=lambda code: distance(shown, reference(code, geo.width)))
        assert nearest == STRIP[stop]


def test_career_step_and_win_change_the_picture() -> None:
    plain = decode(render_bandit(pull((2, 4, 7), 4)))
    step = decode(render_bandit(pull((3, 9, 15), 4)))
    win = decode(render_bandit(pull((0, 6, 11), 4)))
    geo = bandit.layout(1000)
    career = (0, geo.career[0], geo.width, geo.career[1])
    banner = (0, geo.banner[0], geo.width, geo.banner[1])
    assert distance(plain.crop(career), step.crop(career)) > 2  # new rank picture, title, episode
    assert distance(plain.crop(banner), step.crop(banner)) > 10
    assert distance(plain.crop(banner), win.crop(banner)) > 10


def test_cyrillic_is_drawn() -> None:
    view = pull((2, 4, 7), 4)
    ru, en = decode(render_bandit(view, lang="ru")), decode(render_bandit(view, lang="en"))
    title = (0, 0, ru.width, bandit.layout(1000).title)
    assert distance(ru.crop(title), en.crop(title)) > 2


@pytest.mark.parametrize("stops", [(0, 6, 11), (18, 25, 3), (31, 0, 16)])
def test_gif_ends_on_the_stops(stops: tuple[int, int, int]) -> None:
    view = pull(stops)
    data = render_spin_animation(view)
    shots = frames(data)
    last, hold = shots[-1]
    assert last.width == 640
    top = bandit.layout(800).reels_y
    for reel, stop in enumerate(stops):
        shown = payline_cell(last, reel, top, 640)
        nearest = min(set(STRIP), key=lambda code: distance(shown, reference(code, 640)))
        assert nearest == STRIP[stop]
    # Reels stop left to right: a frame where only the first reel rests already shows its stop.
    first_rest = shots[bandit.STOP_AT[0]][0]
    assert distance(payline_cell(first_rest, 0, top, 640), payline_cell(last, 0, top, 640)) < 3
    assert distance(payline_cell(first_rest, 2, top, 640), payline_cell(last, 2, top, 640)) > 3
    assert hold >= 800


def test_gif_limits() -> None:
    view = pull((3, 9, 15), 2)
    data = render_spin_animation(view)
    shots = frames(data)
    assert 10 <= len(shots) <= 20
    assert 1500 <= sum(ms for _, ms in shots) <= 2600
    assert len(data) <= 400 * 1024
    assert render_spin_animation(view) == data


def test_gif_refuses_a_spinning_view() -> None:
    with pytest.raises(ValueError):
        render_spin_animation(pull(()))


@pytest.mark.parametrize(("stops", "rank"), CASES)
def test_the_gif_ends_on_the_still(stops: tuple[int, int, int], rank: int) -> None:
    view = pull(stops, rank)
    for lang in ("ru", "en"):
        still = decode(render_bandit(view, lang=lang, size=800, free_left=2, balance=981))
        last, _ = frames(render_spin_animation(view, lang=lang, size=800, free_left=2, balance=981))[-1]
        assert ImageChops.difference(still, last).getbbox() is None


def test_the_banner_says_what_the_captions_say() -> None:
    assert bandit.banner_text(pull((2, 4, 7), 4), "ru") == "На этот раз без выигрыша."
    assert bandit.banner_text(pull((2, 4, 7), 4), "en") == "No win this time."
    win = pull((0, 6, 11), 4)
    assert win.win == 150 and bandit.banner_text(win, "ru") == "Выигрыш: 150 монет"
    step = pull((3, 9, 15), 4)
    assert bandit.banner_text(step, "ru") == f"Три свитка! Бонус +{step.bonus}"
    assert bandit.banner_text(pull(()), "en") == "The reels are spinning…"
