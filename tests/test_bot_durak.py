"""Durak through the real Application: a group table, private panels, and no hand card in the group."""

from __future__ import annotations

import asyncio
import itertools

import redis.asyncio as aioredis

from bot.adapters import ADAPTERS
from bot.app import services_of
from bot.chat import callback
from bot.chat.callback import Kind
from bot.offline.fake_api import FakeMessage
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase, Table
from core.cards import card_label
from core.games.durak import DurakState
from tests.harness import SEAT_NAMES, BotHarness, Clock
from tests.leaks import leaked

GROUP = -100800
PEOPLE = {41: "Alice", 42: "Boris", 43: "Clara", 44: "Dmitri"}
EVE = 45


async def seat_four(bot: BotHarness) -> Table:
    for user, name in PEOPLE.items():
        await bot.say(user, user, "/start", first_name=name)  # each opens the bot privately
    await bot.say(GROUP, 41, "/new durak", first_name="Alice")
    for user in (42, 43, 44):
        await bot.press(GROUP, user, bot.button(GROUP, "Join"), first_name=PEOPLE[user])
    await bot.press(GROUP, 41, bot.button(GROUP, "Start"))
    table = await bot.table(GROUP)
    assert table is not None and table.phase is Phase.PLAYING
    return table


def durak_state(table: Table) -> DurakState:
    state = state_of(table)
    assert isinstance(state, DurakState)
    return state


def panel(bot: BotHarness, table: Table, user: int) -> FakeMessage:
    seat = table.seat_of(user)
    assert seat is not None and seat in table.panels
    return bot.api.messages[user][table.panels[seat]]


def panel_moves(bot: BotHarness, table: Table, user: int) -> list[str]:
    message = panel(bot, table, user)
    return [d for row in bot.api.buttons(user, message.message_id) for _, d in row if d]


