"""How strong and how fast the grid computer player is: `python -m benchmarks.grid_ai [--json]`.

Two-player games pit the strong player against the random one, swapping seats every game (with
the same seed for each pair, so both sides get the same deal); solo games measure how often each
player clears the field.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from benchmarks.timing import TimedPlayer
from core.ai.base import ComputerPlayer
from core.ai.grid import GridPlayer
from core.ai.random_player import RandomPlayer
from core.games.grid import GridGame
from core.play import play_game


def run(games: int = 1000, seed: int = 0) -> dict[str, float]:
    game = GridGame()
    strong = TimedPlayer(GridPlayer())
    baseline = RandomPlayer()
    wins = 0
    for number in range(games):
        # Pairs of games share a seed (same deal, same first seat) with the seats swapped.
        rng = random.Random(f"{seed}:duel:{number // 2}")
        strong_seat = number % 2
        players: list[ComputerPlayer[Any]] = [baseline, baseline]
        players[strong_seat] = strong
        outcome = game.outcome(play_game(game, players, rng))
        wins += outcome is not None and strong_seat in outcome.winners
    solo = {"strong": 0, "random": 0}
    for number in range(games):
        for name, player in (("strong", strong), ("random", baseline)):
            outcome = game.outcome(play_game(game, [player], random.Random(f"{seed}:solo:{number}")))
            solo[name] += outcome is not None and outcome.winners == (0,)
    times = sorted(strong.wall_ms)
    return {
        "games": games,
        "win_rate_vs_random": wins / games,
        "solo_win_rate": solo["strong"] / games,
        "solo_win_rate_random": solo["random"] / games,
        "decision_ms_p50": statistics.median(times),
        "decision_ms_p99": times[min(len(times) - 1, int(len(times) * 0.99))],
        "decision_ms_max": times[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grid-ai", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = run(args.games, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for name, value in result.items():
            print(f"{name:22} {value:.3f}" if isinstance(value, float) else f"{name:22} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
