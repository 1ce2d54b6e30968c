"""Game 2's card table as data (RULES.md, Game 2, rule 15, the Major Arcana table and rule 19).

Every card has a movement rule (how a token standing on it moves next) and the Major Arcana have
arrival effects (what happens when a token's own move turns them up). The effects are named here
and carried out by `core.games.grid_tarot_rules`, one small function each.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import NamedTuple

from core.cards import MAJOR_ARCANA, Card, is_major, major_number, tarot_parts


class Kind(StrEnum):
    """How a token moves (rules 9-12): each kind has its own destinations."""

    #: Exactly N orthogonal steps through passable positions (rule 11).
    STEPS = "steps"
    #: Any closed card: a first placement (rule 9) and the Fool.
    ANY = "any"
    #: Any closed card in the same row or column (the Emperor).
    LINE = "line"
    #: Any closed card surrounded by closed, empty, hole or off-field positions (the Hermit, A2.5).
    HERMIT = "hermit"
    #: A free card of the same suit (hopeless option 1).
    JUMP = "jump"
    #: A step move of D, the distance to the Centre (the Empress, rule 17).
    EMPRESS = "empress"
    #: The move that brought the token onto the Chariot, again (A2.8).
    CHARIOT = "chariot"


class Rule(NamedTuple):
    """A movement rule: a kind and, for step moves, the step counts the player chooses among
    (none: the token cannot move on its own, as on the Tower)."""

    kind: Kind
    counts: tuple[int, ...] = ()


def steps(*counts: int) -> Rule:
    return Rule(Kind.STEPS, counts)


class Effect(StrEnum):
    """Arrival effects of the Major Arcana, applied in the order a card lists them."""

    #: The card goes into the team pool; its position becomes empty.
    TAKE = "take"
    #: The token goes back to the position it moved from (off the field after a placement, A2.7).
    RETURN = "return"
    #: Every placed token's next move is a D-move (rule 17).
    EMPRESS = "empress"
    #: The token repeats the move that brought it here, in the same turn (rule 22).
    REPEAT = "repeat"
    #: Free cards on the path close, closed ones open (the Wheel).
    FLIP_PATH = "flip_path"
    #: The player swaps a free and a closed card (the Hanged Man).
    SWAP = "swap"
    #: Free cards in the card's row and column close (Death).
    CLOSE_LINES = "close_lines"
    #: Free cards within AREA_RADIUS close (the Devil).
    CLOSE_AREA = "close_area"
    CLOSE_PATH = "close_path"
    OPEN_PATH = "open_path"
    #: Closed cards within AREA_RADIUS of the returned-to position open (Judgment).
    OPEN_AROUND = "open_around"
    #: The token and the card move to the Centre, which becomes passable (the World).
    TO_CENTRE = "to_centre"


class Arcanum(NamedTuple):
    name: str
    rule: Rule
    arrival: tuple[Effect, ...] = ()


#: Cards that are taken and return the token never hold a token: they have no movement.
NO_MOVE = steps()
TAKEN = (Effect.TAKE, Effect.RETURN)

#: The Major Arcana table in the seed's (Marseille) order, Justice VIII and Strength XI (A2.14).
ARCANA: tuple[Arcanum, ...] = (
    Arcanum(MAJOR_ARCANA[0], Rule(Kind.ANY)),
    Arcanum(MAJOR_ARCANA[1], steps(1, 2, 3, 4)),
    Arcanum(MAJOR_ARCANA[2], NO_MOVE, TAKEN),
    Arcanum(MAJOR_ARCANA[3], Rule(Kind.EMPRESS), (Effect.EMPRESS,)),
    Arcanum(MAJOR_ARCANA[4], Rule(Kind.LINE)),
    Arcanum(MAJOR_ARCANA[5], NO_MOVE, TAKEN),
    Arcanum(MAJOR_ARCANA[6], steps(6, 9)),
    Arcanum(MAJOR_ARCANA[7], Rule(Kind.CHARIOT), (Effect.REPEAT,)),
    Arcanum(MAJOR_ARCANA[8], NO_MOVE, TAKEN),
    Arcanum(MAJOR_ARCANA[9], Rule(Kind.HERMIT)),
    Arcanum(MAJOR_ARCANA[10], steps(7), (Effect.FLIP_PATH,)),
    Arcanum(MAJOR_ARCANA[11], NO_MOVE, TAKEN),
    Arcanum(MAJOR_ARCANA[12], NO_MOVE, (Effect.RETURN, Effect.SWAP)),
    Arcanum(MAJOR_ARCANA[13], steps(5), (Effect.CLOSE_LINES,)),
    Arcanum(MAJOR_ARCANA[14], NO_MOVE, (Effect.RETURN,)),
    Arcanum(MAJOR_ARCANA[15], steps(4), (Effect.CLOSE_AREA,)),
    # The Tower: 0 steps, so the token cannot leave on its own (rule 19 or the Empress only).
    Arcanum(MAJOR_ARCANA[16], NO_MOVE),
    Arcanum(MAJOR_ARCANA[17], NO_MOVE, TAKEN),
    Arcanum(MAJOR_ARCANA[18], steps(6), (Effect.CLOSE_PATH,)),
    Arcanum(MAJOR_ARCANA[19], steps(7), (Effect.OPEN_PATH,)),
    Arcanum(MAJOR_ARCANA[20], NO_MOVE, (Effect.RETURN, Effect.OPEN_AROUND)),
    Arcanum(MAJOR_ARCANA[21], steps(8), (Effect.TO_CENTRE,)),
)

#: The Devil's and Judgment's "three steps" (A2.6): Manhattan distance 1-3.
AREA_RADIUS = 3

#: Rule 15: the steps a minor gives.
MINOR_STEPS: dict[str, int] = {
    **{rank: int(rank) for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10")},
    "A": 1,
    "P": 1,
    "N": 2,
    "Q": 3,
    "K": 4,
}

PRIESTESS, HIEROPHANT, JUSTICE, STRENGTH = "T2", "T5", "T8", "T11"
STAR, TOWER, WORLD = "T17", "T16", "T21"


class Option(StrEnum):
    """Rule 19's ways out of a hopeless position, as action codes (Justice's carries the value)."""

    SUIT = "suit"
    STAR = "star"
    PRIESTESS_HIEROPHANT = "ph"
    JUSTICE = "jus"
    STRENGTH = "str"


#: Options 2 and 3: the pool cards they lay on the token's card, and the steps they give.
POOL_OPTIONS: dict[Option, tuple[tuple[Card, ...], tuple[int, ...]]] = {
    Option.STAR: ((STAR,), (5,)),
    Option.PRIESTESS_HIEROPHANT: ((PRIESTESS, HIEROPHANT), (1, 5, 9)),
}


@cache
def card_rule(card: Card) -> Rule:
    """The movement rule printed on a card (rule 15 and the table)."""
    if is_major(card):
        return ARCANA[major_number(card)].rule
    return steps(MINOR_STEPS[tarot_parts(card)[0]])


@cache
def arrival(card: Card) -> tuple[Effect, ...]:
    return ARCANA[major_number(card)].arrival if is_major(card) else ()


@cache
def suit(card: Card) -> str | None:
    """A minor's suit, None for a Major Arcanum."""
    return None if is_major(card) else tarot_parts(card)[1]


def minor_steps(card: Card) -> int:
    return MINOR_STEPS[tarot_parts(card)[0]]
