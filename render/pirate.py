"""The pirate art of the One-legged bandit: the reel symbols and an emblem per career rank, as shapes."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.games.bandit import TOP_RANK
from render.draw import RGB, SS, star_points
from render.fonts import font

WOOD_DARK: RGB = (46, 24, 12)
BRASS: RGB = (222, 176, 74)
GOLD: RGB = (255, 208, 72)
INK: RGB = (84, 52, 26)
PARCHMENT: RGB = (240, 222, 180)
SEA: RGB = (20, 56, 80)
IVORY: RGB = (250, 244, 228)
RED: RGB = (176, 30, 40)
IRON: RGB = (58, 68, 86)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.polygon(star_points(cx, cy, r), fill=fill)


def _cutlass(side: int) -> Image.Image:
    """A curved sabre, upright; turned on its own layer by the callers."""
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    s = side
    blade = [(0.45, 0.64), (0.43, 0.42), (0.48, 0.22), (0.62, 0.04), (0.6, 0.2), (0.57, 0.42), (0.57, 0.64)]
    draw.polygon(
        [(x * s, y * s) for x, y in blade], fill=(214, 220, 230), outline=(80, 88, 104), width=max(1, s // 60)
    )
    draw.line([(0.52 * s, 0.6 * s), (0.5 * s, 0.3 * s)], fill=(255, 255, 255), width=max(1, s // 50))
    draw.arc((0.3 * s, 0.58 * s, 0.72 * s, 0.96 * s), 200, 340, fill=BRASS, width=max(2, s // 22))
    draw.rounded_rectangle((0.32 * s, 0.62 * s, 0.7 * s, 0.69 * s), radius=s * 0.03, fill=BRASS)
    draw.rounded_rectangle((0.46 * s, 0.68 * s, 0.56 * s, 0.88 * s), radius=s * 0.03, fill=(110, 62, 30))
    draw.ellipse((0.45 * s, 0.86 * s, 0.57 * s, 0.97 * s), fill=BRASS)
    return img


def draw_reel_symbol(img: Image.Image, code: str) -> None:
    """One reel symbol as shapes, filling the square RGBA `img`; the one place that knows them."""
    s = img.width
    draw = ImageDraw.Draw(img)
    line = max(1, round(s * 0.025))

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return x0 * s, y0 * s, x1 * s, y1 * s

    if code == "chest":
        draw.ellipse(box(0.18, 0.26, 0.82, 0.5), fill=(255, 226, 110))  # the glow of the gold inside
        draw.chord(box(0.12, 0.2, 0.88, 0.66), 180, 360, fill=(156, 92, 42), outline=(66, 36, 14), width=line)
        draw.rectangle(box(0.12, 0.43, 0.88, 0.88), fill=(130, 74, 32), outline=(66, 36, 14), width=line)
        for x in (0.26, 0.68):
            draw.rectangle(box(x, 0.22, x + 0.07, 0.88), fill=BRASS)
        draw.rectangle(box(0.12, 0.41, 0.88, 0.47), fill=BRASS)
        draw.rounded_rectangle(
            box(0.43, 0.42, 0.57, 0.6), radius=s * 0.02, fill=GOLD, outline=INK, width=line
        )
        draw.ellipse(box(0.475, 0.47, 0.525, 0.52), fill=INK)
    elif code == "parrot":
        draw.polygon(
            [(x * s, y * s) for x, y in ((0.4, 0.72), (0.56, 0.72), (0.64, 0.97), (0.38, 0.97))],
            fill=(40, 96, 206),
        )
        draw.ellipse(box(0.28, 0.3, 0.66, 0.82), fill=(216, 40, 40))
        draw.ellipse(box(0.34, 0.08, 0.68, 0.42), fill=(216, 40, 40))
        draw.ellipse(box(0.32, 0.4, 0.56, 0.8), fill=(44, 164, 76))
        draw.ellipse(box(0.36, 0.6, 0.52, 0.8), fill=(250, 210, 60))
        draw.ellipse(box(0.5, 0.14, 0.66, 0.3), fill=(255, 255, 255))
        draw.ellipse(box(0.555, 0.18, 0.615, 0.24), fill=(20, 20, 20))
        draw.polygon(
            [(x * s, y * s) for x, y in ((0.62, 0.18), (0.8, 0.24), (0.74, 0.38), (0.64, 0.32))],
            fill=(60, 56, 56),
        )
        draw.polygon(
            [(x * s, y * s) for x, y in ((0.64, 0.3), (0.74, 0.38), (0.66, 0.38))], fill=(240, 200, 80)
        )
    elif code == "cutlass":
        blade = _cutlass(s).rotate(-35, resample=Image.Resampling.BICUBIC)
        img.alpha_composite(blade)
    elif code == "rum":
        glass = (140, 70, 26)
        draw.rounded_rectangle(
            box(0.29, 0.38, 0.71, 0.94), radius=s * 0.08, fill=glass, outline=(70, 34, 10), width=line
        )
        draw.ellipse(box(0.29, 0.26, 0.71, 0.52), fill=glass)
        draw.rectangle(box(0.43, 0.1, 0.57, 0.34), fill=glass)
        draw.rounded_rectangle(box(0.41, 0.03, 0.59, 0.14), radius=s * 0.02, fill=(206, 164, 104))
        draw.rectangle(box(0.33, 0.44, 0.38, 0.88), fill=(190, 110, 52))  # a highlight on the glass
        draw.rectangle(box(0.33, 0.54, 0.67, 0.78), fill=PARCHMENT, outline=(110, 70, 30), width=line)
        put_centred(draw, (0.5 * s, 0.66 * s), "XXX", 0.15 * s, RED)
    elif code == "anchor":
        width = round(s * 0.075)
        draw.ellipse(box(0.4, 0.04, 0.6, 0.22), outline=IRON, width=round(s * 0.05))
        draw.rounded_rectangle(box(0.28, 0.25, 0.72, 0.31), radius=s * 0.03, fill=IRON)
        draw.rectangle(box(0.465, 0.2, 0.535, 0.86), fill=IRON)
        draw.arc(box(0.16, 0.34, 0.84, 0.9), 15, 165, fill=IRON, width=width)
        for sign in (-1, 1):
            tip_x = 0.5 + sign * 0.33
            flukes = ((tip_x - sign * 0.02, 0.7), (tip_x + sign * 0.07, 0.5), (tip_x - sign * 0.1, 0.62))
            draw.polygon([(x * s, y * s) for x, y in flukes], fill=IRON)
    elif code == "doubloon":
        draw.ellipse(box(0.12, 0.12, 0.88, 0.88), fill=(176, 120, 20))
        draw.ellipse(box(0.17, 0.17, 0.83, 0.83), fill=(240, 190, 54))
        draw.ellipse(box(0.25, 0.25, 0.75, 0.75), outline=(176, 120, 20), width=line)
        draw.rectangle(box(0.46, 0.3, 0.54, 0.7), fill=(176, 120, 20))
        draw.rectangle(box(0.3, 0.46, 0.7, 0.54), fill=(176, 120, 20))
        for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
            cx, cy = 0.5 + dx * 0.12, 0.5 + dy * 0.12
            draw.ellipse(box(cx - 0.03, cy - 0.03, cx + 0.03, cy + 0.03), fill=(176, 120, 20))
        draw.chord(box(0.22, 0.2, 0.5, 0.42), 180, 300, fill=(255, 236, 160))
    elif code == "scroll":
        draw.rectangle(box(0.2, 0.18, 0.8, 0.82), fill=PARCHMENT, outline=(150, 110, 60), width=line)
        for y in (0.32, 0.41, 0.5, 0.59):
            draw.line(box(0.28, y, 0.72 if y < 0.59 else 0.52, y), fill=(130, 96, 60), width=line)
        for y in (0.1, 0.76):
            draw.rounded_rectangle(
                box(0.12, y, 0.88, y + 0.13),
                radius=s * 0.06,
                fill=(214, 180, 120),
                outline=(120, 84, 40),
                width=line,
            )
        draw.ellipse(box(0.56, 0.58, 0.74, 0.76), fill=RED)
    # blank: the reel's own ivory, nothing on it


def put_centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, px: float, fill: RGB) -> None:
    draw.text(xy, text, font=font(max(4, round(px)), bold=True), fill=fill, anchor="mm")


@lru_cache(maxsize=64)
def symbol_sprite(code: str, side: int) -> Image.Image:
    """A reel symbol on a transparent square, supersampled. Shared: never draw on it."""
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw_reel_symbol(big, code)
    return big.reduce(SS)


# ----- rank emblems ------------------------------------------------------------------------------


def _tier(rank: int) -> RGB:
    """The medallion's metal: wood for a new pirate, then bronze, silver and gold."""
    if rank == 0:
        return (150, 100, 60)
    if rank <= 2:
        return (184, 114, 58)
    if rank <= 5:
        return (196, 202, 212)
    return (236, 190, 64)


