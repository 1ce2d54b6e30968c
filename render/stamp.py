"""A stopped game's last picture, stamped: a band across its top says so over the turn it still shows.

Every game draws whose turn it is at its top (a game stopped by a person did not end by its rules,
so its view still has someone to move); one band over any picture says that nobody moves any more,
without each game drawing a state its rules do not have.
"""

from __future__ import annotations

import io

from PIL import Image

from render.draw import INK, WHITE, paste
from render.encode import encode
from render.text import fit, put_text

#: The band's share of the picture's height, its least height, and how much of the picture shows through.
BAND_SHARE = 0.11
BAND_LEAST = 56
BAND_ALPHA = 235


def stamped(picture: bytes, text: str) -> bytes:
    """`picture` (PNG) with `text` on a dark band across its top."""
    img = Image.open(io.BytesIO(picture)).convert("RGB")
    height = max(BAND_LEAST, round(img.height * BAND_SHARE))
    paste(img, Image.new("RGBA", (img.width, height), (*INK, BAND_ALPHA)), (0, 0))
    px = height * 2 // 5
    put_text(img, (img.width / 2, height / 2), fit(text, px, img.width - px), px, WHITE, anchor="mm")
    return encode(img)
