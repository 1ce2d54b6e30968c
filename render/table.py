"""A card table: 2 to 6 seats around the felt, a centre area, and (for a seat's panel) a strip below.

Seats sit clockwise around an ellipse from the bottom (the next seat is to the left of the bottom
one, RULES.md 0.3), each as a plate: its colour and name, its cards as a fan of backs with their
count, its role chips, a gold rim on its turn. The centre holds what is played: a trick with a name
tag on each card, Durak's pairs, a result banner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from core.cards import Card
from core.engine import Seat
from render.arcana import jester_cap
from render.cards import CARD_ASPECT
from render.deck import Deck, back, face, suit_of
from render.draw import INK, RGB, halo, mix, panel, paste, pill, with_shadow
from render.encode import build_palette, sheet
from render.felt import felt
from render.seats import seat_colour, seat_token
from render.text import fit, put_text, width_of, wrap

FELT_CENTRE: RGB = (42, 124, 76)
FELT_EDGE: RGB = (16, 66, 40)
BAND: RGB = (11, 44, 27)
STRIP: RGB = (20, 34, 28)
TEXT: RGB = (246, 244, 236)
MUTED: RGB = (176, 206, 186)
GOLD: RGB = (255, 208, 72)
RAIL: RGB = mix(FELT_EDGE, FELT_CENTRE, 0.5)
PLATE: RGB = (8, 32, 20)
#: Palette entries for the felt's gradient, and exact ones for the flat colours of text and plates.
FELT_COLOURS = 48
FLAT: tuple[RGB, ...] = (GOLD, TEXT, MUTED, INK, BAND, STRIP, RAIL, PLATE)

#: Marks a plate may carry in its corner.
MARKS = {"fool": jester_cap}

Chip = tuple[str, RGB]
Box = tuple[int, int, int, int]


# ----- geometry ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Where everything goes; every length scales with the picture's width."""

    width: int
    height: int
    #: The felt's bottom edge: the picture's height, or where a panel's strip begins.
    table: int
    header: int
    unit: float
    plate: tuple[int, int]
    #: Top-left corner of each position's plate, clockwise from the bottom.
    seats: tuple[tuple[int, int], ...]
    #: The middle of the table, between the plates.
    centre: Box
    card: tuple[int, int]
    small: tuple[int, int]

    def px(self, amount: float) -> int:
        return max(1, round(amount * self.unit))

    def plate_centre(self, position: int) -> tuple[float, float]:
        x, y = self.seats[position]
        return x + self.plate[0] / 2, y + self.plate[1] / 2


@lru_cache(maxsize=16)
def geometry(size: int, seats: int, strip: int = 0) -> Geometry:
    """A 4:3 landscape table, or with a `strip` (in thousandths of `size`) a square panel with the
    strip below the felt for the seat's own hand."""
    if not 2 <= seats <= 6:
        raise ValueError(f"a table seats 2 to 6, not {seats}")
    unit = size / 1000
    width = size
    height = size if strip else round(size * 0.75)
    table = height - round(strip * unit)
    header = round(52 * unit)
    pw, ph = round(214 * unit), round(128 * unit)
    gap = round(8 * unit)
    cx, cy = width / 2, (header + table) / 2
    rx, ry = width / 2 - gap - pw / 2, (table - header) / 2 - gap - ph / 2
    spots = []
    for position in range(seats):
        angle = math.pi / 2 + 2 * math.pi * position / seats
        x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
        spots.append((round(x - pw / 2), round(y - ph / 2)))
    bottom = table - gap if strip else table - ph - 2 * gap
    centre = (pw + 2 * gap, header + ph + 2 * gap, width - pw - 2 * gap, bottom)
    cw, sw = round(90 * unit), round(70 * unit)
    return Geometry(
        width=width,
        height=height,
        table=table,
        header=header,
        unit=unit,
        plate=(pw, ph),
        seats=tuple(spots),
        centre=centre,
        card=(cw, round(cw * CARD_ASPECT)),
        small=(sw, round(sw * CARD_ASPECT)),
    )


