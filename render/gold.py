"""The picture of Game 8 (McSweeney's Gold): a treasure map of 7x7 cells on a sea background.

Drawn once per size: the sea, the parchment map with its row and column labels and the closed
cells, and a palette that every picture of that size is mapped onto (so the frames of one
reveal, sent as successive message edits, never shift colours). A picture is ~50 pastes of
cached cell sprites, the dashed route and the header text, then one palette mapping and encode.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.games.gold import ADDS, DIVIDES, SYMBOLS, GoldView
from core.games.grid import cell_code
from render.cards import RGB, SS, paste
from render.fonts import font
from render.grid import encode
from render.text import fit, money, put_text

# ----- look --------------------------------------------------------------------------------------

SEA_CENTRE: RGB = (28, 98, 124)
SEA_EDGE: RGB = (10, 44, 66)
WAVE: RGB = (60, 132, 156)
PARCHMENT: RGB = (236, 214, 168)
PARCHMENT_EDGE: RGB = (196, 158, 104)
INK: RGB = (92, 58, 30)
RED_INK: RGB = (178, 34, 34)
SAND: RGB = (244, 228, 190)
CLOSED: RGB = (214, 186, 134)
GOLD: RGB = (255, 204, 64)
TEXT: RGB = (250, 244, 226)
MUTED: RGB = (170, 206, 214)
GOOD: RGB = (120, 222, 120)
BAD: RGB = (255, 128, 112)

#: Sea, parchment and the icons' gold, red and green need more entries than the card grid.
PALETTE_COLOURS = 128

STRINGS: dict[str, dict[str, str]] = {
    "ru": {
        "title": "Золото МакСвини",
        "bet": "Ставка {bet}",
        "mark": "Отметьте маршрут: {n} из 7",
        "ready": "Маршрут готов — «В путь!»",
        "start": "Экспедиция выходит в путь…",
        "step": "Шаг {n}/7: {what}",
        "cancelled": "{what} — отменено знаком Z",
        "total": "Итог: T = {total}",
        "payout": "Выплата {payout} ({net})",
        "fingerprint": "Отпечаток: {fp}",
        "salt": "Соль: {salt}",
        "balance": "Баланс: {balance}",
        "dealing": "Карта прячется…",
    },
    "en": {
        "title": "McSweeney's Gold",
        "bet": "Bet {bet}",
        "mark": "Mark the route: {n} of 7",
        "ready": "Route ready — “Set off!”",
        "start": "The expedition sets off…",
        "step": "Step {n}/7: {what}",
        "cancelled": "{what} — cancelled by Z",
        "total": "Total: T = {total}",
        "payout": "Payout {payout} ({net})",
        "fingerprint": "Fingerprint: {fp}",
        "salt": "Salt: {salt}",
        "balance": "Balance: {balance}",
        "dealing": "Hiding the treasure…",
    },
}

_NAMES: dict[str, tuple[str, str]] = {s.code: (s.name_ru, s.name_en) for s in SYMBOLS}
CODES: tuple[str, ...] = tuple(s.code for s in SYMBOLS)


def _strings(lang: str) -> dict[str, str]:
    return STRINGS["ru" if lang == "ru" else "en"]


def symbol_text(code: str, lang: str) -> str:
    """What a symbol did, for the header: `Мешок с деньгами +100`, `×2`, `Банкротство`."""
    name = _NAMES[code][0 if lang == "ru" else 1]
    return f"{name} +{ADDS[code]}" if code in ADDS else name


# ----- geometry ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    header: int
    footer: int
    pitch: int
    #: The side of a cell's square tile (the pitch less the gap).
    cell: int
    #: Top-left pixel of cell A1.
    left: int
    top: int
    #: The parchment map: left, top, right, bottom.
    chart: tuple[int, int, int, int]

    def cell_xy(self, index: int, cols: int = 7) -> tuple[int, int]:
        row, col = divmod(index, cols)
        return self.left + col * self.pitch, self.top + row * self.pitch

    def centre(self, index: int) -> tuple[float, float]:
        x, y = self.cell_xy(index)
        return x + self.cell / 2, y + self.cell / 2


@lru_cache(maxsize=8)
def geometry(size: int) -> Geometry:
    """A portrait picture, `size` px high: header, the map with labels, footer."""
    header, footer = round(size * 0.125), round(size * 0.06)
    pad, label = round(size * 0.022), round(size * 0.04)
    pitch = (size - header - footer - 2 * pad - label - pad) // 7
    cell = pitch - max(2, round(pitch * 0.07))
    width = 2 * pad + label + 7 * pitch + pad
    left = pad + label + (pitch - cell) // 2 + pad // 2
    top = header + pad + label
    chart = (pad // 2, header + pad // 2, width - pad // 2, top + 7 * pitch + pad // 2)
    return Geometry(width, size, header, footer, pitch, cell, left, top, chart)


# ----- symbols -----------------------------------------------------------------------------------


def _label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, px: float, fill: RGB) -> None:
    draw.text(xy, text, font=font(max(4, round(px)), bold=True), fill=fill, anchor="mm")


def draw_symbol(draw: ImageDraw.ImageDraw, code: str, side: float) -> None:
    """One map symbol as shapes on a `side` x `side` square at the origin; the one place that knows them."""
    s = side
    cx, cy = s / 2, s / 2
    line = max(1.0, s * 0.03)
    if code == "bag":
        burlap, rope = (190, 146, 84), (112, 72, 34)
        draw.polygon(
            [
                (cx - s * 0.22, s * 0.08),
                (cx + s * 0.22, s * 0.08),
                (cx + s * 0.09, s * 0.3),
                (cx - s * 0.09, s * 0.3),
            ],
            fill=burlap,
            outline=INK,
            width=round(line),
        )
        draw.ellipse((s * 0.12, s * 0.28, s * 0.88, s * 0.95), fill=burlap, outline=INK, width=round(line))
        draw.ellipse((s * 0.22, s * 0.36, s * 0.52, s * 0.6), fill=(214, 178, 118))  # a highlight
        draw.rounded_rectangle(
            (cx - s * 0.16, s * 0.26, cx + s * 0.16, s * 0.34), radius=s * 0.04, fill=rope, outline=INK
        )
        _label(draw, (cx, s * 0.66), "100", s * 0.25, (84, 50, 20))
    elif code == "purse":
        leather, clasp = (150, 36, 56), (232, 186, 56)
        draw.arc((cx - s * 0.2, s * 0.1, cx + s * 0.2, s * 0.5), 180, 360, fill=clasp, width=round(s * 0.05))
        draw.rounded_rectangle(
            (s * 0.16, s * 0.3, s * 0.84, s * 0.88),
            radius=s * 0.2,
            fill=leather,
            outline=(84, 16, 28),
            width=round(line),
        )
        draw.rectangle((s * 0.2, s * 0.28, s * 0.8, s * 0.36), fill=clasp)
        for bx in (cx - s * 0.07, cx + s * 0.07):
            draw.ellipse((bx - s * 0.05, s * 0.2, bx + s * 0.05, s * 0.3), fill=clasp, outline=INK)
        _label(draw, (cx, s * 0.62), "10", s * 0.28, (255, 226, 140))
    elif code == "coin":
        rim, face = (170, 118, 20), (244, 196, 60)
        draw.ellipse((s * 0.14, s * 0.14, s * 0.86, s * 0.86), fill=rim)
        draw.ellipse((s * 0.19, s * 0.19, s * 0.81, s * 0.81), fill=face)
        draw.ellipse((s * 0.27, s * 0.27, s * 0.73, s * 0.73), outline=rim, width=round(line))
        draw.ellipse((s * 0.26, s * 0.22, s * 0.46, s * 0.36), fill=(255, 236, 160))  # shine
        _label(draw, (cx, cy + s * 0.01), "1", s * 0.34, (150, 98, 10))
    elif code in ("x2", "x5"):
        green = (34, 138, 76) if code == "x2" else (16, 110, 140)
        draw.ellipse((s * 0.1, s * 0.1, s * 0.9, s * 0.9), fill=(232, 196, 80))
        draw.ellipse((s * 0.15, s * 0.15, s * 0.85, s * 0.85), fill=green)
        _label(draw, (cx, cy), "×" + code[1], s * 0.38, (255, 255, 255))
    elif code in ("d2", "d5"):
        orange = (214, 104, 34) if code == "d2" else (178, 52, 40)
        # A downward shield: losses point down, gains (the round badges) are round.
        draw.polygon(
            [
                (s * 0.12, s * 0.12),
                (s * 0.88, s * 0.12),
                (s * 0.88, s * 0.5),
                (cx, s * 0.92),
                (s * 0.12, s * 0.5),
            ],
            fill=orange,
            outline=(90, 28, 14),
            width=round(line),
        )
        _label(draw, (cx, s * 0.42), "/" + code[1], s * 0.36, (255, 255, 255))
    elif code == "zero":
        # Crossed bones: drawn twice, wider in ink and then in bone, for an outline on pale sand.
        for colour, grow in ((INK, s * 0.025), ((246, 240, 224), 0.0)):
            for a, b in (((0.16, 0.16), (0.84, 0.84)), ((0.84, 0.16), (0.16, 0.84))):
                x0, y0, x1, y1 = a[0] * s, a[1] * s, b[0] * s, b[1] * s
                draw.line((x0, y0, x1, y1), fill=colour, width=round(s * 0.1 + 2 * grow))
                for x, y in ((x0, y0), (x1, y1)):
                    for dx, dy in ((-1, 1), (1, -1)):
                        r = s * 0.055 + grow
                        ox, oy = x + dx * s * 0.035, y + dy * s * 0.035
                        draw.ellipse((ox - r, oy - r, ox + r, oy + r), fill=colour)
        draw.ellipse(
            (s * 0.24, s * 0.24, s * 0.76, s * 0.76),
            fill=(30, 24, 26),
            outline=RED_INK,
            width=round(line * 1.5),
        )
        _label(draw, (cx, cy - s * 0.01), "0", s * 0.4, (236, 60, 48))
    elif code == "z":
        wax, deep = (176, 28, 40), (128, 14, 26)
        points = []
        for i in range(48):
            t = 2 * math.pi * i / 48
            r = s * (0.38 + 0.035 * math.sin(7 * t) + 0.02 * math.sin(3 * t + 1))
            points.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        draw.polygon(points, fill=wax)
        draw.ellipse((s * 0.24, s * 0.24, s * 0.76, s * 0.76), fill=deep)
        draw.ellipse((s * 0.28, s * 0.28, s * 0.72, s * 0.72), outline=(206, 70, 74), width=round(line))
        _label(draw, (cx, cy), "Z", s * 0.34, (250, 196, 170))
    else:  # empty: dug sand, a shallow hole and a few pebbles
        draw.ellipse((s * 0.24, s * 0.42, s * 0.76, s * 0.66), fill=(214, 190, 142))
        draw.ellipse((s * 0.3, s * 0.46, s * 0.7, s * 0.62), fill=(190, 162, 112))
        for px, py, r in ((0.24, 0.28, 0.045), (0.72, 0.3, 0.035), (0.66, 0.78, 0.05), (0.3, 0.76, 0.03)):
            draw.ellipse(((px - r) * s, (py - r) * s, (px + r) * s, (py + r) * s), fill=(168, 150, 126))


@lru_cache(maxsize=64)
def symbol_sprite(code: str, side: int) -> Image.Image:
    """A symbol on a transparent square, anti-aliased by supersampling. Shared: never draw on it."""
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw_symbol(ImageDraw.Draw(big), code, side * SS)
    return big.reduce(SS)


# ----- cells -------------------------------------------------------------------------------------

#: How a cell looks: closed; closed and on the route; open on the route; open on the route and
#: just revealed; open off the route once the tour is over (faded).
CellState = str


@lru_cache(maxsize=256)
def cell_sprite(code: str | None, side: int, state: CellState) -> Image.Image:
    """A whole cell: its tile and, when open, its symbol. Shared: never draw on it."""
    big = side * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = big * 0.12
    edge = max(SS, round(big * 0.025))
    if state in ("closed", "marked"):
        draw.rounded_rectangle(
            (0, 0, big - 1, big - 1), radius=radius, fill=CLOSED, outline=PARCHMENT_EDGE, width=edge
        )
        # A faint compass cross: the map's unexplored land.
        c, r = big / 2, big * 0.12
        draw.line((c - r, c, c + r, c), fill=PARCHMENT_EDGE, width=edge)
        draw.line((c, c - r, c, c + r), fill=PARCHMENT_EDGE, width=edge)
    else:
        outline = GOLD if state == "last" else (RED_INK if state == "open" else PARCHMENT_EDGE)
        width = edge * (3 if state == "last" else 2 if state == "open" else 1)
        draw.rounded_rectangle(
            (0, 0, big - 1, big - 1), radius=radius, fill=SAND, outline=outline, width=width
        )
    if code is not None:
        inset = round(big * 0.1)
        icon = Image.new("RGBA", (big - 2 * inset, big - 2 * inset), (0, 0, 0, 0))
        draw_symbol(ImageDraw.Draw(icon), code, big - 2 * inset)
        img.alpha_composite(icon, (inset, inset))
    if state == "faded":
        # Off the route: veiled in parchment so the route stands out.
        veil = Image.new("RGBA", (big, big), (*PARCHMENT, 0))
        mask = img.getchannel("A").point(lambda a: a * 150 // 255)
        veil.putalpha(mask)
        img.alpha_composite(veil)
    return img.reduce(SS)


@lru_cache(maxsize=64)
def order_badge(number: int, side: int, small: bool) -> Image.Image:
    """The route order of a cell: a big red-ink ring while closed, a small corner disc once open."""
    d = round(side * (0.3 if small else 0.56))
    big = d * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if small:
        draw.ellipse((0, 0, big - 1, big - 1), fill=RED_INK, outline=(255, 240, 220), width=SS * 2)
        colour: RGB = (255, 255, 255)
    else:
        draw.ellipse((0, 0, big - 1, big - 1), fill=(250, 236, 206), outline=RED_INK, width=round(big * 0.1))
        colour = RED_INK
    _label(draw, (big / 2, big / 2 - big * 0.03), str(number), big * 0.62, colour)
    return img.reduce(SS)


@lru_cache(maxsize=16)
def glow(side: int) -> Image.Image:
    """A soft golden halo behind the cell revealed last."""
    spread = max(4, side // 8)
    full = side + 2 * spread
    mask = Image.new("L", (full, full), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (spread // 2, spread // 2, full - spread // 2, full - spread // 2), radius=side * 0.16, fill=230
    )
    mask = mask.filter(ImageFilter.GaussianBlur(spread / 2.5))
    sprite = Image.new("RGBA", (full, full), (*GOLD, 255))
    sprite.putalpha(mask)
    return sprite


# ----- background and palette --------------------------------------------------------------------


@lru_cache(maxsize=8)
def background(size: int) -> Image.Image:
    """The sea, the map, labels and closed cells: what no picture changes. Shared: copy it."""
    geo = geometry(size)
    w, h = geo.width, geo.height
    ramp = Image.radial_gradient("L").resize((w, h), Image.Resampling.BILINEAR)
    img = Image.composite(Image.new("RGB", (w, h), SEA_EDGE), Image.new("RGB", (w, h), SEA_CENTRE), ramp)
    draw = ImageDraw.Draw(img)
    # Little wave crests on the sea, in a fixed pattern (pure: no randomness).
    step = max(12, size // 22)
    for row, y in enumerate(range(step // 2, h, step)):
        for x in range((row % 2) * step, w, step * 2):
            draw.arc((x, y, x + step * 0.6, y + step * 0.35), 200, 340, fill=WAVE, width=max(1, size // 500))

    # The parchment: a soft shadow, then a gradient from a warm centre to browned edges.
    left, top, right, bottom = geo.chart
    cw, ch = right - left, bottom - top
    shadow = Image.new("L", (w, h), 0)
    blur = max(3, size // 120)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (left + blur, top + blur, right + blur, bottom + blur), radius=blur * 2, fill=150
    )
    img.paste((0, 0, 0), (0, 0, w, h), shadow.filter(ImageFilter.GaussianBlur(blur)))
    paper_ramp = Image.radial_gradient("L").resize((cw, ch), Image.Resampling.BILINEAR)
    paper = Image.composite(
        Image.new("RGB", (cw, ch), PARCHMENT_EDGE),
        Image.new("RGB", (cw, ch), PARCHMENT),
        paper_ramp.point(lambda v: max(0, v - 90) * 2),
    )
    mask = Image.new("L", (cw, ch), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, cw - 1, ch - 1), radius=max(4, size // 80), fill=255)
    img.paste(paper, (left, top), mask)
    draw.rounded_rectangle(
        (left, top, right - 1, bottom - 1), radius=max(4, size // 80), outline=INK, width=max(1, size // 400)
    )

    # Labels from cell_code itself, so the picture and the buttons can never disagree.
    label_font = font(max(10, round(geo.pitch * 0.3)), bold=True)
    for col in range(7):
        col_x = geo.left + col * geo.pitch + geo.cell / 2
        draw.text(
            (col_x, geo.top - geo.pitch * 0.24),
            cell_code((0, col))[:-1],
            font=label_font,
            fill=INK,
            anchor="mm",
        )
    for row in range(7):
        row_y = geo.top + row * geo.pitch + geo.cell / 2
        draw.text(
            (geo.left - geo.pitch * 0.26, row_y),
            cell_code((row, 0))[1:],
            font=label_font,
            fill=INK,
            anchor="mm",
        )
    closed = cell_sprite(None, geo.cell, "closed")
    for index in range(49):
        paste(img, closed, geo.cell_xy(index))
    draw.rectangle((0, 0, w, geo.header - 1), fill=SEA_EDGE)
    draw.rectangle((0, h - geo.footer, w, h), fill=SEA_EDGE)
    return img


@lru_cache(maxsize=8)
def palette(size: int) -> Image.Image:
    """One palette for every picture of a size: octree over the background and every sprite."""
    geo = geometry(size)
    swatch = background(size).copy()
    side = geo.cell
    sprites = [cell_sprite(code, side, state) for code in CODES for state in ("open", "last", "faded")]
    sprites += [order_badge(n, side, small) for n in range(1, 8) for small in (False, True)]
    sprites.append(glow(side))
    x, y = geo.left, geo.top
    for sprite in sprites:
        paste(swatch, sprite, (x, y))
        x += sprite.width
        if x + side > geo.width:
            x, y = geo.left, y + side
    draw = ImageDraw.Draw(swatch)
    for n, colour in enumerate((TEXT, MUTED, GOLD, GOOD, BAD)):
        draw.text((10, 4 + n * 16), "Золото T = 61 Z", font=font(max(10, size // 40), bold=True), fill=colour)
    return swatch.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


# ----- the picture -------------------------------------------------------------------------------


def render_gold(
    view: GoldView,
    *,
    shown: int | None = None,
    lang: str = "ru",
    size: int = 1000,
    balance: int | None = None,
) -> bytes:
    """The map as PNG bytes, `size` px high. `shown` = how many revealed cells to show (all if None).

    Pure: same arguments, same bytes.
    """
    img = compose_gold(view, shown=shown, lang=lang, size=size, balance=balance)
    return encode(img.quantize(palette=palette(size), dither=Image.Dither.NONE))


def compose_gold(
    view: GoldView,
    *,
    shown: int | None = None,
    lang: str = "ru",
    size: int = 1000,
    balance: int | None = None,
) -> Image.Image:
    """The picture in full colour (an RGB image of its own)."""
    geo = geometry(size)
    img = background(size).copy()
    count = len(view.revealed) if shown is None else max(0, min(shown, len(view.revealed)))
    over = view.layout is not None and count == len(view.revealed)
    opened = dict(view.revealed[:count])
    order = {cell: n for n, cell in enumerate(view.marked, start=1)}
    last = view.revealed[count - 1][0] if count and not over else None

    if last is not None:
        halo = glow(geo.cell)
        x, y = geo.cell_xy(last)
        pad = (halo.width - geo.cell) // 2
        paste(img, halo, (x - pad, y - pad))
    if over and view.layout is not None:
        for index, code in enumerate(view.layout):
            if index not in order:
                paste(img, cell_sprite(code, geo.cell, "faded"), geo.cell_xy(index))
    # Under the open cells, so that the dashes never cross a symbol.
    _draw_route(img, view.marked, geo)
    for index, code in opened.items():
        state = "last" if index == last else "open"
        paste(img, cell_sprite(code, geo.cell, state), geo.cell_xy(index))
    for index, n in order.items():
        x, y = geo.cell_xy(index)
        if index in opened:
            badge = order_badge(n, geo.cell, True)
            paste(img, badge, (x - badge.width // 5, y - badge.height // 5))
        else:
            badge = order_badge(n, geo.cell, False)
            paste(img, badge, (x + (geo.cell - badge.width) // 2, y + (geo.cell - badge.height) // 2))
    _draw_header(img, view, count, over, geo, lang)
    _draw_footer(img, view, over, geo, lang, balance)
    return img


def _draw_route(img: Image.Image, marked: tuple[int, ...], geo: Geometry) -> None:
    """The expedition's route: red dashes between consecutive cells, stopping short of their middles."""
    draw = ImageDraw.Draw(img)
    dash, gap = geo.pitch * 0.09, geo.pitch * 0.07
    width = max(2, round(geo.pitch * 0.04))
    for a, b in itertools.pairwise(marked):
        (x0, y0), (x1, y1) = geo.centre(a), geo.centre(b)
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        # Leave the middles free for the order badges and symbols.
        start, end = geo.pitch * 0.3, length - geo.pitch * 0.3
        t = start
        while t < end:
            u = min(t + dash, end)
            draw.line((x0 + ux * t, y0 + uy * t, x0 + ux * u, y0 + uy * u), fill=RED_INK, width=width)
            t = u + gap


