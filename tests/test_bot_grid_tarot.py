"""The Tarot card grid (Game 2) through the real Application, by updates, on a real Redis; and its
buttons and journal lines on hand-built fields (RULES.md E2.4, E2.5, E2.6, E2.10)."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import redis.asyncio as aioredis
from PIL import Image

from bot.adapters import ADAPTERS
from bot.adapters.grid_tarot import card_text
from bot.app import services_of
from bot.chat import callback
from bot.chat.keyboards import MAX_BUTTONS, MAX_ROW
from bot.offline.fake_api import FakeBotAPI
from bot.tables.lifecycle import game_of, state_of, team_layouts
from bot.tables.model import Entry, Phase, Table
from bot.tables.screens import describe
from core.ai.random_player import RandomPlayer
from core.cards import deck78, is_major, tarot_label
from core.engine import Event, GameOver
from core.games import grid_tarot_events as events
from core.games.grid_tarot import GridTarotState, TokenState
from core.games.grid_tarot_events import Swapped, TokenMoved, WheelTurned
from core.games.grid_tarot_rules import BOARD
from core.play import play
from tests.bot_kit import press_a_move
from tests.harness import SEAT_NAMES, BotHarness, Clock
from tests.leaks import leaked
from tests.tarot_fields import GAME, code, field, move
from tests.test_bot_grid import mover

ALICE, BOB, CAROL = 41, 42, 43
NAMES = {ALICE: "Alice", BOB: "Bob"}
GROUP = -100410
ADAPTER = ADAPTERS["grid_tarot"]
#: Far more presses than a game takes (every token move is one press): a game beyond is a bug.
MOST_PRESSES = 1500
#: Telegram's photo is small for a phone: the turn picture stays well under it.
MOST_BYTES = 150 * 1024


def keyboards(api: FakeBotAPI, chat_id: int) -> list[list[list[dict[str, Any]]]]:
    """Every inline keyboard the bot sent to the chat."""
    found = []
    for call in api.calls:
        if call.chat_id != chat_id:
            continue
        markup = call.params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if markup:
            found.append(markup["inline_keyboard"])
    return found


def assert_within_telegram_limits(api: FakeBotAPI, chat_id: int) -> int:
    """Callback data within 64 bytes, rows of at most 8, at most 100 buttons; returns how many
    keyboards were checked."""
    sent = keyboards(api, chat_id)
    for rows in sent:
        assert all(len(row) <= MAX_ROW for row in rows)
        assert sum(map(len, rows)) <= MAX_BUTTONS
        for row in rows:
            for button in row:
                data = button.get("callback_data")
                if data is not None:
                    assert len(data.encode()) <= callback.MAX_BYTES
                    callback.decode(data)
    return len(sent)


async def play_out(bot: BotHarness, chat_id: int, rng: random.Random) -> tuple[Table, list[str]]:
    """Press a move of whoever is to move (a row first where the keyboard asks) until the end;
    every press must be applied. Returns the finished table and the caption after each press."""
    table = await bot.table(chat_id)
    assert table is not None
    captions: list[str] = []
    for _ in range(MOST_PRESSES):
        if table.phase is not Phase.PLAYING:
            return table, captions
        await press_a_move(bot, table, mover(table), rng)
        assert bot.last_alert() is None, bot.last_alert()
        fresh = await bot.table(chat_id)
        assert fresh is not None and state_of(fresh).version > state_of(table).version
        table = fresh
        captions.append(bot.live(chat_id).content)
    raise AssertionError("the game did not end")


async def test_a_solo_game_is_played_to_its_end(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid_tarot solo", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None and table.phase is Phase.PLAYING and len(table.players) == 1
        first = bot.live(ALICE)
        assert first.photo is not None and len(first.photo) < MOST_BYTES
        assert Image.open(io.BytesIO(first.photo)).width == 1000
        assert "Alice, your turn: onto any closed card" in first.content
        # 78 closed cards do not fit one keyboard: the rows come first.
        assert bot.button_labels(ALICE) == [f"Row {n}" for n in range(1, 8)]
        table, captions = await play_out(bot, ALICE, random.Random("solo"))
        outcome = game_of(table).outcome(state_of(table))
        assert outcome is not None
        final = bot.live(ALICE).content
        won = "🏁 The whole field is open: a win!" in final
        assert won == bool(outcome.winners)
        assert won or "🏁 No move left with" in final
        assert bot.button_labels(ALICE) == ["Play again"]
        assert "Alice ① is placed on " in captions[0]
        # Every press is told (a first pick, the Hanged Man's free card or a way out, by the
        # caption asking for the second).
        assert all("Alice" in caption.split("\n")[1] for caption in captions)
        assert assert_within_telegram_limits(bot.api, ALICE) > len(captions)
        # Every picture sent along the way was small.
        uploads = [data for call in bot.api.calls for data in call.files.values()]
        assert len(uploads) > len(captions) // 2 and max(map(len, uploads)) < MOST_BYTES


def test_the_teams_button_offers_even_splits_first() -> None:
    """The lobby's button cycles the layouts: each alone, then two against two (three ways) before
    the uneven splits, and everyone in one team last; every split of the seats exactly once."""
    four = team_layouts(4)
    assert four[:4] == ((0, 1, 2, 3), (0, 0, 1, 1), (0, 1, 0, 1), (0, 1, 1, 0))
    assert four[-1] == (0, 0, 0, 0) and len(set(four)) == len(four) == 15  # the Bell number B4
    assert team_layouts(3) == ((0, 1, 2), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 0, 0))
    assert team_layouts(2) == ((0, 1), (0, 0))


async def test_two_people_in_a_team_against_a_computer_in_a_group(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(GROUP, ALICE, "/new grid_tarot", first_name="Alice")
        await bot.press(GROUP, BOB, bot.button(GROUP, "Join"), first_name="Bob 🎲")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Add computer"))
        # The lobby's settings: two tokens each, Alice and Bob against the computer.
        await bot.press(GROUP, ALICE, bot.button(GROUP, "⚙️ Tokens per player: 1"))
        for _ in range(6):
            if "👥 Teams: 1+2 vs 3" in bot.button_labels(GROUP):
                break
            teams = next(label for label in bot.button_labels(GROUP) if label.startswith("👥 "))
            await bot.press(GROUP, ALICE, bot.button(GROUP, teams))
        assert "👥 Teams: 1+2 vs 3" in bot.button_labels(GROUP)
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING
        assert table.teams == (0, 0, 1) and table.options == {"tokens": 2}
        computer = table.players[2].name
        table, captions = await play_out(bot, GROUP, random.Random("team"))
        outcome = game_of(table).outcome(state_of(table))
        assert outcome is not None
        # The team wins or loses as one.
        if not outcome.draw:
            assert {0, 1} <= set(outcome.winners) or {0, 1} <= set(outcome.losers)
        assert not leaked(bot.api, table)
        assert assert_within_telegram_limits(bot.api, GROUP) > len(captions)
        # Both tokens of each seat are named, and the computer's moves were told in the group too.
        text = "\n".join(captions)
        assert "Alice ②" in text and "Bob 🎲 ①" in text and f"{computer} ①" in text
        # The result names the seats as everything above it does (the picture draws what its font
        # can), and says whose tokens could not move: no line above it says so again.
        final = bot.live(GROUP).content
        names = [player.name for player in table.players]
        if outcome.winners:
            assert "🏁 Winners: " + ", ".join(names[seat] for seat in outcome.winners) in final
        assert "⛔" not in final


async def test_a_turn_of_two_tokens_is_told_whole_with_the_computers_turn(
    redis_client: aioredis.Redis,
) -> None:
    """Two tokens each against a computer: Alice places both, in four presses, and the computer
    answers at once. The caption then tells the computer's turn and the whole of hers, though the
    message showed her first token's placement before."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid_tarot one2", first_name="Alice")
        table = await bot.table(ALICE)
        assert table is not None
        rng = random.Random("two tokens placed")
        await press_a_move(bot, table, ALICE, rng)
        tokens = ("Alice ① ", "Alice ② ")
        placed = [line for line in bot.live(ALICE).content.split("\n") if line.startswith(tokens)]
        assert len(placed) == 1
        table = await bot.table(ALICE)
        assert table is not None
        await press_a_move(bot, table, ALICE, rng)
        caption = bot.live(ALICE).content.split("\n")
        computer = table.players[1].name
        assert placed[0] in caption and sum(line.startswith(tokens) for line in caption) == 2
        assert any(line.startswith(f"{computer} ") for line in caption)


