"""The pictures of Games 6 and 7 (Durak): the public table for a group chat and a seat's private panel.

The table is a felt with four seats around it (bottom, left, top, right in clockwise order), the
bout's attack/defence pairs in the middle, the talon with the trump lying across under it in one
corner and the discard pile (бито) in the other. The panel is the same table seen from the seat,
with that seat's hand in a strip below instead of its plate.

The public picture reads only public fields of the view (never `hand`), so it cannot leak a hand.
Everything that repeats (felt, seat plates, tilted cards, fans of backs, chips, text) is a cached
sprite; a picture is a few dozen pastes, one mapping onto a cached palette and one PNG encode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from core.cards import Card, Suit, deck36
from core.engine import Seat
from core.games.durak import DurakView, sort_hand
from render.cards import (
    BACK_RED,
    RGB,
    SS,
    card_back,
    card_face,
    glow_outline,
    paste,
    pip_sprite,
)
from render.fonts import font
from render.grid import encode, player_name
from render.text import fit, put_text, wrap

# ----- look --------------------------------------------------------------------------------------


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


FELT_CENTRE: RGB = (42, 124, 76)
FELT_EDGE: RGB = (16, 66, 40)
BAND: RGB = (11, 44, 27)
STRIP: RGB = (20, 34, 28)
TEXT: RGB = (246, 244, 236)
MUTED: RGB = (176, 206, 186)
GOLD: RGB = (255, 208, 72)
INK: RGB = (24, 26, 32)
RAIL: RGB = _mix(FELT_EDGE, FELT_CENTRE, 0.5)
PLATE: RGB = (8, 32, 20)

ATTACKS: RGB = (226, 128, 24)
DEFENDS: RGB = (36, 104, 186)
TAKES: RGB = (196, 52, 44)
THROWS: RGB = (128, 84, 176)
PASSED: RGB = (96, 108, 102)
PLACE: RGB = (30, 140, 84)
FOOL: RGB = (176, 24, 36)
CHIP_COLOURS: tuple[RGB, ...] = (ATTACKS, DEFENDS, TAKES, THROWS, PASSED, PLACE, FOOL)

#: The felt, seven chip colours, red and black pips and gold marks: a full 8-bit palette.
PALETTE_COLOURS = 256
CARD_ASPECT = 1.4
#: Seats sit clockwise: the next seat is to the left of the one at the bottom (RULES.md 0.3).
POSITIONS: tuple[str, ...] = ("bottom", "left", "top", "right")
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

STRINGS: dict[str, dict[str, str]] = {
    "ru": {
        "plain": "Подкидной дурак",
        "transfer": "Переводной дурак",
        "round": "Раунд {n}",
        "trump": "Козырь",
        "attacks": "ходит",
        "defends": "отбивается",
        "takes": "берёт",
        "throws": "подкидывает",
        "passed": "бито",
        "place": "{n}-е место",
        "fool": "дурак",
        "talon": "Колода: {n}",
        "talon_empty": "Колода пуста",
        "discard": "Бито: {n}",
        "thrown": "Подкинуто {n} из {limit}",
        "dealing": "Раздача…",
        "banner_fool": "Дурак — {name}",
        "banner_draw": "Ничья — дурака нет",
        "order": "Вышли: {names}",
        "hand": "Ваши карты: {n}",
        "your_move": "ваш ход",
        "player": "Игрок {n}",
    },
    "en": {
        "plain": "Throw-in Durak",
        "transfer": "Transfer Durak",
        "round": "Round {n}",
        "trump": "Trump",
        "attacks": "attacks",
        "defends": "defends",
        "takes": "takes",
        "throws": "throws in",
        "passed": "pass",
        "place": "{n} out",
        "fool": "fool",
        "talon": "Talon: {n}",
        "talon_empty": "Talon empty",
        "discard": "Discard: {n}",
        "thrown": "Attacks {n} of {limit}",
        "dealing": "Dealing…",
        "banner_fool": "The fool: {name}",
        "banner_draw": "A draw: no fool",
        "order": "Out: {names}",
        "hand": "Your cards: {n}",
        "your_move": "your move",
        "player": "Player {n}",
    },
}


def _strings(lang: str) -> dict[str, str]:
    return STRINGS["ru" if lang == "ru" else "en"]


def _ordinal_en(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def place_text(place: int, lang: str) -> str:
    """`1-е место` / `1st out` for the seat that went out `place`-th."""
    return _strings(lang)["place"].format(n=place if lang == "ru" else _ordinal_en(place))


# ----- geometry ----------------------------------------------------------------------------------

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Geometry:
    """Where everything goes; every length scales with the picture's width."""

    width: int
    height: int
    #: The table's bottom edge: the picture's height, or where the panel's hand strip begins.
    table: int
    header: int
    unit: float
    plate: tuple[int, int]
    #: Top-left corner of each position's plate (bottom, left, top, right).
    seats: tuple[tuple[int, int], ...]
    card: tuple[int, int]
    small: tuple[int, int]
    #: The middle of the table, between the plates, where the pairs lie.
    centre: Box
    talon: tuple[int, int]
    discard: tuple[int, int]
    hand_card: tuple[int, int]

    def px(self, amount: float) -> int:
        return max(1, round(amount * self.unit))


