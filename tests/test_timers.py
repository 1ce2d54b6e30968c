"""Turn timers: warn, move for the person, give the seat to a computer that plays at once; kept in
Redis, claimed by one worker, and a table never left without a way forward."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot import keys
from bot.app import TICKER, services_of, ticking
from bot.chat import callback
from bot.offline import fake_api
from bot.tables.lifecycle import computers_to_move, game_of, person_move, set_away, state_of
from bot.tables.model import Phase, Table
from bot.tables.service import CARRY_ON_SECONDS, COMPUTER_GRACE_SECONDS, people_to_move
from core.engine import resolve_chance
from tests.harness import BotHarness, Clock

ALICE, BOB = 51, 52
GROUP = -100950
TURN = 90


async def group_game(bot: BotHarness, game: str = "grid") -> Table:
    for user, name in ((ALICE, "Alice"), (BOB, "Bob")):
        await bot.say(user, user, "/start", first_name=name)  # Durak's panels need the private chat
    await bot.say(GROUP, ALICE, f"/new {game}", first_name="Alice")
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    table = await bot.table(GROUP)
    assert table is not None and table.turn_seconds == TURN and table.deadline is not None
    return table


def mover(table: Table) -> int:
    return game_of(table).to_move(state_of(table))[0]


async def expire(bot: BotHarness, clock: Clock) -> Table:
    clock.advance(TURN + 1)
    await bot.tick()
    table = await bot.table(GROUP)
    assert table is not None
    return table


async def test_a_move_made_for_a_person_is_marked_but_not_what_followed_from_it(
    any_redis: aioredis.Redis,
) -> None:
    """«🤖 for Alice» marks the move a computer made for her, not the card it turned up."""
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        table = await group_game(bot, "race")
        name = table.players[mover(table)].name
        await expire(bot, clock)  # the warning
        await expire(bot, clock)  # a computer moves for them
        lines = bot.live(GROUP).content.split("\n")
        assert any(line.startswith(f"🤖 for {name}: token ") for line in lines), lines
        turned = [line for line in lines if "turns up" in line]
        assert turned and all(line.startswith("Card ") for line in turned), lines


async def test_timeouts_warn_then_move_then_take_the_seat(any_redis: aioredis.Redis) -> None:
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        table = await group_game(bot)
        seat = mover(table)
        await bot.tick()
        assert await bot.table(GROUP) == table  # not due yet
        edits = len(bot.api.calls_of("editMessageMedia"))
        warned = await expire(bot, clock)
        assert warned.strikes == {seat: 1}
        assert state_of(warned).version == state_of(table).version  # a warning moves nothing
        # Nor does it change the table's picture: its caption keeps telling the last moves.
        assert warned.screen == table.screen and len(bot.api.calls_of("editMessageMedia")) == edits
        notices = [m.content for m in bot.api.messages[GROUP].values()]
        name = table.players[seat].name
        assert f"⏰ {name}, your move! Next time a computer will move for you." in notices
        # The name is a mention, so that the notice reaches their phone.
        sent = bot.api.calls_of("sendMessage")[-1].params
        assert sent["parse_mode"] == "HTML"
        assert f'<a href="tg://user?id={table.players[seat].user_id}">{name}</a>' in sent["text"]
        # It quotes the table: a tap brings a busy chat back to it.
        notice = max(bot.api.messages[GROUP].values(), key=lambda message: message.message_id)
        assert notice.content.startswith("⏰") and notice.reply_to == table.message_id
        moved = await expire(bot, clock)
        assert moved.strikes.get(seat) == 2
        assert state_of(moved).version == state_of(table).version + 1  # a computer moved for them
        assert f"🤖 for {table.players[seat].name}" in bot.live(GROUP).content
        if moved.phase is not Phase.PLAYING:
            return
        # The other person plays; when the first one's turn times out again, a computer takes the
        # seat and plays it at once: the other person is to move again, with a deadline.
        other = mover(moved)
        user = moved.players[other].user_id
        assert user is not None
        await bot.press(GROUP, user, next(d for d in bot.button_data(GROUP) if d.startswith("g:")))
        again = await bot.table(GROUP)
        assert again is not None
        if again.phase is not Phase.PLAYING:
            return
        taken = await expire(bot, clock)
        assert taken.players[seat].away
        name = taken.players[seat].name
        assert f"⏰ {name} missed three turns: a computer plays the seat" in bot.live(GROUP).content
        if taken.phase is Phase.PLAYING:
            assert mover(taken) == other and taken.deadline is not None


@pytest.mark.parametrize("game", ["grid", "durak"])
async def test_a_group_game_nobody_plays_ends_by_timers_alone(any_redis: aioredis.Redis, game: str) -> None:
    """Nobody presses after Start: warnings, stand-in moves and stand-in seats carry it to its end."""
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        table = await group_game(bot, game)
        for _ in range(400):
            if table.phase is Phase.FINISHED:
                break
            # A person is to move: there is always a deadline.
            assert table.deadline is not None
            table = await expire(bot, clock)
        assert table.phase is Phase.FINISHED
        assert all(player.is_computer for player in table.players)


async def test_two_workers_handle_one_expiry_once(any_redis: aioredis.Redis) -> None:
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        table = await group_game(bot)
        api = bot.api
    key = keys.table(GROUP, 0)
    assert await any_redis.zscore(keys.due(keys.bucket_of(key)), key) == table.deadline
    clock.advance(TURN + 1)
    # Two workers come up after a restart and tick at the same moment.
    async with (
        BotHarness(any_redis, api=api, clock=clock) as one,
        BotHarness(any_redis, api=api, clock=clock) as two,
    ):
        await asyncio.gather(one.tick(), two.tick())
        after = await one.table(GROUP)
        assert after is not None and after.strikes == {mover(table): 1}
        assert after.deadline == clock.now.timestamp() + TURN
        assert await any_redis.zscore(keys.due(keys.bucket_of(key)), key) == after.deadline


async def test_computers_left_to_move_by_a_dead_worker_are_moved_by_the_ticker(
    any_redis: aioredis.Redis,
) -> None:
    clock = Clock()
    async with BotHarness(any_redis, clock=clock, outage_seconds=30) as bot:
        await bot.say(ALICE, ALICE, "/new durak")
        await bot.tick()
        table = await bot.table(ALICE)
        assert table is not None and not computers_to_move(table)
        # A worker stored a move after which computers are to move, then died before they did, and
        # no worker ran for ten minutes: the computers are not kept waiting any longer.
        services = services_of(bot.app)
        action = game_of(table).legal_actions(state_of(table), mover(table))[0]
        stored = await services.tables.write(table, person_move(table, ALICE, action))
        if not computers_to_move(stored):
            return  # this deal gives the person the next move: nothing to show
        assert stored.deadline is not None
        clock.advance(600)
        await bot.tick()
        after = await bot.table(ALICE)
        assert after is not None and not computers_to_move(after)
        assert after.screen > stored.screen


async def test_a_game_of_computers_alone_is_played_in_short_chains_each_stored_and_shown(
    any_redis: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every person away: the computers once played the whole game in one chain, holding the chat and
    the tick; with two workers, each one's ticker started the other's chain over when it outlasted
    its grace, and the game never moved on. Each decision here takes 1.5 s of the clock."""
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        table = await group_game(bot, "durak")
        tables = services_of(bot.app).tables
        real = tables.computers.decide
        chains: list[int] = []

        async def slow(*args: Any) -> Any:
            clock.advance(1.5)
            chains[-1] += 1
            return await real(*args)

        monkeypatch.setattr(tables.computers, "decide", slow)
        chains.append(0)
        committed = await tables.commit(table, set_away(table, table.people))
        assert committed is not None
        stored = committed
        while stored.phase is Phase.PLAYING:
            # Cut after three decisions (4.5 s), stored, shown, and due again at the next tick.
            assert chains[-1] == 3 and computers_to_move(stored)
            assert stored.deadline == clock.now.timestamp() + CARRY_ON_SECONDS
            assert callback.decode(bot.button_data(GROUP)[0]).version == stored.screen
            clock.advance(CARRY_ON_SECONDS)
            chains.append(0)
            await bot.tick()
            after = await bot.table(GROUP)
            assert after is not None and after.screen > stored.screen
            stored = after
        assert len(chains) > 3 and all(0 < n <= 3 for n in chains), chains
        assert stored.phase is Phase.FINISHED


