"""How strong and how fast the grid computer player is: `python -m benchmarks.grid_ai [--json]`.

Two-player games pit the strong player against the random one, swapping seats every game (with
the same seed for each pair, so both sides get the same deal); solo games measure how often each
player clears the field.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from benchmarks.timing import TimedPlayer, report, spread
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
    return {
        "games": games,
        "win_rate_vs_random": wins / games,
        "solo_win_rate": solo["strong"] / games,
        "solo_win_rate_random": solo["random"] / games,
        **spread(strong.wall_ms, "decision_ms"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grid-ai", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = run(args.games, args.seed)
    report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