@lru_cache(maxsize=8)
def background(size: int, strip: int = 0) -> Image.Image:
    """Felt, the header band and (for a panel) the strip. Shared: copy it."""
    geo = geometry(size, 2, strip)
    w, h = geo.width, geo.table
    img = Image.new("RGB", (geo.width, geo.height), STRIP)
    img.paste(felt(w, h, FELT_CENTRE, FELT_EDGE, 1.2), (0, 0))
    draw = ImageDraw.Draw(img)
    # A faint inner line suggests the table's rail without costing palette entries.
    inset = geo.px(6)
    draw.rounded_rectangle(
        (inset, geo.header + inset, w - 1 - inset, h - 1 - inset),
        radius=geo.px(40),
        outline=RAIL,
        width=geo.px(2),
    )
    draw.rectangle((0, 0, w, geo.header - 1), fill=BAND)
    if strip:
        draw.line((0, geo.table, w, geo.table), fill=GOLD, width=geo.px(2))
    return img


def palette(sprites: Sequence[Image.Image], width: int, flat: Sequence[RGB] = ()) -> Image.Image:
    """One palette for every picture of a table look, so that successive edits keep their colours.

    Built in parts, since one octree over everything starves the small chips and the smooth felt:
    the felt's gradient, a sheet of every sprite a picture can show, and the flat colours exactly.
    """
    colours = (*FLAT, *flat)
    swatch = sheet(sprites, width, FELT_CENTRE)
    return build_palette(
        swatch, 256 - FELT_COLOURS - len(colours), [(FELT_CENTRE, FELT_EDGE, FELT_COLOURS)], colours
    )


# ----- sprites -----------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def laid(
    card: Card | None, width: int, height: int, lang: str, deck: Deck, trump: bool, angle: float
) -> Image.Image:
    """A card (a back for None) turned by `angle` degrees over its shadow, ready to paste by its centre."""
    sprite = back(width, height, deck) if card is None else face(card, width, height, lang, deck, trump)
    if angle:
        sprite = sprite.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    return with_shadow(sprite, max(2, round(width * 0.07)))


@lru_cache(maxsize=64)
def fan(count: int, width: int, height: int, deck: Deck = "french") -> Image.Image:
    """Up to seven small backs fanned about a point below them: a hand seen from across the table."""
    shown = min(count, 7)
    canvas_w, canvas_h = round(width * 3.2), round(height * 1.5)
    img = Image.new("RGBA", (canvas_w, canvas_h), (0, 0, 0, 0))
    card = back(width, height, deck)
    pivot_x, pivot_y = canvas_w / 2, canvas_h + height * 1.2
    radius = height * 1.2 + height / 2 + height * 0.25
    for i in range(shown):
        angle = (i - (shown - 1) / 2) * 9.0
        turned = card.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        rad = math.radians(angle)
        cx = pivot_x + radius * math.sin(rad)
        cy = pivot_y - radius * math.cos(rad)
        img.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    # Trimmed to the cards, so the count badge sits right beside however many are shown.
    return img.crop(img.getbbox())


class SeatLook(NamedTuple):
    """What a seat's plate shows. Hashable: the cache key of the plate."""

    seat: Seat
    name: str
    #: Cards in the hand, drawn as a fan of backs with the count (0: none shown).
    cards: int = 0
    chips: tuple[Chip, ...] = ()
    #: A gold rim: the seat is to move.
    turn: bool = False
    #: A gold glow around the plate: the bot's choice (e.g. the seats it waits for).
    glow: bool = False
    #: A key of MARKS drawn in the plate's corner.
    mark: str | None = None
    #: A computer plays the seat: its token is a robot's head.
    robot: bool = False


