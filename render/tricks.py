"""The pictures of Games 4 and 5 (the Tarot trick games): the public table and a seat's panel.

On the shared table (render/table.py): 2 to 6 seats, each plate with its hand as backs, the tricks it
won and its points so far this hand, the dealer's chip. The centre holds the trick in progress with
a name tag on each card; between two tricks, the trick just won and who won it; during the dealer's
discard and the asks for a Tarot Trump, what is going on and the cards shown; between deals and at
the end of the match, the score sheet (render/score_sheet.py). The panel is the same table seen
from the seat, its hand in a strip below (render/hand.py): up to 39 cards wrapped in rows, grouped
by suit, the cards it may choose now raised; the dealer's marked cards lie in the centre.

The public picture reads only public fields of the view (never `hand`, `marks` or `discards`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image

from core.cards import Card, deck78, is_major
from core.engine import Seat
from core.games.tarot import CHOOSE, TarotView
from core.trickgame import DEAL, DISCARD, NEXT_HAND, OVER, PLAY, TrickView
from i18n import t, tn
from render.cards import glow_outline
from render.deck import face
from render.draw import INK, RGB, paste, pill
from render.encode import encode, to_palette
from render.hand import draw_hand, layout_hand
from render.score_sheet import score_sheet
from render.seats import SEAT_COLOURS, player_name, robots
from render.table import (
    GOLD,
    MUTED,
    TEXT,
    Chip,
    Geometry,
    SeatLook,
    background,
    draw_seats,
    draw_trick,
    laid,
    name_tag,
    plate,
    room_across,
)
from render.table import geometry as table_geometry
from render.table import palette as table_palette
from render.text import fit_names, put_text, shrink

DEALER: RGB = (128, 84, 176)
TRICKS: RGB = (36, 104, 186)
POINTS: RGB = (30, 140, 84)
ASKING: RGB = (226, 128, 24)
READY: RGB = (96, 108, 102)
CHIP_COLOURS: tuple[RGB, ...] = (DEALER, TRICKS, POINTS, ASKING, READY)

#: The panel's strip for the hand, in thousandths of the picture's size: room for four rows.
HAND_STRIP = 360
HAND_CARD_W = 120
#: Cards laid face up in the centre (the marks, the cards shown in an ask), of a table card's size.
SHOWN_SCALE = 0.8


def geometry(size: int, players: int, panel: bool) -> Geometry:
    """The public table is 4:3 landscape; the panel is square with the hand strip at the bottom."""
    return table_geometry(size, players, HAND_STRIP if panel else 0)


def hand_box(geo: Geometry) -> tuple[int, int, int, int]:
    """Where the panel's hand goes: below the title line of the strip."""
    return geo.px(16), geo.table + geo.px(58), geo.width - geo.px(16), geo.height - geo.px(10)


# ----- what the view says ------------------------------------------------------------------------


def title(view: TrickView, lang: str) -> str:
    return t(lang, "Mathers' Tarot") if isinstance(view, TarotView) else t(lang, "Minor Arcana")


def asking(view: TrickView) -> tuple[Seat | None, Seat | None]:
    """Game 4's turn to ask: (who may ask or is asking, whom they asked); (None, None) otherwise."""
    if not isinstance(view, TarotView):
        return None, None
    return view.asking, view.asked


def seat_chips(view: TrickView, seat: Seat, lang: str) -> tuple[Chip, ...]:
    """The public marks of a seat: the dealer, tricks won and points this hand, its part in an ask,
    its "next hand" press."""
    chips: list[Chip] = []
    if seat == view.dealer and view.phase not in (NEXT_HAND, OVER):
        chips.append((t(lang, "dealer"), DEALER))
    asker, asked = asking(view)
    if seat == asker:
        chips.append((t(lang, "asks"), ASKING))
    elif seat == asked:
        chips.append((t(lang, "asked"), ASKING))
    if view.phase == NEXT_HAND:
        if seat not in view.waiting:
            chips.append((t(lang, "ready"), READY))
        return tuple(chips)
    if view.phase == PLAY:
        chips.append((tn(lang, "{n} trick", "{n} tricks", view.won[seat]), TRICKS))
        chips.append((t(lang, "{n} pts", n=view.points[seat]), POINTS))
    return tuple(chips)


