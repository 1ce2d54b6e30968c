"""Turn latency of the real Application on a real Redis, against the floor of answering with a photo.

A turn is one button press in a private solo grid game, from the update going in until every outgoing
Bot API call is made (store, engine, rendering and the edit included). The floor is the same
Application answering a press with one pre-drawn photo of the same pixel size, plus encoding a blank
RGB image of that size as a plain Pillow PNG: what a bot that draws a fresh picture every turn pays at
least. A second floor encodes the blank image in our own palette format instead, which a blank image
makes almost free; both are reported.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from typing import Any

import redis.asyncio as aioredis
from PIL import Image
from telegram import InputMediaPhoto, Update
from telegram.ext import Application, ApplicationHandlerStop, CallbackQueryHandler, ContextTypes

from benchmarks.driver import Driver, open_redis
from benchmarks.timing import percentile
from bot import keys
from bot.app import services_of
from bot.chat import callback
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase
from core.ai.random_player import RandomPlayer
from core.play import play
from core.registry import GAMES
from render.encode import encode

App = Application[Any, Any, Any, Any, Any, Any]
FLOOR = "floor"


class Bench(Driver):
    def __init__(self, redis: aioredis.Redis) -> None:
        super().__init__(redis)
        self.floor_photo = b""
        self.floor_mode = "RGB"
        self.app.add_handler(CallbackQueryHandler(self._floor, pattern=f"^{FLOOR}$"), group=-1)

    async def _floor(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        blank = Image.new(self.floor_mode, Image.open(io.BytesIO(self.floor_photo)).size, "white")
        if self.floor_mode == "P":
            encode(blank)  # in the turn pictures' own palette format
        else:
            blank.save(io.BytesIO(), "PNG")  # Pillow's plain PNG, what a naive bot would do
        await context.bot.edit_message_media(
            InputMediaPhoto(self.floor_photo, caption="floor"),
            chat_id=query.message.chat.id,
            message_id=query.message.message_id,
        )
        await query.answer()
        raise ApplicationHandlerStop  # the game's own press handler must not see it

    async def turns(self, count: int, seed: int) -> tuple[list[float], list[int], list[int]]:
        """Solo games until `count` presses were timed: their times, image sizes and table sizes."""
        rng = random.Random(seed)
        times: list[float] = []
        images: list[int] = []
        tables: list[int] = []
        user = 1000
        store = services_of(self.app).tables.store
        while len(times) < count:
            user += 1
            await self.feed(self.updates.message(user, user, "/new grid"))
            while True:
                table = await store.get(user, 0)
                assert table is not None
                if table.phase is not Phase.PLAYING:
                    break
                state = state_of(table)
                game = game_of(table)
                action = rng.choice(game.legal_actions(state, game.to_move(state)[0]))
                data = callback.encode(callback.Kind.MOVE, table.id, table.screen, action)
                message_id = table.message_id
                assert message_id is not None
                times.append(await self.feed(self.updates.callback(user, user, message_id, data)))
                photo = self.api.photo(user, message_id)
                assert photo is not None
                images.append(len(photo))
                raw = await self.redis.hget(keys.table(user, 0), "doc")
                tables.append(len(raw or b""))
        self.floor_photo = photo or b""
        return times, images, tables

    async def floor(self, count: int, mode: str) -> list[float]:
        self.floor_mode = mode
        chat = 999
        await self.feed(self.updates.message(chat, chat, "/new grid"))
        message = self.api.last_message(chat)
        assert message is not None
        return [
            await self.feed(self.updates.callback(chat, chat, message.message_id, FLOOR))
            for _ in range(count)
        ]


def render_times(samples: int, seed: int) -> list[float]:
    from bot.adapters import ADAPTERS

    adapter = ADAPTERS["grid"]
    game = GAMES["grid"]
    rng = random.Random(seed)
    times: list[float] = []
    for turn in play(game, [RandomPlayer(), RandomPlayer()], rng):
        if len(times) >= samples:
            break
        view = game.view(turn.step.state, None)
        start = time.perf_counter()
        adapter.picture(view, ("Alice", "Bob"), "ru", ())
        times.append((time.perf_counter() - start) * 1000)
    return times


def playouts_per_second(seconds: float, seed: int) -> float:
    game = GAMES["grid"]
    rng = random.Random(seed)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in play(game, [RandomPlayer(), RandomPlayer()], rng):
            pass
        games += 1
    return games / (time.perf_counter() - start)


async def measure(redis_url: str, turns: int, seed: int) -> dict[str, float]:
    redis = await open_redis(redis_url)
    bench = Bench(redis)
    await bench.app.initialize()
    try:
        await bench.turns(20, seed + 1)  # warm the caches: sprites, fonts, palettes, scripts
        times, images, tables = await bench.turns(turns, seed)
        floor = await bench.floor(max(200, turns // 2), "RGB")
        floor_own = await bench.floor(max(200, turns // 2), "P")
    finally:
        await bench.app.shutdown()
        await redis.flushdb()
        await redis.aclose()
    turn_p50 = statistics.median(times)
    floor_ms = statistics.median(floor)
    renders = render_times(200, seed)
    return {
        "turns": len(times),
        "turn_p50_ms": round(turn_p50, 2),
        "turn_p99_ms": round(percentile(times, 0.99), 2),
        "floor_ms": round(floor_ms, 2),
        "ratio_p50": round(turn_p50 / floor_ms, 2),
        "floor_own_codec_ms": round(statistics.median(floor_own), 2),
        "ratio_p50_own_codec": round(turn_p50 / statistics.median(floor_own), 2),
        "render_ms": round(statistics.median(renders), 2),
        "image_kb": round(statistics.mean(images) / 1024, 1),
        "image_kb_max": round(max(images) / 1024, 1),
        "table_bytes": max(tables),
        "playouts_per_s": round(playouts_per_second(3.0, seed), 1),
    }
