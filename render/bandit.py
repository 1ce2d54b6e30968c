"""The pictures of Game 9 (the One-legged bandit): the machine after a pull, and the pull as a GIF.

The machine, top to bottom: the paytable, the career rank (an emblem per rank, its title and,
after a career step, the episode), three reels behind a window with the payline, the result
banner and a footer (free pulls, balance), in the words of the bot's captions. The reels are
crops of one cached strip image (the 32 stops drawn once per size, sharp and motion-blurred).
The GIF is the same machine: its reels spin and stop, and its last frame is the still itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from core.games.bandit import CAREER, PAYTABLE, STRIP, TOP_RANK, BanditView, Line
from i18n import t, tn
from render.draw import RGB, SS, mix, paste, star_points
from render.encode import build_palette, gif, png, sheet, to_palette
from render.felt import vertical
from render.pirate import BRASS, GOLD, INK, IVORY, PARCHMENT, RED, SEA, WOOD_DARK, emblem, symbol_sprite
from render.text import balance_text, fit, money, put_text, wrap

WOOD: RGB = (92, 52, 26)
TEXT: RGB = (250, 244, 226)
MUTED: RGB = (214, 190, 150)
TITLE_BAND: RGB = (112, 24, 30)
WIN_INK: RGB = (90, 30, 10)
#: How dark the reels' top and bottom edges get (0-255): the drum's curve.
REEL_SHADE = 160
#: One palette for the still and every frame of the GIF: they agree to the pixel.
PALETTE_COLOURS = 112
FLAT: tuple[RGB, ...] = (
    WOOD,
    WOOD_DARK,
    BRASS,
    GOLD,
    INK,
    PARCHMENT,
    SEA,
    IVORY,
    TEXT,
    MUTED,
    RED,
    TITLE_BAND,
    WIN_INK,
)


def shown_rank(view: BanditView) -> int:
    """The rank whose picture the machine shows: the one reached by this pull's step, else the rank."""
    return next((r.rank for r in CAREER if r.title == view.title), view.rank)


def spinning(view: BanditView) -> BanditView:
    """The machine while its reels spin: no result yet, the career as it was before the pull."""
    before = CAREER[view.rank_before]
    return BanditView(
        seat=view.seat,
        rank_before=view.rank_before,
        rank=view.rank_before,
        title=before.title,
        episode=before.episode,
    )


# ----- the reels ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reels:
    """The reel window of a machine `width` px wide, relative to the window section's top-left."""

    width: int
    height: int
    row: int
    reel_w: int
    gap: int
    #: The window (the dark frame) and the three reels inside it.
    window: tuple[int, int, int, int]
    reel_x: tuple[int, int, int]
    reel_y: int
    #: The crutch lever's pivot.
    pivot: tuple[int, int]

    def cell(self, reel: int, row: int) -> tuple[int, int, int, int]:
        """The box of a visible row (0 top, 1 payline, 2 bottom) of a reel."""
        x, y = self.reel_x[reel], self.reel_y + row * self.row
        return x, y, x + self.reel_w, y + self.row


