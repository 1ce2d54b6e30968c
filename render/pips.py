"""Suit symbols drawn as shapes: the French suits and the four Tarot suits (Noto Sans has no suit glyphs).

The single place that knows what a pip looks like; every card sprite and legend calls it. French
and Tarot suits share letters ("S" is spades and swords, "C" clubs and cups), so each deck has its
own functions and caches.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from core.cards import Suit, TarotSuit
from render.draw import RGB, SS, Box, Pen, shade, star_points

RED: RGB = (200, 28, 44)
BLACK: RGB = (28, 30, 36)

#: Cups and Pentacles warm, Wands and Swords dark, as the French suits they are labelled with
#: on buttons (Cups ♥, Pentacles ♦, Wands ♣, Swords ♠, see core.cards.TAROT_SUIT_SYMBOLS).
TAROT_COLOURS: dict[TarotSuit, RGB] = {
    TarotSuit.WANDS: (34, 112, 58),
    TarotSuit.CUPS: (196, 32, 50),
    TarotSuit.SWORDS: (40, 58, 96),
    TarotSuit.PENTACLES: (206, 124, 10),
}


def suit_colour(suit: Suit) -> RGB:
    return RED if suit.red else BLACK


# ----- French ------------------------------------------------------------------------------------


def heart_points(box: Box, steps: int = 72) -> list[tuple[float, float]]:
    """The classic parametric heart, fitted into `box`; upside-down it is the body of a spade."""
    left, top, right, bottom = box
    raw = [
        (
            16 * math.sin(t) ** 3,
            -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)),
        )
        for t in (2 * math.pi * i / steps for i in range(steps))
    ]
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    x0, y0, sx, sy = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    return [(left + (x - x0) / sx * (right - left), top + (y - y0) / sy * (bottom - top)) for x, y in raw]


def draw_pip(draw: ImageDraw.ImageDraw, suit: Suit | str, box: Box, colour: RGB | None = None) -> None:
    """Draw one French suit symbol filling `box`."""
    suit = Suit(suit)
    fill = colour if colour is not None else suit_colour(suit)
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    cx = (left + right) / 2
    if suit is Suit.HEARTS:
        draw.polygon(heart_points(box), fill=fill)
    elif suit is Suit.DIAMONDS:
        # Slightly concave sides look like a printed diamond rather than a rotated square.
        inset = w * 0.06
        mid_y = top + h / 2
        points = [(cx, top), (cx + w * 0.22, mid_y - h * 0.22), (right - inset, mid_y)]
        points += [(cx + w * 0.22, mid_y + h * 0.22), (cx, bottom), (cx - w * 0.22, mid_y + h * 0.22)]
        points += [(left + inset, mid_y), (cx - w * 0.22, mid_y - h * 0.22)]
        draw.polygon(points, fill=fill)
    elif suit is Suit.SPADES:
        body = [(x, top + bottom - y) for x, y in heart_points((left, top, right, top + h * 0.78))]
        body = [(x, y - h * 0.22) for x, y in body]
        draw.polygon(body, fill=fill)
        _draw_stem(draw, cx, top + h * 0.5, w, bottom, fill)
    else:  # clubs: three leaves and a stem
        r = w * 0.235
        for ox, oy in ((cx, top + r), (cx - w * 0.26, top + h * 0.5), (cx + w * 0.26, top + h * 0.5)):
            draw.ellipse((ox - r, oy - r, ox + r, oy + r), fill=fill)
        draw.ellipse((cx - r * 0.6, top + h * 0.32, cx + r * 0.6, top + h * 0.6), fill=fill)
        _draw_stem(draw, cx, top + h * 0.45, w, bottom, fill)


def _draw_stem(draw: ImageDraw.ImageDraw, cx: float, top: float, w: float, bottom: float, fill: RGB) -> None:
    """A flared stem shared by spades and clubs."""
    draw.polygon(
        [(cx - w * 0.05, top), (cx + w * 0.05, top), (cx + w * 0.2, bottom), (cx - w * 0.2, bottom)],
        fill=fill,
    )


@lru_cache(maxsize=256)
def pip_sprite(suit: Suit | str, height: int, colour: RGB | None = None) -> Image.Image:
    """A single anti-aliased French pip on a transparent background (for legends and captions)."""
    width = max(1, round(height * 0.9))
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    draw_pip(ImageDraw.Draw(big), suit, (0, 0, width * SS, height * SS), colour)
    return big.reduce(SS)


# ----- Tarot -------------------------------------------------------------------------------------


def draw_tarot_pip(
    draw: ImageDraw.ImageDraw, suit: TarotSuit | str, box: Box, colour: RGB | None = None
) -> None:
    """Draw one Tarot suit symbol filling `box`: a budding staff, a chalice, a sword, a pentacle."""
    suit = TarotSuit(suit)
    fill = colour if colour is not None else TAROT_COLOURS[suit]
    light = shade(fill, 1.6)
    pen = Pen(draw, box)
    if suit is TarotSuit.WANDS:
        pen.polygon([(0.38, 0.96), (0.62, 0.96), (0.59, 0.1), (0.41, 0.1)], fill)
        pen.ellipse(0.5, 0.1, 0.09, 0.06, fill=fill)
        pen.polygon([(0.42, 0.4), (0.2, 0.22), (0.04, 0.24), (0.2, 0.38)], fill)  # leaves
        pen.polygon([(0.58, 0.58), (0.8, 0.42), (0.96, 0.44), (0.8, 0.58)], fill)
        for y in (0.3, 0.7):  # knots
            pen.rect(0.4, y - 0.02, 0.6, y + 0.02, light)
    elif suit is TarotSuit.CUPS:
        bowl = [(0.5 + 0.42 * math.cos(a), 0.14 + 0.42 * math.sin(a)) for a in _angles(0, math.pi, 24)]
        pen.polygon(bowl, fill)
        pen.ellipse(0.5, 0.14, 0.42, 0.09, fill=fill)
        pen.ellipse(0.5, 0.14, 0.34, 0.055, fill=light)
        pen.rect(0.44, 0.54, 0.56, 0.84, fill)
        pen.ellipse(0.5, 0.68, 0.1, 0.05, fill=fill)
        pen.polygon([(0.18, 0.97), (0.82, 0.97), (0.62, 0.82), (0.38, 0.82)], fill)
    elif suit is TarotSuit.SWORDS:
        pen.polygon([(0.5, 0.0), (0.6, 0.12), (0.6, 0.66), (0.4, 0.66), (0.4, 0.12)], fill)
        pen.line([(0.5, 0.14), (0.5, 0.62)], light, 0.05)
        pen.rect(0.12, 0.65, 0.88, 0.73, fill, radius=0.04)
        pen.rect(0.44, 0.72, 0.56, 0.9, fill)
        pen.ellipse(0.5, 0.92, 0.08, fill=fill)
    else:  # pentacles: a coin with a five-pointed star
        pen.ellipse(0.5, 0.5, 0.48, fill=fill)
        pen.ellipse(0.5, 0.5, 0.39, fill=light)
        pen.polygon(star_points(0.5, 0.52, 0.35, 0.4), fill)


def _angles(start: float, end: float, steps: int) -> list[float]:
    return [start + (end - start) * i / steps for i in range(steps + 1)]


@lru_cache(maxsize=128)
def tarot_pip_sprite(suit: TarotSuit | str, height: int, colour: RGB | None = None) -> Image.Image:
    """A single anti-aliased Tarot pip on a transparent background."""
    width = max(1, round(height * 0.9))
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    draw_tarot_pip(ImageDraw.Draw(big), suit, (0, 0, width * SS, height * SS), colour)
    return big.reduce(SS)
