"""How strong and how fast the Tarot trick-game players are: `python -m benchmarks tarot [--json]`.

Four match-ups, each over `--hands` single hands: 3-player Game 4 (`tarot`) with hard against two
normal players and normal against two easy ones, and 4-player Game 5 (`minor_arcana`, one hand) with
hard against three normal and normal against three easy. Hands come in groups sharing a seed (the
same deal) with the tested player in each seat in turn. A hand is won by the highest hand total; a
tie for it shares the win. Hard's decision times count only decisions with a choice, as the CPU time
of its thread (one core, whatever else loads the machine). Hard thinks as in the bot: its search
stops at `--think` seconds of that time (`COMPUTER_THINK_SECONDS`), so on a slow machine its dearest
decisions weigh fewer deals. `--think 0` lifts the limit: only then are the actions' digests of two
runs (the same decisions?) comparable across machines.

`--first` starts at a later hand (hands 600-1799 of `--hands 1800` are `--first 600 --hands 1200`),
and `--budget`, `--discard-times`, `--candidates` and `--keep-first` change hard's search settings:
a setting is compared with the players as they are over the same hands.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchmarks.timing import TimedPlayer, add_think_option, report, spread
from core.ai import minor_arcana, tarot
from core.ai.base import ComputerPlayer
from core.ai.search import THINK_SECONDS
from core.engine import Game
from core.games.minor_arcana import ONE_HAND, MinorArcanaGame
from core.games.tarot import TarotGame
from core.match import HandScored
from core.play import play

#: (game, seats, options, the players module) per game.
GAMES: dict[str, tuple[Game[Any, Any], int, dict[str, Any], Any]] = {
    "tarot": (TarotGame(), 3, {}, tarot),
    "minor_arcana": (MinorArcanaGame(), 4, {"length": ONE_HAND}, minor_arcana),
}
#: Targets from the issue: the tested player's share of hand wins.
TARGETS: dict[tuple[str, str], float] = {
    ("tarot", "hard"): 0.45,
    ("tarot", "normal"): 0.45,
    ("minor_arcana", "hard"): 0.35,
    ("minor_arcana", "normal"): 0.35,
}
P99_TARGET_MS = 300.0


def _hand(
    game: Game[Any, Any], players: list[ComputerPlayer[Any]], rng: random.Random, options: Any
) -> tuple[int, ...]:
    """The first hand of a match: each seat's hand total."""
    for turn in play(game, players, rng, options):
        for event in turn.step.events:
            if isinstance(event, HandScored):
                return event.row.hand
    raise RuntimeError(f"{game.id}: a hand without a score")


@dataclass(frozen=True)
class Job:
    """Hands `first` to `last - 1` of one match-up, for one process."""

    game_id: str
    matchup: str
    seed: int
    first: int
    last: int
    #: Hard's settings that differ from its defaults (`tarot.hard`'s keywords).
    settings: dict[str, Any]
    #: Processor seconds a search may take (0: no limit).
    think: float


def _hands(job: Job) -> tuple[float, list[float], list[str]]:
    """The tested player's wins, decision times and actions in `job`'s hands."""
    game, seats, options, module = GAMES[job.game_id]
    if job.matchup == "hard":
        tested = TimedPlayer(module.hard(**job.settings), job.think)
        others = module.normal()
    else:
        tested, others = TimedPlayer(module.normal()), module.easy()
    wins = 0.0
    for number in range(job.first, job.last):
        group, seat = divmod(number, seats)
        players: list[ComputerPlayer[Any]] = [others] * seats
        players[seat] = tested
        totals = _hand(game, players, random.Random(f"{job.seed}:{job.game_id}:{group}"), options)
        best = max(totals)
        if totals[seat] == best:
            wins += 1 / totals.count(best)
    return wins, tested.cpu_ms, tested.actions


def _digest(actions: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(actions).encode()).hexdigest()[:16]


def run(
    game_id: str,
    matchup: str,
    hands: int,
    seed: int = 0,
    processes: int = 2,
    settings: dict[str, Any] | None = None,
    first: int = 0,
    think: float = THINK_SECONDS,
) -> dict[str, Any]:
    seats = GAMES[game_id][1]
    groups = -(-hands // seats)
    hands = groups * seats
    start = first - first % seats
    bounds = [start + seats * (groups * part // processes) for part in range(processes + 1)]
    jobs = [
        Job(game_id, matchup, seed, bounds[i], bounds[i + 1], settings or {}, think) for i in range(processes)
    ]
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            parts = pool.map(_hands, jobs)
    else:
        parts = [_hands(job) for job in jobs]
    prefix = f"{game_id}_{matchup}"
    share = sum(part[0] for part in parts) / hands
    result: dict[str, Any] = {
        f"{prefix}_hands": hands,
        **({f"{prefix}_first_hand": start} if start else {}),
        **({f"{prefix}_settings": settings} if settings else {}),
        f"{prefix}_win_share": round(share, 4),
        f"{prefix}_target": TARGETS[game_id, matchup],
        f"{prefix}_ok": share >= TARGETS[game_id, matchup],
        # The same digest, the same decisions (for the same hands, seed and settings).
        f"{prefix}_actions": _digest(action for part in parts for action in part[2]),
    }
    if matchup == "hard":
        times = [ms for part in parts for ms in part[1]]
        figures = {name: round(ms, 2) for name, ms in spread(times, f"{prefix}_cpu_ms").items()}
        result |= {
            f"{prefix}_think_seconds": think,
            f"{prefix}_decisions": len(times),
            **figures,
            f"{prefix}_time_ok": figures[f"{prefix}_cpu_ms_p99"] <= P99_TARGET_MS,
        }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tarot", description=__doc__)
    parser.add_argument("--hands", type=int, default=600, help="hands per match-up (at least 600)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=2, choices=(1, 2))
    parser.add_argument("--game", choices=sorted(GAMES), help="run one game")
    parser.add_argument("--only", choices=("normal", "hard"), help="run one match-up")
    parser.add_argument("--first", type=int, default=0, help="the first hand (a group's first)")
    parser.add_argument("--budget", type=int, help="hard's simulated moves per decision")
    parser.add_argument("--discard-times", type=float, help="hard's discard budget as a multiple of a card's")
    parser.add_argument("--candidates", type=int, help="hard's searched choices per decision")
    parser.add_argument("--keep-first", type=float, help="how much better per deal a choice must do")
    add_think_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    given = {
        "budget": args.budget,
        "discard_times": args.discard_times,
        "max_candidates": args.candidates,
        "keep_first": args.keep_first,
    }
    settings = {name: value for name, value in given.items() if value is not None}
    result: dict[str, Any] = {}
    for game_id in GAMES:
        for matchup in ("normal", "hard"):
            if args.game in (None, game_id) and args.only in (None, matchup):
                result |= run(
                    game_id, matchup, args.hands, args.seed, args.processes, settings, args.first, args.think
                )
    report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
