"""McSweeney's Gold tours, bandit pulls, the wallet and the boards, through the real Application."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import redis.asyncio as aioredis
from telegram.error import Forbidden

from bot.app import services_of
from bot.chat import callback
from bot.chat.actions import PASSING_SECONDS
from bot.chat.callback import Kind
from bot.chat.coins import SPIN, STILL, pull_caption
from bot.economy.daily import PullTicket
from bot.economy.pulls import Pull
from bot.economy.wallet import Movement
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Phase
from core.engine import CHANCE
from core.games.bandit import STRIP, BanditGame, BanditView
from core.games.gold import verify
from tests.harness import BotHarness
from tests.test_bot_commands import NO_PICTURES

ALICE, BOB = 31, 32
GROUP = -100900


class Clock:
    """A controlled clock: the tests move it across local midnights."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def free_left(count: int) -> str:
    return f"{count} free pull{'' if count == 1 else 's'} left today"


async def balance(bot: BotHarness, user_id: int) -> int:
    return await services_of(bot.app).pulls.wallet.balance(user_id)


async def play_gold_tour(bot: BotHarness, user_id: int, bet: int) -> int:
    """A whole tour by button presses; returns the payout."""
    await bot.say(user_id, user_id, f"/new gold {bet}")
    table = await bot.table(user_id)
    assert table is not None and table.phase is Phase.PLAYING
    assert "fingerprint" in bot.live(user_id).content.lower()
    # Mark two cells, unmark one, then mark until seven.
    await bot.press(user_id, user_id, bot.button(user_id, "A1"))
    await bot.press(user_id, user_id, bot.button(user_id, "B1"))
    await bot.press(user_id, user_id, bot.button(user_id, "✅2"))
    labels = ["C3", "D4", "E5", "F6", "G7", "A7"]
    for label in labels:
        await bot.press(user_id, user_id, bot.button(user_id, label))
    await bot.press(user_id, user_id, bot.button(user_id, "⛵ Send the expedition"))
    table = await bot.table(user_id)
    assert table is not None and table.phase is Phase.FINISHED
    view = game_of(table).view(state_of(table), 0)
    assert view.marked == (0, 16, 24, 32, 40, 48, 42)  # A1 C3 D4 E5 F6 G7 A7, in marking order
    assert view.layout is not None and view.salt is not None and view.fingerprint is not None
    assert verify(view.layout, view.salt, view.fingerprint)
    payout: int | None = view.payout
    assert payout is not None
    return payout


