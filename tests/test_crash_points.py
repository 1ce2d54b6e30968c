"""Coins are conserved whatever crashes: a failure is injected at every Redis command and every Bot
API call of the stake, payout and pull paths, before the call and after it, and another worker
recovers (the update is delivered again, the ticker runs, the next pull comes).

After recovery, for every crash point:
- every coin a balance holds is accounted for: balance = 1000 + the sum of the wallet's recorded
  movements, each applied once (no coin made or lost, nothing charged or paid twice);
- a stake was taken exactly when its table was stored, and the table plays or has ended;
- a finished table was paid exactly its payout, once; a stopped one had its stake returned;
- every pull charged was settled and shown.
So the sum of all balances plus the open stakes equals the coins issued (the start balances and
what the house paid out).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot import keys
from bot.adapters import ADAPTERS
from bot.app import services_of
from bot.offline.fake_api import FakeBotAPI
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from core.games.gold import CODES
from tests.conftest import TEST_REDIS_URL
from tests.faults import FaultyRedis
from tests.harness import BotHarness

ALICE = 61
START = 1000


@dataclass
class Path:
    """A path: what to set up (no faults), the step a fault hits, and the user's update to replay."""

    name: str
    setup: Callable[[BotHarness], Awaitable[dict[str, Any] | None]]
    step: Callable[[BotHarness, dict[str, Any] | None], Awaitable[dict[str, Any]]]


async def _no_setup(bot: BotHarness) -> None:
    return None


async def _stake(bot: BotHarness, _: dict[str, Any] | None) -> dict[str, Any]:
    update = bot.updates.message(ALICE, ALICE, "/new gold 40", language_code="en")
    await bot.feed(update)
    return update


async def _seven_marks(bot: BotHarness) -> dict[str, Any]:
    await bot.say(ALICE, ALICE, "/new gold 20")
    for code in CODES[:7]:
        await bot.press(ALICE, ALICE, bot.button(ALICE, code))
    live = bot.live(ALICE)
    return {"go": bot.button(ALICE, "⛵ Send the expedition"), "message": live.message_id}


async def _payout(bot: BotHarness, ready: dict[str, Any] | None) -> dict[str, Any]:
    assert ready is not None
    update = bot.updates.callback(ALICE, ALICE, ready["message"], ready["go"], language_code="en")
    await bot.feed(update)
    return update


async def _pull(bot: BotHarness, _: dict[str, Any] | None) -> dict[str, Any]:
    update = bot.updates.message(ALICE, ALICE, "/spin", language_code="en")
    await bot.feed(update)
    return update


PATHS = [
    Path("stake", _no_setup, _stake),
    Path("payout", _seven_marks, _payout),
    Path("pull", _no_setup, _pull),
]


async def _ledger(redis: FaultyRedis) -> dict[str, int]:
    ops: dict[str, int] = {}
    async for key in redis.scan_iter(match=keys.wallet_part(ALICE, "op:*")):
        raw = await redis.get(key)
        assert raw is not None
        movement = json.loads(raw)
        ops[movement["op"]] = int(movement["delta"])
    return ops


async def _tables(redis: FaultyRedis) -> list[Table]:
    found = []
    async for key in redis.scan_iter(match="t:*"):
        doc = await redis.hget(key, "doc")
        if doc is not None:
            found.append(Table.model_validate_json(doc))
    return found


async def check_conserved(bot: BotHarness, redis: FaultyRedis) -> None:
    services = services_of(bot.app)
    balance = await services.pulls.wallet.balance(ALICE)
    ledger = await _ledger(redis)
    assert balance == START + sum(ledger.values()), ledger
    open_stakes = 0
    for table in await _tables(redis):
        adapter = ADAPTERS[table.game]
        stake = adapter.stake(table.options)
        if table.phase is Phase.LOBBY or stake == 0:
            continue
        assert ledger.get(f"{table.id}:stake") == -stake, f"{table.id} stored without its stake"
        if table.phase is Phase.PLAYING:
            open_stakes += stake
            continue
        state = state_of(table)
        if game_of(table).outcome(state) is None:
            assert ledger.get(f"{table.id}:refund") == stake
        else:
            payout = adapter.payout(state, 0)
            assert ledger.get(f"{table.id}:payout", 0) == payout, "a finished game paid other than once"
    stored = {table.id for table in await _tables(redis)}
    for op in ledger:
        if op.endswith(":stake"):
            assert op.removesuffix(":stake") in stored, f"{op}: a stake without its table"
    # Every pull charged was settled, and nothing is left unshown.
    for op in ledger:
        if op.startswith("pull:"):
            assert f"spin:{op.removeprefix('pull:')}" in ledger or await redis.exists(
                keys.wallet_part(ALICE, f"spin:{op.removeprefix('pull:')}")
            )
    assert await services.pulls.pending(ALICE) == []
    paid = sum(delta for op, delta in ledger.items() if delta > 0)
    taken = -sum(delta for op, delta in ledger.items() if delta < 0)
    # The identity: balances plus open stakes equal the coins issued (start + house paid) less
    # what settled games took.
    assert balance + open_stakes == START + paid - (taken - open_stakes)


async def _run(path: Path, where: str, call: int | None, after: bool) -> int:
    """One crash point; returns how many calls of that kind the step made (for the fault-free run)."""
    redis = FaultyRedis.at(TEST_REDIS_URL)
    await redis.flushdb()
    api = FakeBotAPI()
    try:
        async with BotHarness(redis, api=api) as bot:
            ready = await path.setup(bot)
            (redis if where == "redis" else api).arm(call, after=after)
            update = await path.step(bot, ready)
            counted = redis.armed_calls if where == "redis" else api.armed_calls
            redis.arm(None)
            api.arm(None)
            bot.expect_errors()  # the crash itself
        # Another worker: Telegram delivers the update again, the ticker runs, the next pull comes.
        async with BotHarness(redis, api=api) as recovery:
            await recovery.feed(update)
            await recovery.tick()
            if path.name == "pull":
                await recovery.say(ALICE, ALICE, "/spin")
            await check_conserved(recovery, redis)
        return counted
    finally:
        await redis.flushdb()
        await redis.aclose()


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.name)
@pytest.mark.parametrize("where", ["redis", "api"])
async def test_coins_are_conserved_at_every_crash_point(path: Path, where: str) -> None:
    calls = await _run(path, where, None, False)
    assert calls > 0, f"the {path.name} path made no {where} call"
    for call in range(1, calls + 1):
        for after in (False, True):
            await _run(path, where, call, after)
    print(f"{path.name}/{where}: {calls} calls, {2 * calls} crash points, coins conserved")
