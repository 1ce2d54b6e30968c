"""`python -m benchmarks timers [--tables 500] [--json]`: a burst of due turn timers, one worker
against two worker processes on one Redis.

Every table is a group grid game whose person is to move and whose deadline has passed; each
expiry warns the person, restamps the deadline and sends the table's picture (a render, a Bot API
call, a bookkeeping write). Each worker is a separate process running the real Application on its
own fake Bot API, ticking until no table is due. The figure is the wall time from the start signal
until every table was handled exactly once. Each worker is pinned to a core of its own (as a worker
on a machine of its own would be: otherwise one worker's rendering threads already use both cores of a
small machine); with the work CPU-bound, two workers should take about half as long as one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import time
from multiprocessing import Queue
from multiprocessing.synchronize import Event

from benchmarks.driver import Driver, add_redis_url, open_redis
from bot.app import services_of
from bot.economy.wallet import Wallet
from bot.runtime.redis import client
from bot.tables import lifecycle
from bot.tables.model import Player
from bot.tables.store import TableStore


async def _prepare(url: str, tables: int) -> None:
    redis = await open_redis(url)
    store = TableStore(redis, Wallet(redis), ttl_seconds=3600)
    past = time.time() - 1
    for number in range(tables):
        chat = -(10**12) - number
        lobby = lifecycle.open_lobby(
            "grid",
            table_id=f"b{number}",
            chat_id=chat,
            topic=0,
            creator=Player(user_id=1, name="Ann"),
            lang="en",
            turn_seconds=90,
        )
        table = lifecycle.start(lifecycle.join(lobby, Player(user_id=2, name="Ben")))
        await store.put(table.model_copy(update={"deadline": past}), expected_version=None)
    await redis.aclose()


async def _work(url: str, ready: Event, go: Event, cpu: Queue[float]) -> None:
    redis = client(url)
    driver = Driver(redis)
    await driver.app.initialize()
    timers = services_of(driver.app).timers
    ready.set()
    while not go.is_set():
        await asyncio.sleep(0.001)
    start = time.process_time()
    await timers.tick()  # it returns once no table is due
    cpu.put(time.process_time() - start)
    await driver.app.shutdown()
    await redis.aclose()


def _worker(url: str, core: int, ready: Event, go: Event, cpu: Queue[float]) -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core % (os.cpu_count() or 1)})
    asyncio.run(_work(url, ready, go, cpu))


def burst(url: str, tables: int, workers: int) -> tuple[float, list[float]]:
    """Seconds for `workers` processes to handle `tables` due tables, and each one's CPU seconds."""
    asyncio.run(_prepare(url, tables))
    context = multiprocessing.get_context("spawn")
    go = context.Event()
    cpu: Queue[float] = context.Queue()
    readies = [context.Event() for _ in range(workers)]
    processes = [
        context.Process(target=_worker, args=(url, core, ready, go, cpu))
        for core, ready in enumerate(readies)
    ]
    for process in processes:
        process.start()
    for ready in readies:
        ready.wait()
    start = time.perf_counter()
    go.set()
    for process in processes:
        process.join()
    elapsed = time.perf_counter() - start
    asyncio.run(_check(url, tables))
    return elapsed, [round(cpu.get(), 2) for _ in processes]


async def _check(url: str, tables: int) -> None:
    """Every table expired exactly once: one strike, and a fresh deadline."""
    redis = client(url)
    store = TableStore(redis, Wallet(redis), ttl_seconds=3600)
    for number in range(tables):
        table = await store.get(-(10**12) - number, 0)
        assert table is not None and sum(table.strikes.values()) == 1, table
    await redis.aclose()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks timers", description=__doc__)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    add_redis_url(parser)
    args = parser.parse_args(argv)
    one, one_cpu = burst(args.redis_url, args.tables, 1)
    two, two_cpu = burst(args.redis_url, args.tables, 2)
    result = {
        "tables": args.tables,
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "ratio": round(one / two, 2),
        "cpu_s_per_worker": {"one": one_cpu, "two": two_cpu},
    }
    print(json.dumps(result) if args.json else "\n".join(f"{key}: {value}" for key, value in result.items()))
    return 0
