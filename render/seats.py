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
from render.text import cut_to_fit, fit, put_text, width_of

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


#: A token's outline, as layers: a dark hairline, a white rim and the colour, visible on white
#: cards, red backs and felt alike; a soft shadow below.
RGBA = tuple[int, int, int, int]
HAIRLINE: RGBA = (30, 30, 36, 255)
RIM: RGBA = (255, 255, 255, 255)
SHADOW: RGBA = (0, 0, 0, 110)
Point = tuple[float, float]


@lru_cache(maxsize=128)
def token_disc(colour: RGB, diameter: int, label: str, robot: bool = False) -> Image.Image:
    """A token: a coloured disc with a white rim, a soft shadow below and a number or letter; a
    computer's (`robot`) is a head with an antenna and ears instead, in the same box, so that every
    picture tells a computer's seat from a person's."""
    pad = max(2, diameter // 10)
    full = (diameter + 2 * pad) * SS
    img = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    centre = (_robot if robot else _disc)(draw, (*colour, 255), diameter * SS, pad * SS)
    size = round(diameter * SS * (0.5 if len(label) < 2 else 0.4) * (0.9 if robot else 1.0))
    draw.text(centre, label, font=font(size, bold=True), fill=ink_on(colour), anchor="mm")
    return img.reduce(SS)


def _disc(draw: ImageDraw.ImageDraw, fill: RGBA, d: int, p: int) -> Point:
    """A disc of diameter `d` at `p` from the corner; returns its centre."""
    line, rim = max(SS, d // 40), max(SS, d // 10)
    draw.ellipse((p, p + p // 2, p + d, p + d + p // 2), fill=SHADOW)
    draw.ellipse((p, p, p + d, p + d), fill=HAIRLINE)
    draw.ellipse((p + line, p + line, p + d - line, p + d - line), fill=RIM)
    draw.ellipse((p + rim, p + rim, p + d - rim, p + d - rim), fill=fill)
    return p + d / 2, p + d / 2


def _robot(draw: ImageDraw.ImageDraw, fill: RGBA, d: int, p: int) -> Point:
    """A robot's head in the box of a disc of diameter `d`; returns its face's centre."""
    line, rim = max(SS, d // 40), max(SS, d // 10)
    cx, top, bottom = p + d / 2, p + d * 0.22, p + d
    # The antenna and the ears in the seat's colour, outlined like the head.
    stick = max(SS, d // 16)
    draw.rectangle((cx - stick, p + d * 0.1, cx + stick, top), fill=fill, outline=HAIRLINE, width=line)
    knob = d * 0.1
    draw.ellipse((cx - knob, p, cx + knob, p + 2 * knob), fill=fill, outline=HAIRLINE, width=line)
    ear = (top + bottom) / 2
    draw.rounded_rectangle(
        (p, ear - d * 0.13, p + d, ear + d * 0.13), d * 0.05, fill=fill, outline=HAIRLINE, width=line
    )
    left, right, radius = p + d * 0.1, p + d * 0.9, d * 0.2
    draw.rounded_rectangle((left, top + p // 2, right, bottom + p // 2), radius, fill=SHADOW)
    for inset, colour in ((0, HAIRLINE), (line, RIM), (rim * 0.8, fill)):
        draw.rounded_rectangle(
            (left + inset, top + inset, right - inset, bottom - inset), radius - inset, fill=colour
        )
    return cx, ear


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


def fit_pieces(pieces: Sequence[Piece], px: int, room: float) -> list[Piece]:
    """`pieces` fitted into `room` by cutting their longest names (the text after a seat's token)
    with "…", so that every seat named keeps its place and what the line says stays whole."""
    at = [
        n
        for n, piece in enumerate(pieces)
        if isinstance(piece, str) and n and isinstance(pieces[n - 1], SeatMark)
    ]

    def with_names(names: Sequence[str]) -> list[Piece]:
        line = list(pieces)
        for n, name in zip(at, names, strict=True):
            line[n] = name
        return line

    names = [str(pieces[n]) for n in at]
    return with_names(cut_to_fit(names, lambda cut: pieces_width(with_names(cut), px) <= room))


def draw_pieces(
    img: Image.Image, x: float, y: float, pieces: Sequence[Piece], px: int, colour: RGB, end: float
) -> float:
    """Draw pieces left to right, vertically centred on y, within `end`: the longest names cut
    first (`fit_pieces`), then the line's end; returns where the line ends."""
    for piece in fit_pieces(pieces, px, end - x):
        if isinstance(piece, str):
            x += put_text(img, (x, y), fit(piece, px, end - x), px, colour)
            continue
        disc = _token(piece, px)
        if x + disc.width > end:
            break
        paste(img, disc, (x, y - disc.height / 2))
        x += disc.width + px * 0.2
    return x
