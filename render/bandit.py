"""The pictures of Game 9 (the One-legged bandit): the machine after a pull, and the spin as a GIF.

The machine, top to bottom: the paytable, the career rank (an emblem per rank, its title and,
after a career step, the episode), three reels behind a window with the payline, the win or
career banner and a footer. The reels are crops of one cached strip image (the 32 stops drawn
once per size, sharp and motion-blurred), so the still and every GIF frame draw them the same way.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.games.bandit import CAREER, PAYTABLE, STRIP, TOP_RANK, BanditView, Line
from render.cards import RGB, SS, paste
from render.fonts import font
from render.grid import encode
from render.text import fit, money, put_text, wrap

# ----- look --------------------------------------------------------------------------------------

WOOD: RGB = (92, 52, 26)
WOOD_DARK: RGB = (46, 24, 12)
BRASS: RGB = (222, 176, 74)
GOLD: RGB = (255, 208, 72)
INK: RGB = (84, 52, 26)
PARCHMENT: RGB = (240, 222, 180)
SEA: RGB = (20, 56, 80)
IVORY: RGB = (250, 244, 228)
TEXT: RGB = (250, 244, 226)
MUTED: RGB = (214, 190, 150)
RED: RGB = (176, 30, 40)
IRON: RGB = (58, 68, 86)

STRINGS: dict[str, dict[str, str]] = {
    "ru": {
        "title": "Одноногий разбойник",
        "career": "карьера",
        "rank": "Чин {n} из {top}",
        "next": "Три свитка — и вы {title} (+{bonus})",
        "win": "Выигрыш: {win}",
        "none": "Пусто. Тяните рычаг ещё!",
        "spinning": "Барабаны крутятся…",
        "step": "Три свитка! Новый чин, бонус +{bonus}",
        "voyage": "Клад найден! Новое плавание",
        "free": "Бесплатных рывков: {n}",
        "balance": "Баланс: {balance}",
    },
    "en": {
        "title": "One-legged bandit",
        "career": "career",
        "rank": "Rank {n} of {top}",
        "next": "Three scrolls make you {title} (+{bonus})",
        "win": "You win {win}",
        "none": "Nothing. Pull the lever again!",
        "spinning": "The reels are spinning…",
        "step": "Three scrolls! Promoted, bonus +{bonus}",
        "voyage": "Treasure found! A new voyage",
        "free": "Free pulls left: {n}",
        "balance": "Balance: {balance}",
    },
}


def _strings(lang: str) -> dict[str, str]:
    return STRINGS["ru" if lang == "ru" else "en"]


# ----- symbols -----------------------------------------------------------------------------------


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


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


def shown_rank(view: BanditView) -> int:
    """The rank whose picture the machine shows: the one reached by this pull's step, else the rank."""
    return next((r.rank for r in CAREER if r.title_ru == view.title_ru), view.rank)


# ----- the reels ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reels:
    """The reel window of a machine `width` px wide, relative to the window section's top-left."""

    width: int
    height: int
    row: int
    reel_w: int
    gap: int
    #: The window (the dark frame) and the three reels inside it.
    window: tuple[int, int, int, int]
    reel_x: tuple[int, int, int]
    reel_y: int
    #: The crutch lever's pivot.
    pivot: tuple[int, int]

    def cell(self, reel: int, row: int) -> tuple[int, int, int, int]:
        """The box of a visible row (0 top, 1 payline, 2 bottom) of a reel."""
        x, y = self.reel_x[reel], self.reel_y + row * self.row
        return x, y, x + self.reel_w, y + self.row


