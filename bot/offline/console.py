"""`python -m bot --console`: the real Application, offline, in the terminal, against the fake Bot API.

Type as any user in any chat; the bot's messages are printed with numbered buttons, and every picture it
sends or edits is written to a folder. Lines can be piped in, so a session is a replayable script.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import io
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from PIL import Image
from telegram import Update
from telegram.ext import Application

from bot import keys
from bot.app import TICKER, build_application
from bot.offline.fake_api import BOT_USERNAME, JSON, ApiCall, FakeBotAPI, UpdateFactory
from bot.runtime.redis import connect
from bot.settings import Settings

App = Application[Any, Any, Any, Any, Any, Any]

HELP = """\
Commands (anything else is sent as a message from the current user in the current chat):
  /new grid          a message, e.g. a bot command (say TEXT sends any text, even a console word)
  as 2 Bob           act as user 2, named Bob (the name is remembered)
  in group 1         switch to group chat -1001 (in group N -> -(1000+N); in -100123 -> that chat)
  in private         switch to the current user's private chat with the bot
  press 3 | 3        press button 3 of the latest message with buttons here (press 3 @5: of message 5)
  lang en            the current user's Telegram language (ru, en)
  admin              make the current user an administrator of the current group
  anon /stop         write in the current group anonymously, as the group (an admin's way)
  bot out | bot in   remove the bot from the current group, or add it (its membership changes)
  block | unblock    the current user blocks the bot (it may not write to them; writing to it unblocks)
  show               reprint this chat's latest bot messages
  wait 5             let 5 seconds pass (timers, deferred edits) and print what the bot did
  help, quit"""

#: How long the console waits for the bot to finish reacting before it gives up and moves on.
SETTLE_TIMEOUT = 15.0
#: One-off jobs (deferred edits) due this soon after a line are waited for as part of its reaction.
JOB_HORIZON = dtm.timedelta(seconds=10)
#: Methods the console shows; the rest (getMe, setMyCommands, ...) is plumbing.
SHOWN = {
    "sendMessage",
    "sendPhoto",
    "sendAnimation",
    "sendMediaGroup",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
    "deleteMessages",
    "answerCallbackQuery",
}
MEDIA_METHODS = {"sendPhoto", "sendAnimation", "sendMediaGroup", "editMessageMedia"}
#: Message ids per chat that one console run may use before the next run's begin: far more than
#: a session of typing makes (the bot edits its table message more than it sends new ones).
MESSAGES_PER_RUN = 1000
DEEP_LINK = re.compile(rf"^https://t\.me/{BOT_USERNAME}\?start=(\S+)$")


@dataclass
class _Console:
    application: App
    api: FakeBotAPI
    out: TextIO
    images_dir: Path
    updates: UpdateFactory = field(init=False)
    user_id: int = 1
    names: dict[int, str] = field(default_factory=lambda: {1: "Alice"})
    langs: dict[int, str] = field(default_factory=dict)
    chat_id: int = 1
    printed: int = 0
    image_count: int = 0
    images: dict[tuple[int, int], Path] = field(default_factory=dict)
    #: Who pressed, by callback query id, to say whom an answer's alert was for.
    pressers: dict[str, str] = field(default_factory=dict)
    #: Tasks and jobs that outlived a line's settle timeout (a loop the bot started): not waited for again.
    background: set[asyncio.Task[Any]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.updates = UpdateFactory(self.api)
        self.printed = len(self.api.calls)

    @property
    def name(self) -> str:
        return self.names.get(self.user_id, f"User {self.user_id}")

    @property
    def prompt(self) -> str:
        where = "private" if self.chat_id > 0 else f"group {self.chat_id}"
        return f"{self.name} ({self.user_id}) in {where}> "

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")

    # -- commands ------------------------------------------------------------------------------------

    async def run_line(self, line: str) -> bool:
        """Carry out one typed line; False when the session ends."""
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.say(HELP)
        elif word == "as":
            self.switch_user(rest)
        elif word == "in":
            self.switch_chat(rest)
        elif word == "lang" and rest:
            self.langs[self.user_id] = rest
        elif word == "admin":
            self.make_admin()
        elif word == "anon":
            await self.send(rest, anonymous=True)
        elif word == "bot" and rest in ("in", "out"):
            await self.membership(rest == "in")
        elif word in ("block", "unblock"):
            await self.block(word == "block")
        elif word == "show":
            self.show()
        elif word == "wait":
            await self.wait(rest)
        elif word == "say":
            await self.send(rest)
        elif word == "press" or line.isdigit():
            await self.press(rest if word == "press" else line)
        else:
            await self.send(line)
        return True

    def switch_user(self, args: str) -> None:
        user, _, name = args.partition(" ")
        if not user.isdigit() or int(user) == 0:
            self.say("usage: as USER_ID [NAME]   (a positive id, e.g. as 2 Bob)")
            return
        was_private = self.chat_id == self.user_id
        self.user_id = int(user)
        if name.strip():
            self.names[self.user_id] = name.strip()
        if was_private:
            self.chat_id = self.user_id

    def switch_chat(self, args: str) -> None:
        parts = args.split()
        if parts == ["private"]:
            self.chat_id = self.user_id
        elif parts and parts[0] == "group" and (len(parts) == 1 or parts[1].isdigit()):
            self.chat_id = -(1000 + int(parts[1] if len(parts) > 1 else 1))
        elif len(parts) == 1 and re.fullmatch(r"-\d+", parts[0]):
            self.chat_id = int(parts[0])
        else:
            self.say("usage: in private | in group N | in -100123")

    def make_admin(self) -> None:
        if not self._in_a_group("admin"):
            return
        admins = self.api.admins.setdefault(self.chat_id, [])
        if self.user_id not in admins:
            admins.append(self.user_id)
        self.say(f"({self.name} is an administrator of {self.chat_id})")

    def _in_a_group(self, what: str) -> bool:
        if self.chat_id > 0:
            self.say(f"({what} is for groups: switch with `in group N`)")
        return self.chat_id < 0

    async def membership(self, joins: bool) -> None:
        if self._in_a_group("bot in | bot out"):
            old, new = ("left", "member") if joins else ("member", "left")
            await self.feed(self.updates.membership(self.chat_id, self.user_id, old, new))

    async def block(self, blocks: bool) -> None:
        """As Telegram does: the bot is told of the change, and its requests to the person refused."""
        old, new = ("member", "kicked") if blocks else ("kicked", "member")
        await self.feed(self.updates.membership(self.user_id, self.user_id, old, new))
        self.say(f"({self.name} {'blocked' if blocks else 'unblocked'} the bot)")

    async def send(self, text: str, *, anonymous: bool = False) -> None:
        if not text or (anonymous and not self._in_a_group("anon")):
            return
        if self.chat_id == self.user_id and self.user_id in self.api.blocked_by:
            await self.block(False)  # Telegram lets a person write to a bot they blocked by unblocking it
        update = self.updates.message(
            self.chat_id,
            self.user_id,
            text,
            first_name=self.name,
            language_code=self.langs.get(self.user_id, "ru"),
            as_chat=self.chat_id if anonymous else None,
        )
        await self.feed(update)

    async def press(self, args: str) -> None:
        match = re.fullmatch(r"(\d+)(?:\s+@(\d+))?", args)
        if not match:
            self.say("usage: press N [@MESSAGE_ID]")
            return
        number = int(match[1])
        if match[2]:
            msg = self.api.messages.get(self.chat_id, {}).get(int(match[2]))
            if msg is None or msg.deleted:
                self.say(f"(no message {match[2]} in this chat)")
                return
        else:
            with_buttons = [m for m in self.api.bot_messages(self.chat_id) if m.keyboard]
            if not with_buttons:
                self.say("(no message with buttons in this chat)")
                return
            msg = with_buttons[-1]
        buttons = [b for row in msg.keyboard for b in row]
        if not 1 <= number <= len(buttons):
            self.say(f"(message {msg.message_id} has buttons 1-{len(buttons)})")
            return
        button = buttons[number - 1]
        if button.callback_data is not None:
            update = self.updates.callback(
                self.chat_id,
                self.user_id,
                msg.message_id,
                button.callback_data,
                first_name=self.name,
                language_code=self.langs.get(self.user_id, "ru"),
            )
            self.pressers[update["callback_query"]["id"]] = self.name
            await self.feed(update)
            return
        link = DEEP_LINK.match(button.url or "")
        if link is None:
            self.say(f"(button {number} opens {button.url})")
            return
        # A deep link opens the user's private chat with the bot and sends /start PAYLOAD, as Telegram does.
        self.chat_id = self.user_id
        self.say(f"{self.prompt}/start {link[1]}   (the deep link opened the private chat)")
        await self.send(f"/start {link[1]}")

    # -- running the application ---------------------------------------------------------------------

    async def wait(self, seconds: str) -> None:
        try:
            delay = float(seconds or 1)
        except ValueError:
            self.say("usage: wait SECONDS")
            return
        before = self._snapshot()
        await asyncio.sleep(delay)
        await self.settle(*before)
        self.print_calls()

    async def feed(self, update_json: JSON) -> None:
        app = self.application
        update = Update.de_json(update_json, app.bot)
        before = self._snapshot()
        # Through the update processor, as the Updater would, so per-chat ordering applies.
        await app.update_processor.process_update(update, app.process_update(update))
        await self.settle(*before)
        self.print_calls()
        query = update_json.get("callback_query")
        if query and query["id"] in self.api.pending_queries:
            self.say("(warning: the bot did not answer this button press)")

    def _snapshot(self) -> tuple[set[asyncio.Task[Any]], set[Any]]:
        queue = self.application.job_queue
        return asyncio.all_tasks(), set(queue.jobs()) if queue else set()

    async def settle(self, tasks_before: set[asyncio.Task[Any]], jobs_before: set[Any]) -> None:
        """Wait until the tasks and soon-due jobs that appeared since the snapshot are done."""
        before = tasks_before | self.background
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_TIMEOUT
        while True:
            busy = [t for t in asyncio.all_tasks() if t not in before and not t.done()]
            jobs = self._due_jobs(jobs_before)
            if not busy and not jobs:
                return
            if loop.time() > deadline:
                self.background.update(busy)
                return
            await asyncio.sleep(0.01)

    def _due_jobs(self, jobs_before: set[Any]) -> list[Any]:
        queue = self.application.job_queue
        if queue is None:
            return []
        horizon = dtm.datetime.now(dtm.UTC) + JOB_HORIZON
        # The ticker sets its next tick as each ends: waiting for it would wait for ever.
        return [
            j
            for j in queue.jobs()
            if j not in jobs_before and j.name != TICKER and j.next_t is not None and j.next_t <= horizon
        ]

    # -- output --------------------------------------------------------------------------------------

    def print_calls(self) -> None:
        for call in self.api.calls[self.printed :]:
            if call.method in SHOWN:
                self.print_call(call)
        self.printed = len(self.api.calls)

    def print_call(self, call: ApiCall) -> None:
        if call.error is not None:
            self.say(f"[chat {call.chat_id} · error] {call.method}: {call.error}")
            return
        if call.method == "answerCallbackQuery":
            if call.params.get("text"):
                kind = "alert" if call.params.get("show_alert") else "toast"
                who = self.pressers.get(str(call.params["callback_query_id"]), "?")
                self.say(f"({kind} to {who}) {call.params['text']}")
            return
        if call.method in ("deleteMessage", "deleteMessages"):
            ids = call.params.get("message_ids") or [call.params.get("message_id")]
            for message_id in ids:
                self.say(f"[chat {call.chat_id} · msg {message_id} · deleted]")
            return
        results = call.result if isinstance(call.result, list) else [call.result]
        for result in results:
            if call.method in MEDIA_METHODS:
                self.images[result["chat"]["id"], result["message_id"]] = self.write_image(result)
            self.print_message(
                result, edited=call.method.startswith("edit"), new_image=call.method in MEDIA_METHODS
            )

    def print_message(self, message: JSON, *, edited: bool, new_image: bool) -> None:
        chat_id, message_id = message["chat"]["id"], message["message_id"]
        tag = " · edited" if edited else ""
        if "reply_to_message" in message:
            tag += f" · reply to msg {message['reply_to_message']['message_id']}"
        content: str = message.get("text") or message.get("caption") or ""
        lines = content.splitlines() or [""]
        self.say(f"[chat {chat_id} · msg {message_id}{tag}] {lines[0]}")
        for line in lines[1:]:
            self.say("    " + line)
        image = self.images.get((chat_id, message_id))
        if image is not None:
            self.say(f"    image: {image}" + ("" if new_image else " (unchanged)"))
        self.print_buttons(message.get("reply_markup", {}).get("inline_keyboard", []))

    def print_buttons(self, rows: list[list[JSON]]) -> None:
        number = 0
        for row in rows:
            labels = []
            for button in row:
                number += 1
                labels.append(f"[{number}] {button['text']}" + (" ↗" if "url" in button else ""))
            self.say("    " + "  ".join(labels))

    def write_image(self, message: JSON) -> Path:
        media = message["photo"][-1] if "photo" in message else message["animation"]
        data = self.api.file(media["file_id"])
        try:
            with Image.open(io.BytesIO(data)) as image:
                ext = (image.format or "bin").lower().replace("jpeg", "jpg")
        except Exception:
            ext = "bin"
        self.image_count += 1
        chat, message_id = message["chat"]["id"], message["message_id"]
        path = self.images_dir / f"{self.image_count:04d}_chat{chat}_msg{message_id}.{ext}"
        path.write_bytes(data)
        return path

    def show(self) -> None:
        messages = self.api.bot_messages(self.chat_id)[-3:]
        if not messages:
            self.say("(the bot has written nothing here yet)")
        for msg in messages:
            self.print_message(self.api.message_json(msg), edited=msg.edit_date is not None, new_image=True)


async def run_console(
    settings: Settings,
    stdin: TextIO,
    stdout: TextIO,
    images_dir: Path,
    *,
    application: App | None = None,
) -> None:
    """Read lines from `stdin` and play them against the bot, printing its reactions to `stdout`.

    Without `application`, the real one is built by `bot.app.build_application` on a fresh fake API
    (Redis from REDIS_URL or the embedded server). A given application must use a FakeBotAPI transport.
    """
    images_dir.mkdir(parents=True, exist_ok=True)
    earlier = 0
    async with contextlib.AsyncExitStack() as stack:
        if application is None:
            application, earlier = await _build(settings, stack)
        api = application.bot.request
        if not isinstance(api, FakeBotAPI):
            raise TypeError("the console needs an application built on a FakeBotAPI request")
        await stack.enter_async_context(application)
        if application.post_init is not None:
            await application.post_init(application)
        await application.start()
        try:
            await _repl(_Console(application, api, stdout, images_dir), stdin, earlier)
        finally:
            await application.stop()
            if application.post_stop is not None:
                await application.post_stop(application)


async def _build(settings: Settings, stack: contextlib.AsyncExitStack) -> tuple[App, int]:
    """The real application on a fresh fake API, and how many consoles ran on its store before."""
    redis, server = await connect(settings)
    if server is not None:
        stack.callback(server.stop)
    stack.push_async_callback(redis.aclose)
    # The store outlives the fake API, which forgets its messages: a new run numbers its messages
    # after the earlier runs', as Telegram never reuses an id (the bot names a table after the
    # message that asked for it, and would take a new /new for one it already handled).
    earlier = await redis.incr(keys.CONSOLE_RUNS) - 1
    api = FakeBotAPI(first_message_id=1 + MESSAGES_PER_RUN * earlier)
    # No rate limiter: the console should answer at once; the bot's own group-edit budget still applies.
    return build_application(settings, redis=redis, request=api, rate_limit=False), earlier


def _start_reader(stdin: TextIO) -> asyncio.Queue[str | None]:
    """Lines of `stdin` (None at its end), read by a daemon thread.

    Not asyncio.to_thread: at Ctrl+C, asyncio.run joins its executor's threads, and one blocked in
    readline would hold the exit until the next Enter.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed first: nobody is listening any more
            for raw in iter(stdin.readline, ""):
                loop.call_soon_threadsafe(lines.put_nowait, raw)
            loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=read, name="console-stdin", daemon=True).start()
    return lines


async def _repl(console: _Console, stdin: TextIO, earlier: int) -> None:
    interactive = stdin.isatty()
    console.say(f"Offline console: you are {console.name}, writing to the bot privately. Type help.")
    if earlier:
        console.say(
            "Games of earlier console runs go on (the store keeps them), but their messages are gone:"
            " /stop ends a group's game, /new starts another."
        )
    console.print_calls()
    lines = _start_reader(stdin)
    while True:
        if interactive:
            console.out.write(console.prompt)
            console.out.flush()
        raw = await lines.get()
        if raw is None:
            return
        line = raw.strip()
        if not interactive:
            console.say(console.prompt + line)
        if not line or line.startswith("#"):
            continue
        if not await console.run_line(line):
            return
        console.out.flush()


def main(settings: Settings) -> int:
    images_dir = settings.images_dir or settings.data_dir / "console-out"
    try:
        asyncio.run(run_console(settings, sys.stdin, sys.stdout, images_dir))
    except KeyboardInterrupt:
        return 130
    return 0