@lru_cache(maxsize=256)
def plate(look: SeatLook, size: int, deck: Deck = "french") -> Image.Image:
    """A seat's plate with `pad` px of margin around it for the glow (see `plate_pad`)."""
    geo = geometry(size, 2)
    pw, ph = geo.plate
    pad = plate_pad(geo)
    img = Image.new("RGBA", (pw + 2 * pad, ph + 2 * pad), (0, 0, 0, 0))
    if look.glow:
        img.alpha_composite(halo(pw + pad, ph + pad, GOLD, pad // 2, geo.px(20), 200), (0, 0))
    rim = GOLD if look.turn else mix(FELT_EDGE, TEXT, 0.25)
    img.alpha_composite(panel(pw, ph, PLATE, rim, geo.px(3 if look.turn else 1), geo.px(14)), (pad, pad))
    cx = pad + pw // 2
    name_px = geo.px(21)
    disc = seat_token(look.seat, geo.px(24), robot=look.robot)
    cap = None if look.mark is None else MARKS[look.mark](geo.px(56))
    reach = 0 if cap is None else cap.width - pad  # how far a mark in the corner covers the plate
    name = fit(look.name, name_px, pw - geo.px(30) - disc.width - reach)
    block = disc.width + geo.px(4) + width_of(name, name_px)
    # Centred, unless that would put the name's end under the mark.
    x0 = round(min(cx - block / 2, pad + pw - geo.px(15) - reach - block))
    img.alpha_composite(disc, (x0, pad + geo.px(20) - disc.height // 2))
    put_text(img, (x0 + disc.width + geo.px(4), pad + geo.px(20)), name, name_px, TEXT)
    if look.cards:
        small = fan(look.cards, geo.px(26), geo.px(37), deck)
        badge = pill(str(look.cards), TEXT, geo.px(15), INK)
        total = small.width + geo.px(4) + badge.width
        fx = cx - total // 2
        fy = pad + geo.px(62) - small.height // 2
        img.alpha_composite(small, (fx, fy))
        img.alpha_composite(badge, (fx + small.width + geo.px(4), fy + small.height - badge.height))
    if look.chips:
        sprites = [pill(text, colour, geo.px(14), TEXT) for text, colour in look.chips]
        total = sum(s.width for s in sprites) + geo.px(6) * (len(sprites) - 1)
        x = cx - total // 2
        y = pad + ph - geo.px(9) - sprites[0].height
        for sprite in sprites:
            img.alpha_composite(sprite, (x, y))
            x += sprite.width + geo.px(6)
    if cap is not None:
        img.alpha_composite(cap, (img.width - cap.width, 0))
    return img


def plate_pad(geo: Geometry) -> int:
    return geo.px(14)


def name_tag(name: str, seat: Seat, px: int, room: float) -> Image.Image:
    """A seat-coloured label naming who played a card."""
    return pill(fit(name, px, room), seat_colour(seat), px)


# ----- drawing -----------------------------------------------------------------------------------


def position(seat: Seat, bottom: Seat, seats: int) -> int:
    """Where a seat sits, counted clockwise from the bottom one."""
    return (seat - bottom) % seats


def draw_seats(
    img: Image.Image, geo: Geometry, looks: Sequence[SeatLook], bottom: Seat = 0, deck: Deck = "french"
) -> None:
    """The plates of the given seats; leave a seat out (a panel's own) to leave its place empty."""
    pad = plate_pad(geo)
    size = round(geo.unit * 1000)
    for look in looks:
        x, y = geo.seats[position(look.seat, bottom, len(geo.seats))]
        paste(img, plate(look, size, deck), (x - pad, y - pad))


def draw_trick(
    img: Image.Image,
    geo: Geometry,
    plays: Sequence[tuple[Seat, Card]],
    names: Sequence[str],
    lang: str,
    *,
    bottom: Seat = 0,
    deck: Deck = "french",
    trump: str | None = None,
) -> list[Box]:
    """Cards played to a trick, each between the centre and its player's seat, with a name tag;
    returns where each card and its tag lie."""
    left, top, right, bottom_y = geo.centre
    cx, cy = (left + right) / 2, (top + bottom_y) / 2
    seats = len(geo.seats)
    # Five or six cards on the ellipse below would overlap at full size.
    scale = 1.0 if seats <= 4 else 0.85
    cw, ch = round(geo.card[0] * scale), round(geo.card[1] * scale)
    # On an ellipse inside the centre, each card in its player's direction, a little turned.
    rx, ry = (right - left - cw) / 2 - geo.px(6), (bottom_y - top - ch) / 2 - geo.px(12)
    laid_out: list[Box] = []
    for n, (seat, card) in enumerate(plays):
        angle = math.pi / 2 + 2 * math.pi * position(seat, bottom, seats) / seats
        x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
        marked = trump is not None and suit_of(card) == trump
        sprite = laid(card, cw, ch, lang, deck, marked, (-6.0, 4.0, -2.0)[n % 3])
        x = _clear_of_plates(geo, (x, y), sprite.size, cx)
        paste(img, sprite, (x - sprite.width / 2, y - sprite.height / 2))
        tag = name_tag(names[seat] if seat < len(names) else "", seat, geo.px(15), cw * 1.6)
        tag_y = y + ch / 2 - tag.height * 0.6
        paste(img, tag, (x - tag.width / 2, tag_y))
        half = max(sprite.width, tag.width) / 2
        laid_out.append(
            (
                math.floor(x - half),
                math.floor(y - sprite.height / 2),
                math.ceil(x + half),
                math.ceil(tag_y + tag.height),
            )
        )
    return laid_out


def room_across(boxes: Sequence[Box], middle: tuple[float, float], height: float, half: float) -> float:
    """How wide a line of `height` centred on `middle` may be (at most `2 * half`) without reaching
    into any of `boxes`, keeping its middle."""
    x, y = middle
    for left, top, right, bottom in boxes:
        if top < y + height / 2 and y - height / 2 < bottom:  # the box reaches into the line's row
            gap = x - right if right <= x else left - x if left >= x else 0.0
            half = min(half, gap)
    return 2 * half


#: Each pull of a trick's card towards the middle keeps this much of its distance, at most PULLS times.
PULL, PULLS = 0.92, 12


def _clear_of_plates(geo: Geometry, at: tuple[float, float], size: tuple[int, int], middle: float) -> float:
    """Where (x) a card of `size` centred `at` covers no plate: pulled sideways towards the middle
    as far as it takes (the side plates of three, five or six seats reach into the middle of the
    table; sideways, two cards on one side keep apart)."""
    (x, y), (w, h) = at, size
    margin = geo.px(4)
    plates = [
        (px - margin, py - margin, px + geo.plate[0] + margin, py + geo.plate[1] + margin)
        for px, py in geo.seats
    ]
    for _ in range(PULLS):
        if not any(
            x - w / 2 < right and left < x + w / 2 and y - h / 2 < bottom and top < y + h / 2
            for left, top, right, bottom in plates
        ):
            break
        x = middle + (x - middle) * PULL
    return x


def draw_banner(
    img: Image.Image,
    geo: Geometry,
    headline: str,
    colour: RGB,
    lines: Sequence[str] = (),
    mark: str | None = None,
) -> None:
    """A result banner across the centre: a headline, up to two more lines, a mark above it."""
    left, top, right, bottom = geo.centre
    width, height = right - left, geo.px(210)
    y0 = (top + bottom) // 2 - height // 2 + geo.px(16)
    paste(img, panel(width, height, PLATE, GOLD, geo.px(3), geo.px(22)), (left, y0))
    cx = (left + right) / 2
    room = width - geo.px(40)
    if mark is not None:
        cap = MARKS[mark](geo.px(72))
        paste(img, cap, (cx - cap.width / 2, y0 - round(cap.height * 0.55)))
    px = geo.px(36)
    put_text(img, (cx, y0 + geo.px(62)), fit(headline, px, room), px, colour, "mm")
    small = geo.px(21)
    shown = [line for text in lines for line in wrap(text, small, room, 2, bold=True)][:2]
    for n, line in enumerate(shown):
        put_text(img, (cx, y0 + geo.px(120 + 34 * n)), line, small, TEXT, "mm")
