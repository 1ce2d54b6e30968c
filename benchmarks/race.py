"""How strong and how fast the race computer players are: `python -m benchmarks race [--json]`.

Two-player games of a tested level against an opponent level (default: hard against the random
easy player). Games come in pairs sharing a seed (the same track, the same dice stream, the same first
seat) with the seats swapped. Decision times are the CPU time of the tested player's decisions with a
choice (with one legal action it answers at once).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from typing import Any

from benchmarks.timing import TimedPlayer, report, spread
from core.ai.base import ComputerPlayer
from core.ai.registry import PLAYERS
from core.games.race import RaceGame
from core.play import play_game


def _games(job: tuple[str, str, int, int, int, int]) -> tuple[int, int, list[float]]:
    """Games `first` to `last - 1`: the tested player's wins, its losses and its decision times."""
    level, opponent, players, seed, first, last = job
    game = RaceGame()
    tested = TimedPlayer(PLAYERS["race"][level])
    wins = losses = 0
    for number in range(first, last):
        seat = number % players
        seats: list[ComputerPlayer[Any]] = [PLAYERS["race"][opponent]] * players
        seats[seat] = tested
        outcome = game.outcome(play_game(game, seats, random.Random(f"{seed}:race:{number // players}")))
        assert outcome is not None
        wins += seat in outcome.winners
        losses += seat in outcome.losers
    return wins, losses, tested.cpu_ms


def run(
    level: str = "hard",
    opponent: str = "easy",
    games: int = 1000,
    players: int = 2,
    seed: int = 0,
    processes: int = 1,
) -> dict[str, float | str]:
    # Whole groups (one game per seat of a seed) per chunk.
    groups = -(-games // players)
    bounds = [players * (groups * part // processes) for part in range(processes + 1)]
    jobs = [(level, opponent, players, seed, bounds[i], min(bounds[i + 1], games)) for i in range(processes)]
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            parts = pool.map(_games, jobs)
    else:
        parts = [_games(job) for job in jobs]
    times = [ms for part in parts for ms in part[2]]
    return {
        "matchup": f"{level} vs {opponent}, {players} players",
        "games": games,
        "win_rate": sum(part[0] for part in parts) / games,
        "loss_rate": sum(part[1] for part in parts) / games,
        "decisions": len(times),
        **spread(times, "cpu_ms"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="race", description=__doc__)
    levels = sorted(PLAYERS["race"])
    parser.add_argument("--level", choices=levels, default="hard", help="the tested player")
    parser.add_argument("--opponent", choices=levels, default="easy")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = run(args.level, args.opponent, args.games, args.players, args.seed, args.processes)
    report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
