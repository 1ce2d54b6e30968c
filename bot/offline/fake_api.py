"""An in-process fake of the Telegram Bot API, plugged into PTB as its `BaseRequest` transport.

The tests, the console and the benchmark run the real `Application` against it: every call is recorded,
the chats are modelled (messages, photos, inline keyboards, edits, deletions) and the answers are the
JSON Telegram would send, including its error descriptions, so PTB raises the same exceptions it would
in production. Nothing here touches the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, NamedTuple

from PIL import Image
from telegram._utils.types import ODVInput
from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

JSON = dict[str, Any]

BOT_ID = 777000111
BOT_USERNAME = "cardgames_test_bot"
BOT_FIRST_NAME = "Card Games"
BOT_USER: JSON = {
    "id": BOT_ID,
    "is_bot": True,
    "first_name": BOT_FIRST_NAME,
    "username": BOT_USERNAME,
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}

#: Telegram's limits, checked so the bot meets them in tests rather than in production.
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_ANSWER = 200
MAX_DESCRIPTION = 512
MAX_SHORT_DESCRIPTION = 120
MAX_ROW_BUTTONS = 8
MAX_BUTTONS = 100
ADMIN_RIGHTS: JSON = {"can_be_edited": False, "is_anonymous": False} | dict.fromkeys(
    (
        "can_manage_chat",
        "can_delete_messages",
        "can_manage_video_chats",
        "can_restrict_members",
        "can_promote_members",
        "can_change_info",
        "can_invite_users",
        "can_post_stories",
        "can_edit_stories",
        "can_delete_stories",
        "can_pin_messages",
    ),
    True,
)
GIFT_TYPES = (
    "unlimited_gifts",
    "limited_gifts",
    "unique_gifts",
    "premium_subscription",
    "gifts_from_channels",
)
#: Long sides of the PhotoSize variants Telegram makes of an uploaded photo.
PHOTO_SIDES = (90, 320, 800, 1280, 2560)


class ApiError(Exception):
    """A Bot API error answer; `do_request` turns it into the HTTP status and description."""

    def __init__(self, description: str, code: int = 400, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.description = description
        self.code = code
        #: Telegram's ResponseParameters (a group's new id, a pause), if the error has any.
        self.parameters = parameters


class Button(NamedTuple):
    text: str
    callback_data: str | None = None
    url: str | None = None


@dataclass
class ApiCall:
    """One request the bot made, with its decoded parameters and uploaded files."""

    method: str
    params: JSON
    #: Uploaded files by multipart name ("photo" for sendPhoto, "attached..." for attach:// media).
    files: dict[str, bytes] = field(default_factory=dict)
    #: The target chat when the method has one, for per-chat rate checks.
    chat_id: int | None = None
    #: time.monotonic() when the request arrived.
    at: float = 0.0
    #: The JSON result Telegram answered with, or Telegram's error description when the call failed.
    result: Any = None
    error: str | None = None


@dataclass
class FakeMessage:
    """A message in the fake's model of a chat, the bot's or a user's, as it is now."""

    message_id: int
    chat_id: int
    from_id: int
    date: int
    text: str | None = None
    caption: str | None = None
    #: The latest photo (or animation) bytes and the file_id they are known by.
    photo: bytes | None = None
    file_id: str | None = None
    media_kind: str | None = None
    #: The raw reply_markup as sent, and its inline keyboard decoded.
    markup: JSON | None = None
    keyboard: list[list[Button]] = field(default_factory=list)
    thread_id: int | None = None
    entities: list[JSON] = field(default_factory=list)
    media: JSON = field(default_factory=dict)
    edit_date: int | None = None
    #: The chat a user's message was written on behalf of (an anonymous admin's group, a channel).
    sender_chat: JSON | None = None
    deleted: bool = False
    #: The message this one replies to, in the same chat.
    reply_to: int | None = None

    @property
    def content(self) -> str:
        """The text or the caption, whichever the message has."""
        return self.text if self.text is not None else self.caption or ""


