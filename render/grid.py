"""The picture of Game 1's field (card-grid exploration) from its public view.

Drawn once per table look (layout, size, theme, language): a background with the felt, row and
column labels and card shadows, and a palette for every turn. The field is cut into pieces that
the same cells draw on (a card's inside, the gap between two cards, a crossing of gaps); a
piece's look in palette form is a tile, cached by the looks of those cells. A turn is ~120
pastes of cached tiles and a cached header onto the background, then one PNG encode.
`compose_grid` draws the same picture in full colour from scratch, as the reference.
"""

from __future__ import annotations

import io
import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from core.cards import Card, deck36
from core.engine import Outcome, Seat
from core.games.grid import Cell, GridView, cell_code
from render.cards import (
    BACK_BLUE,
    BACK_RED,
    RGB,
    SS,
    card_back,
    card_face,
    card_shadow,
    glow_outline,
    paste,
    ring_outline,
)
from render.fonts import font, printable

# ----- look --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Theme:
    felt_centre: RGB
    felt_edge: RGB
    header: RGB
    text: RGB
    muted: RGB
    label: RGB
    back: RGB
    glow: RGB
    mark: RGB
    #: How much the closed cards the mover cannot reach are darkened (0 = not at all).
    dim: int


THEMES: dict[str, Theme] = {
    "classic": Theme(
        felt_centre=(44, 124, 78),
        felt_edge=(18, 70, 42),
        header=(12, 48, 30),
        text=(246, 244, 236),
        muted=(178, 208, 188),
        label=(196, 226, 204),
        back=BACK_RED,
        glow=(255, 226, 92),
        mark=(255, 196, 0),
        dim=60,
    ),
    "dark": Theme(
        felt_centre=(48, 54, 68),
        felt_edge=(20, 22, 30),
        header=(14, 15, 21),
        text=(238, 240, 246),
        muted=(160, 168, 186),
        label=(170, 180, 200),
        back=BACK_BLUE,
        glow=(120, 220, 255),
        mark=(255, 196, 0),
        dim=80,
    ),
}

#: Okabe-Ito colours, told apart with every common colour-vision deficiency; orange (light) and
#: blue (dark) for the first two seats also differ in brightness. Discs carry the seat number too.
SEAT_COLOURS: tuple[RGB, ...] = ((230, 159, 0), (0, 114, 178), (204, 121, 167), (0, 158, 115))

STRINGS: dict[str, dict[str, str]] = {
    "ru": {
        "turn": "Ход:",
        "any": "любая закрытая карта",
        "closed": "Закрыто: {n}",
        "player": "Игрок {n}",
        "winner": "Победа:",
        "solo_win": "Победа! Все карты открыты",
        "solo_loss": "Поражение: ходить некуда",
        "draw": "Ничья",
        "nobody": "Никто не победил",
        "aside": "36-я карта",
        "waiting": "Раздача…",
    },
    "en": {
        "turn": "Turn:",
        "any": "any closed card",
        "closed": "Closed: {n}",
        "player": "Player {n}",
        "winner": "Winner:",
        "solo_win": "Solo win! Every card is open",
        "solo_loss": "Solo loss: no move left",
        "draw": "Draw",
        "nobody": "Nobody won",
        "aside": "Unused card",
        "waiting": "Dealing…",
    },
}

CARD_ASPECT = 1.4
#: 96 colours keep the felt gradient smooth enough.
PALETTE_COLOURS = 96
#: zlib level 4 is the knee of size vs time for a turn: a mid-game field is ~76 KB in ~8 ms
#: (level 3: ~78 KB but a quarter of mid-game fields go over the budget; level 6: ~68 KB in ~16 ms).
PNG_LEVEL = 4
#: The rare picture that level 4 leaves over the budget is encoded again at level 6.
PNG_BUDGET = 80 * 1024
PNG_LEVEL_OVER_BUDGET = 6


def _strings(lang: str) -> dict[str, str]:
    return STRINGS["ru" if lang == "ru" else "en"]


