"""The toolkit's pieces for every picture: the cell board, the table, hand strips, score sheets, dice."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

from core.cards import deck36, deck78
from core.games.grid import Cell
from render import board, table
from render.board import Board, CellLook, Style, Token
from render.dice import PIPS, die
from render.encode import build_palette, encode, to_palette
from render.hand import MAX_ROWS, MIN_SHOWN_X, draw_hand, layout_hand
from render.score_sheet import score_sheet
from render.seats import (
    COMPUTER_MARK,
    SeatMark,
    draw_pieces,
    fit_pieces,
    named,
    pieces_width,
    player_name,
    robots,
    seat_colour,
    seat_token,
)
from render.stamp import BAND_LEAST, BAND_SHARE, stamped
from render.text import fit_names, width_of, wrap

#: A Tarot-grid-like field: an oval of 7 rows with a hole in the middle.
OVAL: tuple[Cell, ...] = tuple(
    (row, col)
    for row, (first, last) in enumerate(((2, 10), (1, 11), (0, 12), (0, 12), (0, 12), (1, 11), (2, 10)))
    for col in range(first, last + 1)
)
TAROT = Style(
    felt_centre=(44, 124, 78),
    felt_edge=(18, 70, 42),
    header=(12, 48, 30),
    label=(196, 226, 204),
    back=(44, 34, 92),
    glow=(255, 226, 92),
    mark=(255, 196, 0),
    dim=60,
    deck="tarot",
    vacancies=True,
)


def differ(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ noticeably."""
    diff = (
        ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
        .convert("L")
        .point(lambda v: 255 if v > 24 else 0)
    )
    return diff.histogram()[255]


def oval_looks() -> tuple[CellLook, ...]:
    cards = deck78()
    looks = []
    for i, cell in enumerate(OVAL):
        if cell == (3, 6):
            looks.append(CellLook("hole"))
        elif i % 7 == 0:
            looks.append(CellLook("empty"))
        elif i % 7 == 1:
            looks.append(CellLook("covered", cards[i % 78], cover=("T17", "T8")))
        elif i % 3 == 0:
            looks.append(CellLook("open", cards[i % 78], ring=i == 3))
        else:
            looks.append(CellLook(glow=i % 5 == 0, badge="A1" if i % 5 == 0 else None, dimmed=i % 5 == 2))
    looks[10] = looks[10]._replace(tokens=tuple(Token(seat, str(seat + 1)) for seat in range(9)))
    return tuple(looks)


@pytest.fixture(scope="module")
def oval_board() -> Board:
    geo = board.geometry(OVAL, 1000)
    img = board.background(OVAL, 1000, TAROT).copy()
    board.draw_cells(img, tuple(zip(OVAL, oval_looks(), strict=True)), geo, TAROT, "ru")
    return Board.create(OVAL, 1000, TAROT, "ru", build_palette(img, 96))


# ----- the cell board ----------------------------------------------------------------------------


def test_a_board_of_any_layout_is_the_same_from_tiles_as_drawn_whole(oval_board: Board) -> None:
    looks = oval_looks()
    whole = board.background(OVAL, 1000, TAROT).copy()
    board.draw_cells(whole, tuple(zip(OVAL, looks, strict=True)), oval_board.geo, TAROT, "ru")
    tiled = oval_board.compose(looks)
    assert max(tiled.size) == 1000
    assert tiled.tobytes() == to_palette(whole, oval_board.palette).tobytes()


def test_every_cell_state_looks_different(oval_board: Board) -> None:
    geo = oval_board.geo
    cell = OVAL[20]
    x, y = geo.cell_xy(cell)
    box = (x, y, x + geo.card_w, y + geo.card_h)
    states = [
        CellLook("closed"),
        CellLook("closed", dimmed=True),
        CellLook("open", "T0"),
        CellLook("covered", "T0", cover=("T17",)),
        CellLook("covered", "T0", cover=("T17", "T8")),
        CellLook("empty"),
        CellLook("hole"),
        CellLook("empty", label="Start"),
    ]
    crops = []
    base = oval_looks()
    for look in states:
        img = oval_board.compose(tuple(look if c == cell else base[i] for i, c in enumerate(OVAL)))
        crops.append(img.convert("RGB").crop(box))
    for a, b in itertools.combinations(crops, 2):
        assert differ(a, b) > 40


