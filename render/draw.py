"""Drawing primitives every picture shares: colours, supersampled shapes, shadows, halos and labels.

ImageDraw's polygons and ellipses are not anti-aliased, so sprites are drawn at SS times their
size and reduced. Everything returned by a cached function here is shared: paste it, never draw on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render.fonts import font

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
Point = tuple[float, float]

#: Supersampling factor for sprites.
SS = 4

WHITE: RGB = (255, 255, 255)
INK: RGB = (24, 26, 32)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def shade(colour: RGB, factor: float) -> RGB:
    """Lighter (factor > 1, towards white) or darker (factor < 1, towards black) shade of a colour."""
    return mix(colour, WHITE, factor - 1) if factor >= 1 else mix((0, 0, 0), colour, factor)


def ink_on(colour: RGB) -> RGB:
    """Dark or white text, whichever reads on `colour`."""
    luma = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (20, 20, 24) if luma > 140 else WHITE


def paste(base: Image.Image, sprite: Image.Image, xy: Sequence[float]) -> None:
    """Paste an RGBA sprite onto an RGB or RGBA image through its own alpha."""
    base.paste(sprite, (round(xy[0]), round(xy[1])), sprite)


def canvas(width: int, height: int) -> Image.Image:
    """A transparent RGBA canvas of `width` x `height` px, SS times larger, to draw a sprite on."""
    return Image.new("RGBA", (max(1, round(width * SS)), max(1, round(height * SS))), (0, 0, 0, 0))


class Pen:
    """Draws in unit coordinates of a box: (0, 0) its top-left corner, (1, 1) its bottom-right.

    Emblems and pips are written once as shapes in a unit square and drawn at any size this way.
    """

    def __init__(self, draw: ImageDraw.ImageDraw, box: Box) -> None:
        self.draw = draw
        self.left, self.top = box[0], box[1]
        self.w, self.h = box[2] - box[0], box[3] - box[1]

    def at(self, x: float, y: float) -> Point:
        return self.left + x * self.w, self.top + y * self.h

    def px(self, length: float) -> int:
        """A line width of `length` box widths, at least one pixel."""
        return max(1, round(length * self.w))

    def polygon(
        self, points: Sequence[Point], fill: RGB, outline: RGB | None = None, width: float = 0
    ) -> None:
        shape = [self.at(x, y) for x, y in points]
        self.draw.polygon(shape, fill=fill, outline=outline, width=self.px(width) if outline else 0)

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float | None = None, fill: RGB | None = None,
        outline: RGB | None = None, width: float = 0,
    ) -> None:  # fmt: skip
        ry = rx if ry is None else ry
        box = (*self.at(cx - rx, cy - ry), *self.at(cx + rx, cy + ry))
        self.draw.ellipse(box, fill=fill, outline=outline, width=self.px(width) if outline else 0)

    def rect(
        self, x0: float, y0: float, x1: float, y1: float, fill: RGB | None = None, radius: float = 0,
        outline: RGB | None = None, width: float = 0,
    ) -> None:  # fmt: skip
        box = (*self.at(x0, y0), *self.at(x1, y1))
        self.draw.rounded_rectangle(
            box, radius=radius * self.w, fill=fill, outline=outline, width=self.px(width) if outline else 0
        )

    def line(self, points: Sequence[Point], fill: RGB, width: float) -> None:
        self.draw.line([self.at(x, y) for x, y in points], fill=fill, width=self.px(width), joint="curve")

    def arc(
        self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, fill: RGB, width: float
    ) -> None:
        box = (*self.at(cx - rx, cy - ry), *self.at(cx + rx, cy + ry))
        self.draw.arc(box, start, end, fill=fill, width=self.px(width))

    def text(self, x: float, y: float, text: str, size: float, fill: RGB, bold: bool = True) -> None:
        """`text` centred on (x, y), `size` box heights tall."""
        face = font(max(4, round(size * self.h)), bold=bold)
        self.draw.text(self.at(x, y), text, font=face, fill=fill, anchor="mm")


def star_points(cx: float, cy: float, radius: float, inner: float = 0.45, points: int = 5) -> list[Point]:
    """A star with `points` tips pointing up, the inner corners at `inner` of the radius."""
    corners = []
    for i in range(2 * points):
        r = radius if i % 2 == 0 else radius * inner
        angle = -math.pi / 2 + i * math.pi / points
        corners.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return corners


# ----- shadows, halos and dimming ----------------------------------------------------------------


def shadow_of(alpha: Image.Image, blur: int, opacity: int = 100) -> Image.Image:
    """A soft black shadow of a sprite's shape, `blur` px larger on every side."""
    mask = Image.new("L", (alpha.width + 2 * blur, alpha.height + 2 * blur), 0)
    mask.paste(alpha.point(lambda v: v * opacity // 255), (blur, blur))
    shadow = Image.new("RGBA", mask.size, (0, 0, 0, 255))
    shadow.putalpha(mask.filter(ImageFilter.GaussianBlur(blur / 2)))
    return shadow


def with_shadow(sprite: Image.Image, blur: int) -> Image.Image:
    """The sprite over its own shadow, dropped a little down and right; `blur` px of margin."""
    out = Image.new("RGBA", (sprite.width + 2 * blur, sprite.height + 2 * blur), (0, 0, 0, 0))
    shadow = shadow_of(sprite.getchannel("A"), blur)
    drop = max(1, blur // 2)
    out.alpha_composite(shadow.crop((0, 0, out.width - drop, out.height - drop)), (drop, drop))
    out.alpha_composite(sprite, (blur, blur))
    return out


@lru_cache(maxsize=64)
def halo(width: int, height: int, colour: RGB, spread: int, radius: int, strength: int = 220) -> Image.Image:
    """A soft glow `spread` px around a `width` x `height` rounded box (the box itself included)."""
    full = (width + 2 * spread, height + 2 * spread)
    mask = Image.new("L", full, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (spread // 2, spread // 2, full[0] - spread // 2, full[1] - spread // 2), radius=radius, fill=strength
    )
    sprite = Image.new("RGBA", full, (*colour, 255))
    sprite.putalpha(mask.filter(ImageFilter.GaussianBlur(spread / 2.5)))
    return sprite


def darken(sprite: Image.Image, amount: int) -> Image.Image:
    """A copy of `sprite` darkened by `amount` (0-255), its transparent parts kept transparent."""
    out = sprite.copy()
    out.paste((0, 0, 0), (0, 0, *sprite.size), Image.new("L", sprite.size, amount))
    out.putalpha(sprite.getchannel("A"))
    return out


# ----- labels ------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def pill(text: str, fill: RGB, px: int, ink: RGB | None = None, alpha: int = 255) -> Image.Image:
    """A rounded label: a role chip, a cell code, a name tag, a count. At least as wide as it is high."""
    face = font(px * SS, bold=True)
    h = math.ceil(px * 1.45) * SS
    w = max(h, math.ceil(face.getlength(text) + px * 1.1 * SS))
    w += (-w) % SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=(*fill, alpha))
    draw.text((w / 2, h / 2), text, font=face, fill=(*(ink or ink_on(fill)), 255), anchor="mm")
    return big.reduce(SS)


@lru_cache(maxsize=32)
def panel(
    width: int, height: int, fill: RGB, outline: RGB, line: int, radius: int, alpha: int = 255
) -> Image.Image:
    """A rounded panel with a rim: banners, seat plates, score sheets."""
    big = canvas(width, height)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1),
        radius=radius * SS,
        fill=(*fill, alpha),
        outline=(*outline, 255),
        width=max(1, line) * SS,
    )
    return big.reduce(SS)