async def test_the_next_tick_is_set_once_a_tick_has_ended_so_ticks_never_overlap(
    any_redis: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tick longer than the interval (computers moving for people who timed out) delays the next:
    a repeating job warned of every run it skipped, twice a chain of computers."""
    async with BotHarness(any_redis) as bot:
        timers = services_of(bot.app).timers
        set_next: list[tuple[Any, float, str, dict[str, Any]]] = []

        def run_once(callback: Any, when: float, name: str, job_kwargs: dict[str, Any]) -> None:
            set_next.append((callback, when, name, job_kwargs))

        async def failing() -> None:
            assert not set_next  # not while this tick runs
            raise RuntimeError("a bug")

        monkeypatch.setattr(timers, "tick", failing)
        with pytest.raises(RuntimeError):
            await ticking(SimpleNamespace(application=bot.app, job_queue=SimpleNamespace(run_once=run_once)))  # type: ignore[arg-type]
    assert set_next == [(ticking, bot.settings.tick_seconds, TICKER, {"misfire_grace_time": None})]


async def test_a_person_to_move_beside_computers_misses_nothing_when_their_grace_runs_out(
    any_redis: aioredis.Redis,
) -> None:
    """A throw-in open to a person and a computer at once, the computers' chain cut (or their worker
    gone): the ticker lets the computers move, and counts no missed turn against the person."""
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        table = await group_game(bot, "durak")
        tables = services_of(bot.app).tables
        bob = table.seat_of(BOB)
        assert bob is not None
        away = set_away(table, [bob])
        game, state, rng = game_of(table), state_of(table), random.Random(0)
        for _ in range(100):
            both = away.model_copy(update={"state": state.model_dump_json()})
            if computers_to_move(both) and people_to_move(both):
                break
            seat = game.to_move(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
            state, _ = resolve_chance(game, state, rng)
        else:
            raise AssertionError("no throw-in open to a person and a computer at once")
        stored = await tables.write(table, both)
        clock.advance(COMPUTER_GRACE_SECONDS + 1)
        await bot.tick()
        after = await bot.table(GROUP)
    assert after is not None and after.screen > stored.screen and not computers_to_move(after)
    assert after.strikes == {}


async def test_private_games_have_no_turn_timer(any_redis: aioredis.Redis) -> None:
    async with BotHarness(any_redis) as bot:
        await bot.say(ALICE, ALICE, "/new grid")
        table = await bot.table(ALICE)
        assert table is not None and table.deadline is None
        assert all([await any_redis.zcard(keys.due(bucket)) == 0 for bucket in range(keys.BUCKETS)])


async def test_a_lobby_nobody_starts_is_closed_and_frees_the_chat(any_redis: aioredis.Redis) -> None:
    """A host who opened a table and walked away does not keep the group from a new game."""
    clock = Clock()
    async with BotHarness(any_redis, clock=clock) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        lobby = await bot.table(GROUP)
        assert lobby is not None and lobby.phase is Phase.LOBBY and lobby.message_id is not None
        assert "The table closes after 15 minutes without a change." in bot.live(GROUP).content
        # Every change restarts the idle time: Bob joins after 10 minutes, 10 more pass.
        clock.advance(10 * 60)
        await bot.tick()
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
        clock.advance(10 * 60)
        await bot.tick()
        assert (await bot.table(GROUP)) is not None
        # Then nobody starts it for 15 minutes.
        clock.advance(5 * 60 + 1)
        await bot.tick()
        assert await bot.table(GROUP) is None
        closed = bot.api.messages[GROUP][lobby.message_id]
        assert closed.content == (
            "⌛ Card grid: the table is closed, nobody started the game for 15 minutes. "
            "/new grid opens a new one."
        )
        assert not bot.api.buttons(GROUP, lobby.message_id)
        await bot.say(GROUP, BOB, "/new grid", first_name="Bob")
        fresh = await bot.table(GROUP)
        assert fresh is not None and fresh.phase is Phase.LOBBY and fresh.creator == BOB
        assert not bot.errors


async def test_a_warning_whose_mentions_are_refused_goes_out_plain(
    redis_client: aioredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    send = fake_api._METHODS["sendMessage"]

    def refusing_mentions(api: fake_api.FakeBotAPI, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        if params.get("parse_mode") == "HTML":
            raise fake_api.ApiError("Bad Request: can't parse entities: user not found")
        return send(api, params, files)

    monkeypatch.setitem(fake_api._METHODS, "sendMessage", refusing_mentions)
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        table = await group_game(bot)
        await expire(bot, clock)
        name = table.players[mover(table)].name
        notices = [m.content for m in bot.api.messages[GROUP].values()]
        assert f"⏰ {name}, your move! Next time a computer will move for you." in notices
        assert not bot.errors


async def test_no_turn_runs_out_while_the_group_cannot_see_its_game(redis_client: aioredis.Redis) -> None:
    """The group took pictures from the bot: the timers wait (each expiry tries the picture again)
    instead of warning, moving for and unseating people who cannot see whose turn it is."""
    clock = Clock()
    async with BotHarness(redis_client, clock=clock) as bot:
        started = await group_game(bot)
        bot.api.no_photos.add(GROUP)  # an admin keeps media from members, the bot among them
        await bot.press(GROUP, started.players[mover(started)].user_id or 0, bot.button_data(GROUP)[0])
        table = await bot.table(GROUP)
        assert table is not None
        seat = mover(table)
        tries = len(bot.api.calls_of("editMessageMedia"))
        for _ in range(4):  # three would have given the seat to a computer
            waited = await expire(bot, clock)
            assert (
                waited.strikes == {} and waited.deadline is not None and waited.deadline > clock().timestamp()
            )
            assert state_of(waited).version == state_of(table).version
            assert not any(player.away for player in waited.players)
        assert len(bot.api.calls_of("editMessageMedia")) > tries  # the picture was tried again
        assert not [m for m in bot.api.bot_messages(GROUP) if m.content.startswith("⏰")]
        # Pictures allowed again: the next expiry's try gets through, and the turns run once more.
        bot.api.no_photos.discard(GROUP)
        shown = await expire(bot, clock)
        assert shown.strikes == {} and await services_of(bot.app).tables.store.shown(shown) == shown.screen
        assert (await expire(bot, clock)).strikes == {seat: 1}
        assert not bot.errors


async def test_a_turn_that_ran_out_while_nobody_ticked_starts_again(any_redis: aioredis.Redis) -> None:
    """No worker ticked for ten minutes (every worker, or Redis, was down): the turn that ran out in
    that time was nobody's to play, so it starts again instead of warning; the turn after it counts
    as ever, and so does a turn that ran out while the ticker ran."""
    clock = Clock()
    async with BotHarness(any_redis, clock=clock, outage_seconds=30) as bot:
        table = await group_game(bot)
        await bot.tick()
        clock.advance(600)
        await bot.tick()
        again = await bot.table(GROUP)
        assert again is not None
        assert again.strikes == {} and again.deadline == clock().timestamp() + TURN
        assert state_of(again).version == state_of(table).version
        assert not [m for m in bot.api.bot_messages(GROUP) if m.content.startswith("⏰")]
        # The ticker runs on, every few seconds, while the new turn runs out: that expiry warns.
        for _ in range(TURN // 10 + 1):
            clock.advance(10)
            await bot.tick()
        warned = await bot.table(GROUP)
        assert warned is not None and warned.strikes == {mover(table): 1}
        assert not bot.errors


async def test_a_lobby_left_while_nobody_ticked_is_kept_open(any_redis: aioredis.Redis) -> None:
    clock = Clock()
    async with BotHarness(any_redis, clock=clock, outage_seconds=30) as bot:
        await bot.say(GROUP, ALICE, "/new grid", first_name="Alice")
        await bot.tick()
        clock.advance(3600)  # past the lobby's idle time, with nobody ticking
        await bot.tick()
        lobby = await bot.table(GROUP)
        assert lobby is not None and lobby.phase is Phase.LOBBY
        assert lobby.deadline is not None and lobby.deadline > clock().timestamp()
