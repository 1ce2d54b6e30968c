"""Dice: the six faces as ivory cubes with pips, drawn once per (face, size, colours) and shared."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.draw import INK, RGB, SS, shade

IVORY: RGB = (250, 246, 234)

#: Pip centres per face as fractions of the die's side, as dice are printed.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@lru_cache(maxsize=64)
def die(face: int, side: int, colour: RGB = IVORY, pips: RGB = INK, angle: float = 0.0) -> Image.Image:
    """A die showing `face` (1-6), `side` px wide, turned by `angle` degrees (as it fell)."""
    if face not in PIPS:
        raise ValueError(f"a die shows 1 to 6, not {face}")
    s = side * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = s * 0.18
    # A darker rim below and right reads as the cube's edge.
    draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=radius, fill=(*shade(colour, 0.72), 255))
    draw.rounded_rectangle((0, 0, s * 0.95, s * 0.95), radius=radius, fill=(*colour, 255))
    r = s * (0.1 if face > 1 else 0.13)
    for fx, fy in PIPS[face]:
        x, y = fx * s * 0.95, fy * s * 0.95
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(*(pips if face > 1 else (196, 32, 44)), 255))
    sprite = img.reduce(SS)
    return sprite.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True) if angle else sprite
