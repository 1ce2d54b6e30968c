"""Card decks shared by every game: the 36-card French deck and the 78-card Tarot deck.

A card is a short string code so that states stay small in JSON and in callback data:
French cards are rank + suit (`"6S"`, `"10H"`, `"QD"`, `"AC"`); Tarot minor cards are rank + suit
over Wands, Cups, Swords, Pentacles (`"AW"`, `"10C"`, `"NS"` for the Knight, `"PP"` for the Page);
major arcana are `"T0"` (the Fool) to `"T21"` (the World).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from i18n import N_, NP_, t, tp

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


#: Ranks printed differently in Russian decks (В, Д, К, Т); the others print as they are.
_PRINTED_RANKS = {
    "J": NP_("rank", "J"),
    "Q": NP_("rank", "Q"),
    "K": NP_("rank", "K"),
    "A": NP_("rank", "A"),
}
#: Short Tarot minor ranks that differ from the code: Page, Knight, Queen, King, Ace.
_TAROT_SHORT = {
    "P": NP_("tarot rank", "P"),
    "N": NP_("tarot rank", "Kn"),
    "Q": NP_("tarot rank", "Q"),
    "K": NP_("tarot rank", "K"),
    "A": NP_("tarot rank", "A"),
}


def rank_label(rank: str, lang: str) -> str:
    """A rank as printed in the corner of a card: Russian decks print В, Д, К, Т for J, Q, K, A."""
    return tp(lang, "rank", _PRINTED_RANKS[rank]) if rank in _PRINTED_RANKS else rank


def card_label(card: Card, lang: str = "en") -> str:
    """`"Q♥"` in English, `"Д♥"` in Russian."""
    rank, suit = parse(card)
    return rank_label(rank, lang) + suit.symbol


# ----- Tarot -------------------------------------------------------------------------------------


class TarotSuit(StrEnum):
    WANDS = "W"
    CUPS = "C"
    SWORDS = "S"
    PENTACLES = "P"


#: Tarot minor ranks low to high as printed: Ace, 2-10, Page, Knight, Queen, King.
TAROT_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")

#: The major arcana 0-21 in the seed's (Marseille) order: Justice VIII, Strength XI (A2.14).
MAJOR_ARCANA: tuple[str, ...] = (
    N_("The Fool"),
    N_("The Magician"),
    N_("The High Priestess"),
    N_("The Empress"),
    N_("The Emperor"),
    N_("The Hierophant"),
    N_("The Lovers"),
    N_("The Chariot"),
    N_("Justice"),
    N_("The Hermit"),
    N_("Wheel of Fortune"),
    N_("Strength"),
    N_("The Hanged Man"),
    N_("Death"),
    N_("Temperance"),
    N_("The Devil"),
    N_("The Tower"),
    N_("The Star"),
    N_("The Moon"),
    N_("The Sun"),
    N_("Judgment"),
    N_("The World"),
)

#: Tarot suits shown with the French suit they correspond to (Wands-Clubs, Cups-Hearts,
#: Swords-Spades, Pentacles-Diamonds), so a card label stays one short token on a button.
TAROT_SUIT_SYMBOLS: dict[str, str] = {"W": "♣", "C": "♥", "S": "♠", "P": "♦"}
#: The suits as they follow "Queen of" (Russian: genitive, "Королева Кубков").
_OF_SUIT: dict[str, str] = {
    "W": NP_("of the suit", "Wands"),
    "C": NP_("of the suit", "Cups"),
    "S": NP_("of the suit", "Swords"),
    "P": NP_("of the suit", "Pentacles"),
}
#: Names of the minor ranks in "Queen of Cups".
TAROT_RANK_NAMES: dict[str, str] = {
    "A": N_("Ace"),
    "2": N_("Two"),
    "3": N_("Three"),
    "4": N_("Four"),
    "5": N_("Five"),
    "6": N_("Six"),
    "7": N_("Seven"),
    "8": N_("Eight"),
    "9": N_("Nine"),
    "10": N_("Ten"),
    "P": N_("Page"),
    "N": N_("Knight"),
    "Q": N_("Queen"),
    "K": N_("King"),
}
ROMAN: tuple[str, ...] = (
    "0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
    "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
)  # fmt: skip


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
    return t(lang, MAJOR_ARCANA[major_number(card)])


def tarot_parts(card: Card) -> tuple[str, str]:
    """(rank, suit) of a minor Tarot card; raises ValueError for anything else."""
    rank, suit = card[:-1], card[-1:]
    if rank not in TAROT_RANKS or suit not in TAROT_SUIT_SYMBOLS or is_major(card):
        raise ValueError(f"not a minor Tarot card: {card!r}")
    return rank, suit


def tarot_label(card: Card, lang: str = "en") -> str:
    """A short label for a button or a caption: `"Q♥"` (Queen of Cups), `"XXI"` (the World)."""
    if is_major(card):
        return ROMAN[major_number(card)]
    rank, suit = tarot_parts(card)
    return tp(lang, "tarot rank", _TAROT_SHORT.get(rank, rank)) + TAROT_SUIT_SYMBOLS[suit]


def tarot_name(card: Card, lang: str = "en") -> str:
    """The full name: "Queen of Cups", "The World"."""
    if is_major(card):
        return major_name(card, lang)
    rank, suit = tarot_parts(card)
    return t(
        lang,
        "{rank} of {suit}",
        rank=t(lang, TAROT_RANK_NAMES[rank]),
        suit=tp(lang, "of the suit", _OF_SUIT[suit]),
    )
