"""Backgrounds: the felt of the card tables, the sea and the parchment, the machine's wood.

Smooth gradients between two colours: they cost few palette entries and few PNG bytes, and a
palette can hold their steps exactly (see `ramp` in render/encode.py). Not cached here: each is drawn
once into a background that its picture kind caches (a copy here would only double the memory).
"""

from __future__ import annotations

from PIL import Image

from render.draw import RGB


def felt(width: int, height: int, centre: RGB, edge: RGB, stretch: float = 1.25) -> Image.Image:
    """A radial gradient from `centre` to `edge`; `stretch` > 1 makes the corners reach the edge colour."""
    ramp = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    # radial_gradient is 0 in the centre and grows outwards.
    ramp = ramp.point(lambda v: min(255, round(v * stretch)))
    return blend(ramp, centre, edge)


def vertical(width: int, height: int, top: RGB, bottom: RGB) -> Image.Image:
    """A top-to-bottom gradient."""
    return blend(Image.linear_gradient("L").resize((width, height)), top, bottom)


def blend(ramp: Image.Image, low: RGB, high: RGB) -> Image.Image:
    """`low` where the greyscale `ramp` is 0, `high` where it is 255, mixed in between (RGB)."""
    return Image.composite(Image.new("RGB", ramp.size, high), Image.new("RGB", ramp.size, low), ramp)
