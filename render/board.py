"""The cell board: a field of card positions in any layout, drawn from cached palette tiles.

A position is closed (a back), open (a face), covered (an open card with arcana laid on it), empty
(its card was taken) or a hole (no card, not passable); it may be dimmed, ringed, glowing, labelled
with its code and hold several tokens. The field is cut into pieces that the same cells draw on (a
card's inside, the gap between two cards, a crossing of gaps); a piece's look in palette form is a
tile, cached by the looks of those cells. A turn is some hundred pastes of cached tiles onto the
background, already in palette form, then one PNG encode.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, NamedTuple

from PIL import Image, ImageDraw

from core.cards import Card
from core.engine import Seat
from core.games.grid import Cell, cell_code
from render.cards import CARD_ASPECT, card_radius, card_shadow, glow_outline, glow_spread, ring_outline
from render.deck import Deck, back, face
from render.draw import RGB, SS, darken, mix, paste, pill, with_shadow
from render.encode import to_palette
from render.felt import felt
from render.seats import seat_token
from render.text import fit, put_text

CellState = Literal["closed", "open", "covered", "empty", "hole"]


class Token(NamedTuple):
    seat: Seat
    #: What the disc says: the seat's number, or a token's own number.
    label: str
    #: A computer plays the seat: the token is a robot's head.
    robot: bool = False


class CellLook(NamedTuple):
    """Everything drawn on one position in a turn. Hashable: the cache key of the tiles around it."""

    state: CellState = "closed"
    #: The card of an open or covered position.
    face: Card | None = None
    #: The cards laid on a covered position, bottom first.
    cover: tuple[Card, ...] = ()
    #: A closed card the player to move cannot reach.
    dimmed: bool = False
    #: The last opened card's mark.
    ring: bool = False
    #: A position the player to move may choose.
    glow: bool = False
    #: The cell code on a reachable position, so the picture matches the buttons at a glance.
    badge: str | None = None
    #: The tokens that may end there, whose discs lead the code where a player has two (the
    #: buttons' "①E2").
    badge_tokens: tuple[Token, ...] = ()
    tokens: tuple[Token, ...] = ()
    #: A word on an empty position or a hole (a track's start, say).
    label: str | None = None
    #: A closed card everyone has seen face up before an effect closed it: drawn small on its back.
    seen: Card | None = None


@dataclass(frozen=True)
class Style:
    felt_centre: RGB
    felt_edge: RGB
    header: RGB
    label: RGB
    back: RGB
    glow: RGB
    mark: RGB
    #: How much the closed cards the mover cannot reach are darkened (0 = not at all).
    dim: int
    deck: Deck = "french"
    #: Positions may lose their card (empty, hole): each card then brings its own shadow. Else the
    #: shadows lie in the background under every position, and the tiles are cheaper to draw.
    vacancies: bool = False


# ----- geometry ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    header: int
    card_w: int
    card_h: int
    pitch_x: int
    pitch_y: int
    #: Top-left pixel of the card in the first row and column of the layout's bounding box.
    left: int
    top: int
    first_row: int
    first_col: int
    rows: int
    cols: int

    def cell_xy(self, cell: Cell) -> tuple[int, int]:
        row, col = cell
        return (
            self.left + (col - self.first_col) * self.pitch_x,
            self.top + (row - self.first_row) * self.pitch_y,
        )


@lru_cache(maxsize=32)
def geometry(layout: tuple[Cell, ...], size: int) -> Geometry:
    """Fit the layout's bounding box under the header so that the long side is exactly `size`."""
    rows_used = [r for r, _ in layout]
    cols_used = [c for _, c in layout]
    first_row, first_col = min(rows_used), min(cols_used)
    rows, cols = max(rows_used) - first_row + 1, max(cols_used) - first_col + 1
    header = round(size * 0.1)
    pad = round(size * 0.02)
    gap, label_left, label_top = 0.1, 0.3, 0.26  # in card widths
    # Canvas width and height are linear in the card width: a * card_w + b.
    ax, bx = label_left + cols + (cols - 1) * gap, 2 * pad
    ay = label_top + rows * CARD_ASPECT + (rows - 1) * gap * CARD_ASPECT
    by = header + 2 * pad
    card_w = int(min((size - bx) / ax, (size - by) / ay))
    card_h = round(card_w * CARD_ASPECT)
    pitch_x, pitch_y = card_w + round(card_w * gap), card_h + round(card_w * gap * CARD_ASPECT)
    field_w = round(label_left * card_w) + (cols - 1) * pitch_x + card_w
    field_h = round(label_top * card_w) + (rows - 1) * pitch_y + card_h
    width, height = field_w + bx, field_h + by
    # The long side becomes exactly `size`; the spare pixels go around the field.
    if width >= height:
        width = size
    else:
        height = size
    left = (width - field_w) // 2 + round(label_left * card_w)
    top = header + (height - header - field_h) // 2 + round(label_top * card_w)
    return Geometry(
        width, height, header, card_w, card_h, pitch_x, pitch_y, left, top, first_row, first_col, rows, cols
    )