def steps_text(steps: int, lang: str) -> str:
    """`3 шага`, `5 шагов`, `1 step`: Russian needs three plural forms."""
    if lang != "ru":
        return f"{steps} step" if steps == 1 else f"{steps} steps"
    if steps % 10 == 1 and steps % 100 != 11:
        word = "шаг"
    elif 2 <= steps % 10 <= 4 and not 12 <= steps % 100 <= 14:
        word = "шага"
    else:
        word = "шагов"
    return f"{steps} {word}"


def player_name(seat: Seat, names: Sequence[str], lang: str) -> str:
    """The given name without glyphs the font lacks, or `Игрок 1` / `Player 1`."""
    name = printable(names[seat]) if seat < len(names) else ""
    return name or _strings(lang)["player"].format(n=seat + 1)


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


# ----- cached pieces -----------------------------------------------------------------------------


def _felt(width: int, height: int, theme: Theme) -> Image.Image:
    """A radial gradient: smooth, so it costs few palette entries and few PNG bytes."""
    ramp = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    # radial_gradient is 0 in the centre and grows outwards; stretch it so the corners are darkest.
    ramp = ramp.point(lambda v: min(255, round(v * 1.25)))
    return Image.composite(
        Image.new("RGB", (width, height), theme.felt_edge),
        Image.new("RGB", (width, height), theme.felt_centre),
        ramp,
    )


