"""render/race.py: the race track picture, checked on real pixels of real game views."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from core.ai.random_player import RandomPlayer
from core.engine import CHANCE, Event, resolve_chance
from core.games.race import RaceGame, RaceState, RaceView
from core.games.race_events import Burned, Opened
from core.games.race_rules import Phase
from core.games.race_track import CARDS, FINISH, START
from core.play import play
from render import cards, race, seats
from render.race import (
    BOOST,
    BURNED,
    ROW,
    coins_text,
    destinations,
    dice_looks,
    disc_spots,
    geometry,
    render_race,
    snake,
)
from render.seats import seat_colour
from tests.test_race_rules import chance, track

GAME = RaceGame()
NAMES = ("Алиса", "🤖 Борис", "Вера")
#: A turn picture stays under this on a phone's data plan (measured: ~75 KB, 80 KB at most).
BUDGET = 100 * 1024


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def public(state: RaceState) -> RaceView:
    view = GAME.view(state, None)
    assert isinstance(view, RaceView)
    return view


def turns(players: int, seed: int) -> Iterator[tuple[RaceState, list[Event]]]:
    """Every state of a seeded random game where a person would look, with the events since the
    previous one (as a caption tells them)."""
    recent: list[Event] = []
    for turn in play(GAME, [RandomPlayer()] * players, random.Random(seed)):
        recent += turn.step.events
        state = turn.step.state
        assert isinstance(state, RaceState)
        if GAME.to_move(state) != (CHANCE,):
            yield state, recent
            recent = []


@pytest.fixture(scope="module")
def mid() -> tuple[RaceState, list[Event]]:
    """A move with open and closed cards, tokens out on the track and still at the Start."""
    for state, recent in turns(3, 4):
        view = public(state)
        on_track = [here for tokens in view.tokens for here in tokens if START < here < FINISH]
        if (
            view.phase is Phase.MOVE
            and len(on_track) >= 4
            and view.tokens[0].count(START)
            and len(view.left) == 2
        ):
            return state, recent
    raise AssertionError("no such turn")


def cell_crop(img: Image.Image, position: int) -> Image.Image:
    geo = geometry(img.width)
    x, y = geo.cells[position - 1]
    return img.crop((x, y, x + geo.card[0], y + geo.card[1]))


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def share(img: Image.Image, colour: tuple[int, int, int]) -> float:
    data = [p for p in img.get_flattened_data() if isinstance(p, tuple)]
    return sum(near(p, colour) for p in data) / len(data)


# ----- the layout --------------------------------------------------------------------------------


def test_the_track_is_a_snake_of_four_rows_of_nine() -> None:
    cells = snake(CARDS, ROW)
    assert [cells.count(cell) for cell in cells] == [1] * CARDS
    assert [row for row, _ in cells] == [p // ROW for p in range(CARDS)]
    # Each card touches the next: along a row, or down at the row's end.
    for (r1, c1), (r2, c2) in itertools.pairwise(cells):
        assert abs(r1 - r2) + abs(c1 - c2) == 1
    assert cells[0] == (0, 0) and cells[ROW] == (1, ROW - 1)


@pytest.mark.parametrize("size", [1000, 640])
def test_every_card_lies_inside_the_picture_without_overlapping(size: int) -> None:
    geo = geometry(size)
    cw, ch = geo.card
    boxes = [(x, y, x + cw, y + ch) for x, y in geo.cells]
    assert all(
        x0 >= 0 and x1 <= geo.width and geo.header < y0 and y1 < geo.footer for x0, y0, x1, y1 in boxes
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert geo.start[3] <= geo.header and geo.finish[1] >= geo.footer and geo.finish[3] <= geo.height


@pytest.mark.parametrize("count", range(1, 10))
def test_tokens_on_one_card_stay_on_it_and_apart(count: int) -> None:
    """Up to nine tokens share a card; "1" beside "3" must never read "13"."""
    cw, ch = geometry(1000).card
    spots = disc_spots(count, cw, ch)
    for x, y, diameter in spots:
        assert diameter / 2 <= x <= cw - diameter / 2 and diameter / 2 <= y <= ch - diameter / 2
    for i, (x1, y1, d) in enumerate(spots):
        for x2, y2, _ in spots[i + 1 :]:
            assert (x1 - x2) ** 2 + (y1 - y2) ** 2 >= d**2


# ----- the picture -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2)])
def test_every_view_of_seeded_games_renders_within_the_budget(players: int, seed: int) -> None:
    sizes = []
    for number, (state, recent) in enumerate(turns(players, seed)):
        lang = ("ru", "en")[number % 2]
        data = render_race(public(state), names=NAMES[:players], lang=lang, recent=recent)
        sizes.append(len(data))
    assert sizes and max(sizes) <= BUDGET
    assert public(state).outcome is not None  # the last view is the finished game
    img = decode(data)
    assert img.size == (1000, geometry(1000).height)


@pytest.mark.parametrize("size", [1000, 640])
def test_the_width_is_the_size_and_the_picture_is_landscape(
    mid: tuple[RaceState, list[Event]], size: int
) -> None:
    img = decode(render_race(public(mid[0]), names=NAMES, size=size))
    assert img.width == size and size * 0.8 < img.height < size


def test_deterministic_even_with_cold_caches(mid: tuple[RaceState, list[Event]]) -> None:
    view, recent = public(mid[0]), mid[1]
    first = render_race(view, names=NAMES, recent=recent)
    assert render_race(view, names=NAMES, recent=recent) == first
    for cached in (
        cards.card_face,
        cards.card_back,
        seats.token_disc,
        race.background,
        race.palette,
        race.move_badge,
        race.die_sprite,
    ):
        cached.cache_clear()
    assert render_race(view, names=NAMES, recent=recent) == first


def test_a_closed_card_never_shows_its_face(mid: tuple[RaceState, list[Event]]) -> None:
    """The same view with other cards under the closed backs gives the same bytes."""
    state, recent = mid
    first = render_race(public(state), names=NAMES, recent=recent)
    rng = random.Random(9)
    decks = set()
    for _ in range(5):
        other = GAME.shuffle_hidden(state, None, rng)
        decks.add(other.deck)
        assert render_race(public(other), names=NAMES, recent=recent) == first
    assert len(decks) > 1  # the hidden cards did differ


def test_open_cards_show_their_faces_and_closed_ones_their_backs(mid: tuple[RaceState, list[Event]]) -> None:
    view = public(mid[0])
    img = decode(render_race(view, names=NAMES))
    for position, card in enumerate(view.faces, start=1):
        crop = cell_crop(img, position)
        backs = share(crop, cards.BACK_RED)
        if card is None:
            assert backs > 0.25, position
        else:
            assert backs < 0.05 and share(crop, cards.PAPER) > 0.3, position


def test_tokens_are_drawn_in_their_seat_colours_on_their_cards(mid: tuple[RaceState, list[Event]]) -> None:
    view = public(mid[0])
    img = decode(render_race(view, names=NAMES))
    # (A card a choice lands on shows the mover's colour in its badge anyway.)
    badged = {(view.turn, position) for position in destinations(view)}
    checked = 0
    for seat, tokens in enumerate(view.tokens):
        for here in tokens:
            if START < here < FINISH and (seat, here) not in badged:
                assert share(cell_crop(img, here), seat_colour(seat)) > 0.02, (seat, here)
                checked += 1
    assert checked >= 3
    geo = geometry(1000)
    start = img.crop(geo.start)
    for seat in range(view.players):
        assert (share(start, seat_colour(seat)) > 0.005) == (START in view.tokens[seat])


def test_the_cards_a_choice_lands_on_are_marked(mid: tuple[RaceState, list[Event]]) -> None:
    """Every (die, token) the buttons offer has a badge on the card it leads to, and only those."""
    view = public(mid[0])
    targets = destinations(view)
    assert targets
    marked = decode(render_race(view, names=NAMES))
    plain = decode(render_race(view.model_copy(update={"phase": Phase.ROLL}), names=NAMES))
    for position in range(1, CARDS + 1):
        # Inside the card: a neighbour's glow may reach over its edge.
        inside = (6, 6, geometry(1000).card[0] - 6, geometry(1000).card[1] - 6)
        difference = ImageChops.difference(cell_crop(marked, position), cell_crop(plain, position))
        assert (difference.crop(inside).getbbox() is not None) == (position in targets), position


def test_a_burned_die_is_crossed_out() -> None:
    """E3.4: the last token lands on Hearts with the 2, so the 5 burns; the acceleration die shows."""
    state = track({32: "JH", 35: "8C"}, tokens=((37, 37, 30), (0, 0, 0)))
    state, _ = chance(state, 2, 5)
    step = GAME.apply(state, 0, "2.2")
    state, events = step.state, list(step.events)
    assert any(isinstance(event, Burned) for event in events)
    view = public(state)
    assert dice_looks(view, events) == [(2, "used"), (5, "burned")]
    img = decode(render_race(view, names=NAMES, recent=events))
    header = img.crop((0, 0, img.width, geometry(1000).header))
    assert share(header, BURNED) > 0.001
    boosted, boost_events = chance(state, 4)
    assert public(boosted).boost == 4
    with_boost = decode(render_race(public(boosted), names=NAMES, recent=events + boost_events))
    header_box = (0, 0, img.width, geometry(1000).header)
    assert share(with_boost.crop(header_box), BOOST) > share(img.crop(header_box), BOOST) + 0.001


def test_the_card_just_opened_is_ringed_in_the_openers_colour() -> None:
    state = track({3: "9C"}, tokens=((0, 0, 0), (0, 0, 0)))
    state, _ = chance(state, 3, 4)
    step = GAME.apply(state, 0, "3.0")
    opened = [event for event in step.events if isinstance(event, Opened)]
    assert [event.position for event in opened] == [3]
    view = public(step.state)
    ringed = decode(render_race(view, names=NAMES, recent=step.events))
    quiet = decode(render_race(view, names=NAMES))
    assert share(cell_crop(ringed, 3), seat_colour(0)) > share(cell_crop(quiet, 3), seat_colour(0))


def test_coins_take_russian_plurals() -> None:
    assert [coins_text(n, "ru") for n in (1, 3, 5, 21)] == ["1 монета", "3 монеты", "5 монет", "21 монета"]
    assert coins_text(1, "en") == "1 coin" and coins_text(2, "en") == "2 coins"


def test_the_first_view_before_the_deal_renders() -> None:
    view = public(GAME.new(2))
    assert view.turn is None and all(face is None for face in view.faces)
    assert decode(render_race(view, names=NAMES[:2], lang="en")).width == 1000
    dealt, _ = resolve_chance(GAME, GAME.new(3), random.Random(1))
    assert public(dealt).turn is not None
