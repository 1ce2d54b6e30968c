"""The picture of Game 8 (McSweeney's Gold): a treasure map of 7x7 cells on a sea background.

Drawn once per size: the sea, the parchment map with its row and column labels and the closed
cells, and a palette that every picture of that size is mapped onto (so the frames of one reveal,
sent as successive message edits, never shift colours). A picture is ~50 pastes of cached cell
sprites (symbols from render/treasure.py), the dashed route and the header, one mapping and encode.
The words are the bot's: the route is sent with the button's own text, the result is the tour sum.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.games.gold import ADDS, DIVIDES, ROUTE_LENGTH, SYMBOLS, GoldView
from i18n import t, tn
from render.board import draw_axis_labels
from render.draw import RGB, SS, halo, paste
from render.encode import build_palette, encode, sheet, to_palette
from render.felt import blend, felt
from render.fonts import printable
from render.text import balance_text, fit, money, put_text, shrink, width_of
from render.treasure import CODES, INK, RED_INK, draw_symbol, label, symbol_sprite

SEA_CENTRE: RGB = (28, 98, 124)
SEA_EDGE: RGB = (10, 44, 66)
WAVE: RGB = (60, 132, 156)
PARCHMENT: RGB = (236, 214, 168)
PARCHMENT_EDGE: RGB = (196, 158, 104)
SAND: RGB = (244, 228, 190)
CLOSED: RGB = (214, 186, 134)
GOLD: RGB = (255, 204, 64)
TEXT: RGB = (250, 244, 226)
MUTED: RGB = (170, 206, 214)
GOOD: RGB = (120, 222, 120)
BAD: RGB = (255, 128, 112)

#: Sea, parchment and the icons' gold, red and green need more entries than the card grid.
PALETTE_COLOURS = 128

_NAMES: dict[str, str] = {s.code: s.name for s in SYMBOLS}


def symbol_name(code: str, lang: str) -> str:
    return t(lang, _NAMES[code])


def symbol_text(code: str, lang: str) -> str:
    """What a symbol did, for the header: `Мешок с деньгами +100`, `×2`, `Банкротство`."""
    name = symbol_name(code, lang)
    return f"{name} +{ADDS[code]}" if code in ADDS else name


def send_button(lang: str) -> str:
    """The bot's button that sends the route, as the picture can print it (without its emoji)."""
    return printable(t(lang, "⛵ Send the expedition"))


