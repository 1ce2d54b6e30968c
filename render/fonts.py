"""Fonts for every picture: Noto Sans from the `fontpkg-noto-sans` package (no system fonts).

Noto Sans covers Latin and Cyrillic but has no suit symbols or emoji, so pips are drawn as
shapes (render/cards.py) and `printable` drops characters that would come out as tofu boxes.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from fontpkg.pil import truetype
from PIL import ImageFont

FAMILY = "Noto Sans"
#: A private-use code point: never in Noto Sans, so it renders as the .notdef (tofu) glyph.
_NOTDEF_PROBE = "\ue000"


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Noto Sans at `size` px; cached because loading a variable font costs milliseconds.

    The returned object is shared: do not change its variation axes.
    """
    loaded: ImageFont.FreeTypeFont = truetype(FAMILY, size, weight=700 if bold else 400)
    return loaded


@lru_cache(maxsize=8)
def _notdef_mask(size: int) -> tuple[tuple[int, int], bytes]:
    mask = font(size).getmask(_NOTDEF_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(char: str, size: int = 32) -> bool:
    """Whether Noto Sans draws `char` as itself, not as the .notdef box."""
    if char.isspace():
        return True
    mask = font(size).getmask(char)
    return (mask.size, bytes(mask)) != _notdef_mask(size)


def printable(text: str) -> str:
    """`text` without the characters the font lacks (emoji in player names, for instance) and
    without invisible formatting (a right-to-left override would draw «Bob» as «boB»)."""
    kept = "".join(
        char for char in text if unicodedata.category(char) not in ("Cc", "Cf") and has_glyph(char)
    )
    return " ".join(kept.split())
