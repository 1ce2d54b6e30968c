"""Telegram's length limits, counted as Telegram counts: in UTF-16 code units.

An emoji outside the Basic Multilingual Plane (most of them, in names too) takes two units, so a
caption of 1,000 characters with a few dozen emoji is already over the 1,024 a photo caption may
hold. Measuring in units is safe whether a limit counts units or characters.
"""

from __future__ import annotations

from typing import Final

#: A photo's caption.
MAX_CAPTION: Final = 1024
#: The text of a callback query's answer (a toast or an alert).
MAX_ANSWER: Final = 200
ELLIPSIS: Final = "…"


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def clipped(text: str, limit: int) -> str:
    """`text` if it fits in `limit` units, else its longest prefix that fits with "…" after it."""
    if utf16_len(text) <= limit:
        return text
    room, used, cut = limit - utf16_len(ELLIPSIS), 0, 0
    while used + utf16_len(text[cut]) <= room:  # the whole text does not fit: this stops inside it
        used += utf16_len(text[cut])
        cut += 1
    return text[:cut].rstrip() + ELLIPSIS
