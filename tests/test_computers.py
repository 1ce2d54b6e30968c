"""The decision pool: a decision over its time budget is made by the cheapest level instead."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
from pathlib import Path

import pytest

from bot.tables.computers import FALLBACK_LEVEL, Computers, decide
from core.ai import registry
from core.ai.search import ThinkLimit, think_limit
from core.engine import CHANCE, Action, Frozen, resolve_chance
from core.registry import GAMES


class Stuck:
    """A player that thinks until the test lets it go."""

    def __init__(self) -> None:
        self.released = threading.Event()

    def choose(self, view: object, legal: tuple[Action, ...], rng: random.Random) -> Action:
        self.released.wait(timeout=60)
        return legal[-1]


def _grid_decision() -> tuple[Frozen, tuple[Action, ...]]:
    """A view of a card grid and its legal actions, more than one."""
    game = GAMES["grid"]
    state, _ = resolve_chance(game, game.new(2, {}), random.Random(1))
    seat = game.to_move(state)[0]
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    assert len(legal) > 1
    return view, legal


async def test_a_decision_over_its_budget_falls_back_to_the_cheapest_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, legal = _grid_decision()
    stuck = Stuck()
    monkeypatch.setitem(registry.PLAYERS["grid"], "hard", stuck)
    computers = Computers(processes=0, budget_seconds=0.01)
    try:
        chosen = await computers.decide("grid", "hard", view, legal, "seed")
    finally:
        stuck.released.set()
    expected = registry.computer_player("grid", FALLBACK_LEVEL).choose(view, legal, random.Random("seed"))
    assert chosen == expected and chosen in legal


class Thinking:
    """A player that notes the think limit it was given."""

    def __init__(self) -> None:
        self.limits: list[ThinkLimit | None] = []

    def choose(self, view: object, legal: tuple[Action, ...], rng: random.Random) -> Action:
        self.limits.append(think_limit())
        return legal[0]


async def test_a_decision_thinks_within_the_bot_s_think_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    view, legal = _grid_decision()
    thinking = Thinking()
    monkeypatch.setitem(registry.PLAYERS["grid"], "hard", thinking)
    for think_seconds in (0.25, 0):
        await Computers(processes=0, budget_seconds=600, think_seconds=think_seconds).decide(
            "grid", "hard", view, legal, "seed"
        )
    assert [limit and limit.seconds for limit in thinking.limits] == [0.25, None]


async def test_every_game_decides_through_the_worker_processes() -> None:
    """The production path: views and actions of every game cross to a worker process and back."""
    computers = Computers(processes=1, budget_seconds=600)
    try:
        for game_id, game in sorted(GAMES.items()):
            state, _ = resolve_chance(
                game, game.new(min(max(game.min_players, 2), game.max_players), {}), random.Random(game_id)
            )
            seats = [seat for seat in game.to_move(state) if seat != CHANCE]
            if not seats:  # the bandit: its one pull is chance alone
                continue
            seat = seats[0]
            legal = game.legal_actions(state, seat)
            for level in registry.PLAYERS[game_id]:
                chosen = await computers.decide(game_id, level, game.view(state, seat), legal, "seed")
                assert chosen in legal, (game_id, level)
    finally:
        computers.close()


def _workers() -> list[int]:
    """The worker processes this process has spawned."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            command = (proc / "cmdline").read_bytes()
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # not a process, or gone meanwhile
        if parent == os.getpid() and b"spawn_main" in command:
            found.append(int(proc.name))
    return found


async def test_a_worker_that_dies_is_replaced_and_its_decision_still_made() -> None:
    """A worker killed between decisions (`kill -9`, the out-of-memory killer) breaks its pool for
    good; the next decision starts a new pool and is made as the level would make it."""
    view, legal = _grid_decision()
    expected = decide("grid", "hard", view, legal, "seed")
    others = set(_workers())  # an earlier test's pool may still be ending
    computers = Computers(processes=1, budget_seconds=600)
    try:
        assert await computers.decide("grid", "hard", view, legal, "seed") == expected
        (worker,) = set(_workers()) - others
        os.kill(worker, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):  # the pool reaped it first: dead all the same
            os.waitid(os.P_PID, worker, os.WEXITED | os.WNOWAIT)  # dead, and left for the pool to reap
        for _ in range(3):
            assert await computers.decide("grid", "hard", view, legal, "seed") == expected
        assert worker not in _workers() and len(set(_workers()) - others) == 1
    finally:
        computers.close()


def test_closed_computers_leave_no_pool_thread_for_pythons_exit() -> None:
    """Python 3.11 wakes every process pool's manager thread at exit, racing a thread still closing
    its pipe: after a SIGTERM the bot once printed «Exception ignored ... Bad file descriptor»."""
    before = set(threading.enumerate())
    computers = Computers(processes=1, budget_seconds=600)
    computers.close()
    assert not [t for t in set(threading.enumerate()) - before if t.is_alive()]