@lru_cache(maxsize=8)
def reels(width: int) -> Reels:
    row, reel_w, gap = round(width * 0.115), round(width * 0.235), round(width * 0.02)
    frame, margin = round(width * 0.025), round(width * 0.02)
    left = round(width * 0.05)
    window = (left, margin, left + 3 * reel_w + 2 * gap + 2 * frame, margin + 3 * row + 2 * frame)
    xs = (left + frame, left + frame + reel_w + gap, left + frame + 2 * (reel_w + gap))
    pivot = (round((window[2] + width) / 2), (window[1] + window[3]) // 2)
    return Reels(width, window[3] + margin, row, reel_w, gap, window, xs, margin + frame, pivot)


#: Strip rows: the stop before 0, the 32 stops, then two more, so a 3-row crop never wraps.
STRIP_ROWS = len(STRIP) + 3


@lru_cache(maxsize=8)
def strip_image(reel_w: int, row: int, blurred: bool) -> Image.Image:
    """All stops of the reel strip stacked top to bottom on ivory (RGB); blurred along the reel for motion."""
    img = Image.new("RGB", (reel_w, row * STRIP_ROWS), IVORY)
    icon = round(row * 0.84)
    for k in range(STRIP_ROWS):
        code = STRIP[(k - 1) % len(STRIP)]
        paste(img, symbol_sprite(code, icon), ((reel_w - icon) // 2, k * row + (row - icon) // 2))
    if blurred:
        # Squash and stretch along the reel only: a cheap vertical motion blur.
        squash = max(2, row // 3)
        img = img.resize((reel_w, img.height // squash), Image.Resampling.BOX)
        img = img.resize((reel_w, row * STRIP_ROWS), Image.Resampling.BILINEAR)
    return img


def reel_crop(geo: Reels, position: float, blurred: bool) -> Image.Image:
    """The 3 visible rows of a reel whose payline shows stop `position` (fractional while moving)."""
    strip = strip_image(geo.reel_w, geo.row, blurred)
    y = round((position % len(STRIP)) * geo.row)
    return strip.crop((0, y, geo.reel_w, y + 3 * geo.row))


@lru_cache(maxsize=8)
def reel_shade(geo: Reels) -> Image.Image:
    """Darkening towards a reel's top and bottom edges: the drum's curve."""
    h = 3 * geo.row
    alpha = Image.linear_gradient("L").resize((1, h))
    # Only the outer quarters darken, so the payline row stays clean (and free of palette bands).
    alpha = alpha.point(lambda v: round(REEL_SHADE * max(0.0, abs(v - 127.5) / 127.5 - 0.5) / 0.5))
    shade = Image.new("RGBA", (geo.reel_w, h), (*WOOD_DARK, 255))
    shade.putalpha(alpha.resize((geo.reel_w, h)))
    return shade


@lru_cache(maxsize=8)
def window_art(width: int) -> Image.Image:
    """The reel section without the reels: the dark cabinet, the window frame, rivets (RGB)."""
    geo = reels(width)
    img = Image.new("RGB", (width, geo.height), WOOD)
    draw = ImageDraw.Draw(img)
    for y in range(0, geo.height, max(6, geo.row // 3)):  # planks
        draw.line((0, y, width, y), fill=(80, 44, 20), width=1)
    x0, y0, x1, y1 = geo.window
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=geo.gap, fill=WOOD_DARK, outline=BRASS, width=max(2, width // 200)
    )
    r = max(2, width // 160)
    for x, y in (
        (x0 + 3 * r, y0 + 3 * r),
        (x1 - 3 * r, y0 + 3 * r),
        (x0 + 3 * r, y1 - 3 * r),
        (x1 - 3 * r, y1 - 3 * r),
    ):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=BRASS)
    return img


@lru_cache(maxsize=8)
def payline(geo: Reels) -> Image.Image:
    """The payline over the window: red arrows on the frame and a thin line across the reels."""
    x0, _, x1, _ = geo.window
    img = Image.new("RGBA", (geo.width * SS, geo.height * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    y = (geo.reel_y + 1.5 * geo.row) * SS
    a = (geo.reel_x[0] - x0) * SS * 0.9
    draw.line((x0 * SS, y, x1 * SS, y), fill=(*RED, 150), width=max(SS, geo.row * SS // 40))
    draw.polygon([(x0 * SS, y - a), (x0 * SS + a, y), (x0 * SS, y + a)], fill=(*RED, 255))
    draw.polygon([(x1 * SS, y - a), (x1 * SS - a, y), (x1 * SS, y + a)], fill=(*RED, 255))
    return img.reduce(SS)


@lru_cache(maxsize=8)
def win_frame(geo: Reels) -> Image.Image:
    """A gold frame around one payline cell that a paying or career line uses."""
    w, h = geo.reel_w * SS, geo.row * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (SS, SS, w - SS, h - SS), radius=h // 8, outline=(*GOLD, 255), width=max(SS * 2, h // 18)
    )
    return img.reduce(SS)


@lru_cache(maxsize=8)
def lever(geo: Reels, down: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The crutch lever, up or pulled down, and where its sprite goes (its pivot on the cabinet)."""
    length = round(geo.row * 1.55)
    size = (2 * length + 1) * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    sign = 1 if down else -1
    pole = max(2, geo.row // 9) * SS
    tip_y = c + sign * length * SS * 0.8
    draw.line((c, c, c, tip_y), fill=(150, 98, 50), width=pole)
    # The crutch: a padded cross-piece at the end and a hand grip half-way.
    pad_w, pad_h = geo.row * 0.42 * SS, geo.row * 0.16 * SS
    draw.rounded_rectangle(
        (c - pad_w, tip_y - pad_h, c + pad_w, tip_y + pad_h),
        radius=pad_h,
        fill=(120, 40, 34),
        outline=WOOD_DARK,
        width=SS * 2,
    )
    grip_y = c + sign * length * SS * 0.45
    draw.rounded_rectangle(
        (c - pad_w * 0.55, grip_y - pad_h * 0.4, c + pad_w * 0.55, grip_y + pad_h * 0.4),
        radius=pad_h * 0.4,
        fill=(150, 98, 50),
    )
    draw.ellipse(
        (c - pole * 1.4, c - pole * 1.4, c + pole * 1.4, c + pole * 1.4),
        fill=BRASS,
        outline=WOOD_DARK,
        width=SS,
    )
    sprite = img.reduce(SS)
    return sprite, (geo.pivot[0] - length, geo.pivot[1] - length)


def draw_reels(
    img: Image.Image,
    origin: tuple[int, int],
    geo: Reels,
    positions: Sequence[float],
    blurred: Sequence[bool],
    lit: Sequence[bool] = (False, False, False),
    pulled: bool = False,
) -> None:
    """The reel section onto `img` at `origin`: still and GIF frames alike are drawn by this."""
    ox, oy = origin
    img.paste(window_art(geo.width), origin)
    shade = reel_shade(geo)
    for reel in range(3):
        x, y = geo.reel_x[reel] + ox, geo.reel_y + oy
        img.paste(reel_crop(geo, positions[reel], blurred[reel]), (x, y))
        paste(img, shade, (x, y))
        if lit[reel]:
            frame = win_frame(geo)
            paste(img, frame, (x, y + geo.row))
    paste(img, payline(geo), origin)
    sprite, (lx, ly) = lever(geo, pulled)
    paste(img, sprite, (lx + ox, ly + oy))


def _lit(view: BanditView) -> tuple[bool, bool, bool]:
    """Which payline cells the result's line uses (the doubloons of a doubloon line, all of a triple)."""
    line = _line(view.line)
    if line is None or view.symbols is None:
        return (False, False, False)
    first, second, third = (symbol == line.symbol for symbol in view.symbols)
    return first, second, third


def _line(code: str | None) -> Line | None:
    return next((line for line in PAYTABLE if line.code == code), None)


# ----- the machine -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    title: int
    table: tuple[int, int]
    career: tuple[int, int]
    #: The top of the reel section.
    reels_y: int
    banner: tuple[int, int]
    footer: tuple[int, int]


@lru_cache(maxsize=8)
def layout(size: int) -> Layout:
    """A portrait machine, `size` px high, 0.8 of that wide."""
    width = round(size * 0.8)
    title = round(size * 0.062)
    table = (title, title + round(size * 0.245))
    career = (table[1], table[1] + round(size * 0.2))
    reel_h = reels(width).height
    banner = (career[1] + reel_h, career[1] + reel_h + round(size * 0.075))
    return Layout(width, size, title, table, career, career[1], banner, (banner[1], size))


@lru_cache(maxsize=8)
def backdrop(size: int, lang: str) -> Image.Image:
    """The machine without a result: cabinet, title and paytable frame (RGB). Shared: copy it."""
    geo = layout(size)
    w = geo.width
    img = vertical(w, geo.height, WOOD, WOOD_DARK)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w, geo.title), fill=TITLE_BAND)
    draw.line((0, geo.title - 2, w, geo.title - 2), fill=BRASS, width=2)
    title_px = round(geo.title * 0.52)
    half = put_text(img, (w / 2, geo.title / 2), t(lang, "One-legged bandit"), title_px, GOLD, "mm") / 2
    for sign in (-1, 1):
        draw.polygon(
            star_points(w / 2 + sign * (half + title_px), geo.title / 2, geo.title * 0.22), fill=BRASS
        )
    margin = round(w * 0.03)
    for (top, bottom), fill, inset in ((geo.table, PARCHMENT, margin // 2), (geo.career, SEA, margin // 3)):
        draw.rounded_rectangle(
            (margin, top + inset, w - margin, bottom - inset),
            radius=margin,
            fill=fill,
            outline=BRASS,
            width=2,
        )
    draw.line((0, geo.footer[0], w, geo.footer[0]), fill=BRASS, width=1)
    return img


def _draw_paytable(img: Image.Image, geo: Layout, view: BanditView, lang: str) -> None:
    margin = round(geo.width * 0.03)
    top, bottom = geo.table
    inner_top, inner_bottom = top + margin, bottom - margin
    rows = (len(PAYTABLE) + 1) // 2
    pitch = (inner_bottom - inner_top) / rows
    col_w = (geo.width - 3 * margin) / 2
    icon = round(pitch * 0.8)
    px = round(pitch * 0.46)
    small = round(px * 0.72)
    draw = ImageDraw.Draw(img)
    for n, line in enumerate(PAYTABLE):
        col, row = divmod(n, rows)
        x = margin * 1.5 + col * col_w
        y = inner_top + row * pitch
        mid = y + pitch / 2
        if line.code == view.line:
            draw.rounded_rectangle(
                (x - margin * 0.3, y + 1, x + col_w - margin * 0.2, y + pitch - 1),
                radius=pitch / 4,
                fill=GOLD,
            )
        sprite = symbol_sprite(line.symbol, icon)
        for k in range(line.exactly):
            paste(img, sprite, (round(x + k * icon * 0.92), round(mid - icon / 2)))
        right = x + col_w - margin * 0.8
        if line.career:
            put_text(img, (right, mid), t(lang, "career"), px, RED, "rm")
            continue
        put_text(img, (right, mid), money(line.pays), px, INK, "rm")
        if line.exactly < 3:
            label_x = x + 3 * icon * 0.92
            name = fit(t(lang, line.name), small, right - label_x - px * 2.2, bold=False)
            put_text(img, (label_x, mid), name, small, INK, bold=False)


def _draw_career(img: Image.Image, geo: Layout, view: BanditView, lang: str) -> None:
    margin = round(geo.width * 0.03)
    top, bottom = geo.career
    side = bottom - top - margin
    rank = shown_rank(view)
    paste(img, emblem(rank, side), (margin * 2, top + margin // 2))
    x = margin * 3 + side
    room = geo.width - x - margin * 2
    px = round(side * 0.13)
    y = top + margin * 1.1
    put_text(img, (x, y), t(lang, "Rank {n} of {top}", n=rank, top=TOP_RANK), round(px * 0.8), MUTED)
    y += px * 1.2
    for text in wrap(t(lang, view.title), round(px * 1.15), room, 2, bold=True):
        put_text(img, (x, y + px * 0.3), text, round(px * 1.15), GOLD)
        y += px * 1.45
    y += px * 0.2
    small = round(px * 0.82)
    if view.career_step:
        lines = wrap(t(lang, view.episode), small, room, 4)
    else:
        following = CAREER[rank % TOP_RANK + 1]
        title = t(lang, following.title)
        text = t(lang, "Three scrolls make you {title} (+{bonus})", title=title, bonus=money(following.bonus))
        lines = wrap(text, small, room, 3)
    for text in lines:
        put_text(img, (x, y + px * 0.3), text, small, TEXT, bold=False)
        y += px * 1.08


def banner_text(view: BanditView, lang: str) -> str:
    """The result in the captions' words: a win in coins, a career step with its bonus, or nothing."""
    if view.symbols is None:
        return t(lang, "The reels are spinning…")
    if view.new_voyage:
        return t(lang, "A new voyage begins! Bonus +{bonus}", bonus=money(view.bonus))
    if view.career_step:
        return t(lang, "Three scrolls! Bonus +{bonus}", bonus=money(view.bonus))
    if view.win:
        return tn(lang, "Win: {amount} coin", "Win: {amount} coins", view.win, amount=money(view.win))
    return t(lang, "No win this time.")


def _draw_banner(img: Image.Image, geo: Layout, view: BanditView, lang: str) -> None:
    top, bottom = geo.banner
    h = bottom - top
    margin = round(geo.width * 0.06)
    draw = ImageDraw.Draw(img)
    box = (margin, top + h * 0.1, geo.width - margin, bottom - h * 0.1)
    mid = (top + bottom) / 2
    px = round(h * 0.42)
    text = banner_text(view, lang)
    if view.career_step:
        draw.rounded_rectangle(box, radius=h // 3, fill=RED, outline=GOLD, width=3)
        put_text(img, (geo.width / 2, mid), fit(text, px, box[2] - box[0] - 20), px, GOLD, "mm")
    elif view.win:
        draw.rounded_rectangle(box, radius=h // 3, fill=GOLD, outline=(255, 244, 200), width=3)
        coin = symbol_sprite("doubloon", round(h * 0.62))
        for x in (box[0] + h * 0.25, box[2] - h * 0.25 - coin.width):
            paste(img, coin, (round(x), round(mid - coin.height / 2)))
        room = box[2] - box[0] - 2 * (coin.width + h * 0.35)
        put_text(img, (geo.width / 2, mid), fit(text, round(px * 1.1), room), round(px * 1.1), WIN_INK, "mm")
    else:
        put_text(img, (geo.width / 2, mid), text, px, MUTED, "mm", bold=False)


def _draw_footer(
    img: Image.Image, geo: Layout, lang: str, free_left: int | None, balance: int | None
) -> None:
    top, bottom = geo.footer
    mid = (top + bottom) / 2
    margin = round(geo.width * 0.04)
    px = round((bottom - top) * 0.38)
    if free_left is not None:
        put_text(img, (margin, mid), t(lang, "Free pulls left today: {n}", n=free_left), px, TEXT, bold=False)
    if balance is not None:
        put_text(img, (geo.width - margin, mid), balance_text(balance, lang), px, GOLD, "rm")


#: Where the reels rest while the engine has no stops yet: a spread of the strip, blurred.
IDLE = (5.0, 16.0, 27.0)


def _compose(
    view: BanditView, lang: str, size: int, free_left: int | None, balance: int | None
) -> Image.Image:
    """The machine without its reels drawn (they are the caller's: still, moving or idle)."""
    geo = layout(size)
    img = backdrop(size, lang).copy()
    _draw_paytable(img, geo, view, lang)
    _draw_career(img, geo, view, lang)
    _draw_banner(img, geo, view, lang)
    _draw_footer(img, geo, lang, free_left, balance)
    return img


def compose_bandit(
    view: BanditView,
    *,
    lang: str = "ru",
    size: int = 1000,
    free_left: int | None = None,
    balance: int | None = None,
) -> Image.Image:
    """The machine in full colour (an RGB image of its own)."""
    geo = layout(size)
    img = _compose(view, lang, size, free_left, balance)
    section = reels(geo.width)
    if view.stops is None:
        draw_reels(img, (0, geo.reels_y), section, IDLE, (True, True, True))
    else:
        draw_reels(img, (0, geo.reels_y), section, view.stops, (False, False, False), _lit(view))
    return img


@lru_cache(maxsize=8)
def palette(size: int, lang: str) -> Image.Image:
    """The machine's palette: its cabinet, the strips still and blurred, every symbol and emblem."""
    geo = layout(size)
    section = reels(geo.width)
    sprites = [backdrop(size, lang), strip_image(section.reel_w, section.row, False)]
    sprites.append(strip_image(section.reel_w, section.row, True))
    sprites += [emblem(rank, geo.career[1] - geo.career[0]) for rank in range(TOP_RANK + 1)]
    sprites += [symbol_sprite(code, round(section.row * 0.84)) for code in sorted(set(STRIP))]
    sprites.append(win_frame(section))
    # The cabinet's wood and the reels' darkened edges are gradients: exact steps show no bands.
    ramps = [(WOOD, WOOD_DARK, 16), (IVORY, mix(IVORY, WOOD_DARK, REEL_SHADE / 255), 16)]
    return build_palette(sheet(sprites, geo.width * 2, WOOD), PALETTE_COLOURS, ramps, FLAT)


def render_bandit(
    view: BanditView,
    *,
    lang: str = "ru",
    size: int = 1000,
    free_left: int | None = None,
    balance: int | None = None,
) -> bytes:
    """The machine after a pull (or while its reels spin) as PNG bytes, `size` px high. Pure."""
    img = compose_bandit(view, lang=lang, size=size, free_left=free_left, balance=balance)
    return png(to_palette(img, palette(size, lang)))


# ----- the spin ----------------------------------------------------------------------------------

#: Frames of motion and the frame on which each reel comes to rest; then one final frame that holds.
SPIN_FRAMES = 15
STOP_AT = (7, 10, 13)
FRAME_MS = 90
HOLD_MS = 1000
#: Whole turns of the strip (in stops) each reel travels before it stops: later reels travel further.
TRAVEL = (24.0, 34.0, 44.0)
#: The reel overshoots its stop by this much of a row and settles back: a small bounce.
OVERSHOOT = 1.6


def _ease(t: float) -> float:
    """0 -> 1 fast at first, slowing down, a little past 1 near the end and back (ease-out-back)."""
    t -= 1
    return 1 + t * t * ((OVERSHOOT + 1) * t + OVERSHOOT)


def spin_positions(stops: Sequence[int], frame: int) -> tuple[list[float], list[bool]]:
    """Each reel's strip position in `frame` and whether it moves fast enough to blur."""
    positions, blurred = [], []
    for reel, stop in enumerate(stops):
        end = STOP_AT[reel]
        if frame >= end:
            positions.append(float(stop))
            blurred.append(False)
            continue
        t, t_next = frame / end, (frame + 1) / end
        # The strip runs downwards on screen, so the position counts down to the stop.
        positions.append(stop + TRAVEL[reel] * (1 - _ease(t)))
        blurred.append(TRAVEL[reel] * abs(_ease(t_next) - _ease(t)) > 0.9)
    return positions, blurred


def render_spin_animation(
    view: BanditView,
    *,
    lang: str = "ru",
    size: int = 800,
    frames: int = SPIN_FRAMES,
    free_left: int | None = None,
    balance: int | None = None,
) -> bytes:
    """The pull as a GIF, `size` px high: the lever goes down, the reels spin and stop left to right
    on `view.stops`, and the last frame is `render_bandit`'s still with the same options.

    The last frame holds for HOLD_MS; the animation plays once (Telegram loops it anyway, and the
    held result makes the loop read well). `frames` is the number of moving frames; the stops are
    spread over it in the same proportions.
    """
    if view.stops is None:
        raise ValueError("the reels have not stopped: no stops to animate")
    geo = layout(size)
    section = reels(geo.width)
    colours = palette(size, lang)
    # Only the reel section moves: it alone is drawn and mapped per frame, onto the mapped machine.
    moving = to_palette(_compose(spinning(view), lang, size, free_left, balance), colours)
    box = (0, geo.reels_y, geo.width, geo.reels_y + section.height)
    scale = frames / SPIN_FRAMES
    shots: list[Image.Image] = []
    for frame in range(frames):
        # Sample the standard timeline, so that any frame count keeps the reels' rhythm.
        at = min(SPIN_FRAMES, round(frame / scale))
        positions, blurred = spin_positions(view.stops, at)
        strip = Image.new("RGB", (geo.width, section.height))
        draw_reels(strip, (0, 0), section, positions, blurred, pulled=at < 2)
        shot = moving.copy()
        shot.paste(to_palette(strip, colours), box[:2])
        shots.append(shot)
    still = compose_bandit(view, lang=lang, size=size, free_left=free_left, balance=balance)
    shots.append(to_palette(still, colours))
    return gif(shots, [FRAME_MS] * frames + [HOLD_MS])