def seat_looks(view: TrickView, names: Sequence[str], lang: str, me: Seat | None) -> list[SeatLook]:
    turn = set() if view.outcome is not None else {seat for seat in view.to_move if seat >= 0}
    glow = set(view.waiting) if view.phase == NEXT_HAND else set()
    computers = robots(names)
    return [
        SeatLook(
            seat=seat,
            name=player_name(seat, names, lang),
            robot=seat in computers,
            cards=view.counts[seat],
            chips=seat_chips(view, seat, lang),
            turn=seat in turn and view.phase != NEXT_HAND,
            glow=seat in glow,
        )
        for seat in range(view.players)
        if seat != me
    ]


# ----- drawing -----------------------------------------------------------------------------------


def _draw_header(img: Image.Image, view: TrickView, geo: Geometry, lang: str) -> None:
    mid = geo.header / 2
    margin = geo.px(22)
    put_text(img, (margin, mid), title(view, lang), geo.px(24), GOLD)
    length = t(lang, "One hand") if view.target is None else t(lang, "Game to {goal}", goal=view.target)
    right = geo.width - margin
    right -= put_text(img, (right, mid), length, geo.px(20), MUTED, "rm") + geo.px(20)
    if view.phase != OVER:
        put_text(img, (right, mid), t(lang, "Hand {n}", n=view.hand_number), geo.px(20), TEXT, "rm")


#: The size of a line across the middle, and the smallest it is set in to fit between the plates.
CENTRE_PX, CENTRE_SMALLEST_PX = 24, 18


def centre_room(geo: Geometry, y: float) -> float:
    """How wide a line across the middle at height `y` may be: the room the plates at that height
    leave (three, five or six seats put plates beside the middle)."""
    px = geo.px(CENTRE_PX)
    half = geo.width / 2 - geo.px(20)
    for x, plate_y in geo.seats:
        if plate_y - px < y < plate_y + geo.plate[1] + px and (
            x > geo.width / 2 or x + geo.plate[0] < geo.width / 2
        ):
            edge = x if x > geo.width / 2 else x + geo.plate[0]
            half = min(half, abs(edge - geo.width / 2) - geo.px(12))
    return 2 * half


def _centre_line(
    img: Image.Image, geo: Geometry, line: Callable[..., str], *names: str, y: float | None = None
) -> None:
    """`line(*names)` across the middle (at `y`, else halfway down): in smaller type where it would
    not fit its room, and if still too long, with its longest name cut."""
    _, top, _, bottom = geo.centre
    middle = (top + bottom) / 2 if y is None else y
    room = centre_room(geo, middle)
    px = shrink(line(*names), geo.px(CENTRE_PX), room, smallest=geo.px(CENTRE_SMALLEST_PX))
    put_text(img, (geo.width / 2, middle), fit_names(line, names, px, room), px, TEXT, "mm")


def _draw_row(img: Image.Image, geo: Geometry, cards: Sequence[Card], lang: str, y: float) -> None:
    """Cards face up in a row across the centre, their middle at `y`, overlapping if need be."""
    if not cards:
        return
    left, _, right, _ = geo.centre
    cw, ch = round(geo.card[0] * SHOWN_SCALE), round(geo.card[1] * SHOWN_SCALE)
    pitch = min(cw + geo.px(8), (right - left - cw) / max(1, len(cards) - 1))
    x = (left + right) / 2 - (pitch * (len(cards) - 1) + cw) / 2
    for card in cards:
        sprite = laid(card, cw, ch, lang, "tarot", False, 0.0)
        margin = (sprite.width - cw) / 2
        paste(img, sprite, (x - margin, y - ch / 2 - margin))
        x += pitch


def above_and_below(geo: Geometry) -> tuple[float, float]:
    """Where a line of text goes over a row of cards in the centre, and where the row goes."""
    _, top, _, bottom = geo.centre
    # A little below the middle: the line then passes under the side plates of three or six seats.
    row = (top + bottom) / 2 + geo.px(36)
    return row - geo.card[1] * SHOWN_SCALE / 2 - geo.px(34), row