@lru_cache(maxsize=8)
def reels(width: int) -> Reels:
    row, reel_w, gap = round(width * 0.115), round(width * 0.235), round(width * 0.02)
    frame, margin = round(width * 0.025), round(width * 0.02)
    left = round(width * 0.05)
    window = (left, margin, left + 3 * reel_w + 2 * gap + 2 * frame, margin + 3 * row + 2 * frame)
    xs = (left + frame, left + frame + reel_w + gap, left + frame + 2 * (reel_w + gap))
    pivot = (round((window[2] + width) / 2), (window[1] + window[3]) // 2)
    return Reels(width, window[3] + margin, row, reel_w, gap, window, xs, margin + frame, pivot)


#: Strip rows: the stop before 0, the 32 stops, then two more, so a 3-row crop never wraps.
STRIP_ROWS = len(STRIP) + 3


@lru_cache(maxsize=8)
def strip_image(reel_w: int, row: int, blurred: bool) -> Image.Image:
    """All stops of the reel strip stacked top to bottom on ivory (RGB); blurred along the reel for motion."""
    img = Image.new("RGB", (reel_w, row * STRIP_ROWS), IVORY)
    icon = round(row * 0.84)
    for k in range(STRIP_ROWS):
        code = STRIP[(k - 1) % len(STRIP)]
        paste(img, symbol_sprite(code, icon), ((reel_w - icon) // 2, k * row + (row - icon) // 2))
    if blurred:
        # Squash and stretch along the reel only: a cheap vertical motion blur.
        squash = max(2, row // 3)
        img = img.resize((reel_w, img.height // squash), Image.Resampling.BOX)
        img = img.resize((reel_w, row * STRIP_ROWS), Image.Resampling.BILINEAR)
    return img


def reel_crop(geo: Reels, position: float, blurred: bool) -> Image.Image:
    """The 3 visible rows of a reel whose payline shows stop `position` (fractional while moving)."""
    strip = strip_image(geo.reel_w, geo.row, blurred)
    y = round((position % len(STRIP)) * geo.row)
    return strip.crop((0, y, geo.reel_w, y + 3 * geo.row))


@lru_cache(maxsize=8)
def reel_shade(geo: Reels) -> Image.Image:
    """Darkening towards a reel's top and bottom edges: the drum's curve."""
    h = 3 * geo.row
    alpha = Image.linear_gradient("L").resize((1, h))
    # Only the outer quarters darken, so the payline row stays clean (and free of palette bands).
    alpha = alpha.point(lambda v: round(160 * max(0.0, abs(v - 127.5) / 127.5 - 0.5) / 0.5))
    shade = Image.new("RGBA", (geo.reel_w, h), (*WOOD_DARK, 255))
    shade.putalpha(alpha.resize((geo.reel_w, h)))
    return shade


@lru_cache(maxsize=8)
def window_art(width: int) -> Image.Image:
    """The reel section without the reels: the dark cabinet, the window frame, rivets (RGB)."""
    geo = reels(width)
    img = Image.new("RGB", (width, geo.height), WOOD)
    draw = ImageDraw.Draw(img)
    for y in range(0, geo.height, max(6, geo.row // 3)):  # planks
        draw.line((0, y, width, y), fill=(80, 44, 20), width=1)
    x0, y0, x1, y1 = geo.window
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=geo.gap, fill=WOOD_DARK, outline=BRASS, width=max(2, width // 200)
    )
    r = max(2, width // 160)
    for x, y in (
        (x0 + 3 * r, y0 + 3 * r),
        (x1 - 3 * r, y0 + 3 * r),
        (x0 + 3 * r, y1 - 3 * r),
        (x1 - 3 * r, y1 - 3 * r),
    ):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=BRASS)
    return img


@lru_cache(maxsize=8)
def payline(geo: Reels) -> Image.Image:
    """The payline over the window: red arrows on the frame and a thin line across the reels."""
    x0, _, x1, _ = geo.window
    img = Image.new("RGBA", (geo.width * SS, geo.height * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    y = (geo.reel_y + 1.5 * geo.row) * SS
    a = (geo.reel_x[0] - x0) * SS * 0.9
    draw.line((x0 * SS, y, x1 * SS, y), fill=(*RED, 150), width=max(SS, geo.row * SS // 40))
    draw.polygon([(x0 * SS, y - a), (x0 * SS + a, y), (x0 * SS, y + a)], fill=(*RED, 255))
    draw.polygon([(x1 * SS, y - a), (x1 * SS - a, y), (x1 * SS, y + a)], fill=(*RED, 255))
    return img.reduce(SS)


@lru_cache(maxsize=8)
def win_frame(geo: Reels) -> Image.Image:
    """A gold frame around one payline cell that a paying or career line uses."""
    w, h = geo.reel_w * SS, geo.row * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (SS, SS, w - SS, h - SS), radius=h // 8, outline=(*GOLD, 255), width=max(SS * 2, h // 18)
    )
    return img.reduce(SS)


@lru_cache(maxsize=8)
def lever(geo: Reels, down: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The crutch lever, up or pulled down, and where its sprite goes (its pivot on the cabinet)."""
    length = round(geo.row * 1.55)
    size = (2 * length + 1) * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    sign = 1 if down else -1
    pole = max(2, geo.row // 9) * SS
    tip_y = c + sign * length * SS * 0.8
    draw.line((c, c, c, tip_y), fill=(150, 98, 50), width=pole)
    # The crutch: a padded cross-piece at the end and a hand grip half-way.
    pad_w, pad_h = geo.row * 0.42 * SS, geo.row * 0.16 * SS
    draw.rounded_rectangle(
        (c - pad_w, tip_y - pad_h, c + pad_w, tip_y + pad_h),
        radius=pad_h,
        fill=(120, 40, 34),
        outline=WOOD_DARK,
        width=SS * 2,
    )
    grip_y = c + sign * length * SS * 0.45
    draw.rounded_rectangle(
        (c - pad_w * 0.55, grip_y - pad_h * 0.4, c + pad_w * 0.55, grip_y + pad_h * 0.4),
        radius=pad_h * 0.4,
        fill=(150, 98, 50),
    )
    draw.ellipse(
        (c - pole * 1.4, c - pole * 1.4, c + pole * 1.4, c + pole * 1.4),
        fill=BRASS,
        outline=WOOD_DARK,
        width=SS,
    )
    sprite = img.reduce(SS)
    return sprite, (geo.pivot[0] - length, geo.pivot[1] - length)


def draw_reels(
    img: Image.Image,
    origin: tuple[int, int],
    geo: Reels,
    positions: Sequence[float],
    blurred: Sequence[bool],
    lit: Sequence[bool] = (False, False, False),
    pulled: bool = False,
) -> None:
    """The reel section onto `img` at `origin`: still and GIF frames alike are drawn by this."""
    ox, oy = origin
    img.paste(window_art(geo.width), origin)
    shade = reel_shade(geo)
    for reel in range(3):
        x, y = geo.reel_x[reel] + ox, geo.reel_y + oy
        img.paste(reel_crop(geo, positions[reel], blurred[reel]), (x, y))
        paste(img, shade, (x, y))
        if lit[reel]:
            frame = win_frame(geo)
            paste(img, frame, (x, y + geo.row))
    paste(img, payline(geo), origin)
    sprite, (lx, ly) = lever(geo, pulled)
    paste(img, sprite, (lx + ox, ly + oy))


def _lit(view: BanditView) -> tuple[bool, bool, bool]:
    """Which payline cells the result's line uses (the doubloons of a doubloon line, all of a triple)."""
    line = _line(view.line)
    if line is None or view.symbols is None:
        return (False, False, False)
    first, second, third = (symbol == line.symbol for symbol in view.symbols)
    return first, second, third


def _line(code: str | None) -> Line | None:
    return next((line for line in PAYTABLE if line.code == code), None)


# ----- the still ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    title: int
    table: tuple[int, int]
    career: tuple[int, int]
    #: The top of the reel section.
    reels_y: int
    banner: tuple[int, int]
    footer: tuple[int, int]


@lru_cache(maxsize=8)
def layout(size: int) -> Layout:
    """A portrait machine, `size` px high, 0.8 of that wide."""
    width = round(size * 0.8)
    title = round(size * 0.062)
    table = (title, title + round(size * 0.245))
    career = (table[1], table[1] + round(size * 0.2))
    reel_h = reels(width).height
    banner = (career[1] + reel_h, career[1] + reel_h + round(size * 0.075))
    return Layout(width, size, title, table, career, career[1], banner, (banner[1], size))


@lru_cache(maxsize=8)
def backdrop(size: int, lang: str) -> Image.Image:
    """The machine without a result: cabinet, title and paytable frame (RGB). Shared: copy it."""
    geo = layout(size)
    w = geo.width
    ramp = Image.linear_gradient("L").resize((w, geo.height))
    img = Image.composite(
        Image.new("RGB", (w, geo.height), WOOD_DARK), Image.new("RGB", (w, geo.height), WOOD), ramp
    )
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w, geo.title), fill=(112, 24, 30))
    draw.line((0, geo.title - 2, w, geo.title - 2), fill=BRASS, width=2)
    title_px = round(geo.title * 0.52)
    half = put_text(img, (w / 2, geo.title / 2), _strings(lang)["title"], title_px, GOLD, "mm") / 2
    for sign in (-1, 1):
        _star(draw, w / 2 + sign * (half + title_px), geo.title / 2, geo.title * 0.22, BRASS)
    margin = round(w * 0.03)
    top, bottom = geo.table
    draw.rounded_rectangle(
        (margin, top + margin // 2, w - margin, bottom - margin // 2),
        radius=margin,
        fill=PARCHMENT,
        outline=BRASS,
        width=2,
    )
    top, bottom = geo.career
    draw.rounded_rectangle(
        (margin, top + margin // 3, w - margin, bottom - margin // 3),
        radius=margin,
        fill=SEA,
        outline=BRASS,
        width=2,
    )
    draw.line((0, geo.footer[0], w, geo.footer[0]), fill=BRASS, width=1)
    return img


def _draw_paytable(img: Image.Image, geo: Layout, view: BanditView, lang: str) -> None:
    margin = round(geo.width * 0.03)
    top, bottom = geo.table
    inner_top, inner_bottom = top + margin, bottom - margin
    rows = (len(PAYTABLE) + 1) // 2
    pitch = (inner_bottom - inner_top) / rows
    col_w = (geo.width - 3 * margin) / 2
    icon = round(pitch * 0.8)
    px = round(pitch * 0.46)
    draw = ImageDraw.Draw(img)
    for n, line in enumerate(PAYTABLE):
        col, row = divmod(n, rows)
        x = margin * 1.5 + col * (col_w + margin * 0.0)
        y = inner_top + row * pitch
        mid = y + pitch / 2
        if line.code == view.line:
            draw.rounded_rectangle(
                (x - margin * 0.3, y + 1, x + col_w - margin * 0.2, y + pitch - 1),
                radius=pitch / 4,
                fill=GOLD,
            )
        sprite = symbol_sprite(line.symbol, icon)
        for k in range(line.exactly):
            paste(img, sprite, (round(x + k * icon * 0.92), round(mid - icon / 2)))
        right = x + col_w - margin * 0.8
        if line.career:
            put_text(img, (right, mid), _strings(lang)["career"], px, RED, "rm")
        else:
            put_text(img, (right, mid), money(line.pays), px, INK, "rm")
            if line.exactly < 3:
                name = line.name_ru if lang == "ru" else line.name_en
                label_x = x + 3 * icon * 0.92
                put_text(
                    img,
                    (label_x, mid),
                    fit(name, round(px * 0.72), right - label_x - px * 2.2, bold=False),
                    round(px * 0.72),
                    INK,
                    bold=False,
                )


def _draw_career(img: Image.Image, geo: Layout, view: BanditView, lang: str) -> None:
    s = _strings(lang)
    margin = round(geo.width * 0.03)
    top, bottom = geo.career
    side = bottom - top - margin
    rank = shown_rank(view)
    paste(img, emblem(rank, side), (margin * 2, top + margin // 2))
    x = margin * 3 + side
    room = geo.width - x - margin * 2
    px = round(side * 0.13)
    y = top + margin * 1.1
    put_text(img, (x, y), s["rank"].format(n=rank, top=TOP_RANK), round(px * 0.8), MUTED)
    y += px * 1.2
    title = view.title_ru if lang == "ru" else view.title_en
    for text in wrap(title, round(px * 1.15), room, 2, bold=True):
        put_text(img, (x, y + px * 0.3), text, round(px * 1.15), GOLD)
        y += px * 1.45
    y += px * 0.2
    if view.career_step:
        episode = view.episode_ru if lang == "ru" else view.episode_en
        lines = wrap(episode, round(px * 0.82), room, 4)
    else:
        following = CAREER[rank % TOP_RANK + 1]
        title = following.title_ru if lang == "ru" else following.title_en
        lines = wrap(s["next"].format(title=title, bonus=money(following.bonus)), round(px * 0.82), room, 3)
    for text in lines:
        put_text(img, (x, y + px * 0.3), text, round(px * 0.82), TEXT, bold=False)
        y += px * 1.08


def _draw_banner(img: Image.Image, geo: Layout, view: BanditView, lang: str) -> None:
    s = _strings(lang)
    top, bottom = geo.banner
    h = bottom - top
    margin = round(geo.width * 0.06)
    draw = ImageDraw.Draw(img)
    box = (margin, top + h * 0.1, geo.width - margin, bottom - h * 0.1)
    mid = (top + bottom) / 2
    px = round(h * 0.42)
    if view.symbols is None:
        put_text(img, (geo.width / 2, mid), s["spinning"], px, MUTED, "mm")
    elif view.career_step:
        draw.rounded_rectangle(box, radius=h // 3, fill=RED, outline=GOLD, width=3)
        text = s["voyage"] if view.new_voyage else s["step"].format(bonus=money(view.bonus))
        if view.new_voyage:
            text += f" · +{money(view.bonus)}"
        put_text(img, (geo.width / 2, mid), fit(text, px, box[2] - box[0] - 20), px, GOLD, "mm")
    elif view.win:
        draw.rounded_rectangle(box, radius=h // 3, fill=GOLD, outline=(255, 244, 200), width=3)
        coin = symbol_sprite("doubloon", round(h * 0.62))
        for x in (box[0] + h * 0.25, box[2] - h * 0.25 - coin.width):
            paste(img, coin, (round(x), round(mid - coin.height / 2)))
        put_text(
            img,
            (geo.width / 2, mid),
            s["win"].format(win=money(view.win)),
            round(px * 1.1),
            (90, 30, 10),
            "mm",
        )
    else:
        put_text(img, (geo.width / 2, mid), s["none"], px, MUTED, "mm", bold=False)


def _draw_footer(
    img: Image.Image, geo: Layout, lang: str, free_left: int | None, balance: int | None
) -> None:
    s = _strings(lang)
    top, bottom = geo.footer
    mid = (top + bottom) / 2
    margin = round(geo.width * 0.04)
    px = round((bottom - top) * 0.38)
    if free_left is not None:
        put_text(img, (margin, mid), s["free"].format(n=free_left), px, TEXT, bold=False)
    if balance is not None:
        put_text(img, (geo.width - margin, mid), s["balance"].format(balance=money(balance)), px, GOLD, "rm")


#: Where the reels rest while the engine has no stops yet: a spread of the strip, blurred.
IDLE = (5.0, 16.0, 27.0)


def compose_bandit(
    view: BanditView,
    *,
    lang: str = "ru",
    size: int = 1000,
    free_left: int | None = None,
    balance: int | None = None,
) -> Image.Image:
    """The machine in full colour (an RGB image of its own)."""
    geo = layout(size)
    img = backdrop(size, lang).copy()
    _draw_paytable(img, geo, view, lang)
    _draw_career(img, geo, view, lang)
    section = reels(geo.width)
    if view.stops is None:
        draw_reels(img, (0, geo.reels_y), section, IDLE, (True, True, True))
    else:
        draw_reels(img, (0, geo.reels_y), section, view.stops, (False, False, False), _lit(view))
    _draw_banner(img, geo, view, lang)
    _draw_footer(img, geo, lang, free_left, balance)
    return img


def render_bandit(
    view: BanditView,
    *,
    lang: str = "ru",
    size: int = 1000,
    free_left: int | None = None,
    balance: int | None = None,
) -> bytes:
    """The machine after a pull (or while its reels spin) as PNG bytes, `size` px high. Pure."""
    return encode(compose_bandit(view, lang=lang, size=size, free_left=free_left, balance=balance))


# ----- the spin ----------------------------------------------------------------------------------

#: Frames of motion and the frame on which each reel comes to rest; then one final frame that holds.
SPIN_FRAMES = 15
STOP_AT = (7, 10, 13)
FRAME_MS = 90
HOLD_MS = 1000
#: Whole turns of the strip (in stops) each reel travels before it stops: later reels travel further.
TRAVEL = (24.0, 34.0, 44.0)
#: The reel overshoots its stop by this much of a row and settles back: a small bounce.
OVERSHOOT = 1.6
GIF_COLOURS = 128


def _ease(t: float) -> float:
    """0 -> 1 fast at first, slowing down, a little past 1 near the end and back (ease-out-back)."""
    t -= 1
    return 1 + t * t * ((OVERSHOOT + 1) * t + OVERSHOOT)


def spin_positions(stops: Sequence[int], frame: int) -> tuple[list[float], list[bool]]:
    """Each reel's strip position in `frame` and whether it moves fast enough to blur."""
    positions, blurred = [], []
    for reel, stop in enumerate(stops):
        end = STOP_AT[reel]
        if frame >= end:
            positions.append(float(stop))
            blurred.append(False)
            continue
        t, t_next = frame / end, (frame + 1) / end
        # The strip runs downwards on screen, so the position counts down to the stop.
        positions.append(stop + TRAVEL[reel] * (1 - _ease(t)))
        blurred.append(TRAVEL[reel] * abs(_ease(t_next) - _ease(t)) > 0.9)
    return positions, blurred


@dataclass(frozen=True)
class SpinLook:
    geo: Reels
    #: The title band above the reels.
    title: int
    palette: Image.Image


@lru_cache(maxsize=4)
def spin_look(size: int, lang: str) -> SpinLook:
    """The GIF's geometry and its one global palette: octree over the strips, still and blurred."""
    geo = reels(size)
    title = round(size * 0.08)
    swatch = Image.new("RGB", (size + 2 * geo.reel_w, max(geo.height + title, STRIP_ROWS * geo.row)), WOOD)
    swatch.paste(_spin_canvas(size, lang, geo, title), (0, 0))
    swatch.paste(strip_image(geo.reel_w, geo.row, False), (size, 0))
    swatch.paste(strip_image(geo.reel_w, geo.row, True), (size + geo.reel_w, 0))
    draw_reels(
        swatch, (0, title), geo, (0.0, 11.0, 22.0), (False, False, False), (True, True, True), pulled=True
    )
    colours = swatch.quantize(GIF_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return SpinLook(geo, title, colours)


@lru_cache(maxsize=4)
def _spin_canvas(size: int, lang: str, geo: Reels, title: int) -> Image.Image:
    """The GIF's frame without the reels: the title band over the cabinet (RGB). Shared: copy it."""
    img = Image.new("RGB", (size, geo.height + title), WOOD)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, size, title), fill=(112, 24, 30))
    draw.line((0, title - 2, size, title - 2), fill=BRASS, width=2)
    put_text(img, (size / 2, title / 2), _strings(lang)["title"], round(title * 0.55), GOLD, "mm")
    return img


def render_spin_animation(
    view: BanditView,
    *,
    lang: str = "ru",
    size: int = 640,
    frames: int = SPIN_FRAMES,
) -> bytes:
    """The pull as a GIF: the lever goes down, the reels spin and stop left to right on `view.stops`.

    `size` is the width. The last frame is the result and holds for HOLD_MS; the animation plays
    once (Telegram loops it anyway, and the held result makes the loop read well). `frames` is the
    number of moving frames; the stops are spread over it in the same proportions.
    """
    if view.stops is None:
        raise ValueError("the reels have not stopped: no stops to animate")
    look = spin_look(size, lang)
    base = _spin_canvas(size, lang, look.geo, look.title)
    scale = frames / SPIN_FRAMES
    shots: list[Image.Image] = []
    for frame in range(frames + 1):
        # Sample the standard timeline, so that any frame count keeps the reels' rhythm.
        at = min(SPIN_FRAMES, round(frame / scale)) if frame < frames else SPIN_FRAMES
        positions, blurred = spin_positions(view.stops, at)
        img = base.copy()
        final = frame == frames
        lit = _lit(view) if final else (False, False, False)
        draw_reels(img, (0, look.title), look.geo, positions, blurred, lit, pulled=at < 2)
        shots.append(img.quantize(palette=look.palette, dither=Image.Dither.NONE))
    out = io.BytesIO()
    shots[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=shots[1:],
        duration=[FRAME_MS] * frames + [HOLD_MS],
        optimize=False,
        disposal=1,
    )
    return out.getvalue()
