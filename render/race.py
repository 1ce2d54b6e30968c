"""The picture of Game 3 (the race track) from its public view.

The 36 cards lie as a snake of four rows of nine (left to right, then back), between the Start in
the header band and the Finish in the footer band; a rail behind the cards shows the way and the
gap under each card its position. On the track: the cards (a back while closed), every token as a
disc in its seat's colour with its number 1-3, several to a card; for the player to move, where
each choice would land (a small die and the token's disc, as the buttons say "🎲5 → ①"), the token
facing a buy-out with its price, the tokens tied on Hearts; the cards the caption tells as opened,
ringed in the opener's colour. The header says whose turn it is and what they choose, and shows
the turn's dice (a used one dimmed, a burned one crossed out) and the acceleration die. The footer
shows each seat's coins, tokens home and place, and the bank.

Everything fixed (felt, rail, shadows, numbers, the Start and Finish) is one cached background per
size and language; a turn pastes cached sprites onto a copy and maps it onto a palette built once
per size. The picture reads only the view, where a closed card is None: it cannot show its face.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, get_args

from PIL import Image, ImageDraw

from core.cards import Card, deck36
from core.engine import Event, Seat
from core.games.race import RaceGame, RaceView
from core.games.race_events import Burned, Opened, Rolled
from core.games.race_rules import Phase, distinct_moves, parse_move
from core.games.race_track import CARDS, FINISH, START, TOKENS
from i18n import N_, t, tn, tp
from render.board import Token
from render.cards import CARD_ASPECT, card_shadow, glow_outline, glow_spread, ring_outline
from render.deck import back, face
from render.dice import die
from render.draw import INK, RGB, SS, darken, panel, paste, pill
from render.encode import build_palette, png, sheet, to_palette
from render.felt import vertical
from render.seats import (
    SEAT_COLOURS,
    Piece,
    SeatMark,
    draw_pieces,
    named,
    player_name,
    robots,
    seat_colour,
    seat_token,
)
from render.text import fit, put_text
from render.treasure import symbol_sprite

FELT_TOP: RGB = (44, 124, 78)
FELT_BOTTOM: RGB = (18, 70, 42)
BAND: RGB = (12, 48, 30)
RAIL: RGB = (30, 92, 58)
NUMBER: RGB = (168, 206, 180)
TEXT: RGB = (246, 244, 236)
MUTED: RGB = (178, 208, 188)
GOLD: RGB = (255, 208, 72)
PLATE: RGB = (8, 34, 22)
BURNED: RGB = (226, 58, 44)
#: The acceleration die, told apart from the turn's two.
BOOST: RGB = (255, 196, 110)
FLAT: tuple[RGB, ...] = (BAND, RAIL, NUMBER, MUTED, PLATE, BURNED, BOOST, INK)

#: Rule 1 / A3.1: the cards of one row of the snake.
ROW = 9
#: How much a used die is darkened.
USED_DIM = 130

_RULES = RaceGame()


def snake(length: int, cols: int) -> tuple[tuple[int, int], ...]:
    """(row, column) of each position of a track of `length` laid as a snake of `cols` a row: left
    to right on even rows, right to left on odd ones."""
    return tuple(
        (i // cols, i % cols if (i // cols) % 2 == 0 else cols - 1 - i % cols) for i in range(length)
    )


# ----- geometry ----------------------------------------------------------------------------------

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Geometry:
    """Where everything goes; every length scales with the picture's width."""

    width: int
    height: int
    unit: float
    card: tuple[int, int]
    #: Top-left corner of the card at position p: cells[p - 1].
    cells: tuple[tuple[int, int], ...]
    #: The bottom of the header band and the top of the footer band.
    header: int
    footer: int
    start: Box
    finish: Box

    def px(self, amount: float) -> int:
        return max(1, round(amount * self.unit))

    def centre(self, position: int) -> tuple[float, float]:
        x, y = self.cells[position - 1]
        return x + self.card[0] / 2, y + self.card[1] / 2