class _HTMLText(HTMLParser):
    """Strips HTML markup the way Telegram does for parse_mode=HTML (entities are not modelled)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _plain(text: str, parse_mode: str | None) -> str:
    if parse_mode is None or parse_mode.upper() != "HTML":
        return text
    parser = _HTMLText()
    parser.feed(text)
    parser.close()
    return "".join(parser.parts)


def _utf16_len(text: str) -> int:
    # Telegram counts lengths in UTF-16 code units, after the markup is parsed.
    return len(text.encode("utf-16-le")) // 2


def _text(params: JSON) -> str:
    text = _plain(str(params.get("text", "")), params.get("parse_mode"))
    if not text.strip():
        raise ApiError("Bad Request: message text is empty")
    if _utf16_len(text) > MAX_TEXT:
        raise ApiError("Bad Request: message is too long")
    return text


def _caption(params: JSON) -> str | None:
    if params.get("caption") is None:
        return None
    caption = _plain(str(params["caption"]), params.get("parse_mode"))
    if _utf16_len(caption) > MAX_CAPTION:
        raise ApiError("Bad Request: message caption is too long")
    return caption


def _keyboard(markup: JSON | None) -> list[list[Button]]:
    if not markup or "inline_keyboard" not in markup:
        return []
    rows: list[list[Button]] = []
    if sum(len(row) for row in markup["inline_keyboard"]) > MAX_BUTTONS:
        raise ApiError("Bad Request: too many inline keyboard buttons")
    for row in markup["inline_keyboard"]:
        if len(row) > MAX_ROW_BUTTONS:
            raise ApiError("Bad Request: too many buttons in a row of the inline keyboard")
        buttons: list[Button] = []
        for b in row:
            data = b.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
                raise ApiError("Bad Request: BUTTON_DATA_INVALID")
            if set(b) <= {"text"}:
                raise ApiError("Bad Request: text buttons are unallowed in the inline keyboard")
            buttons.append(Button(b["text"], data, b.get("url")))
        rows.append(buttons)
    return rows


def _json_markup(raw: Any) -> JSON | None:
    # Markup arrives as a dict from PTB, but as a JSON string from anything posting raw form fields.
    if raw is None:
        return None
    if isinstance(raw, str):
        loaded: JSON = json.loads(raw)
        return loaded
    assert isinstance(raw, dict)
    return raw


Handler = Callable[["FakeBotAPI", JSON, dict[str, bytes]], Any]


class FakeBotAPI(BaseRequest):
    """The Bot API as a `BaseRequest`: pass it to both `.request()` and `.get_updates_request()`."""

    def __init__(self, *, poll_wait: float = 0.2, latency: float = 0.0, first_message_id: int = 1) -> None:
        #: Longest a getUpdates call waits for a pushed update, whatever timeout it asks for.
        self.poll_wait = poll_wait
        #: Simulated network delay of every call.
        self.latency = latency
        self.calls: list[ApiCall] = []
        self.messages: dict[int, dict[int, FakeMessage]] = {}
        #: Chat and user objects as Telegram sends them, learned from updates or made up on first use.
        self.chats: dict[int, JSON] = {}
        self.users: dict[int, JSON] = {BOT_ID: BOT_USER}
        self.admins: dict[int, list[int]] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        #: The bot's descriptions ("description", "short_description") by language code ("" default).
        self.descriptions: dict[tuple[str, str], str] = {}
        self.webhook_url = ""
        #: Callback queries delivered and not answered yet, by query id.
        self.pending_queries: dict[str, JSON] = {}
        #: Users who opened their private chat with the bot: it may not write to anyone else first.
        self.private_opened: set[int] = set()
        #: Groups the bot was removed from: Telegram refuses it there.
        self.removed_from: set[int] = set()
        #: People who blocked the bot: Telegram refuses it everything in their private chat.
        self.blocked_by: set[int] = set()
        #: Forum topics deleted, as (chat, thread): their messages went with them, and Telegram refuses
        #: the thread.
        self.deleted_topics: set[tuple[int, int]] = set()
        #: Forum topics an admin closed, as (chat, thread): the bot, not an admin, may post nothing new
        #: there (its messages may still be edited).
        self.closed_topics: set[tuple[int, int]] = set()
        #: Groups that became supergroups, with their new ids: Telegram refuses the old id.
        self.migrated: dict[int, int] = {}
        #: Groups where the bot is a plain member and members may not send photos.
        self.no_photos: set[int] = set()
        #: Groups where the bot is a plain member and members may send nothing: no words, no photos.
        self.muted: set[int] = set()
        self._files: dict[str, bytes] = {}
        self._file_ids = itertools.count(1)
        #: Each chat's messages are numbered from here (a restarted console carries on numbering).
        self.first_message_id = first_message_id
        self._next_message_id: dict[int, int] = {}
        self._updates: list[JSON] = []
        self._update_pushed = asyncio.Event()
        #: Fault injection for tests: the call (1-based, counted from `arm`) that times out, and
        #: whether it reaches the chat first (a timeout after Telegram did the work) or not.
        self._fail_at: int | None = None
        self._fail_after = False
        self.armed_calls = 0
        self._called = asyncio.Event()

    async def wait_for_call(self, method: str) -> ApiCall:
        """The first call of `method`, once the bot has made it (waits on each new call)."""
        while not (made := self.calls_of(method)):
            self._called.clear()
            await self._called.wait()
        return made[0]

    def arm(self, call: int | None, *, after: bool = False) -> None:
        """Make the `call`-th request from now on time out (None: no fault), after its work if
        `after`; `armed_calls` counts the requests made since."""
        self._fail_at, self._fail_after, self.armed_calls = call, after, 0

    # -- BaseRequest ------------------------------------------------------------------------------

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        """Nothing to open; PTB calls this once per role (request and get_updates_request)."""

    async def shutdown(self) -> None:
        """Nothing to close; the recorded state stays readable after the application stops."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        api_method = url.rsplit("/", 1)[-1]
        # A JSON round trip gives exactly what Telegram would decode (tuples become lists, etc.).
        params: JSON = json.loads(json.dumps(request_data.parameters)) if request_data else {}
        files = self._read_files(request_data) if request_data and request_data.contains_files else {}
        call = ApiCall(api_method, params, files, self._chat_id_of(params), time.monotonic())
        self.armed_calls += 1
        failing = self.armed_calls == self._fail_at
        if failing and not self._fail_after:
            raise TimedOut("injected: the request never arrived")
        self.calls.append(call)
        self._called.set()
        if self.latency:
            await asyncio.sleep(self.latency)
        handler = _METHODS.get(api_method)
        try:
            if handler is None:
                raise ApiError(f"Bad Request: method {api_method!r} is not supported by FakeBotAPI")
            result = handler(self, params, files)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as exc:
            call.error = exc.description
            body = {"ok": False, "error_code": exc.code, "description": exc.description}
            if exc.parameters:
                body["parameters"] = exc.parameters
            return exc.code, json.dumps(body).encode()
        call.result = result
        if failing:
            raise TimedOut("injected: the answer was lost")
        return 200, json.dumps({"ok": True, "result": result}).encode()

    @staticmethod
    def _read_files(request_data: RequestData) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        for name, (_filename, content, _mime) in request_data.multipart_data.items():
            files[name] = content if isinstance(content, bytes) else content.read()
        return files

    @staticmethod
    def _chat_id_of(params: JSON) -> int | None:
        chat_id = params.get("chat_id")
        if isinstance(chat_id, int):
            return chat_id
        if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
            return int(chat_id)
        return None

    # -- the chat model -----------------------------------------------------------------------------

    def chat(self, chat_id: int) -> JSON:
        """The Chat object of `chat_id`, made up from the id's sign if no update introduced it."""
        if chat_id not in self.chats:
            if chat_id > 0:
                user = self.user(chat_id)
                self.chats[chat_id] = {"id": chat_id, "type": "private", "first_name": user["first_name"]}
            else:
                kind = "supergroup" if str(chat_id).startswith("-100") and chat_id < -(10**12) else "group"
                self.chats[chat_id] = {"id": chat_id, "type": kind, "title": f"Group {-chat_id}"}
        return self.chats[chat_id]

    def user(self, user_id: int) -> JSON:
        """The User object of `user_id`, made up if no update introduced it."""
        return self.users.setdefault(
            user_id, {"id": user_id, "is_bot": False, "first_name": f"User {user_id}"}
        )

    def add_message(self, chat_id: int, from_id: int, **fields: Any) -> FakeMessage:
        """Append a message to a chat with the chat's next message id (shared by users and the bot)."""
        message_id = self._next_message_id.get(chat_id, self.first_message_id)
        self._next_message_id[chat_id] = message_id + 1
        msg = FakeMessage(message_id, chat_id, from_id, int(time.time()), **fields)
        self.messages.setdefault(chat_id, {})[message_id] = msg
        return msg

    def message_json(self, msg: FakeMessage) -> JSON:
        """The Message object Telegram would send for `msg` in its current state."""
        data: JSON = {
            "message_id": msg.message_id,
            "date": msg.date,
            "chat": self.chat(msg.chat_id),
            "from": self.user(msg.from_id),
        }
        if msg.sender_chat is not None:
            data["sender_chat"] = msg.sender_chat
        if msg.thread_id is not None:
            data["message_thread_id"] = msg.thread_id
            data["is_topic_message"] = True
        if msg.text is not None:
            data["text"] = msg.text
            if msg.entities:
                data["entities"] = msg.entities
        data.update(msg.media)
        if msg.caption is not None:
            data["caption"] = msg.caption
        if msg.edit_date is not None:
            data["edit_date"] = msg.edit_date
        if msg.reply_to is not None:
            data["reply_to_message"] = self.message_json(self.messages[msg.chat_id][msg.reply_to])
        if msg.keyboard and msg.markup is not None:
            data["reply_markup"] = msg.markup
        return data

    def set_admins(self, chat_id: int, user_ids: list[int]) -> None:
        """Make these users the chat's administrators (the first one its creator)."""
        self.admins[chat_id] = list(user_ids)

    def push_update(self, update: JSON) -> None:
        """Queue an update for getUpdates (for an application running with a real Updater)."""
        self._updates.append(update)
        self._update_pushed.set()

    # -- helpers for tests ----------------------------------------------------------------------------

    def bot_messages(self, chat_id: int) -> list[FakeMessage]:
        """The bot's messages in a chat that still exist, oldest first."""
        return [m for m in self.messages.get(chat_id, {}).values() if m.from_id == BOT_ID and not m.deleted]

    def last_message(self, chat_id: int) -> FakeMessage | None:
        """The bot's latest message in a chat that was not deleted."""
        messages = self.bot_messages(chat_id)
        return messages[-1] if messages else None

    def buttons(self, chat_id: int, message_id: int) -> list[list[tuple[str, str | None]]]:
        """The inline keyboard of a message as rows of (text, callback_data)."""
        return [
            [(b.text, b.callback_data) for b in row] for row in self.messages[chat_id][message_id].keyboard
        ]

    def photo(self, chat_id: int, message_id: int) -> bytes | None:
        """The bytes of the message's current photo, if it has one."""
        msg = self.messages.get(chat_id, {}).get(message_id)
        return msg.photo if msg else None

    def file(self, file_id: str) -> bytes:
        """The bytes behind a file_id the fake handed out."""
        return self._files[file_id]

    def delete_topic(self, chat_id: int, thread_id: int) -> None:
        """Someone deletes a forum topic: its messages go with it, and Telegram refuses the thread."""
        self.deleted_topics.add((chat_id, thread_id))
        for message in self.messages.get(chat_id, {}).values():
            if message.thread_id == thread_id:
                message.deleted = True

    def forget(self, keep: int) -> None:
        """Drop the call log, the stored uploads and all but each chat's last `keep` messages: a long
        run's memory is then the bot's, not the fake's. The bot never sends a file_id back."""
        self.calls.clear()
        self._files.clear()
        for messages in self.messages.values():
            for message_id in sorted(messages)[:-keep]:
                del messages[message_id]

    def alerts(self) -> list[ApiCall]:
        """Every answerCallbackQuery call, in order."""
        return self.calls_of("answerCallbackQuery")

    def calls_of(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method == method]

    # -- method implementations -----------------------------------------------------------------------

    def _target(self, params: JSON) -> int:
        chat_id = self._chat_id_of(params)
        if chat_id is None:
            raise ApiError("Bad Request: chat not found")
        if chat_id in self.removed_from:
            raise ApiError("Forbidden: bot was kicked from the group chat", 403)
        if chat_id in self.blocked_by:
            raise ApiError("Forbidden: bot was blocked by the user", 403)
        if chat_id in self.migrated:
            raise ApiError(
                "Bad Request: group chat was upgraded to a supergroup chat",
                parameters={"migrate_to_chat_id": self.migrated[chat_id]},
            )
        return chat_id

    def _get(self, chat_id: int, message_id: int, *, verb: str = "edit") -> FakeMessage:
        msg = self.messages.get(chat_id, {}).get(message_id)
        if msg is None or msg.deleted:
            raise ApiError(f"Bad Request: message to {verb} not found")
        return msg

    def _edited(self, params: JSON) -> FakeMessage:
        if "inline_message_id" in params:
            raise ApiError("Bad Request: inline messages are not supported by FakeBotAPI")
        msg = self._get(self._target(params), int(params.get("message_id", 0)))
        if msg.from_id != BOT_ID:
            raise ApiError("Bad Request: message can't be edited")
        return msg

    def _store_file(self, data: bytes) -> str:
        file_id = f"AgACAgIAAxkDAAI{next(self._file_ids):06d}"
        self._files[file_id] = data
        return file_id

    def _resolve_media(self, ref: Any, files: dict[str, bytes], name: str) -> tuple[bytes, str]:
        """Bytes and file_id of an attach:// reference, a known file_id or a direct upload."""
        if isinstance(ref, str) and ref.startswith("attach://"):
            data = files.get(ref.removeprefix("attach://"))
            if data is None:
                raise ApiError(f"Bad Request: wrong file identifier/HTTP URL specified ({ref})")
            return data, self._store_file(data)
        if isinstance(ref, str):
            if ref not in self._files:
                raise ApiError("Bad Request: wrong file identifier/HTTP URL specified")
            return self._files[ref], ref
        if name in files:
            return files[name], self._store_file(files[name])
        raise ApiError(f"Bad Request: there is no {name} in the request")

    def _photo_sizes(self, data: bytes, file_id: str) -> list[JSON]:
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
        except Exception as exc:
            raise ApiError("Bad Request: IMAGE_PROCESS_FAILED") from exc
        dims: list[tuple[int, int]] = []
        for side in PHOTO_SIDES:
            scale = min(1.0, side / max(width, height))
            size = (max(1, round(width * scale)), max(1, round(height * scale)))
            if size not in dims:
                dims.append(size)
        # The largest size carries the message's file_id; thumbnails are served with the original bytes.
        sizes: list[JSON] = []
        for n, (w, h) in enumerate(dims):
            size_id = file_id if n == len(dims) - 1 else f"{file_id}_{n}"
            self._files.setdefault(size_id, data)
            sizes.append({"file_id": size_id, "file_unique_id": f"AQAD{size_id}", "width": w, "height": h})
        sizes[-1]["file_size"] = len(data)
        return sizes

    def _media_fields(self, kind: str, data: bytes, file_id: str) -> JSON:
        if kind == "photo":
            return {"photo": self._photo_sizes(data, file_id)}
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
        except Exception:
            width = height = 0
        return {
            kind: {
                "file_id": file_id,
                "file_unique_id": f"AQAD{file_id}",
                "width": width,
                "height": height,
                "duration": 0,
                "file_size": len(data),
            }
        }

    def _photos_kept(self, chat_id: int) -> bool:
        """Whether the group keeps photos from the bot, a plain member there (a muted one sends nothing)."""
        return chat_id in self.no_photos or chat_id in self.muted

    def _new_chat_target(self, params: JSON) -> int:
        chat_id = self._target(params)
        if chat_id > 0 and chat_id not in self.private_opened:
            raise ApiError("Forbidden: bot can't initiate conversation with a user", 403)
        thread = params.get("message_thread_id")
        if thread is not None and (chat_id, int(thread)) in self.deleted_topics:
            raise ApiError("Bad Request: message thread not found")
        if thread is not None and (chat_id, int(thread)) in self.closed_topics:
            raise ApiError("Bad Request: TOPIC_CLOSED")
        return chat_id

    def _send_text(self, params: JSON, files: dict[str, bytes]) -> JSON:
        chat_id = self._new_chat_target(params)
        if chat_id in self.muted:
            raise ApiError("Bad Request: not enough rights to send text messages to the chat")
        markup = _json_markup(params.get("reply_markup"))
        msg = self.add_message(
            chat_id,
            BOT_ID,
            text=_text(params),
            markup=markup,
            keyboard=_keyboard(markup),
            thread_id=params.get("message_thread_id"),
            reply_to=self._replied(chat_id, params.get("reply_parameters")),
        )
        return self.message_json(msg)

    def _replied(self, chat_id: int, reply: JSON | None) -> int | None:
        """The message a new one replies to: it must be there, unless the sender allows none."""
        if not reply:
            return None
        target = self.messages.get(chat_id, {}).get(int(reply["message_id"]))
        if target is not None and not target.deleted:
            return target.message_id
        if reply.get("allow_sending_without_reply"):
            return None
        raise ApiError("Bad Request: message to be replied not found")

    def _send_media(self, params: JSON, files: dict[str, bytes], kind: str) -> JSON:
        chat_id = self._new_chat_target(params)
        if self._photos_kept(chat_id):
            raise ApiError(f"Bad Request: not enough rights to send {kind}s to the chat")
        caption = _caption(params)
        data, file_id = self._resolve_media(params.get(kind), files, kind)
        markup = _json_markup(params.get("reply_markup"))
        msg = self.add_message(
            chat_id,
            BOT_ID,
            caption=caption,
            photo=data,
            file_id=file_id,
            media_kind=kind,
            media=self._media_fields(kind, data, file_id),
            markup=markup,
            keyboard=_keyboard(markup),
            thread_id=params.get("message_thread_id"),
        )
        return self.message_json(msg)

    def _send_media_group(self, params: JSON, files: dict[str, bytes]) -> list[JSON]:
        chat_id = self._new_chat_target(params)
        items = params.get("media", [])
        if not 2 <= len(items) <= 10:
            raise ApiError("Bad Request: media group must contain 2-10 items")
        group_id = str(next(self._file_ids))
        sent = []
        for item in items:
            kind = item["type"]
            data, file_id = self._resolve_media(item.get("media"), files, kind)
            fields = self._media_fields(kind, data, file_id) | {"media_group_id": group_id}
            msg = self.add_message(
                chat_id,
                BOT_ID,
                caption=_caption(item),
                photo=data,
                file_id=file_id,
                media_kind=kind,
                media=fields,
                thread_id=params.get("message_thread_id"),
            )
            sent.append(self.message_json(msg))
        return sent

    def _apply_edit(self, msg: FakeMessage, params: JSON, **content: Any) -> JSON:
        """Apply new content and markup at once, or fail like Telegram when nothing would change."""
        markup = _json_markup(params.get("reply_markup"))
        # Telegram drops the inline keyboard of an edit that does not repeat it.
        keyboard = _keyboard(markup)
        if keyboard == msg.keyboard and all(getattr(msg, k) == v for k, v in content.items()):
            raise ApiError(
                "Bad Request: message is not modified: specified new message content and reply markup "
                "are exactly the same as a current content and reply markup of the message"
            )
        for key, value in content.items():
            setattr(msg, key, value)
        msg.markup, msg.keyboard, msg.edit_date = markup, keyboard, int(time.time())
        return self.message_json(msg)

    def _edit_text(self, params: JSON, files: dict[str, bytes]) -> JSON:
        msg = self._edited(params)
        if msg.text is None:
            raise ApiError("Bad Request: there is no text in the message to edit")
        return self._apply_edit(msg, params, text=_text(params))

    def _edit_caption(self, params: JSON, files: dict[str, bytes]) -> JSON:
        msg = self._edited(params)
        if msg.media_kind is None:
            raise ApiError("Bad Request: there is no caption in the message to edit")
        return self._apply_edit(msg, params, caption=_caption(params))

    def _edit_media(self, params: JSON, files: dict[str, bytes]) -> JSON:
        msg = self._edited(params)
        if self._photos_kept(msg.chat_id):
            raise ApiError("Bad Request: not enough rights to send photos to the chat")
        if msg.media_kind is None:
            raise ApiError("Bad Request: there is no media in the message to edit")
        media = params.get("media")
        if isinstance(media, str):
            media = json.loads(media)
        if not isinstance(media, dict) or "type" not in media:
            raise ApiError("Bad Request: can't parse InputMedia: media not found")
        kind = media["type"]
        # The media's caption replaces the old one: an InputMedia without a caption removes it.
        caption = _caption(media)
        # A fresh upload gets a new file_id, so it always counts as a change; a file_id is compared.
        data, file_id = self._resolve_media(media.get("media"), files, kind)
        return self._apply_edit(
            msg,
            params,
            photo=data,
            file_id=file_id,
            media_kind=kind,
            media=self._media_fields(kind, data, file_id),
            caption=caption,
        )

    def _edit_markup(self, params: JSON, files: dict[str, bytes]) -> JSON:
        return self._apply_edit(self._edited(params), params)

    def _delete(self, params: JSON, files: dict[str, bytes]) -> bool:
        self._get(self._target(params), int(params.get("message_id", 0)), verb="delete").deleted = True
        return True

    def _delete_many(self, params: JSON, files: dict[str, bytes]) -> bool:
        chat_id = self._target(params)
        for message_id in params.get("message_ids", []):
            msg = self.messages.get(chat_id, {}).get(message_id)
            if msg is not None:
                msg.deleted = True
        return True

    def _answer_callback(self, params: JSON, files: dict[str, bytes]) -> bool:
        if _utf16_len(str(params.get("text", ""))) > MAX_ANSWER:
            raise ApiError("Bad Request: MESSAGE_TOO_LONG")
        if self.pending_queries.pop(str(params.get("callback_query_id")), None) is None:
            raise ApiError(
                "Bad Request: query is too old and response timeout expired or query ID is invalid"
            )
        return True

    def _member_json(self, chat_id: int, user_id: int) -> JSON:
        user = self.user(user_id)
        admins = self.admins.get(chat_id, [])
        if user_id == BOT_ID and self._photos_kept(chat_id):
            return {"status": "member", "user": user}
        if (user_id == BOT_ID and chat_id < 0) or user_id in admins[1:]:
            return {"status": "administrator", "user": user} | ADMIN_RIGHTS
        if admins and user_id == admins[0]:
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    def _get_chat_member(self, params: JSON, files: dict[str, bytes]) -> JSON:
        return self._member_json(self._target(params), int(params["user_id"]))

    def _get_chat_admins(self, params: JSON, files: dict[str, bytes]) -> list[JSON]:
        chat_id = self._target(params)
        if chat_id > 0:
            raise ApiError("Bad Request: there are no administrators in the private chat")
        return [self._member_json(chat_id, uid) for uid in self.admins.get(chat_id, [])]

    def _get_chat(self, params: JSON, files: dict[str, bytes]) -> JSON:
        chat_id = self._target(params)
        found = self.chat(chat_id) | {
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(GIFT_TYPES, False),
        }
        if chat_id < 0:
            found["permissions"] = {
                "can_send_messages": chat_id not in self.muted,
                "can_send_photos": not self._photos_kept(chat_id),
            }
        return found

    def _command_key(self, params: JSON) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), params.get("language_code", "")

    def _set_commands(self, params: JSON, files: dict[str, bytes]) -> bool:
        self.commands[self._command_key(params)] = list(params.get("commands", []))
        return True

    def _set_description(self, params: JSON, kind: str, most: int) -> bool:
        text = str(params.get(kind) or "")
        if _utf16_len(text) > most:
            raise ApiError(f"Bad Request: bot {kind.replace('_', ' ')} is too long")
        self.descriptions[kind, params.get("language_code") or ""] = text
        return True

    def _get_description(self, params: JSON, kind: str) -> JSON:
        return {kind: self.descriptions.get((kind, params.get("language_code") or ""), "")}

    def _delete_commands(self, params: JSON, files: dict[str, bytes]) -> bool:
        self.commands.pop(self._command_key(params), None)
        return True

    def _get_commands(self, params: JSON, files: dict[str, bytes]) -> list[JSON]:
        return self.commands.get(self._command_key(params), [])

    async def _get_updates(self, params: JSON, files: dict[str, bytes]) -> list[JSON]:
        offset = int(params.get("offset", 0))
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates:
            self._update_pushed.clear()
            wait = min(float(params.get("timeout", 0)), self.poll_wait)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._update_pushed.wait(), wait)
        return self._updates[: int(params.get("limit", 100))]

    def _set_webhook(self, params: JSON, files: dict[str, bytes]) -> bool:
        self.webhook_url = str(params.get("url", ""))
        return True

    def _delete_webhook(self, params: JSON, files: dict[str, bytes]) -> bool:
        self.webhook_url = ""
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    def _webhook_info(self, params: JSON, files: dict[str, bytes]) -> JSON:
        return {"url": self.webhook_url, "has_custom_certificate": False, "pending_update_count": 0}


