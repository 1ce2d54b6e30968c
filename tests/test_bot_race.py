"""The race track (Game 3) through the real Application, by updates, on a real Redis."""

from __future__ import annotations

import io
import re
from typing import NamedTuple

import redis.asyncio as aioredis
from PIL import Image

from bot.adapters import ADAPTERS
from bot.chat import callback
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from core.games.race import RaceView
from core.games.race_rules import Phase as RacePhase
from core.games.race_rules import distinct_moves
from render.race import destinations
from tests.harness import SEAT_NAMES, BotHarness
from tests.leaks import leaked
from tests.test_bot_grid import move_buttons, mover
from tests.test_race_rules import GAME, chance, track

ALICE, BOB, CAROL = 21, 22, 23
NAMES = {ALICE: "Alice", BOB: "Bob"}
GROUP = -100300
#: Far more presses than any race takes: a game that does not end within them is a bug.
MOST_PRESSES = 3000
ROLL = re.compile(r"🎲 (Alice|Bob|🤖 \S+) rolls \d and \d")
MOVE = re.compile(r"(Alice|Bob|\S+): token [123] moves 🎲\d: ")


def race_view(view: object) -> RaceView:
    assert isinstance(view, RaceView)
    return view


async def open_group_race(bot: BotHarness, *, computer: bool = False) -> Table:
    await bot.say(GROUP, ALICE, "/new race", first_name="Alice")
    assert "Race track" in bot.live(GROUP).content
    await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob")
    if computer:
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Add computer"))
    await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
    table = await bot.table(GROUP)
    assert table is not None and table.phase is Phase.PLAYING
    return table


class Played(NamedTuple):
    table: Table
    presses: int
    #: The chat's caption after each press.
    captions: list[str]


async def play_to_the_end(bot: BotHarness, chat_id: int) -> Played:
    """Press the buttons of whoever is to move until the game is over; not always the first one, so
    that both answers of a buy-out and every token get pressed. Every press must be applied, and
    the group is scanned for the labels of closed cards as the game goes."""
    table = await bot.table(chat_id)
    assert table is not None
    presses, captions = 0, []
    while table.phase is Phase.PLAYING:
        assert presses < MOST_PRESSES, "the race did not end"
        buttons = move_buttons(bot, chat_id)
        assert buttons, "a person is to move but the table has no button"
        await bot.press(chat_id, mover(table), buttons[presses % 7 % len(buttons)])
        assert bot.last_alert() is None, bot.last_alert()
        presses += 1
        captions.append(bot.live(chat_id).content)
        fresh = await bot.table(chat_id)
        assert fresh is not None
        assert state_of(fresh).version > state_of(table).version
        table = fresh
        if presses % 50 == 0:
            assert not leaked(bot.api, table)
    assert not leaked(bot.api, table)
    return Played(table, presses, captions)


