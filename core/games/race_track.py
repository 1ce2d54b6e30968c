"""The race track and what its cards do, as data (RULES.md, Game 3, rules 1, 2 and 8-10)."""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from typing import NamedTuple

from core.cards import Card, Suit, parse

#: A3.1: Start, the 36 cards at 1-36, Finish.
START = 0
CARDS = 36
FINISH = CARDS + 1
#: Rule 2: tokens per player and coins in the bank.
TOKENS = 3
BANK = 13
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

#: Rule 9: coins a Diamond pays when it is turned face up, by rank.
PAYOUT: dict[str, int] = {"6": 1, "7": 1, "8": 1, "9": 1, "10": 1, "J": 2, "Q": 2, "K": 2, "A": 2}
#: Rule 10: how far a pip Spade sends a token back; the other Spades (J, Q, K, A) kill.
RETREAT: dict[str, int] = {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
#: Rule 10: the buy-out price of a Spade, by rank.
BUY_OUT: dict[str, int] = {"6": 3, "7": 3, "8": 3, "9": 3, "10": 3, "J": 4, "Q": 4, "K": 4, "A": 4}


class Kind(IntEnum):
    SAFE = 0  # Clubs (rule 8)
    MONEY = 1  # Diamonds (rule 9), paying `amount` coins
    WAIT = 2  # Hearts (rule 11)
    RETREAT = 3  # Spades 6-10 (rule 10), `amount` cards back
    DEATH = 4  # Spades J-A (rule 10)


class Effect(NamedTuple):
    kind: Kind
    amount: int = 0
    #: The buy-out price (Spades only).
    price: int = 0


@cache
def effect(card: Card) -> Effect:
    rank, suit = parse(card)
    if suit is Suit.CLUBS:
        return Effect(Kind.SAFE)
    if suit is Suit.DIAMONDS:
        return Effect(Kind.MONEY, PAYOUT[rank])
    if suit is Suit.HEARTS:
        return Effect(Kind.WAIT)
    if rank in RETREAT:
        return Effect(Kind.RETREAT, RETREAT[rank], BUY_OUT[rank])
    return Effect(Kind.DEATH, 0, BUY_OUT[rank])
