"""The pictures of Games 6 and 7 (Durak): the public table for a group chat and a seat's private panel.

On the shared table (render/table.py): four seats, the bout's attack/defence pairs in the centre
(the last cards played tagged with who played them), the talon with the trump lying across under
it in one corner and the discard pile (бито) in the other. The panel is the same table seen from
the seat, with that seat's hand in a strip below (render/hand.py) instead of its plate.

The public picture reads only public fields of the view (never `hand`), so it cannot leak a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from core.cards import Card, Suit, deck36
from core.engine import Seat
from core.games.durak import DurakView, sort_hand
from i18n import N_, t
from render.cards import glow_outline, ring_outline
from render.deck import face
from render.draw import INK, RGB, mix, paste, pill
from render.encode import encode, to_palette
from render.hand import draw_hand
from render.pips import pip_sprite
from render.seats import SEAT_COLOURS, player_name, robots, seat_colour
from render.table import (
    FELT_CENTRE,
    GOLD,
    MUTED,
    TEXT,
    Chip,
    Geometry,
    SeatLook,
    background,
    draw_banner,
    draw_seats,
    laid,
    name_tag,
    plate,
)
from render.table import geometry as table_geometry
from render.table import palette as table_palette
from render.text import put_text

ATTACKS: RGB = (226, 128, 24)
DEFENDS: RGB = (36, 104, 186)
TAKES: RGB = (196, 52, 44)
THROWS: RGB = (128, 84, 176)
PASSED: RGB = (96, 108, 102)
PLACE: RGB = (30, 140, 84)
FOOL: RGB = (176, 24, 36)
FOOL_TEXT: RGB = (255, 120, 110)
CHIP_COLOURS: tuple[RGB, ...] = (ATTACKS, DEFENDS, TAKES, THROWS, PASSED, PLACE, FOOL)

SEATS = 4
#: The panel's strip for the hand, in thousandths of the picture's size.
HAND_STRIP = 300
HAND_CARD_W = 136
#: How far (of a card's size) and at what angle a beating card lies across the attack card.
BEAT_SHIFT = (0.34, 0.24)
BEAT_ANGLE = -14.0
#: The tilt of the few backs drawn for the discard pile, and where they lie (of a card's width).
DISCARD_TILTS: tuple[tuple[float, float, float], ...] = (
    (-16.0, -0.10, 0.02),
    (9.0, 0.12, -0.04),
    (-4.0, 0.02, 0.06),
    (21.0, 0.16, 0.08),
    (-25.0, -0.06, -0.06),
)
#: A seat's chip once it is out, by the order it went out.
PLACES: tuple[str, ...] = (N_("1st out"), N_("2nd out"), N_("3rd out"), N_("4th out"), N_("5th out"))


def place_text(place: int, lang: str) -> str:
    """`1-е место` / `1st out` for the seat that went out `place`-th."""
    return t(lang, PLACES[place - 1])


def geometry(size: int, panel: bool) -> Geometry:
    """The public table is 4:3 landscape; the panel is square with the hand strip at the bottom."""
    return table_geometry(size, SEATS, HAND_STRIP if panel else 0)


def hand_box(geo: Geometry) -> tuple[int, int, int, int]:
    """Where the panel's hand goes: below the title line of the strip."""
    return geo.px(24), geo.table + geo.px(56), geo.width - geo.px(24), geo.height - geo.px(16)


def pair_spots(count: int, geo: Geometry) -> list[tuple[int, int]]:
    """Top-left corners of the attack cards: one row up to three pairs, then a second row."""
    cw, ch = geo.card
    slot_w, slot_h = round(cw * 1.62), round(ch * 1.36)
    pitch_x, pitch_y = slot_w + geo.px(14), slot_h + geo.px(14)
    left, top, right, bottom = geo.centre
    rows = [min(count, 3), count - 3] if count > 3 else [count]
    block_h = len(rows) * pitch_y - geo.px(14)
    y0 = top + (bottom - top - block_h) // 2
    spots = []
    for r, n in enumerate(rows):
        row_w = n * pitch_x - geo.px(14)
        x0 = left + (right - left - row_w) // 2
        spots += [(x0 + i * pitch_x, y0 + r * pitch_y) for i in range(n)]
    return spots


# ----- what the view says ------------------------------------------------------------------------