@lru_cache(maxsize=16)
def background(layout: tuple[Cell, ...], size: int, theme: str) -> Image.Image:
    """Felt, header band, row/column labels and card shadows: what no turn changes. Shared: copy it."""
    look = THEMES[theme]
    geo = geometry(layout, size)
    img = _felt(geo.width, geo.height, look)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, geo.width, geo.header - 1), fill=look.header)
    draw.line((0, geo.header - 1, geo.width, geo.header - 1), fill=look.felt_edge, width=1)

    # Labels use cell_code itself, so the picture and the buttons can never disagree.
    label_font = font(max(10, round(geo.card_w * 0.2)), bold=True)
    top_y = geo.top - round(geo.card_w * 0.13)
    for col in range(geo.first_col, geo.first_col + geo.cols):
        x, _ = geo.cell_xy((geo.first_row, col))
        letter = cell_code((0, col))[:-1]
        draw.text((x + geo.card_w / 2, top_y), letter, font=label_font, fill=look.label, anchor="mm")
    left_x = geo.left - round(geo.card_w * 0.15)
    for row in range(geo.first_row, geo.first_row + geo.rows):
        _, y = geo.cell_xy((row, geo.first_col))
        number = cell_code((row, 0))[1:]
        draw.text((left_x, y + geo.card_h / 2), number, font=label_font, fill=look.label, anchor="mm")

    blur = max(2, round(geo.card_w * 0.06))
    shadow = card_shadow(geo.card_w, geo.card_h, blur)
    drop = max(1, round(geo.card_w * 0.03))
    for cell in layout:
        x, y = geo.cell_xy(cell)
        paste(img, shadow, (x - blur + drop // 2, y - blur + drop))
    return img


@lru_cache(maxsize=16)
def token_disc(colour: RGB, diameter: int, label: str) -> Image.Image:
    """A player's token: a coloured disc with a white rim, a soft shadow and the seat number."""
    pad = max(2, diameter // 10)
    full = (diameter + 2 * pad) * SS
    img = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    d, p = diameter * SS, pad * SS
    draw.ellipse((p, p + p // 2, p + d, p + d + p // 2), fill=(0, 0, 0, 110))  # shadow below
    # A dark hairline, a white rim and the colour: visible on white cards, red backs and felt alike.
    draw.ellipse((p, p, p + d, p + d), fill=(30, 30, 36, 255))
    line = max(SS, d // 40)
    draw.ellipse((p + line, p + line, p + d - line, p + d - line), fill=(255, 255, 255, 255))
    rim = max(SS, d // 10)
    draw.ellipse((p + rim, p + rim, p + d - rim, p + d - rim), fill=(*colour, 255))
    luma = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    ink = (20, 20, 24, 255) if luma > 140 else (255, 255, 255, 255)
    draw.text((p + d / 2, p + d / 2), label, font=font(round(d * 0.5), bold=True), fill=ink, anchor="mm")
    return img.reduce(SS)


@lru_cache(maxsize=256)
def code_badge(code: str, card_w: int) -> Image.Image:
    """The cell code on a reachable card, so the picture matches the buttons at a glance."""
    face = font(max(9, round(card_w * 0.22)), bold=True)
    left, top, right, bottom = face.getbbox(code, anchor="mm")
    pad_x, pad_y = round(card_w * 0.08), round(card_w * 0.05)
    w, h = math.ceil(right - left) + 2 * pad_x, math.ceil(bottom - top) + 2 * pad_y
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=h * SS // 2, fill=(255, 255, 255, 235))
    big_face = font(face.size * SS, bold=True)
    draw.text((w * SS / 2, h * SS / 2), code, font=big_face, fill=(24, 26, 32, 255), anchor="mm")
    return big.reduce(SS)


@lru_cache(maxsize=8)
def dimmed_back(card_w: int, card_h: int, tint: RGB, amount: int) -> Image.Image:
    """A card back darkened for the closed cards the player to move cannot reach."""
    back = card_back(card_w, card_h, tint)
    out = back.copy()
    out.paste((0, 0, 0), (0, 0, *back.size), Image.new("L", back.size, amount))
    out.putalpha(back.getchannel("A"))  # keep the rounded corners transparent
    return out


# ----- header ------------------------------------------------------------------------------------

#: A header line is a row of pieces: text, or a seat whose token disc is drawn inline.
Piece = str | int


def _draw_pieces(
    img: Image.Image, x: float, y: float, pieces: Sequence[Piece], size: int, colour: RGB, max_x: float
) -> float:
    """Draw pieces left to right, vertically centred on y; return the x after the last one."""
    draw = ImageDraw.Draw(img)
    face = font(size, bold=True)
    for piece in pieces:
        if isinstance(piece, int):
            disc = token_disc(SEAT_COLOURS[piece % len(SEAT_COLOURS)], round(size * 1.0), str(piece + 1))
            paste(img, disc, (round(x), round(y - disc.height / 2)))
            x += disc.width + size * 0.2
        else:
            text = _fit(piece, face, max_x - x)
            draw.text((x, y), text, font=face, fill=colour, anchor="lm")
            x += face.getlength(text)
    return x


def _fit(text: str, face: ImageFont.FreeTypeFont, room: float) -> str:
    """Cut text with an ellipsis so it fits into `room` pixels."""
    if face.getlength(text) <= room:
        return text
    while text and face.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…" if text else ""


def _status(view: GridView, names: Sequence[str], lang: str) -> list[Piece]:
    """The first header line: the result, or whose turn it is and how many steps."""
    s = _strings(lang)
    if view.outcome is not None:
        return _result(view.outcome, view.players, names, lang)
    if view.to_move is None:
        return [s["waiting"]]
    seat = view.to_move
    task = s["any"] if view.steps is None else steps_text(view.steps, lang)
    return [s["turn"] + " ", seat, player_name(seat, names, lang) + " — " + task]


def _result(outcome: Outcome, players: int, names: Sequence[str], lang: str) -> list[Piece]:
    s = _strings(lang)
    if outcome.draw:
        return [s["draw"]]
    if players == 1:
        return [s["solo_win"] if outcome.winners else s["solo_loss"]]
    if not outcome.winners:
        return [s["nobody"]]
    pieces: list[Piece] = [s["winner"] + " "]
    for i, seat in enumerate(outcome.winners):
        pieces += [*([", "] if i else []), seat, player_name(seat, names, lang)]
    return pieces


def _legend(view: GridView, names: Sequence[str], lang: str) -> list[Piece]:
    pieces: list[Piece] = []
    for seat in range(view.players):
        pieces += [*(["     "] if seat else []), seat, player_name(seat, names, lang)]
    return pieces


# ----- what a cell shows ------------------------------------------------------------------------


class CellLook(NamedTuple):
    """Everything drawn on one cell in a turn. Hashable: the cache key of the tiles around the cell."""

    face: Card | None
    #: A closed card the player to move cannot reach.
    dimmed: bool
    #: The last opened card's mark.
    ring: bool
    glow: bool
    #: The cell code on a reachable card (none on a first turn: 35 badges would only clutter).
    badge: str | None
    tokens: tuple[Seat, ...]


def cell_looks(view: GridView) -> tuple[CellLook, ...]:
    """The look of every cell of the layout, in layout order."""
    reachable = set(view.reachable)
    # Dim what cannot be reached only when some cells can: a first turn lights up everything.
    dim = view.to_move is not None and view.steps is not None
    seats_on: dict[int, list[Seat]] = {}
    for seat, cell_index in enumerate(view.tokens):
        if cell_index is not None:
            seats_on.setdefault(cell_index, []).append(seat)
    return tuple(
        CellLook(
            face=view.faces[index],
            dimmed=dim and view.faces[index] is None and index not in reachable,
            ring=index == view.last_opened,
            glow=index in reachable,
            badge=cell_code(cell) if index in reachable and view.steps is not None else None,
            tokens=tuple(seats_on.get(index, ())),
        )
        for index, cell in enumerate(view.layout)
    )


def glow_spread(card_w: int) -> int:
    return max(4, round(card_w * 0.12))


def _token_spots(seats: Sequence[Seat], geo: Geometry) -> list[tuple[Image.Image, int, int]]:
    """Token discs on one card and their offsets from its top-left corner."""
    diameter = round(geo.card_w * 0.5)
    spots = []
    for k, seat in enumerate(seats):
        disc = token_disc(SEAT_COLOURS[seat % len(SEAT_COLOURS)], diameter, str(seat + 1))
        # Several tokens on one card (not in this game's rules, but cheap to allow) side by side,
        # squeezed if need be so that they stay on the card (a cell's tiles end at its glow).
        step = diameter * 0.6
        if len(seats) > 1:
            step = min(step, max(0, geo.card_w - disc.width) / (len(seats) - 1))
        shift = round((k - (len(seats) - 1) / 2) * step)
        spots.append((disc, (geo.card_w - disc.width) // 2 + shift, (geo.card_h - disc.height) // 2))
    return spots


def _draw_cells(
    img: Image.Image,
    cells: Sequence[tuple[Cell, CellLook]],
    geo: Geometry,
    look: Theme,
    lang: str,
    origin: tuple[int, int] = (0, 0),
) -> None:
    """Draw the cells' sprites in layers (cards, mark, glows and badges, tokens), `origin` at (0, 0).

    The one drawing routine of the field: the whole picture and every cached tile come from it,
    so that a tile is exactly the crop of the whole picture it stands for.
    """
    cw, ch = geo.card_w, geo.card_h
    width, height = img.size

    def put(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
        # A tile is a small crop of the field: most sprites of its cells miss it.
        x, y = xy
        if x < width and y < height and x + sprite.width > 0 and y + sprite.height > 0:
            paste(img, sprite, xy)

    placed = []
    for cell, shown in cells:
        x, y = geo.cell_xy(cell)
        placed.append((x - origin[0], y - origin[1], shown))
    for x, y, shown in placed:
        if shown.face is not None:
            put(img, card_face(shown.face, cw, ch, lang), (x, y))
        elif shown.dimmed:
            put(img, dimmed_back(cw, ch, look.back, look.dim), (x, y))
        else:
            put(img, card_back(cw, ch, look.back), (x, y))
    for x, y, shown in placed:
        if shown.ring:
            put(img, ring_outline(cw, ch, look.mark, max(2, round(cw * 0.03))), (x, y))
    spread = glow_spread(cw)
    for x, y, shown in placed:
        if shown.glow:
            put(img, glow_outline(cw, ch, look.glow, spread), (x - spread, y - spread))
        if shown.badge is not None:
            badge = code_badge(shown.badge, cw)
            put(img, badge, (x + (cw - badge.width) // 2, y + (ch - badge.height) // 2))
    for x, y, shown in placed:
        for disc, dx, dy in _token_spots(shown.tokens, geo):
            put(img, disc, (x + dx, y + dy))


# ----- the picture -------------------------------------------------------------------------------


def render_grid(
    view: GridView,
    *,
    names: tuple[str, ...] = (),
    theme: str = "classic",
    lang: str = "ru",
    size: int = 1000,
) -> bytes:
    """The field as PNG bytes, `size` px on the long side. Pure: same arguments, same bytes."""
    return _png(compose_indexed(view, names=names, theme=theme, lang=lang, size=size))


def encode(img: Image.Image) -> bytes:
    """Any picture as an 8-bit palette PNG (a palette image as it is; others get their own palette).

    Why a palette PNG: crisp pips and text at about a quarter of the size of an equally sharp JPEG.
    Flat cards and felt need few colours; JPEG spends its bytes on the many sharp card edges
    (q85 4:4:4 was ~290 KB for a mid-game field, q75 4:2:0 still ~170 KB with smeared red pips).
    The octree palette is adaptive and deterministic; no dithering, which would add noise and bytes.
    """
    if img.mode != "P":
        img = img.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return _png(img)


def _png(img: Image.Image) -> bytes:
    data = _png_at(img, PNG_LEVEL)
    return data if len(data) <= PNG_BUDGET else _png_at(img, PNG_LEVEL_OVER_BUDGET)


def _png_at(img: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=level)
    return out.getvalue()


@lru_cache(maxsize=16)
def palette(layout: tuple[Cell, ...], size: int, theme: str) -> Image.Image:
    """A palette for every turn of one table look: octree over a swatch of everything a turn can show.

    Mapping a picture to a fixed palette costs ~2 ms against ~10-20 ms for a fresh octree, and the
    swatch holds every sprite (all 36 faces, plain/dimmed/glowing backs, tokens, badges, header).
    """
    cells = len(layout)
    deck = deck36()
    seats = len(SEAT_COLOURS)
    spread_tokens = tuple(i * cells // seats for i in range(seats))
    open_all = GridView(
        seat=None,
        players=seats,
        layout=layout,
        faces=tuple(deck[i % len(deck)] for i in range(cells)),
        tokens=spread_tokens,
        to_move=None,
        steps=None,
        reachable=(),
        last_opened=0,
        closed=0,
        outcome=Outcome(winners=(0,)),
        aside=deck[-1],
    )
    closed_all = open_all.model_copy(
        update={
            "faces": (None,) * cells,
            "to_move": 0,
            "steps": 3,
            "reachable": tuple(range(0, cells, 2)),
            "outcome": None,
            "aside": None,
        }
    )
    names = tuple(f"Игрок {seat + 1} Player" for seat in range(seats))
    first = compose_grid(open_all, names=names, theme=theme, size=size)
    second = compose_grid(closed_all, names=names, theme=theme, size=size)
    swatch = Image.new("RGB", (first.width * 2, first.height))
    swatch.paste(first, (0, 0))
    swatch.paste(second, (first.width, 0))
    return swatch.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def compose_grid(
    view: GridView,
    *,
    names: tuple[str, ...] = (),
    theme: str = "classic",
    lang: str = "ru",
    size: int = 1000,
) -> Image.Image:
    """The picture in full colour, drawn from scratch (an RGB image of its own).

    The reference for `compose_indexed`, which is this mapped onto `palette`, pixel for pixel.
    """
    look = _theme(theme)
    geo = geometry(view.layout, size)
    img = background(view.layout, size, theme).copy()
    _draw_cells(img, tuple(zip(view.layout, cell_looks(view), strict=True)), geo, look, lang)
    _draw_header(img, view, geo, look, names, lang)
    return img


def _theme(theme: str) -> Theme:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; known: {sorted(THEMES)}")
    return THEMES[theme]


# ----- the picture from cached palette tiles -----------------------------------------------------

Box = tuple[int, int, int, int]
#: A tile: which piece of the field, and the looks of the cells that draw on it.
TileKey = tuple[int, tuple[CellLook, ...]]
HeaderKey = tuple[object, ...]

#: Tiles kept per board: a turn uses ~120, a tile is ~15 KB at most (size 1000).
MAX_TILES = 3000
MAX_HEADERS = 256


@dataclass(eq=False)
class Board:
    """One table look (layout, size, theme, language) cut into pieces, with its cached palette tiles.

    A piece is a rectangle of the field that the same cells draw on: the inside of a card (its own
    cell only), a gap between two cards (both cells' glows and card edges), a crossing of gaps
    (four cells). Every pixel outside all pieces is the background's; the header is a piece of
    its own. A turn pastes one tile per piece onto the background, already in palette form.
    """

    layout: tuple[Cell, ...]
    geo: Geometry
    look: Theme
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

    def tile_keys(self, looks: Sequence[CellLook]) -> list[TileKey]:
        return [(n, tuple(looks[i] for i in cells)) for n, (_, cells) in enumerate(self.pieces)]

    def draw_tiles(self, keys: Sequence[TileKey]) -> None:
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
            _draw_cells(canvas, shown, self.geo, self.look, self.lang, origin=(box[0], box[1]))
            drawn.append(canvas)
        # One palette mapping for the lot: each call of quantize has a fixed cost of its own.
        strip = Image.new("RGB", (max(tile.width for tile in drawn), sum(tile.height for tile in drawn)))
        y = 0
        for tile in drawn:
            strip.paste(tile, (0, y))
            y += tile.height
        mapped = _to_palette(strip, self.palette)
        y = 0
        for key, tile in zip(missing, drawn, strict=True):
            self.tiles[key] = mapped.crop((0, y, tile.width, y + tile.height))
            y += tile.height
        while len(self.tiles) > MAX_TILES:
            self.tiles.popitem(last=False)

    def header(self, view: GridView, names: Sequence[str]) -> list[tuple[Image.Image, Box]]:
        """The header's tiles and their boxes: one for the whole header once the game is over."""
        status = tuple(_status(view, names, self.lang))
        if view.outcome is not None and view.aside is not None:
            key: HeaderKey = ("all", status, tuple(_legend(view, names, self.lang)), view.closed, view.aside)
            box = (0, 0, self.geo.width, self.geo.header)
            return [(self._header_tile(key, view, names, HEADER_PARTS, box), box)]
        boxes = _header_boxes(self.geo, self.lang, len(self.layout))
        keys: dict[str, HeaderKey] = {
            "status": ("status", status),
            "legend": ("legend", tuple(_legend(view, names, self.lang))),
            "closed": ("closed", view.closed),
        }
        return [
            (self._header_tile(keys[part], view, names, (part,), boxes[part]), boxes[part]) for part in keys
        ]

    def _header_tile(
        self, key: HeaderKey, view: GridView, names: Sequence[str], parts: Sequence[str], box: Box
    ) -> Image.Image:
        tile = self.headers.get(key)
        if tile is None:
            canvas = self.backdrop.crop((0, 0, self.geo.width, self.geo.header))
            _draw_header(canvas, view, self.geo, self.look, names, self.lang, parts)
            tile = self.headers[key] = _to_palette(canvas.crop(box), self.palette)
            while len(self.headers) > MAX_HEADERS:
                self.headers.popitem(last=False)
        else:
            self.headers.move_to_end(key)
        return tile


def _to_palette(img: Image.Image, colours: Image.Image) -> Image.Image:
    """Nearest palette colour per pixel: no dithering, so a pixel never depends on its neighbours."""
    return img.quantize(palette=colours, dither=Image.Dither.NONE)


def _cut(geo: Geometry, layout: tuple[Cell, ...]) -> tuple[tuple[Box, tuple[int, ...]], ...]:
    """Cut the field below the header along every cell's reach (its card and glow) into pieces."""
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


@lru_cache(maxsize=16)
def board(layout: tuple[Cell, ...], size: int, theme: str, lang: str) -> Board:
    """The cached pieces of one table look; its tiles are drawn as turns need them."""
    look = _theme(theme)
    geo = geometry(layout, size)
    colours = palette(layout, size, theme)
    backdrop = background(layout, size, theme)
    return Board(
        layout=layout,
        geo=geo,
        look=look,
        lang=lang,
        palette=colours,
        backdrop=backdrop,
        base=_to_palette(backdrop, colours),
        pieces=_cut(geo, layout),
    )


def compose_indexed(
    view: GridView,
    *,
    names: tuple[str, ...] = (),
    theme: str = "classic",
    lang: str = "ru",
    size: int = 1000,
) -> Image.Image:
    """The picture of `render_grid` before encoding: a palette ("P") image of its own.

    Equal, pixel for pixel, to `compose_grid` mapped onto `palette`; made of cached tiles, so a
    turn costs ~120 small pastes (and drawing the few tiles never seen before).
    """
    # The bot renders in worker threads; the tile caches are shared and evicted as they fill.
    with _CACHE_LOCK:
        table = board(view.layout, size, theme, lang)
        keys = table.tile_keys(cell_looks(view))
        table.draw_tiles(keys)
        img = table.base.copy()
        tiles = table.tiles
        for key, (box, _) in zip(keys, table.pieces, strict=True):
            tile = tiles[key]
            tiles.move_to_end(key)
            img.paste(tile, (box[0], box[1]))
        for tile, box in table.header(view, names):
            img.paste(tile, (box[0], box[1]))
    return img


_CACHE_LOCK = threading.Lock()


#: The parts of the header, each cached on its own while the game goes on (the count of closed
#: cards changes every turn, the legend never): the status line above SPLIT_Y, then below it the
#: legend left of the widest count of closed cards and that count.
HEADER_PARTS = ("status", "legend", "closed")
HEADER_SPLIT_Y = 0.53


@lru_cache(maxsize=32)
def _closed_width(size: int, lang: str, cells: int) -> float:
    """The width of the widest `Закрыто: N`: the legend ends before it whatever the count."""
    face = font(size)
    return max(face.getlength(_strings(lang)["closed"].format(n=n)) for n in range(cells + 1))


def _draw_header(
    img: Image.Image,
    view: GridView,
    geo: Geometry,
    look: Theme,
    names: Sequence[str],
    lang: str,
    parts: Sequence[str] = HEADER_PARTS,
) -> None:
    s = _strings(lang)
    draw = ImageDraw.Draw(img)
    margin = round(geo.width * 0.025)
    big = max(10, round(geo.header * 0.3))
    small = max(9, round(geo.header * 0.24))
    right = geo.width - margin

    if view.outcome is not None and view.aside is not None:
        # The unused 36th card, shown face up in the header's corner once the game is over.
        ah = geo.header - 2 * round(geo.header * 0.08)
        aw = round(ah / CARD_ASPECT)
        ax, ay = right - aw, (geo.header - ah) // 2
        if "status" in parts:
            paste(img, card_face(view.aside, aw, ah, lang), (ax, ay))
            caption = font(small)
            draw.text(
                (ax - margin // 2, geo.header * 0.3), s["aside"], font=caption, fill=look.muted, anchor="rm"
            )
        right = ax - margin // 2

    if "closed" in parts:
        closed = s["closed"].format(n=view.closed)
        draw.text((right, geo.header * 0.72), closed, font=font(small), fill=look.muted, anchor="rm")
    if "status" in parts:
        _draw_pieces(img, margin, geo.header * 0.3, _status(view, names, lang), big, look.text, right)
    if "legend" in parts:
        legend_end = right - _closed_width(small, lang, len(view.layout)) - margin
        _draw_pieces(
            img, margin, geo.header * 0.72, _legend(view, names, lang), small, look.muted, legend_end
        )


def _header_boxes(geo: Geometry, lang: str, cells: int) -> dict[str, Box]:
    """Where each part of the header is (while the unused card is not shown)."""
    margin = round(geo.width * 0.025)
    split_y = round(geo.header * HEADER_SPLIT_Y)
    small = max(9, round(geo.header * 0.24))
    split_x = round(geo.width - margin - _closed_width(small, lang, cells) - margin / 2)
    return {
        "status": (0, 0, geo.width, split_y),
        "legend": (0, split_y, split_x, geo.header),
        "closed": (split_x, split_y, geo.width, geo.header),
    }