async def test_gold_tour_charges_the_bet_and_pays_once(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        assert await balance(bot, ALICE) == 1000
        payout = await play_gold_tour(bot, ALICE, 40)
        assert await balance(bot, ALICE) == 1000 - 40 + payout
        caption = bot.live(ALICE).content
        assert f"Payout: {payout}" in caption
        # The reveal opened the seven cells one by one before the final picture.
        assert len(bot.api.calls_of("editMessageMedia")) >= 8 + 7
        # A doubled press on the finished tour changes nothing.
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Play again"))
        again = await bot.table(ALICE)
        assert again is not None and again.phase is Phase.PLAYING
        assert await balance(bot, ALICE) == 1000 - 40 + payout - 40
        reasons = [m.reason for m in await services_of(bot.app).pulls.wallet.history(ALICE)]
        assert reasons.count("gold:stake") == 2
        assert reasons.count("gold:payout") == (1 if payout > 0 else 0)


async def test_a_stopped_tour_says_its_bet_is_returned(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new gold 200")
        table = await bot.table(ALICE)
        assert table is not None and table.message_id is not None and await balance(bot, ALICE) == 800
        await bot.say(ALICE, ALICE, "/stop")
        caption = bot.api.messages[ALICE][table.message_id].content
        assert caption.endswith("The game was stopped.\nThe bet is returned: 200 coins.")
        assert await balance(bot, ALICE) == 1000


async def test_a_bet_above_the_balance_is_refused_and_changes_nothing(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        wallet = services_of(bot.app).pulls.wallet
        await wallet.apply(BOB, "drain", -900, "test", now=datetime.now(UTC))
        before = await wallet.history(BOB)
        await bot.say(BOB, BOB, "/new gold 200")
        assert "Not enough coins: you have 100, this needs 200" in bot.live(BOB).content
        assert await bot.table(BOB) is None
        assert await wallet.balance(BOB) == 100 and await wallet.history(BOB) == before


async def test_a_bet_above_the_balance_leaves_the_running_game_as_it_was(
    redis_client: aioredis.Redis,
) -> None:
    """A tour over a running private game is refused before that game ends when the balance cannot
    cover its bet; what ending a running tour gives back counts towards it."""
    async with BotHarness(redis_client) as bot:
        wallet = services_of(bot.app).pulls.wallet
        await wallet.apply(BOB, "drain", -900, "test", now=datetime.now(UTC))
        await bot.say(BOB, BOB, "/new durak")
        durak = await bot.table(BOB)
        assert durak is not None and durak.phase is Phase.PLAYING
        await bot.say(BOB, BOB, "/new gold 200")
        assert "Not enough coins: you have 100, this needs 200" in bot.live(BOB).content
        assert await bot.table(BOB) == durak and await wallet.balance(BOB) == 100
        await bot.say(BOB, BOB, "/new gold 100")
        tour = await bot.table(BOB)
        assert tour is not None and tour.game == "gold" and await wallet.balance(BOB) == 0
        # Its 100 come back as another tour of 100 replaces it; one of 200 would need 100 more.
        await bot.say(BOB, BOB, "/new gold 200")
        assert "Not enough coins: you have 0, this needs 100" in bot.live(BOB).content
        assert await bot.table(BOB) == tour
        await bot.say(BOB, BOB, "/new gold 100")
        second = await bot.table(BOB)
        assert second is not None and second.id != tour.id and await wallet.balance(BOB) == 0


async def test_gold_starts_with_a_choice_of_bet(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new gold")
        assert await bot.table(ALICE) is None and await balance(bot, ALICE) == 1000
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Bet 100"))
        table = await bot.table(ALICE)
        assert table is not None and table.options["bet"] == 100
        assert await balance(bot, ALICE) == 900


async def test_gold_is_private_only(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new gold")
        answer = bot.live(GROUP)
        assert "played in a private chat" in answer.content
        assert await bot.table(GROUP) is None
        # Said in passing, as a typo's answer is: both go after a minute.
        await bot.say(GROUP, ALICE, "/new gdol")
        typo = bot.live(GROUP)
        assert typo.content == "There is no game called gdol. /games lists them."
        bot.clock.advance(PASSING_SECONDS)  # type: ignore[attr-defined]
        await bot.tick()
        assert answer.deleted and typo.deleted


async def test_spins_free_then_paid_with_reset_and_streak(redis_client: aioredis.Redis) -> None:
    # 20:00 UTC is 23:00 in Moscow: the day ends in an hour.
    clock = Clock(datetime(2026, 11, 30, 20, 0, tzinfo=UTC))
    async with BotHarness(redis_client, clock=clock) as bot:
        coins = services_of(bot.app).pulls
        for number in range(1, 6):
            await bot.say(ALICE, ALICE, "/spin")
            assert free_left(5 - number) in bot.live(ALICE).content
        assert await balance(bot, ALICE) == 1000 + sum(await won(bot, ALICE))
        machine = bot.live(ALICE).message_id
        await bot.press(ALICE, ALICE, bot.button(ALICE, "🎰 Spin"))
        # The press spins the machine it is under; a pull that climbs the career ladder sends its
        # episode after it (a press's pull is seeded by its query id, which no run repeats).
        assert "This pull cost 10 coins" in bot.api.messages[ALICE][machine].content
        assert bot.last_alert() is None
        # Past local midnight: a new day of the streak gives one more free pull.
        clock.now += timedelta(hours=1, minutes=1)
        await bot.say(ALICE, ALICE, "/spin")
        assert free_left(5) + " (streak: day 2)" in bot.live(ALICE).content
        # A missed day resets the streak.
        clock.now += timedelta(days=2)
        status = await coins.daily.status(ALICE, now=clock.now, tz=moscow())
        assert status.streak == 1 and status.free_left == 5


async def won(bot: BotHarness, user_id: int) -> list[int]:
    history = await services_of(bot.app).pulls.wallet.history(user_id)
    return [m.delta for m in history if m.reason == "bandit:win"]


def moscow() -> ZoneInfo:
    return ZoneInfo("Europe/Moscow")


async def test_spinning_in_a_group_uses_the_same_allowance(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        # Before anyone has played, one line says how to get on the boards.
        await bot.say(GROUP, ALICE, "/top", first_name="Alice")
        empty = bot.live(GROUP).content
        assert empty == "The leaderboards are empty: /spin or a game for coins puts you on them."
        await bot.say(ALICE, ALICE, "/spin")
        # Alice has played, but not here: this chat's boards say how to get on them.
        await bot.say(GROUP, BOB, "/top", first_name="Bob")
        assert bot.live(GROUP).content.startswith(
            "This chat, by balance:\n  nobody yet: /spin or a game for coins puts you here"
        )
        await bot.say(GROUP, ALICE, "/spin", first_name="Alice")
        assert free_left(3) in bot.live(GROUP).content
        # Bob's press under Alice's machine spins Bob's own machine, in a new message.
        alices = bot.live(GROUP).message_id
        await bot.press(GROUP, BOB, bot.button(GROUP, "🎰 Spin"), first_name="Bob")
        # Bob's machine is the next message (a career step's episode would follow it).
        bobs = next(m for m in bot.api.bot_messages(GROUP) if m.message_id > alices)
        assert "Bob's pull" in bobs.content and free_left(4) in bobs.content
        await bot.say(GROUP, BOB, "/top")
        board = bot.live(GROUP).content
        assert "This chat, by balance:" in board and "Alice" in board and "Bob" in board


async def test_the_lever_under_the_menu_spins_a_machine_below_it(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/games")
        await bot.press(ALICE, ALICE, bot.button(ALICE, "🎰 One-legged bandit"))
        card = bot.live(ALICE)
        assert card.content == "One-legged bandit\nPull the lever: /spin, or the button."
        await bot.press(ALICE, ALICE, bot.button(ALICE, "🎰 Spin"))
        machine = next(m for m in bot.api.bot_messages(ALICE) if m.message_id > card.message_id)
        assert free_left(4) in machine.content
        assert bot.api.messages[ALICE][card.message_id].deleted  # its work is done
        # The machine's own lever spins it in place (a pull that climbs the career ladder shows its
        # episode after it: a press's pull is named by its query id, new every run).
        lever = bot.button(ALICE, "🎰 Spin", machine.message_id)
        await bot.press(ALICE, ALICE, lever, machine.message_id)
        assert free_left(3) in bot.api.messages[ALICE][machine.message_id].content
        machines = [m.message_id for m in bot.api.bot_messages(ALICE) if "free pull" in m.content]
        assert machines == [machine.message_id]


async def test_a_pull_made_before_the_last_ones_still_never_shows_that_still(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/spin")
        machine = bot.live(ALICE).message_id
        bot.clock.advance(1)  # type: ignore[attr-defined]
        await bot.press(ALICE, ALICE, bot.button(ALICE, "🎰 Spin"))  # while the first still is due
        pressed = len(bot.api.calls)
        for _ in range(3):
            bot.clock.advance(2)  # type: ignore[attr-defined]
            await bot.tick()
        later = [call for call in bot.api.calls[pressed:] if call.method == "editMessageMedia"]
        assert len(later) == 1 and later[0].params["message_id"] == machine  # the second pull's still
        assert free_left(3) in bot.api.messages[ALICE][machine].content


async def test_a_lever_forged_to_name_another_owner_spins_the_pressers_own_machine(
    redis_client: aioredis.Redis,
) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/spin", first_name="Alice")
        alices = bot.live(GROUP)
        shown = alices.content
        # Bob's client sends the lever's data with his own id in it, under Alice's machine.
        forged = callback.encode(Kind.COIN, format(BOB, "x"), 0, SPIN)
        await bot.press(GROUP, BOB, forged, alices.message_id, first_name="Bob")
        assert bot.api.messages[GROUP][alices.message_id].content == shown
        bobs = bot.live(GROUP)
        assert bobs.message_id > alices.message_id and "Bob's pull" in bobs.content


async def test_a_lever_in_a_group_the_bot_has_left_pulls_nothing_and_nothing_is_tried_again(
    redis_client: aioredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram still delivers a press under a message of a group that removed the bot: the spin
    asks first whether the group takes its pictures, and its refusal makes no pull."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/spin", first_name="Alice")
        history = await services_of(bot.app).pulls.wallet.history(ALICE)
        bot.api.removed_from.add(GROUP)
        await bot.press(GROUP, ALICE, bot.button(GROUP, "🎰 Spin"), first_name="Alice")
        assert [type(error) for error in bot.expect_errors()] == [Forbidden]
        assert await services_of(bot.app).pulls.wallet.history(ALICE) == history
        for _ in range(3):  # the still due for the first spin, and any try again
            bot.clock.advance(60)  # type: ignore[attr-defined]
            await bot.tick()
        edits = [call for call in bot.api.calls_of("editMessageMedia") if call.chat_id == GROUP]
        assert len(edits) == 1 and edits[0].error  # the first spin's still, refused once
        logged = [(record.levelname, record.getMessage()) for record in caplog.records]
        assert not [line for line in logged if line[0] == "ERROR"], logged
        dropped = f"job {STILL} dropped: Telegram refused it (Forbidden: bot was kicked from the group chat)"
        assert ("WARNING", dropped) in logged
        # Alice's next spin, wherever she is, is her second pull of the day.
        await bot.say(ALICE, ALICE, "/spin")
        shown = [message.content for message in bot.api.bot_messages(ALICE)]
        assert len(shown) == 1 and free_left(3) in shown[0]


async def test_a_group_that_keeps_photos_from_the_bot_gets_no_pull_it_could_not_see(
    redis_client: aioredis.Redis,
) -> None:
    """Asked before the pull: a pull the group could not be shown would cost a free pull (or coins)
    and show nowhere until the next spin."""
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/spin", first_name="Alice")
        machine = bot.live(GROUP)
        bot.api.no_photos.add(GROUP)  # members may not send media, and the bot is a member
        pulls = await services_of(bot.app).pulls.wallet.history(ALICE)
        await bot.say(GROUP, ALICE, "/spin")
        assert bot.live(GROUP).content == NO_PICTURES
        await bot.press(GROUP, ALICE, bot.button(GROUP, "🎰 Spin", machine.message_id), machine.message_id)
        assert bot.live(GROUP).content == NO_PICTURES
        assert await services_of(bot.app).pulls.wallet.history(ALICE) == pulls
        assert not await services_of(bot.app).pulls.pending(ALICE)
        assert not bot.errors


async def test_broke_player_is_refused_and_refilled_once_a_day(redis_client: aioredis.Redis) -> None:
    clock = Clock(datetime(2026, 11, 30, 10, 0, tzinfo=UTC))
    async with BotHarness(redis_client, clock=clock) as bot:
        coins = services_of(bot.app).pulls
        await coins.wallet.apply(BOB, "drain", -991, "test", now=clock.now)
        for number in range(5):
            await coins.daily.take_pull(
                BOB, f"free{number}", now=clock.now, tz=moscow(), cost=10, wallet=coins.wallet
            )
            await coins.daily.shown(BOB, f"free{number}")
        await bot.say(BOB, BOB, "/spin")
        assert "a pull costs 10 coins; your balance is 9 coins" in bot.live(BOB).content
        assert await balance(bot, BOB) == 9
        await bot.say(BOB, BOB, "/wallet")
        wallet_text = bot.live(BOB).content
        assert "Balance: 9 coins" in wallet_text and "a refill to 1000 coins once a day" in wallet_text
        await bot.press(BOB, BOB, bot.button(BOB, "Refill"))
        assert "Refilled: your balance is 1000" in bot.live(BOB).content
        await coins.wallet.apply(BOB, "drain2", -990, "test", now=clock.now)
        await bot.say(BOB, BOB, "/wallet")
        await bot.press(BOB, BOB, bot.button(BOB, "Refill"))
        assert "Come back tomorrow" in bot.live(BOB).content


async def test_a_refill_pressed_in_a_group_is_told_to_the_presser_alone(redis_client: aioredis.Redis) -> None:
    eve = 33  # she has never opened the bot: it may not write to her privately
    async with BotHarness(redis_client) as bot:
        coins = services_of(bot.app).pulls
        await coins.wallet.apply(eve, "drain", -991, "test", now=services_of(bot.app).clock())
        await bot.say(GROUP, eve, "/wallet", first_name="Eve")
        wallet = bot.live(GROUP)
        await bot.press(GROUP, eve, bot.button(GROUP, "Refill"), first_name="Eve")
        assert bot.last_alert() == "Refilled: your balance is 1000 coins."
        assert await balance(bot, eve) == 1000
        assert not [call for call in bot.api.calls_of("sendMessage") if call.chat_id == eve]
        # Her balance and movements are chatter in a group: they go after a minute.
        bot.clock.advance(PASSING_SECONDS)  # type: ignore[attr-defined]
        await bot.tick()
        assert wallet.deleted


async def test_many_concurrent_pulls_create_and_lose_no_coin(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        coins = services_of(bot.app).pulls
        now = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
        from telegram import User

        user = User(ALICE, "Alice", False)
        results = await asyncio.gather(
            *(coins.pull(user.id, user.first_name, ALICE, f"p{n}", now=now, tz=moscow()) for n in range(300)),
            return_exceptions=True,
        )
        pulls = [r for r in results if not isinstance(r, BaseException)]
        assert len(pulls) + sum(isinstance(r, BaseException) for r in results) == 300
        history_paid = sum(1 for p in pulls if p.ticket.paid)
        winnings = sum(p.view.win + p.view.bonus for p in pulls)
        assert sum(not p.ticket.paid for p in pulls) == 5
        assert await balance(bot, ALICE) == 1000 - 10 * history_paid + winnings
        assert await balance(bot, ALICE) >= 0


def pulled(rank: int, symbols: tuple[str, str, str]) -> BanditView:
    """The view of a pull at career `rank` whose reels stop on `symbols`."""
    game = BanditGame()
    state = game.new(1, {"rank": rank})
    for reel, symbol in enumerate(symbols):
        state = game.apply(state, CHANCE, f"r{reel}:{STRIP.index(symbol)}").state
    return game.view(state, 0)


def test_pull_captions_name_coins_in_plural_forms_and_the_career_in_the_language() -> None:
    at = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    paid = PullTicket("p1", Movement("p1", at, -10, "bandit", 991), free_left=0, streak=1, resets_at=at)
    step = Pull(pulled(2, ("scroll",) * 3), paid, balance=981)
    assert pull_caption(step, "ru", "Europe/Moscow", None).splitlines()[1:] == [
        "📜 Три свитка! Новое звание: Боцман. Бонус +200 монет.",
        "Вы усмирили бунт на нижней палубе одной дудкой. Отныне вы боцман.",
        "Звание: Боцман. На счёте: 981 монета.",
        "Эта попытка стоила 10 монет. Бесплатные попытки вернутся в 10:00 (Europe/Moscow).",
    ]
    assert "New rank: Boatswain. Bonus +200 coins." in pull_caption(step, "en", "Europe/Moscow", None)
    free = PullTicket("p2", None, free_left=1, streak=2, resets_at=at)
    win = Pull(pulled(5, ("doubloon",) * 3), free, balance=193)
    assert pull_caption(win, "ru", "Europe/Moscow", "Алиса").splitlines()[1:] == [
        "Попытка: Алиса",
        "Выигрыш: 150 монет.",
        "Звание: Квартирмейстер. На счёте: 193 монеты.",
        "Сегодня осталась 1 бесплатная попытка (серия: день 2); они обновятся в 10:00 (Europe/Moscow).",
    ]
