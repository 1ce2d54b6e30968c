"""Emblems drawn as shapes in a unit square: the 22 major arcana, the four Tarot court ranks and the
jester's cap (the Fool's emblem, and the durak's mark on the Durak table).

Each emblem is a function of a Pen over its box (see render/draw.py), so it draws at any size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.draw import RGB, SS, Pen, shade, star_points
from render.pips import RED, draw_tarot_pip, heart_points

Emblem = Callable[[Pen], None]

GOLD: RGB = (222, 168, 30)
ORANGE: RGB = (232, 112, 28)
INK: RGB = (44, 34, 40)
IVORY: RGB = (250, 244, 226)
BLUE: RGB = (44, 92, 176)
SKY: RGB = (96, 164, 226)
GREEN: RGB = (50, 132, 70)
STONE: RGB = (136, 132, 140)
WOOD: RGB = (132, 84, 42)
FLESH: RGB = (238, 196, 160)
STEEL: RGB = (170, 180, 196)


def _curve(
    fx: Callable[[float], float], fy: Callable[[float], float], steps: int = 40
) -> list[tuple[float, float]]:
    """Points of a parametric curve over t in [0, 2π)."""
    return [(fx(t), fy(t)) for t in (2 * math.pi * i / steps for i in range(steps))]


def _crescent(
    p: Pen, cx: float, cy: float, r: float, fill: RGB, facing: int = 1, thick: float = 0.45
) -> None:
    """A crescent whose horns point up and down, opening to the right (`facing` 1) or the left (-1)."""
    degrees = [math.radians(90 + 180 * i / 24) for i in range(25)]
    outer = [(cx + facing * r * math.cos(a), cy + r * math.sin(a)) for a in degrees]
    inner = [(cx + facing * thick * r * math.cos(a), cy + r * math.sin(a)) for a in reversed(degrees)]
    p.polygon(outer + inner, fill)


def _stars(p: Pen, spots: tuple[tuple[float, float, float], ...], fill: RGB, points: int = 5) -> None:
    for x, y, r in spots:
        p.polygon(star_points(x, y, r, 0.45, points), fill)


# ----- the major arcana --------------------------------------------------------------------------


def jester(p: Pen) -> None:
    """0, the Fool: a jester's cap with three bells."""
    yellow, red = (250, 196, 40), (206, 36, 48)
    p.polygon([(0.2, 0.78), (0.5, 0.74), (0.06, 0.3)], yellow, INK, 0.01)
    p.polygon([(0.8, 0.78), (0.5, 0.74), (0.94, 0.3)], yellow, INK, 0.01)
    p.polygon([(0.22, 0.78), (0.78, 0.78), (0.5, 0.1)], red, INK, 0.01)
    p.rect(0.14, 0.72, 0.86, 0.92, red, radius=0.06, outline=INK, width=0.01)
    for x, y in ((0.06, 0.3), (0.94, 0.3), (0.5, 0.1)):
        p.ellipse(x, y, 0.075, fill=(255, 224, 96), outline=INK, width=0.01)


def magician(p: Pen) -> None:
    """I: the lemniscate over a table with the wand."""
    infinity = _curve(
        lambda t: 0.5 + 0.34 * math.cos(t) / (1 + math.sin(t) ** 2),
        lambda t: 0.24 + 0.34 * math.sin(t) * math.cos(t) / (1 + math.sin(t) ** 2),
    )
    p.line([*infinity, infinity[0]], GOLD, 0.055)
    p.rect(0.1, 0.72, 0.9, 0.79, WOOD)
    for x in (0.16, 0.78):
        p.rect(x, 0.79, x + 0.06, 0.96, WOOD)
    p.line([(0.5, 0.4), (0.5, 0.7)], INK, 0.06)
    for y in (0.4, 0.7):
        p.ellipse(0.5, y, 0.05, fill=IVORY, outline=INK, width=0.012)


def priestess(p: Pen) -> None:
    """II: the pillars Boaz and Jachin and the moon between them."""
    p.rect(0.1, 0.16, 0.28, 0.94, INK)
    p.rect(0.72, 0.16, 0.9, 0.94, IVORY, outline=INK, width=0.015)
    for x0, colour in ((0.06, INK), (0.68, INK)):
        p.rect(x0, 0.1, x0 + 0.26, 0.17, colour)
    p.text(0.19, 0.55, "B", 0.14, IVORY)
    p.text(0.81, 0.55, "J", 0.14, INK)
    _crescent(p, 0.52, 0.44, 0.2, SKY, facing=-1)