def seat_chips(view: DurakView, seat: Seat, lang: str) -> tuple[Chip, ...]:
    """The public marks of a seat: its role in the bout, a pass, its place once out, the fool."""
    if seat == view.fool:
        return ((t(lang, "fool"), FOOL),)
    if seat in view.out:
        return ((place_text(view.out.index(seat) + 1, lang), PLACE),)
    if view.outcome is not None or view.attacker is None:
        return ()
    chips: list[Chip] = []
    if seat == view.defender:
        chips.append((t(lang, "takes"), TAKES) if view.taking else (t(lang, "defends"), DEFENDS))
    elif seat == view.attacker:
        chips.append((t(lang, "attacks"), ATTACKS))
    elif seat in view.to_move:
        chips.append((t(lang, "throws in"), THROWS))
    if seat in view.passes:
        chips.append((t(lang, "pass"), PASSED))
    return tuple(chips)


def seat_looks(
    view: DurakView, names: Sequence[str], lang: str, highlight: Sequence[Seat], me: Seat | None
) -> list[SeatLook]:
    turn = set() if view.outcome is not None else {seat for seat in view.to_move if seat >= 0}
    computers = robots(names)
    return [
        SeatLook(
            seat=seat,
            name=player_name(seat, names, lang),
            robot=seat in computers,
            cards=view.counts[seat] if seat < len(view.counts) else 0,
            chips=seat_chips(view, seat, lang),
            turn=seat in turn,
            glow=seat in highlight,
            mark="fool" if seat == view.fool else None,
        )
        for seat in range(view.players)
        if seat != me
    ]


def _trump_suit(view: DurakView) -> str | None:
    return None if view.trump is None else view.trump[-1]


def _trump(card: Card, view: DurakView) -> bool:
    return card[-1] == _trump_suit(view)


# ----- drawing -----------------------------------------------------------------------------------


