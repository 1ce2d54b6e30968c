"""render/durak.py: the Durak table and panel, checked on real pixels of real game views."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from core.cards import deck36
from core.engine import resolve_chance
from core.games.durak import DurakGame, DurakState, DurakView, sort_hand
from core.registry import GAMES
from render import cards, durak, table
from render.durak import HAND_CARD_W, geometry, hand_box, render_durak_hand, render_durak_table
from render.hand import layout_hand

NAMES = ("Алиса", "Борис", "Вера", "Глеб")
BUDGET = 80 * 1024


def game(game_id: str = "durak") -> DurakGame:
    found = GAMES[game_id]
    assert isinstance(found, DurakGame)
    return found


def play(seed: int, moves: int, game_id: str = "durak") -> DurakState:
    """Deal with a seeded generator, then make up to `moves` random legal moves by random seats."""
    rules = game(game_id)
    rng = random.Random(seed)
    state, _ = resolve_chance(rules, rules.new(4), rng)
    for _ in range(moves):
        seats = rules.to_move(state)
        if not seats:
            break
        seat = rng.choice(seats)
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat))).state
    assert isinstance(state, DurakState)
    return state


def until(seed: int, done: str, game_id: str = "durak") -> DurakState:
    """Play random moves until the state reaches `done`: "busy" (pairs on the table) or "over"."""
    rules = game(game_id)
    rng = random.Random(seed)
    state, _ = resolve_chance(rules, rules.new(4), rng)
    while not state.over:
        if done == "busy" and len(state.table) >= 3 and any(d for _, d in state.table) and state.discard:
            return state
        seat = rng.choice(rules.to_move(state))
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat))).state
    assert done == "over" and isinstance(state, DurakState)
    return state


def public(state: DurakState) -> DurakView:
    view = game(state.game).view(state, None)
    assert isinstance(view, DurakView)
    return view


def own(state: DurakState, seat: int) -> DurakView:
    view = game(state.game).view(state, seat)
    assert isinstance(view, DurakView)
    return view


@pytest.fixture(scope="module")
def busy() -> DurakState:
    return until(2, "busy")


@pytest.fixture(scope="module")
def over() -> DurakState:
    return until(5, "over")


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def changed(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ noticeably."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255]


# ----- size, budget, determinism -----------------------------------------------------------------


@pytest.mark.parametrize("size", [1000, 640])
def test_sizes(busy: DurakState, size: int) -> None:
    table = decode(render_durak_table(public(busy), names=NAMES, size=size))
    assert table.size == (size, size * 3 // 4)
    hand = decode(render_durak_hand(own(busy, 0), names=NAMES, size=size))
    assert hand.size == (size, size)


@pytest.mark.parametrize("game_id", ["durak", "durak_transfer"])
def test_every_picture_of_whole_games_fits_the_budget(game_id: str) -> None:
    rules = game(game_id)
    for seed in range(2):
        rng = random.Random(seed)
        state, _ = resolve_chance(rules, rules.new(4), rng)
        moves = 0
        while not state.over:
            if moves % 10 == 0:
                assert len(render_durak_table(public(state), names=NAMES)) <= BUDGET
                seat = moves % 4
                playable = tuple(a[2:] for a in rules.legal_actions(state, seat) if a[1] == ".")
                assert len(render_durak_hand(own(state, seat), names=NAMES, playable=playable)) <= BUDGET
            seat = rng.choice(rules.to_move(state))
            state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat))).state
            moves += 1
        assert len(render_durak_table(public(state), names=NAMES)) <= BUDGET


def test_a_crowded_table_and_a_huge_hand_fit_the_budget(busy: DurakState) -> None:
    # Six pairs, a 24-card hand, every count high: more than a real game usually shows at once.
    view = own(busy, 0).model_copy(
        update={
            "table": (("6S", "9S"), ("6H", "AH"), ("6C", "7C"), ("9D", None), ("9C", None), ("9H", None)),
            "hand": sort_hand(deck36()[:24], "D"),
            "counts": (24, 18, 15, 12),
        }
    )
    assert view.hand is not None
    playable = view.hand[::2]
    assert len(render_durak_hand(view, names=NAMES, playable=playable)) <= BUDGET
    assert (
        len(render_durak_table(view.model_copy(update={"seat": None, "hand": None}), names=NAMES)) <= BUDGET
    )


def test_deterministic_even_with_cold_caches(busy: DurakState) -> None:
    view, mine = public(busy), own(busy, 1)
    first, hand = render_durak_table(view, names=NAMES), render_durak_hand(mine, names=NAMES)
    assert render_durak_table(view, names=NAMES) == first
    for cached in (
        cards.card_face,
        cards.card_back,
        table.background,
        durak.palette,
        table.laid,
        table.plate,
    ):
        cached.cache_clear()
    assert render_durak_table(view, names=NAMES) == first
    assert render_durak_hand(mine, names=NAMES) == hand


def test_the_public_table_shows_nothing_hidden(busy: DurakState) -> None:
    rules = game()
    shuffled = rules.shuffle_hidden(busy, None, random.Random(7))
    assert shuffled.hands != busy.hands and shuffled.talon != busy.talon
    first = render_durak_table(public(busy), names=NAMES)
    assert render_durak_table(public(shuffled), names=NAMES) == first
    # Even a view that carries a hand draws the same table: the hand is never read.
    leaked = public(busy).model_copy(update={"seat": 0, "hand": busy.hands[0]})
    assert render_durak_table(leaked, names=NAMES) == first


def test_the_hand_picture_changes_with_the_hand(busy: DurakState) -> None:
    rules = game()
    mine = own(busy, 0)
    other = own(rules.shuffle_hidden(busy, 1, random.Random(3)), 0)
    assert other.hand != mine.hand and len(other.hand or ()) == len(mine.hand or ())
    assert render_durak_hand(other, names=NAMES) != render_durak_hand(mine, names=NAMES)
    with pytest.raises(ValueError, match="seat"):
        render_durak_hand(public(busy), names=NAMES)


def test_playable_cards_stand_out(busy: DurakState) -> None:
    mine = own(busy, 0)
    assert mine.hand is not None and len(mine.hand) >= 2
    first, second = mine.hand[0], mine.hand[1]
    lit = decode(render_durak_hand(mine, names=NAMES, playable=(first,)))
    dim = decode(render_durak_hand(mine, names=NAMES, playable=(second,)))
    geo = geometry(1000, True)
    spots = layout_hand(mine.hand, hand_box(geo), geo.px(HAND_CARD_W)).spots
    left, after = spots[0].x, spots[1].x
    # The visible slice of the first card (the next one covers the rest) and the space above it.
    slice_ = (left, geo.table + 50, after, geo.height)
    a, b = lit.crop(slice_), dim.crop(slice_)
    assert changed(a, b) > 0.2 * a.width * a.height

    def brightness(img: Image.Image) -> float:
        histogram = img.convert("L").histogram()
        return sum(v * n for v, n in enumerate(histogram)) / sum(histogram)

    assert brightness(a) > brightness(b) + 20  # the dimmed card is darker


# ----- words and the result ----------------------------------------------------------------------


def test_cyrillic_names_render_as_letters(busy: DurakState) -> None:
    view = public(busy)
    ru = decode(render_durak_table(view, names=("Жанна", "Щука", "Юля", "Ёж")))
    blank = decode(render_durak_table(view, names=(" ", " ", " ", " ")))
    x, y = geometry(1000, False).seats[2]  # the top plate's name line: seat 2 in the public picture
    pw, _ = geometry(1000, False).plate
    name_line = (x, y, x + pw, y + 40)
    assert changed(ru.crop(name_line), blank.crop(name_line)) > 100
    assert render_durak_table(view, names=NAMES, lang="en") != render_durak_table(view, names=NAMES)


def test_a_finished_game_shows_the_banner(over: DurakState) -> None:
    finished = public(over)
    assert finished.outcome is not None
    running = finished.model_copy(update={"outcome": None, "fool": None})
    left, top, right, bottom = geometry(1000, False).centre
    middle = (left, (top + bottom) // 2 - 60, right, (top + bottom) // 2 + 60)
    a = decode(render_durak_table(finished, names=NAMES)).crop(middle)
    b = decode(render_durak_table(running, names=NAMES)).crop(middle)
    assert changed(a, b) > 0.3 * a.width * a.height
    draw = finished.model_copy(update={"fool": None})
    assert render_durak_table(draw, names=NAMES) != render_durak_table(finished, names=NAMES)


def test_before_the_deal_and_highlights(busy: DurakState) -> None:
    rules = game()
    fresh = rules.view(rules.new(4), None)
    assert isinstance(fresh, DurakView)
    assert decode(render_durak_table(fresh, names=NAMES)).size == (1000, 750)
    view = public(busy)
    assert render_durak_table(view, names=NAMES, highlight=(1,)) != render_durak_table(view, names=NAMES)


def test_place_texts() -> None:
    assert durak.place_text(1, "ru") == "1-е место"
    assert [durak.place_text(n, "en") for n in (1, 2, 3)] == ["1st out", "2nd out", "3rd out"]


def test_the_last_cards_played_are_tagged_with_their_player(busy: DurakState) -> None:
    view = public(busy)
    attack, defence = next((a, d) for a, d in view.table if d is not None)
    recent = ((view.attacker or 0, attack), (view.defender or 1, defence))
    plain = decode(render_durak_table(view, names=NAMES))
    tagged = decode(render_durak_table(view, names=NAMES, recent=recent))
    geo = geometry(1000, False)
    spots = durak.pair_spots(len(view.table), geo)
    x, y = spots[[a for a, _ in view.table].index(attack)]
    cw, ch = geo.card
    # Only around that pair does the picture change.
    around = (x - cw // 2, y - cw // 2, x + 2 * cw, y + 2 * ch)
    assert changed(plain.crop(around), tagged.crop(around)) > 300
    outside = ImageChops.difference(plain, tagged).convert("L").point(lambda v: 255 if v > 24 else 0)
    outside.paste(0, around)
    assert outside.getbbox() is None
    # The tag is in the player's colour and says the name: another player, another tag.
    other = ((view.attacker or 0, attack), ((view.defender or 1) + 1, defence))
    assert render_durak_table(view, names=NAMES, recent=other) != render_durak_table(
        view, names=NAMES, recent=recent
    )
    # Cards no longer on the table are not marked anywhere.
    gone = ((0, next(card for card in deck36() if all(card not in pair for pair in view.table))),)
    assert render_durak_table(view, names=NAMES, recent=gone) == render_durak_table(view, names=NAMES)
    mine = own(busy, 0)
    assert render_durak_hand(mine, names=NAMES, recent=recent) != render_durak_hand(mine, names=NAMES)
