"""`python -m benchmarks bandit|gold`: coin games end to end through the Application on a real Redis.

bandit: pulls (a /spin update in until every call is made, the spin animation included) and the time
to build the animation alone. gold: whole tours (the bet, seven marks, the route sent and the reveal,
whose pauses are left out) and the time to draw one field.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.driver import Driver, add_redis_url, open_redis
from benchmarks.timing import percentile
from bot.app import services_of
from bot.chat import callback
from core.engine import resolve_chance
from core.games.gold import CODES
from core.registry import GAMES
from render.bandit import render_spin_animation
from render.gold import render_gold


async def bandit(redis_url: str, pulls: int, seed: int) -> dict[str, float]:
    redis = await open_redis(redis_url)
    driver = Driver(redis)
    await driver.app.initialize()
    times: list[float] = []
    sizes: list[int] = []
    try:
        for number in range(pulls):
            user = 10_000 + number // 5  # five free pulls each, then a new person
            times.append(await driver.feed(driver.updates.message(user, user, "/spin")))
            message = driver.api.last_message(user)
            assert message is not None and message.photo is not None
            sizes.append(len(message.photo))
    finally:
        await driver.app.shutdown()
        await redis.flushdb()
        await redis.aclose()
    game = GAMES["bandit"]
    rng = random.Random(seed)
    views = [game.view(resolve_chance(game, game.new(1), rng)[0], 0) for _ in range(30)]
    animation = timed(lambda view: render_spin_animation(view), views)
    return {
        "pulls": len(times),
        "pulls_per_s": round(len(times) / (sum(times) / 1000), 1),
        "pull_p50_ms": round(statistics.median(times), 1),
        "pull_p99_ms": round(percentile(times, 0.99), 1),
        "animation_ms": round(statistics.median(animation), 1),
        "animation_kb": round(statistics.mean(sizes) / 1024, 1),
    }


async def gold(redis_url: str, tours: int, seed: int) -> dict[str, float]:
    redis = await open_redis(redis_url)
    driver = Driver(redis)
    await driver.app.initialize()
    rng = random.Random(seed)
    tour_times: list[float] = []
    press_times: list[float] = []
    store = services_of(driver.app).tables.store
    try:
        for number in range(tours):
            user = 20_000 + number
            spent = [await driver.feed(driver.updates.message(user, user, "/new gold 20"))]
            for code in [*rng.sample(CODES, 7), "go"]:
                table = await store.get(user, 0)
                assert table is not None and table.message_id is not None
                data = callback.encode(callback.Kind.MOVE, table.id, table.screen, code)
                press = await driver.feed(driver.updates.callback(user, user, table.message_id, data))
                press_times.append(press)
                spent.append(press)
            tour_times.append(sum(spent))
    finally:
        await driver.app.shutdown()
        await redis.flushdb()
        await redis.aclose()
    game = GAMES["gold"]
    views = []
    for _ in range(30):
        state, _ = resolve_chance(game, game.new(1), rng)
        for code in [*rng.sample(CODES, 7), "go"]:
            state = game.apply(state, 0, code).state
        views.append(game.view(state, 0))
    drawing = timed(lambda view: render_gold(view), views)
    return {
        "tours": len(tour_times),
        "tours_per_s": round(len(tour_times) / (sum(tour_times) / 1000), 2),
        "tour_p50_ms": round(statistics.median(tour_times), 1),
        "press_p50_ms": round(statistics.median(press_times), 1),
        "press_p99_ms": round(percentile(press_times, 0.99), 1),
        "field_render_ms": round(statistics.median(drawing), 1),
    }


def timed(draw: Callable[[Any], bytes], views: list[Any]) -> list[float]:
    draw(views[0])  # caches
    times = []
    for view in views:
        start = time.perf_counter()
        draw(view)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(which: str, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m benchmarks {which}", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--count", type=int, default=300 if which == "bandit" else 60, help="pulls, or tours")
    parser.add_argument("--seed", type=int, default=1)
    add_redis_url(parser)
    args = parser.parse_args(argv)
    measure = bandit if which == "bandit" else gold
    result = asyncio.run(measure(args.redis_url, args.count, args.seed))
    print(json.dumps(result) if args.json else "\n".join(f"{k:<16} {v}" for k, v in result.items()))
    return 0
