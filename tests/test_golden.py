"""Golden playthroughs: one seeded game of every registered game, every view of it written down.

`tests/golden/<game>.jsonl` holds, for each state of the game (the first one, then one after each
action) and for each viewer (the public, then every seat), one JSON line: the version, the viewer,
the action that led there, the events that viewer was told, and the view. Replaying the seed must
give the same file line for line, so any drift in a game's rules, views or events shows up here as
the first line that differs. After an intended change, regenerate the files with
`python -m pytest tests/test_golden.py --update-golden` and review the diff before committing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from core.ai.random_player import RandomPlayer
from core.engine import Event, Frozen, Game, Seat
from core.play import play
from core.registry import GAMES

GOLDEN = Path(__file__).parent / "golden"


def _event(event: Event) -> dict[str, Any]:
    return {"type": type(event).__name__, **event.model_dump(mode="json", exclude={"audience"})}


def _line(version: int, viewer: Seat | None, after: object, events: list[Event], view: Frozen) -> str:
    told = [_event(event) for event in events if event.audience in (None, viewer)]
    record = {
        "version": version,
        "viewer": viewer,
        "after": after,
        "events": told,
        "view": view.model_dump(mode="json"),
    }
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def playthrough(game: Game[Any, Any]) -> list[str]:
    """The seeded game with random players at the fewest seats the game allows (the files stay
    small: a view per viewer per step), as golden lines."""
    players = game.min_players
    viewers: list[Seat | None] = [None, *range(players)]
    state = game.new(players)
    lines = [_line(state.version, viewer, None, [], game.view(state, viewer)) for viewer in viewers]
    for turn in play(game, [RandomPlayer()] * players, random.Random(f"golden:{game.id}")):
        state = turn.step.state
        after = [turn.seat, turn.action]
        events = list(turn.step.events)
        lines += [_line(state.version, viewer, after, events, game.view(state, viewer)) for viewer in viewers]
    return lines


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_seeded_game_plays_as_its_golden_file(game_id: str, request: pytest.FixtureRequest) -> None:
    path = GOLDEN / f"{game_id}.jsonl"
    lines = playthrough(GAMES[game_id])
    if request.config.getoption("--update-golden"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if not path.exists():
        pytest.fail(
            f"no golden playthrough for {game_id!r}: create {path.relative_to(GOLDEN.parent.parent)} with "
            "`python -m pytest tests/test_golden.py --update-golden`, and review it",
            pytrace=False,
        )
    golden = path.read_text(encoding="utf-8").splitlines()
    for number, (got, expected) in enumerate(zip(lines, golden, strict=False), start=1):
        assert got == expected, f"{path.name}, line {number} differs:\n  golden: {expected}\n  now:    {got}"
    assert len(lines) == len(golden), (
        f"{path.name}: {len(golden)} golden lines, the game now gives {len(lines)}"
    )


def test_every_golden_file_belongs_to_a_registered_game() -> None:
    stale = sorted(path.stem for path in GOLDEN.glob("*.jsonl") if path.stem not in GAMES)
    assert not stale, f"golden files of unregistered games: {stale}"
