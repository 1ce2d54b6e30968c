"""`python -m benchmarks isolation [--json]`: one chat's turn is not held up by another chat's
thinking computers.

In one bot process (the real Application, real Redis, fake Bot API), a person plays a private grid
game; the time of each of their turns (press to the last Bot API call) is taken alone, then again
while 16 private Durak tables against hard computers are played by simulated people as fast as the
bot answers them. `ratio` is the loaded p99 over the alone p99 (the target is at most 2), and
`durak_hard_turns_per_s` the Durak turns (a person's move and the computers' replies, stored and
shown) the process served per second meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from typing import Any

from telegram import Update

from benchmarks.driver import add_redis_url
from benchmarks.timing import percentile
from bot.app import build_application, services_of
from bot.chat import callback
from bot.offline.fake_api import FakeBotAPI, UpdateFactory
from bot.runtime.redis import client
from bot.settings import Settings
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase

DURAK_TABLES = 16


class Bot:
    def __init__(self, url: str, processes: int) -> None:
        self.redis = client(url)
        self.api = FakeBotAPI()
        self.updates = UpdateFactory(self.api)
        settings = Settings(_env_file=None, computer_processes=processes, tick_seconds=0)
        self.app = build_application(settings, redis=self.redis, request=self.api, rate_limit=False)
        self.store = services_of(self.app).tables.store

    async def feed(self, update: dict[str, Any]) -> float:
        start = time.perf_counter()
        await self.app.process_update(Update.de_json(update, self.app.bot))
        return (time.perf_counter() - start) * 1000

    async def press_for(self, user: int, rng: random.Random) -> float | None:
        """One move of the person in their private chat (a new game when the last one ended)."""
        table = await self.store.get(user, 0)
        if table is None or table.phase is not Phase.PLAYING:
            return None
        state = state_of(table)
        game = game_of(table)
        seat = table.seat_of(user)
        assert seat is not None
        legal = game.legal_actions(state, seat)
        if not legal:
            return None
        data = callback.encode(callback.Kind.MOVE, table.id, table.screen, rng.choice(legal))
        message = table.panels.get(seat, table.message_id)
        assert message is not None
        return await self.feed(self.updates.callback(user, user, message, data))


async def grid_turns(bot: Bot, count: int, rng: random.Random, pause: float) -> list[float]:
    user = 500
    times: list[float] = []
    await bot.feed(bot.updates.message(user, user, "/new grid"))
    while len(times) < count:
        took = await bot.press_for(user, rng)
        if took is None:
            await bot.feed(bot.updates.message(user, user, "/new grid"))
            continue
        times.append(took)
        await asyncio.sleep(pause)  # a person looks at the picture before the next move
    return times


async def durak_player(bot: Bot, user: int, stop: asyncio.Event, turns: list[int]) -> None:
    rng = random.Random(user)
    await bot.feed(bot.updates.message(user, user, "/new durak hard"))
    while not stop.is_set():
        if await bot.press_for(user, rng) is None:
            await bot.feed(bot.updates.message(user, user, "/new durak hard"))
        else:
            turns[0] += 1


async def measure(url: str, turns: int, processes: int) -> dict[str, float]:
    bot = Bot(url, processes)
    await bot.redis.flushdb()
    await bot.app.initialize()
    rng = random.Random(1)
    await grid_turns(bot, 20, rng, 0.0)  # warm caches
    alone = await grid_turns(bot, turns, rng, 0.02)
    stop = asyncio.Event()
    served = [0]
    players = [asyncio.create_task(durak_player(bot, 10_000 + n, stop, served)) for n in range(DURAK_TABLES)]
    await asyncio.sleep(2.0)  # the Durak tables get going
    started, before = time.perf_counter(), served[0]
    loaded = await grid_turns(bot, turns, rng, 0.02)
    rate = (served[0] - before) / (time.perf_counter() - started)
    stop.set()
    await asyncio.gather(*players)
    await bot.app.shutdown()
    await bot.redis.aclose()
    alone_p99, loaded_p99 = percentile(alone, 0.99), percentile(loaded, 0.99)
    return {
        "grid_p50_alone_ms": round(percentile(alone, 0.5), 1),
        "grid_p99_alone_ms": round(alone_p99, 1),
        "grid_p50_loaded_ms": round(percentile(loaded, 0.5), 1),
        "grid_p99_loaded_ms": round(loaded_p99, 1),
        "ratio": round(loaded_p99 / alone_p99, 2),
        "durak_hard_turns_per_s": round(rate, 1),
        "durak_tables": DURAK_TABLES,
        "computer_processes": processes,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks isolation", description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--turns", type=int, default=300, help="timed grid turns in each phase")
    parser.add_argument("--processes", type=int, default=2, help="computer worker processes")
    add_redis_url(parser)
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.redis_url, args.turns, args.processes))
    print(json.dumps(result) if args.json else "\n".join(f"{key}: {value}" for key, value in result.items()))
    return 0
