"""The generic bot kit: any game with an adapter, played through the real Application by presses.

A `Player` reads the buttons a person sees (under the group's picture, or on their private panel),
opens a group of choices first where the keyboard asks for it, and presses a random choice. Along
the way the kit checks what DESIGN.md promises of every table: a stale, a foreign, an out-of-turn
and a doubled press change nothing and get an alert; a restarted worker carries on; the group is
never shown a card it may not know; the game ends with a result. A game added later is covered by
registering its adapter.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from bot.adapters import ADAPTERS
from bot.chat import callback
from bot.chat.callback import Kind
from bot.offline.fake_api import FakeBotAPI, FakeMessage
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from tests.harness import BotHarness
from tests.leaks import leaked

ALICE, BOB, EVE = 1101, 1102, 1103
GROUP = -1001100
NAMES = {ALICE: "Alice", BOB: "Bob", EVE: "Eve"}
#: Presses after which a game is abandoned as not ending (no registered game comes near it).
MAX_PRESSES = 3000


@dataclass
class Run:
    """What a played game showed, for the test to assert."""

    table: Table
    presses: int = 0
    checks: dict[str, int] = field(default_factory=dict)
    #: The first Bot API call of the game being played (earlier games' messages say nothing of it).
    calls_from: int = 0

    def count(self, check: str) -> None:
        self.checks[check] = self.checks.get(check, 0) + 1


def message_of(api: FakeBotAPI, table: Table, user: int) -> FakeMessage:
    """Where `user` presses for this table: their panel if the game has panels, else the live message."""
    seat = table.seat_of(user)
    if ADAPTERS[table.game].panels and seat is not None and seat in table.panels:
        return api.messages[user][table.panels[seat]]
    assert table.message_id is not None
    return api.messages[table.chat_id][table.message_id]


def button_data(api: FakeBotAPI, message: FakeMessage) -> list[str]:
    return [data for row in api.buttons(message.chat_id, message.message_id) for _, data in row if data]


def people_to_move(table: Table) -> list[int]:
    if table.phase is not Phase.PLAYING:
        return []
    movers = game_of(table).to_move(state_of(table))
    return [user for seat in movers if seat >= 0 and (user := table.players[seat].user_id) is not None]


async def current(bot: BotHarness, chat: int) -> Table:
    table = await bot.table(chat)
    assert table is not None
    return table


async def press_a_move(bot: BotHarness, table: Table, user: int, rng: random.Random) -> None:
    """One move of `user`, chosen among the buttons they see (a group first, if asked)."""
    message = message_of(bot.api, table, user)
    for _ in range(3):
        moves = [
            d for d in button_data(bot.api, message) if callback.decode(d).kind in (Kind.MOVE, Kind.PICK)
        ]
        assert moves, f"{table.game}: {NAMES.get(user, user)} must act but sees no button"
        picks = [d for d in moves if callback.decode(d).kind is Kind.MOVE]
        chosen = rng.choice(picks or moves)
        await bot.press(message.chat_id, user, chosen, message.message_id, first_name=NAMES.get(user))
        if callback.decode(chosen).kind is Kind.MOVE:
            return
        message = bot.api.messages[message.chat_id][message.message_id]
    raise AssertionError("a choice in more than two steps")


async def checks_of_a_press(bot: BotHarness, table: Table, run: Run, rng: random.Random) -> None:
    """Presses that must change nothing: stale, foreign, out of turn."""
    before = await current(bot, table.chat_id)
    movers = people_to_move(before)
    if not movers:
        return
    message = message_of(bot.api, before, movers[0])
    moves = [d for d in button_data(bot.api, message) if callback.decode(d).kind is Kind.MOVE]
    if not moves:
        return
    move = rng.choice(moves)
    decoded = callback.decode(move)
    stale = callback.encode(Kind.MOVE, decoded.table, max(decoded.version - 1, 0), decoded.action)
    trials = [(message.chat_id, EVE, stale, "stale")]
    if ADAPTERS[before.game].panels:
        # From another chat a move is refused: Eve presses it under a message in her own chat.
        await bot.say(EVE, EVE, "/help", first_name="Eve")
        trials.append((EVE, EVE, move, "foreign"))
    else:
        trials.append((message.chat_id, EVE, move, "foreign"))
        waiting = [user for user in (ALICE, BOB) if before.seat_of(user) is not None and user not in movers]
        if waiting:
            trials.append((message.chat_id, waiting[0], move, "out of turn"))
    for chat, user, data, check in trials:
        target = message.message_id if chat == message.chat_id else bot.live(chat).message_id
        await bot.press(chat, user, data, target, first_name=NAMES.get(user))
        assert bot.last_alert(), f"{check} press got no alert"
        assert await current(bot, table.chat_id) == before, f"a {check} press changed the table"
        run.count(check)


async def doubled_press(bot: BotHarness, table: Table, run: Run) -> None:
    """The same move pressed twice at once by the person to move: it applies once."""
    movers = people_to_move(table)
    if not movers:
        return
    message = message_of(bot.api, table, movers[0])
    moves = [d for d in button_data(bot.api, message) if callback.decode(d).kind is Kind.MOVE]
    if not moves:
        return
    updates = [
        bot.updates.callback(message.chat_id, movers[0], message.message_id, moves[0]) for _ in range(2)
    ]
    await asyncio.gather(*(bot.feed(update) for update in updates))
    seat = table.seat_of(movers[0])
    assert seat is not None
    done = state_of(await current(bot, table.chat_id)).history[len(state_of(table).history) :]
    assert [who for who, _ in done].count(seat) == 1, "a doubled press applied twice (or not at all)"
    run.count("doubled")


async def play_to_the_end(
    bot: BotHarness, chat: int, rng: random.Random, run: Run, *, restart_at: int = 0
) -> None:
    """Press moves for whoever is to move until the game ends; the worker restarts at press
    `restart_at` (0: never)."""
    for press in range(MAX_PRESSES):
        table = await current(bot, chat)
        if table.phase is not Phase.PLAYING:
            run.table = table
            run.presses = press
            return
        movers = people_to_move(table)
        if not movers:
            # Only computers are to move: their worker died (the ticker moves them on).
            bot.clock.advance(60)  # type: ignore[attr-defined]
            await bot.tick()
            continue
        if press == restart_at and restart_at:
            await bot.restart()
            run.count("restart")
        if press % 7 == 3:
            await checks_of_a_press(bot, table, run, rng)
        if press == 5:
            await doubled_press(bot, table, run)
            continue
        if press % 25 == 0 and chat < 0:
            assert not leaked(bot.api, table, run.calls_from), "the group was shown a card it may not know"
            run.count("leaks")
        await press_a_move(bot, table, rng.choice(movers), rng)
    raise AssertionError(f"no end after {MAX_PRESSES} presses")


async def open_group_table(bot: BotHarness, game_id: str) -> Table:
    """Alice opens a table in the group, Bob joins, computers fill the seats the game needs."""
    adapter = ADAPTERS[game_id]
    for user in (ALICE, BOB):
        await bot.say(user, user, "/start", first_name=NAMES[user])  # panels are sent privately
    await bot.say(GROUP, ALICE, f"/new {game_id}", first_name="Alice")
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    game = adapter.game
    table = await current(bot, GROUP)
    while len(table.players) < game.min_players:
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Add computer"))
        table = await current(bot, GROUP)
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    table = await current(bot, GROUP)
    assert table.phase is not Phase.LOBBY, f"{game_id}: Start left the lobby"
    return table
