"""The rules of Games 6 and 7 (RULES.md, D1-D16, T1-T9, A6.x, A7.x), once, on plain data.

`DurakBoard` is a small mutable position (card codes in lists) that knows every rule: who moves,
the legal actions, and what an action does. The engine (`core/games/durak.py`) converts its
pydantic `DurakState` to a board, applies one action and converts back, collecting the events;
computer players' play-outs run on a board directly (`DurakGame.simulation`), with no events and
no pydantic: an action costs about 3 µs there, against some 20 µs through the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

from core.cards import RANK_ORDER, Card, Suit, deck36
from core.engine import CHANCE, Action, Event, Outcome, Seat, SeedOutcomes, State, sample_chance

SHUFFLE = "deal:"
ATTACK = "a."
BEAT = "b."
TRANSFER = "t."
TAKE = "take"
PASS = "pass"

#: The deal is one chance action carrying a shuffle seed.
DEAL = SeedOutcomes(prefix=SHUFFLE)

#: D3 / D13: cards dealt, and the size players refill to.
HAND = 6
#: D9: attack cards per bout; A7.1: the off-by-default first-bout variant.
MAX_ATTACKS = 6
FIRST_BOUT_ATTACKS = 5

#: A7.5: suit order that breaks ties between equal ranks when nobody holds a trump.
SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)

#: D1: every card's rank, 6 (six) to 14 (ace).
CARD_RANK: dict[Card, int] = {card: RANK_ORDER[card[:-1]] for card in deck36()}


def _display_key(card: Card, trump_suit: str) -> tuple[bool, int, int]:
    return card[-1] == trump_suit, SUIT_ORDER.index(Suit(card[-1])), CARD_RANK[card]


#: Per trump suit, a sort index for every card: suits in SUIT_ORDER with trumps last, low to high.
HAND_ORDER: dict[str, dict[Card, int]] = {
    trump: {card: index for index, card in enumerate(sorted(deck36(), key=lambda c: _display_key(c, trump)))}
    for trump in Suit
}


def sort_hand(cards: Iterable[Card], trump_suit: str) -> tuple[Card, ...]:
    """The canonical order of a hand: suit by suit, trumps last, low to high."""
    return tuple(sorted(cards, key=HAND_ORDER[trump_suit].__getitem__))


def beats(defence: Card, attack: Card, trump_suit: str) -> bool:
    """D7: a higher card of the same suit, or any trump against a non-trump."""
    if defence[-1] == attack[-1]:
        return CARD_RANK[defence] > CARD_RANK[attack]
    return defence[-1] == trump_suit


def first_attacker(hands: Sequence[Sequence[Card]], trump_suit: str, fool: Seat) -> Seat:
    """D5 ("из-под дурака": the previous fool's left neighbour), else D4 / A7.5: the lowest trump in
    hand, else the lowest card with ties broken by SUIT_ORDER."""
    if fool >= 0:
        return (fool + 1) % len(hands)
    held = [(card, seat) for seat, hand in enumerate(hands) for card in hand]
    trumps = [(CARD_RANK[card], seat) for card, seat in held if card[-1] == trump_suit]
    if trumps:
        return min(trumps)[1]
    return min((CARD_RANK[card], SUIT_ORDER.index(Suit(card[-1])), seat) for card, seat in held)[2]


def durak_outcome(out: Sequence[Seat], fool: Seat | None) -> Outcome:
    """D15 / A7.9: everyone out is safe; the finishing order is the going-out order, the fool last."""
    if fool is None:
        return Outcome(winners=tuple(out), draw=True, order=tuple(out))
    return Outcome(winners=tuple(out), losers=(fool,), order=(*out, fool))


# ----- state and events ----------------------------------------------------------------------------


class DurakState(State):
    game: str = "durak"
    #: Each seat's cards in `sort_hand` order; empty until the deal.
    hands: tuple[tuple[Card, ...], ...] = ()
    #: Draw order, first card first; while it lasts, the last card is the face-up trump (D3).
    talon: tuple[Card, ...] = ()
    #: The face-up card under the talon; it names the trump suit and stays known after it is drawn.
    trump: Card | None = None
    #: The bout's (attack, defence) pairs in the order laid; defence is None while unbeaten.
    table: tuple[tuple[Card, Card | None], ...] = ()
    #: Cards gone face down (бито), in order; every one was seen on the table.
    discard: tuple[Card, ...] = ()
    #: The bout's first attacker, before any transfer (D13, T8); CHANCE before the deal.
    attacker: Seat = CHANCE
    defender: Seat = CHANCE
    #: Who holds the first throw-in right against the current defender (D8.1, T6).
    lead: Seat = CHANCE
    #: Throwers who passed since the last card reached the table (A7.6).
    passes: tuple[Seat, ...] = ()
    #: The defender declared "take" (D10).
    taking: bool = False
    #: Attack cards allowed against the current defender (D9, A7.12, T5).
    limit: int = MAX_ATTACKS
    #: Bouts finished so far (the first bout is bout 0).
    bout: int = 0
    #: Per seat, cards publicly known to be in the hand: picked up from the table, or the face-up trump.
    known: tuple[tuple[Card, ...], ...] = ()
    #: Per seat, every attack card it left unbeaten when it declared "take", in order.
    unbeaten: tuple[tuple[Card, ...], ...] = ()
    #: Seats that went out (D14), in the order they did.
    out: tuple[Seat, ...] = ()
    over: bool = False
    #: The durak once the game is over; None for a draw (D15, A7.9).
    fool: Seat | None = None


class CardPlayed(Event):
    seat: Seat
    card: Card
    #: attack = the bout's opening card; throw = a throw-in (подкинуть / всунуть).
    kind: Literal["attack", "throw", "beat", "transfer"]
    #: Who defends against the card: for a transfer, the new defender; None for a beat.
    defender: Seat | None = None
    #: The attack card a beat covers; None for the other kinds.
    beaten: Card | None = None


class TakeDeclared(Event):
    seat: Seat


class Passed(Event):
    seat: Seat


class PickedUp(Event):
    seat: Seat
    cards: tuple[Card, ...]


class Discarded(Event):
    cards: tuple[Card, ...]


class Drew(Event):
    """Public: how many cards a seat drew. Its own copy (audience = seat) also says which."""

    seat: Seat
    count: int
    cards: tuple[Card, ...] = ()


class WentOut(Event):
    seat: Seat


class BoutStarted(Event):
    attacker: Seat
    defender: Seat


# ----- the board -----------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class DurakBoard:
    """A Durak position on plain data, and the rules that move it (a `Simulation`).

    Its fields mirror `DurakState`'s, in lists. `events` collects what happens when the engine asks
    (a list), and stays None in play-outs. Actions are not checked: the engine checks them against
    `legal`, and play-outs only ever choose among `legal`.
    """

    players: int
    transfer: bool
    #: The options: A7.1's first bout of five, A7.2's pagat draw order, D5's previous fool.
    five: bool
    pagat: bool
    previous_fool: Seat
    hands: list[list[Card]]
    talon: list[Card]
    trump: Card | None
    #: The trump suit ("" before the deal).
    suit: str
    table: list[tuple[Card, Card | None]]
    discard: list[Card]
    attacker: Seat
    defender: Seat
    lead: Seat
    passes: list[Seat]
    taking: bool
    limit: int
    bout: int
    known: list[list[Card]]
    unbeaten: list[list[Card]]
    out: list[Seat]
    over: bool
    fool: Seat | None
    events: list[Event] | None

    @classmethod
    def from_state(cls, state: DurakState, transfer: bool, events: list[Event] | None = None) -> DurakBoard:
        options = state.options
        return cls(
            players=state.players,
            transfer=transfer,
            five=bool(options["first_bout_five"]),
            pagat=bool(options["pagat_draw"]),
            previous_fool=int(options["fool"]),
            hands=[list(hand) for hand in state.hands],
            talon=list(state.talon),
            trump=state.trump,
            suit=state.trump[-1] if state.trump else "",
            table=list(state.table),
            discard=list(state.discard),
            attacker=state.attacker,
            defender=state.defender,
            lead=state.lead,
            passes=list(state.passes),
            taking=state.taking,
            limit=state.limit,
            bout=state.bout,
            known=[list(cards) for cards in state.known],
            unbeaten=[list(cards) for cards in state.unbeaten],
            out=list(state.out),
            over=state.over,
            fool=state.fool,
            events=events,
        )

    def to_state(self, state: DurakState) -> DurakState:
        """`state` moved to this position (its version and history untouched)."""
        return state.model_copy(
            update={
                "hands": tuple(tuple(hand) for hand in self.hands),
                "talon": tuple(self.talon),
                "trump": self.trump,
                "table": tuple(self.table),
                "discard": tuple(self.discard),
                "attacker": self.attacker,
                "defender": self.defender,
                "lead": self.lead,
                "passes": tuple(self.passes),
                "taking": self.taking,
                "limit": self.limit,
                "bout": self.bout,
                "known": tuple(tuple(cards) for cards in self.known),
                "unbeaten": tuple(tuple(cards) for cards in self.unbeaten),
                "out": tuple(self.out),
                "over": self.over,
                "fool": self.fool,
            }
        )

    def copy(self) -> DurakBoard:
        other = DurakBoard.__new__(DurakBoard)
        for name in _FIELDS:
            setattr(other, name, getattr(self, name))
        other.hands = [hand[:] for hand in self.hands]
        other.talon = self.talon[:]
        other.table = self.table[:]
        other.discard = self.discard[:]
        other.passes = self.passes[:]
        other.known = [cards[:] for cards in self.known]
        other.unbeaten = [cards[:] for cards in self.unbeaten]
        other.out = self.out[:]
        other.events = None
        return other

    # ----- questions -------------------------------------------------------------------------

    def cap(self) -> int:
        return FIRST_BOUT_ATTACKS if self.five and self.bout == 0 else MAX_ATTACKS

    def next_with_cards(self, seat: Seat) -> Seat | None:
        """D6 / A6.6: the next seat clockwise after `seat` that holds cards."""
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if self.hands[other]:
                return other
        return None

    def oldest_unbeaten(self) -> int | None:
        for index, (_, defence) in enumerate(self.table):
            if defence is None:
                return index
        return None

    def holder(self) -> Seat | None:
        """D8 / A7.6: who may throw in now: the first seat from `lead` clockwise that is not the
        defender, holds cards and has not passed; None when nobody may (D9 limit reached, or all
        passed)."""
        if not self.table or len(self.table) >= self.limit:
            return None
        for step in range(self.players):
            seat = (self.lead + step) % self.players
            if seat != self.defender and self.hands[seat] and seat not in self.passes:
                return seat
        return None

    def can_transfer(self) -> bool:
        """T1, T2 / A6.3: nothing beaten yet, and the next defender holds at least as many cards as
        the table will then have, within the bout's cap."""
        if not self.transfer or any(defence is not None for _, defence in self.table):
            return False
        count = len(self.table) + 1
        following = self.next_with_cards(self.defender)
        return following is not None and count <= self.cap() and count <= len(self.hands[following])

    def to_move(self) -> tuple[Seat, ...]:
        """During a bout the defender and the thrower holding the right may act at the same time."""
        if self.over:
            return ()
        if not self.hands:
            return (CHANCE,)
        if not self.table:
            return (self.attacker,)
        holder = self.holder()
        defends = not self.taking and self.oldest_unbeaten() is not None
        if holder is None:
            return (self.defender,) if defends else ()
        if not defends:
            return (holder,)
        return (self.defender, holder) if self.defender < holder else (holder, self.defender)

    def legal(self, seat: Seat) -> list[Action]:
        """The actions of a seat that is to move, in hand order (the engine sorts them)."""
        hand = self.hands[seat]
        if not self.table:
            return [ATTACK + card for card in hand]
        if seat == self.defender:
            oldest = self.oldest_unbeaten()
            if self.taking or oldest is None:
                return []
            target = self.table[oldest][0]
            actions = [BEAT + card for card in hand if beats(card, target, self.suit)]
            actions.append(TAKE)
            if self.can_transfer():
                rank = CARD_RANK[target]
                actions += [TRANSFER + card for card in hand if CARD_RANK[card] == rank]
            return actions
        # D8: throw-ins match any rank on the table, attack or defence.
        ranks = {CARD_RANK[card] for pair in self.table for card in pair if card is not None}
        return [ATTACK + card for card in hand if CARD_RANK[card] in ranks] + [PASS]

    def chance(self, rng: random.Random) -> Action:
        return sample_chance(DEAL, rng)

    def outcome(self) -> Outcome | None:
        return durak_outcome(self.out, self.fool) if self.over else None

    def returns(self) -> list[float]:
        """Over: 0 for the fool, 1 for everyone else; a draw has no fool, so it is as good as going
        out (D15). Cut short: a seat that is out is safe, and the others are the likelier fool the
        more cards they hold."""
        if self.over:
            return [0.0 if seat == self.fool else 1.0 for seat in range(self.players)]
        held = sum(len(hand) for hand in self.hands)
        if not held:
            return [0.5] * self.players
        return [1.0 - len(hand) / held for hand in self.hands]

    # ----- actions ---------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        if seat == CHANCE:
            self._deal(int(action.removeprefix(SHUFFLE)))
            return
        if action == PASS:
            self._tell(Passed, seat=seat)
            self.passes.append(seat)
        elif action == TAKE:
            self.unbeaten[seat] += [attack for attack, defence in self.table if defence is None]
            self._tell(TakeDeclared, seat=seat)
            # Passes reset: throwers may now slip in cards they kept back while the defender beat.
            self.taking = True
            self.passes = []
        else:
            self._play(seat, action[:2], action[2:])
        # D10 / D11: the bout ends once nobody may throw in and nothing is left to beat (or the
        # defender takes).
        if (self.taking or self.oldest_unbeaten() is None) and self.holder() is None:
            self._end_bout()

    def start_bout(self, attacker: Seat) -> None:
        """D6, D9 / A7.12: the limit is fixed by the defender's hand as the attack begins."""
        defender = self.next_with_cards(attacker)
        assert defender is not None
        self._tell(BoutStarted, attacker=attacker, defender=defender)
        self.attacker = self.lead = attacker
        self.defender = defender
        self.passes = []
        self.taking = False
        self.limit = min(self.cap(), len(self.hands[defender]))

    def _tell(self, event: type[Event], /, **fields: Any) -> None:
        """Record an event when the engine collects them; a play-out makes none (they cost more
        than the rules)."""
        if self.events is not None:
            self.events.append(event(**fields))

    def _deal(self, seed: int) -> None:
        """D3: six cards each, one at a time clockwise from seat 0; the next card is the face-up
        trump, placed under the talon and drawn last."""
        deck = list(deck36())
        random.Random(seed).shuffle(deck)
        players = self.players
        dealt = players * HAND
        trump = deck[dealt]
        self.trump, self.suit = trump, trump[-1]
        self.hands = [list(sort_hand(deck[seat:dealt:players], self.suit)) for seat in range(players)]
        self.talon = [*deck[dealt + 1 :], trump]
        self.known = [[] for _ in range(players)]
        self.unbeaten = [[] for _ in range(players)]
        self.start_bout(first_attacker(self.hands, self.suit, self.previous_fool))

    def _play(self, seat: Seat, kind: str, card: Card) -> None:
        """Lay a card: attack, throw in, beat or transfer. Every new card resets the passes (A7.6)."""
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)
        self.passes = []
        if kind == BEAT:
            oldest = self.oldest_unbeaten()
            assert oldest is not None
            attack = self.table[oldest][0]
            self.table[oldest] = (attack, card)
            self._tell(CardPlayed, seat=seat, card=card, kind="beat", beaten=attack)
        elif kind == TRANSFER:
            following = self.next_with_cards(seat)
            assert following is not None
            # T1, T5, T6: the table now attacks the next seat; the transferring seat leads the throw-ins.
            self._tell(CardPlayed, seat=seat, card=card, kind="transfer", defender=following)
            self.defender = following
            self.lead = seat
            self.limit = min(self.cap(), len(self.hands[following]))
            self.table.append((card, None))
        else:
            kind_name: Literal["attack", "throw"] = "throw" if self.table else "attack"
            self._tell(CardPlayed, seat=seat, card=card, kind=kind_name, defender=self.defender)
            self.table.append((card, None))
        self._go_out((seat,))

    def _go_out(self, seats: Iterable[Seat]) -> None:
        """D14: with the talon empty, a seat without cards is out, and safe."""
        if self.talon:
            return
        for seat in seats:
            if not self.hands[seat] and seat not in self.out:
                self.out.append(seat)
                self._tell(WentOut, seat=seat)

    def _end_bout(self) -> None:
        hands, known, defender = self.hands, self.known, self.defender
        order = HAND_ORDER[self.suit].__getitem__
        cards = [card for pair in self.table for card in pair if card is not None]
        self.table = []
        if self.taking:
            hands[defender] += cards
            hands[defender].sort(key=order)
            known[defender] += cards
            self._tell(PickedUp, seat=defender, cards=tuple(cards))
        else:
            self.discard += cards
            self._tell(Discarded, cards=tuple(cards))

        # D13 / A7.2: clockwise from the bout's first attacker; pagat's option draws the defender last.
        seats = [(self.attacker + step) % self.players for step in range(self.players)]
        if self.pagat:
            seats.remove(defender)
            seats.append(defender)
        talon = self.talon
        for seat in seats:
            need = HAND - len(hands[seat])
            if need <= 0 or not talon:
                continue
            drawn = talon[:need]
            del talon[:need]
            hands[seat] += drawn
            hands[seat].sort(key=order)
            if self.trump in drawn:
                known[seat].append(self.trump)
            self._tell(Drew, seat=seat, count=len(drawn))
            self._tell(Drew, seat=seat, count=len(drawn), cards=tuple(drawn), audience=seat)
        self._go_out(seats)

        holding = [seat for seat in range(self.players) if hands[seat]]
        if len(holding) <= 1:
            # D15 / A7.9: the last one holding cards is the fool; nobody holding any is a draw.
            self.over = True
            self.fool = holding[0] if holding else None
            self.taking = False
            self.passes = []
            return
        # D12 / T9: a successful defender attacks next; after a take, the defender's left neighbour.
        attacker = defender if not self.taking and hands[defender] else self.next_with_cards(defender)
        assert attacker is not None
        self.bout += 1
        self.start_bout(attacker)


_FIELDS = tuple(field.name for field in fields(DurakBoard))
