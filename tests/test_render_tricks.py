"""render/tricks.py: the table and the panel of the Tarot trick games, on real pixels of real views."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from core.ai.random_player import RandomPlayer
from core.engine import Outcome
from core.games.tarot import TarotState
from core.play import play
from core.registry import GAMES
from core.trickgame import DISCARD, NEXT_HAND, OVER, PLAY, TrickState, TrickView
from i18n import t
from render.hand import MIN_SHOWN_X, layout_hand
from render.score_sheet import PAPER
from render.table import draw_trick
from render.text import width_of
from render.tricks import (
    CENTRE_PX,
    HAND_CARD_W,
    above_and_below,
    centre_room,
    compose_panel,
    compose_table,
    geometry,
    hand_rows,
    render_trick_panel,
    render_trick_table,
    result_line,
    row_boxes,
)

NAMES = ("Алиса", "🤖 Борис", "Вера", "Глеб", "Дина", "Егор")
#: A turn picture stays under this on a phone's data plan (measured: about 40-65 KB).
BUDGET = 100 * 1024
GAME_IDS = ("tarot", "minor_arcana")


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def changed(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    """How many pixels (within `box`) differ noticeably."""
    if box is not None:
        a, b = a.crop(box), b.crop(box)
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255]


def states(game_id: str, players: int, seed: int) -> Iterator[TrickState]:
    """Every state of a seeded random game, chance included (Game 5: one hand)."""
    game = GAMES[game_id]
    options = {"length": "hand"} if game_id == "minor_arcana" else None
    for turn in play(game, [RandomPlayer()] * players, random.Random(seed), options):
        state = turn.step.state
        assert isinstance(state, TrickState)
        yield state


def first(game_id: str, players: int, wanted: str, seed: int = 1) -> TrickState:
    """The first state of a seeded game in phase `wanted` ("marks": a discard with a card marked)."""
    for state in states(game_id, players, seed):
        if wanted == "marks" and state.phase == DISCARD and state.marks:
            return state
        if state.phase == wanted and (wanted != PLAY or state.trick):
            return state
    raise AssertionError(f"{game_id}: no {wanted} state")


def public(state: TrickState) -> TrickView:
    view = GAMES[state.game].view(state, None)
    assert isinstance(view, TrickView)
    return view


def own(state: TrickState, seat: int) -> TrickView:
    view = GAMES[state.game].view(state, seat)
    assert isinstance(view, TrickView)
    return view


def playable(state: TrickState, seat: int) -> tuple[str, ...]:
    return tuple(
        action.split(".", 1)[1] for action in GAMES[state.game].legal_actions(state, seat) if "." in action
    )


# ----- sizes, budget, determinism ----------------------------------------------------------------


@pytest.mark.parametrize("size", [1000, 640])
def test_sizes(size: int) -> None:
    state = first("tarot", 3, PLAY)
    assert decode(render_trick_table(public(state), names=NAMES, size=size)).size == (size, size * 3 // 4)
    assert decode(render_trick_panel(own(state, 0), names=NAMES, size=size)).size == (size, size)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_seat_count_fits_the_budget_and_draws_the_same_twice(game_id: str) -> None:
    game = GAMES[game_id]
    for players in range(game.min_players, game.max_players + 1):
        for number, state in enumerate(states(game_id, players, players)):
            if number % 40:
                continue
            table = render_trick_table(public(state), names=NAMES)
            seat = number % players
            panel = render_trick_panel(own(state, seat), names=NAMES, playable=playable(state, seat))
            assert len(table) <= BUDGET and len(panel) <= BUDGET
            assert render_trick_table(public(state), names=NAMES) == table
            assert render_trick_panel(own(state, seat), names=NAMES, playable=playable(state, seat)) == panel


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_full_trick_leaves_every_plate_uncovered(game_id: str) -> None:
    """Each card of a trick lies towards its player, but never on a plate (with three, five or six
    seats the side plates reach into the middle of the table)."""
    game = GAMES[game_id]
    for players in range(game.min_players, game.max_players + 1):
        view = public(first(game_id, players, PLAY))
        cards = [card for _, card in view.trick] * players
        full = view.model_copy(update={"trick": tuple(zip(range(players), cards, strict=False))})
        empty = view.model_copy(update={"trick": ()})
        with_trick = decode(render_trick_table(full, names=NAMES))
        without = decode(render_trick_table(empty, names=NAMES))
        geo = geometry(1000, players, panel=False)
        for x, y in geo.seats:
            plate = (x, y, x + geo.plate[0], y + geo.plate[1])
            assert changed(with_trick, without, plate) == 0, (players, plate)
        assert changed(with_trick, without) > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_winner_of_the_last_trick_is_named_clear_of_its_cards(game_id: str) -> None:
    """Between tricks the trick just won stays on the table with a line saying who took it: at
    every seat count that line covers no card (a card lies at the top of an even table), however
    long the winner's name."""
    game = GAMES[game_id]
    for players in range(game.min_players, game.max_players + 1):
        state = next(
            s for s in states(game_id, players, players) if s.phase == PLAY and not s.trick and s.tricks
        )
        view = public(state)
        last = view.last_trick
        assert last is not None
        renamed = list(NAMES[:players])
        renamed[last.winner] = "Ёжик " * 12
        short = compose_table(view, names=NAMES)
        long = compose_table(view, names=renamed)
        geo = geometry(1000, players, panel=False)
        scratch = Image.new("RGB", (geo.width, geo.height))
        cards = draw_trick(scratch, geo, last.plays, list(NAMES[:players]), "ru", deck="tarot")
        assert len(cards) == players
        for left, top, right, bottom in cards:
            face = (left, top, right, (top + bottom) // 2)  # above its name tag, which names the winner
            assert changed(short, long, face) == 0, (players, face)
        assert changed(short, long) > 0


# ----- hidden information ------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), [("tarot", 2), ("tarot", 3), ("minor_arcana", 4)])
def test_the_public_table_shows_nothing_hidden(game_id: str, players: int) -> None:
    """The hidden cards dealt again make the same public picture, and a seat's own view (its hand,
    marks, discards) draws the same table as the public one."""
    game = GAMES[game_id]
    rng = random.Random(7)
    checked = 0
    for number, state in enumerate(states(game_id, players, 11)):
        if number % 10 or state.phase == "deal":
            continue
        picture = render_trick_table(public(state), names=NAMES)
        shuffled = game.shuffle_hidden(state, None, rng)
        assert isinstance(shuffled, TrickState)
        if shuffled.hands != state.hands:
            assert render_trick_table(public(shuffled), names=NAMES) == picture
            checked += 1
        assert render_trick_table(own(state, state.dealer), names=NAMES) == picture
    assert checked >= 5


def test_the_dealers_marks_lie_in_the_centre_of_the_dealers_panel_only() -> None:
    state = first("minor_arcana", 4, "marks")
    dealer = state.dealer
    view = own(state, dealer)
    marked = compose_panel(view, names=NAMES)
    unmarked = compose_panel(view.model_copy(update={"marks": ()}), names=NAMES)
    geo = geometry(1000, 4, True)
    assert changed(marked, unmarked, geo.centre) > 2000
    # Another seat's panel knows of no mark.
    other = (dealer + 1) % 4
    assert own(state, other).marks == ()


# ----- the hand ------------------------------------------------------------------------------------


def test_thirty_nine_cards_wrap_in_rows_by_suit_with_every_card_readable() -> None:
    """The 2-player Minor Arcana hand: the suits, then the trumps, each card's corner visible."""
    state = next(s for s in states("minor_arcana", 2, 3) if s.phase == PLAY)
    view = own(state, 0)
    assert view.hand is not None and len(view.hand) == 39
    rows = hand_rows(view.hand)
    assert [card for row in rows for card in row] == list(view.hand)  # the engine's order kept
    assert all(card.startswith("T") for card in rows[-1]) and not any(c.startswith("T") for c in rows[0])
    geo = geometry(1000, 2, True)
    for row, box in zip(rows, row_boxes(geo, len(rows)), strict=True):
        layout = layout_hand(row, box, geo.px(HAND_CARD_W))
        assert len(layout.spots) == len(row)
        for spot in layout.spots:
            assert box[0] <= spot.x and spot.x + layout.card_w <= box[2]
            assert box[1] <= spot.y - layout.rise and spot.y + layout.card_h <= box[3]
        by_row: dict[int, list[int]] = {}
        for spot in layout.spots:
            by_row.setdefault(spot.y, []).append(spot.x)
        for xs in by_row.values():
            assert all(b - a >= MIN_SHOWN_X * layout.card_w - 1 for a, b in itertools.pairwise(xs))


def test_the_cards_one_may_choose_are_raised_on_the_panel_only() -> None:
    state = first("tarot", 3, PLAY)
    seat = state.hands.index(max(state.hands, key=len))
    view = own(state, seat)
    assert view.hand is not None
    one, other = view.hand[0], view.hand[-1]
    a = compose_panel(view, names=NAMES, playable=(one,))
    b = compose_panel(view, names=NAMES, playable=(other,))
    geo = geometry(1000, 3, True)
    assert changed(a, b, (0, geo.table, geo.width, geo.height)) > 1000
    assert changed(a, b, (0, 0, geo.width, geo.table)) == 0


# ----- between deals and at the end ---------------------------------------------------------------


@pytest.mark.parametrize("phase", [NEXT_HAND, OVER])
def test_the_score_sheet_between_deals_and_at_the_end(phase: str) -> None:
    state = first("tarot", 3, phase)
    img = compose_table(public(state), names=NAMES)
    geo = geometry(1000, 3, False)
    paper = sum(
        1
        for x in range(200, 800, 10)
        for y in range(geo.header + 100, geo.table - 100, 10)
        if img.getpixel((x, y)) == PAPER
    )
    assert paper > 300
    if phase == OVER:
        assert public(state).outcome is not None


@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_score_sheet_names_every_seat_whole(players: int) -> None:
    """Six columns of names take the felt's whole width, in smaller type where need be: a name of
    five letters is drawn whole (a longer one is cut, so it draws differently)."""
    state = first("minor_arcana", players, OVER)
    names = list(NAMES[:players])
    for seat in range(players):
        longer = [*names[:seat], names[seat] + "ааааааа", *names[seat + 1 :]]
        assert changed(
            compose_table(public(state), names=names), compose_table(public(state), names=longer)
        ), seat


def test_the_result_cuts_the_winners_names_not_the_verb() -> None:
    over = public(first("minor_arcana", 3, OVER))
    shared = over.model_copy(update={"outcome": Outcome(winners=(0, 1))})
    long = ("Александр Сергеевич Пушкин", "Maximilian Alexander Habsburg", "Глеб")
    line = result_line(shared, long, "ru", 26, 600)
    assert line is not None and line.endswith("… побеждают") and width_of(line, 26) <= 600
    assert result_line(shared, NAMES, "ru", 26, 600) == "Алиса, Борис побеждают"


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("panel", [False, True])
def test_an_ask_is_told_whole_above_its_cards(players: int, panel: bool) -> None:
    """The line over an ask's cards passes under the side plates of three seats, so it is set
    whole and at full size, on the table and on a panel."""
    geo = geometry(1000, players, panel=panel)
    text_y, _ = above_and_below(geo)
    text = t("ru", "{name} asks {other} for a Tarot Trump", name="Алиса", other="Борис")
    assert text == "Алиса спрашивает у игрока Борис Козырь Таро"
    assert width_of(text, geo.px(CENTRE_PX)) <= centre_room(geo, text_y)


def test_an_ask_shows_the_two_tarot_trumps_in_the_centre() -> None:
    state = next(s for s in states("tarot", 3, 5) if isinstance(s, TarotState) and s.ask_stage == "give")
    view = public(state)
    without = view.model_copy(update={"asks": (view.asks[-1].model_copy(update={"shown": ()}),)})  # type: ignore[attr-defined]
    geo = geometry(1000, 3, False)
    assert changed(compose_table(view, names=NAMES), compose_table(without, names=NAMES), geo.centre) > 2000
