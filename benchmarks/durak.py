"""How strong and how fast the Durak computer players are: `python -m benchmarks durak [--json]`.

Two match-ups of four-seat games: normal against three easy players, hard against three normal ones.
Games come in groups of four sharing a seed (the same deal) with the tested player in each seat in
turn; groups alternate between throw-in and transfer Durak unless `--variant` picks one. A draw (no
fool) counts as not being the fool. Hard's decision times count only decisions with a choice (with one
legal action it answers at once); its search stops at `--think` seconds of processor time, as in the
bot.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from typing import Any

from benchmarks.timing import TimedPlayer, add_think_option, report, spread
from core.ai.base import ComputerPlayer
from core.ai.durak import DEFAULT_BUDGET, EasyDurakPlayer, HardDurakPlayer, NormalDurakPlayer
from core.ai.search import THINK_SECONDS
from core.games.durak import DurakGame, DurakView, TransferDurakGame
from core.play import play_game

VARIANTS: dict[str, tuple[DurakGame, ...]] = {
    "durak": (DurakGame(),),
    "durak_transfer": (TransferDurakGame(),),
    "both": (DurakGame(), TransferDurakGame()),
}


def _games(job: tuple[str, str, int, int, int, int, float]) -> tuple[int, int, list[float], list[float]]:
    """Games `first` to `last - 1` of one match-up: fools, draws and the tested player's decision
    times (CPU, wall)."""
    matchup, variant, seed, budget, first, last, think = job
    tested: TimedPlayer
    others: ComputerPlayer[DurakView]
    if matchup == "hard":
        tested, others = TimedPlayer(HardDurakPlayer(budget=budget), think), NormalDurakPlayer()
    else:
        tested, others = TimedPlayer(NormalDurakPlayer()), EasyDurakPlayer()
    games = VARIANTS[variant]
    fools = draws = 0
    for number in range(first, last):
        group, seat = divmod(number, 4)
        players: list[ComputerPlayer[Any]] = [others] * 4
        players[seat] = tested
        rng = random.Random(f"{seed}:durak:{group}")
        state = play_game(games[group % len(games)], players, rng)
        fools += state.fool == seat
        draws += state.fool is None
    return fools, draws, tested.cpu_ms, tested.wall_ms


def run(
    matchup: str,
    games: int,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    variant: str = "both",
    processes: int = 1,
    think: float = THINK_SECONDS,
) -> dict[str, float]:
    """One match-up ("hard": hard against normal; "normal": normal against easy)."""
    # Whole groups of four per chunk, so every deal is played from each seat.
    groups = -(-games // 4)
    bounds = [4 * (groups * part // processes) for part in range(processes + 1)]
    jobs = [
        (matchup, variant, seed, budget, bounds[i], min(bounds[i + 1], games), think)
        for i in range(processes)
    ]
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            parts = pool.map(_games, jobs)
    else:
        parts = [_games(job) for job in jobs]
    fools = sum(part[0] for part in parts)
    draws = sum(part[1] for part in parts)
    result: dict[str, float] = {
        f"{matchup}_games": games,
        f"{matchup}_fool_rate": fools / games,
        f"{matchup}_draw_rate": draws / games,
    }
    if matchup == "hard":
        result |= {
            "hard_budget": budget,
            "hard_think_seconds": think,
            "hard_decisions": sum(len(part[2]) for part in parts),
        }
        cpu = [ms for part in parts for ms in part[2]]
        wall = [ms for part in parts for ms in part[3]]
        # One process, one core: how many decisions with a choice it makes per second of CPU.
        result["hard_decisions_per_cpu_s"] = len(cpu) / (sum(cpu) / 1000)
        for clock, measured in (("cpu", cpu), ("wall", wall)):
            result |= spread(measured, f"hard_{clock}_ms")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="durak", description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per match-up")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET, help="hard's simulated moves per decision"
    )
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="both")
    parser.add_argument("--only", choices=("normal", "hard"), help="run one match-up")
    parser.add_argument("--processes", type=int, default=1)
    add_think_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result: dict[str, float] = {}
    for matchup in ("normal", "hard"):
        if args.only in (None, matchup):
            result |= run(
                matchup, args.games, args.seed, args.budget, args.variant, args.processes, args.think
            )
    report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