def empress(p: Pen) -> None:
    """III: the sign of Venus under a crown of stars."""
    p.ellipse(0.5, 0.46, 0.2, outline=GREEN, width=0.075)
    p.line([(0.5, 0.66), (0.5, 0.96)], GREEN, 0.075)
    p.line([(0.34, 0.82), (0.66, 0.82)], GREEN, 0.075)
    _stars(
        p,
        tuple(
            (0.5 + 0.34 * math.cos(a), 0.3 - 0.2 * math.sin(a), 0.055) for a in (0.5, 1.1, 1.57, 2.04, 2.64)
        ),
        GOLD,
    )


def emperor(p: Pen) -> None:
    """IV: the orb with the cross before the stone throne."""
    p.rect(0.18, 0.12, 0.82, 0.96, STONE, radius=0.06)
    p.rect(0.26, 0.2, 0.74, 0.9, shade(STONE, 1.3), radius=0.04)
    p.ellipse(0.5, 0.62, 0.22, fill=GOLD, outline=INK, width=0.015)
    p.line([(0.28, 0.62), (0.72, 0.62)], INK, 0.03)
    p.line([(0.5, 0.4), (0.5, 0.84)], INK, 0.03)
    p.line([(0.5, 0.18), (0.5, 0.4)], RED, 0.06)
    p.line([(0.4, 0.27), (0.6, 0.27)], RED, 0.06)


def hierophant(p: Pen) -> None:
    """V: the triple cross and the crossed keys."""
    p.line([(0.5, 0.06), (0.5, 0.72)], GOLD, 0.06)
    for y, half in ((0.16, 0.1), (0.28, 0.15), (0.4, 0.2)):
        p.line([(0.5 - half, y), (0.5 + half, y)], GOLD, 0.06)
    for sign, colour in ((1, GOLD), (-1, STEEL)):
        x = 0.5 - sign * 0.3
        p.line([(x, 0.86), (0.5 + sign * 0.14, 0.56)], colour, 0.045)
        p.ellipse(x, 0.88, 0.07, outline=colour, width=0.04)
        p.line([(0.5 + sign * 0.1, 0.62), (0.5 + sign * 0.18, 0.66)], colour, 0.04)


def lovers(p: Pen) -> None:
    """VI: two hearts and Cupid's arrow."""
    p.polygon(heart_points((0.06, 0.22, 0.62, 0.74)), RED)
    p.polygon(heart_points((0.38, 0.3, 0.94, 0.82)), (236, 120, 150))
    p.line([(0.12, 0.86), (0.86, 0.16)], WOOD, 0.035)
    p.polygon([(0.92, 0.1), (0.78, 0.14), (0.88, 0.24)], STEEL)
    p.polygon([(0.12, 0.86), (0.06, 0.78), (0.2, 0.8)], IVORY, INK, 0.008)


def chariot(p: Pen) -> None:
    """VII: the chariot under a starry canopy."""
    p.polygon([(0.14, 0.4), (0.86, 0.4), (0.74, 0.12), (0.26, 0.12)], (40, 50, 110))
    _stars(p, ((0.36, 0.26, 0.05), (0.5, 0.2, 0.05), (0.64, 0.26, 0.05)), GOLD)
    p.rect(0.18, 0.4, 0.82, 0.7, BLUE, outline=INK, width=0.012)
    for x in (0.3, 0.7):
        p.ellipse(x, 0.78, 0.14, fill=WOOD, outline=INK, width=0.015)
        for k in range(4):
            a = k * math.pi / 4
            p.line(
                [
                    (x - 0.12 * math.cos(a), 0.78 - 0.12 * math.sin(a)),
                    (x + 0.12 * math.cos(a), 0.78 + 0.12 * math.sin(a)),
                ],
                INK,
                0.02,
            )
        p.ellipse(x, 0.78, 0.035, fill=GOLD)


def justice(p: Pen) -> None:
    """VIII: the scales."""
    p.line([(0.5, 0.16), (0.5, 0.86)], GOLD, 0.05)
    p.polygon([(0.3, 0.94), (0.7, 0.94), (0.58, 0.84), (0.42, 0.84)], GOLD)
    p.line([(0.12, 0.28), (0.88, 0.28)], GOLD, 0.045)
    p.ellipse(0.5, 0.14, 0.06, fill=GOLD)
    for x in (0.2, 0.8):
        p.line([(x, 0.28), (x - 0.12, 0.58)], INK, 0.012)
        p.line([(x, 0.28), (x + 0.12, 0.58)], INK, 0.012)
        p.polygon([(x - 0.16, 0.58), (x + 0.16, 0.58), (x + 0.1, 0.66), (x - 0.1, 0.66)], GOLD, INK, 0.01)