def test_many_tokens_share_a_cell_in_their_colours_and_stay_on_it(oval_board: Board) -> None:
    geo = oval_board.geo
    tokens = tuple(Token(seat % 6, str(seat + 1)) for seat in range(9))
    spots = board.token_spots(tokens, geo.card_w, geo.card_h)
    assert len(spots) == 9
    for disc, dx, dy in spots:
        assert dx >= 0 and dx + disc.width <= geo.card_w and dy >= 0 and dy + disc.height <= geo.card_h
    assert len({(dx, dy) for _, dx, dy in spots}) == 9
    looks = oval_looks()
    img = oval_board.compose(looks).convert("RGB")
    x, y = geo.cell_xy(OVAL[10])
    crop = img.crop((x, y, x + geo.card_w, y + geo.card_h))
    for seat in range(6):
        colour = seat_colour(seat)
        near = sum(
            1
            for p in crop.get_flattened_data()
            if isinstance(p, tuple) and sum(abs(p[k] - colour[k]) for k in range(3)) < 50
        )
        assert near > 20, seat


# ----- the table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("strip", [0, 300])
def test_seats_sit_clockwise_around_the_centre_without_overlapping(seats: int, strip: int) -> None:
    geo = table.geometry(1000, seats, strip)
    pw, ph = geo.plate
    boxes = [(x, y, x + pw, y + ph) for x, y in geo.seats]
    for x0, y0, x1, y1 in boxes:
        assert x0 >= 0 and x1 <= geo.width and geo.header <= y0 and y1 <= geo.table
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    # Position 0 is at the bottom middle; the next one is to its left (clockwise, RULES.md 0.3).
    assert geo.plate_centre(0)[1] == max(geo.plate_centre(p)[1] for p in range(seats))
    if seats > 2:
        assert geo.plate_centre(1)[0] < geo.plate_centre(0)[0]


