"""How a seat is shown on every picture: its name, its colour and its token disc (a robot's head
where a computer plays the seat)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from core.engine import Seat
from i18n import t
from render.draw import RGB, SS, ink_on, paste
from render.fonts import font, printable
from render.text import fit, put_text, width_of

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


#: How the names given to a picture mark a seat a computer plays (a computer's, or a person's it
#: plays for). The font has no emoji, so the pictures draw that seat's token as a robot instead.
COMPUTER_MARK = "🤖 "


def robots(names: Sequence[str]) -> frozenset[Seat]:
    """The seats a computer plays, by their marked names."""
    return frozenset(seat for seat, name in enumerate(names) if name.startswith(COMPUTER_MARK))


def player_name(seat: Seat, names: Sequence[str], lang: str) -> str:
    """The given name without glyphs the font lacks, or `Игрок 1` / `Player 1`."""
    name = printable(names[seat]) if 0 <= seat < len(names) else ""
    return name or t(lang, "Player {n}", n=seat + 1)


@lru_cache(maxsize=128)
def token_disc(colour: RGB, diameter: int, label: str, robot: bool = False) -> Image.Image:
    """A token: a coloured disc with a white rim, a soft shadow below and a number or letter; a
    computer's (`robot`) is a head with an antenna instead, in the same box, so that every picture
    tells a computer's seat from a person's."""
    pad = max(2, diameter // 10)
    full = (diameter + 2 * pad) * SS
    img = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    d, p = diameter * SS, pad * SS
    # The outline as layers: a dark hairline, a white rim and the colour, visible on white cards,
    # red backs and felt alike.
    line, rim = max(SS, d // 40), max(SS, d // 10)
    if robot:
        cx, top = p + d / 2, p + d * 0.22
        draw.line((cx, p + d * 0.1, cx, top), fill=(30, 30, 36, 255), width=max(SS, d // 14))
        knob = d * 0.09
        draw.ellipse((cx - knob, p, cx + knob, p + 2 * knob), fill=(*colour, 255), outline=(30, 30, 36, 255))
        box = (p + d * 0.04, top, p + d * 0.96, p + d)
        radius = d * 0.22

        def layer(inset: float, fill: tuple[int, int, int, int]) -> None:
            x0, y0, x1, y1 = box
            draw.rounded_rectangle(
                (x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius - inset, fill=fill
            )

        draw.rounded_rectangle(
            (box[0], box[1] + p // 2, box[2], box[3] + p // 2), radius, fill=(0, 0, 0, 110)
        )
        layer(0, (30, 30, 36, 255))
        layer(line, (255, 255, 255, 255))
        layer(rim * 0.8, (*colour, 255))
        centre = (cx, (top + p + d) / 2)
    else:
        draw.ellipse((p, p + p // 2, p + d, p + d + p // 2), fill=(0, 0, 0, 110))  # shadow below
        draw.ellipse((p, p, p + d, p + d), fill=(30, 30, 36, 255))
        draw.ellipse((p + line, p + line, p + d - line, p + d - line), fill=(255, 255, 255, 255))
        draw.ellipse((p + rim, p + rim, p + d - rim, p + d - rim), fill=(*colour, 255))
        centre = (p + d / 2, p + d / 2)
    size = round(d * (0.5 if len(label) < 2 else 0.4) * (0.9 if robot else 1.0))
    draw.text(centre, label, font=font(size, bold=True), fill=ink_on(colour), anchor="mm")
    return img.reduce(SS)


def seat_token(seat: Seat, diameter: int, label: str | None = None, robot: bool = False) -> Image.Image:
    """The seat's disc with its number (or `label`, a token's own number); a computer's is a robot."""
    return token_disc(seat_colour(seat), diameter, str(seat + 1) if label is None else label, robot)


class SeatMark(NamedTuple):
    """A seat's token in a line of text, a robot's head where a computer plays the seat."""

    seat: Seat
    robot: bool = False


#: A line of a header is a row of pieces: text, or a seat whose token is drawn inline.
Piece = str | int | SeatMark


def named(seat: Seat, names: Sequence[str], lang: str) -> list[Piece]:
    """A seat's token and name, for a line of pieces."""
    return [SeatMark(seat, seat in robots(names)), player_name(seat, names, lang)]


def _token(piece: int | SeatMark, px: int) -> Image.Image:
    mark = piece if isinstance(piece, SeatMark) else SeatMark(piece)
    return seat_token(mark.seat, px, robot=mark.robot)


def pieces_width(pieces: Sequence[Piece], px: int) -> float:
    """How wide `draw_pieces` draws a line."""
    return sum(
        width_of(piece, px) if isinstance(piece, str) else _token(piece, px).width + px * 0.2
        for piece in pieces
    )


def draw_pieces(
    img: Image.Image, x: float, y: float, pieces: Sequence[Piece], px: int, colour: RGB, end: float
) -> float:
    """Draw pieces left to right, vertically centred on y, cutting text that would pass `end`;
    returns where the line ends."""
    for piece in pieces:
        if isinstance(piece, str):
            x += put_text(img, (x, y), fit(piece, px, end - x), px, colour)
        else:
            disc = _token(piece, px)
            paste(img, disc, (x, y - disc.height / 2))
            x += disc.width + px * 0.2
    return x