def _draw_header(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    mid = geo.header / 2
    margin = geo.px(22)
    title = t(lang, "Transfer Durak") if view.transfer else t(lang, "Throw-in Durak")
    put_text(img, (margin, mid), title, geo.px(24), GOLD)
    suit = _trump_suit(view)
    right = geo.width - margin
    if suit is not None:
        pip = pip_sprite(suit, geo.px(26), _pip_colour(suit))
        right -= pip.width
        paste(img, pip, (right, round(mid - pip.height / 2)))
        right -= geo.px(8)
        right -= put_text(img, (right, mid), t(lang, "Trump"), geo.px(20), TEXT, "rm")
        right -= geo.px(22)
    if view.attacker is not None and view.outcome is None:
        put_text(img, (right, mid), t(lang, "Round {n}", n=view.bout + 1), geo.px(20), MUTED, "rm")


def _pip_colour(suit: str) -> RGB:
    # On the dark band a black pip would vanish: spades and clubs are drawn in the text colour.
    return (236, 72, 84) if Suit(suit).red else TEXT


def talon_spot(geo: Geometry) -> tuple[int, int]:
    return geo.px(34), geo.header + geo.px(28)


def _draw_talon(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    sw, sh = geo.small
    x, y = talon_spot(geo)
    suit = _trump_suit(view)
    label_y = y + sh + geo.px(30)
    if view.talon and view.trump is not None:
        # The trump lies crosswise under the talon, sticking out to the right (D3).
        turned = laid(view.trump, sw, sh, lang, "french", True, 90.0)
        tx = x + round(sw * 0.5) + sh // 2
        paste(img, turned, (tx - turned.width // 2, y + sh // 2 - turned.height // 2))
        closed = view.talon - 1
        if closed:
            # A thicker stack for a fuller talon: one more back for every three cards.
            back = laid(None, sw, sh, lang, "french", False, 0.0)
            margin = (back.width - sw) // 2
            for i in range(min(4, 1 + closed // 3)):
                paste(img, back, (x - margin + i * geo.px(2), y - margin - i * geo.px(2)))
        put_text(img, (x + sw * 0.8, label_y), t(lang, "Talon: {n}", n=view.talon), geo.px(17), TEXT, "mm")
    elif suit is not None:
        # The talon is gone: the trump suit stays on the table as a big pip in a ring.
        r = round(sw * 0.62)
        cx, cy = x + sw // 2 + geo.px(20), y + sh // 2
        ImageDraw.Draw(img).ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=mix(FELT_CENTRE, TEXT, 0.85), outline=GOLD, width=geo.px(3)
        )
        pip = pip_sprite(suit, round(r * 1.1))
        paste(img, pip, (cx - pip.width // 2, cy - pip.height // 2))
        put_text(img, (cx, label_y), t(lang, "Talon empty"), geo.px(17), MUTED, "mm")


def _draw_discard(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    if not view.discard:
        return
    sw, sh = geo.small
    x, y = geo.width - geo.px(150), geo.header + geo.px(30)
    cx, cy = x + sw // 2, y + sh // 2
    for angle, dx, dy in DISCARD_TILTS[: min(len(DISCARD_TILTS), 1 + len(view.discard) // 6)]:
        back = laid(None, sw, sh, lang, "french", False, angle)
        paste(img, back, (round(cx + dx * sw - back.width / 2), round(cy + dy * sw - back.height / 2)))
    label = t(lang, "Discard: {n}", n=len(view.discard))
    put_text(img, (cx, y + sh + geo.px(30)), label, geo.px(17), TEXT, "mm")


@lru_cache(maxsize=32)
def played_ring(width: int, height: int, colour: RGB, angle: float) -> Image.Image:
    """A ring in the player's colour around a card lying at `angle`, pasted by its centre."""
    ring = ring_outline(width, height, colour, max(2, round(width * 0.05)))
    return ring.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True) if angle else ring


def _draw_pairs(
    img: Image.Image,
    view: DurakView,
    geo: Geometry,
    names: Sequence[str],
    lang: str,
    recent: Sequence[tuple[Seat, Card]],
) -> None:
    cw, ch = geo.card
    tags: list[tuple[Seat, float, float, float]] = []
    played = {card: seat for seat, card in recent}
    for (attack, defence), (x, y) in zip(view.table, pair_spots(len(view.table), geo), strict=True):
        sprite = laid(attack, cw, ch, lang, "french", _trump(attack, view), 0.0)
        margin = (sprite.width - cw) // 2
        paste(img, sprite, (x - margin, y - margin))
        if attack in played:
            tags.append((played[attack], x + cw / 2, y + ch / 2, 0.0))
        if defence is not None:
            cover = laid(defence, cw, ch, lang, "french", _trump(defence, view), BEAT_ANGLE)
            mx, my = x + cw / 2 + BEAT_SHIFT[0] * cw, y + ch / 2 + BEAT_SHIFT[1] * ch
            paste(img, cover, (round(mx - cover.width / 2), round(my - cover.height / 2)))
            if defence in played:
                tags.append((played[defence], mx, my, BEAT_ANGLE))
    # Who played the last cards: a ring in their colour and a name tag, over every card.
    for seat, mx, my, angle in tags:
        ring = played_ring(cw, ch, seat_colour(seat), angle)
        paste(img, ring, (round(mx - ring.width / 2), round(my - ring.height / 2)))
        tag = name_tag(player_name(seat, names, lang), seat, geo.px(15), cw * 1.5)
        paste(img, tag, (round(mx - tag.width / 2), round(my + ch / 2 - tag.height * 0.7)))
    if view.table and view.outcome is None:
        attacks = t(lang, "Attacks {n} of {limit}", n=len(view.table), limit=view.limit)
        put_text(img, (geo.px(24), geo.table - geo.px(24)), attacks, geo.px(16), MUTED, "lm")


def _draw_result(img: Image.Image, view: DurakView, geo: Geometry, names: Sequence[str], lang: str) -> None:
    """The fool under a cap (or a draw), and the order the others went out."""
    # A place and its name stay on one line (a no-break space).
    order = ", ".join(
        f"{n}.\u00a0{player_name(seat, names, lang)}" for n, seat in enumerate(view.out, start=1)
    )
    lines = [t(lang, "Out: {names}", names=order)] if order else []
    if view.fool is not None:
        headline = t(lang, "The fool: {name}", name=player_name(view.fool, names, lang))
        draw_banner(img, geo, headline, FOOL_TEXT, lines, mark="fool")
    else:
        draw_banner(img, geo, t(lang, "A draw: no fool"), GOLD, lines)


def _draw_table(
    img: Image.Image,
    view: DurakView,
    geo: Geometry,
    names: Sequence[str],
    lang: str,
    highlight: Sequence[Seat],
    recent: Sequence[tuple[Seat, Card]],
    me: Seat | None,
) -> None:
    """Everything public: header, talon, discard, pairs, seats and the result banner."""
    _draw_header(img, view, geo, lang)
    _draw_talon(img, view, geo, lang)
    _draw_discard(img, view, geo, lang)
    _draw_pairs(img, view, geo, names, lang, recent)
    draw_seats(img, geo, seat_looks(view, names, lang, highlight, me), bottom=me or 0)
    if view.outcome is not None:
        _draw_result(img, view, geo, names, lang)
    elif view.attacker is None:
        left, top, right, bottom = geo.centre
        put_text(img, ((left + right) / 2, (top + bottom) / 2), t(lang, "Dealing…"), geo.px(30), MUTED, "mm")


def _draw_hand(img: Image.Image, view: DurakView, geo: Geometry, lang: str, playable: Sequence[Card]) -> None:
    assert view.seat is not None and view.hand is not None
    suit = _trump_suit(view)
    hand = sort_hand(view.hand, suit) if suit is not None else view.hand
    title_y = geo.table + geo.px(34)
    x = geo.px(24)
    x += put_text(img, (x, title_y), t(lang, "Your cards: {n}", n=len(hand)), geo.px(22), TEXT) + geo.px(14)
    chips = [*seat_chips(view, view.seat, lang)]
    if view.seat in view.to_move and view.outcome is None:
        chips.append((t(lang, "your move"), GOLD))
    for text, colour in chips:
        sprite = pill(text, colour, geo.px(16), INK if colour == GOLD else TEXT)
        paste(img, sprite, (x, round(title_y - sprite.height / 2)))
        x += sprite.width + geo.px(6)
    draw_hand(
        img,
        hand_box(geo),
        hand,
        lang=lang,
        playable=playable,
        max_card_w=geo.px(HAND_CARD_W),
        glow=GOLD,
        trump=suit,
    )


# ----- palette and the pictures ------------------------------------------------------------------


@lru_cache(maxsize=8)
def palette(size: int, panel: bool) -> Image.Image:
    """One palette for every picture of a kind and size: every card as it lies and in the hand,
    backs, plates, chips, tags and marks, and the felt's gradient."""
    geo = geometry(size, panel)
    cw, ch = geo.card
    hw = geo.px(HAND_CARD_W)
    hh = round(hw * 1.4)
    sprites: list[Image.Image] = []
    for card in deck36():
        trump = card[-1] == Suit.HEARTS
        sprites.append(laid(card, cw, ch, "ru", "french", trump, 0.0))
        if panel:
            sprites.append(face(card, hw, hh, "ru", "french", trump))
            sprites.append(face(card, hw, hh, "ru", "french", trump, 84))
    sprites.append(laid("QS", cw, ch, "ru", "french", False, BEAT_ANGLE))
    sprites.append(laid(None, geo.small[0], geo.small[1], "ru", "french", False, 0.0))
    sprites.append(plate(SeatLook(0, "Игрок", 6, (("ходит", ATTACKS),), True, True, "fool"), size))
    sprites += [name_tag("Игрок", seat, geo.px(15), cw * 1.5) for seat in range(SEATS)]
    if panel:
        sprites.append(glow_outline(hw, hh, GOLD, max(4, round(hw * 0.07))))
    return table_palette(sprites, geo.width, (*CHIP_COLOURS, FOOL_TEXT, *SEAT_COLOURS[:SEATS]))


def compose_table(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    highlight: tuple[int, ...] = (),
    recent: Sequence[tuple[int, str]] = (),
) -> Image.Image:
    """The public table in full colour (an RGB image of its own)."""
    geo = geometry(size, False)
    img = background(size).copy()
    _draw_table(img, view, geo, names, lang, highlight, recent, None)
    return img


def render_durak_table(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    highlight: tuple[int, ...] = (),
    recent: Sequence[tuple[int, str]] = (),
) -> bytes:
    """The public table as PNG bytes, `size` px wide (4:3). Pure: same arguments, same bytes.

    Seats in `view.to_move` get a gold rim; seats in `highlight` glow besides (the bot's choice,
    e.g. the seats it is waiting for). The cards of `recent` ((seat, card) pairs: the last cards
    played) that lie on the table are ringed in their player's colour and tagged with the name.
    Only public fields are read: a hand in the view is ignored.
    """
    img = compose_table(view, names=names, lang=lang, size=size, highlight=highlight, recent=recent)
    return encode(to_palette(img, palette(size, False)))


def compose_hand(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    playable: Sequence[str] = (),
    recent: Sequence[tuple[int, str]] = (),
) -> Image.Image:
    """A seat's panel in full colour: the table seen from the seat, its hand in a strip below."""
    if view.seat is None or view.hand is None:
        raise ValueError("a hand picture needs a seat's own view, not the public one")
    geo = geometry(size, True)
    img = background(size, HAND_STRIP).copy()
    _draw_table(img, view, geo, names, lang, (), recent, view.seat)
    _draw_hand(img, view, geo, lang, playable)
    return img


def render_durak_hand(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    playable: Sequence[str] = (),
    recent: Sequence[tuple[int, str]] = (),
) -> bytes:
    """A seat's private panel as PNG bytes, `size` px square. Pure: same arguments, same bytes.

    The cards in `playable` (card codes the seat may play now) are raised with a gold outline and
    the rest dimmed; with nothing playable every card is shown plain.
    """
    img = compose_hand(view, names=names, lang=lang, size=size, playable=playable, recent=recent)
    return encode(to_palette(img, palette(size, True)))
