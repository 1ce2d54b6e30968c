"""Fuzzing the bot with presses and commands that must all be refused: 10,000 random and near-valid
callback data strings and 2,000 random commands, from seated and unseated people, in private chats
and in a group. Zero handler exceptions, zero stored changes, and every press answered."""

from __future__ import annotations

import random
import string

import redis.asyncio as aioredis

from bot.chat import callback
from bot.chat.callback import Kind
from bot.tables.model import Table
from tests.harness import BotHarness

ALICE, BOB, CAROL, EVE = 81, 82, 83, 84
GROUP = -100810
PRESSES = 10_000
COMMANDS = 2_000
#: Keys that may change without a stored change: the marks of handled updates, the edit lease, and
#: the jobs that delete the bot's answers to typed commands in a group after a minute.
TRANSIENT = (b"upd:", b"el:", b"later:")

#: Lobby actions a person may not take at a running table they do not host (and moves they may not
#: make: they are not seated, or the screen is not the current one).
REFUSED_ACTIONS = (
    "start",
    "cancel",
    "join",
    "computer",
    "o.level",
    "o.variant",
    "hand",
    "back",
    "i.proof",
    "x",
)


async def snapshot(redis: aioredis.Redis) -> dict[bytes, object]:
    """Every key's value (by type: a DUMP would differ with a hash's field order).

    Redis expires keys on the wall clock, which the test does not control: every key is made
    persistent here, so a slow run cannot see a key (the edit budget's, a minute after the last edit)
    vanish between the two snapshots."""
    values: dict[bytes, object] = {}
    async for key in redis.scan_iter():
        if key.startswith(TRANSIENT):
            continue
        await redis.persist(key)
        kind = await redis.type(key)
        if kind == b"hash":
            values[key] = await redis.hgetall(key)
        elif kind == b"zset":
            values[key] = await redis.zrange(key, 0, -1, withscores=True)
        elif kind == b"set":
            values[key] = await redis.smembers(key)
        elif kind == b"list":
            values[key] = await redis.lrange(key, 0, -1)
        else:
            values[key] = await redis.get(key)
    return values


def near_valid(rng: random.Random, table: Table) -> str:
    """A callback that looks like the bot's own but must be refused to the presser chosen for it."""
    kind = rng.choice(list(Kind))
    choice = rng.randrange(4)
    if choice == 0:  # an old or future screen
        version = table.screen + rng.choice([-3, -2, -1, 1, 2, 50])
        return callback.encode(kind, table.id, max(version, 0) if version != table.screen else 9999, "A1")
    if choice == 1:  # another table
        return callback.encode(kind, "".join(rng.choices("0123456789abcdef", k=10)), table.screen, "A1")
    if choice == 2:  # a lobby action the presser may not take
        return callback.encode(Kind.LOBBY, table.id, table.screen, rng.choice(REFUSED_ACTIONS))
    raw = callback.encode(kind, table.id, table.screen, "A1")
    cut = rng.randrange(1, len(raw))
    return raw[:cut] + rng.choice([":", "::", "²", "A" * 70, "\u0000", "-1", ""]) + raw[cut + 1 :]


def garbage(rng: random.Random) -> str:
    length = rng.randrange(0, 70)
    alphabet = string.printable + "²ёЖ♠♥€\u200b"
    return "".join(rng.choice(alphabet) for _ in range(length))


def command(rng: random.Random) -> str:
    name = rng.choice(["new", "join", "stop", "leave", "help", "games", "lang", "top", "start", "nosuch"])
    args = [
        rng.choice(["blah", "grid_x", "durak", "¯\\_(ツ)_/¯", "9" * 30, garbage(rng), "ш" * 4000])
        for _ in range(rng.randrange(3))
    ]
    if name == "new" and args and args[0] in ("durak",):
        args[0] = "durakk"  # a real game would legitimately open a table
    if name == "start" and args:
        args[0] = "join_" + args[0][:10]
    return " ".join([f"/{name}", *args])


async def test_random_and_near_valid_input_is_refused_and_changes_nothing(
    redis_client: aioredis.Redis,
) -> None:
    rng = random.Random(20261201)
    async with BotHarness(redis_client) as bot:
        # A running group game of Alice and Bob, and a running private game of Carol's.
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        await bot.say(CAROL, CAROL, "/new grid ai", first_name="Carol")
        for user in (ALICE, BOB, EVE):
            await bot.say(user, user, "/help")
        group = await bot.table(GROUP)
        private = await bot.table(CAROL)
        assert group is not None and private is not None
        before = await snapshot(redis_client)
        answers = len(bot.api.calls_of("answerCallbackQuery"))
        targets = [
            # (chat, a bot message there, pressers who may not act on the table chosen)
            (GROUP, bot.live(GROUP).message_id, [EVE, CAROL]),
            (ALICE, bot.live(ALICE).message_id, [ALICE]),
            (BOB, bot.live(BOB).message_id, [BOB]),
            (EVE, bot.live(EVE).message_id, [EVE]),
        ]
        for number in range(PRESSES):
            chat, message, pressers = rng.choice(targets)
            table = rng.choice([group, private])
            data = near_valid(rng, table) if number % 2 else garbage(rng)
            await bot.press(
                chat, rng.choice(pressers), data, message, language_code=rng.choice(["ru", "en", None])
            )
        assert len(bot.api.calls_of("answerCallbackQuery")) == answers + PRESSES
        for _ in range(COMMANDS):
            chat, user = rng.choice([(GROUP, EVE), (GROUP, CAROL), (EVE, EVE), (CAROL, CAROL), (GROUP, BOB)])
            text = command(rng)
            if chat == CAROL and text.startswith(("/stop", "/leave", "/new")):
                text = "/help " + text  # her own game: those would end or replace it, legitimately
            if chat == GROUP and user == BOB and text.startswith(("/leave", "/stop")):
                text = "/top"  # Bob is seated: leaving hands his seat to a computer, legitimately
            await bot.say(chat, user, text, language_code=rng.choice(["ru", "en"]))
        assert await snapshot(redis_client) == before
        assert not bot.errors
