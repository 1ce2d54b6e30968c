"""How a seat is shown on every picture: its name, its colour and its token disc."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from core.engine import Seat
from i18n import t
from render.draw import RGB, SS, ink_on, paste
from render.fonts import font, printable
from render.text import fit, put_text

#: Okabe-Ito colours, told apart with every common colour-vision deficiency; orange (light) and
#: blue (dark) for the first two seats also differ in brightness. Discs carry a number too.
SEAT_COLOURS: tuple[RGB, ...] = (
    (230, 159, 0),
    (0, 114, 178),
    (204, 121, 167),
    (0, 158, 115),
    (213, 94, 0),
    (86, 180, 233),
)


def seat_colour(seat: Seat) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def player_name(seat: Seat, names: Sequence[str], lang: str) -> str:
    """The given name without glyphs the font lacks, or `Игрок 1` / `Player 1`."""
    name = printable(names[seat]) if 0 <= seat < len(names) else ""
    return name or t(lang, "Player {n}", n=seat + 1)


@lru_cache(maxsize=128)
def token_disc(colour: RGB, diameter: int, label: str) -> Image.Image:
    """A token: a coloured disc with a white rim, a soft shadow below and a number or letter."""
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
    size = round(d * (0.5 if len(label) < 2 else 0.4))
    draw.text((p + d / 2, p + d / 2), label, font=font(size, bold=True), fill=ink_on(colour), anchor="mm")
    return img.reduce(SS)


def seat_token(seat: Seat, diameter: int, label: str | None = None) -> Image.Image:
    """The seat's disc with its number (or `label`, a token's own number)."""
    return token_disc(seat_colour(seat), diameter, str(seat + 1) if label is None else label)


#: A line of a header is a row of pieces: text, or a seat whose token disc is drawn inline.
Piece = str | int


def draw_pieces(
    img: Image.Image, x: float, y: float, pieces: Sequence[Piece], px: int, colour: RGB, end: float
) -> float:
    """Draw pieces left to right, vertically centred on y, cutting text that would pass `end`;
    returns where the line ends."""
    for piece in pieces:
        if isinstance(piece, int):
            disc = seat_token(piece, px)
            paste(img, disc, (x, y - disc.height / 2))
            x += disc.width + px * 0.2
        else:
            x += put_text(img, (x, y), fit(piece, px, end - x), px, colour)
    return x