def hermit(p: Pen) -> None:
    """IX: the lantern with the star inside, on the hermit's staff."""
    p.line([(0.18, 0.96), (0.3, 0.06)], WOOD, 0.05)
    p.line([(0.28, 0.16), (0.58, 0.16), (0.58, 0.24)], INK, 0.025)
    p.polygon([(0.4, 0.34), (0.76, 0.34), (0.58, 0.22)], INK)
    p.rect(0.42, 0.34, 0.74, 0.74, (255, 236, 150), outline=INK, width=0.03)
    up = star_points(0.58, 0.54, 0.12, 0.5, 3)[::2]
    p.polygon(up, GOLD)
    p.polygon([(x, 1.08 - y) for x, y in up], GOLD)
    p.rect(0.4, 0.74, 0.76, 0.8, INK)


def wheel(p: Pen) -> None:
    """X: the wheel of fortune."""
    for k in range(4):
        a = k * math.pi / 4
        dx, dy = 0.38 * math.cos(a), 0.38 * math.sin(a)
        p.line([(0.5 - dx, 0.5 - dy), (0.5 + dx, 0.5 + dy)], WOOD, 0.035)
    p.ellipse(0.5, 0.5, 0.4, outline=WOOD, width=0.08)
    p.ellipse(0.5, 0.5, 0.32, outline=GOLD, width=0.02)
    p.ellipse(0.5, 0.5, 0.1, fill=GOLD, outline=WOOD, width=0.02)


def strength(p: Pen) -> None:
    """XI: the lion's head."""
    p.polygon(star_points(0.5, 0.52, 0.46, 0.74, 14), ORANGE)
    for x in (0.32, 0.68):
        p.ellipse(x, 0.3, 0.08, fill=GOLD)
    p.ellipse(0.5, 0.54, 0.27, fill=GOLD)
    for x in (0.41, 0.59):
        p.ellipse(x, 0.48, 0.035, fill=INK)
    p.polygon([(0.44, 0.6), (0.56, 0.6), (0.5, 0.68)], INK)
    p.arc(0.5, 0.68, 0.1, 0.06, 20, 160, INK, 0.02)


def hanged(p: Pen) -> None:
    """XII: the hanged man, upside down on a living gallows."""
    for x in (0.14, 0.8):
        p.rect(x, 0.08, x + 0.06, 0.96, GREEN)
    p.rect(0.14, 0.08, 0.86, 0.15, GREEN)
    p.line([(0.5, 0.15), (0.5, 0.3)], WOOD, 0.02)
    p.line([(0.5, 0.3), (0.5, 0.56)], BLUE, 0.06)
    p.line([(0.5, 0.44), (0.64, 0.44), (0.64, 0.32)], BLUE, 0.05)  # the crossed leg
    p.rect(0.4, 0.54, 0.6, 0.76, RED, radius=0.04)
    p.ellipse(0.5, 0.84, 0.08, fill=FLESH, outline=INK, width=0.01)


def death(p: Pen) -> None:
    """XIII: the scythe and the skull."""
    p.line([(0.24, 0.96), (0.6, 0.1)], WOOD, 0.05)
    blade = [(0.6, 0.1), (0.42, 0.05), (0.2, 0.1), (0.06, 0.24), (0.26, 0.17), (0.44, 0.15), (0.58, 0.18)]
    p.polygon(blade, STEEL, INK, 0.01)
    p.ellipse(0.68, 0.64, 0.18, 0.16, fill=IVORY, outline=INK, width=0.012)
    p.rect(0.6, 0.74, 0.76, 0.86, IVORY, outline=INK, width=0.012)
    for x in (0.62, 0.74):
        p.ellipse(x, 0.64, 0.045, fill=INK)
    p.polygon([(0.66, 0.74), (0.7, 0.74), (0.68, 0.7)], INK)


def temperance(p: Pen) -> None:
    """XIV: water poured from one cup into the other."""
    left, top = p.at(0.04, 0.5)
    right, bottom = p.at(0.42, 0.94)
    draw_tarot_pip(p.draw, "C", (left, top, right, bottom), GOLD)
    left, top = p.at(0.58, 0.06)
    right, bottom = p.at(0.96, 0.5)
    draw_tarot_pip(p.draw, "C", (left, top, right, bottom), GOLD)
    p.line([(0.62, 0.14), (0.44, 0.18), (0.3, 0.32), (0.24, 0.52)], SKY, 0.05)