def _ok(api: FakeBotAPI, params: JSON, files: dict[str, bytes]) -> bool:
    return True


_METHODS: dict[str, Handler] = {
    "getMe": lambda api, params, files: BOT_USER,
    "logOut": _ok,
    "close": _ok,
    "setMyCommands": FakeBotAPI._set_commands,
    "deleteMyCommands": FakeBotAPI._delete_commands,
    "getMyCommands": FakeBotAPI._get_commands,
    "setMyDescription": lambda api, params, files: api._set_description(
        params, "description", MAX_DESCRIPTION
    ),
    "getMyDescription": lambda api, params, files: api._get_description(params, "description"),
    "setMyShortDescription": lambda api, params, files: api._set_description(
        params, "short_description", MAX_SHORT_DESCRIPTION
    ),
    "getMyShortDescription": lambda api, params, files: api._get_description(params, "short_description"),
    "sendMessage": FakeBotAPI._send_text,
    "sendPhoto": lambda api, params, files: api._send_media(params, files, "photo"),
    "sendAnimation": lambda api, params, files: api._send_media(params, files, "animation"),
    "sendMediaGroup": FakeBotAPI._send_media_group,
    "sendChatAction": _ok,
    "editMessageText": FakeBotAPI._edit_text,
    "editMessageCaption": FakeBotAPI._edit_caption,
    "editMessageMedia": FakeBotAPI._edit_media,
    "editMessageReplyMarkup": FakeBotAPI._edit_markup,
    "deleteMessage": FakeBotAPI._delete,
    "deleteMessages": FakeBotAPI._delete_many,
    "pinChatMessage": _ok,
    "unpinChatMessage": _ok,
    "answerCallbackQuery": FakeBotAPI._answer_callback,
    "getChatMember": FakeBotAPI._get_chat_member,
    "getChatAdministrators": FakeBotAPI._get_chat_admins,
    "getChat": FakeBotAPI._get_chat,
    "getUpdates": FakeBotAPI._get_updates,
    "setWebhook": FakeBotAPI._set_webhook,
    "deleteWebhook": FakeBotAPI._delete_webhook,
    "getWebhookInfo": FakeBotAPI._webhook_info,
}


