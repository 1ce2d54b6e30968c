"""Text on pictures: lines as cached sprites, fitting to a width, wrapping, numbers.

Drawing with the variable Noto Sans costs about a millisecond a line; titles, names, counts and
balances repeat in every picture, so each line is drawn once and pasted after.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import tn
from render.draw import RGB, paste
from render.fonts import font


@lru_cache(maxsize=2048)
def text_sprite(text: str, px: int, colour: RGB, bold: bool = True) -> Image.Image:
    """A line of text on a transparent strip, its middle on the strip's middle row. Shared: copy it."""
    face = font(px, bold=bold)
    pad = _pad(px)
    width, height = math.ceil(face.getlength(text)) + 2 * pad, math.ceil(px * 1.6)
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((pad, height / 2), text, font=face, fill=colour, anchor="lm")
    return img


def _pad(px: int) -> int:
    return max(2, px // 6)


def put_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    px: int,
    colour: RGB,
    anchor: str = "lm",
    bold: bool = True,
) -> int:
    """Paste a cached line; `anchor` is "lm", "mm" or "rm" as in ImageDraw. Returns the text's width."""
    sprite = text_sprite(text, px, colour, bold)
    pad = _pad(px)
    inner = sprite.width - 2 * pad
    shift = {"lm": 0.0, "mm": inner / 2, "rm": float(inner)}[anchor]
    paste(img, sprite, (round(xy[0] - shift - pad), round(xy[1] - sprite.height / 2)))
    return inner


def width_of(text: str, px: int, bold: bool = True) -> float:
    return font(px, bold=bold).getlength(text)


def fit(text: str, px: int, room: float, bold: bool = True) -> str:
    """Cut `text` with an ellipsis so that it fits into `room` pixels."""
    face = font(px, bold=bold)
    if face.getlength(text) <= room:
        return text
    while text and face.getlength(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


#: The fewest letters a name keeps when a line is cut to fit (`fit_names`).
MIN_NAME = 3


def cut_name(name: str, keep: int) -> str:
    """`name` cut to its first `keep` characters, with "…" if that cuts anything."""
    return name if keep >= len(name) else name[:keep].rstrip() + "…"


def cut_to_fit(names: Sequence[str], fits: Callable[[list[str]], bool]) -> list[str]:
    """`names`, the longest cut first (with "…", to `MIN_NAME` letters at the least) until `fits`
    says the line they make fits."""
    kept = [len(name) for name in names]
    shown = list(names)
    while not fits(shown) and kept and max(kept) > MIN_NAME:
        kept[kept.index(max(kept))] -= 1
        shown = [cut_name(name, k) for name, k in zip(names, kept, strict=True)]
    return shown


def fit_names(line: Callable[..., str], names: Sequence[str], px: int, room: float, bold: bool = True) -> str:
    """`line(*names)` fitted into `room` pixels by cutting its longest name (with "…") rather than
    its end, so that what it says of them stays whole; cut at the end only if that is not enough."""
    shown = cut_to_fit(names, lambda cut: width_of(line(*cut), px, bold) <= room)
    return fit(line(*shown), px, room, bold)


def shrink(text: str, px: int, room: float, bold: bool = True, smallest: int = 8) -> int:
    """The largest size up to `px` at which `text` fits into `room` pixels (never below `smallest`)."""
    while px > smallest and font(px, bold=bold).getlength(text) > room:
        px -= 1
    return px


def wrap(text: str, px: int, room: float, lines: int, bold: bool = False) -> list[str]:
    """Break `text` into at most `lines` lines of at most `room` pixels (the last one cut with "…"),
    at spaces only: a no-break space keeps its neighbours together."""
    face = font(px, bold=bold)
    out: list[str] = []
    words = [word for word in text.split(" ") if word]
    while words and len(out) < lines:
        line = words.pop(0)
        while words and face.getlength(f"{line} {words[0]}") <= room:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words:
        out[-1] = fit(f"{out[-1]} {' '.join(words)}", px, room, bold)
    return out


def money(amount: int) -> str:
    """Thousands split by a narrow no-break space, as Russian typography does: `12 500`."""
    return f"{amount:,}".replace(",", "\u202f")


def balance_text(balance: int, lang: str) -> str:
    """`На счёте: 12 345 монет`, in the words of the bot's captions."""
    return tn(lang, "Balance: {amount} coin", "Balance: {amount} coins", balance, amount=money(balance))
