"""Card sprites: the blank card, corner indices and pip patterns both decks print, the French faces,
backs, shadows and outlines.

Everything is drawn once per (card, size) at SS times the size and reduced, which gives smooth
anti-aliased shapes. The results are cached and shared: callers paste them and never draw on them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.cards import Card, parse, rank_label
from render.draw import RGB, SS, Box, shade
from render.fonts import font
from render.pips import draw_pip, suit_colour

#: Height over width of every card sprite.
CARD_ASPECT = 1.4

PAPER: RGB = (252, 250, 244)
EDGE: RGB = (190, 184, 170)
BACK_RED: RGB = (140, 28, 44)
BACK_BLUE: RGB = (28, 62, 120)

#: Draws one pip of a suit into a box: `draw_pip` or `draw_tarot_pip` with the suit bound.
PipDrawer = Callable[[ImageDraw.ImageDraw, Box], None]


def card_radius(width: int) -> int:
    """Corner radius shared by faces, backs, shadows and highlight outlines so they line up."""
    return max(3, round(width * 0.09))


def blank(width: int, height: int, fill: RGB = PAPER) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A supersampled blank card with rounded corners, to draw a face or a back on; reduce by SS."""
    img = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (0, 0, width * SS - 1, height * SS - 1),
        radius=card_radius(width) * SS,
        fill=fill,
        outline=EDGE,
        width=SS,
    )
    return img, draw


# ----- what both decks print ---------------------------------------------------------------------


def draw_indices(img: Image.Image, rank: str, pip: PipDrawer, colour: RGB) -> None:
    """The rank and a small pip in the top-left corner and, turned over, in the bottom-right one."""
    w, h = img.size
    corner = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(corner)
    size = round(w * 0.25)
    face = font(size, bold=True)
    cx = w * 0.15
    # "10" is wide: squeeze it a little so it stays inside the corner column.
    text_w = face.getlength(rank)
    if text_w > w * 0.26:
        face = font(round(size * w * 0.26 / text_w), bold=True)
    top = h * 0.035
    draw.text((cx, top), rank, font=face, fill=colour, anchor="mt")
    side = w * 0.13
    pip_top = top + size * 1.05
    pip(draw, (cx - side / 2, pip_top, cx + side / 2, pip_top + side * 1.05))
    img.alpha_composite(corner)
    img.alpha_composite(corner.rotate(180))


#: Pip centres as (x, y) fractions of the pattern box; pips below the middle are turned over.
PATTERNS: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((0.5, 0), (0.5, 1)),
    "3": ((0.5, 0), (0.5, 0.5), (0.5, 1)),
    "4": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "5": ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    "6": ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    "7": ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    "8": ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    "9": ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)),
    "10": (
        (0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3),
        (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1),
    ),
}  # fmt: skip


def draw_pattern(img: Image.Image, rank: str, pip: PipDrawer) -> None:
    """The pips of a number card between the index columns, as printed."""
    w, h = img.size
    left, right = w * 0.3, w * 0.7
    top, bottom = h * 0.08, h * 0.92
    pip_w = w * (0.16 if rank in ("9", "10") else 0.19 if len(PATTERNS[rank]) > 5 else 0.22)
    pip_h = pip_w * 1.08
    cols = (left + pip_w / 2, right - pip_w / 2)
    rows = (top + pip_h / 2, bottom - pip_h / 2)
    upright = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    flipped = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    for fx, fy in PATTERNS[rank]:
        x = cols[0] + fx * (cols[1] - cols[0])
        y = rows[0] + fy * (rows[1] - rows[0])
        if fy > 0.5:  # printed upside down, as on a real card: draw at the mirrored spot and rotate
            target, x, y = flipped, w - x, h - y
        else:
            target = upright
        pip(ImageDraw.Draw(target), (x - pip_w / 2, y - pip_h / 2, x + pip_w / 2, y + pip_h / 2))
    img.alpha_composite(upright)
    img.alpha_composite(flipped.rotate(180))


def draw_ace(img: Image.Image, pip: PipDrawer) -> None:
    w, h = img.size
    side = w * 0.46
    pip(ImageDraw.Draw(img), (w / 2 - side / 2, h / 2 - side * 0.54, w / 2 + side / 2, h / 2 + side * 0.54))