async def test_tokens_still_off_the_field_are_offered_once(redis_client: aioredis.Redis) -> None:
    """Two tokens still to be placed are alike: the first placement is offered for ① alone (seven
    rows, not fourteen), the second for ②."""
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid_tarot solo2", first_name="Alice")
        assert bot.button_labels(ALICE) == [f"① Row {row}" for row in range(1, 8)]
        await bot.press(ALICE, ALICE, bot.button(ALICE, "① Row 3"))
        await bot.press(ALICE, ALICE, bot.button(ALICE, "①A3"))
        assert "Alice ① is placed on A3" in bot.live(ALICE).content
        assert bot.button_labels(ALICE)[0].startswith("② ")


async def test_the_fool_is_answered_in_two_steps_a_row_then_a_card(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/new grid_tarot solo", first_name="Alice")
        old = await bot.table(ALICE)
        assert old is not None
        # Alice's token stands on the open Fool, every other card is closed.
        state = state_of(old)
        assert isinstance(state, GridTarotState)
        fool = state.cards.index("T0")
        on_fool = state.model_copy(
            update={
                "tokens": (TokenState(seat=0, number=1, cell=fool),),
                "closed": tuple(cell for cell in state.closed if cell != fool),
            }
        )
        new = old.model_copy(update={"state": on_fool.model_dump_json(), "screen": old.screen + 1})
        await services_of(bot.app).tables.commit(old, new)
        assert "Alice, your turn: to any closed card" in bot.live(ALICE).content
        rows = bot.button_labels(ALICE)
        assert rows == [f"Row {n}" for n in range(1, 8)]
        row_7 = bot.button(ALICE, "Row 7")
        await bot.press(ALICE, ALICE, row_7)
        cells = bot.button_labels(ALICE)
        assert cells[-1] == "◀️ Back"
        # A double tap: the second press (sent before the keyboard changed) finds the row open.
        await bot.press(ALICE, ALICE, row_7)
        assert bot.button_labels(ALICE) == cells
        # The closed cards of row 7, in the field's reading order, named as the picture names them.
        assert cells[:-1] == [BOARD.codes[i] for i in on_fool.closed if BOARD.layout[i][0] == 6]
        await bot.press(ALICE, ALICE, bot.button(ALICE, "◀️ Back"))
        assert bot.button_labels(ALICE) == rows
        await bot.press(ALICE, ALICE, bot.button(ALICE, "Row 7"))
        await bot.press(ALICE, ALICE, bot.button(ALICE, cells[0]))
        assert bot.last_alert() is None
        after = await bot.table(ALICE)
        assert after is not None
        last = state_of(after).history[-1]
        assert last == (0, f"1.{cells[0]}")
        assert f"Alice ① moves to {cells[0]}: " in bot.live(ALICE).content


async def test_a_groups_two_step_keyboard_waits_seconds_for_the_edit_budget(
    redis_client: aioredis.Redis,
) -> None:
    """Opening a row is an edit of the group's message: within the budget, refused with the wait
    otherwise, and the wait is a few seconds, not most of a minute."""
    clock = Clock()
    async with BotHarness(redis_client, edits_per_minute=20, clock=clock) as bot:
        await bot.say(GROUP, ALICE, "/new grid_tarot", first_name="Alice")
        await bot.press(GROUP, ALICE, bot.button(GROUP, "Start"))  # alone: a solo game, Alice first
        table = await bot.table(GROUP)
        assert table is not None and table.phase is Phase.PLAYING and len(table.players) == 1
        opened = 0
        while True:
            await bot.press(GROUP, ALICE, bot.button(GROUP, "Row 1"))
            if bot.last_alert() is not None:
                break
            opened += 1
            await bot.press(GROUP, ALICE, bot.button(GROUP, "◀️ Back"))
            if bot.last_alert() is not None:
                break
            opened += 1
        assert 1 <= opened < 20
        wait = re.fullmatch(
            r"Telegram limits how often this chat's table may change: try again in (\d) s\.",
            bot.last_alert() or "",
        )
        assert wait is not None, bot.last_alert()
        assert await bot.table(GROUP) == table  # a refused step changes nothing
        clock.advance(int(wait.group(1)))
        before = bot.button_labels(GROUP)
        await bot.press(GROUP, ALICE, bot.button_data(GROUP)[0])
        assert bot.last_alert() is None and bot.button_labels(GROUP) != before
        assert not bot.errors


def test_closed_cards_never_reach_a_view_or_a_journal_line() -> None:
    """Along seeded games the identities of the closed cards nobody has seen appear in no view
    (public or a seat's) and in no journal line, in either language. A card an effect closed again
    was seen face up by everyone, so the view may name it."""
    game = ADAPTER.game
    deck = set(deck78())
    for number, (players, tokens) in enumerate([(1, 2), (2, 1), (3, 2), (4, 1)]):
        names = tuple(f"P{seat}" for seat in range(players))
        for turn in play(game, [RandomPlayer()] * players, random.Random(number), options={"tokens": tokens}):
            state = turn.step.state
            if not state.cards:
                continue
            hidden = {state.cards[cell] for cell in set(state.closed) - set(state.known)}
            for seat in (None, *range(players)):
                view = game.view(state, seat).model_dump_json()
                assert not {card for card in deck if f'"{card}"' in view} & hidden
            # A minor by its label, a major arcanum by its name (as the journal names them).
            words = {
                tarot_label(card, lang) for card in hidden for lang in ("ru", "en") if not is_major(card)
            }
            names_of_arcana = [
                re.escape(card_text(card, lang)) for card in hidden if is_major(card) for lang in ("ru", "en")
            ]
            arcana = re.compile(rf"\b({'|'.join(names_of_arcana)})\b") if names_of_arcana else None
            for event in turn.step.events:
                if isinstance(event, GameOver):
                    continue
                for lang in ("ru", "en"):
                    line = ADAPTER.captions[type(event)](event, names, lang)
                    said = {word.strip(".,:;()") for word in line.split()}
                    assert not said & words, (line, said & words)
                    assert arcana is None or not arcana.search(line), line


#: One event of each kind the engine emits, as a hand-built journal (cells by layout index).
EVERY_EVENT: tuple[Event, ...] = (
    events.TokenMoved(seat=0, token=1, start=None, end=5, card="T0", kind="place"),
    events.TokenMoved(seat=1, token=2, start=5, end=9, card="7C", kind="steps", steps=7, empress=True),
    events.TokenMoved(seat=0, token=1, start=9, end=20, card="KW", kind="any", repeat=True),
    events.TokenMoved(seat=0, token=1, start=20, end=30, card="9W", kind="jump", option="suit"),
    events.OptionUsed(seat=0, token=1, option="suit", cards=("4W",), cell=20, taken=True),
    events.OptionUsed(seat=1, token=1, option="jus4", cards=("T8", "4W"), cell=20, taken=False),
    events.Taken(seat=0, team=0, card="T2", cell=12),
    events.Returned(seat=0, token=1, cell=None),
    events.Returned(seat=0, token=2, cell=3),
    events.EmpressSet(seat=1, cell=40, tokens=((0, 1), (1, 1))),
    events.ChariotRepeat(seat=0, token=1, kind="steps", steps=6, possible=True),
    events.ChariotRepeat(seat=0, token=1, kind="line", steps=None, possible=True),
    events.ChariotRepeat(seat=0, token=1, kind="steps", steps=6, possible=False),
    events.WheelTurned(seat=0, cell=8, opened=(1, 2), cards=("5S", "QC"), closed=(3,)),
    events.WheelTurned(seat=0, cell=8, opened=(), cards=(), closed=()),
    events.CardsClosed(seat=0, arcanum="T13", cell=8, cells=(1, 2)),
    events.CardsClosed(seat=0, arcanum="T15", cell=8, cells=()),
    events.CardsOpened(seat=0, arcanum="T19", cell=8, cells=(1,), cards=("2P",)),
    events.CardsOpened(seat=0, arcanum="T20", cell=8, cells=(), cards=()),
    events.Swapped(seat=1, token=1, free=4, closed=70, card="2W"),
    events.Swapped(seat=1, token=1, free=None, closed=None, card=None),
    events.WorldMoved(seat=1, token=1, cell=70, centre=39),
    events.Skipped(seat=0, token=2, empress=True),
    events.TeamHopeless(team=0, seats=(0,)),
    events.TeamHopeless(team=1, seats=(1, 2)),
)


def test_every_event_kind_has_a_line_in_both_languages() -> None:
    kinds = {
        kind
        for kind in vars(events).values()
        if isinstance(kind, type) and issubclass(kind, Event) and kind.__module__ == events.__name__
    }
    assert {type(event) for event in EVERY_EVENT} == kinds == set(ADAPTER.captions)
    names = ("Alice", "Bob", "Eve")
    for event in EVERY_EVENT:
        ru, en = (ADAPTER.captions[type(event)](event, names, lang) for lang in ("ru", "en"))
        assert ru != en and ru and en
        # A bare 0 would read as the Fool's label (the leak scans look for it).
        assert "0" not in ru.split() and "0" not in en.split()


# ----- buttons and journal lines on hand-built fields --------------------------------------------

NAMES_AB = ("Alice", "Bob")


def test_e2_4_the_star_is_a_button_then_its_destination() -> None:
    state = field(
        cards={(5, 6): "T16", (0, 6): "2W"},
        closed=[(5, 9), (0, 8)],
        tokens=[[(0, 6)], [(5, 6)]],
        pools=[(), ("T17",)],
        turn=1,
    )
    view = GAME.view(state, None)
    (choice,) = ADAPTER.choices(view, GAME.legal_actions(state, 1), SEAT_NAMES, "ru")
    assert (choice.label, choice.action) == ("🆘 Звезда", "1.star")
    assert "Bob, ваш ход: безвыходное положение: выберите выход" in ADAPTER.status(view, NAMES_AB, "ru")
    state = move(state, 1, "1.star").state
    view = GAME.view(state, None)
    assert [c.label for c in ADAPTER.choices(view, GAME.legal_actions(state, 1), SEAT_NAMES, "en")] == [
        code((5, 9))
    ]
    assert "The Star — choose where to go" in ADAPTER.status(view, NAMES_AB, "en")
    step = move(state, 1, "1." + code((5, 9)))
    lines = [ADAPTER.captions[type(e)](e, NAMES_AB, "en") for e in step.events if not isinstance(e, GameOver)]
    assert lines[0] == "Bob ① has no move: The Star; G6 is covered with The Star from the pool"


def test_e2_5_the_jump_is_told_and_two_tokens_are_named_in_the_labels() -> None:
    state = field(cards={(2, 2): "4W", (5, 9): "9W", (4, 4): "9C"}, closed=[(2, 3)], tokens=[[(2, 2)]])
    step = move(move(state, 0, "1.suit").state, 0, "1.J6")
    lines = [
        ADAPTER.captions[type(e)](e, ("Alice",), "ru") for e in step.events if not isinstance(e, GameOver)
    ]
    assert lines[:2] == [
        "Alice ① в безвыходном положении: та же масть; 4♣ с C3 забрана",
        "Alice ① переходит на J6: 9♣",
    ]
    two = field(
        cards={(3, 0): "2W", (3, 12): "3C"},
        closed=[(3, 2), (2, 1), (3, 10), (2, 12)],
        tokens=[[(3, 0), (3, 12)]],
    )
    view = GAME.view(two, 0)
    choices = ADAPTER.choices(view, GAME.legal_actions(two, 0), SEAT_NAMES, "en")
    # K4 is two steps from the 3♥ on M4: three steps cannot end there.
    assert [(c.label, c.action, c.group_label) for c in choices] == [
        ("①B3", "1.B3", "① Row 3"),
        ("①C4", "1.C4", "① Row 4"),
        ("②M3", "2.M3", "② Row 3"),
    ]
    assert "Alice, your turn: token 1: 2 steps; token 2: 3 steps" in ADAPTER.status(view, ("Alice",), "en")


def test_e2_6_the_wheel_says_what_it_opened_and_closed() -> None:
    state = field(
        cards={(3, 2): "10P", (3, 10): "T10", (2, 4): "5S", (2, 6): "T6", (2, 7): "3C", (2, 9): "6P"},
        closed=[(3, 10), (2, 4)],
        tokens=[[(3, 2)], [(2, 9)]],
    )
    step = move(state, 0, "1.K4")
    (wheel,) = [e for e in step.events if isinstance(e, WheelTurned)]
    assert ADAPTER.captions[WheelTurned](wheel, NAMES_AB, "ru") == "Колесо Фортуны: открыта 1 (5♠), закрыта 1"
    assert ADAPTER.captions[WheelTurned](wheel, NAMES_AB, "en") == "Wheel of Fortune: 1 opened (5♠), 1 closed"
    (moved,) = [e for e in step.events if isinstance(e, TokenMoved)]
    assert ADAPTER.captions[TokenMoved](moved, NAMES_AB, "ru") == "Alice ①: 10 шагов на K4: Колесо Фортуны"


def test_e2_10_the_hanged_mans_swap_is_two_presses_and_is_told() -> None:
    state = field(
        cards={(4, 2): "5P", (4, 7): "T12", (0, 5): "2W", (6, 8): "KC", (6, 10): "T0"},
        closed=[(4, 7), (6, 8), (1, 4)],
        tokens=[[(6, 10)], [(4, 2)]],
        turn=1,
    )
    state = move(state, 1, "1." + code((4, 7))).state
    view = GAME.view(state, None)
    assert [
        (c.label, c.action) for c in ADAPTER.choices(view, GAME.legal_actions(state, 1), SEAT_NAMES, "en")
    ] == [("F1", "f.F1")]
    assert "The Hanged Man: pick a free card" in ADAPTER.status(view, NAMES_AB, "en")
    state = move(state, 1, "f.F1").state
    view = GAME.view(state, None)
    assert [c.label for c in ADAPTER.choices(view, GAME.legal_actions(state, 1), SEAT_NAMES, "ru")] == [
        "E2",
        "I7",
    ]
    assert "Повешенный: выберите закрытую карту для обмена с F1" in ADAPTER.status(view, NAMES_AB, "ru")
    step = move(state, 1, "c.I7")
    (swapped,) = [e for e in step.events if isinstance(e, Swapped)]
    assert (
        ADAPTER.captions[Swapped](swapped, NAMES_AB, "ru")
        == "Повешенный: Bob меняет 2♣ и закрытую карту (F1 ↔ I7)"
    )


def test_a_token_on_the_tower_is_told_it_stays() -> None:
    """The Tower moves nobody on: the line says so, where the status only leaves the token out."""
    landed = TokenMoved(seat=1, token=2, start=None, end=35, card="T16", kind="place")
    line = ADAPTER.captions[TokenMoved](landed, NAMES_AB, "ru")
    stays = "(фишка застряла: сдвинуть её могут только арканы)"
    assert line == f"Bob ② встаёт на {BOARD.codes[35]}: Башня {stays}"
    elsewhere = landed.model_copy(update={"card": "T17"})
    assert "застряла" not in ADAPTER.captions[TokenMoved](elsewhere, NAMES_AB, "ru")


def test_a_computers_move_for_a_person_says_so() -> None:
    state = field(cards={(3, 0): "2W"}, closed=[(3, 2)], tokens=[[(3, 0)]])
    (event, *_) = move(state, 0, "1.C4").events
    item = Entry(screen=1, kind="x", data={}, actor=0, proxy=True)
    # The line names the person once.
    assert describe(ADAPTER, item, event, ("Alice",), "en").startswith("🤖 for Alice: ①: 2 steps")


async def test_help_explains_the_game_in_the_chats_language(redis_client: aioredis.Redis) -> None:
    async with BotHarness(redis_client) as bot:
        await bot.say(ALICE, ALICE, "/help grid_tarot", language_code="ru")
        text = bot.live(ALICE).content
        assert "Поле из карт Таро" in text and "Колесо Фортуны" in text and "безвыходном" in text
        await bot.say(BOB, BOB, "/help grid_tarot")
        assert "Wheel of Fortune" in bot.live(BOB).content
