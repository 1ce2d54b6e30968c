"""`python -m benchmarks memory [--chats 40] [--rounds 60] [--json]`: a worker's memory once every game
has been played in it for a while.

In one bot process (the real Application, real Redis, fake Bot API), `--chats` private chats (half in
Russian, half in English) play random games, a random button of their latest message at a time (a new
game when one ends, or one time in a hundred), `--rounds` presses each. The process's resident memory
is read after the first round (every picture kind drawn once) and at the end, with the pixels of every
picture and sprite still alive (the render caches, almost all of it) and each update's time. The fake
keeps what it was sent, as Telegram would: it forgets it after each round, as a real worker holds none.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import time
from typing import Any

from PIL import Image

from benchmarks.driver import Driver, add_redis_url, open_redis
from benchmarks.timing import percentile
from bot.tables import lifecycle

GAMES = (
    "grid",
    "grid_tarot",
    "race",
    "durak",
    "durak_transfer",
    "tarot",
    "minor_arcana",
    "gold 10",
    "bandit",
)
FIRST_USER = 30_000
#: Half the chats in each language: a picture's sprites are drawn per language.
LANGUAGES = ("ru", "en")
BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "LA": 4, "RGB": 4, "RGBA": 4}


def resident_mb(field: str = "VmRSS") -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def live_pixels_mb() -> float:
    """What every picture still referenced holds in pixels (Pillow's memory, outside Python's heap)."""
    gc.collect()
    images = (o for o in gc.get_objects() if isinstance(o, Image.Image))
    return sum(i.width * i.height * BYTES_PER_PIXEL.get(i.mode, 4) for i in images) / 2**20


async def _press_or_open(driver: Driver, user: int, rng: random.Random) -> float:
    message = driver.api.last_message(user)
    buttons = []
    if message is not None:
        buttons = [data for row in driver.api.buttons(user, message.message_id) for _, data in row if data]
    lang = LANGUAGES[user % len(LANGUAGES)]
    if not buttons or rng.random() < 0.01:
        text = f"/new {rng.choice(GAMES)}"
        update = driver.updates.message(user, user, text, first_name=f"P{user}", language_code=lang)
    else:
        assert message is not None
        update = driver.updates.callback(
            user, user, message.message_id, rng.choice(buttons), language_code=lang
        )
    return await driver.feed(update)


async def measure(url: str, chats: int, rounds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    lifecycle.SEEDS = random.Random(seed)  # the same deals and dice every run, so a run replays
    redis = await open_redis(url)
    driver = Driver(redis)
    times: list[float] = []
    start = time.process_time()
    first_round_mb = 0.0  # (with no round at all)
    await driver.app.initialize()
    try:
        for round_number in range(rounds):
            for user in range(FIRST_USER, FIRST_USER + chats):
                times.append(await _press_or_open(driver, user, rng))
            driver.api.forget(keep=3)
            if round_number == 0:
                first_round_mb = resident_mb()
    finally:
        await driver.app.shutdown()
        await redis.aclose()
    return {
        "chats": chats,
        "updates": len(times),
        "rss_first_round_mb": round(first_round_mb, 1),
        "rss_end_mb": round(resident_mb(), 1),
        "rss_peak_mb": round(resident_mb("VmHWM"), 1),
        "live_pixels_mb": round(live_pixels_mb(), 1),
        "update_p50_ms": round(percentile(times, 0.5), 1),
        "update_p99_ms": round(percentile(times, 0.99), 1),
        "cpu_s": round(time.process_time() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks memory", description=__doc__)
    parser.add_argument("--chats", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_redis_url(parser)
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.redis_url, args.chats, args.rounds, args.seed))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<20}  {value}")
    return 0
