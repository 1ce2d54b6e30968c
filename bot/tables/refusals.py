"""How Telegram says no, read from its words (one error class covers many reasons): an edit that
changes nothing, a message no longer there to edit, a group or topic where the bot may post nothing
new, a group's table out of reach for good."""

from __future__ import annotations

from typing import Final, Literal

from telegram.error import BadRequest, Forbidden

from bot.tables.model import Table

#: An edit refused because the message is gone (an admin deleted it) or may no longer be edited.
GONE: Final = ("message to edit not found", "message_id_invalid", "message can't be edited")

#: A post refused in a group that keeps the bot from writing (its restriction, or members kept from
#: sending, the bot a member) or in a forum topic an admin closed.
MAY_NOT_POST: Final = (
    "not enough rights to send",
    "have no rights to send",
    "chat_write_forbidden",
    "topic_closed",
)


def unchanged(error: BadRequest) -> bool:
    """Whether an edit was refused for changing nothing: what it would show is shown already."""
    return "not modified" in str(error).lower()


def gone(error: BadRequest) -> bool:
    """Whether an edit failed because the message is no longer there to edit (or to be edited)."""
    told = str(error).lower()
    return any(reason in told for reason in GONE)


def may_not_post(error: BaseException | None) -> bool:
    """Whether a group (or its topic) refused a new message of the bot's, an everyday setting there."""
    return isinstance(error, BadRequest) and any(reason in str(error).lower() for reason in MAY_NOT_POST)


def out_of_reach(table: Table, error: BaseException) -> Literal["chat", "topic"] | None:
    """Where a refusal says the group's table can never be shown again: "chat" when the bot is out of
    the group («bot was kicked from the group chat», «... is not a member of the supergroup chat»,
    «the group chat was deleted»; the notice of its removal never came, as Telegram keeps an update a
    day), "topic" when its forum topic was deleted; None for anything a later try may get through."""
    # Only the group's own refusals: a person's private chat refuses the bot for their own reasons.
    if isinstance(error, Forbidden) and "group chat" in str(error).lower():
        return "chat"
    if isinstance(error, BadRequest) and table.topic and "message thread not found" in str(error).lower():
        return "topic"
    return None
