"""Our rule A3.11 for the race: a track that can no longer be finished.

A die moves a token at most six cards, and an acceleration too, so six face-up Spades in a row (a
"wall") cannot be jumped: a token behind one passes only by landing on one of its Spades and buying
out. Diamonds pay only when turned face up, so coins run out for good. A token is blocked when a wall
lies ahead of it and its player cannot pay the wall's cheapest buy-out even with every coin the
closed cards its tokens may still land on could pay. When every player still racing is blocked, the
game could never end; the engine ends it then (see `Race._end_blocked`).

Everything here is public: the track is given as the faces everybody sees (None: closed), and a
closed card counts as anything it might be (it may pay two coins, it stops no token). So a track is
called blocked only when it is, and as soon as everyone can see it: the tokens behind a closed wall
keep landing on it until it is face up.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.cards import Card, Suit
from core.games.race_track import FINISH, START, Kind, effect

#: The longest move of one die.
REACH = 6
#: What a closed card might pay at most (rule 9).
MOST_PAID = 2


def _spade(face: Card | None) -> bool:
    return face is not None and face[-1] == Suit.SPADES


def wall_ahead(faces: Sequence[Card | None], here: int) -> int | None:
    """The first position of six face-up Spades in a row after `here`, if any (the card at p is
    faces[p - 1])."""
    run = 0
    for position in range(here + 1, FINISH):
        run = run + 1 if _spade(faces[position - 1]) else 0
        if run == REACH:
            return position - REACH + 1
    return None


def _settle(faces: Sequence[Card | None], position: int, landed: set[int]) -> int:
    """Where a token landing on `position` ends up without buying out (rules 7 and 10), noting each
    position it lands on on the way."""
    while position != START:
        landed.add(position)
        face = faces[position - 1]
        if face is None:
            return position
        kind, amount, _ = effect(face)
        if kind is Kind.DEATH:
            return START
        if kind is not Kind.RETREAT:
            return position
        position = max(position - amount, START)
    return position


def _landings_behind(faces: Sequence[Card | None], here: int) -> set[int]:
    """Every position a token on `here`, behind a wall, may land on while it does not buy out (a
    landing on the wall sends it back behind the wall)."""
    landed: set[int] = set()
    standing, todo = {here}, [here]
    while todo:
        start = todo.pop()
        for die in range(1, REACH + 1):
            end = _settle(faces, start + die, landed)
            if end not in standing:
                standing.add(end)
                todo.append(end)
    return landed


def blocked(faces: Sequence[Card | None], tokens: Sequence[int], coins: int) -> bool:
    """Whether a player with these tokens and coins can never bring every token home."""
    walls = {token: wall_ahead(faces, here) for token, here in enumerate(tokens) if here != FINISH}
    walled = {token: wall for token, wall in walls.items() if wall is not None}
    if not walled:
        return False
    reachable: set[int] = set()
    if len(walled) < len(walls):
        reachable = set(range(1, FINISH))  # a token that may finish could land anywhere
    for token in walled:
        reachable |= _landings_behind(faces, tokens[token])
    # Face-up Diamonds have paid already; a closed card may be one that pays the most.
    could_pay = coins + MOST_PAID * sum(faces[p - 1] is None for p in reachable)
    return any(could_pay < _cheapest(faces, wall) for wall in walled.values())


def _cheapest(faces: Sequence[Card | None], wall: int) -> int:
    return min(effect(face).price for face in faces[wall - 1 : wall - 1 + REACH] if face is not None)