def devil(p: Pen) -> None:
    """XV: the inverted star between horns."""
    for sign in (-1, 1):
        p.polygon([(0.5 + sign * 0.16, 0.3), (0.5 + sign * 0.44, 0.04), (0.5 + sign * 0.3, 0.34)], INK)
    p.ellipse(0.5, 0.6, 0.34, fill=INK)
    p.polygon([(x, 1.22 - y) for x, y in star_points(0.5, 0.62, 0.3, 0.4)], RED)


def tower(p: Pen) -> None:
    """XVI: the tower struck by lightning, its crown falling."""
    p.rect(0.32, 0.34, 0.68, 0.96, STONE, outline=INK, width=0.012)
    for x in (0.32, 0.45, 0.58):
        p.rect(x, 0.26, x + 0.1, 0.34, STONE, outline=INK, width=0.012)
    for x in (0.43, 0.57):
        p.rect(x - 0.04, 0.44, x + 0.04, 0.56, INK, radius=0.04)
    p.rect(0.44, 0.8, 0.56, 0.96, INK, radius=0.05)
    bolt = [(0.8, 0.0), (0.98, 0.0), (0.8, 0.1), (0.88, 0.11), (0.56, 0.32), (0.7, 0.15), (0.62, 0.14)]
    p.polygon(bolt, (255, 214, 40), INK, 0.008)
    crown = [(0.06, 0.2), (0.1, 0.08), (0.16, 0.15), (0.2, 0.06), (0.24, 0.15), (0.3, 0.08), (0.3, 0.2)]
    p.polygon(crown, GOLD, INK, 0.01)


def star(p: Pen) -> None:
    """XVII: the great star among seven small ones, over the water."""
    p.polygon(star_points(0.5, 0.4, 0.32, 0.4, 8), GOLD)
    small = ((0.12, 0.14), (0.88, 0.14), (0.1, 0.5), (0.9, 0.5), (0.22, 0.78), (0.78, 0.78), (0.5, 0.86))
    _stars(p, tuple((x, y, 0.07) for x, y in small), SKY, 8)
    p.arc(0.5, 1.05, 0.5, 0.1, 200, 340, BLUE, 0.03)


def moon(p: Pen) -> None:
    """XVIII: the moon between two towers, shedding drops."""
    _crescent(p, 0.56, 0.34, 0.28, (236, 214, 120), facing=-1, thick=0.5)
    for x, y in ((0.2, 0.2), (0.82, 0.24), (0.22, 0.48), (0.84, 0.52)):
        p.polygon([(x, y - 0.06), (x + 0.035, y + 0.02), (x - 0.035, y + 0.02)], ORANGE)
    for x in (0.04, 0.76):
        p.rect(x, 0.7, x + 0.2, 0.96, STONE, outline=INK, width=0.01)
        p.polygon([(x - 0.02, 0.7), (x + 0.22, 0.7), (x + 0.1, 0.6)], RED)


def sun(p: Pen) -> None:
    """XIX: the sun and its rays."""
    p.polygon(star_points(0.5, 0.5, 0.46, 0.6, 16), ORANGE)
    p.ellipse(0.5, 0.5, 0.28, fill=GOLD)
    for x in (0.41, 0.59):
        p.ellipse(x, 0.46, 0.03, fill=INK)
    p.arc(0.5, 0.54, 0.12, 0.08, 20, 160, INK, 0.025)


def judgment(p: Pen) -> None:
    """XX: the angel's trumpet with its banner."""
    p.polygon([(0.12, 0.2), (0.16, 0.14), (0.7, 0.4), (0.64, 0.5)], GOLD, INK, 0.01)
    p.ellipse(0.72, 0.48, 0.12, 0.16, fill=GOLD, outline=INK, width=0.012)
    p.rect(0.3, 0.34, 0.6, 0.74, IVORY, outline=INK, width=0.01)
    p.line([(0.45, 0.38), (0.45, 0.7)], RED, 0.05)
    p.line([(0.33, 0.52), (0.57, 0.52)], RED, 0.05)
    for k in range(5):
        a = math.radians(-20 + 20 * k)
        p.line(
            [
                (0.84 + 0.04 * math.cos(a), 0.48 + 0.04 * math.sin(a)),
                (0.84 + 0.14 * math.cos(a), 0.48 + 0.14 * math.sin(a)),
            ],
            ORANGE,
            0.025,
        )