# ----- French faces ------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def card_face(card: Card, width: int, height: int, lang: str = "en") -> Image.Image:
    """The face of a French card as an RGBA sprite with rounded, anti-aliased corners.

    `lang="ru"` prints the Russian court letters (В, Д, К, Т) as on Russian decks.
    """
    rank, suit = parse(card)
    img, draw = blank(width, height)
    colour = suit_colour(suit)
    shown = rank_label(rank, lang)

    def pip(target: ImageDraw.ImageDraw, box: Box) -> None:
        draw_pip(target, suit, box, colour)

    draw_indices(img, shown, pip, colour)
    w, h = img.size
    if rank in PATTERNS:
        draw_pattern(img, rank, pip)
    elif rank == "A":
        draw_ace(img, pip)
    else:
        # Court cards: a framed panel with a big letter and a pip.
        frame = (w * 0.27, h * 0.17, w * 0.73, h * 0.83)
        tint = (252, 236, 236) if suit.red else (234, 238, 246)
        draw.rounded_rectangle(frame, radius=w * 0.05, fill=tint, outline=colour, width=max(SS, w // 90))
        letter = font(round(w * 0.34), bold=True)
        # Anchored on the baseline so a descending "J" never runs into the pip below.
        draw.text((w / 2, h * 0.5), shown, font=letter, fill=colour, anchor="ms")
        side = w * 0.2
        py = h * 0.665
        pip(draw, (w / 2 - side / 2, py - side * 0.54, w / 2 + side / 2, py + side * 0.54))
    return img.reduce(SS)


# ----- backs -------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def card_back(width: int, height: int, tint: RGB = BACK_RED) -> Image.Image:
    """The back of a French card: a white border around a diamond lattice in `tint`, a diamond emblem."""
    img, draw = blank(width, height)
    w, h = img.size
    inner, panel, stroke = back_panel(img, tint)
    pattern = ImageDraw.Draw(panel)
    line = shade(tint, 1.28)
    step = w / 6
    n = int((w + h) / step) + 2
    for i in range(-n, n + 1):
        x = i * step
        pattern.line([(x, 0), (x + h, h)], fill=line, width=stroke)
        pattern.line([(x, 0), (x - h, h)], fill=line, width=stroke)
    cx, cy = w / 2, h / 2
    ew, eh = w * 0.22, w * 0.3
    pattern.polygon([(cx, cy - eh), (cx + ew, cy), (cx, cy + eh), (cx - ew, cy)], fill=shade(tint, 1.75))
    pattern.polygon(
        [(cx, cy - eh * 0.6), (cx + ew * 0.6, cy), (cx, cy + eh * 0.6), (cx - ew * 0.6, cy)],
        fill=shade(tint, 0.8),
    )
    return finish_back(img, draw, inner, panel, tint, stroke)


def back_panel(img: Image.Image, tint: RGB) -> tuple[Box, Image.Image, int]:
    """The inner panel of a back (inside a white border), a layer in `tint` to draw its pattern on."""
    w, h = img.size
    border = round(w * 0.07)
    inner = (border, border, w - 1 - border, h - 1 - border)
    return inner, Image.new("RGBA", (w, h), (*tint, 255)), max(SS, round(w * 0.012))


def finish_back(
    img: Image.Image, draw: ImageDraw.ImageDraw, inner: Box, panel: Image.Image, tint: RGB, stroke: int
) -> Image.Image:
    """The patterned panel clipped to its rounded box and framed; the back, reduced."""
    radius = max(SS, card_radius(img.width // SS) * SS - round(img.width * 0.035))
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius, fill=255)
    img.paste(panel, (0, 0), mask)
    draw.rounded_rectangle(inner, radius=radius, outline=shade(tint, 0.7), width=stroke)
    return img.reduce(SS)


# ----- shadows and outlines ----------------------------------------------------------------------


@lru_cache(maxsize=16)
def card_shadow(width: int, height: int, blur: int, opacity: int = 110) -> Image.Image:
    """A soft drop shadow sprite, `blur` px larger than the card on every side."""
    w, h = width + 2 * blur, height + 2 * blur
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (blur, blur, blur + width - 1, blur + height - 1), radius=card_radius(width), fill=opacity
    )
    mask = mask.filter(ImageFilter.GaussianBlur(blur / 2))
    shadow = Image.new("RGBA", (w, h), (0, 0, 0, 255))
    shadow.putalpha(mask)
    return shadow


@lru_cache(maxsize=32)
def glow_outline(width: int, height: int, colour: RGB, spread: int) -> Image.Image:
    """A glowing outline around a card: a soft halo `spread` px wide and a crisp ring on the edge."""
    w, h = width + 2 * spread, height + 2 * spread
    radius = card_radius(width)
    halo = Image.new("L", (w, h), 0)
    ImageDraw.Draw(halo).rounded_rectangle(
        (spread * 0.4, spread * 0.4, w - 1 - spread * 0.4, h - 1 - spread * 0.4),
        radius=radius + spread // 2,
        outline=255,
        width=max(2, spread // 2),
    )
    halo = halo.filter(ImageFilter.GaussianBlur(spread / 3))
    big = Image.new("L", (w * SS, h * SS), 0)
    ring = max(2, round(width * 0.035)) * SS
    ImageDraw.Draw(big).rounded_rectangle(
        (spread * SS, spread * SS, (spread + width) * SS - 1, (spread + height) * SS - 1),
        radius=radius * SS,
        outline=255,
        width=ring,
    )
    alpha = Image.composite(Image.new("L", (w, h), 255), halo, big.reduce(SS))
    sprite = Image.new("RGBA", (w, h), (*colour, 255))
    sprite.putalpha(alpha)
    return sprite


def glow_spread(card_w: int) -> int:
    """How far a card's glowing outline reaches beyond its edge."""
    return max(4, round(card_w * 0.12))


@lru_cache(maxsize=32)
def ring_outline(width: int, height: int, colour: RGB, thickness: int) -> Image.Image:
    """A thin anti-aliased ring just inside a card's edge (a subtle mark, no halo)."""
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * SS - 1, height * SS - 1),
        radius=card_radius(width) * SS,
        outline=(*colour, 255),
        width=thickness * SS,
    )
    return big.reduce(SS)