@lru_cache(maxsize=8)
def geometry(size: int) -> Geometry:
    """The track below a header band and above a footer band, `size` px wide."""
    unit = size / 1000
    margin, gap_x, gap_y = round(14 * unit), round(9 * unit), round(30 * unit)
    card_w = (size - 2 * margin - (ROW - 1) * gap_x) // ROW
    card_h = round(card_w * CARD_ASPECT)
    left = (size - ROW * card_w - (ROW - 1) * gap_x) // 2
    header = round(104 * unit)
    top = header + round(14 * unit)
    cells = tuple(
        (left + col * (card_w + gap_x), top + row * (card_h + gap_y)) for row, col in snake(CARDS, ROW)
    )
    rows = CARDS // ROW
    footer = top + rows * card_h + (rows - 1) * gap_y + round(30 * unit)
    height = footer + round(104 * unit)
    pill_w, pill_h, inset = round(220 * unit), round(88 * unit), round(8 * unit)
    return Geometry(
        width=size,
        height=height,
        unit=unit,
        card=(card_w, card_h),
        cells=cells,
        header=header,
        footer=footer,
        start=(margin, inset, margin + pill_w, inset + pill_h),
        finish=(margin, footer + inset, margin + pill_w, footer + inset + pill_h),
    )


# ----- texts -------------------------------------------------------------------------------------


def position_text(position: int, lang: str) -> str:
    """`Start`, `Finish` or the card's number on the track."""
    if position == START:
        return tp(lang, "track", "Start")
    if position == FINISH:
        return tp(lang, "track", "Finish")
    return str(position)


def coins_text(coins: int, lang: str) -> str:
    return tn(lang, "{n} coin", "{n} coins", coins)


def movers(view: RaceView) -> list[int]:
    """The tokens the player to move may move now (rule 5), from the legal actions."""
    if view.phase is not Phase.MOVE or view.turn is None:
        return []
    return sorted({parse_move(action)[1] for action in legal(view)})


def legal(view: RaceView) -> list[str]:
    """What the player to move may do, by the rules themselves on the view's position: the moves
    a person is offered (one token of those alike on a position)."""
    if view.turn is None:
        return []
    actions = _RULES.world(view).legal(view.turn)
    return distinct_moves(actions, view.tokens[view.turn]) if view.phase is Phase.MOVE else list(actions)


def task_text(view: RaceView, lang: str) -> str:
    """What the player to move chooses now, or an empty string when nobody chooses."""
    if view.turn is None:
        return ""
    if view.phase is Phase.MOVE:
        tokens = movers(view)
        if len(tokens) == 1:
            return t(lang, "choose a die for token {token}", token=tokens[0] + 1)
        return t(lang, "choose a die and a token")
    if view.phase is Phase.BUYOUT and view.pending is not None and view.price is not None:
        return tn(
            lang,
            "buy out token {token} for {n} coin?",
            "buy out token {token} for {n} coins?",
            view.price,
            token=view.pending + 1,
        )
    if view.phase is Phase.QUEUE:
        return t(lang, "choose the token to accelerate first")
    return ""


#: The chip of a seat that has finished, by place.
PLACES: tuple[str, ...] = (N_("1st place"), N_("2nd place"), N_("3rd place"))


def place_text(place: int, lang: str) -> str:
    return t(lang, PLACES[place - 1])


# ----- what the view says ------------------------------------------------------------------------


def tokens_at(view: RaceView, computers: frozenset[int] = frozenset()) -> dict[int, list[Token]]:
    """The tokens on each position, seat by seat, each disc with its token's number (a robot's
    head for the seats of `computers`)."""
    found: dict[int, list[Token]] = {}
    for seat, tokens in enumerate(view.tokens):
        for token, here in enumerate(tokens):
            found.setdefault(here, []).append(Token(seat, str(token + 1), seat in computers))
    return found


def destinations(view: RaceView) -> dict[int, list[tuple[int, tuple[int, ...]]]]:
    """Where the legal moves would take their tokens (rule 6): position -> each die that leads
    there with the tokens it would take, in the buttons' order."""
    if view.phase is not Phase.MOVE or view.turn is None:
        return {}
    here = view.tokens[view.turn]
    found: dict[int, dict[int, tuple[int, ...]]] = {}
    for action in legal(view):
        value, token = parse_move(action)
        dice = found.setdefault(min(here[token] + value, FINISH), {})
        dice[value] = (*dice.get(value, ()), token)
    return {position: list(dice.items()) for position, dice in found.items()}


