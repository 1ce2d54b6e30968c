"""A score sheet: a row per deal with each player's points and running total, names as columns.

For the games scored over several deals (the Tarot trick games). The last row is the total, the
leaders' totals in gold; a long match keeps its first deal and its latest ones, with "…" between.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import t
from render.draw import INK, RGB, mix, panel, paste
from render.seats import SeatMark, player_name, robots, seat_token
from render.text import fit, put_text, shrink, width_of

PAPER: RGB = (250, 246, 232)
RULE: RGB = (214, 204, 180)
MUTED: RGB = (132, 124, 110)
LEAD: RGB = (184, 128, 0)


def score_sheet(
    names: Sequence[str],
    deals: Sequence[Sequence[int]],
    *,
    lang: str,
    width: int,
    goal: int | None = None,
    rows: int = 8,
) -> Image.Image:
    """The sheet as an RGBA sprite `width` px wide; `deals` holds each deal's points per seat.

    At most `rows` deal rows are shown. With a `goal`, the title says what the game is played to.
    """
    seats = len(names)
    totals = [list(itertools.accumulate(deal[seat] for deal in deals)) for seat in range(seats)]
    shown = list(range(len(deals)))
    if len(shown) > rows:
        shown = [0, -1, *shown[len(shown) - rows + 2 :]]  # -1 stands for the "…" row
    px = max(10, round(width * 0.032))
    row_h = round(px * 1.9)
    deal_word, total_word = t(lang, "Deal"), t(lang, "Total")
    first_w = round(max(width * 0.12, width_of(deal_word, px) + px, width_of(total_word, px) + px))
    col_w = (width - first_w) / max(1, seats)
    height = row_h * (len(shown) + 2 + (goal is not None)) + px
    img = panel(width, height, PAPER, RULE, max(1, px // 8), px).copy()
    draw = ImageDraw.Draw(img)
    y = px // 2
    if goal is not None:
        put_text(img, (width / 2, y + row_h / 2), t(lang, "Game to {goal}", goal=goal), px, MUTED, "mm")
        y += row_h
    put_text(img, (first_w / 2, y + row_h / 2), deal_word, px, MUTED, "mm", bold=False)
    computers = robots(names)
    for seat in range(seats):
        mark = SeatMark(seat, seat in computers)
        _header_cell(img, mark, player_name(seat, names, lang), first_w + seat * col_w, y, col_w, row_h, px)
    y += row_h
    draw.line((px, y, width - px, y), fill=RULE, width=max(1, px // 10))
    for deal in shown:
        mid = y + row_h / 2
        if deal < 0:
            put_text(img, (first_w / 2, mid), "…", px, MUTED, "mm")
        else:
            put_text(img, (first_w / 2, mid), str(deal + 1), px, MUTED, "mm", bold=False)
            for seat in range(seats):
                right = first_w + (seat + 1) * col_w - px * 0.6
                points = deals[deal][seat]
                put_text(img, (right, mid), str(totals[seat][deal]), px, INK, "rm")
                put_text(
                    img, (right - col_w * 0.45, mid), f"{points:+d}", round(px * 0.8), MUTED, "rm", bold=False
                )
        y += row_h
    draw.line((px, y, width - px, y), fill=RULE, width=max(1, px // 10))
    final = [seat_totals[-1] if seat_totals else 0 for seat_totals in totals]
    best = max(final, default=0)
    put_text(img, (first_w / 2, y + row_h / 2), total_word, px, INK, "mm")
    for seat, total in enumerate(final):
        colour = LEAD if deals and total == best else INK
        put_text(
            img, (first_w + (seat + 0.5) * col_w, y + row_h / 2), str(total), round(px * 1.15), colour, "mm"
        )
    return img


def _header_cell(
    img: Image.Image, mark: SeatMark, name: str, left: float, top: float, width: float, height: int, px: int
) -> None:
    """A column's head: the seat's token and name."""
    disc = seat_token(mark.seat, round(px * 1.1), robot=mark.robot)
    room = width - disc.width - px * 0.8
    size = shrink(name, px, room, smallest=px * 3 // 4)
    paste(img, disc, (left + px * 0.3, top + (height - disc.height) / 2))
    put_text(
        img,
        (left + px * 0.5 + disc.width, top + height / 2),
        fit(name, size, room),
        size,
        mix(INK, MUTED, 0.2),
    )