def test_a_trick_tags_each_card_with_its_player() -> None:
    geo = table.geometry(1000, 3)
    names = ("Алиса", "Борис", "Вера")
    plain = table.background(1000).copy()
    table.draw_seats(plain, geo, [table.SeatLook(seat, names[seat], 5) for seat in range(3)])
    played = plain.copy()
    table.draw_trick(played, geo, [(0, "T21"), (1, "QC"), (2, "5S")], names, "ru", deck="tarot")
    left, top, right, bottom = geo.centre
    assert differ(plain.crop(geo.centre), played.crop(geo.centre)) > 0.1 * (right - left) * (bottom - top)
    outside = Image.new("L", plain.size, 255)
    outside.paste(0, geo.centre)
    diff = ImageChops.difference(plain, played).convert("L").point(lambda v: 255 if v > 24 else 0)
    assert ImageChops.multiply(diff, outside).getbbox() is None  # everything stays in the centre
    for seat in range(3):
        tag = table.name_tag(names[seat], seat, geo.px(15), geo.card[0] * 1.6)
        pixel = tag.getpixel((tag.width // 2, 1))
        assert isinstance(pixel, tuple) and pixel[:3] == seat_colour(seat)


# ----- hand strips -------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "deck"), [(1, "french"), (6, "french"), (24, "french"), (39, "tarot")])
def test_a_hand_fits_its_box_with_every_index_visible(count: int, deck: str) -> None:
    cards = (deck36() if deck == "french" else deck78())[:count]
    box = (24, 756, 976, 984)
    layout = layout_hand(cards, box, 136)
    assert [spot.card for spot in layout.spots] == list(cards)
    for spot in layout.spots:
        assert box[0] <= spot.x and spot.x + layout.card_w <= box[2]
        assert box[1] <= spot.y - layout.rise and spot.y + layout.card_h <= box[3]
    rows = sorted({spot.y for spot in layout.spots})
    assert len(rows) <= MAX_ROWS
    for y in rows:
        xs = [spot.x for spot in layout.spots if spot.y == y]
        assert all(b - a >= MIN_SHOWN_X * layout.card_w for a, b in itertools.pairwise(xs))
    assert all(b - a >= 0.5 * layout.card_h for a, b in itertools.pairwise(rows))


def test_suits_are_grouped_with_a_wider_gap() -> None:
    hand = ("6S", "7S", "8S", "6H", "7H")
    spots = layout_hand(hand, (0, 0, 1000, 300), 120).spots
    steps = [b.x - a.x for a, b in itertools.pairwise(spots)]
    assert steps[2] > steps[0] == steps[1] == steps[3]


def test_a_long_tarot_hand_wraps_to_rows() -> None:
    layout = layout_hand(deck78()[:39], (24, 600, 976, 984), 136)
    assert len({spot.y for spot in layout.spots}) >= 2


def test_playable_cards_are_raised_and_the_others_dimmed() -> None:
    hand = ("6S", "7S", "8H")
    box = (0, 0, 600, 300)
    plain = Image.new("RGB", (600, 300), (20, 34, 28))
    lit = plain.copy()
    layout = draw_hand(lit, box, hand, lang="en", playable=("7S",))
    dark = plain.copy()
    draw_hand(dark, box, hand, lang="en")
    raised = next(spot for spot in layout.spots if spot.card == "7S")
    assert layout.rise > 0
    above = (raised.x, raised.y - layout.rise, raised.x + layout.card_w, raised.y)
    assert differ(lit.crop(above), dark.crop(above)) > 0.3 * layout.card_w * layout.rise
    dimmed = layout.spots[-1]
    face_box = (dimmed.x, dimmed.y, dimmed.x + layout.card_w, dimmed.y + layout.card_h)

    def brightness(img: Image.Image) -> float:
        histogram = img.convert("L").histogram()
        return sum(v * n for v, n in enumerate(histogram)) / sum(histogram)

    assert brightness(lit.crop(face_box)) + 20 < brightness(dark.crop(face_box))


# ----- score sheets and dice ---------------------------------------------------------------------


def test_a_score_sheet_grows_with_the_deals_and_shows_the_totals() -> None:
    names = ("Алиса", "Борис", "Вера")
    two = score_sheet(names, [(10, 0, -5), (3, 7, 20)], lang="ru", width=600, goal=100)
    three = score_sheet(names, [(10, 0, -5), (3, 7, 20), (1, 1, 1)], lang="ru", width=600, goal=100)
    assert two.width == three.width == 600 and three.height > two.height
    other = score_sheet(names, [(10, 0, -5), (3, 8, 20)], lang="ru", width=600, goal=100)
    assert differ(two, other) > 0
    # A long match keeps its height: the first deal, "…", and the latest deals.
    long = [score_sheet(names, [(1, 2, 3)] * n, lang="en", width=600, rows=6) for n in (6, 7, 30)]
    assert long[0].height == long[1].height == long[2].height


def test_six_die_faces_with_their_pips() -> None:
    faces = [die(n, 60) for n in range(1, 7)]
    assert len({f.tobytes() for f in faces}) == 6
    assert [len(PIPS[n]) for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    # More pips, more dark ink.
    ink = [
        sum(1 for p in f.get_flattened_data() if isinstance(p, tuple) and p[3] == 255 and sum(p[:3]) < 200)
        for f in faces[1:]
    ]
    assert ink == sorted(ink) and len(set(ink)) == 5
    with pytest.raises(ValueError):
        die(7, 60)


def test_a_stopped_picture_is_stamped_across_its_top_and_left_alone_below() -> None:
    picture = Image.new("RGB", (600, 400), (250, 250, 240))
    out = Image.open(io.BytesIO(stamped(encode(picture), "The game was stopped."))).convert("RGB")
    band = max(BAND_LEAST, round(400 * BAND_SHARE))
    assert out.size == picture.size
    # The band is dark from edge to edge, with light letters along its middle.

    def rgb(x: int, y: int) -> tuple[int, ...]:
        pixel = out.getpixel((x, y))
        assert isinstance(pixel, tuple)
        return pixel

    for x in (2, 597):
        assert max(rgb(x, 2)) < 60 and max(rgb(x, band - 2)) < 60
    assert any(min(rgb(x, band // 2)) > 200 for x in range(600))
    # Below it the picture is as it was.
    below = out.crop((0, band + 1, 600, 400))
    assert not ImageChops.difference(below, picture.crop((0, band + 1, 600, 400))).getbbox()


def test_a_computers_seat_is_a_robots_head_wherever_its_token_is_drawn() -> None:
    """The names a picture gets mark a computer's seat (its font has no emoji): its token is a head
    with an antenna, in the same box as a person's disc, so the lines of text keep their layout."""
    disc, head = (seat_token(1, 40, robot=robot).getchannel("A") for robot in (False, True))
    assert disc.size == head.size
    pad = (disc.width - 40) // 2
    # A square head fills the corners of its face, where a disc has at most its shadow ...
    corner = (pad + 6, pad + 36)
    assert head.getpixel(corner) == 255 and disc.getpixel(corner) < 255  # type: ignore[operator]
    # ... and the antenna stands where the disc's top is still empty.
    assert head.crop((head.width // 2 - 1, pad, head.width // 2 + 2, pad + 6)).getbbox() is not None
    assert disc.getpixel((disc.width // 2 + 12, pad + 2)) == 0
    names = ("Alice", COMPUTER_MARK + "Fox")
    assert robots(names) == {1} and player_name(1, names, "en") == "Fox"
    assert named(0, names, "en") == [SeatMark(0, robot=False), "Alice"]
    assert named(1, names, "en") == [SeatMark(1, robot=True), "Fox"]
    # A plate and a line of pieces draw the head for the computer's seat.
    person, computer = (table.plate(table.SeatLook(1, "Fox", robot=robot), 1000) for robot in (False, True))
    assert ImageChops.difference(person.convert("RGB"), computer.convert("RGB")).getbbox() is not None
    # On a board, the computer's tokens are heads too.
    person_spots, robot_spots = (
        board.token_spots((Token(1, "1", robot=robot),), 200, 280) for robot in (False, True)
    )
    for spots, robot in ((person_spots, False), (robot_spots, True)):
        assert spots[0][0].tobytes() == seat_token(1, 100, "1", robot=robot).tobytes()  # half a card wide
    line = Image.new("RGBA", (300, 60))
    end = draw_pieces(line, 0, 30, named(1, names, "en"), 30, (255, 255, 255), 300)
    assert end == pytest.approx(pieces_width(named(1, names, "en"), 30), abs=1)
    assert line.crop((0, 0, head.width, 60)).getbbox() is not None


def test_a_line_too_long_cuts_its_longest_name_and_keeps_what_it_says() -> None:
    def asks(name: str, other: str) -> str:
        return f"{name} asks {other} for a Tarot Trump"

    names = ("Maximilian Alexander von Habsburg", "Bob")
    room = width_of(asks("Maximilian", "Bob"), 24) + 1
    cut = fit_names(asks, names, 24, room)
    assert cut.endswith("… asks Bob for a Tarot Trump") and cut.startswith("Maximil")
    assert "…" in cut and width_of(cut, 24) <= room
    # What fits stays whole; when even three letters of each name are too long, the end is cut.
    assert fit_names(asks, ("Al", "Bob"), 24, 1000) == "Al asks Bob for a Tarot Trump"
    tight = fit_names(asks, names, 24, width_of("Max… asks Bob", 24))
    assert tight.startswith("Max…") and tight.endswith("…") and "Trump" not in tight


def test_a_line_of_seats_cuts_its_longest_names_so_that_every_seat_keeps_its_place() -> None:
    names = ("Александр Сергеевич Пушкин", "Борис", "Maximilian Alexander Habsburg", "Глеб Глебович")
    legend = [
        piece for seat in range(4) for piece in (*(["    "] if seat else []), *named(seat, names, "ru"))
    ]
    fitted = fit_pieces(legend, 20, 700)
    assert pieces_width(fitted, 20) <= 700
    assert [p for p in fitted if not isinstance(p, str)] == [p for p in legend if not isinstance(p, str)]
    shown = [p for p in fitted if isinstance(p, str) and p.strip()]
    # The two longest names are cut (to the length of the next), the shorter ones stay whole.
    assert shown == ["Александр Се…", "Борис", "Maximilian Al…", "Глеб Глебович"]
    # What a line says of a seat stays whole: its name is cut instead.
    status = ["Ход: ", *named(0, names, "ru"), " — фишка 1: 1, 2, 3 или 4 шага"]
    fitted = fit_pieces(status, 24, 500)
    assert fitted[-1] == status[-1] and str(fitted[2]).startswith("Але") and str(fitted[2]).endswith("…")


def test_a_long_name_ends_before_the_mark_in_its_plates_corner() -> None:
    """The fool's cap sits in the plate's corner: a long name is cut before it, a short one stays
    in the middle."""

    def drawn(name: str) -> Image.Image:
        return table.plate(table.SeatLook(0, name, 10, mark="fool"), 1000)

    corner = table.MARKS["fool"](56)
    box = (drawn("x").width - corner.width, 0, drawn("x").width, corner.height)
    first, second = drawn("Александр Сергеевич Пушкин"), drawn("Борислав Сергеевич Пушкин")
    assert ImageChops.difference(first.crop(box), second.crop(box)).getbbox() is None
    assert ImageChops.difference(first, second).getbbox() is not None
    assert ImageChops.difference(drawn("Алиса"), table.plate(table.SeatLook(0, "Алиса", 10), 1000)).getbbox()


def test_a_line_wraps_at_spaces_only_so_a_place_keeps_its_name() -> None:
    text = "Вышли: 1.\u00a0Maximilian Alexander Habsburg, 2.\u00a0Дина Дмитриевна Денисова"
    lines = wrap(text, 21, width_of("Вышли: 1. Maximilian Alexander Habsburg, 2.", 21, bold=False), 2)
    assert lines == ["Вышли: 1.\u00a0Maximilian Alexander Habsburg,", "2.\u00a0Дина Дмитриевна Денисова"]