def _entities(text: str) -> list[JSON]:
    """A leading /command's bot_command entity, as Telegram adds it."""
    if not text.startswith("/"):
        return []
    command = text.split(maxsplit=1)[0]
    return [{"type": "bot_command", "offset": 0, "length": _utf16_len(command)}]


#: The accounts Telegram names as the sender of what is written on behalf of a chat: an anonymous
#: admin's message in its group, a message written as a channel.
ANONYMOUS_ADMIN: JSON = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
CHANNEL_SENDER: JSON = {"id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}


class UpdateFactory:
    """Builds the update dicts Telegram would deliver, keeping `api`'s chat model in step.

    A user's message gets the chat's next message id and is stored like the bot's; a callback carries
    the pressed message as it is now. Private chat ids equal the user id; group ids are negative.
    """

    def __init__(self, api: FakeBotAPI) -> None:
        self.api = api
        # Telegram's ids never repeat: start anywhere, so a second factory (a restarted bot in a
        # test) never reuses an id the bot has seen.
        self._update_ids = itertools.count(secrets.randbits(40))
        self._query_ids = itertools.count(secrets.randbits(40))

    def _user(
        self, user_id: int, first_name: str | None, language_code: str | None, username: str | None
    ) -> JSON:
        known = self.api.users.get(user_id, {})
        user: JSON = {
            "id": user_id,
            "is_bot": False,
            "first_name": first_name or known.get("first_name") or f"User {user_id}",
        }
        if username or known.get("username"):
            user["username"] = username or known["username"]
        if language_code:
            user["language_code"] = language_code
        self.api.users[user_id] = user
        return user

    def _chat(self, chat_id: int, user: JSON, chat_type: str | None, title: str | None) -> JSON:
        kind = chat_type or ("private" if chat_id > 0 else self.api.chat(chat_id)["type"])
        if (kind == "private") != (chat_id > 0) or (kind == "private" and chat_id != user["id"]):
            raise ValueError(f"chat {chat_id} can't be a {kind} chat of user {user['id']}")
        if kind == "private":
            chat = {"id": chat_id, "type": kind, "first_name": user["first_name"]}
            if "username" in user:
                chat["username"] = user["username"]
            self.api.private_opened.add(chat_id)
        else:
            known_title = self.api.chats.get(chat_id, {}).get("title")
            chat = {"id": chat_id, "type": kind, "title": title or known_title or f"Group {-chat_id}"}
        self.api.chats[chat_id] = chat
        return chat

    def message(
        self,
        chat_id: int,
        user_id: int,
        text: str,
        *,
        chat_type: str | None = None,
        first_name: str | None = None,
        language_code: str | None = "ru",
        username: str | None = None,
        thread_id: int | None = None,
        title: str | None = None,
        as_chat: int | None = None,
    ) -> JSON:
        """A text message; a leading /command gets its bot_command entity as Telegram adds it.

        `chat_type` defaults to "private" for a positive id and to what the chat already is (else
        "group") for a negative one. `as_chat` writes it on behalf of a chat, as Telegram delivers
        that: the group's own id for an anonymous admin (user `user_id`), another for a channel.
        """
        user = self._user(user_id, first_name, language_code, username)
        chat = self._chat(chat_id, user, chat_type, title)
        if thread_id is not None:
            chat["is_forum"] = True
        sender, sender_chat = user_id, None
        if as_chat is not None:
            stand_in = ANONYMOUS_ADMIN if as_chat == chat_id else CHANNEL_SENDER
            sender = stand_in["id"]
            self.api.users[sender] = stand_in
            sender_chat = (
                chat if as_chat == chat_id else {"id": as_chat, "type": "channel", "title": "A channel"}
            )
        msg = self.api.add_message(
            chat_id, sender, text=text, entities=_entities(text), thread_id=thread_id, sender_chat=sender_chat
        )
        return {"update_id": next(self._update_ids), "message": self.api.message_json(msg)}

    def edited(self, chat_id: int, message_id: int, text: str) -> JSON:
        """A user's own message edited to `text`, as Telegram delivers the edit."""
        msg = self.api.messages[chat_id][message_id]
        msg.text, msg.entities, msg.edit_date = text, _entities(text), int(time.time())
        return {"update_id": next(self._update_ids), "edited_message": self.api.message_json(msg)}

    def membership(self, chat_id: int, user_id: int, old: str, new: str) -> JSON:
        """The bot's own status in a chat changed from `old` to `new` ("member", "administrator",
        "left", "kicked") by `user_id`: adding it to a group, promoting it, removing it; in a private
        chat, the person blocking it ("kicked") or unblocking it."""
        user = self._user(user_id, None, None, None)
        chat = self._chat(chat_id, user, None, None)
        refusing = self.api.blocked_by if chat_id > 0 else self.api.removed_from
        if new in ("left", "kicked"):
            refusing.add(chat_id)
        else:
            refusing.discard(chat_id)

        def member(status: str) -> JSON:
            found: JSON = {"status": status, "user": BOT_USER}
            if status == "administrator":
                found |= ADMIN_RIGHTS
            if status == "kicked":
                found["until_date"] = 0
            return found

        change = {
            "chat": chat,
            "from": user,
            "date": int(time.time()),
            "old_chat_member": member(old),
            "new_chat_member": member(new),
        }
        return {"update_id": next(self._update_ids), "my_chat_member": change}

    def command(self, chat_id: int, user_id: int, command: str, *args: str, **kwargs: Any) -> JSON:
        """`/command args...` as a message; the slash is optional. Keywords as for `message`."""
        text = " ".join(("/" + command.removeprefix("/"), *args))
        return self.message(chat_id, user_id, text, **kwargs)

    def callback(
        self,
        chat_id: int,
        user_id: int,
        message_id: int,
        data: str,
        *,
        first_name: str | None = None,
        language_code: str | None = "ru",
        username: str | None = None,
        old: bool = False,
    ) -> JSON:
        """A press on an inline button with `data` (any data, so forged presses can be tested too).
        Under an `old` message Telegram sends only its chat and id, dated 0 (an InaccessibleMessage):
        it does so for messages a day or two old."""
        msg = self.api.messages.get(chat_id, {}).get(message_id)
        if msg is None or msg.deleted:
            raise ValueError(f"no message {message_id} in chat {chat_id} to press a button on")
        shown = self.api.message_json(msg)
        query: JSON = {
            "id": str(next(self._query_ids)),
            "from": self._user(user_id, first_name, language_code, username),
            "message": {"chat": shown["chat"], "message_id": message_id, "date": 0} if old else shown,
            "chat_instance": str(abs(chat_id) * 7919),
            "data": data,
        }
        self.api.pending_queries[query["id"]] = query
        return {"update_id": next(self._update_ids), "callback_query": query}

    def press(self, chat_id: int, user_id: int, message_id: int, button: int | str, **kwargs: Any) -> JSON:
        """A press on a message's callback button by 1-based number (reading order) or by its text."""
        buttons = [b for row in self.api.messages[chat_id][message_id].keyboard for b in row]
        found = [
            b
            for n, b in enumerate(buttons, 1)
            if (button == n if isinstance(button, int) else button == b.text)
        ]
        if not found or found[0].callback_data is None:
            raise ValueError(f"message {message_id} in chat {chat_id} has no callback button {button!r}")
        return self.callback(chat_id, user_id, message_id, found[0].callback_data, **kwargs)