def world(p: Pen) -> None:
    """XXI: the laurel wreath around the world."""
    p.ellipse(0.5, 0.5, 0.3, 0.4, outline=GREEN, width=0.05)
    for k in range(16):
        a = 2 * math.pi * k / 16
        x, y = 0.5 + 0.3 * math.cos(a), 0.5 + 0.4 * math.sin(a)
        p.ellipse(x, y, 0.05, 0.035, fill=shade(GREEN, 1.3 if k % 2 else 0.85))
    for y in (0.1, 0.9):
        p.polygon([(0.42, y - 0.05), (0.58, y + 0.05), (0.58, y - 0.05), (0.42, y + 0.05)], RED)
    p.ellipse(0.5, 0.5, 0.15, fill=BLUE)
    p.arc(0.5, 0.5, 0.07, 0.15, 0, 360, SKY, 0.02)
    p.line([(0.35, 0.5), (0.65, 0.5)], SKY, 0.02)


#: The emblem of each major arcanum, by number (Marseille order, core.cards.MAJOR_ARCANA).
MAJOR_EMBLEMS: tuple[Emblem, ...] = (
    jester, magician, priestess, empress, emperor, hierophant, lovers, chariot, justice, hermit, wheel,
    strength, hanged, death, temperance, devil, tower, star, moon, sun, judgment, world,
)  # fmt: skip


# ----- the court ---------------------------------------------------------------------------------


def page(p: Pen, colour: RGB) -> None:
    """The page's feathered cap."""
    p.polygon(
        [(0.56, 0.52), (0.7, 0.2), (0.9, 0.06), (0.82, 0.3), (0.64, 0.54)], shade(colour, 1.5), colour, 0.015
    )
    p.ellipse(0.46, 0.54, 0.34, 0.2, fill=colour)
    p.rect(0.16, 0.6, 0.76, 0.74, shade(colour, 0.7), radius=0.05)
    p.ellipse(0.46, 0.46, 0.06, fill=GOLD)


def knight(p: Pen, colour: RGB) -> None:
    """The knight's horse head."""
    head = [
        (0.26, 0.86), (0.3, 0.72), (0.22, 0.56), (0.26, 0.36), (0.38, 0.2), (0.5, 0.14), (0.56, 0.04),
        (0.62, 0.16), (0.76, 0.3), (0.86, 0.46), (0.8, 0.54), (0.66, 0.5), (0.6, 0.58), (0.74, 0.86),
    ]  # fmt: skip
    p.polygon(head, colour)
    p.rect(0.18, 0.84, 0.82, 0.96, shade(colour, 0.7), radius=0.03)
    p.ellipse(0.58, 0.3, 0.04, fill=IVORY)


def queen(p: Pen, colour: RGB) -> None:
    """The queen's crown of pearls."""
    p.polygon(
        [(0.14, 0.66), (0.1, 0.3), (0.3, 0.5), (0.5, 0.22), (0.7, 0.5), (0.9, 0.3), (0.86, 0.66)],
        GOLD,
        INK,
        0.012,
    )
    for x, y in ((0.1, 0.3), (0.5, 0.22), (0.9, 0.3)):
        p.ellipse(x, y, 0.065, fill=IVORY, outline=INK, width=0.01)
    p.rect(0.14, 0.64, 0.86, 0.82, colour, radius=0.04)
    for x in (0.32, 0.5, 0.68):
        p.ellipse(x, 0.73, 0.04, fill=IVORY)


def king(p: Pen, colour: RGB) -> None:
    """The king's arched crown with the cross."""
    p.polygon(
        [(0.16, 0.68), (0.16, 0.4), (0.34, 0.5), (0.5, 0.34), (0.66, 0.5), (0.84, 0.4), (0.84, 0.68)],
        GOLD,
        INK,
        0.012,
    )
    p.ellipse(0.5, 0.28, 0.07, fill=GOLD, outline=INK, width=0.012)
    p.line([(0.5, 0.04), (0.5, 0.22)], INK, 0.05)
    p.line([(0.42, 0.11), (0.58, 0.11)], INK, 0.05)
    p.rect(0.16, 0.66, 0.84, 0.86, colour, radius=0.02)
    p.rect(0.42, 0.7, 0.58, 0.82, RED, radius=0.02)


COURT_EMBLEMS: dict[str, Callable[[Pen, RGB], None]] = {"P": page, "N": knight, "Q": queen, "K": king}


@lru_cache(maxsize=8)
def jester_cap(side: int) -> Image.Image:
    """The jester's cap as a sprite: the durak's mark."""
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    jester(Pen(ImageDraw.Draw(big), (0, 0, side * SS, side * SS)))
    return big.reduce(SS)