def tour_sum(total: int, lang: str) -> str:
    return t(lang, "Tour sum: {total}", total=money(total))


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
    pad, axis = round(size * 0.022), round(size * 0.04)
    pitch = (size - header - footer - 2 * pad - axis - pad) // 7
    cell = pitch - max(2, round(pitch * 0.07))
    width = 2 * pad + axis + 7 * pitch + pad
    left = pad + axis + (pitch - cell) // 2 + pad // 2
    top = header + pad + axis
    chart = (pad // 2, header + pad // 2, width - pad // 2, top + 7 * pitch + pad // 2)
    return Geometry(width, size, header, footer, pitch, cell, left, top, chart)


# ----- cells -------------------------------------------------------------------------------------

#: How a cell looks: closed; open on the route; open on the route and just revealed; open off
#: the route once the tour is over (faded).
CellState = str


@lru_cache(maxsize=256)
def cell_sprite(code: str | None, side: int, state: CellState) -> Image.Image:
    """A whole cell: its tile and, when open, its symbol. Shared: never draw on it."""
    big = side * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = big * 0.12
    edge = max(SS, round(big * 0.025))
    if state == "closed":
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
        veil.putalpha(img.getchannel("A").point(lambda a: a * 150 // 255))
        img.alpha_composite(veil)
    return img.reduce(SS)


@lru_cache(maxsize=64)
def order_badge(number: int, side: int, small: bool) -> Image.Image:
    """The route order of a cell: a big red-ink ring while closed, a small corner disc once open."""
    big = round(side * (0.3 if small else 0.56)) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if small:
        draw.ellipse((0, 0, big - 1, big - 1), fill=RED_INK, outline=(255, 240, 220), width=SS * 2)
        colour: RGB = (255, 255, 255)
    else:
        draw.ellipse((0, 0, big - 1, big - 1), fill=(250, 236, 206), outline=RED_INK, width=round(big * 0.1))
        colour = RED_INK
    label(draw, (big / 2, big / 2 - big * 0.03), str(number), big * 0.62, colour)
    return img.reduce(SS)


def glow(side: int) -> Image.Image:
    """A soft golden halo behind the cell revealed last."""
    # Tight enough not to tint the neighbouring cells across the gap.
    spread = max(4, side // 10)
    return halo(side, side, GOLD, spread, round(side * 0.16), 230)


# ----- background and palette --------------------------------------------------------------------


@lru_cache(maxsize=8)
def background(size: int) -> Image.Image:
    """The sea, the map, labels and closed cells: what no picture changes. Shared: copy it."""
    geo = geometry(size)
    w, h = geo.width, geo.height
    img = felt(w, h, SEA_CENTRE, SEA_EDGE, 1.0)
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
    ramp = Image.radial_gradient("L").resize((cw, ch), Image.Resampling.BILINEAR)
    paper = blend(ramp.point(lambda v: max(0, v - 90) * 2), PARCHMENT, PARCHMENT_EDGE)
    mask = Image.new("L", (cw, ch), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, cw - 1, ch - 1), radius=max(4, size // 80), fill=255)
    img.paste(paper, (left, top), mask)
    draw.rounded_rectangle(
        (left, top, right - 1, bottom - 1), radius=max(4, size // 80), outline=INK, width=max(1, size // 400)
    )
    draw_axis_labels(
        img,
        [(geo.left + col * geo.pitch + geo.cell / 2, col) for col in range(7)],
        [(geo.top + row * geo.pitch + geo.cell / 2, row) for row in range(7)],
        (geo.left - geo.pitch * 0.26, geo.top - geo.pitch * 0.24),
        max(10, round(geo.pitch * 0.3)),
        INK,
    )
    closed = cell_sprite(None, geo.cell, "closed")
    for index in range(49):
        paste(img, closed, geo.cell_xy(index))
    draw.rectangle((0, 0, w, geo.header - 1), fill=SEA_EDGE)
    draw.rectangle((0, h - geo.footer, w, h), fill=SEA_EDGE)
    return img


@lru_cache(maxsize=8)
def palette(size: int) -> Image.Image:
    """One palette for every picture of a size: octree over the background, every sprite and text."""
    geo = geometry(size)
    side = geo.cell
    sprites = [background(size)]
    sprites += [cell_sprite(code, side, state) for code in CODES for state in ("open", "last", "faded")]
    sprites += [order_badge(n, side, small) for n in range(1, 8) for small in (False, True)]
    sprites.append(glow(side))
    px = max(10, size // 40)
    texts = ["Сумма тура: 61 Z", "McSweeney's Gold 0123456789"]
    sprites += [_text_sprite(text, px, colour) for colour in (TEXT, MUTED, GOLD, GOOD, BAD) for text in texts]
    return build_palette(sheet(sprites, geo.width * 2, SEA_EDGE), PALETTE_COLOURS)


def _text_sprite(text: str, px: int, colour: RGB) -> Image.Image:
    img = Image.new("RGBA", (math.ceil(width_of(text, px)) + px, px * 2), (*SEA_EDGE, 255))
    put_text(img, (px / 2, px), text, px, colour)
    return img


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
    return encode(to_palette(img, palette(size)))


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
        halo_ = glow(geo.cell)
        x, y = geo.cell_xy(last)
        pad = (halo_.width - geo.cell) // 2
        paste(img, halo_, (x - pad, y - pad))
    if over and view.layout is not None:
        for index, code in enumerate(view.layout):
            if index not in order:
                paste(img, cell_sprite(code, geo.cell, "faded"), geo.cell_xy(index))
    # Under the open cells, so that the dashes never cross a symbol.
    _draw_route(img, view.marked, geo)
    for index, code in opened.items():
        paste(img, cell_sprite(code, geo.cell, "last" if index == last else "open"), geo.cell_xy(index))
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
        at, end = geo.pitch * 0.3, length - geo.pitch * 0.3
        while at < end:
            to = min(at + dash, end)
            draw.line((x0 + ux * at, y0 + uy * at, x0 + ux * to, y0 + uy * to), fill=RED_INK, width=width)
            at = to + gap


def _draw_header(img: Image.Image, view: GoldView, count: int, over: bool, geo: Geometry, lang: str) -> None:
    margin = round(geo.width * 0.03)
    big, small = max(10, round(geo.header * 0.3)), max(9, round(geo.header * 0.22))
    top_y, low_y = geo.header * 0.3, geo.header * 0.72
    right: float = geo.width - margin
    put_text(img, (margin, top_y), t(lang, "McSweeney's Gold"), big, GOLD)
    stake = t(lang, "Bet {bet}", bet=money(view.bet)) + (
        f" · ×{view.multiplier}" if view.multiplier > 1 else ""
    )
    put_text(img, (right, top_y), stake, small, TEXT, "rm")

    if over and view.total is not None and view.payout is not None:
        put_text(img, (margin, low_y), tour_sum(view.total, lang), small, TEXT)
        net = view.payout - view.bet
        put_text(
            img, (right, low_y), payout_text(view.payout, net, lang), small, GOOD if net >= 0 else BAD, "rm"
        )
        return
    if count:
        right = _draw_tally(img, view.sums[count - 1], view.zs[count - 1], right, low_y, geo, lang)
    status, colour = status_text(view, count, lang)
    put_text(img, (margin, low_y), fit(status, small, right - margin * 1.5), small, colour)


def payout_text(payout: int, net: int, lang: str) -> str:
    """`Выплата: 80 монет (+40)`."""
    signed = ("+" if net > 0 else "") + money(net)
    return tn(
        lang,
        "Payout: {amount} coin ({net})",
        "Payout: {amount} coins ({net})",
        payout,
        amount=money(payout),
        net=signed,
    )


def status_text(view: GoldView, count: int, lang: str) -> tuple[str, RGB]:
    """The header's second line while the tour goes on, with its colour: marking, the route sent
    (in the words of the bot's button), or the step just revealed."""
    if count:
        _, code = view.revealed[count - 1]
        what, colour = symbol_text(code, lang), TEXT
        if code in DIVIDES:
            held = view.zs[count - 2] if count > 1 else 0
            if view.zs[count - 1] < held:
                what = t(lang, "{what} — cancelled by Z", what=symbol_name(code, lang))
            else:
                colour = BAD
        return t(lang, "Step {n}/{needed}: {what}", n=count, needed=ROUTE_LENGTH, what=what), colour
    if view.revealed:
        return t(lang, "The expedition sets off…"), TEXT
    if view.fingerprint is None:
        return t(lang, "Hiding the treasure…"), MUTED
    if len(view.marked) == ROUTE_LENGTH:
        return t(lang, "Route ready: press “{button}”", button=send_button(lang)), TEXT
    return t(lang, "Mark the route: {count} of {needed}", count=len(view.marked), needed=ROUTE_LENGTH), TEXT


def _draw_tally(
    img: Image.Image, total: int, z: int, right: float, y: float, geo: Geometry, lang: str
) -> float:
    """A coin, `Сумма тура: 122` and one small seal per held Z, ending at `right`; returns its start."""
    icon = round(geo.header * 0.3)
    seal = symbol_sprite("z", icon)
    for _ in range(z):
        right -= icon
        paste(img, seal, (round(right), round(y - icon / 2)))
    right -= icon * 0.3 if z else 0
    right -= put_text(img, (right, y), tour_sum(total, lang), round(geo.header * 0.24), GOLD, "rm")
    right -= icon * 1.1
    paste(img, symbol_sprite("coin", icon), (round(right), round(y - icon / 2)))
    return right


def _draw_footer(
    img: Image.Image, view: GoldView, over: bool, geo: Geometry, lang: str, balance: int | None
) -> None:
    """The commitment (and, once over, the salt to check it with) and the balance."""
    margin = round(geo.width * 0.03)
    px = max(9, round(geo.footer * 0.36))
    y = geo.height - geo.footer / 2
    parts = []
    if view.fingerprint is not None:
        parts.append(t(lang, "Field fingerprint: {fingerprint}", fingerprint=view.fingerprint))
    if over and view.salt is not None:
        parts.append(t(lang, "Salt: {salt}", salt=view.salt))
    room: float = geo.width - 2 * margin
    if balance is not None:
        shown = balance_text(balance, lang)
        put_text(img, (geo.width - margin, y), shown, px, TEXT, "rm")
        room -= width_of(shown, px) + margin
    if parts:
        # The commitment is shown whole (a player copies it to check the field): smaller, never cut.
        text = " · ".join(parts)
        put_text(img, (margin, y), text, shrink(text, px, room, bold=False), MUTED, bold=False)
