"""Per-chat update processing: one chat in order, different chats concurrently."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from telegram import CallbackQuery, Chat, Message, Update, User

from bot.chat.processor import PerChatUpdateProcessor, chat_of

_update_ids = iter(range(1, 1_000_000))


def message_in(chat_id: int) -> Update:
    chat = Chat(id=chat_id, type=Chat.GROUP if chat_id < 0 else Chat.PRIVATE)
    return Update(next(_update_ids), message=Message(message_id=1, date=datetime.now(UTC), chat=chat))


def inline_press(user_id: int) -> Update:
    user = User(id=user_id, first_name="Ann", is_bot=False)
    query = CallbackQuery(id="q", from_user=user, chat_instance="ci", inline_message_id="im", data="x")
    return Update(next(_update_ids), callback_query=query)


class Recorder:
    """A fake handler workload that records when each update starts and ends."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        self.running = 0
        self.max_running = 0

    async def work(self, name: str, steps: int = 5) -> None:
        self.log.append(("start", name))
        self.running += 1
        self.max_running = max(self.max_running, self.running)
        for _ in range(steps):  # yield to the loop a few times, so other updates may run meanwhile
            await asyncio.sleep(0)
        self.running -= 1
        self.log.append(("end", name))


async def run_all(processor: PerChatUpdateProcessor, jobs: list[tuple[Update, str]], rec: Recorder) -> None:
    # As Application does: one task per update, created in arrival order.
    async with processor:
        await asyncio.gather(*(processor.process_update(update, rec.work(name)) for update, name in jobs))


def test_chat_of() -> None:
    assert chat_of(message_in(-100)) == -100
    assert chat_of(inline_press(7)) == 7
    assert chat_of(Update(1)) is None
    assert chat_of("not an update") is None


async def test_one_chat_in_order_without_overlap() -> None:
    rec = Recorder()
    processor = PerChatUpdateProcessor(8)
    jobs = [(message_in(-1), f"u{n}") for n in range(5)]
    await run_all(processor, jobs, rec)
    expected = [(event, f"u{n}") for n in range(5) for event in ("start", "end")]
    assert rec.log == expected
    assert rec.max_running == 1
    assert processor.active_chats == 0  # locks are dropped when the chat is idle


async def test_different_chats_overlap() -> None:
    rec = Recorder()
    processor = PerChatUpdateProcessor(8)
    await run_all(processor, [(message_in(-1), "a"), (message_in(-2), "b"), (inline_press(3), "c")], rec)
    assert rec.log[:3] == [("start", "a"), ("start", "b"), ("start", "c")]
    assert rec.max_running == 3


async def test_interleaved_chats_keep_each_chats_order() -> None:
    rec = Recorder()
    processor = PerChatUpdateProcessor(4)
    jobs = [(message_in(-1 - n % 3), f"c{n % 3}-{n}") for n in range(12)]
    await run_all(processor, jobs, rec)
    for chat in range(3):
        starts = [name for event, name in rec.log if event == "start" and name.startswith(f"c{chat}-")]
        assert starts == [name for _, name in jobs if name.startswith(f"c{chat}-")]
    assert rec.max_running == 3
    assert processor.active_chats == 0


async def test_limit_holds_across_chats() -> None:
    rec = Recorder()
    processor = PerChatUpdateProcessor(2)
    await run_all(processor, [(message_in(-n), f"u{n}") for n in range(1, 7)], rec)
    assert rec.max_running == 2


async def test_a_busy_chat_does_not_stall_other_chats() -> None:
    rec = Recorder()
    processor = PerChatUpdateProcessor(2)
    async with processor:
        busy = [processor.process_update(message_in(-1), rec.work(f"busy{n}", 25)) for n in range(5)]
        other = processor.process_update(message_in(-2), rec.work("other", 5))
        await asyncio.gather(*busy, other)
    # "other" runs beside the first busy update, not after the whole queue of its chat.
    assert rec.log.index(("end", "other")) < rec.log.index(("start", "busy1"))
    assert processor.current_concurrent_updates == 0


async def test_updates_without_a_chat_run_unlocked() -> None:
    rec = Recorder()
    processor = PerChatUpdateProcessor(4)
    await run_all(processor, [(Update(1), "a"), (Update(2), "b")], rec)
    assert rec.max_running == 2


async def test_a_failing_update_releases_its_chat() -> None:
    processor = PerChatUpdateProcessor(4)
    rec = Recorder()

    async def fail() -> None:
        raise RuntimeError("handler failed")

    async with processor:
        results = await asyncio.gather(
            processor.process_update(message_in(-1), fail()),
            processor.process_update(message_in(-1), rec.work("after")),
            return_exceptions=True,
        )
    assert isinstance(results[0], RuntimeError)
    assert rec.log == [("start", "after"), ("end", "after")]
    assert processor.active_chats == 0