async def test_two_people_race_to_the_end_in_a_group(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await open_group_race(bot)
        first = bot.live(GROUP)
        assert first.photo is not None
        assert Image.open(io.BytesIO(first.photo)).size[0] == 1000
        # The caption names the first roll and whose turn it is.
        assert ROLL.search(first.content)
        assert f"{NAMES[mover(table)]}, your turn: choose a die" in first.content
        table, presses, captions = await play_to_the_end(bot, GROUP)
        outcome = game_of(table).outcome(state_of(table))
        assert outcome is not None and len(outcome.order) == 2
        final = bot.live(GROUP).content
        loser = NAMES[table.players[outcome.losers[0]].user_id or 0]
        assert f"{loser} loses." in final and "Finishing order: 1. " in final
        assert bot.button_labels(GROUP) == ["Play again"]
        # Every move was told: the rolls and the tokens moved by them.
        assert sum(bool(MOVE.search(text)) for text in captions) >= presses // 2
        assert any(ROLL.search(text) for text in captions[1:])
        # One message for the whole game, edited in place.
        assert len(bot.api.calls_of("sendPhoto")) == 1
        assert len(bot.api.calls_of("editMessageMedia")) == presses


async def test_a_turn_of_two_presses_is_told_whole(redis_client: aioredis.Redis) -> None:
    """Each die is a press and an edit of its own; when the turn passes, the caption still tells the
    whole turn (the roll and both dice), for those who look at the chat only then."""
    async with BotHarness(redis_client) as bot:
        table = await open_group_race(bot)
        told: list[str] = [line for line in bot.live(GROUP).content.split("\n") if ROLL.search(line)]
        whole_turns = 0
        for _ in range(60):
            if table.phase is not Phase.PLAYING:
                break
            person = mover(table)
            await bot.press(GROUP, person, move_buttons(bot, GROUP)[0])
            caption = bot.live(GROUP).content.split("\n")
            fresh = await bot.table(GROUP)
            assert fresh is not None
            if fresh.phase is Phase.PLAYING and mover(fresh) == person:
                told += [line for line in caption if MOVE.search(line)]
                table = fresh
                continue
            # The turn passed: everything its presses told is still in the caption (unless the turn
            # was longer than a caption's lines: it starts with the count of those left out).
            if len(told) >= 2 and not caption[1].startswith("… (+"):
                assert all(line in caption for line in told), (told, caption)
                whole_turns += 1
            told = [line for line in caption if ROLL.search(line)][-1:]
            table = fresh
        assert whole_turns > 0


async def test_three_seats_with_a_computer_in_a_group(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await open_group_race(bot, computer=True)
        assert [p.is_computer for p in table.players] == [False, False, True]
        computer = table.players[2].name
        table, _, captions = await play_to_the_end(bot, GROUP)
        outcome = game_of(table).outcome(state_of(table))
        assert outcome is not None and sorted(outcome.order) == [0, 1, 2]
        # The computer's rolls and moves were told in the group too.
        assert any(f"🎲 {computer} rolls" in text for text in captions)
        assert any(f"{computer}: token" in text for text in captions)


async def test_a_private_race_against_two_computers_to_the_end(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new race two_hard", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None and table.phase is Phase.PLAYING
        assert [p.is_computer for p in table.players] == [False, True, True]
        assert table.computer_level == "hard"
        table, presses, _ = await play_to_the_end(bot, ALICE)
        assert presses > 0
        assert "Finishing order" in bot.live(ALICE).content
        assert bot.button_labels(ALICE) == ["Play again"]


async def test_a_restarted_bot_carries_the_race_on(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await open_group_race(bot)
        await bot.press(GROUP, mover(table), move_buttons(bot, GROUP)[0])
        api = bot.api
    async with BotHarness(redis_client, api=api) as again:
        resumed = await again.table(GROUP)
        assert resumed is not None and resumed.phase is Phase.PLAYING
        version = state_of(resumed).version
        await again.press(GROUP, mover(resumed), move_buttons(again, GROUP)[0])
        assert again.last_alert() is None
        after = await again.table(GROUP)
        assert after is not None and state_of(after).version > version
        table, _, _ = await play_to_the_end(again, GROUP)
        assert game_of(table).outcome(state_of(table)) is not None


async def test_stale_and_foreign_presses_change_nothing(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await open_group_race(bot)
        old = move_buttons(bot, GROUP)
        # Someone who is not seated.
        await bot.press(GROUP, CAROL, old[0], first_name="Carol")
        assert bot.last_alert() == "You are not playing at this table."
        # The seated player whose turn it is not.
        waiting = BOB if mover(table) == ALICE else ALICE
        await bot.press(GROUP, waiting, old[0])
        assert bot.last_alert() == "It is not your turn."
        assert await bot.table(GROUP) == table
        await bot.press(GROUP, mover(table), old[0])
        assert bot.last_alert() is None
        moved = await bot.table(GROUP)
        assert moved is not None and moved.screen > table.screen
        # The same keyboard again, by whoever is to move now.
        await bot.press(GROUP, mover(moved), old[-1])
        assert bot.last_alert() == "This button is out of date."
        assert await bot.table(GROUP) == moved


async def test_buttons_name_the_die_and_the_token_as_the_picture_does(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await open_group_race(bot)
        state = state_of(table)
        view = race_view(game_of(table).view(state, None))
        seat = game_of(table).to_move(state)[0]
        # Every token waits at the Start, and those are alike: one button a die, for token ①.
        dice = {action.split(".")[0] for action in game_of(table).legal_actions(state, seat)}
        assert set(bot.button_labels(GROUP)) == {f"🎲{die} → ①" for die in dice}
        # The picture's badges name the same: each die's destination for token ① alone.
        assert [tokens for spots in destinations(view).values() for _, tokens in spots] == [(0,)] * len(dice)
        # In the order the dice were rolled, as the picture's header shows them.
        rows = bot.api.buttons(GROUP, bot.live(GROUP).message_id)
        assert [label.split(" ")[0] for row in rows for label, _ in row] == [f"🎲{die}" for die in view.dice]
        assert [data for row in rows for _, data in row] == move_buttons(bot, GROUP)
        assert all(callback.decode(data).version == table.screen for data in move_buttons(bot, GROUP))
        assert view.dice and view.turn == seat


def test_tokens_alike_on_one_position_are_offered_once() -> None:
    """A person is offered one of the tokens that stand on one position (the lowest), at the Start or
    on a card of the track; the rules still allow every one of them."""
    legal = ["3.0", "3.1", "3.2", "5.0", "5.1", "5.2"]
    assert distinct_moves(legal, (0, 7, 0)) == ["3.0", "3.1", "5.0", "5.1"]
    assert distinct_moves(legal, (4, 0, 0)) == ["3.0", "3.1", "5.0", "5.1"]
    assert distinct_moves(legal, (4, 7, 9)) == legal
    assert distinct_moves(["3.2", "5.1"], (4, 0, 0)) == ["3.2", "5.1"]  # the only ones a die may take
    # Two tokens on one card of the track are alike too.
    assert distinct_moves(legal, (4, 9, 9)) == ["3.0", "3.1", "5.0", "5.1"]


def test_e3_5_buy_out_buttons_carry_the_price_and_the_status_the_consequence() -> None:
    """E3.5: P2 holds 4 coins and T1 lands on the open Q♠@22: pay 4, or T1 goes back to the Start."""
    adapter = ADAPTERS["race"]
    state = track(
        {22: "QS", 17: "8S"}, opened=[22, 17], tokens=((0, 0, 0), (19, 14, 0)), coins=(0, 4), turn=1
    )
    state, _ = chance(state, 3, 3)
    state = GAME.apply(state, 1, "3.0").state
    assert state.phase is RacePhase.BUYOUT
    view = GAME.view(state, None)
    legal = GAME.legal_actions(state, 1)
    assert [c.label for c in adapter.choices(view, legal, SEAT_NAMES, "en")] == [
        "✅ Pay 4 coins",
        "❌ Don't pay",
    ]
    assert [c.label for c in adapter.choices(view, legal, SEAT_NAMES, "ru")] == [
        "✅ Откупиться за 4 монетки",
        "❌ Не откупаться",
    ]
    names = ("Ann", "Ben")
    status = adapter.status(view, names, "en")
    assert "Ben, your turn: buy out token 1 for 4 coins?" in status
    assert "Not paying: Q♠ kills token 1 (back to the Start)." in status
    # A pip Spade says how far back: 8♠ at 17 for T2 (14 + 3).
    state = GAME.apply(state, 1, "pay.4").state
    assert state.coins == (0, 0)
    rich = state.model_copy(update={"coins": (0, 3), "bank": state.bank - 3})
    state = GAME.apply(rich, 1, "3.1").state
    assert state.phase is RacePhase.BUYOUT
    assert "Not paying: 8♠ sends token 2 8 cards back." in adapter.status(GAME.view(state, None), names, "en")


def test_one_token_left_to_move_gives_one_row_of_dice() -> None:
    """E3.4's position: only T3 races, so the buttons are its two dice in one row."""
    adapter = ADAPTERS["race"]
    state = track({32: "JH", 35: "8C"}, tokens=((37, 37, 30), (0, 0, 0)))
    state, _ = chance(state, 2, 5)
    view = GAME.view(state, None)
    choices = adapter.choices(view, GAME.legal_actions(state, 0), SEAT_NAMES, "en")
    assert [c.label for c in choices] == ["🎲2 → ③", "🎲5 → ③"]
    assert "choose a die for token 3" in adapter.status(view, ("Ann", "Ben"), "en")