def _draw_discard(
    img: Image.Image, view: TrickView, geo: Geometry, names: Sequence[str], lang: str, me: Seat | None
) -> None:
    """The dealer's panel shows the marked cards; everyone else, that the dealer is discarding."""
    dealer = player_name(view.dealer, names, lang)
    if me == view.dealer:
        done = t(lang, "Marked to discard: {n} of {count}", n=len(view.marks), count=view.to_discard)
        text_y, row_y = above_and_below(geo)
        _centre_line(img, geo, lambda: done, y=text_y)
        _draw_row(img, geo, view.marks, lang, row_y)
        return
    _centre_line(
        img,
        geo,
        lambda name: tn(
            lang, "{name} discards {n} card", "{name} discards {n} cards", view.to_discard, name=name
        ),
        dealer,
    )


def _draw_ask(img: Image.Image, view: TarotView, geo: Geometry, names: Sequence[str], lang: str) -> None:
    """The turn to ask: who may ask, or the ask in progress with the two Tarot Trumps shown."""
    asker, asked = view.asking, view.asked
    assert asker is not None
    who = player_name(asker, names, lang)
    if view.ask_stage == CHOOSE or asked is None:
        _centre_line(img, geo, lambda name: t(lang, "{name} may ask for a Tarot Trump", name=name), who)
        return
    whom = player_name(asked, names, lang)
    text_y, row_y = above_and_below(geo)

    def asks(name: str, other: str) -> str:
        return t(lang, "{name} asks {other} for a Tarot Trump", name=name, other=other)

    _centre_line(img, geo, asks, who, whom, y=text_y)
    ask = view.asks[-1]
    _draw_row(img, geo, (*ask.shown, *((ask.given,) if ask.given else ())), lang, row_y)


