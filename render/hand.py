"""A hand strip: a seat's cards in rows inside a box, grouped by suit, playable ones raised.

Cards keep their order (the engine sorts hands); a wider gap separates suits. The strip chooses
the number of rows (at most four) that gives the largest cards: within a row cards overlap as
much as the width needs, keeping their index corner visible; rows overlap the same way. Up to 39
cards (a Tarot hand of two players) fit a phone-sized strip.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image

from core.cards import Card
from render.cards import CARD_ASPECT, glow_outline
from render.deck import Deck, face, suit_of
from render.draw import RGB, paste

#: Of a card's width, the least that stays visible beside the next card (its rank and pip).
MIN_SHOWN_X = 0.28
#: Of a card's height, the least that stays visible above the next row.
MIN_SHOWN_Y = 0.5
#: How far a playable card is raised, of the card's height.
RISE = 0.12
DIM = 84
MAX_ROWS = 4


@dataclass(frozen=True)
class Spot:
    card: Card
    x: int
    y: int


@dataclass(frozen=True)
class HandLayout:
    card_w: int
    card_h: int
    rise: int
    spots: tuple[Spot, ...]


def layout_hand(
    cards: Sequence[Card], box: tuple[int, int, int, int], max_card_w: int, raised: bool = True
) -> HandLayout:
    """Where each card of the hand goes in `box` (left, top, right, bottom), the rise included."""
    left, top, right, bottom = box
    room_w, room_h = right - left, bottom - top
    best: tuple[int, list[list[Card]]] | None = None
    for rows in range(1, MAX_ROWS + 1):
        split = _rows(cards, rows)
        card_w = _largest(split, room_w, room_h, max_card_w, raised)
        if best is None or card_w > best[0]:
            best = (card_w, split)
        if len(split) < rows:
            break
    assert best is not None
    card_w, split = best
    card_h = round(card_w * CARD_ASPECT)
    rise = round(card_h * RISE) if raised else 0
    pitch_y = _pitch(card_h + round(card_w * 0.1), room_h - rise - card_h, len(split))
    block_h = rise + card_h + pitch_y * (len(split) - 1)
    y0 = top + (room_h - block_h) // 2 + rise
    spots: list[Spot] = []
    for r, row in enumerate(split):
        gaps = _groups(row) - 1
        group_gap = round(card_w * 0.15)
        pitch_x = _pitch(card_w + round(card_w * 0.08), room_w - card_w - gaps * group_gap, len(row))
        if pitch_x < card_w * 0.5:
            group_gap = round(card_w * 0.08)
            pitch_x = _pitch(card_w + round(card_w * 0.08), room_w - card_w - gaps * group_gap, len(row))
        row_w = card_w + pitch_x * (len(row) - 1) + gaps * group_gap
        x = left + (room_w - row_w) // 2
        for i, card in enumerate(row):
            if i and suit_of(card) != suit_of(row[i - 1]):
                x += group_gap
            spots.append(Spot(card, x, y0 + r * pitch_y))
            x += pitch_x
    return HandLayout(card_w, card_h, rise, tuple(spots))


def _rows(cards: Sequence[Card], rows: int) -> list[list[Card]]:
    """The cards in `rows` rows of nearly equal length, in order (empty rows dropped)."""
    per = -(-len(cards) // rows) if cards else 0
    return [list(cards[i : i + per]) for i in range(0, len(cards), per)] if per else []


def _groups(row: Sequence[Card]) -> int:
    return sum(1 for i, card in enumerate(row) if i == 0 or suit_of(card) != suit_of(row[i - 1]))


def _pitch(natural: int, room: float, count: int) -> int:
    return natural if count < 2 else min(natural, int(room // (count - 1)))


def _largest(split: list[list[Card]], room_w: int, room_h: int, max_card_w: int, raised: bool) -> int:
    """The widest card for which every row and the rows together keep the least visible parts."""
    rows = max(1, len(split))
    # Height: rise + card + (rows - 1) * shown part of a card's height.
    per_h = CARD_ASPECT * ((RISE if raised else 0) + 1 + MIN_SHOWN_Y * (rows - 1))
    width = min(max_card_w, int(room_h / per_h))
    for row in split:
        extra = 0.08 * (_groups(row) - 1)
        width = min(width, int(room_w / (1 + MIN_SHOWN_X * (len(row) - 1) + extra)))
    return max(8, width)


def draw_hand(
    img: Image.Image,
    box: tuple[int, int, int, int],
    cards: Sequence[Card],
    *,
    lang: str,
    deck: Deck = "french",
    playable: Collection[Card] = (),
    max_card_w: int = 136,
    glow: RGB = (255, 208, 72),
    trump: str | None = None,
) -> HandLayout:
    """The hand in `box`: with `playable` cards given, they are raised with a glow and the rest
    dimmed; with none, every card is shown plain. Cards of the suit `trump` carry the trump mark."""
    layout = layout_hand(cards, box, max_card_w, raised=bool(playable))
    w, h = layout.card_w, layout.card_h
    spread = max(4, round(w * 0.07))
    for spot in layout.spots:
        marked = trump is not None and suit_of(spot.card) == trump
        if not playable:
            paste(img, face(spot.card, w, h, lang, deck, marked), (spot.x, spot.y))
        elif spot.card in playable:
            top = spot.y - layout.rise
            paste(img, glow_outline(w, h, glow, spread), (spot.x - spread, top - spread))
            paste(img, face(spot.card, w, h, lang, deck, marked), (spot.x, top))
        else:
            paste(img, face(spot.card, w, h, lang, deck, marked, DIM), (spot.x, spot.y))
    return layout
