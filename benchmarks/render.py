"""`python -m benchmarks render [--json] [--seed N]`: every turn picture's CPU time and size.

Each picture kind is drawn for views from seeded random games (every turn of a grid game, Durak
tables and panels through whole games, every race and Tarot grid view a person sees in games of
two and three, the Tarot trick tables and a seat's panel every few moves, a Gold tour mark by mark
and cell by cell, bandit pulls).
`first_ms` is the kind's first picture in this process (its sprites, palettes and tiles are drawn
then); the other figures are over the rest, with warm caches, as the bot draws them.
CPU time (`time.process_time`), since the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial

from benchmarks.timing import percentile
from core.ai.random_player import RandomPlayer
from core.engine import CHANCE, Event, resolve_chance
from core.games.bandit import BanditView
from core.games.durak import DurakView
from core.games.gold import CODES, GO, GoldView
from core.games.grid import GridView
from core.games.grid_tarot import GridTarotView
from core.games.race import RaceView
from core.play import play
from core.registry import GAMES
from core.trickgame import PLAY_CARD, TrickView
from render.bandit import render_bandit, render_spin_animation
from render.durak import render_durak_hand, render_durak_table
from render.gold import render_gold
from render.grid import render_grid
from render.grid_tarot import render_grid_tarot
from render.race import render_race
from render.tricks import render_trick_panel, render_trick_table

Picture = Callable[[], bytes]
NAMES = ("Алиса", "Борис", "Вера", "Глеб")


def grid_pictures(seed: int) -> Iterator[Picture]:
    game = GAMES["grid"]
    for players in (2, 1):
        rng = random.Random(seed + players)
        for turn in play(game, [RandomPlayer() for _ in range(players)], rng):
            view = game.view(turn.step.state, None)
            assert isinstance(view, GridView)
            yield partial(render_grid, view, names=NAMES[:players], lang="ru")


def durak_views(seed: int) -> Iterator[tuple[DurakView, DurakView, tuple[str, ...]]]:
    """(public view, the view of a seat to move, that seat's playable cards) every few moves."""
    for game_id in ("durak", "durak_transfer"):
        game = GAMES[game_id]
        rng = random.Random(seed)
        for number, turn in enumerate(play(game, [RandomPlayer() for _ in range(4)], rng)):
            state = turn.step.state
            seats = [seat for seat in game.to_move(state) if seat != CHANCE]
            if number % 4 or not seats:
                continue
            legal = game.legal_actions(state, seats[0])
            playable = tuple(dict.fromkeys(a.split(".")[-1] for a in legal if "." in a))
            public, own = game.view(state, None), game.view(state, seats[0])
            assert isinstance(public, DurakView) and isinstance(own, DurakView)
            yield public, own, playable


def durak_tables(seed: int) -> Iterator[Picture]:
    for public, _, _ in durak_views(seed):
        yield partial(render_durak_table, public, names=NAMES, lang="ru")


def durak_hands(seed: int) -> Iterator[Picture]:
    for _, own, playable in durak_views(seed):
        yield partial(render_durak_hand, own, names=NAMES, lang="ru", playable=playable)


def gold_pictures(seed: int) -> Iterator[Picture]:
    game = GAMES["gold"]
    rng = random.Random(seed)
    for _ in range(4):
        state, _ = resolve_chance(game, game.new(1, {"bet": 40}), rng)
        for code in [*rng.sample(CODES, 7), GO]:
            state = game.apply(state, 0, code).state
            view = game.view(state, 0)
            assert isinstance(view, GoldView)
            if code != GO:
                yield partial(render_gold, view, lang="ru", balance=1234)
        for shown in range(1, len(view.revealed) + 1):
            yield partial(render_gold, view, shown=shown, lang="ru", balance=1234)
        yield partial(render_gold, view, lang="ru", balance=1234)


def bandit_views(seed: int, count: int) -> list[BanditView]:
    game = GAMES["bandit"]
    rng = random.Random(seed)
    views = []
    for number in range(count):
        state, _ = resolve_chance(game, game.new(1, {"rank": number % 10}), rng)
        view = game.view(state, 0)
        assert isinstance(view, BanditView)
        views.append(view)
    return views


def bandit_stills(seed: int) -> Iterator[Picture]:
    for view in bandit_views(seed, 30):
        yield partial(render_bandit, view, lang="ru", free_left=3, balance=1234)


def bandit_spins(seed: int) -> Iterator[Picture]:
    for view in bandit_views(seed, 10):
        yield partial(render_spin_animation, view, lang="ru", free_left=3, balance=1234)


def shown_views(game_id: str, seed: int) -> Iterator[tuple[object, int, tuple[Event, ...]]]:
    """Every public view a person would look at in whole games of two and three (not at a chance
    node), with its seat count and the events since the one before (as the caption tells them)."""
    game = GAMES[game_id]
    for players in (2, 3):
        recent: list[Event] = []
        for turn in play(game, [RandomPlayer() for _ in range(players)], random.Random(seed + players)):
            recent += turn.step.events
            if game.to_move(turn.step.state) == (CHANCE,):
                continue
            yield game.view(turn.step.state, None), players, tuple(recent)
            recent = []


def race_pictures(seed: int) -> Iterator[Picture]:
    for view, players, recent in shown_views("race", seed):
        assert isinstance(view, RaceView)
        yield partial(render_race, view, names=NAMES[:players], lang="ru", recent=recent)


def grid_tarot_pictures(seed: int) -> Iterator[Picture]:
    for view, players, recent in shown_views("grid_tarot", seed):
        assert isinstance(view, GridTarotView)
        yield partial(render_grid_tarot, view, names=NAMES[:players], lang="ru", recent=recent)


def trick_views(seed: int) -> Iterator[tuple[TrickView, TrickView, tuple[str, ...], int]]:
    """(public view, the view of a seat to move, the cards it may play, seats) every few moves of
    Mathers' Tarot and the Minor Arcana game with three."""
    for game_id in ("tarot", "minor_arcana"):
        game = GAMES[game_id]
        for number, turn in enumerate(play(game, [RandomPlayer() for _ in range(3)], random.Random(seed))):
            state = turn.step.state
            seats = [seat for seat in game.to_move(state) if seat != CHANCE]
            if number % 3 or not seats:
                continue
            legal = game.legal_actions(state, seats[0])
            playable = tuple(
                action.removeprefix(PLAY_CARD) for action in legal if action.startswith(PLAY_CARD)
            )
            public, own = game.view(state, None), game.view(state, seats[0])
            assert isinstance(public, TrickView) and isinstance(own, TrickView)
            yield public, own, playable, 3


def trick_tables(seed: int) -> Iterator[Picture]:
    for public, _, _, players in trick_views(seed):
        yield partial(render_trick_table, public, names=NAMES[:players], lang="ru")


def trick_panels(seed: int) -> Iterator[Picture]:
    for _, own, playable, players in trick_views(seed):
        yield partial(render_trick_panel, own, names=NAMES[:players], lang="ru", playable=playable)


KINDS: dict[str, Callable[[int], Iterator[Picture]]] = {
    "grid": grid_pictures,
    "durak_table": durak_tables,
    "durak_hand": durak_hands,
    "gold": gold_pictures,
    "race": race_pictures,
    "grid_tarot": grid_tarot_pictures,
    "trick_table": trick_tables,
    "trick_panel": trick_panels,
    "bandit_still": bandit_stills,
    "bandit_spin": bandit_spins,
}


def measure(kind: str, seed: int) -> dict[str, float]:
    pictures = list(KINDS[kind](seed))
    times, sizes = [], []
    for picture in pictures:
        start = time.process_time()
        data = picture()
        times.append((time.process_time() - start) * 1000)
        sizes.append(len(data))
    warm = times[1:] or times
    return {
        "pictures": len(pictures),
        "first_ms": round(times[0], 1),
        "p50_ms": round(statistics.median(warm), 1),
        "p90_ms": round(percentile(warm, 0.9), 1),
        "max_ms": round(max(warm), 1),
        "kb_mean": round(statistics.mean(sizes) / 1024, 1),
        "kb_max": round(max(sizes) / 1024, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks render", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("kinds", nargs="*", help=f"picture kinds (default: all): {', '.join(KINDS)}")
    args = parser.parse_args(argv)
    unknown = set(args.kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown picture kinds: {', '.join(sorted(unknown))}")
    result = {kind: measure(kind, args.seed) for kind in args.kinds or KINDS}
    if args.json:
        print(json.dumps(result))
        return 0
    columns = list(next(iter(result.values())))
    width = max(map(len, result))
    print(f"{'':<{width}}  " + "  ".join(f"{c:>8}" for c in columns))
    for kind, row in result.items():
        print(f"{kind:<{width}}  " + "  ".join(f"{row[c]:>8}" for c in columns))
    return 0
