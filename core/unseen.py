"""Dealing unseen cards into hidden places under constraints (a computer player's sampled worlds).

Every card has the set of places it may go (a bit mask: a hand known to lack its suit is not among
them), every place a number of cards. A most-constrained-first random deal almost always succeeds;
when it runs into a dead end a few times over, an exact deal checks Hall's condition (no set of
places is asked for more cards than it holds) before every card it places.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.cards import Card

#: Quick random attempts before the exact deal (one that fails once mostly fails again).
ATTEMPTS = 2


class NoDeal(ValueError):
    """The constraints admit no deal at all."""


def deal(
    cards: Sequence[Card], masks: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[Card]]:
    """Deal `cards` (card i may go to the places in the bit mask `masks[i]`) into places holding
    `sizes[j]` cards each; raises NoDeal when that is impossible."""
    if sum(sizes) != len(cards):
        raise NoDeal(f"{len(cards)} cards for {sum(sizes)} places")
    order = list(range(len(cards)))
    for _ in range(ATTEMPTS):
        rng.shuffle(order)
        order.sort(key=lambda i: masks[i].bit_count())
        placed = _greedy(order, masks, sizes, rng)
        if placed is not None:
            return [[cards[i] for i in place] for place in placed]
    placed = _exact(order, masks, sizes, rng)
    return [[cards[i] for i in place] for place in placed]


def dealable(masks: Sequence[int], sizes: Sequence[int]) -> bool:
    """Whether cards that may go to the places in `masks` can be dealt into places holding
    `sizes` cards each (Hall's condition)."""
    need, room = _hall(masks, sizes)
    return sum(sizes) == len(masks) and all(n <= r for n, r in zip(need, room, strict=True))


def _hall(masks: Sequence[int], sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per set of places T (a bit mask), the cards that may go only into T and T's room."""
    places = len(sizes)
    subsets = range(1 << places)
    need = [sum(1 for mask in masks if mask & ~subset == 0) for subset in subsets]
    room = [sum(sizes[j] for j in range(places) if subset >> j & 1) for subset in subsets]
    return need, room


def _pick(options: Sequence[int], free: list[int], rng: random.Random) -> int:
    """One of the places `options` with room, with chances proportional to its room; -1 if none."""
    total = 0
    for j in options:
        total += free[j]
    if total == 0:
        return -1
    ticket = int(rng.random() * total)
    for j in options:
        ticket -= free[j]
        if ticket < 0:
            return j
    return options[-1]


def _places(mask: int, count: int) -> list[int]:
    return [j for j in range(count) if mask >> j & 1]


def _greedy(
    order: Sequence[int], masks: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]] | None:
    free = list(sizes)
    placed: list[list[int]] = [[] for _ in sizes]
    options = {mask: _places(mask, len(sizes)) for mask in set(masks)}
    for i in order:
        j = _pick(options[masks[i]], free, rng)
        if j < 0:
            return None
        free[j] -= 1
        placed[j].append(i)
    return placed


def _exact(
    order: Sequence[int], masks: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[list[int]]:
    """Place the cards one by one, each where Hall's condition still holds afterwards: for every
    set of places T, the cards that may go only into T (`need[T]`) fit into T's room (`room[T]`)."""
    places = len(sizes)
    subsets = range(1 << places)
    need, room = _hall(masks, sizes)
    if any(need[subset] > room[subset] for subset in subsets):
        raise NoDeal("the constraints admit no deal")
    free = list(sizes)
    placed: list[list[int]] = [[] for _ in sizes]
    for i in order:
        mask = masks[i]
        # The card leaves every T that contains its places; whichever place takes it, each T
        # holding that place loses one of room. Only a T that holds the place but not all of the
        # card's places can break.
        for subset in subsets:
            if mask & ~subset == 0:
                need[subset] -= 1
        tried = 0
        while True:
            j = _pick(_places(mask & ~tried, places), free, rng)
            assert j >= 0, "Hall's condition held, so some place must take the card"
            bit = 1 << j
            if all(need[subset] < room[subset] for subset in subsets if subset & bit):
                break
            tried |= bit
        free[j] -= 1
        for subset in subsets:
            if subset & bit:
                room[subset] -= 1
        placed[j].append(i)
    return placed
