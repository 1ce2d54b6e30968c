"""The trick-taking kernel shared by the two Tarot trick games (RULES.md, games 4 and 5).

One deal of a hand, on plain mutable data: the hands, the dealer's discard, the trick in progress
with who played each card, the tricks won, the led suit. The engine applies every action through
it, and the computer players' play-outs run thousands of hands on it, so each rule exists once.
What differs between the games is data (`TrickRules`): the rank order within a suit, packets, a
dead hand, the discard and its ban list, the lead and trumping obligations, where the Fool goes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from core.cards import Card, deck78, is_major
from core.engine import Event, Frozen, Seat

FOOL, MAGICIAN, WORLD = "T0", "T1", "T21"
#: The suit of the trumps 1-21 (for following, trumps form a suit of their own).
TRUMP = "T"
#: The Fool's own "suit": it follows nothing and sets no suit.
EXCUSE = "X"
SUITS: tuple[str, ...] = ("W", "C", "S", "P")
KINGS: tuple[Card, ...] = tuple("K" + suit for suit in SUITS)
DECK: tuple[Card, ...] = deck78()
SUIT: dict[Card, str] = {
    card: ((EXCUSE if card == FOOL else TRUMP) if is_major(card) else card[-1]) for card in DECK
}
#: The pip ranks of a suit, Ace first.
PIPS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
COURTS: tuple[str, ...] = ("P", "N", "Q", "K")


def rank_strength(pips_reversed: Iterable[str] = ()) -> dict[Card, int]:
    """Strength within a suit (higher wins): pips from the Ace up, then Page, Knight, Queen, King,
    with the pips of the suits in `pips_reversed` running the other way (A5.1); trumps by number."""
    reversed_suits = set(pips_reversed)
    strength: dict[Card, int] = {}
    for suit in SUITS:
        pips = PIPS[::-1] if suit in reversed_suits else PIPS
        for number, rank in enumerate((*pips, *COURTS)):
            strength[rank + suit] = number
    for card in DECK:
        if is_major(card):
            strength[card] = int(card[1:])
    return strength


@dataclass(frozen=True)
class TrickRules:
    """What differs between the games, as data."""

    strength: Mapping[Card, int]
    #: Cards per packet when dealing.
    packet: int
    #: Hands dealt (None: one per player); hands beyond the players are dead (Game 4 with 2).
    hands_dealt: int | None
    #: Cards per hand (None: as many as the deck gives every hand equally).
    hand_size: int | None
    #: The dealer takes the spare cards into hand before discarding (Game 5), else after.
    spare_first: bool
    #: Cards the dealer may not discard.
    discard_ban: frozenset[Card]
    #: The discards count as the dealer's won cards (Game 5), else they are out of play.
    discards_score: bool
    #: A trump may be led only by a hand holding no suit card (Game 5, A5.2).
    no_trump_lead: bool
    #: A player who cannot follow suit must trump if able (Game 5, rule 7).
    must_trump: bool
    #: The Fool of a player who won no trick goes to the last trick's winner (Game 5, A5.5).
    fool_to_last_winner: bool
    #: Display order of a hand: suit by suit, then the Fool and the trumps, low to high.
    order: dict[Card, int] = field(init=False, compare=False)
    #: Each suit's cards (the trumps 1-21 as one suit), strongest first.
    ranked: dict[str, tuple[Card, ...]] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        group = {suit: number for number, suit in enumerate((*SUITS, EXCUSE, TRUMP))}
        in_order = sorted(DECK, key=lambda card: (group[SUIT[card]], self.strength[card]))
        object.__setattr__(self, "order", {card: number for number, card in enumerate(in_order)})
        strongest = sorted(DECK, key=self.strength.__getitem__, reverse=True)
        ranked = {suit: tuple(card for card in strongest if SUIT[card] == suit) for suit in (*SUITS, TRUMP)}
        object.__setattr__(self, "ranked", ranked)

    def shape(self, players: int) -> tuple[int, int]:
        """(hands dealt, cards per hand)."""
        hands = self.hands_dealt or players
        return hands, self.hand_size or len(DECK) // hands

    def spare_count(self, players: int) -> int:
        """Cards left after the deal: the dealer takes them and discards as many."""
        hands, size = self.shape(players)
        return len(DECK) - hands * size

    def sort(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.order.__getitem__)


class Trick(Frozen):
    """A completed trick: the cards in the order played (the first one led), and who won it."""

    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat


def led_suit(plays: Iterable[tuple[Seat, Card]]) -> str | None:
    """The suit to follow: that of the first card other than the Fool (A4.4, A5.3)."""
    for _, card in plays:
        suit = SUIT[card]
        if suit != EXCUSE:
            return suit
    return None


def trick_winner(plays: Sequence[tuple[Seat, Card]], strength: Mapping[Card, int]) -> Seat:
    """The highest trump if any was played, else the highest card of the suit led; never the Fool."""
    led = led_suit(plays)
    best, winner = -1, -1
    for seat, card in plays:
        suit = SUIT[card]
        if suit == TRUMP:
            key = 100 + strength[card]
        elif suit == led:
            key = strength[card]
        else:
            continue
        if key > best:
            best, winner = key, seat
    return winner


def beats(card: Card, best: Card, led: str, strength: Mapping[Card, int]) -> bool:
    """Whether `card` would take the trick from `best`, the card winning it so far."""
    suit = SUIT[card]
    if suit == EXCUSE:
        return False
    if suit == TRUMP:
        return SUIT[best] != TRUMP or strength[card] > strength[best]
    return suit == led and SUIT[best] == led and strength[card] > strength[best]


@dataclass(slots=True)
class Hand:
    """One deal, from the shuffle to the last trick."""

    rules: TrickRules
    players: int
    dealer: Seat
    #: Each seat's cards in `rules.order`.
    hands: list[list[Card]]
    #: A dead hand (Game 4 with 2 players): never looked at, never played.
    dead: list[Card] = field(default_factory=list)
    #: Spare cards the dealer has not taken yet.
    spare: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    #: Cards the dealer has marked to discard, not confirmed yet (private to the dealer).
    marks: list[Card] = field(default_factory=list)
    leader: Seat = 0
    trick: list[tuple[Seat, Card]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    #: Every card played this hand (kept for the computer players' counting).
    gone: set[Card] = field(default_factory=set)
    #: `voids()` once worked out, kept up to date by `play` so that it never goes stale.
    shown: list[set[str]] | None = None

    @classmethod
    def dealt(cls, rules: TrickRules, players: int, dealer: Seat, seed: int) -> Hand:
        """Rule 5 / rule 1: packets in rotation from the dealer's left; the rest is spare."""
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        count, size = rules.shape(players)
        packets = size // rules.packet
        cards: list[list[Card]] = [[] for _ in range(count)]
        for number in range(packets * count):
            start = number * rules.packet
            cards[number % count].extend(deck[start : start + rules.packet])
        # Hand i goes to the seat i places left of the dealer; a hand beyond the players is dead.
        hands = [rules.sort(cards[(seat - dealer - 1) % players]) for seat in range(players)]
        dead = rules.sort(cards[players]) if count > players else []
        return cls(
            rules=rules,
            players=players,
            dealer=dealer,
            hands=hands,
            dead=dead,
            spare=deck[count * size :],
            leader=(dealer + 1) % players,
        )

    def copy(self) -> Hand:
        return Hand(
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            hands=[hand[:] for hand in self.hands],
            dead=self.dead,
            spare=self.spare[:],
            discards=self.discards[:],
            marks=self.marks[:],
            leader=self.leader,
            trick=self.trick[:],
            tricks=self.tricks[:],
            gone=set(self.gone),
            shown=None if self.shown is None else [set(suits) for suits in self.shown],
        )

    # ----- the dealer's discard --------------------------------------------------------------

    def take_spare(self) -> list[Card]:
        taken, self.spare = self.spare, []
        dealer = self.dealer
        self.hands[dealer] = self.rules.sort((*self.hands[dealer], *taken))
        return taken

    def markable(self, need: int) -> list[Card]:
        """Cards the dealer may mark now: any allowed one while fewer than `need` are marked, and
        every marked one (to unmark it)."""
        if len(self.marks) >= need:
            return self.marks[:]
        ban = self.rules.discard_ban
        return [card for card in self.hands[self.dealer] if card not in ban]

    def toggle(self, card: Card) -> None:
        if card in self.marks:
            self.marks.remove(card)
        else:
            self.marks.append(card)

    def discard_marked(self) -> list[Card]:
        dealer, marked = self.dealer, self.marks
        self.hands[dealer] = [card for card in self.hands[dealer] if card not in marked]
        self.discards = self.rules.sort(marked)
        self.marks = []
        return self.discards

    # ----- play ------------------------------------------------------------------------------

    def turn(self) -> Seat:
        return (self.leader + len(self.trick)) % self.players

    def finished(self) -> bool:
        return not self.trick and not any(self.hands)

    def playable(self, seat: Seat) -> list[Card]:
        """Rules 12-13 (Game 4) and 6-8 (Game 5): the cards `seat` may play to the trick."""
        hand = self.hands[seat]
        rules = self.rules
        led = led_suit(self.trick)
        if led is None:
            if rules.no_trump_lead:
                # A5.2 / A5.3: also the player after a led Fool, who leads in effect.
                allowed = [card for card in hand if SUIT[card] in SUITS or card == FOOL]
                if len(allowed) > (FOOL in hand):
                    return allowed
            return hand[:]
        follow = [card for card in hand if SUIT[card] == led or card == FOOL]
        if len(follow) > (FOOL in hand):
            return follow
        if rules.must_trump:
            trumps = [card for card in hand if SUIT[card] == TRUMP or card == FOOL]
            if len(trumps) > (FOOL in hand):
                return trumps
        return hand[:]

    def winning(self) -> tuple[Seat, Card] | None:
        """The play winning the trick in progress so far (None before a card other than the Fool)."""
        if led_suit(self.trick) is None:
            return None
        seat = trick_winner(self.trick, self.rules.strength)
        return next(play for play in self.trick if play[0] == seat)

    def play(self, seat: Seat, card: Card) -> Trick | None:
        """Play a card; returns the trick once it is complete (its winner leads the next)."""
        if self.shown is not None:
            self._show(self.shown, seat, card, led_suit(self.trick))
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.gone.add(card)
        if len(self.trick) < self.players:
            return None
        # Unvalidated: the hand's own plays, and the search's play-outs complete millions of tricks.
        winner = trick_winner(self.trick, self.rules.strength)
        done = Trick.model_construct(plays=tuple(self.trick), winner=winner)
        self.tricks.append(done)
        self.trick = []
        self.leader = done.winner
        return done

    # ----- what the tricks tell ----------------------------------------------------------------

    def won(self) -> list[int]:
        counts = [0] * self.players
        for done in self.tricks:
            counts[done.winner] += 1
        return counts

    def fool_player(self) -> Seat | None:
        """Who played the Fool to a completed trick (None before that)."""
        for done in self.tricks:
            for seat, card in done.plays:
                if card == FOOL:
                    return seat
        return None

    def fool_home(self) -> Seat | None:
        """Where the played Fool goes: its player's pile (rule 8 of Game 5, rule 17 of Game 4), or,
        once the hand is over, the last trick's winner if its player won no trick (A5.5); None while
        that is still open or before it is played."""
        owner = self.fool_player()
        if owner is None or not self.rules.fool_to_last_winner:
            return owner
        if any(done.winner == owner for done in self.tricks):
            return owner
        return self.tricks[-1].winner if self.finished() else None

    def piles(self, *, with_discards: bool = True) -> list[list[Card]]:
        """Each seat's won cards: its tricks without the Fool, the Fool where it goes, and the
        dealer's discards where they score (A5.4)."""
        piles: list[list[Card]] = [[] for _ in range(self.players)]
        for done in self.tricks:
            piles[done.winner].extend(card for _, card in done.plays if card != FOOL)
        home = self.fool_home()
        if home is not None:
            piles[home].append(FOOL)
        if with_discards and self.rules.discards_score:
            piles[self.dealer].extend(self.discards)
        return piles

    def voids(self) -> list[set[str]]:
        """Suits each seat is known to lack, from its plays: it did not follow the suit led (and,
        where trumping is obliged, did not trump either), or it led a trump where that is allowed
        only without suit cards. Hands only shrink during play, so a void stays a void. The list
        is kept (and updated by `play`): read it, do not change it."""
        if self.shown is None:
            shown: list[set[str]] = [set() for _ in range(self.players)]
            for plays in (*(done.plays for done in self.tricks), self.trick):
                for number, (seat, card) in enumerate(plays):
                    self._show(shown, seat, card, led_suit(plays[:number]))
            self.shown = shown
        return self.shown

    def _show(self, voids: list[set[str]], seat: Seat, card: Card, led: str | None) -> None:
        """What playing `card` to a trick led with `led` (None: this card leads) shows."""
        suit = SUIT[card]
        if suit == EXCUSE:
            return
        rules = self.rules
        if led is None:
            if rules.no_trump_lead and suit == TRUMP:
                voids[seat].update(SUITS)
        elif suit != led:
            voids[seat].add(led)
            if rules.must_trump and suit != TRUMP:
                voids[seat].add(TRUMP)


# ----- events every trick game tells -----------------------------------------------------------------


class HandDealt(Event):
    #: The hand's number in the match, from 1.
    number: int
    dealer: Seat
    #: Who announces (Game 4) and leads first.
    leader: Seat


class SpareTaken(Event):
    """The dealer takes the spare cards: everyone learns how many, the dealer (its own copy,
    `audience` = dealer) which."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] = ()


class Discarded(Event):
    """The dealer's discard: public with the count, private (audience = dealer) with the cards."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] = ()


class CardPlayed(Event):
    seat: Seat
    card: Card
    #: The first card of the trick.
    led: bool


class TrickWon(Event):
    seat: Seat
    #: The trick's number in the hand, from 1.
    number: int
    plays: tuple[tuple[Seat, Card], ...]
    #: What the trick scores its winner at counting where tricks score one by one (Game 4, rule
    #: 16); None where whole piles are counted instead (Game 5).
    points: int | None


class FoolReturned(Event):
    """The Fool goes back to the player who played it (Game 4 rule 17, Game 5 rule 8)."""

    seat: Seat


class FoolPassed(Event):
    """Game 5, A5.5: its player won no trick, so the Fool goes to the last trick's winner."""

    owner: Seat
    seat: Seat