def _tricorn(draw: ImageDraw.ImageDraw, s: int, trim: RGB) -> None:
    hat = [(0.14, 0.62), (0.28, 0.36), (0.5, 0.46), (0.72, 0.36), (0.86, 0.62), (0.5, 0.72)]
    points = [(x * s, y * s) for x, y in hat]
    draw.polygon(points, fill=(30, 28, 34))
    draw.line([*points, points[0]], fill=trim, width=max(1, s // 30), joint="curve")


@lru_cache(maxsize=32)
def emblem(rank: int, side: int) -> Image.Image:
    """The picture of a career rank: a medallion getting richer with the rank, and a star per rank."""
    s = side * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    metal = _tier(rank)
    if rank == TOP_RANK:  # the treasure's glow
        halo = Image.new("L", (s, s), 0)
        ImageDraw.Draw(halo).ellipse((s * 0.1, s * 0.1, s * 0.9, s * 0.9), fill=220)
        glow = Image.new("RGBA", (s, s), (*GOLD, 255))
        glow.putalpha(halo.filter(ImageFilter.GaussianBlur(s / 14)))
        img.alpha_composite(glow)
    draw.ellipse((s * 0.05, s * 0.05, s * 0.95, s * 0.95), fill=metal, outline=WOOD_DARK, width=SS * 2)
    draw.ellipse((s * 0.15, s * 0.15, s * 0.85, s * 0.85), fill=PARCHMENT, outline=WOOD_DARK, width=SS)
    inner = round(s * 0.56)
    pic = Image.new("RGBA", (inner, inner), (0, 0, 0, 0))
    p = ImageDraw.Draw(pic)
    if rank == 0:  # a red bandana
        p.chord((inner * 0.15, inner * 0.2, inner * 0.85, inner * 0.9), 180, 360, fill=RED)
        p.rectangle((inner * 0.15, inner * 0.5, inner * 0.85, inner * 0.6), fill=(150, 20, 30))
        p.polygon(
            [(inner * 0.8, inner * 0.52), (inner * 0.98, inner * 0.74), (inner * 0.84, inner * 0.8)], fill=RED
        )
        for x, y in ((0.35, 0.35), (0.55, 0.3), (0.65, 0.44), (0.45, 0.46)):
            p.ellipse(
                (inner * (x - 0.03), inner * (y - 0.03), inner * (x + 0.03), inner * (y + 0.03)), fill=IVORY
            )
    elif rank == 1:  # the mast with a crow's nest
        p.rectangle((inner * 0.46, inner * 0.05, inner * 0.54, inner * 0.98), fill=(120, 72, 34))
        p.polygon(
            [
                (inner * 0.54, inner * 0.4),
                (inner * 0.9, inner * 0.46),
                (inner * 0.86, inner * 0.86),
                (inner * 0.54, inner * 0.9),
            ],
            fill=IVORY,
            outline=INK,
        )
        p.rectangle((inner * 0.32, inner * 0.2, inner * 0.68, inner * 0.32), fill=(140, 86, 40), outline=INK)
        p.polygon(
            [(inner * 0.54, inner * 0.04), (inner * 0.78, inner * 0.1), (inner * 0.54, inner * 0.16)],
            fill=RED,
        )
    elif rank == 2:  # a cannon on its carriage
        p.polygon(
            [
                (inner * 0.1, inner * 0.42),
                (inner * 0.88, inner * 0.26),
                (inner * 0.92, inner * 0.44),
                (inner * 0.14, inner * 0.62),
            ],
            fill=(40, 40, 46),
        )
        p.ellipse((inner * 0.82, inner * 0.24, inner * 0.96, inner * 0.46), fill=(20, 20, 24))
        p.ellipse(
            (inner * 0.2, inner * 0.5, inner * 0.56, inner * 0.86),
            fill=(120, 72, 34),
            outline=INK,
            width=SS * 2,
        )
        p.ellipse((inner * 0.34, inner * 0.64, inner * 0.42, inner * 0.72), fill=INK)
    elif rank == 3:  # the boatswain's anchor
        pic.alpha_composite(_symbol_big("anchor", inner))
    elif rank == 4:  # the navigator's compass rose
        c = inner / 2
        p.ellipse((inner * 0.08, inner * 0.08, inner * 0.92, inner * 0.92), outline=INK, width=SS * 2)
        for degrees, colour in ((0, RED), (90, INK), (180, INK), (270, INK)):
            a = math.radians(degrees - 90)
            tip = (c + math.cos(a) * inner * 0.44, c + math.sin(a) * inner * 0.44)
            left = (c + math.cos(a - math.pi / 2) * inner * 0.1, c + math.sin(a - math.pi / 2) * inner * 0.1)
            right = (c + math.cos(a + math.pi / 2) * inner * 0.1, c + math.sin(a + math.pi / 2) * inner * 0.1)
            p.polygon([tip, left, (c, c), right], fill=colour)
    elif rank == 5:  # the quartermaster's share: a stack of doubloons
        coin = _symbol_big("doubloon", round(inner * 0.7))
        pic.alpha_composite(coin, (0, round(inner * 0.3)))
        pic.alpha_composite(coin, (round(inner * 0.3), round(inner * 0.15)))
    elif rank == 6:  # crossed cutlasses
        blade = _cutlass(inner)
        pic.alpha_composite(blade.rotate(-35, resample=Image.Resampling.BICUBIC))
        pic.alpha_composite(blade.rotate(35, resample=Image.Resampling.BICUBIC))
    elif rank in (7, 8):  # the captain's tricorn; a plume and a gold band for the squadron
        if rank == 8:
            p.polygon(
                [
                    (inner * 0.5, inner * 0.44),
                    (inner * 0.62, inner * 0.05),
                    (inner * 0.74, inner * 0.12),
                    (inner * 0.58, inner * 0.46),
                ],
                fill=IVORY,
                outline=RED,
                width=SS * 2,
            )
        _tricorn(p, inner, GOLD if rank == 8 else (170, 170, 176))
        _star(p, inner * 0.5, inner * 0.56, inner * 0.08, GOLD)
    else:  # Flint's treasure: the chest with a crown
        pic.alpha_composite(
            _symbol_big("chest", round(inner * 0.9)), (round(inner * 0.05), round(inner * 0.12))
        )
        crown = [(0.28, 0.3), (0.28, 0.08), (0.39, 0.2), (0.5, 0.02), (0.61, 0.2), (0.72, 0.08), (0.72, 0.3)]
        p.polygon([(x * inner, y * inner) for x, y in crown], fill=GOLD, outline=INK, width=SS)
        p.ellipse((inner * 0.46, inner * 0.14, inner * 0.54, inner * 0.22), fill=RED)
    img.alpha_composite(pic, ((s - inner) // 2, round(s * 0.19)))
    # A star per rank along the bottom of the rim.
    for k in range(rank):
        angle = math.radians(90 + (k - (rank - 1) / 2) * 15)
        star_x, star_y = s / 2 + math.cos(angle) * s * 0.4, s / 2 + math.sin(angle) * s * 0.4
        _star(draw, star_x, star_y, s * 0.05, IVORY if rank <= 2 else SEA if rank < TOP_RANK else RED)
    return img.reduce(SS)


def _symbol_big(code: str, side: int) -> Image.Image:
    """A reel symbol at full (supersampled) resolution, for the emblems."""
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw_reel_symbol(img, code)
    return img
