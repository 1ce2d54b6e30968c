"""The journal: the engine's events of every transition, kept in the table (DESIGN.md, "Journal"),
and the table's own few (a seat passing to a computer and back).

A transition records the person's action, then every chance and computer step until a person is
to move, each event with who caused it. Captions and notices are made from it, so every move, a
computer's included, is told; the bot never works out what happened by comparing states.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from bot.tables.model import Entry, Table
from core.engine import Event


class SeatAway(Event):
    """The table's own event (not a game's): a person's seat passed to a computer, because they
    left (`/leave`) or kept missing their turn."""

    seat: int
    left: bool


class SeatBack(Event):
    """A person took their seat back from the computer ("I'm back")."""

    seat: int


class Replaced(Event):
    """A person started another game in this table's private chat, which stopped this one."""


#: Events kept per table: enough for the longest transition (a Durak bout played out by three
#: computers) and a little history, small enough for a quick table write.
MAX_ENTRIES = 60


def kind_of(event_type: type[Event]) -> str:
    return f"{event_type.__module__}:{event_type.__qualname__}"


@cache
def _event_types() -> dict[str, type[Event]]:
    found: dict[str, type[Event]] = {}
    pending: list[type[Event]] = [Event]
    while pending:
        cls = pending.pop()
        found[kind_of(cls)] = cls
        pending.extend(cls.__subclasses__())
    return found


def entry(event: Event, *, screen: int, actor: int | None, proxy: bool = False) -> Entry:
    data = event.model_dump(mode="json", exclude={"audience"})
    return Entry(
        screen=screen, kind=kind_of(type(event)), data=data, audience=event.audience, actor=actor, proxy=proxy
    )


def event_of(item: Entry) -> Event:
    """The engine event an entry holds (the classes are found among `Event`'s subclasses)."""
    cls = _event_types().get(item.kind)
    if cls is None:
        # Imported lazily by the registry; a class is always loaded once its game is.
        _event_types.cache_clear()
        cls = _event_types()[item.kind]
    return cls.model_validate({**item.data, "audience": item.audience})


def append(table: Table, entries: Iterable[Entry]) -> Table:
    journal = (*table.journal, *entries)[-MAX_ENTRIES:]
    return table.model_copy(update={"journal": journal})


def visible(table: Table, seat: int | None, *, since: int) -> Iterator[tuple[Entry, Event]]:
    """Events `seat` may see (None: the public ones) that led to screens after `since`, in order.

    A seat's own copy of a public event (Durak's draw, which also names the cards drawn) replaces
    the public one in its private view, so nothing is told twice."""
    items = [item for item in table.journal if item.screen > since]
    for index, item in enumerate(items):
        if item.audience is not None and item.audience != seat:
            continue
        if item.audience is None and seat is not None and _has_private_twin(items, index, seat):
            continue
        yield item, event_of(item)


def told_from(table: Table, since: int) -> int:
    """The screen a caption tells from: `since` (what the message showed last) or earlier, so that
    it tells whole turns: at least the last one, and the one its first line belongs to. A turn is a
    seat's moves in a row (a person's, a computer's, or a computer's for a person), with the chance
    steps between them; a turn of several presses (a race's two dice, a Tarot grid's two tokens)
    is then read whole, though the message showed each press. Alone at a table, every press is a
    turn of its own."""
    entries = table.journal
    if len(table.players) < 2 or not entries:
        return since
    first = next((n for n, item in enumerate(entries) if item.screen > since), len(entries))
    # The last turn, back from the last seat to act; then the whole turn of the first line.
    first = _turn_begins(entries, min(first, _turn_begins(entries, len(entries) - 1)))
    return min(since, entries[first].screen - 1)


def _turn_begins(entries: tuple[Entry, ...], index: int) -> int:
    """Where the turn of the entry at `index` begins: back over its seat's entries and chance steps
    (entries without a seat) to the first of another seat. A chance step belongs to the turn it
    opens (a roll to the roller's moves), or at the end to the turn before it."""
    seats = (item.actor for item in (*entries[index:], *entries[index::-1]) if item.actor is not None)
    seat = next(seats, None)
    while index > 0 and entries[index - 1].actor in (None, seat):
        index -= 1
    return index


def _has_private_twin(items: list[Entry], index: int, seat: int) -> bool:
    """Whether the copies that follow the public entry at `index` (one per seat allowed to see
    more, as a Tarot card given back is told to both players) include one for `seat`."""
    public = items[index]
    for following in items[index + 1 :]:
        if following.kind != public.kind or following.actor != public.actor or following.audience is None:
            return False
        if following.audience == seat:
            return True
    return False
