"""Tarot card sprites: the 56 minor cards, the 22 major arcana and the Tarot back, all drawn as shapes.

Minor cards print like French ones (corner indices, pip patterns, a framed court emblem), with the
Tarot pips. A major arcanum prints its Roman numeral, its emblem and its name in the picture's
language. Cached and shared like every sprite: paste, never draw on them.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from core.cards import ROMAN, Card, TarotSuit, is_major, major_name, major_number, tarot_label, tarot_parts
from render.arcana import COURT_EMBLEMS, MAJOR_EMBLEMS
from render.cards import PATTERNS, back_panel, blank, draw_ace, draw_indices, draw_pattern, finish_back
from render.draw import RGB, SS, Box, Pen, shade, star_points
from render.fonts import font
from render.pips import TAROT_COLOURS, draw_tarot_pip

#: The majors' frame and numerals: violet, so trumps stand out from the four suits at a glance.
MAJOR_INK: RGB = (86, 44, 128)
MAJOR_PANEL: RGB = (246, 238, 214)
BACK_INDIGO: RGB = (44, 34, 92)
BACK_GOLD: RGB = (226, 182, 72)


def tarot_face(card: Card, width: int, height: int, lang: str = "en") -> Image.Image:
    """The face of any of the 78 Tarot cards (see `core.cards.deck78` for the codes)."""
    if is_major(card):
        return major_face(major_number(card), width, height, lang)
    return minor_face(card, width, height, lang)


def rank_letter(card: Card, lang: str) -> str:
    """The rank as printed in the corner: the short label without its suit symbol (`Д` of `Д♥`)."""
    return tarot_label(card, lang)[:-1]


@lru_cache(maxsize=512)
def minor_face(card: Card, width: int, height: int, lang: str = "en") -> Image.Image:
    rank, code = tarot_parts(card)
    suit = TarotSuit(code)
    colour = TAROT_COLOURS[suit]
    img, draw = blank(width, height)

    def pip(target: ImageDraw.ImageDraw, box: Box) -> None:
        draw_tarot_pip(target, suit, box, colour)

    letter = rank_letter(card, lang)
    draw_indices(img, letter, pip, colour)
    w, h = img.size
    if rank in PATTERNS:
        draw_pattern(img, rank, pip)
    elif rank == "A":
        draw_ace(img, pip)
    else:
        # The court: a panel in the suit's tint with the rank's emblem, its letter and a pip.
        draw.rounded_rectangle(
            (w * 0.27, h * 0.15, w * 0.73, h * 0.85),
            radius=w * 0.05,
            fill=shade(colour, 1.85),
            outline=colour,
            width=max(SS, w // 90),
        )
        COURT_EMBLEMS[rank](Pen(draw, (w * 0.3, h * 0.19, w * 0.7, h * 0.19 + w * 0.4)), colour)
        draw.text((w * 0.5, h * 0.69), letter, font=font(round(w * 0.2), bold=True), fill=colour, anchor="ms")
        side = w * 0.13
        pip(draw, (w / 2 - side / 2, h * 0.72, w / 2 + side / 2, h * 0.72 + side * 1.08))
    return img.reduce(SS)


@lru_cache(maxsize=256)
def major_face(number: int, width: int, height: int, lang: str = "en") -> Image.Image:
    """A major arcanum: its Roman numeral on top, its emblem, its name below (up to two lines)."""
    img, draw = blank(width, height)
    w, h = img.size
    inset = round(w * 0.05)
    draw.rounded_rectangle(
        (inset, inset, w - inset, h - inset),
        radius=w * 0.06,
        fill=MAJOR_PANEL,
        outline=MAJOR_INK,
        width=max(SS, round(w * 0.02)),
    )
    draw.text(
        (w / 2, h * 0.1), ROMAN[number], font=font(round(w * 0.17), bold=True), fill=MAJOR_INK, anchor="mm"
    )
    side = w * 0.7
    top = h * 0.19
    MAJOR_EMBLEMS[number](Pen(draw, ((w - side) / 2, top, (w + side) / 2, top + side)))
    _draw_name(draw, major_name(f"T{number}", lang), w, (top + side + h * 0.02, h - inset * 1.6))
    return img.reduce(SS)


def _draw_name(draw: ImageDraw.ImageDraw, name: str, w: int, band: tuple[float, float]) -> None:
    """The arcanum's name centred in the band under the emblem: one line if it fits, else two."""
    room = w * 0.82
    top, bottom = band
    px = round(w * 0.12)
    words = name.split()
    lines = [name]
    if font(px, bold=True).getlength(name) > room and len(words) > 1:
        # Two lines, split where the longer line is shortest.
        cuts = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
        lines = list(min(cuts, key=lambda pair: max(font(px, bold=True).getlength(s) for s in pair)))
        px = min(px, round((bottom - top) / 2.3))
    widest = max(font(px, bold=True).getlength(line) for line in lines)
    if widest > room:
        px = max(SS, round(px * room / widest))
    pitch = px * 1.15
    y = (top + bottom) / 2 - pitch * (len(lines) - 1) / 2
    for n, line in enumerate(lines):
        draw.text((w / 2, y + n * pitch), line, font=font(px, bold=True), fill=MAJOR_INK, anchor="mm")


@lru_cache(maxsize=16)
def tarot_back(width: int, height: int, tint: RGB = BACK_INDIGO) -> Image.Image:
    """The Tarot back: a night sky of small gold stars around the sun and the moon."""
    img, draw = blank(width, height)
    w, h = img.size
    inner, panel, stroke = back_panel(img, tint)
    sky = ImageDraw.Draw(panel)
    step = w / 4
    for row in range(int(h / step) + 2):
        for col in range(5):
            x = col * step + (step / 2 if row % 2 else 0)
            sky.polygon(star_points(x, row * step, w * 0.035, 0.45), fill=shade(tint, 1.6))
    pen = Pen(sky, (w * 0.22, h / 2 - w * 0.28, w * 0.78, h / 2 + w * 0.28))
    pen.polygon(star_points(0.5, 0.5, 0.5, 0.62, 12), BACK_GOLD)
    pen.ellipse(0.5, 0.5, 0.3, fill=tint)
    pen.ellipse(0.5, 0.5, 0.24, fill=BACK_GOLD)
    pen.ellipse(0.58, 0.46, 0.2, fill=tint)  # the moon's shadow makes the sun a crescent
    return finish_back(img, draw, inner, panel, tint, stroke)
