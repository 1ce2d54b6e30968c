"""A scan of what a group chat was shown, for cards it may not know, that works for every game.

A card is secret when the full state holds it but no public view so far has shown it: the game's
history is replayed and every public view along the way counted, so a card that was once face up
(and may be face down again now) is not secret. No label of a secret card may appear in any text,
caption or button the bot sent to the group.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from bot.offline.fake_api import FakeBotAPI
from bot.tables.lifecycle import game_of, state_of
from bot.tables.model import Table
from core.cards import card_label, deck36, deck78, tarot_label

FRENCH = frozenset(deck36())
TAROT = frozenset(deck78())


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def cards_in(model_json: str, deck: frozenset[str]) -> set[str]:
    return {text for text in _strings(json.loads(model_json)) if text in deck}


#: Per table, the last replay: the history replayed, the state it led to and the cards its public
#: views showed. A scan every few presses goes on from there instead of replaying a whole match.
_REPLAYED: dict[str, tuple[tuple[Any, ...], Any, set[str]]] = {}


def secret_cards(table: Table) -> tuple[set[str], frozenset[str]]:
    """The cards the group may not know now, and the deck they come from."""
    game = game_of(table)
    state = state_of(table)
    everything = cards_in(state.model_dump_json(), FRENCH | TAROT)
    deck = FRENCH if everything <= FRENCH else TAROT
    history = tuple(state.history)
    key = f"{table.game} {table.id} {state.players} {state.options} {state.teams}"
    done, replayed, shown = _REPLAYED.get(key, ((), None, set()))
    if replayed is None or history[: len(done)] != done:
        done, replayed, shown = (), game.new(state.players, state.options, state.teams), set()
    shown = set(shown)
    for seat, action in history[len(done) :]:
        replayed = game.apply(replayed, seat, action).state
        shown |= cards_in(game.view(replayed, None).model_dump_json(), deck)
    _REPLAYED[key] = (history, replayed, shown)
    return cards_in(state.model_dump_json(), deck) - shown, deck


def labels(cards: set[str], deck: frozenset[str]) -> set[str]:
    label = card_label if deck is FRENCH else tarot_label
    return {label(card, lang) for card in cards for lang in ("ru", "en")}


def group_texts(api: FakeBotAPI, chat_id: int, since: int = 0) -> list[str]:
    """Everything a chat could read: texts, captions and button labels the bot sent there (from the
    API call numbered `since` on)."""
    texts: list[str] = []
    for call in api.calls[since:]:
        if call.chat_id != chat_id:
            continue
        texts += [str(call.params.get(key, "")) for key in ("text", "caption")]
        media = call.params.get("media")
        if isinstance(media, dict):
            texts.append(str(media.get("caption", "")))
        markup = call.params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        for row in (markup or {}).get("inline_keyboard", []):
            texts += [button["text"] for button in row]
    return texts


def leaked(api: FakeBotAPI, table: Table, since: int = 0) -> set[str]:
    """Labels of secret cards found in the group's messages from API call `since` on (empty: nothing
    leaked). A chat that played earlier games passes where this game began: a card face up in an
    earlier deal says nothing about this one."""
    secret, deck = secret_cards(table)
    texts = group_texts(api, table.chat_id, since)
    words = {word.strip(".,:;()") for text in texts for word in text.split()}
    return labels(secret, deck) & words
