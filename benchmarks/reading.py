"""How close the hard trick player's worlds come to the true deal: `python -m benchmarks reading`.

Normal players play seeded 3-player hands of Game 4 (Mathers' Tarot); at each of seat 0's plays,
once the others have played, the reading (`core.ai.reading`) walks worlds from its view as the
hard player does, at several walk lengths (0: a plain deal that agrees with the view and, where it
can, the announcements). Per walk length it reports the others' plays the heuristic would not have
made in those worlds (0 in the true deal) and the share of the others' hidden cards placed where
the true deal holds them. If longer walks barely move the share, the walk has converged and more
exchanges would buy the search nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Iterator, Mapping
from typing import Any

from benchmarks.timing import report
from core.ai import tarot
from core.ai.reading import FIRST_STEPS, STEPS, Reading
from core.engine import OptionValue
from core.games.tarot import TarotGame
from core.match import HandScored
from core.play import play
from core.trickgame import PLAY, TrickGame

#: (exchanges before the first world, between worlds): none, the player's own, then longer.
WALKS: tuple[tuple[int, int], ...] = ((0, 0), *((times * FIRST_STEPS, times * STEPS) for times in (1, 4, 16)))
PLAYERS = 3


def seat_zero_states(
    game: TrickGame[Any, Any],
    module: Any,
    players: int,
    seed: int,
    options: Mapping[str, OptionValue] | None = None,
) -> Iterator[Any]:
    """The true states at seat 0's every decision in one seeded hand of `module`'s normal players."""
    for turn in play(game, [module.normal()] * players, random.Random(seed), options):
        if any(isinstance(event, HandScored) for event in turn.step.events):
            return
        if turn.seat == 0:
            yield turn.before


def readings(
    game: TrickGame[Any, Any],
    module: Any,
    players: int,
    seed: int,
    options: Mapping[str, OptionValue] | None = None,
) -> list[tuple[Any, Reading]]:
    """Seat 0's decisions in the play of one seeded hand of `module`'s normal players, once the
    others have played, each with the true state and its reading."""
    found = []
    for state in seat_zero_states(game, module, players, seed, options):
        if state.phase == PLAY:
            reading = Reading(game, module.STYLE, game.view(state, 0))
            if reading.plays:
                found.append((state, reading))
    return found


def placed_right(reading: Reading, world: Any, truth: Any) -> tuple[int, int]:
    """(hidden cards the world gives the others where the true deal has them, hidden cards given)."""
    right = given = 0
    for seat in reading.hidden.others:
        held = set(truth.hands[seat])
        dealt = [card for card in world.hands[seat] if card not in reading.hidden.known[seat]]
        given += len(dealt)
        right += sum(card in held for card in dealt)
    return right, given


def run(hands: int, worlds: int) -> dict[str, Any]:
    game = TarotGame()
    cases = [case for seed in range(hands) for case in readings(game, tarot, PLAYERS, seed)]
    result: dict[str, Any] = {"reading_hands": hands, "reading_decisions": len(cases)}
    for first, steps in WALKS:
        unexplained: list[int] = []
        right = given = 0
        for truth, reading in cases:
            walked = reading.worlds(random.Random(len(reading.plays)), first, steps)
            for _ in range(worlds):
                world = next(walked)
                unexplained.append(reading.unexplained(world))
                hits, dealt = placed_right(reading, world, truth)
                right, given = right + hits, given + dealt
        result[f"reading_{first}_{steps}_unexplained"] = round(statistics.mean(unexplained), 3)
        result[f"reading_{first}_{steps}_placed_right"] = round(right / given, 4)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reading", description=__doc__)
    parser.add_argument("--hands", type=int, default=6, help="seeded hands (seeds 0 on)")
    parser.add_argument("--worlds", type=int, default=8, help="worlds walked per decision and walk")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report(run(args.hands, args.worlds), args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