def _draw_header(img: Image.Image, view: GoldView, count: int, over: bool, geo: Geometry, lang: str) -> None:
    s = _strings(lang)
    margin = round(geo.width * 0.03)
    big, small = max(10, round(geo.header * 0.3)), max(9, round(geo.header * 0.22))
    top_y, low_y = geo.header * 0.3, geo.header * 0.72
    right: float = geo.width - margin
    put_text(img, (margin, top_y), s["title"], big, GOLD)
    stake = s["bet"].format(bet=money(view.bet)) + (f" · ×{view.multiplier}" if view.multiplier > 1 else "")
    put_text(img, (right, top_y), stake, small, TEXT, "rm")

    if over and view.total is not None and view.payout is not None:
        net = view.payout - view.bet
        put_text(img, (margin, low_y), s["total"].format(total=money(view.total)), small, TEXT)
        payout = s["payout"].format(payout=money(view.payout), net=("+" if net > 0 else "") + money(net))
        put_text(img, (right, low_y), payout, small, GOOD if net >= 0 else BAD, "rm")
        return
    colour = TEXT
    if count:
        _, code = view.revealed[count - 1]
        status = symbol_text(code, lang)
        held = view.zs[count - 2] if count > 1 else 0
        if code in DIVIDES:
            if view.zs[count - 1] < held:
                status = s["cancelled"].format(what=_NAMES[code][0 if lang == "ru" else 1])
            else:
                colour = BAD
        status = s["step"].format(n=count, what=status)
        right = _draw_tally(img, view.sums[count - 1], view.zs[count - 1], right, low_y, geo)
    elif view.revealed:
        status = s["start"]
    elif view.fingerprint is None:
        status, colour = s["dealing"], MUTED
    else:
        n = len(view.marked)
        status = s["ready"] if n == 7 else s["mark"].format(n=n)
    put_text(img, (margin, low_y), fit(status, small, right - margin * 1.5), small, colour)


