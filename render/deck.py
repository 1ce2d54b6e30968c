"""A card of either deck by its code: faces, backs and suit groups for the board, hands and tables.

French and Tarot codes overlap ("AS" is the ace of spades or of swords), so a picture names its deck.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from core.cards import Card, is_major
from render.cards import BACK_RED, card_back, card_face
from render.draw import RGB, SS, WHITE, darken, mix, star_points
from render.tarot import BACK_INDIGO, tarot_back, tarot_face

Deck = Literal["french", "tarot"]

#: The group of the major arcana in a Tarot hand (the trumps).
TRUMPS = "T"


GOLD: RGB = (255, 208, 72)


@lru_cache(maxsize=1024)
def face(
    card: Card, width: int, height: int, lang: str, deck: Deck = "french", trump: bool = False, dim: int = 0
) -> Image.Image:
    """A card's face; a trump carries a gold star under its index, and `dim` darkens the whole card."""
    shown = tarot_face(card, width, height, lang) if deck == "tarot" else card_face(card, width, height, lang)
    if trump:
        shown = shown.copy()
        mark = trump_mark(width)
        shown.alpha_composite(mark, (round(width * 0.15 - mark.width / 2), round(height * 0.36)))
    return darken(shown, dim) if dim else shown


@lru_cache(maxsize=16)
def trump_mark(card_w: int) -> Image.Image:
    """A gold disc with a star: marks a trump in the free corner column under its index."""
    side = max(8, round(card_w * 0.2)) * SS
    big = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.ellipse((0, 0, side - 1, side - 1), fill=(*mix(GOLD, (24, 26, 32), 0.35), 255))
    draw.ellipse((side * 0.08, side * 0.08, side * 0.92, side * 0.92), fill=(*GOLD, 255))
    draw.polygon(star_points(side / 2, side * 0.52, side * 0.34, 0.41), fill=WHITE)
    return big.reduce(SS)


def back(width: int, height: int, deck: Deck = "french", tint: RGB | None = None) -> Image.Image:
    if deck == "tarot":
        return tarot_back(width, height, tint or BACK_INDIGO)
    return card_back(width, height, tint or BACK_RED)


def suit_of(card: Card) -> str:
    """The suit a hand groups a card under: its suit letter, or TRUMPS for a major arcanum."""
    return TRUMPS if is_major(card) else card[-1]
