"""Card sprites of the 36-card French deck: faces, backs, pips and shadows.

Everything is drawn once per (card, size) at SS times the size and reduced, which gives smooth
anti-aliased shapes (ImageDraw polygons are not anti-aliased). The results are cached and shared:
callers paste them and must never draw on them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.cards import Card, Suit, parse, rank_label
from render.fonts import font

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]

#: Supersampling factor for sprites.
SS = 4

RED: RGB = (200, 28, 44)
BLACK: RGB = (28, 30, 36)
PAPER: RGB = (252, 250, 244)
EDGE: RGB = (190, 184, 170)
BACK_RED: RGB = (140, 28, 44)
BACK_BLUE: RGB = (28, 62, 120)


def suit_colour(suit: Suit) -> RGB:
    return RED if suit.red else BLACK


def card_radius(width: int) -> int:
    """Corner radius shared by faces, backs, shadows and highlight outlines so they line up."""
    return max(3, round(width * 0.09))


# ----- pips --------------------------------------------------------------------------------------


def _heart_points(box: Box, steps: int = 72) -> list[tuple[float, float]]:
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
    """Draw one suit symbol as shapes filling `box` (Noto Sans has no suit glyphs).

    The single place that knows what a pip looks like; every game's sprites call it.
    """
    suit = Suit(suit)
    fill = colour if colour is not None else suit_colour(suit)
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    cx = (left + right) / 2
    if suit is Suit.HEARTS:
        draw.polygon(_heart_points(box), fill=fill)
    elif suit is Suit.DIAMONDS:
        # Slightly concave sides look like a printed diamond rather than a rotated square.
        inset = w * 0.06
        mid_y = top + h / 2
        points = [(cx, top), (cx + w * 0.22, mid_y - h * 0.22), (right - inset, mid_y)]
        points += [(cx + w * 0.22, mid_y + h * 0.22), (cx, bottom), (cx - w * 0.22, mid_y + h * 0.22)]
        points += [(left + inset, mid_y), (cx - w * 0.22, mid_y - h * 0.22)]
        draw.polygon(points, fill=fill)
    elif suit is Suit.SPADES:
        body = [(x, top + bottom - y) for x, y in _heart_points((left, top, right, top + h * 0.78))]
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
    """A single anti-aliased pip on a transparent background (for legends and captions)."""
    width = max(1, round(height * 0.9))
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    draw_pip(ImageDraw.Draw(big), suit, (0, 0, width * SS, height * SS), colour)
    return big.reduce(SS)


# ----- faces -------------------------------------------------------------------------------------

#: Pip centres for 6-10 as (x, y) fractions of the pattern box; pips below the middle are turned over.
_PATTERNS: dict[str, tuple[tuple[float, float], ...]] = {
    "6": ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    "7": ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    "8": ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    "9": ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)),
    "10": (
        (0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3),
        (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1),
    ),
}  # fmt: skip


def _draw_index(draw: ImageDraw.ImageDraw, rank: str, suit: Suit, w: int, h: int) -> None:
    """Rank and a small pip in the top-left corner (the bottom-right one is this, turned over)."""
    colour = suit_colour(suit)
    size = round(w * 0.25)
    face = font(size, bold=True)
    cx = w * 0.15
    # "10" is wide: squeeze it a little so it stays inside the corner column.
    text_w = face.getlength(rank)
    if text_w > w * 0.26:
        face = font(round(size * w * 0.26 / text_w), bold=True)
    top = h * 0.035
    draw.text((cx, top), rank, font=face, fill=colour, anchor="mt")
    pip = w * 0.13
    pip_top = top + size * 1.05
    draw_pip(draw, suit, (cx - pip / 2, pip_top, cx + pip / 2, pip_top + pip * 1.05), colour)


@lru_cache(maxsize=512)
def card_face(card: Card, width: int, height: int, lang: str = "en") -> Image.Image:
    """The face of a French card as an RGBA sprite with rounded, anti-aliased corners.

    `lang="ru"` prints the Russian court letters (В, Д, К, Т) as on Russian decks.
    """
    rank, suit = parse(card)
    w, h = width * SS, height * SS
    radius = card_radius(width) * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=PAPER, outline=EDGE, width=SS)
    colour = suit_colour(suit)
    shown = rank_label(rank, lang)

    # Both corner indices: draw one on a transparent layer, then rotate it for the other corner.
    corner = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _draw_index(ImageDraw.Draw(corner), shown, suit, w, h)
    img.alpha_composite(corner)
    img.alpha_composite(corner.rotate(180))

    # The centre: between the index columns.
    left, right = w * 0.3, w * 0.7
    top, bottom = h * 0.08, h * 0.92
    if rank in _PATTERNS:
        pip_w = w * (0.16 if rank in ("9", "10") else 0.19)
        pip_h = pip_w * 1.08
        cols = (left + pip_w / 2, right - pip_w / 2)
        rows = (top + pip_h / 2, bottom - pip_h / 2)
        layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        flipped = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        for fx, fy in _PATTERNS[rank]:
            x = cols[0] + fx * (cols[1] - cols[0])
            y = rows[0] + fy * (rows[1] - rows[0])
            if fy > 0.5:  # printed upside down, as on a real card: draw at the mirrored spot and rotate
                target, x, y = flipped, w - x, h - y
            else:
                target = layer
            draw_pip(
                ImageDraw.Draw(target), suit, (x - pip_w / 2, y - pip_h / 2, x + pip_w / 2, y + pip_h / 2)
            )
        img.alpha_composite(layer)
        img.alpha_composite(flipped.rotate(180))
    elif rank == "A":
        pip_w = w * 0.46
        cy = h / 2
        draw_pip(draw, suit, (w / 2 - pip_w / 2, cy - pip_w * 0.54, w / 2 + pip_w / 2, cy + pip_w * 0.54))
    else:
        # Court cards: a framed panel with a big letter and a pip.
        frame = (w * 0.27, h * 0.17, w * 0.73, h * 0.83)
        tint = (252, 236, 236) if suit.red else (234, 238, 246)
        draw.rounded_rectangle(frame, radius=w * 0.05, fill=tint, outline=colour, width=max(SS, w // 90))
        letter = font(round(w * 0.34), bold=True)
        # Anchored on the baseline so a descending "J" never runs into the pip below.
        draw.text((w / 2, h * 0.5), shown, font=letter, fill=colour, anchor="ms")
        pip_w = w * 0.2
        py = h * 0.665
        draw_pip(draw, suit, (w / 2 - pip_w / 2, py - pip_w * 0.54, w / 2 + pip_w / 2, py + pip_w * 0.54))

    return img.reduce(SS)


# ----- backs -------------------------------------------------------------------------------------


def _shade(colour: RGB, factor: float) -> RGB:
    """Lighter (factor > 1, towards white) or darker (factor < 1) shade of a colour."""
    if factor >= 1:
        t = factor - 1
        return (
            round(colour[0] + (255 - colour[0]) * t),
            round(colour[1] + (255 - colour[1]) * t),
            round(colour[2] + (255 - colour[2]) * t),
        )
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


@lru_cache(maxsize=64)
def card_back(width: int, height: int, tint: RGB = BACK_RED) -> Image.Image:
    """The back of a card: a white border around a diamond lattice in `tint`, an emblem in the middle."""
    w, h = width * SS, height * SS
    radius = card_radius(width) * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=PAPER, outline=EDGE, width=SS)
    border = round(w * 0.07)
    inner = (border, border, w - 1 - border, h - 1 - border)
    inner_radius = max(SS, radius - border // 2)

    # The lattice is drawn on its own layer and clipped by the inner rounded panel.
    panel = Image.new("RGBA", (w, h), (*tint, 255))
    pattern = ImageDraw.Draw(panel)
    line = _shade(tint, 1.28)
    step = w / 6
    stroke = max(SS, round(w * 0.012))
    n = int((w + h) / step) + 2
    for i in range(-n, n + 1):
        x = i * step
        pattern.line([(x, 0), (x + h, h)], fill=line, width=stroke)
        pattern.line([(x, 0), (x - h, h)], fill=line, width=stroke)
    # Emblem: a light diamond with a darker one inside.
    cx, cy = w / 2, h / 2
    ew, eh = w * 0.22, w * 0.3
    pattern.polygon([(cx, cy - eh), (cx + ew, cy), (cx, cy + eh), (cx - ew, cy)], fill=_shade(tint, 1.75))
    pattern.polygon(
        [(cx, cy - eh * 0.6), (cx + ew * 0.6, cy), (cx, cy + eh * 0.6), (cx - ew * 0.6, cy)],
        fill=_shade(tint, 0.8),
    )
    panel_mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(panel_mask).rounded_rectangle(inner, radius=inner_radius, fill=255)
    img.paste(panel, (0, 0), panel_mask)
    draw.rounded_rectangle(inner, radius=inner_radius, outline=_shade(tint, 0.7), width=stroke)
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


def paste(base: Image.Image, sprite: Image.Image, xy: Sequence[int]) -> None:
    """Paste an RGBA sprite onto an RGB or RGBA image through its own alpha."""
    base.paste(sprite, (int(xy[0]), int(xy[1])), sprite)
