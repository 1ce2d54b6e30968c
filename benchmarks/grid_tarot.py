"""How strong and how fast the Tarot grid computer player is: `python -m benchmarks grid-tarot [--json]`.

Two-player games pit the tested level against the random player, in pairs sharing a seed (the same
deal, the same first seat) with the seats swapped, with one token a player or two (`--tokens`); solo
games, one seed each, measure how often the tested level and the random player clear the field.
Decision times are the CPU time of the tested player's decisions with a choice (with one legal
action it answers at once); its end-game search stops deepening at `--think` seconds of that time, as
in the bot.

`--tower-known` plays the two-player games once more with the tested player told where the Tower
lies (a closed Tower ends the game of whoever turns it up with no way out, and a fair player cannot
know where it is): how much of the tested player's losses is the Tower's luck.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from typing import Any

from benchmarks.timing import TimedPlayer, add_think_option, report, spread
from core.ai.base import ComputerPlayer
from core.ai.grid_tarot import GridTarotPlayer
from core.ai.random_player import RandomPlayer
from core.ai.registry import PLAYERS
from core.ai.search import THINK_SECONDS
from core.games.grid_tarot import TOKENS, GridTarotGame, GridTarotState, GridTarotView, position
from core.games.grid_tarot_arcana import TOWER
from core.games.grid_tarot_rules import Position
from core.play import play, play_game

#: (level, seed, first game, last game, Tower known, tokens a player, think limit) -> (duel wins, duel
#: draws, solo clears, random's solo clears, decision times).
Job = tuple[str, int, int, int, bool, int, float]


class TowerSighted(GridTarotPlayer):
    """The tested player told where the Tower lies: it decides in the true deal (`truth`, which the
    game loop keeps current) with the Tower's position counted as seen, every other closed position
    still scored alike."""

    def __init__(self, level: GridTarotPlayer) -> None:
        super().__init__(level.candidates, level.depth, level.risk)
        self.truth: GridTarotState | None = None

    def position(self, view: GridTarotView, rng: random.Random) -> Position:
        assert self.truth is not None
        pos = position(self.truth)
        tower = pos.cards.index(TOWER) if TOWER in pos.cards else -1
        if tower >= 0 and pos.closed >> tower & 1:
            pos.known |= 1 << tower
        return pos


def _duel(
    game: GridTarotGame,
    seats: list[ComputerPlayer[Any]],
    rng: random.Random,
    sighted: TowerSighted | None,
    tokens: int,
) -> GridTarotState:
    """One game to its end, keeping a sighted player's `truth` current."""
    state: GridTarotState | None = None
    for turn in play(game, seats, rng, {TOKENS: tokens}):
        state = turn.step.state
        if sighted is not None:
            sighted.truth = state
    assert state is not None
    return state


def _games(job: Job) -> tuple[int, int, int, int, list[float]]:
    level, seed, first, last, tower_known, tokens, think = job
    game = GridTarotGame()
    level_player = PLAYERS["grid_tarot"][level]
    assert isinstance(level_player, GridTarotPlayer)
    sighted = TowerSighted(level_player) if tower_known else None
    tested = TimedPlayer(sighted or level_player, think)
    baseline = RandomPlayer()
    wins = draws = clears = random_clears = 0
    for number in range(first, last):
        seat = number % 2
        seats: list[ComputerPlayer[Any]] = [baseline, baseline]
        seats[seat] = tested
        rng = random.Random(f"{seed}:duel:{number // 2}")
        outcome = game.outcome(_duel(game, seats, rng, sighted, tokens))
        assert outcome is not None
        wins += seat in outcome.winners
        draws += outcome.draw
        if tower_known:
            continue
        for solver, solo in ((tested, True), (baseline, False)):
            solo_rng = random.Random(f"{seed}:solo:{number}")
            won = game.outcome(play_game(game, [solver], solo_rng, {TOKENS: tokens}))
            cleared = won is not None and won.winners == (0,)
            if solo:
                clears += cleared
            else:
                random_clears += cleared
    return wins, draws, clears, random_clears, tested.cpu_ms


def _parts(
    level: str, games: int, seed: int, processes: int, sighted: bool, tokens: int, think: float
) -> list[tuple[int, int, int, int, list[float]]]:
    # Whole seat-swapped pairs per chunk.
    pairs = -(-games // 2)
    bounds = [2 * (pairs * part // processes) for part in range(processes + 1)]
    jobs = [
        (level, seed, bounds[i], min(bounds[i + 1], games), sighted, tokens, think) for i in range(processes)
    ]
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            return pool.map(_games, jobs)
    return [_games(job) for job in jobs]


def run(
    level: str = "hard",
    games: int = 1000,
    seed: int = 0,
    processes: int = 2,
    tower_known: bool = False,
    tokens: int = 1,
    think: float = THINK_SECONDS,
) -> dict[str, float | str]:
    parts = _parts(level, games, seed, processes, False, tokens, think)
    times = [ms for part in parts for ms in part[4]]
    result: dict[str, float | str] = {
        "matchup": f"{level} vs random, 2 players; solo {level} and random",
        "tokens_per_player": tokens,
        "think_seconds": think,
        "games": games,
        "win_rate_vs_random": sum(part[0] for part in parts) / games,
        "draw_rate_vs_random": sum(part[1] for part in parts) / games,
        "solo_clear_rate": sum(part[2] for part in parts) / games,
        "solo_clear_rate_random": sum(part[3] for part in parts) / games,
        "decisions": len(times),
        **spread(times, "cpu_ms"),
    }
    if tower_known:
        sighted = _parts(level, games, seed, processes, True, tokens, think)
        result["win_rate_vs_random_tower_known"] = sum(part[0] for part in sighted) / games
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grid-tarot", description=__doc__)
    levels = sorted(PLAYERS["grid_tarot"])
    parser.add_argument("--level", choices=levels, default="hard", help="the tested player")
    parser.add_argument("--games", type=int, default=1000, help="two-player games, and as many solo ones")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=2, help="at most the machine's free cores")
    parser.add_argument(
        "--tower-known", action="store_true", help="also the two-player games with the Tower's place told"
    )
    parser.add_argument(
        "--tokens", type=int, choices=(1, 2), default=1, help="tokens a player (the table option)"
    )
    add_think_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = run(args.level, args.games, args.seed, args.processes, args.tower_known, args.tokens, args.think)
    report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
