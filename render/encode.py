"""Palettes and encoding: every picture is mapped onto a palette built once per look, then encoded once.

Why palette PNGs: crisp pips and text at about a quarter of the size of an equally sharp JPEG.
Flat cards and felt need few colours; JPEG spends its bytes on the many sharp card edges (q85 4:4:4
was ~290 KB for a mid-game grid, q75 4:2:0 still ~170 KB with smeared red pips). The octree palette
is adaptive and deterministic; no dithering, which would add noise and bytes.

Why a fixed palette per look: mapping onto it costs ~2 ms against ~10-20 ms for a fresh octree,
and the frames of one message (edits, a reveal, a GIF) never shift colours.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from render.draw import RGB, mix, paste

#: zlib level 4 is the knee of size vs time for a turn: a mid-game grid is ~76 KB in ~8 ms
#: (level 3: ~78 KB but a quarter of mid-game fields go over the budget; level 6: ~68 KB in ~16 ms).
PNG_LEVEL = 4
#: The rare picture that level 4 leaves over the budget is encoded again at level 6.
PNG_BUDGET = 80 * 1024
PNG_LEVEL_OVER_BUDGET = 6


def png(img: Image.Image) -> bytes:
    """A palette ("P") image as PNG bytes, as small as the budget asks."""
    data = _png_at(img, PNG_LEVEL)
    return data if len(data) <= PNG_BUDGET else _png_at(img, PNG_LEVEL_OVER_BUDGET)


def _png_at(img: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=level)
    return out.getvalue()


def encode(img: Image.Image, palette: Image.Image | None = None, colours: int = 96) -> bytes:
    """Any picture as an 8-bit palette PNG: mapped onto `palette`, or given an octree of its own."""
    if img.mode != "P":
        img = to_palette(img, palette) if palette is not None else octree(img, colours)
    return png(img)


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Nearest palette colour per pixel: no dithering, so a pixel never depends on its neighbours."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def octree(img: Image.Image, colours: int) -> Image.Image:
    return img.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def build_palette(
    swatch: Image.Image,
    colours: int,
    ramps: Sequence[tuple[RGB, RGB, int]] = (),
    flat: Sequence[RGB] = (),
) -> Image.Image:
    """A palette of at most 256 entries: evenly spaced steps of each ramp (a felt's gradient shows no
    rings then), the flat colours exactly (small marks and text that an octree would starve), and an
    octree of `colours` entries over the swatch of everything a picture of the look can show."""
    entries = [step for low, high, n in ramps for i in range(n) for step in mix(low, high, i / (n - 1))]
    entries += list(octree(swatch, colours).getpalette() or [])[: 3 * colours]
    entries += [channel for colour in flat for channel in colour]
    if len(entries) > 3 * 256:
        raise ValueError(f"a palette holds 256 colours, not {len(entries) // 3}")
    # Unused entries repeat the last colour: harmless for nearest-colour mapping.
    entries += entries[-3:] * (256 - len(entries) // 3)
    out = Image.new("P", (1, 1))
    out.putpalette(entries)
    return out


def sheet(sprites: Sequence[Image.Image], width: int, background: RGB) -> Image.Image:
    """The sprites laid out in rows on one RGB image: the swatch a palette is built from."""
    placed: list[tuple[Image.Image, int, int]] = []
    x, y, row = 0, 0, 0
    for sprite in sprites:
        if x + sprite.width > width and x:
            x, y, row = 0, y + row, 0
        placed.append((sprite, x, y))
        x += sprite.width
        row = max(row, sprite.height)
    img = Image.new("RGB", (width, max(1, y + row)), background)
    for sprite, sx, sy in placed:
        if sprite.mode == "RGBA":
            paste(img, sprite, (sx, sy))
        else:
            img.paste(sprite, (sx, sy))
    return img


def gif(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """Palette frames as a GIF that plays once (Telegram loops it anyway); Pillow writes each frame's
    changed box only, so a still background costs its bytes once."""
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=list(frames[1:]),
        duration=list(durations),
        optimize=False,
        disposal=1,
    )
    return out.getvalue()