def _draw_last(
    img: Image.Image, view: TrickView, geo: Geometry, names: Sequence[str], lang: str, me: Seat
) -> None:
    """Between tricks: the trick just won, and who won it."""
    last = view.last_trick
    if last is None:
        leader = player_name(view.leader, names, lang)
        _centre_line(img, geo, lambda name: t(lang, "{name} leads the first trick", name=name), leader)
        return
    cards = draw_trick(img, geo, last.plays, _names(view, names, lang), lang, bottom=me, deck="tarot")
    # In the middle of the trick, clear of its cards (a card lies at the top of an even table).
    left, top, right, bottom = geo.centre
    middle = ((left + right) / 2, (top + bottom) / 2)
    px = geo.px(18)
    winner = player_name(last.winner, names, lang)

    def takes(name: str) -> str:
        return t(lang, "{name} takes the trick", name=name)

    tag = pill(takes(winner), GOLD, px, INK)
    room = room_across(cards, middle, tag.height, (right - left) / 2) - geo.px(8)
    if tag.width > room:  # a long name: smaller type, then the name cut (the room less the pill's ends)
        size = shrink(takes(winner), px, room - px * 1.1, smallest=px * 3 // 4)
        tag = pill(fit_names(takes, [winner], size, room - size * 1.1), GOLD, size, INK)
    paste(img, tag, (middle[0] - tag.width / 2, middle[1] - tag.height / 2))


def _names(view: TrickView, names: Sequence[str], lang: str) -> list[str]:
    return [player_name(seat, names, lang) for seat in range(view.players)]


def _draw_sheet(img: Image.Image, view: TrickView, geo: Geometry, names: Sequence[str], lang: str) -> None:
    """Between deals and at the end, across the felt: the winner, every deal's points and the
    running totals, and what each seat made in the last hand (Game 4 scores only the excess)."""
    margin = geo.px(40)
    # Five or six columns of names take the felt's whole width.
    left = margin if view.players > 4 else margin * 3
    right = geo.width - left
    top, bottom = geo.header + geo.px(20), geo.table - geo.px(20)
    px = geo.px(26)
    headline = result_line(view, names, lang, px, right - left - px * 1.1)  # the pill's ends
    if headline is not None:
        tag = pill(headline, GOLD, px, INK)
        paste(img, tag, ((geo.width - tag.width) / 2, top))
        top += tag.height + geo.px(12)
    if view.rows and view.rows[-1].hand != view.rows[-1].scored:
        last = view.rows[-1]

        def made(*seats: str) -> str:
            points = ", ".join(f"{name} {points}" for name, points in zip(seats, last.hand, strict=True))
            return t(lang, "Hand {n}: {made}", n=last.number, made=points)

        line = fit_names(made, _names(view, names, lang), geo.px(20), right - left)
        put_text(img, (geo.width / 2, bottom - geo.px(12)), line, geo.px(20), TEXT, "mm")
        bottom -= geo.px(36)
    deals = [row.scored for row in view.rows]
    sheet = score_sheet(_names(view, names, lang), deals, lang=lang, width=right - left, goal=view.target)
    if sheet.height > bottom - top:
        scale = (bottom - top) / sheet.height
        sheet = sheet.resize((round(sheet.width * scale), bottom - top), Image.Resampling.LANCZOS)
    paste(img, sheet, ((geo.width - sheet.width) / 2, top + (bottom - top - sheet.height) / 2))


def result_line(view: TrickView, names: Sequence[str], lang: str, px: int, room: float) -> str | None:
    """The match's result, its winners' names cut (not the verb) to fit `room`; None before its end."""
    outcome = view.outcome
    if outcome is None:
        return None
    if outcome.draw:
        return t(lang, "A draw")

    def wins(*winners: str) -> str:
        return tn(lang, "{names} wins", "{names} win", len(winners), names=", ".join(winners))

    return fit_names(wins, [player_name(seat, names, lang) for seat in outcome.winners], px, room)


def _draw_centre(
    img: Image.Image, view: TrickView, geo: Geometry, names: Sequence[str], lang: str, me: Seat | None
) -> None:
    """The middle of the table; `me` is the panel's own seat (None: the public table)."""
    phase = view.phase
    bottom = me or 0
    if phase == DEAL:
        _centre_line(img, geo, lambda: t(lang, "Dealing…"))
    elif phase == DISCARD:
        _draw_discard(img, view, geo, names, lang, me)
    elif phase == PLAY:
        if view.trick:
            draw_trick(img, geo, view.trick, _names(view, names, lang), lang, bottom=bottom, deck="tarot")
        else:
            _draw_last(img, view, geo, names, lang, bottom)
    elif isinstance(view, TarotView) and view.asking is not None:
        _draw_ask(img, view, geo, names, lang)


def _draw_table(
    img: Image.Image, view: TrickView, geo: Geometry, names: Sequence[str], lang: str, me: Seat | None
) -> None:
    _draw_header(img, view, geo, lang)
    if view.phase in (NEXT_HAND, OVER):
        _draw_sheet(img, view, geo, names, lang)
        return
    draw_seats(img, geo, seat_looks(view, names, lang, me), bottom=me or 0, deck="tarot")
    _draw_centre(img, view, geo, names, lang, me)


def _strip_title(view: TrickView, lang: str) -> str:
    """Over the hand: its size; between deals, how many are ready for the next one."""
    assert view.hand is not None
    if view.phase == NEXT_HAND:
        ready = view.players - len(view.waiting)
        return t(lang, "Ready for the next hand: {n} of {count}", n=ready, count=view.players)
    if view.phase == OVER:
        return t(lang, "The match is over")
    return t(lang, "Your cards: {n}", n=len(view.hand))


def _draw_hand(img: Image.Image, view: TrickView, geo: Geometry, lang: str, playable: Sequence[Card]) -> None:
    assert view.seat is not None and view.hand is not None
    seat = view.seat
    title_y = geo.table + geo.px(30)
    x = geo.px(20)
    x += put_text(img, (x, title_y), _strip_title(view, lang), geo.px(22), TEXT) + geo.px(14)
    chips = list(seat_chips(view, seat, lang))
    if seat in view.to_move and view.outcome is None:
        chips.append((t(lang, "your move"), GOLD))
    for text, colour in chips:
        sprite = pill(text, colour, geo.px(16), INK if colour == GOLD else TEXT)
        paste(img, sprite, (x, round(title_y - sprite.height / 2)))
        x += sprite.width + geo.px(6)
    chosen = [card for card in playable if card not in view.marks]
    rows = hand_rows(view.hand, view.marks)
    boxes = row_boxes(geo, len(rows))
    # One card size for every row: the smallest of what each would get alone.
    width = min(
        [geo.px(HAND_CARD_W)]
        + [
            layout_hand(row, box, geo.px(HAND_CARD_W), bool(chosen)).card_w
            for row, box in zip(rows, boxes, strict=True)
        ]
    )
    for row, box in zip(rows, boxes, strict=True):
        draw_hand(img, box, row, lang=lang, deck="tarot", playable=chosen, max_card_w=width, glow=GOLD)


def hand_rows(hand: Sequence[Card], marks: Sequence[Card] = ()) -> list[list[Card]]:
    """The hand as the strip shows it, without the marked cards (they lie in the centre): the suits,
    then the trumps and the Fool in a row of their own, since a trump's number is printed at the
    top middle, which a tight overlap would hide. Each row may wrap again inside its box."""
    kept = [card for card in hand if card not in marks]
    rows = ([card for card in kept if not is_major(card)], [card for card in kept if is_major(card)])
    return [row for row in rows if row]


def row_boxes(geo: Geometry, rows: int) -> list[tuple[int, int, int, int]]:
    """The strip cut into `rows` boxes of equal height, top to bottom."""
    left, top, right, bottom = hand_box(geo)
    pitch = (bottom - top) / max(1, rows)
    return [(left, round(top + n * pitch), right, round(top + (n + 1) * pitch)) for n in range(rows)]


# ----- palette and the pictures ------------------------------------------------------------------


@lru_cache(maxsize=8)
def palette(size: int, panel: bool) -> Image.Image:
    """One palette for every picture of a kind and size: every card as it lies and in the hand,
    backs, plates, chips, tags and the felt's gradient."""
    geo = geometry(size, 2, panel)
    cw, ch = geo.card
    hw = geo.px(HAND_CARD_W) // 2
    hh = round(hw * 1.4)
    sprites: list[Image.Image] = []
    for card in deck78():
        sprites.append(laid(card, cw, ch, "ru", "tarot", False, 0.0))
        if panel:
            sprites.append(face(card, hw, hh, "ru", "tarot"))
    sprites.append(laid(None, geo.small[0], geo.small[1], "ru", "tarot", False, 0.0))
    sprites.append(
        plate(SeatLook(0, "Игрок", 25, (("сдаёт", DEALER), ("12 оч.", POINTS)), True, True), size, "tarot")
    )
    sprites += [name_tag("Игрок", seat, geo.px(15), cw * 1.5) for seat in range(len(SEAT_COLOURS))]
    sprites.append(score_sheet(("Игрок", "Игрок"), [(12, 0)], lang="ru", width=geo.px(500), goal=100))
    if panel:
        sprites.append(glow_outline(hw, hh, GOLD, max(4, round(hw * 0.07))))
    return table_palette(sprites, geo.width, (*CHIP_COLOURS, *SEAT_COLOURS))


def compose_table(
    view: TrickView, *, names: Sequence[str], lang: str = "ru", size: int = 1000
) -> Image.Image:
    """The public table in full colour (an RGB image of its own)."""
    geo = geometry(size, view.players, False)
    img = background(size).copy()
    _draw_table(img, view, geo, names, lang, None)
    return img


def render_trick_table(view: TrickView, *, names: Sequence[str], lang: str = "ru", size: int = 1000) -> bytes:
    """The public table as PNG bytes, `size` px wide (4:3). Pure: same arguments, same bytes.
    Only public fields are read: a hand in the view is ignored."""
    return encode(to_palette(compose_table(view, names=names, lang=lang, size=size), palette(size, False)))


def compose_panel(
    view: TrickView,
    *,
    names: Sequence[str],
    lang: str = "ru",
    size: int = 1000,
    playable: Sequence[Card] = (),
) -> Image.Image:
    """A seat's panel in full colour: the table seen from the seat, its hand in a strip below."""
    if view.seat is None or view.hand is None:
        raise ValueError("a panel needs a seat's own view, not the public one")
    geo = geometry(size, view.players, True)
    img = background(size, HAND_STRIP).copy()
    _draw_table(img, view, geo, names, lang, view.seat)
    _draw_hand(img, view, geo, lang, playable)
    return img


def render_trick_panel(
    view: TrickView,
    *,
    names: Sequence[str],
    lang: str = "ru",
    size: int = 1000,
    playable: Sequence[Card] = (),
) -> bytes:
    """A seat's private panel as PNG bytes, `size` px square. Pure: same arguments, same bytes.

    The cards in `playable` (the cards the seat may choose now: play, mark or give) are raised
    with a gold outline and the rest dimmed; with nothing to choose every card is shown plain."""
    img = compose_panel(view, names=names, lang=lang, size=size, playable=playable)
    return encode(to_palette(img, palette(size, True)))