@lru_cache(maxsize=8)
def geometry(size: int, panel: bool) -> Geometry:
    """The public table is 4:3 landscape; the panel is square with the hand strip at the bottom."""
    unit = size / 1000
    width = size
    height = size if panel else round(size * 0.75)
    table = height - round(300 * unit) if panel else height
    header = round(52 * unit)
    pw, ph = round(214 * unit), round(128 * unit)
    gap = round(8 * unit)
    side_y = (header + table) // 2 - ph // 2
    seats = (
        ((width - pw) // 2, table - ph - gap),
        (gap, side_y),
        ((width - pw) // 2, header + gap),
        (width - pw - gap, side_y),
    )
    bottom = table - gap if panel else table - ph - 2 * gap
    centre = (pw + 2 * gap, header + ph + 2 * gap, width - pw - 2 * gap, bottom)
    cw = round(90 * unit)
    sw = round(70 * unit)
    hw = round(136 * unit)
    return Geometry(
        width=width,
        height=height,
        table=table,
        header=header,
        unit=unit,
        plate=(pw, ph),
        seats=seats,
        card=(cw, round(cw * CARD_ASPECT)),
        small=(sw, round(sw * CARD_ASPECT)),
        centre=centre,
        talon=(round(34 * unit), header + round(28 * unit)),
        discard=(width - round(150 * unit), header + round(30 * unit)),
        hand_card=(hw, round(hw * CARD_ASPECT)),
    )


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


# ----- sprites -----------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def background(size: int, panel: bool) -> Image.Image:
    """Felt, the header band and (for the panel) the hand strip. Shared: copy it."""
    geo = geometry(size, panel)
    w, h = geo.width, geo.table
    ramp = Image.radial_gradient("L").resize((w, h), Image.Resampling.BILINEAR)
    ramp = ramp.point(lambda v: min(255, round(v * 1.2)))
    felt = Image.composite(Image.new("RGB", (w, h), FELT_EDGE), Image.new("RGB", (w, h), FELT_CENTRE), ramp)
    img = Image.new("RGB", (geo.width, geo.height), STRIP)
    img.paste(felt, (0, 0))
    draw = ImageDraw.Draw(img)
    # A faint inner line suggests the table's rail without costing palette entries.
    inset = geo.px(6)
    draw.rounded_rectangle(
        (inset, geo.header + inset, w - 1 - inset, h - 1 - inset),
        radius=geo.px(40),
        outline=RAIL,
        width=geo.px(2),
    )
    draw.rectangle((0, 0, w, geo.header - 1), fill=BAND)
    if panel:
        draw.line((0, geo.table, w, geo.table), fill=GOLD, width=geo.px(2))
    return img


def _shadow_of(alpha: Image.Image, blur: int) -> Image.Image:
    """A soft black shadow of a sprite's shape, `blur` px larger on every side."""
    mask = Image.new("L", (alpha.width + 2 * blur, alpha.height + 2 * blur), 0)
    mask.paste(alpha.point(lambda v: v * 100 // 255), (blur, blur))
    shadow = Image.new("RGBA", mask.size, (0, 0, 0, 255))
    shadow.putalpha(mask.filter(ImageFilter.GaussianBlur(blur / 2)))
    return shadow


def _with_shadow(sprite: Image.Image, blur: int) -> Image.Image:
    """The sprite over its own shadow, dropped a little down and right; `blur` px of margin."""
    out = Image.new("RGBA", (sprite.width + 2 * blur, sprite.height + 2 * blur), (0, 0, 0, 0))
    shadow = _shadow_of(sprite.getchannel("A"), blur)
    drop = max(1, blur // 2)
    out.alpha_composite(shadow.crop((0, 0, out.width - drop, out.height - drop)), (drop, drop))
    out.alpha_composite(sprite, (blur, blur))
    return out


@lru_cache(maxsize=16)
def trump_mark(card_w: int) -> Image.Image:
    """A gold disc with a star: marks a trump in the free corner column under its index."""
    side = max(8, round(card_w * 0.2))
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    s = side * SS
    draw.ellipse((0, 0, s - 1, s - 1), fill=(*_mix(GOLD, INK, 0.35), 255))
    draw.ellipse((s * 0.08, s * 0.08, s * 0.92, s * 0.92), fill=(*GOLD, 255))
    points = []
    for i in range(10):
        r = s * (0.34 if i % 2 == 0 else 0.14)
        angle = math.pi * i / 5 - math.pi / 2
        points.append((s / 2 + r * math.cos(angle), s / 2 + r * math.sin(angle) + s * 0.02))
    draw.polygon(points, fill=(255, 255, 255, 255))
    return big.reduce(SS)


@lru_cache(maxsize=256)
def face(card: Card, width: int, height: int, lang: str, trump: bool) -> Image.Image:
    """A card face, with the trump mark when its suit is trump. Shared: paste it, never draw on it."""
    plain = card_face(card, width, height, lang)
    if not trump:
        return plain
    marked = plain.copy()
    mark = trump_mark(width)
    marked.alpha_composite(mark, (round(width * 0.15 - mark.width / 2), round(height * 0.36)))
    return marked


@lru_cache(maxsize=512)
def laid(card: Card | None, width: int, height: int, lang: str, trump: bool, angle: float) -> Image.Image:
    """A card (a back for None) turned by `angle` degrees over its shadow, ready to paste by its centre."""
    sprite = card_back(width, height, BACK_RED) if card is None else face(card, width, height, lang, trump)
    if angle:
        sprite = sprite.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    return _with_shadow(sprite, max(2, round(width * 0.07)))


@lru_cache(maxsize=64)
def dimmed(card: Card, width: int, height: int, lang: str, trump: bool) -> Image.Image:
    """A hand card that may not be played now: darkened, corners kept transparent."""
    bright = face(card, width, height, lang, trump)
    out = bright.copy()
    out.paste((0, 0, 0), (0, 0, width, height), Image.new("L", bright.size, 84))
    out.putalpha(bright.getchannel("A"))
    return out


@lru_cache(maxsize=64)
def fan(count: int, width: int, height: int) -> Image.Image:
    """Up to seven small backs fanned about a point below them: a hand seen from across the table."""
    shown = min(count, 7)
    spread = 9.0
    canvas_w, canvas_h = round(width * 3.2), round(height * 1.5)
    img = Image.new("RGBA", (canvas_w, canvas_h), (0, 0, 0, 0))
    back = card_back(width, height, BACK_RED)
    pivot_x, pivot_y = canvas_w / 2, canvas_h + height * 1.2
    radius = height * 1.2 + height / 2 + height * 0.25
    for i in range(shown):
        angle = (i - (shown - 1) / 2) * spread
        turned = back.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        rad = math.radians(angle)
        cx = pivot_x + radius * math.sin(rad)
        cy = pivot_y - radius * math.cos(rad)
        img.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    # Trimmed to the cards, so the count badge sits right beside however many are shown.
    return img.crop(img.getbbox())


@lru_cache(maxsize=128)
def chip(text: str, colour: RGB, px: int, ink: RGB = TEXT) -> Image.Image:
    """A rounded label: `ходит`, `отбивается`, `бито`, `1-е место`..."""
    face_ = font(px * SS, bold=True)
    w, h = math.ceil(face_.getlength(text) + px * 1.1 * SS), math.ceil(px * 1.45 * SS)
    w, h = w + (-w) % SS, h + (-h) % SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=(*colour, 255))
    draw.text((w / 2, h / 2), text, font=face_, fill=(*ink, 255), anchor="mm")
    return big.reduce(SS)


@lru_cache(maxsize=32)
def count_badge(count: int, px: int) -> Image.Image:
    """A white disc with the number of cards a seat holds."""
    face_ = font(px * SS, bold=True)
    text = str(count)
    side = max(round(px * 1.7), round(face_.getlength(text) / SS + px * 0.9))
    big = Image.new("RGBA", (side * SS, round(px * 1.7) * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, big.width - 1, big.height - 1), radius=big.height // 2, fill=(*TEXT, 255))
    draw.text((big.width / 2, big.height / 2), text, font=face_, fill=(*INK, 255), anchor="mm")
    return big.reduce(SS)


@lru_cache(maxsize=8)
def fool_cap(side: int) -> Image.Image:
    """A jester's cap with three bells: the durak's mark."""
    s = side * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    red, yellow, dark = (206, 36, 48, 255), (250, 196, 40, 255), (60, 16, 20, 255)
    # Three floppy points from the band: left, right, then the middle one on top.
    draw.polygon([(s * 0.2, s * 0.78), (s * 0.5, s * 0.74), (s * 0.06, s * 0.3)], fill=yellow, outline=dark)
    draw.polygon([(s * 0.8, s * 0.78), (s * 0.5, s * 0.74), (s * 0.94, s * 0.3)], fill=yellow, outline=dark)
    draw.polygon([(s * 0.22, s * 0.78), (s * 0.78, s * 0.78), (s * 0.5, s * 0.1)], fill=red, outline=dark)
    draw.rounded_rectangle(
        (s * 0.14, s * 0.72, s * 0.86, s * 0.92), radius=s * 0.06, fill=red, outline=dark, width=SS
    )
    for bx, by in ((0.06, 0.3), (0.94, 0.3), (0.5, 0.1)):
        r = s * 0.075
        draw.ellipse((s * bx - r, s * by - r, s * bx + r, s * by + r), fill=(255, 224, 96, 255), outline=dark)
    return img.reduce(SS)


Chip = tuple[str, RGB]


@lru_cache(maxsize=256)
def plate(
    name: str, count: int, chips: tuple[Chip, ...], turn: bool, glow: bool, fool: bool, size: int
) -> Image.Image:
    """A seat: name, its cards as fanned backs with the count, its chips; gold rim on its turn."""
    geo = geometry(size, False)
    pw, ph = geo.plate
    pad = geo.px(14)
    img = Image.new("RGBA", (pw + 2 * pad, ph + 2 * pad), (0, 0, 0, 0))
    if glow:
        halo = Image.new("L", img.size, 0)
        ImageDraw.Draw(halo).rounded_rectangle(
            (pad // 2, pad // 2, img.width - pad // 2, img.height - pad // 2), radius=geo.px(20), fill=200
        )
        glow_layer = Image.new("RGBA", img.size, (*GOLD, 255))
        glow_layer.putalpha(halo.filter(ImageFilter.GaussianBlur(pad / 3)))
        img.alpha_composite(glow_layer)
    big = Image.new("RGBA", (pw * SS, ph * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, pw * SS - 1, ph * SS - 1),
        radius=geo.px(14) * SS,
        fill=(*PLATE, 255),
        outline=(*GOLD, 255) if turn else (*_mix(FELT_EDGE, TEXT, 0.25), 255),
        width=geo.px(3 if turn else 1) * SS,
    )
    img.alpha_composite(big.reduce(SS), (pad, pad))
    cx = pad + pw // 2
    name_px = geo.px(21)
    put_text(img, (cx, pad + geo.px(20)), fit(name, name_px, pw - geo.px(24)), name_px, TEXT, "mm")
    if count:
        small = fan(count, geo.px(26), geo.px(37))
        badge = count_badge(count, geo.px(15))
        total = small.width + geo.px(4) + badge.width
        fx = cx - total // 2
        fy = pad + geo.px(62) - small.height // 2
        img.alpha_composite(small, (fx, fy))
        img.alpha_composite(badge, (fx + small.width + geo.px(4), fy + small.height - badge.height))
    if chips:
        sprites = [chip(text, colour, geo.px(14)) for text, colour in chips]
        total = sum(s.width for s in sprites) + geo.px(6) * (len(sprites) - 1)
        x = cx - total // 2
        y = pad + ph - geo.px(9) - sprites[0].height
        for sprite in sprites:
            img.alpha_composite(sprite, (x, y))
            x += sprite.width + geo.px(6)
    if fool:
        cap = fool_cap(geo.px(56))
        img.alpha_composite(cap, (img.width - cap.width, 0))
    return img


# ----- what the view says ------------------------------------------------------------------------


def seat_chips(view: DurakView, seat: Seat, lang: str) -> tuple[Chip, ...]:
    """The public marks of a seat: its role in the bout, a pass, its place once out, the fool."""
    s = _strings(lang)
    if seat == view.fool:
        return ((s["fool"], FOOL),)
    if seat in view.out:
        return ((place_text(view.out.index(seat) + 1, lang), PLACE),)
    if view.outcome is not None or view.attacker is None:
        return ()
    chips: list[Chip] = []
    if seat == view.defender:
        chips.append((s["takes"], TAKES) if view.taking else (s["defends"], DEFENDS))
    elif seat == view.attacker:
        chips.append((s["attacks"], ATTACKS))
    elif seat in view.to_move:
        chips.append((s["throws"], THROWS))
    if seat in view.passes:
        chips.append((s["passed"], PASSED))
    return tuple(chips)


def _trump_suit(view: DurakView) -> str | None:
    return None if view.trump is None else view.trump[-1]


# ----- drawing -----------------------------------------------------------------------------------


def _draw_header(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    s = _strings(lang)
    mid = geo.header / 2
    margin = geo.px(22)
    put_text(img, (margin, mid), s["transfer" if view.transfer else "plain"], geo.px(24), GOLD)
    suit = _trump_suit(view)
    right = geo.width - margin
    if suit is not None:
        pip = pip_sprite(suit, geo.px(26), _pip_colour(suit))
        right -= pip.width
        paste(img, pip, (right, round(mid - pip.height / 2)))
        right -= geo.px(8)
        right -= put_text(img, (right, mid), s["trump"], geo.px(20), TEXT, "rm")
        right -= geo.px(22)
    if view.attacker is not None and view.outcome is None:
        put_text(img, (right, mid), s["round"].format(n=view.bout + 1), geo.px(20), MUTED, "rm")


def _pip_colour(suit: str) -> RGB:
    # On the dark band a black pip would vanish: spades and clubs are drawn in the text colour.
    return (236, 72, 84) if Suit(suit).red else TEXT


def _draw_talon(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    s = _strings(lang)
    sw, sh = geo.small
    x, y = geo.talon
    suit = _trump_suit(view)
    label_y = y + sh + geo.px(30)
    if view.talon and view.trump is not None:
        # The trump lies crosswise under the talon, sticking out to the right (D3).
        turned = laid(view.trump, sw, sh, lang, True, 90.0)
        tx = x + round(sw * 0.5) + sh // 2
        paste(img, turned, (tx - turned.width // 2, y + sh // 2 - turned.height // 2))
        closed = view.talon - 1
        if closed:
            # A thicker stack for a fuller talon: one more back for every three cards.
            back = laid(None, sw, sh, lang, False, 0.0)
            layers = min(4, 1 + closed // 3)
            margin = (back.width - sw) // 2
            for i in range(layers):
                paste(img, back, (x - margin + i * geo.px(2), y - margin - i * geo.px(2)))
        put_text(img, (x + sw * 0.8, label_y), s["talon"].format(n=view.talon), geo.px(17), TEXT, "mm")
    elif suit is not None:
        # The talon is gone: the trump suit stays on the table as a big pip in a ring.
        r = round(sw * 0.62)
        cx, cy = x + sw // 2 + geo.px(20), y + sh // 2
        ImageDraw.Draw(img).ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=_mix(FELT_CENTRE, TEXT, 0.85),
            outline=GOLD,
            width=geo.px(3),
        )
        pip = pip_sprite(suit, round(r * 1.1))
        paste(img, pip, (cx - pip.width // 2, cy - pip.height // 2))
        put_text(img, (cx, label_y), s["talon_empty"], geo.px(17), MUTED, "mm")


def _draw_discard(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    if not view.discard:
        return
    sw, sh = geo.small
    x, y = geo.discard
    cx, cy = x + sw // 2, y + sh // 2
    layers = min(len(DISCARD_TILTS), 1 + len(view.discard) // 6)
    for angle, dx, dy in DISCARD_TILTS[:layers]:
        back = laid(None, sw, sh, lang, False, angle)
        paste(img, back, (round(cx + dx * sw - back.width / 2), round(cy + dy * sw - back.height / 2)))
    label = _strings(lang)["discard"].format(n=len(view.discard))
    put_text(img, (cx, y + sh + geo.px(30)), label, geo.px(17), TEXT, "mm")


def _draw_pairs(img: Image.Image, view: DurakView, geo: Geometry, lang: str) -> None:
    suit = _trump_suit(view)
    cw, ch = geo.card
    for (attack, defence), (x, y) in zip(view.table, pair_spots(len(view.table), geo), strict=True):
        sprite = laid(attack, cw, ch, lang, attack[-1] == suit, 0.0)
        margin = (sprite.width - cw) // 2
        paste(img, sprite, (x - margin, y - margin))
        if defence is not None:
            cover = laid(defence, cw, ch, lang, defence[-1] == suit, BEAT_ANGLE)
            mx, my = x + cw / 2 + BEAT_SHIFT[0] * cw, y + ch / 2 + BEAT_SHIFT[1] * ch
            paste(img, cover, (round(mx - cover.width / 2), round(my - cover.height / 2)))
    if view.table and view.outcome is None:
        s = _strings(lang)
        attacks = s["thrown"].format(n=len(view.table), limit=view.limit)
        put_text(img, (geo.px(24), geo.table - geo.px(24)), attacks, geo.px(16), MUTED, "lm")


def _draw_seats(
    img: Image.Image,
    view: DurakView,
    geo: Geometry,
    names: Sequence[str],
    lang: str,
    highlight: tuple[int, ...],
    me: Seat | None,
) -> None:
    turn = set() if view.outcome is not None else {seat for seat in view.to_move if seat >= 0}
    bottom = me if me is not None else 0
    pad = geo.px(14)
    for seat in range(view.players):
        where = (seat - bottom) % len(POSITIONS)
        if seat == me:
            continue
        name = player_name(seat, names, lang)
        count = view.counts[seat] if seat < len(view.counts) else 0
        sprite = plate(
            name,
            count,
            seat_chips(view, seat, lang),
            seat in turn,
            seat in highlight,
            seat == view.fool,
            geo.width,
        )
        x, y = geo.seats[where]
        paste(img, sprite, (x - pad, y - pad))


@lru_cache(maxsize=8)
def banner_box(width: int, height: int, unit: float) -> Image.Image:
    """The result banner's dark panel with a gold rim."""
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1),
        radius=round(22 * unit) * SS,
        fill=(*PLATE, 255),
        outline=(*GOLD, 255),
        width=max(1, round(3 * unit)) * SS,
    )
    return big.reduce(SS)


def _draw_banner(img: Image.Image, view: DurakView, geo: Geometry, names: Sequence[str], lang: str) -> None:
    """The result between the seats: the fool under a cap (or a draw), the order the others went out."""
    s = _strings(lang)
    left, top, right, bottom = geo.centre
    width, height = right - left, geo.px(210)
    y0 = (top + bottom) // 2 - height // 2 + geo.px(16)
    paste(img, banner_box(width, height, geo.unit), (left, y0))
    cx = (left + right) / 2
    room = width - geo.px(40)
    if view.fool is not None:
        cap = fool_cap(geo.px(72))
        paste(img, cap, (round(cx - cap.width / 2), y0 - round(cap.height * 0.55)))
        headline = s["banner_fool"].format(name=player_name(view.fool, names, lang))
        colour: RGB = (255, 120, 110)
    else:
        headline, colour = s["banner_draw"], GOLD
    px = geo.px(36)
    put_text(img, (cx, y0 + geo.px(62)), fit(headline, px, room), px, colour, "mm")
    order = ", ".join(f"{n}. {player_name(seat, names, lang)}" for n, seat in enumerate(view.out, start=1))
    if order:
        small = geo.px(21)
        for n, line in enumerate(wrap(s["order"].format(names=order), small, room, 2, bold=True)):
            put_text(img, (cx, y0 + geo.px(120 + 34 * n)), line, small, TEXT, "mm")


def _draw_table(
    img: Image.Image,
    view: DurakView,
    geo: Geometry,
    names: Sequence[str],
    lang: str,
    highlight: tuple[int, ...],
    me: Seat | None,
) -> None:
    """Everything public: header, talon, discard, pairs, seats and the result banner."""
    _draw_header(img, view, geo, lang)
    _draw_talon(img, view, geo, lang)
    _draw_discard(img, view, geo, lang)
    _draw_pairs(img, view, geo, lang)
    _draw_seats(img, view, geo, names, lang, highlight, me)
    if view.outcome is not None:
        _draw_banner(img, view, geo, names, lang)
    elif view.attacker is None:
        left, top, right, bottom = geo.centre
        put_text(
            img, ((left + right) / 2, (top + bottom) / 2), _strings(lang)["dealing"], geo.px(30), MUTED, "mm"
        )


def hand_spots(count: int, geo: Geometry) -> list[int]:
    """Left edges of the hand's cards in a row, overlapping as much as the width needs."""
    hw, _ = geo.hand_card
    margin = geo.px(24)
    room = geo.width - 2 * margin - hw
    pitch = min(hw + geo.px(10), room // max(1, count - 1)) if count > 1 else 0
    x0 = (geo.width - (pitch * (count - 1) + hw)) // 2
    return [x0 + i * pitch for i in range(count)]


def _draw_hand(
    img: Image.Image, view: DurakView, geo: Geometry, lang: str, playable: tuple[str, ...]
) -> None:
    s = _strings(lang)
    assert view.seat is not None and view.hand is not None
    hw, hh = geo.hand_card
    suit = _trump_suit(view)
    hand = sort_hand(view.hand, suit) if suit is not None else view.hand
    title_y = geo.table + geo.px(34)
    x = geo.px(24)
    x += put_text(img, (x, title_y), s["hand"].format(n=len(hand)), geo.px(22), TEXT) + geo.px(14)
    for text, colour in seat_chips(view, view.seat, lang):
        sprite = chip(text, colour, geo.px(16))
        paste(img, sprite, (x, round(title_y - sprite.height / 2)))
        x += sprite.width + geo.px(6)
    if view.seat in view.to_move and view.outcome is None:
        sprite = chip(s["your_move"], GOLD, geo.px(16), INK)
        paste(img, sprite, (x + geo.px(6), round(title_y - sprite.height / 2)))
    rise = geo.px(22)
    base_y = geo.height - hh - geo.px(16)
    spread = geo.px(10)
    for card, left in zip(hand, hand_spots(len(hand), geo), strict=True):
        trump = card[-1] == suit
        if not playable:
            paste(img, face(card, hw, hh, lang, trump), (left, base_y))
        elif card in playable:
            top = base_y - rise
            paste(img, glow_outline(hw, hh, GOLD, spread), (left - spread, top - spread))
            paste(img, face(card, hw, hh, lang, trump), (left, top))
        else:
            paste(img, dimmed(card, hw, hh, lang, trump), (left, base_y))


# ----- palette and the pictures ------------------------------------------------------------------


#: Palette entries for the felt's gradient, and exact entries for the flat colours of marks and text.
FELT_COLOURS = 48
FLAT: tuple[RGB, ...] = (*CHIP_COLOURS, GOLD, TEXT, MUTED, INK, BAND, STRIP, RAIL, PLATE, (255, 120, 110))


@lru_cache(maxsize=8)
def palette(size: int, panel: bool) -> Image.Image:
    """One palette for every picture of a kind and size, so that successive edits keep their colours.

    Built in parts, since one octree over everything starves the small chips and the smooth felt:
    the felt's gradient, a sheet of every sprite a picture can show, and the flat colours exactly.
    """
    geo = geometry(size, panel)
    width = geometry(size, panel).width
    cw, ch = geo.card
    hw, hh = geo.hand_card
    sprites: list[Image.Image] = []
    for card in deck36():
        trump = card[-1] == Suit.HEARTS
        sprites.append(laid(card, cw, ch, "ru", trump, 0.0))
        if panel:
            sprites.append(face(card, hw, hh, "ru", trump))
            sprites.append(dimmed(card, hw, hh, "ru", trump))
    sprites.append(laid("QS", cw, ch, "ru", False, BEAT_ANGLE))
    sprites.append(laid(None, geo.small[0], geo.small[1], "ru", False, 0.0))
    sprites.append(fool_cap(geo.px(72)))
    sprites.append(plate("Игрок", 6, (("ходит", ATTACKS),), True, True, False, size))
    if panel:
        sprites.append(glow_outline(hw, hh, GOLD, geo.px(10)))
    sheet = Image.new("RGB", (width, sum(sprite.height for sprite in sprites)), FELT_CENTRE)
    x, y, row = 0, 0, 0
    for sprite in sprites:
        if x + sprite.width > sheet.width:
            x, y, row = 0, y + row, 0
        paste(sheet, sprite, (x, y))
        x += sprite.width
        row = max(row, sprite.height)
    sheet = sheet.crop((0, 0, sheet.width, y + row))
    rest = PALETTE_COLOURS - FELT_COLOURS - len(FLAT)
    flat = [channel for colour in FLAT for channel in colour]
    # The felt is a blend of two colours: evenly spaced steps along it show no rings.
    ramp = [c for i in range(FELT_COLOURS) for c in _mix(FELT_CENTRE, FELT_EDGE, i / (FELT_COLOURS - 1))]
    colours = ramp + _colours(sheet, rest) + flat
    # Unused entries repeat the last colour: harmless for nearest-colour mapping.
    colours += colours[-3:] * (256 - len(colours) // 3)
    out = Image.new("P", (1, 1))
    out.putpalette(colours)
    return out


def _colours(img: Image.Image, count: int) -> list[int]:
    """The flat RGB list of an octree palette of `count` colours for `img`."""
    quantized = img.quantize(count, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = quantized.getpalette() or []
    return flat[: 3 * count]


def compose_table(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    highlight: tuple[int, ...] = (),
) -> Image.Image:
    """The public table in full colour (an RGB image of its own)."""
    geo = geometry(size, False)
    img = background(size, False).copy()
    _draw_table(img, view, geo, names, lang, highlight, None)
    return img


def render_durak_table(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    highlight: tuple[int, ...] = (),
) -> bytes:
    """The public table as PNG bytes, `size` px wide (4:3). Pure: same arguments, same bytes.

    Seats in `view.to_move` get a gold rim; seats in `highlight` glow besides (the bot's choice,
    e.g. the seats it is waiting for). Only public fields are read: a hand in the view is ignored.
    """
    img = compose_table(view, names=names, lang=lang, size=size, highlight=highlight)
    return encode(img.quantize(palette=palette(size, False), dither=Image.Dither.NONE))


def compose_hand(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    playable: tuple[str, ...] = (),
) -> Image.Image:
    """A seat's panel in full colour: the table seen from the seat, its hand in a strip below."""
    if view.seat is None or view.hand is None:
        raise ValueError("a hand picture needs a seat's own view, not the public one")
    geo = geometry(size, True)
    img = background(size, True).copy()
    _draw_table(img, view, geo, names, lang, (), view.seat)
    _draw_hand(img, view, geo, lang, playable)
    return img


def render_durak_hand(
    view: DurakView,
    *,
    names: tuple[str, ...],
    lang: str = "ru",
    size: int = 1000,
    playable: tuple[str, ...] = (),
) -> bytes:
    """A seat's private panel as PNG bytes, `size` px square. Pure: same arguments, same bytes.

    The cards in `playable` (card codes the seat may play now) are raised with a gold outline and
    the rest dimmed; with nothing playable every card is shown plain.
    """
    img = compose_hand(view, names=names, lang=lang, size=size, playable=playable)
    return encode(img.quantize(palette=palette(size, True), dither=Image.Dither.NONE))
