"""The picture of Game 1's field (card-grid exploration) from its public view.

`render_grid` composes cached pieces only: a background per (layout, size, theme) with the felt,
row and column labels and card shadows; card sprites from render/cards.py; token discs, glows
and badges cached per size. A turn costs some pastes, two lines of text, a mapping onto a
cached palette and one PNG encode.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from core.cards import deck36
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
#: 96 colours keep the felt gradient smooth enough; zlib level 6 is the knee of size vs time
#: (level 3: +20% bytes, level 9: 5x the time for -3%).
PALETTE_COLOURS = 96
PNG_LEVEL = 6


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
    img = compose_grid(view, names=names, theme=theme, lang=lang, size=size)
    return _png(img.quantize(palette=palette(view.layout, size, theme), dither=Image.Dither.NONE))


def encode(img: Image.Image) -> bytes:
    """Any picture as an 8-bit palette PNG with its own palette (render_grid uses a cached one).

    Why a palette PNG: crisp pips and text at about a quarter of the size of an equally sharp JPEG.
    Flat cards and felt need few colours; JPEG spends its bytes on the many sharp card edges
    (q85 4:4:4 was ~290 KB for a mid-game field, q75 4:2:0 still ~170 KB with smeared red pips).
    The octree palette is adaptive and deterministic; no dithering, which would add noise and bytes.
    """
    return _png(img.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=PNG_LEVEL)
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
    """The picture of `render_grid` before encoding (an RGB image of its own)."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; known: {sorted(THEMES)}")
    look = THEMES[theme]
    geo = geometry(view.layout, size)
    img = background(view.layout, size, theme).copy()
    cw, ch = geo.card_w, geo.card_h
    reachable = set(view.reachable)
    # Dim what cannot be reached only when some cells can: a first turn lights up everything.
    dim = view.to_move is not None and view.steps is not None

    for index, cell in enumerate(view.layout):
        x, y = geo.cell_xy(cell)
        card = view.faces[index]
        if card is not None:
            paste(img, card_face(card, cw, ch, lang), (x, y))
        elif dim and index not in reachable:
            paste(img, dimmed_back(cw, ch, look.back, look.dim), (x, y))
        else:
            paste(img, card_back(cw, ch, look.back), (x, y))

    if view.last_opened is not None:
        x, y = geo.cell_xy(view.layout[view.last_opened])
        paste(img, ring_outline(cw, ch, look.mark, max(2, round(cw * 0.03))), (x, y))

    spread = max(4, round(cw * 0.12))
    glow = glow_outline(cw, ch, look.glow, spread)
    for index in sorted(reachable):
        cell = view.layout[index]
        x, y = geo.cell_xy(cell)
        paste(img, glow, (x - spread, y - spread))
        if view.steps is not None:  # on a first turn 35 badges would only clutter the field
            badge = code_badge(cell_code(cell), cw)
            paste(img, badge, (x + (cw - badge.width) // 2, y + (ch - badge.height) // 2))

    _draw_tokens(img, view, geo)
    _draw_header(img, view, geo, look, names, lang)
    return img


def _draw_tokens(img: Image.Image, view: GridView, geo: Geometry) -> None:
    diameter = round(geo.card_w * 0.5)
    by_cell: dict[int, list[int]] = {}
    for seat, cell_index in enumerate(view.tokens):
        if cell_index is not None:
            by_cell.setdefault(cell_index, []).append(seat)
    for cell_index, seats in sorted(by_cell.items()):
        x, y = geo.cell_xy(view.layout[cell_index])
        for k, seat in enumerate(seats):
            disc = token_disc(SEAT_COLOURS[seat % len(SEAT_COLOURS)], diameter, str(seat + 1))
            # Several tokens on one card (not in this game's rules, but cheap to allow) side by side.
            shift = round((k - (len(seats) - 1) / 2) * diameter * 0.6)
            paste(
                img, disc, (x + (geo.card_w - disc.width) // 2 + shift, y + (geo.card_h - disc.height) // 2)
            )


def _draw_header(
    img: Image.Image, view: GridView, geo: Geometry, look: Theme, names: Sequence[str], lang: str
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
        paste(img, card_face(view.aside, aw, ah, lang), (ax, ay))
        caption = font(small)
        draw.text(
            (ax - margin // 2, geo.header * 0.3), s["aside"], font=caption, fill=look.muted, anchor="rm"
        )
        right = ax - margin // 2

    closed = s["closed"].format(n=view.closed)
    closed_font = font(small)
    draw.text((right, geo.header * 0.72), closed, font=closed_font, fill=look.muted, anchor="rm")
    legend_end = right - closed_font.getlength(closed) - margin

    _draw_pieces(img, margin, geo.header * 0.3, _status(view, names, lang), big, look.text, right)
    _draw_pieces(img, margin, geo.header * 0.72, _legend(view, names, lang), small, look.muted, legend_end)