# ----- the background ----------------------------------------------------------------------------


@lru_cache(maxsize=16)
def background(layout: tuple[Cell, ...], size: int, style: Style) -> Image.Image:
    """Felt, header band, row and column labels: what no turn changes. Shared: copy it."""
    geo = geometry(layout, size)
    img = felt(geo.width, geo.height, style.felt_centre, style.felt_edge)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, geo.width, geo.header - 1), fill=style.header)
    draw.line((0, geo.header - 1, geo.width, geo.header - 1), fill=style.felt_edge, width=1)
    px = max(10, round(geo.card_w * 0.2))
    first = (geo.first_row, geo.first_col)
    draw_axis_labels(
        img,
        [
            (geo.cell_xy((first[0], col))[0] + geo.card_w / 2, col)
            for col in range(first[1], first[1] + geo.cols)
        ],
        [
            (geo.cell_xy((row, first[1]))[1] + geo.card_h / 2, row)
            for row in range(first[0], first[0] + geo.rows)
        ],
        (geo.left - round(geo.card_w * 0.15), geo.top - round(geo.card_w * 0.13)),
        px,
        style.label,
    )
    if not style.vacancies:
        blur, drop = _shadow_reach(geo.card_w)
        shadow = card_shadow(geo.card_w, geo.card_h, blur)
        for cell in layout:
            x, y = geo.cell_xy(cell)
            paste(img, shadow, (x - blur + drop // 2, y - blur + drop))
    return img


def _shadow_reach(card_w: int) -> tuple[int, int]:
    """A card shadow's blur and drop."""
    return max(2, round(card_w * 0.06)), max(1, round(card_w * 0.03))


def draw_axis_labels(
    img: Image.Image,
    columns: Sequence[tuple[float, int]],
    rows: Sequence[tuple[float, int]],
    at: tuple[float, float],
    px: int,
    colour: RGB,
) -> None:
    """Column letters at height `at[1]` and row numbers at `at[0]` (middles and indices given).

    The labels come from cell_code itself, so a picture and its buttons can never disagree.
    """
    for x, col in columns:
        put_text(img, (x, at[1]), cell_code((0, col))[:-1], px, colour, "mm")
    for y, row in rows:
        put_text(img, (at[0], y), cell_code((row, 0))[1:], px, colour, "mm")


# ----- cell sprites ------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def dimmed_back(card_w: int, card_h: int, style: Style) -> Image.Image:
    """A back darkened for the closed cards the player to move cannot reach."""
    return darken(back(card_w, card_h, style.deck, style.back), style.dim)


@lru_cache(maxsize=128)
def covered(
    card: Card, cover: tuple[Card, ...], card_w: int, card_h: int, lang: str, deck: Deck
) -> Image.Image:
    """An open card with the cards laid on it, each a little smaller and turned, over a shadow."""
    img = Image.new("RGBA", (card_w, card_h), (0, 0, 0, 0))
    img.alpha_composite(face(card, card_w, card_h, lang, deck))
    small = (round(card_w * 0.78), round(card_h * 0.78))
    for n, laid in enumerate(cover):
        turned = face(laid, *small, lang, deck).rotate(
            8.0 if n % 2 else -8.0, resample=Image.Resampling.BICUBIC, expand=True
        )
        sprite = with_shadow(turned, max(2, card_w // 20))
        shift = round(card_w * 0.05 * n)
        # On a layer of the card's size first: what sticks out is cut off, and the card stays opaque.
        layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
        layer.paste(sprite, ((card_w - sprite.width) // 2 + shift, (card_h - sprite.height) // 2 + shift))
        img.alpha_composite(layer)
    return img


@lru_cache(maxsize=8)
def vacancy(card_w: int, card_h: int, style: Style, hole: bool) -> Image.Image:
    """An empty position (a faint outline where a card lay) or a hole (a dark pit, not passable)."""
    big = Image.new("RGBA", (card_w * SS, card_h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    if hole:
        r = card_w * SS * 0.42
        cx, cy = big.width / 2, big.height / 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*mix(style.felt_edge, (0, 0, 0), 0.55), 255))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(*style.label, 160), width=SS * 2)
    else:
        draw.rounded_rectangle(
            (SS, SS, big.width - SS, big.height - SS),
            radius=card_radius(card_w) * SS,
            fill=(*mix(style.felt_centre, style.felt_edge, 0.5), 120),
            outline=(*style.label, 110),
            width=SS * 2,
        )
    return big.reduce(SS)


def token_spots(tokens: Sequence[Token], card_w: int, card_h: int) -> list[tuple[Image.Image, int, int]]:
    """Token discs on one position and their offsets from its top-left corner.

    One or two tokens side by side at half a card wide; more in a grid of two or three columns,
    smaller, so that they all stay on the card (a position's tiles end at its glow).
    """
    n = len(tokens)
    if n <= 2:
        diameter = round(card_w * 0.5)
        cols, rows = max(1, n), 1
        step_x = min(diameter * 0.6, max(0.0, card_w - diameter * 1.2) / max(1, n - 1))
    else:
        cols = 2 if n <= 4 else 3
        rows = math.ceil(n / cols)
        diameter = round(min(card_w * 0.9 / cols, card_h * 0.9 / rows) / 1.2)
        step_x = diameter * 1.05
    step_y = diameter * 1.1
    spots = []
    for k, token in enumerate(tokens):
        disc = seat_token(token.seat, diameter, token.label, token.robot)
        row, col = divmod(k, cols)
        in_row = min(cols, n - row * cols)
        dx = round((col - (in_row - 1) / 2) * step_x)
        dy = round((row - (rows - 1) / 2) * step_y)
        spots.append((disc, (card_w - disc.width) // 2 + dx, (card_h - disc.height) // 2 + dy))
    return spots


def draw_cells(
    img: Image.Image,
    cells: Sequence[tuple[Cell, CellLook]],
    geo: Geometry,
    style: Style,
    lang: str,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """Draw the cells in layers (shadows, cards, marks, glows and badges, tokens), `origin` at (0, 0).

    The one drawing routine of the board: the whole picture and every cached tile come from it, so
    that a tile is exactly the crop of the whole picture it stands for.
    """
    cw, ch = geo.card_w, geo.card_h
    width, height = img.size

    def put(sprite: Image.Image, xy: tuple[int, int]) -> None:
        # A tile is a small crop of the field: most sprites of its cells miss it.
        x, y = xy
        if x < width and y < height and x + sprite.width > 0 and y + sprite.height > 0:
            paste(img, sprite, xy)

    placed = [
        (x - origin[0], y - origin[1], look) for (x, y), look in ((geo.cell_xy(c), k) for c, k in cells)
    ]
    for x, y, look in placed:
        sprite, margin = _card_of(look.state, look.face, look.cover, look.dimmed, cw, ch, style, lang)
        put(sprite, (x - margin, y - margin))
        if look.label is not None:
            px = max(9, round(cw * 0.2))
            put_text(img, (x + cw // 2, y + ch // 2), fit(look.label, px, cw * 0.9), px, style.label, "mm")
    for x, y, look in placed:
        if look.ring:
            put(ring_outline(cw, ch, style.mark, max(2, round(cw * 0.03))), (x, y))
    spread = glow_spread(cw)
    for x, y, look in placed:
        if look.glow:
            put(glow_outline(cw, ch, style.glow, spread), (x - spread, y - spread))
        if look.badge is not None:
            badge = cell_badge(look.badge, look.badge_tokens, max(9, round(cw * 0.22)))
            put(badge, (x + (cw - badge.width) // 2, y + (ch - badge.height) // 2))
        if look.seen is not None:
            # In the top corner, clear of the cell code a reachable card carries in its middle.
            inset = max(1, round(cw * 0.05))
            put(
                face(look.seen, round(cw * 0.42), round(ch * 0.42), lang, style.deck),
                (x + inset, y + inset),
            )
    for x, y, look in placed:
        for disc, dx, dy in token_spots(look.tokens, cw, ch):
            put(disc, (x + dx, y + dy))


@lru_cache(maxsize=256)
def cell_badge(code: str, tokens: tuple[Token, ...], px: int) -> Image.Image:
    """A reachable cell's code on a light pill, led by the discs of `tokens` (those that may end
    there), overlapping a little so that two fit a card's width."""
    label = pill(code, (255, 255, 255), px, (24, 26, 32), alpha=235)
    if not tokens:
        return label
    discs = [seat_token(token.seat, round(px * 1.25), token.label, token.robot) for token in tokens]
    step = round(discs[0].width * 0.7)
    lead = step * (len(discs) - 1) + discs[0].width - round(px * 0.3)
    height = max(label.height, discs[0].height)
    img = Image.new("RGBA", (lead + label.width, height), (0, 0, 0, 0))
    img.alpha_composite(label, (lead, (height - label.height) // 2))
    for n, disc in enumerate(discs):
        img.alpha_composite(disc, (n * step, (height - disc.height) // 2))
    return img


@lru_cache(maxsize=512)
def _card_of(
    state: CellState,
    card: Card | None,
    cover: tuple[Card, ...],
    dimmed: bool,
    cw: int,
    ch: int,
    style: Style,
    lang: str,
) -> tuple[Image.Image, int]:
    """What lies on a position (over its drop shadow if the style has vacancies), and the margin
    around the card. One sprite, one paste: no shadow reaches a neighbouring card."""
    if state in ("empty", "hole"):
        return vacancy(cw, ch, style, state == "hole"), 0
    if card is None:
        sprite = dimmed_back(cw, ch, style) if dimmed else back(cw, ch, style.deck, style.back)
    elif cover:
        sprite = covered(card, cover, cw, ch, lang, style.deck)
    else:
        sprite = face(card, cw, ch, lang, style.deck)
    if not style.vacancies:
        return sprite, 0
    blur, drop = _shadow_reach(cw)
    out = Image.new("RGBA", (cw + 2 * blur + drop, ch + 2 * blur + drop), (0, 0, 0, 0))
    out.alpha_composite(card_shadow(cw, ch, blur), (drop // 2, drop))
    out.alpha_composite(sprite, (blur, blur))
    return out, blur


# ----- the picture from cached palette tiles -----------------------------------------------------

Box = tuple[int, int, int, int]
#: A tile: which piece of the field, and the looks of the cells that draw on it.
TileKey = tuple[int, tuple[CellLook, ...]]
HeaderKey = tuple[object, ...]


class HeaderPart(NamedTuple):
    """A part of the header: its cache key, its box, and how to draw the whole header band for it."""

    key: HeaderKey
    box: Box
    draw: Callable[[Image.Image], None]


#: Tiles kept per board: a turn uses some hundred, a tile is ~15 KB at most (size 1000).
MAX_TILES = 3000
MAX_HEADERS = 256


@dataclass(eq=False)
class Board:
    """One board look (layout, size, style, language) cut into pieces, with its cached palette tiles.

    A piece is a rectangle of the field that the same cells draw on: the inside of a card (its own
    cell only), a gap between two cards (both cells' glows and card edges), a crossing of gaps
    (four cells). Every pixel outside all pieces is the background's; the header's parts are
    pieces of their own.
    """

    layout: tuple[Cell, ...]
    geo: Geometry
    style: Style
    lang: str
    palette: Image.Image
    #: The background in full colour, to draw tiles on (shared: crop it, never draw on it).
    backdrop: Image.Image
    #: The background mapped onto the palette: the canvas of every turn (shared: copy it).
    base: Image.Image
    #: (box, indices of the cells that draw on it) per piece.
    pieces: tuple[tuple[Box, tuple[int, ...]], ...]
    tiles: OrderedDict[TileKey, Image.Image] = field(default_factory=OrderedDict)
    headers: OrderedDict[HeaderKey, Image.Image] = field(default_factory=OrderedDict)

    @classmethod
    def create(
        cls, layout: tuple[Cell, ...], size: int, style: Style, lang: str, palette: Image.Image
    ) -> Board:
        geo = geometry(layout, size)
        backdrop = background(layout, size, style)
        return cls(
            layout, geo, style, lang, palette, backdrop, to_palette(backdrop, palette), _cut(geo, layout)
        )

    def compose(self, looks: Sequence[CellLook], header: Sequence[HeaderPart] = ()) -> Image.Image:
        """The picture as a palette image of its own: equal, pixel for pixel, to `draw_cells` (and the
        header's drawings) on the background mapped onto the palette."""
        # Pictures are drawn in worker threads; the tile caches are shared and evicted as they fill.
        with _CACHE_LOCK:
            keys = [(n, tuple(looks[i] for i in cells)) for n, (_, cells) in enumerate(self.pieces)]
            self._draw_tiles(keys)
            img = self.base.copy()
            for key, (box, _) in zip(keys, self.pieces, strict=True):
                self.tiles.move_to_end(key)
                img.paste(self.tiles[key], (box[0], box[1]))
            for part in header:
                img.paste(self._header_tile(part), (part.box[0], part.box[1]))
        return img

    def _draw_tiles(self, keys: Sequence[TileKey]) -> None:
        """Draw the missing tiles in full colour and map them all onto the palette at once."""
        missing = [key for key in dict.fromkeys(keys) if key not in self.tiles]
        # Mark this turn's tiles as recently used first, so the eviction below never drops them.
        for key in keys:
            if key in self.tiles:
                self.tiles.move_to_end(key)
        if not missing:
            return
        drawn = []
        for n, looks in missing:
            box, cells = self.pieces[n]
            canvas = self.backdrop.crop(box)
            shown = tuple((self.layout[i], look) for i, look in zip(cells, looks, strict=True))
            draw_cells(canvas, shown, self.geo, self.style, self.lang, origin=(box[0], box[1]))
            drawn.append(canvas)
        # One palette mapping for the lot: each call of quantize has a fixed cost of its own.
        strip = Image.new("RGB", (max(tile.width for tile in drawn), sum(tile.height for tile in drawn)))
        y = 0
        for tile in drawn:
            strip.paste(tile, (0, y))
            y += tile.height
        mapped = to_palette(strip, self.palette)
        y = 0
        for key, tile in zip(missing, drawn, strict=True):
            self.tiles[key] = mapped.crop((0, y, tile.width, y + tile.height))
            y += tile.height
        while len(self.tiles) > MAX_TILES:
            self.tiles.popitem(last=False)

    def _header_tile(self, part: HeaderPart) -> Image.Image:
        tile = self.headers.get(part.key)
        if tile is None:
            canvas = self.backdrop.crop((0, 0, self.geo.width, self.geo.header))
            part.draw(canvas)
            tile = self.headers[part.key] = to_palette(canvas.crop(part.box), self.palette)
            while len(self.headers) > MAX_HEADERS:
                self.headers.popitem(last=False)
        else:
            self.headers.move_to_end(part.key)
        return tile


_CACHE_LOCK = threading.Lock()


def _cut(geo: Geometry, layout: tuple[Cell, ...]) -> tuple[tuple[Box, tuple[int, ...]], ...]:
    """Cut the field below the header along every cell's reach (its card, shadow and glow) into pieces."""
    spread = glow_spread(geo.card_w)
    reach = []
    for cell in layout:
        x, y = geo.cell_xy(cell)
        reach.append(
            (
                max(0, x - spread),
                max(geo.header, y - spread),
                min(geo.width, x + geo.card_w + spread),
                min(geo.height, y + geo.card_h + spread),
            )
        )
    xs = sorted({0, geo.width, *(r[0] for r in reach), *(r[2] for r in reach)})
    ys = sorted({geo.header, geo.height, *(r[1] for r in reach), *(r[3] for r in reach)})
    pieces = []
    for top, bottom in itertools.pairwise(ys):
        for left, right in itertools.pairwise(xs):
            cells = tuple(
                i
                for i, r in enumerate(reach)
                if r[0] <= left and right <= r[2] and r[1] <= top and bottom <= r[3]
            )
            if cells:
                pieces.append(((left, top, right, bottom), cells))
    return tuple(pieces)
