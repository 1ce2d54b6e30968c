"""The symbols of McSweeney's Gold's map (bag, purse, coin, x2, x5, /2, /5, 0, Z, empty) drawn as shapes."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from core.games.gold import SYMBOLS
from render.draw import RGB, SS
from render.fonts import font

INK: RGB = (92, 58, 30)
RED_INK: RGB = (178, 34, 34)
CODES: tuple[str, ...] = tuple(s.code for s in SYMBOLS)


def label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, px: float, fill: RGB) -> None:
    draw.text(xy, text, font=font(max(4, round(px)), bold=True), fill=fill, anchor="mm")


def draw_symbol(draw: ImageDraw.ImageDraw, code: str, side: float) -> None:
    """One map symbol as shapes on a `side` x `side` square at the origin; the one place that knows them."""
    s = side
    cx, cy = s / 2, s / 2
    line = max(1.0, s * 0.03)
    if code == "bag":
        burlap, rope = (190, 146, 84), (112, 72, 34)
        draw.polygon(
            [
                (cx - s * 0.22, s * 0.08),
                (cx + s * 0.22, s * 0.08),
                (cx + s * 0.09, s * 0.3),
                (cx - s * 0.09, s * 0.3),
            ],
            fill=burlap,
            outline=INK,
            width=round(line),
        )
        draw.ellipse((s * 0.12, s * 0.28, s * 0.88, s * 0.95), fill=burlap, outline=INK, width=round(line))
        draw.ellipse((s * 0.22, s * 0.36, s * 0.52, s * 0.6), fill=(214, 178, 118))  # a highlight
        draw.rounded_rectangle(
            (cx - s * 0.16, s * 0.26, cx + s * 0.16, s * 0.34), radius=s * 0.04, fill=rope, outline=INK
        )
        label(draw, (cx, s * 0.66), "100", s * 0.25, (84, 50, 20))
    elif code == "purse":
        leather, clasp = (150, 36, 56), (232, 186, 56)
        draw.arc((cx - s * 0.2, s * 0.1, cx + s * 0.2, s * 0.5), 180, 360, fill=clasp, width=round(s * 0.05))
        draw.rounded_rectangle(
            (s * 0.16, s * 0.3, s * 0.84, s * 0.88),
            radius=s * 0.2,
            fill=leather,
            outline=(84, 16, 28),
            width=round(line),
        )
        draw.rectangle((s * 0.2, s * 0.28, s * 0.8, s * 0.36), fill=clasp)
        for bx in (cx - s * 0.07, cx + s * 0.07):
            draw.ellipse((bx - s * 0.05, s * 0.2, bx + s * 0.05, s * 0.3), fill=clasp, outline=INK)
        label(draw, (cx, s * 0.62), "10", s * 0.28, (255, 226, 140))
    elif code == "coin":
        rim, face = (170, 118, 20), (244, 196, 60)
        draw.ellipse((s * 0.14, s * 0.14, s * 0.86, s * 0.86), fill=rim)
        draw.ellipse((s * 0.19, s * 0.19, s * 0.81, s * 0.81), fill=face)
        draw.ellipse((s * 0.27, s * 0.27, s * 0.73, s * 0.73), outline=rim, width=round(line))
        draw.ellipse((s * 0.26, s * 0.22, s * 0.46, s * 0.36), fill=(255, 236, 160))  # shine
        label(draw, (cx, cy + s * 0.01), "1", s * 0.34, (150, 98, 10))
    elif code in ("x2", "x5"):
        green = (34, 138, 76) if code == "x2" else (16, 110, 140)
        draw.ellipse((s * 0.1, s * 0.1, s * 0.9, s * 0.9), fill=(232, 196, 80))
        draw.ellipse((s * 0.15, s * 0.15, s * 0.85, s * 0.85), fill=green)
        label(draw, (cx, cy), "×" + code[1], s * 0.38, (255, 255, 255))
    elif code in ("d2", "d5"):
        orange = (214, 104, 34) if code == "d2" else (178, 52, 40)
        # A downward shield: losses point down, gains (the round badges) are round.
        draw.polygon(
            [
                (s * 0.12, s * 0.12),
                (s * 0.88, s * 0.12),
                (s * 0.88, s * 0.5),
                (cx, s * 0.92),
                (s * 0.12, s * 0.5),
            ],
            fill=orange,
            outline=(90, 28, 14),
            width=round(line),
        )
        label(draw, (cx, s * 0.42), "/" + code[1], s * 0.36, (255, 255, 255))
    elif code == "zero":
        # Crossed bones: drawn twice, wider in ink and then in bone, for an outline on pale sand.
        for colour, grow in ((INK, s * 0.025), ((246, 240, 224), 0.0)):
            for a, b in (((0.16, 0.16), (0.84, 0.84)), ((0.84, 0.16), (0.16, 0.84))):
                x0, y0, x1, y1 = a[0] * s, a[1] * s, b[0] * s, b[1] * s
                draw.line((x0, y0, x1, y1), fill=colour, width=round(s * 0.1 + 2 * grow))
                for x, y in ((x0, y0), (x1, y1)):
                    for dx, dy in ((-1, 1), (1, -1)):
                        r = s * 0.055 + grow
                        ox, oy = x + dx * s * 0.035, y + dy * s * 0.035
                        draw.ellipse((ox - r, oy - r, ox + r, oy + r), fill=colour)
        draw.ellipse(
            (s * 0.24, s * 0.24, s * 0.76, s * 0.76),
            fill=(30, 24, 26),
            outline=RED_INK,
            width=round(line * 1.5),
        )
        label(draw, (cx, cy - s * 0.01), "0", s * 0.4, (236, 60, 48))
    elif code == "z":
        wax, deep = (176, 28, 40), (128, 14, 26)
        points = []
        for i in range(48):
            t = 2 * math.pi * i / 48
            r = s * (0.38 + 0.035 * math.sin(7 * t) + 0.02 * math.sin(3 * t + 1))
            points.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        draw.polygon(points, fill=wax)
        draw.ellipse((s * 0.24, s * 0.24, s * 0.76, s * 0.76), fill=deep)
        draw.ellipse((s * 0.28, s * 0.28, s * 0.72, s * 0.72), outline=(206, 70, 74), width=round(line))
        label(draw, (cx, cy), "Z", s * 0.34, (250, 196, 170))
    else:  # empty: dug sand, a shallow hole and a few pebbles
        draw.ellipse((s * 0.24, s * 0.42, s * 0.76, s * 0.66), fill=(214, 190, 142))
        draw.ellipse((s * 0.3, s * 0.46, s * 0.7, s * 0.62), fill=(190, 162, 112))
        for px, py, r in ((0.24, 0.28, 0.045), (0.72, 0.3, 0.035), (0.66, 0.78, 0.05), (0.3, 0.76, 0.03)):
            draw.ellipse(((px - r) * s, (py - r) * s, (px + r) * s, (py + r) * s), fill=(168, 150, 126))


@lru_cache(maxsize=64)
def symbol_sprite(code: str, side: int) -> Image.Image:
    """A symbol on a transparent square, anti-aliased by supersampling. Shared: never draw on it."""
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw_symbol(ImageDraw.Draw(big), code, side * SS)
    return big.reduce(SS)
