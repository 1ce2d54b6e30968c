"""How strong and how fast the Tarot grid computer player is: `python -m benchmarks grid-tarot [--json]`.

Two-player games pit the tested level against the random player, in pairs sharing a seed (the same
deal, the same first seat) with the seats swapped; solo games, one seed each, measure how often the
tested level and the random player clear the field. Decision times are the CPU time of the tested
player's decisions with a choice (with one legal action it answers at once).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
from typing import Any

from benchmarks.timing import TimedPlayer
from core.ai.base import ComputerPlayer
from core.ai.random_player import RandomPlayer
from core.ai.registry import PLAYERS
from core.games.grid_tarot import GridTarotGame
from core.play import play_game

#: (level, seed, first game, last game) -> (duel wins, duel draws, solo clears, random's solo
#: clears, decision times).
Job = tuple[str, int, int, int]


def _games(job: Job) -> tuple[int, int, int, int, list[float]]:
    level, seed, first, last = job
    game = GridTarotGame()
    tested = TimedPlayer(PLAYERS["grid_tarot"][level])
    baseline = RandomPlayer()
    wins = draws = clears = random_clears = 0
    for number in range(first, last):
        seat = number % 2
        seats: list[ComputerPlayer[Any]] = [baseline, baseline]
        seats[seat] = tested
        outcome = game.outcome(play_game(game, seats, random.Random(f"{seed}:duel:{number // 2}")))
        assert outcome is not None
        wins += seat in outcome.winners
        draws += outcome.draw
        for player, solo in ((tested, True), (baseline, False)):
            won = game.outcome(play_game(game, [player], random.Random(f"{seed}:solo:{number}")))
            cleared = won is not None and won.winners == (0,)
            if solo:
                clears += cleared
            else:
                random_clears += cleared
    return wins, draws, clears, random_clears, tested.cpu_ms


def run(level: str = "hard", games: int = 1000, seed: int = 0, processes: int = 2) -> dict[str, float | str]:
    # Whole seat-swapped pairs per chunk.
    pairs = -(-games // 2)
    bounds = [2 * (pairs * part // processes) for part in range(processes + 1)]
    jobs = [(level, seed, bounds[i], min(bounds[i + 1], games)) for i in range(processes)]
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            parts = pool.map(_games, jobs)
    else:
        parts = [_games(job) for job in jobs]
    times = sorted(ms for part in parts for ms in part[4])
    return {
        "matchup": f"{level} vs random, 2 players; solo {level} and random",
        "games": games,
        "win_rate_vs_random": sum(part[0] for part in parts) / games,
        "draw_rate_vs_random": sum(part[1] for part in parts) / games,
        "solo_clear_rate": sum(part[2] for part in parts) / games,
        "solo_clear_rate_random": sum(part[3] for part in parts) / games,
        "decisions": len(times),
        "cpu_ms_p50": statistics.median(times),
        "cpu_ms_p99": times[min(len(times) - 1, int(len(times) * 0.99))],
        "cpu_ms_max": times[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grid-tarot", description=__doc__)
    levels = sorted(PLAYERS["grid_tarot"])
    parser.add_argument("--level", choices=levels, default="hard", help="the tested player")
    parser.add_argument("--games", type=int, default=1000, help="two-player games, and as many solo ones")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=2, help="at most the machine's free cores")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = run(args.level, args.games, args.seed, args.processes)
    if args.json:
        print(json.dumps(result))
    else:
        for name, value in result.items():
            print(f"{name:22} {value:.3f}" if isinstance(value, float) else f"{name:22} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