async def test_four_people_play_from_their_panels(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await seat_four(bot)
        assert all(not p.is_computer for p in table.players)
        assert sorted(table.panels) == [0, 1, 2, 3]
        # The group message offers no card: only the ways to one's own cards.
        labels = bot.button_labels(GROUP)
        assert labels == ["🂠 My cards", "🤖 My panel"]
        # "My cards" answers privately with the presser's hand.
        await bot.press(GROUP, 42, bot.button(GROUP, "🂠 My cards"))
        hand = game_of(table).view(state_of(table), table.seat_of(42)).hand
        assert hand and all(card_label(card, "en") in (bot.last_alert() or "") for card in hand)
        presses = 0
        while table.phase is Phase.PLAYING and presses < 3000:
            game, state = game_of(table), state_of(table)
            seat = game.to_move(state)[0]
            user = table.players[seat].user_id
            assert user is not None
            moves = panel_moves(bot, table, user)
            assert moves, f"seat {seat} must act but its panel has no button"
            # Mostly play a card (the game moves on); now and then take or pass, so lines differ.
            choice = moves[-1] if presses % 5 == 4 else moves[0]
            await bot.press(user, user, choice, message_id=panel(bot, table, user).message_id)
            assert bot.last_alert() is None, bot.last_alert()
            presses += 1
            if presses % 40 == 0:
                assert not leaked(bot.api, await bot.table(GROUP) or table)
            fresh = await bot.table(GROUP)
            assert fresh is not None
            table = fresh
        assert table.phase is Phase.FINISHED, "the game did not end"
        caption = bot.live(GROUP).content
        assert "fool" in caption or "draw" in caption
        assert not leaked(bot.api, table)


async def test_a_person_who_never_opened_the_bot_is_seated_by_the_deep_link(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(41, 41, "/start", first_name="Alice")
        await bot.say(GROUP, 41, "/new durak_transfer", first_name="Alice")
        await bot.press(GROUP, EVE, bot.button(GROUP, "Join"), first_name="Eve")
        assert "Open the bot first" in (bot.last_alert() or "")
        table = await bot.table(GROUP)
        assert table is not None and table.seat_of(EVE) is None
        await bot.say(EVE, EVE, f"/start join_{table.id}", first_name="Eve")
        table = await bot.table(GROUP)
        assert table is not None and table.seat_of(EVE) is not None
        assert "You are at the table" in bot.live(EVE).content
        # Start fills the two empty seats with computers.
        await bot.press(GROUP, 41, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING and table.game == "durak_transfer"
        assert [p.is_computer for p in table.players] == [False, False, True, True]
        assert panel(bot, table, EVE).photo is not None


async def test_foreign_press_on_a_panel_and_concurrent_throw_ins(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await seat_four(bot)
        game, state = game_of(table), state_of(table)
        attacker = table.players[game.to_move(state)[0]].user_id
        assert attacker is not None
        other = next(u for u in PEOPLE if u != attacker)
        # Someone else forwards or replays the attacker's button: refused, nothing changes.
        await bot.press(other, other, panel_moves(bot, table, attacker)[0])
        assert bot.last_alert() == "It is not your turn."
        assert await bot.table(GROUP) == table
        # Two presses for the same moment from one panel, processed at once: exactly one applies.
        moves = panel_moves(bot, table, attacker)[:2]
        message_id = panel(bot, table, attacker).message_id
        presses = [bot.updates.callback(attacker, attacker, message_id, m, language_code="en") for m in moves]
        await asyncio.gather(*(bot.feed(p) for p in presses))
        after = await bot.table(GROUP)
        assert after is not None
        assert state_of(after).version == state.version + 1
        assert [c.params.get("text") for c in bot.api.alerts()[-2:]].count(None) == 1


async def test_private_game_against_three_computers_to_the_end(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(41, 41, "/new durak easy", first_name="Alice")
        table = await bot.table(41)
        assert table is not None and table.computer_level == "easy"
        assert [p.is_computer for p in table.players] == [False, True, True, True]
        captions: list[list[str]] = []
        for _ in range(2000):
            if table.phase is not Phase.PLAYING:
                break
            moves = panel_moves(bot, table, 41)
            assert moves
            await bot.press(41, 41, moves[0], message_id=panel(bot, table, 41).message_id)
            fresh = await bot.table(41)
            assert fresh is not None
            table = fresh
            captions.append(panel(bot, table, 41).content.split("\n"))
        assert table.phase is Phase.FINISHED
        # Passes in a row make one line («Fox, Owl: done»), so they do not crowd out the moves.
        passes = [[line.endswith(": done") for line in caption] for caption in captions]
        assert not any(done and after for caption in passes for done, after in itertools.pairwise(caption))
        assert any(", " in line and line.endswith(": done") for caption in captions for line in caption)
        # A seat asked again after a new card may pass again: the caption tells its latest pass only.
        for caption in captions:
            passing = [name for line in caption if line.endswith(": done") for name in line[:-6].split(", ")]
            assert len(passing) == len(set(passing)), caption
        # So do the draws after a bout, one's own naming the cards.
        drawn = [line for caption in captions for line in caption if line.startswith("Drawn: ")]
        assert any(", " in line and "you " in line for line in drawn)
        draws = [
            [" draws " in line or line.startswith("You draw") for line in caption] for caption in captions
        ]
        assert not any(one and after for caption in draws for one, after in itertools.pairwise(caption))
        # One message the whole game: the panel, with the table in its picture, edited each turn;
        # the journal named the computers' moves, and the end offers Play again on it.
        photos = [m for m in bot.api.messages[41].values() if m.from_id != 41 and m.photo is not None]
        assert len(photos) == 1 and photos[0].message_id == table.panels[0]
        assert [label for row in bot.api.buttons(41, photos[0].message_id) for label, _ in row] == [
            "Play again"
        ]
        names = {player.name for player in table.players[1:]}
        assert len(names) == 3 and not any(name.startswith("Computer") for name in names)


async def test_no_hand_card_reaches_the_group_over_many_games(redis_client: aioredis.Redis) -> None:
    """Seeded whole games played by computers at a group table: every group message is scanned."""
    async with BotHarness(redis_client) as bot:
        await bot.say(41, 41, "/start", first_name="Alice")
        await bot.say(GROUP, 41, "/new durak", first_name="Alice")
        await bot.press(GROUP, 41, bot.button(GROUP, "Computers: normal"))  # -> strong
        await bot.press(GROUP, 41, bot.button(GROUP, "Computers: strong"))  # -> easy, fast
        await bot.press(GROUP, 41, bot.button(GROUP, "Start"))
        await bot.say(GROUP, 41, "/leave")  # a computer plays Alice's seat: the game runs to its end
        fools = 0
        for number in range(GAMES_SCANNED):
            table = await bot.table(GROUP)
            assert table is not None and table.phase is Phase.FINISHED
            assert not leaked(bot.api, table)
            outcome = game_of(table).outcome(state_of(table))
            assert outcome is not None
            fools += len(outcome.losers)
            if number == GAMES_SCANNED - 1:
                break
            bot.api.calls.clear()
            assert table.message_id is not None  # (the last message may be the answer to /leave)
            await bot.press(GROUP, 41, bot.button(GROUP, "Play again", table.message_id), table.message_id)
            following = await bot.table(GROUP)
            assert following is not None
            # The series remembers the fool: the next game with the same four starts from under them.
            assert following.options["fool"] == (outcome.losers[0] if outcome.losers else -1)
        table = await bot.table(GROUP)
        assert table is not None and sum(table.tally.values()) == fools
        # The last game's result tells the whole series' count, seat by seat.
        counts = ", ".join(
            f"{player.name} {table.tally.get(seat, 0)}" for seat, player in enumerate(table.players)
        )
        assert f"Games lost in this series: {counts}." in (bot.live(GROUP).caption or "")


GAMES_SCANNED = 200


async def test_two_throw_ins_pressed_at_once_apply_once(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await seat_four(bot)
        for _ in range(300):
            game, state = game_of(table), durak_state(table)
            # A moment when someone may throw in (cards on the table) with at least two cards.
            throwers = [
                seat
                for seat in game.to_move(state)
                if state.table and sum(a.startswith("a.") for a in game.legal_actions(state, seat)) >= 2
            ]
            if throwers:
                break
            seat = game.to_move(state)[0]
            user = table.players[seat].user_id
            assert user is not None
            moves = panel_moves(bot, table, user)
            await bot.press(user, user, moves[0], message_id=panel(bot, table, user).message_id)
            fresh = await bot.table(GROUP)
            assert fresh is not None and fresh.phase is Phase.PLAYING
            table = fresh
        else:
            raise AssertionError("no throw-in moment in 300 presses")
        user = table.players[throwers[0]].user_id
        assert user is not None
        throw_ins = [m for m in panel_moves(bot, table, user) if m.split(":")[-1].startswith("a.")][:2]
        message_id = panel(bot, table, user).message_id
        presses = [bot.updates.callback(user, user, message_id, m, language_code="en") for m in throw_ins]
        await asyncio.gather(*(bot.feed(p) for p in presses))
        after = await bot.table(GROUP)
        assert after is not None
        # Exactly one throw-in landed (computers do not sit here, so nothing else moved).
        assert state_of(after).version == state.version + 1
        assert len(durak_state(after).table) == len(state.table) + 1
        assert [c.params.get("text") for c in bot.api.alerts()[-2:]].count(None) == 1


async def test_a_two_step_choice_on_a_private_panel_keeps_the_panel_buttons(
    redis_client: aioredis.Redis,
) -> None:
    """In private the panel is the table's own message: opening a group of cards there must show
    those cards, not the group chat's "My cards" buttons."""
    async with BotHarness(redis_client) as bot:
        await bot.say(41, 41, "/new durak easy", first_name="Alice")
        table = await bot.table(41)
        assert table is not None and table.message_id is None and 0 in table.panels
        game, state = game_of(table), state_of(table)
        choices = ADAPTERS["durak"].choices(
            game.view(state, 0), game.legal_actions(state, 0), SEAT_NAMES, "en"
        )
        group = choices[0].group
        assert group is not None
        pick = callback.encode(Kind.PICK, table.id, table.screen, group)
        await bot.press(41, 41, pick, message_id=table.panels[0])
        kinds = {callback.decode(d).kind for d in panel_moves(bot, table, 41)}
        assert Kind.MOVE in kinds and Kind.LOBBY not in kinds


async def test_a_deleted_panel_comes_back_with_the_next_change(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        table = await seat_four(bot)
        mover = table.players[game_of(table).to_move(state_of(table))[0]].user_id
        other = next(user for user in PEOPLE if user != mover)
        assert mover is not None
        gone = panel(bot, table, other)
        gone.deleted = True  # they cleared their chat with the bot
        # The next move changes the table every panel shows: theirs is sent again, as a new message.
        await bot.press(
            mover, mover, panel_moves(bot, table, mover)[0], message_id=panel(bot, table, mover).message_id
        )
        fresh = await bot.table(GROUP)
        assert fresh is not None and fresh.screen > table.screen
        back = panel(bot, fresh, other)
        assert back.message_id != gone.message_id and not back.deleted and back.photo is not None
        assert not bot.errors


async def test_a_held_back_start_picture_leaves_the_panels_their_buttons(
    redis_client: aioredis.Redis,
) -> None:
    """The group's edit budget is spent as the host starts, so the lobby turns into the game's
    picture only when the budget allows; the panels went out at once and the game is played on them
    meanwhile. When the picture comes, the lobby's words go, and the panels keep their buttons."""
    clock = Clock()
    async with BotHarness(redis_client, edits_per_minute=20, clock=clock) as bot:
        for user, name in PEOPLE.items():
            await bot.say(user, user, "/start", first_name=name)
        await bot.say(GROUP, 41, "/new durak", first_name="Alice")
        for user in (42, 43, 44):
            await bot.press(GROUP, user, bot.button(GROUP, "Join"), first_name=PEOPLE[user])
        budget = services_of(bot.app).tables.publisher.budget
        while await budget.reserve(GROUP) <= 0:  # other edits of the group's messages spend it
            pass
        await bot.press(GROUP, 41, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING
        assert not table.message_is_photo  # still the lobby's words
        mover = table.players[game_of(table).to_move(state_of(table))[0]].user_id
        assert mover is not None
        moves = panel_moves(bot, table, mover)
        assert moves
        lobby = bot.api.messages[GROUP][table.message_id]  # type: ignore[index]
        clock.advance(61)
        await bot.tick()
        shown = await bot.table(GROUP)
        assert shown is not None and shown.message_is_photo and lobby.deleted
        assert bot.live(GROUP).message_id == shown.message_id
        assert panel_moves(bot, shown, mover) == moves
        assert not bot.errors


async def test_play_again_takes_the_buttons_off_only_where_there_are_some(
    redis_client: aioredis.Redis,
) -> None:
    """A game over shows no button on its panels: retiring them asked Telegram to take off buttons
    that were not there («message is not modified»), a request per person and game."""
    async with BotHarness(redis_client) as bot:
        table = await seat_four(bot)
        for user in PEOPLE:
            await bot.say(GROUP, user, "/leave")  # computers play every seat: the game runs to its end
        over = await bot.table(GROUP)
        assert over is not None and over.phase is Phase.FINISHED and len(over.panels) == 4
        assert all(not bot.api.messages[user][over.panels[seat]].keyboard for seat, user in enumerate(PEOPLE))
        assert over.message_id is not None
        made = len(bot.api.calls)
        await bot.press(GROUP, 41, bot.button(GROUP, "Play again", over.message_id), over.message_id)
        again = await bot.table(GROUP)
        assert again is not None and again.id != over.id
        assert [call.error for call in bot.api.calls[made:] if call.error] == []
        assert not bot.api.messages[GROUP][over.message_id].keyboard  # its Play again is gone
        assert table.id != again.id