def this_turn(recent: Sequence[Event]) -> list[Event]:
    """The events of the turn the view shows: those after the last roll the caption tells."""
    rolls = [i for i, event in enumerate(recent) if isinstance(event, Rolled)]
    return list(recent[rolls[-1] :]) if rolls else list(recent)


def dice_looks(view: RaceView, recent: Sequence[Event]) -> list[tuple[int, DieLook]]:
    """Each of the turn's dice and how it is shown: "left" (still to use), "used" or "burned" (as
    far as the caption tells: the view does not say which dice burned)."""
    burned = [event.die for event in this_turn(recent) if isinstance(event, Burned)]
    looks: list[tuple[int, DieLook]] = []
    for index, value in enumerate(view.dice):
        if index in view.left:
            looks.append((value, "left"))
        elif value in burned:
            burned.remove(value)
            looks.append((value, "burned"))
        else:
            looks.append((value, "used"))
    return looks


def opened_by(recent: Sequence[Event]) -> dict[int, Seat]:
    """The positions whose card the caption tells as turned face up, with who turned it."""
    return {event.position: event.seat for event in recent if isinstance(event, Opened)}


def tied_position(view: RaceView) -> int | None:
    """Where the tokens tied for acceleration stand (rule 12), when the player chooses among them."""
    if view.phase is not Phase.QUEUE or view.turn is None:
        return None
    here = view.tokens[view.turn]
    return max(here[token] for token in view.queue)


def disc_spots(count: int, width: int, height: int) -> list[tuple[float, float, int]]:
    """Where `count` tokens go on a card (centre and diameter of each disc): side by side without
    covering each other, in two or three columns when many, so that "1" and "3" never read "13"."""
    cols = 1 if count == 1 else 2 if count <= 4 else 3
    rows = math.ceil(count / cols)
    pitch = min(width * 0.92 / cols, height * 0.8 / rows, width * 0.5 * 1.08)
    diameter = round(pitch / 1.08)
    spots = []
    for k in range(count):
        row, col = divmod(k, cols)
        in_row = min(cols, count - row * cols)
        spots.append(
            (
                width / 2 + (col - (in_row - 1) / 2) * pitch,
                height / 2 + (row - (rows - 1) / 2) * pitch,
                diameter,
            )
        )
    return spots


# ----- sprites -----------------------------------------------------------------------------------


#: How a die is shown: still to use, used, burned (rule 5), or the acceleration die (rule 12).
DieLook = Literal["left", "used", "burned", "boost"]


