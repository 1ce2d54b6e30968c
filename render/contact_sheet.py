"""All 78 Tarot cards and the Tarot back on one sheet, to look them over.

`python -m render.contact_sheet out.png [--lang en] [--width 120]` writes it: a row per suit (Ace
to King), the major arcana 0-XXI in two rows, the back at the end, each card's label below it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from PIL import Image

from core.cards import TAROT_RANKS, Card, TarotSuit, deck78, is_major, tarot_label
from render.cards import CARD_ASPECT
from render.deck import back, face
from render.draw import RGB, paste
from render.table import FELT_CENTRE, TEXT
from render.text import put_text

MAJORS_PER_ROW = 11


def rows_of_deck() -> list[list[Card | None]]:
    """The sheet's rows of card codes; None is the back."""
    cards = deck78()
    rows: list[list[Card | None]] = [[rank + suit for rank in TAROT_RANKS] for suit in TarotSuit]
    majors: list[Card | None] = [card for card in cards if is_major(card)]
    rows += [majors[i : i + MAJORS_PER_ROW] for i in range(0, len(majors), MAJORS_PER_ROW)]
    rows[-1].append(None)
    return rows


def contact_sheet(lang: str = "ru", card_width: int = 120, background: RGB = FELT_CENTRE) -> Image.Image:
    card_height = round(card_width * CARD_ASPECT)
    gap, label = card_width // 12, card_width // 5
    rows = rows_of_deck()
    columns = max(len(row) for row in rows)
    img = Image.new(
        "RGB",
        (gap + columns * (card_width + gap), gap + len(rows) * (card_height + label + gap)),
        background,
    )
    px = max(9, card_width // 9)
    for r, row in enumerate(rows):
        y = gap + r * (card_height + label + gap)
        for c, card in enumerate(row):
            x = gap + c * (card_width + gap)
            sprite = (
                back(card_width, card_height, "tarot")
                if card is None
                else face(card, card_width, card_height, lang, "tarot")
            )
            paste(img, sprite, (x, y))
            text = "" if card is None else tarot_label(card, lang)
            put_text(img, (x + card_width / 2, y + card_height + label / 2), text, px, TEXT, "mm")
    return img


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render.contact_sheet", description=__doc__)
    parser.add_argument("out", help="the PNG file to write")
    parser.add_argument("--lang", default="ru")
    parser.add_argument("--width", type=int, default=120, help="a card's width in px")
    args = parser.parse_args(argv)
    contact_sheet(args.lang, args.width).save(args.out, optimize=True)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