def _draw_tally(img: Image.Image, total: int, z: int, right: float, y: float, geo: Geometry) -> float:
    """A coin, `T = 122` and one small seal per held Z, ending at `right`; returns where it starts."""
    icon = round(geo.header * 0.3)
    seal = symbol_sprite("z", icon)
    for _ in range(z):
        right -= icon
        paste(img, seal, (round(right), round(y - icon / 2)))
    right -= icon * 0.3 if z else 0
    right -= put_text(img, (right, y), f"T = {money(total)}", round(geo.header * 0.26), GOLD, "rm")
    right -= icon * 1.1
    paste(img, symbol_sprite("coin", icon), (round(right), round(y - icon / 2)))
    return right


def _draw_footer(
    img: Image.Image, view: GoldView, over: bool, geo: Geometry, lang: str, balance: int | None
) -> None:
    """The commitment (and, once over, the salt to check it with) and the balance."""
    s = _strings(lang)
    margin = round(geo.width * 0.03)
    px = max(9, round(geo.footer * 0.36))
    y = geo.height - geo.footer / 2
    parts = []
    if view.fingerprint is not None:
        parts.append(s["fingerprint"].format(fp=view.fingerprint))
    if over and view.salt is not None:
        parts.append(s["salt"].format(salt=view.salt))
    room: float = geo.width - 2 * margin
    if balance is not None:
        shown = s["balance"].format(balance=money(balance))
        put_text(img, (geo.width - margin, y), shown, px, TEXT, "rm")
        room -= font(px, bold=True).getlength(shown) + margin
    if parts:
        # The commitment is shown whole (a player copies it to check the field): smaller, never cut.
        text = " · ".join(parts)
        small = px
        while small > 8 and font(small).getlength(text) > room:
            small -= 1
        put_text(img, (margin, y), text, small, MUTED, bold=False)
