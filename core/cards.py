"""Card decks shared by every game: the 36-card French deck and the 78-card Tarot deck.

A card is a short string code so that states stay small in JSON and in callback data:
French cards are rank + suit (`"6S"`, `"10H"`, `"QD"`, `"AC"`); Tarot minor cards are rank + suit
over Wands, Cups, Swords, Pentacles (`"AW"`, `"10C"`, `"NS"` for the Knight, `"PP"` for the Page);
major arcana are `"T0"` (the Fool) to `"T21"` (the World).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

Card = str


class Suit(StrEnum):
    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"

    @property
    def red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def symbol(self) -> str:
        return {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[self.value]


#: French ranks of the 36-card deck, low to high, with their numeric order (J=11 ... A=14).
FRENCH_RANKS: tuple[str, ...] = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_ORDER: dict[str, int] = {rank: 6 + i for i, rank in enumerate(FRENCH_RANKS)}
RANK_NAMES_RU: dict[str, str] = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}


class FrenchCard(NamedTuple):
    rank: str
    suit: Suit


def parse(card: Card) -> FrenchCard:
    """Split a French card code; raises ValueError for anything else."""
    rank, suit = card[:-1], card[-1:]
    if rank not in RANK_ORDER or suit not in Suit._value2member_map_:
        raise ValueError(f"not a card of the 36-card deck: {card!r}")
    return FrenchCard(rank, Suit(suit))


def deck36() -> tuple[Card, ...]:
    return tuple(rank + suit for suit in Suit for rank in FRENCH_RANKS)


def card_label(card: Card, lang: str = "en") -> str:
    """`"Q♥"` in English, `"Д♥"` in Russian."""
    rank, suit = parse(card)
    shown = RANK_NAMES_RU.get(rank, rank) if lang == "ru" else rank
    return shown + suit.symbol


# ----- Tarot -------------------------------------------------------------------------------------


class TarotSuit(StrEnum):
    WANDS = "W"
    CUPS = "C"
    SWORDS = "S"
    PENTACLES = "P"


#: Tarot minor ranks low to high as printed: Ace, 2-10, Page, Knight, Queen, King.
TAROT_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")

MAJOR_ARCANA: tuple[tuple[str, str], ...] = (
    ("The Fool", "Шут"),
    ("The Magician", "Маг"),
    ("The High Priestess", "Верховная Жрица"),
    ("The Empress", "Императрица"),
    ("The Emperor", "Император"),
    ("The Hierophant", "Иерофант"),
    ("The Lovers", "Влюблённые"),
    ("The Chariot", "Колесница"),
    ("Justice", "Справедливость"),
    ("The Hermit", "Отшельник"),
    ("Wheel of Fortune", "Колесо Фортуны"),
    ("Strength", "Сила"),
    ("The Hanged Man", "Повешенный"),
    ("Death", "Смерть"),
    ("Temperance", "Умеренность"),
    ("The Devil", "Дьявол"),
    ("The Tower", "Башня"),
    ("The Star", "Звезда"),
    ("The Moon", "Луна"),
    ("The Sun", "Солнце"),
    ("Judgment", "Суд"),
    ("The World", "Мир"),
)


def deck78() -> tuple[Card, ...]:
    minors = tuple(rank + suit for suit in TarotSuit for rank in TAROT_RANKS)
    majors = tuple(f"T{number}" for number in range(len(MAJOR_ARCANA)))
    return minors + majors


def is_major(card: Card) -> bool:
    return card.startswith("T") and card[1:].isdigit()


def major_number(card: Card) -> int:
    if not is_major(card):
        raise ValueError(f"not a major arcanum: {card!r}")
    return int(card[1:])


def major_name(card: Card, lang: str = "en") -> str:
    english, russian = MAJOR_ARCANA[major_number(card)]
    return russian if lang == "ru" else english