@lru_cache(maxsize=64)
def die_sprite(value: int, side: int, look: DieLook) -> Image.Image:
    """A die as the header shows it: bright to use, dimmed once used, crossed out when burned, or in
    the acceleration die's colour."""
    if look == "boost":
        return die(value, side, BOOST)
    sprite = die(value, side)
    if look == "left":
        return sprite
    dimmed = darken(sprite, USED_DIM)
    if look == "burned":
        big = Image.new("RGBA", (dimmed.width * SS, dimmed.height * SS), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        inset, line = big.width * 0.16, round(big.width * 0.1)
        draw.line((inset, inset, big.width - inset, big.height - inset), fill=(*BURNED, 255), width=line)
        draw.line((big.width - inset, inset, inset, big.height - inset), fill=(*BURNED, 255), width=line)
        dimmed.alpha_composite(big.reduce(SS))
    return dimmed


@lru_cache(maxsize=128)
def move_badge(value: int, seat: Seat, tokens: tuple[int, ...], side: int) -> Image.Image:
    """A die and the discs of the tokens it may take here, on a dark pill: the buttons' "🎲5 → ①"."""
    pad = max(2, side // 6)
    small = die(value, side)
    discs = [seat_token(seat, side, str(token + 1)) for token in tokens]
    step = round(discs[0].width * 0.86)
    w = pad + small.width + pad + step * (len(discs) - 1) + discs[0].width + pad
    h = max(small.height, discs[0].height) + 2 * pad
    img = panel(w, h, INK, GOLD, max(1, side // 12), h // 2, 230).copy()
    img.alpha_composite(small, (pad, (h - small.height) // 2))
    for n, disc in enumerate(discs):
        img.alpha_composite(disc, (2 * pad + small.width + n * step, (h - disc.height) // 2))
    return img


@lru_cache(maxsize=32)
def price_badge(price: int, side: int) -> Image.Image:
    """A coin and the price of a buy-out, on a gold pill."""
    coin = symbol_sprite("coin", side)
    label = pill(f"−{price}", GOLD, round(side * 0.62), INK)
    img = Image.new(
        "RGBA", (coin.width + label.width - side // 4, max(coin.height, label.height)), (0, 0, 0, 0)
    )
    img.alpha_composite(label, (coin.width - side // 4, (img.height - label.height) // 2))
    img.alpha_composite(coin, (0, (img.height - coin.height) // 2))
    return img


@lru_cache(maxsize=8)
def flag_sprite(side: int) -> Image.Image:
    """A small chequered flag: tokens home."""
    big = side * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    pole = max(SS, big // 10)
    draw.rectangle((big * 0.12, big * 0.08, big * 0.12 + pole, big * 0.95), fill=(*TEXT, 255))
    left, top, cell = big * 0.12 + pole, big * 0.1, big * 0.8 / 4
    for row in range(3):
        for col in range(4):
            colour = TEXT if (row + col) % 2 == 0 else INK
            box = (left + col * cell, top + row * cell, left + (col + 1) * cell, top + (row + 1) * cell)
            draw.rectangle(box, fill=(*colour, 255))
    return img.reduce(SS)


def card_sprite(card: Card | None, geo: Geometry, lang: str) -> Image.Image:
    cw, ch = geo.card
    return back(cw, ch) if card is None else face(card, cw, ch, lang)


# ----- the background ----------------------------------------------------------------------------


def rail_points(geo: Geometry) -> list[tuple[float, float]]:
    """The way from the Start through every card's middle to the Finish."""
    x0 = geo.centre(1)[0]
    start = (x0, (geo.start[1] + geo.start[3]) / 2)
    finish = (geo.centre(CARDS)[0], (geo.finish[1] + geo.finish[3]) / 2)
    return [start, *(geo.centre(p) for p in range(1, CARDS + 1)), finish]


def _end_pill(img: Image.Image, box: Box, label: str, geo: Geometry) -> None:
    """The Start or the Finish: a rounded plate with its word, room for the tokens on its right."""
    w, h = box[2] - box[0], box[3] - box[1]
    paste(img, panel(w, h, PLATE, GOLD, geo.px(2), h // 2), (box[0], box[1]))
    put_text(img, (box[0] + geo.px(22), box[1] + geo.px(28)), label.upper(), geo.px(20), GOLD)


@lru_cache(maxsize=8)
def background(size: int, lang: str) -> Image.Image:
    """Felt, bands, the rail, the cards' shadows and numbers, the Start and the Finish. Shared: copy it."""
    geo = geometry(size)
    # Lit from above: a felt whose rows are one colour each costs half the bytes of a radial one.
    img = vertical(geo.width, geo.height, FELT_TOP, FELT_BOTTOM)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, geo.width, geo.header - 1), fill=BAND)
    draw.rectangle((0, geo.footer, geo.width, geo.height), fill=BAND)
    draw.line(rail_points(geo), fill=RAIL, width=geo.px(18), joint="curve")
    cw, ch = geo.card
    blur = max(2, round(cw * 0.06))
    shadow = card_shadow(cw, ch, blur)
    number_px = geo.px(16)
    for position, (x, y) in enumerate(geo.cells, start=1):
        paste(img, shadow, (x - blur + blur // 2, y - blur + blur))
        put_text(img, (x + cw / 2, y + ch + geo.px(15)), str(position), number_px, NUMBER, "mm")
    _end_pill(img, geo.start, position_text(START, lang), geo)
    _end_pill(img, geo.finish, position_text(FINISH, lang), geo)
    return img


# ----- drawing -----------------------------------------------------------------------------------


def _end_tokens(img: Image.Image, box: Box, tokens: Sequence[Token], geo: Geometry) -> None:
    """The tokens at the Start or the Finish: a row per seat, right of the word."""
    side = geo.px(24)
    step, row_step = geo.px(27), geo.px(27)
    seats = sorted({token.seat for token in tokens})
    right = box[2] - geo.px(14)
    top = (box[1] + box[3]) / 2 - (len(seats) - 1) * row_step / 2
    for token in tokens:
        # Each token in its own slot, so that a disc keeps its place while the others leave.
        disc = seat_token(token.seat, side, token.label, token.robot)
        x = right - (TOKENS + 1 - int(token.label)) * step
        y = top + seats.index(token.seat) * row_step
        paste(img, disc, (x, round(y - disc.height / 2)))


def _draw_track(
    img: Image.Image,
    view: RaceView,
    geo: Geometry,
    lang: str,
    recent: Sequence[Event],
    computers: frozenset[int],
) -> None:
    cw, ch = geo.card
    opened = opened_by(recent)
    targets = destinations(view)
    tie = tied_position(view)
    spread = glow_spread(cw)
    for position, (x, y) in enumerate(geo.cells, start=1):
        paste(img, card_sprite(view.faces[position - 1], geo, lang), (x, y))
    for position, seat in opened.items():
        x, y = geo.cells[position - 1]
        paste(img, ring_outline(cw, ch, seat_colour(seat), max(3, round(cw * 0.06))), (x, y))
    for position in (*targets, *([] if tie is None else [tie])):
        if START < position < FINISH:
            x, y = geo.cells[position - 1]
            paste(img, glow_outline(cw, ch, GOLD, spread), (x - spread, y - spread))
    if view.pending is not None and view.turn is not None and view.price is not None:
        x, y = geo.cells[view.tokens[view.turn][view.pending] - 1]
        paste(img, glow_outline(cw, ch, BURNED, spread), (x - spread, y - spread))
        badge = price_badge(view.price, geo.px(30))
        paste(img, badge, (round(x + (cw - badge.width) / 2), y + geo.px(4)))
    at = tokens_at(view, computers)
    for position, tokens in at.items():
        if START < position < FINISH:
            x, y = geo.cells[position - 1]
            for token, (cx, cy, diameter) in zip(tokens, disc_spots(len(tokens), cw, ch), strict=True):
                disc = seat_token(token.seat, diameter, token.label, token.robot)
                paste(img, disc, (round(x + cx - disc.width / 2), round(y + cy - disc.height / 2)))
    _end_tokens(img, geo.start, at.get(START, []), geo)
    _end_tokens(img, geo.finish, at.get(FINISH, []), geo)
    if view.turn is not None:
        _draw_targets(img, view.turn, targets, geo)


def _draw_targets(
    img: Image.Image, seat: Seat, targets: dict[int, list[tuple[int, tuple[int, ...]]]], geo: Geometry
) -> None:
    """Where each choice lands: per die a badge at the top of the card, the other die's at its
    bottom, so that the tokens in the middle stay in sight; at the Finish, on the plate's rim."""
    side = geo.px(20)
    for position, dice in targets.items():
        badges = [move_badge(value, seat, tokens, side) for value, tokens in dice]
        if position == FINISH:
            x = geo.finish[0] + geo.px(12)
            for badge in badges:
                paste(img, badge, (x, geo.finish[1] - badge.height // 2))
                x += badge.width + geo.px(4)
            continue
        x, y = geo.cells[position - 1]
        cw, ch = geo.card
        spots = (y + geo.px(4), y + ch - geo.px(4) - badges[0].height)
        for badge, top in zip(badges, spots, strict=False):
            paste(img, badge, (round(x + (cw - badge.width) / 2), top))


def _status(view: RaceView, names: Sequence[str], lang: str) -> tuple[list[Piece], list[Piece]]:
    """The header's two lines: whose turn and what they choose, or the finishing order."""
    if view.outcome is not None:
        order: list[Piece] = []
        for place, seat in enumerate(view.order[:-1], start=1):
            order += [f"{'   ' if place > 1 else ''}{place}. ", *named(seat, names, lang)]
        loser = view.order[-1]
        return order, [t(lang, "Loses:") + " ", *named(loser, names, lang)]
    if view.turn is None:
        return [t(lang, "Dealing…")], []
    return [t(lang, "Turn:") + " ", *named(view.turn, names, lang)], [task_text(view, lang)]


def _draw_header(
    img: Image.Image, view: RaceView, geo: Geometry, names: Sequence[str], lang: str, recent: Sequence[Event]
) -> None:
    side, gap = geo.px(54), geo.px(10)
    right = geo.width - geo.px(16)
    mid = geo.px(44)
    if view.boost is not None and view.outcome is None:
        sprite = die_sprite(view.boost, side, "boost")
        right -= sprite.width
        paste(img, sprite, (right, mid - sprite.height // 2))
        put_text(
            img, (right + sprite.width / 2, geo.px(88)), t(lang, "Boost"), geo.px(14), MUTED, "mm", False
        )
        right -= geo.px(22)
    looks = dice_looks(view, recent)
    if looks and view.outcome is None:
        sprites = [die_sprite(value, side, look) for value, look in looks]
        width = sum(s.width for s in sprites) + gap * (len(sprites) - 1)
        x = right - width
        put_text(img, (x + width / 2, geo.px(88)), t(lang, "Dice"), geo.px(14), MUTED, "mm", False)
        for sprite in sprites:
            paste(img, sprite, (x, mid - sprite.height // 2))
            x += sprite.width + gap
        right -= width + geo.px(22)
    first, second = _status(view, names, lang)
    left = geo.start[2] + geo.px(20)
    draw_pieces(img, left, geo.px(34), first, geo.px(26), TEXT, right)
    draw_pieces(img, left, geo.px(74), second, geo.px(20), GOLD if view.outcome is None else MUTED, right)


def _seat_chip(view: RaceView, seat: Seat, lang: str) -> tuple[str, RGB] | None:
    if seat in view.order:
        place = view.order.index(seat) + 1
        if view.outcome is not None and place == len(view.order):
            return t(lang, "loses"), BURNED
        return place_text(place, lang), GOLD
    return None


def _draw_footer(img: Image.Image, view: RaceView, geo: Geometry, names: Sequence[str], lang: str) -> None:
    """A plate per seat between the Finish and the bank."""
    top, bottom = geo.finish[1], geo.finish[3]
    bank_w, gap = geo.px(150), geo.px(10)
    left, right = geo.finish[2] + geo.px(14), geo.width - geo.px(14) - bank_w - geo.px(12)
    plate_w = (right - left - gap * (view.players - 1)) // view.players
    computers = robots(names)
    for seat in range(view.players):
        x = left + seat * (plate_w + gap)
        _draw_plate(
            img, view, SeatMark(seat, seat in computers), (x, top, x + plate_w, bottom), names, lang, geo
        )
    bank_x = geo.width - geo.px(14) - bank_w
    paste(img, panel(bank_w, bottom - top, PLATE, RAIL, geo.px(1), geo.px(14)), (bank_x, top))
    coin = symbol_sprite("coin", geo.px(40))
    paste(img, coin, (bank_x + geo.px(8), (top + bottom) // 2 - coin.height // 2))
    text_x = bank_x + geo.px(14) + coin.width
    put_text(img, (text_x, top + geo.px(30)), t(lang, "Bank"), geo.px(17), MUTED, "lm", False)
    put_text(img, (text_x, top + geo.px(60)), str(view.bank), geo.px(28), GOLD)


def _draw_plate(
    img: Image.Image, view: RaceView, mark: SeatMark, box: Box, names: Sequence[str], lang: str, geo: Geometry
) -> None:
    """A seat's name, coins, tokens home and place; a gold rim on its turn."""
    x, top, right, bottom = box
    seat, name = mark.seat, player_name(mark.seat, names, lang)
    turn = seat == view.turn
    rim, line = (GOLD, geo.px(3)) if turn else (RAIL, geo.px(1))
    paste(img, panel(right - x, bottom - top, PLATE, rim, line, geo.px(14)), (x, top))
    disc = seat_token(seat, geo.px(24), robot=mark.robot)
    paste(img, disc, (x + geo.px(10), top + geo.px(22) - disc.height // 2))
    name_x = x + geo.px(14) + disc.width
    put_text(
        img, (name_x, top + geo.px(22)), fit(name, geo.px(19), right - geo.px(8) - name_x), geo.px(19), TEXT
    )
    coin = symbol_sprite("coin", geo.px(24))
    paste(img, coin, (x + geo.px(10), top + geo.px(50) - coin.height // 2))
    coins = coins_text(view.coins[seat], lang)
    put_text(img, (x + geo.px(14) + coin.width, top + geo.px(50)), coins, geo.px(17), TEXT, "lm", False)
    flag = flag_sprite(geo.px(20))
    paste(img, flag, (x + geo.px(12), top + geo.px(74) - flag.height // 2))
    home = f"{view.tokens[seat].count(FINISH)}/{TOKENS}"
    put_text(img, (x + geo.px(16) + flag.width, top + geo.px(74)), home, geo.px(16), MUTED, "lm", False)
    chip = _seat_chip(view, seat, lang)
    if chip is not None:
        sprite = pill(chip[0], chip[1], geo.px(14))
        paste(img, sprite, (right - geo.px(8) - sprite.width, top + geo.px(74) - sprite.height // 2))


# ----- the picture -------------------------------------------------------------------------------


def compose_race(
    view: RaceView, *, names: Sequence[str], lang: str = "ru", size: int = 1000, recent: Sequence[Event] = ()
) -> Image.Image:
    """The picture in full colour (an RGB image of its own)."""
    geo = geometry(size)
    img = background(size, lang).copy()
    _draw_track(img, view, geo, lang, recent, robots(names))
    _draw_header(img, view, geo, names, lang, recent)
    _draw_footer(img, view, geo, names, lang)
    return img


def render_race(
    view: RaceView, *, names: Sequence[str], lang: str = "ru", size: int = 1000, recent: Sequence[Event] = ()
) -> bytes:
    """The track as PNG bytes, `size` px wide. Pure: same arguments, same bytes. `recent` are the
    events the caption tells: the cards they open are ringed, the dice they burn crossed out."""
    return png(
        to_palette(compose_race(view, names=names, lang=lang, size=size, recent=recent), palette(size))
    )


def _palette_sprites(size: int) -> Iterator[Image.Image]:
    geo = geometry(size)
    cw, ch = geo.card
    yield from (face(card, cw, ch, "ru") for card in deck36())
    yield back(cw, ch)
    yield glow_outline(cw, ch, GOLD, glow_spread(cw))
    for value in range(1, 7):
        for look in get_args(DieLook):
            yield die_sprite(value, geo.px(54), look)
    for seat in range(RaceGame.max_players):
        yield seat_token(seat, geo.px(50))
        yield move_badge(5, seat, (0, 1, 2), geo.px(20))
    yield symbol_sprite("coin", geo.px(40))
    yield flag_sprite(geo.px(20))
    yield price_badge(4, geo.px(30))


#: Palette entries for the felt's gradient.
FELT_COLOURS = 48


@lru_cache(maxsize=8)
def palette(size: int) -> Image.Image:
    """One palette for every picture of a size: the felt's gradient, every card, back, die, disc
    and badge, and the flat colours of the bands and texts exactly."""
    flat = (*FLAT, GOLD, TEXT, *SEAT_COLOURS[: RaceGame.max_players])
    swatch = sheet(list(_palette_sprites(size)), geometry(size).width, FELT_TOP)
    return build_palette(
        swatch, 256 - FELT_COLOURS - len(flat), [(FELT_TOP, FELT_BOTTOM, FELT_COLOURS)], flat
    )
