"""Games 6 and 7: transfer and throw-in Durak for four (RULES.md, rules D1-D16, T1-T9, A7.x, A6.x).

One engine for both: `DurakGame` is throw-in Durak (Подкидной), `TransferDurakGame` adds transfers.
During a bout the defender and the player holding the throw-in right may act at the same time;
every action is checked against the state it is applied to, so whichever comes first wins.

Action codes: `a.<card>` attack or throw in, `b.<card>` beat the oldest unbeaten card (A7.7),
`t.<card>` transfer (Game 6), `take` (Взять), `pass` (Бито: done throwing in).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar, Literal

from core.cards import RANK_ORDER, Card, Suit, card_label, deck36
from core.engine import (
    CHANCE,
    Action,
    ChanceOutcomes,
    Event,
    Frozen,
    Game,
    OptionSpec,
    OptionValue,
    Outcome,
    Seat,
    SeedOutcomes,
    State,
)
from i18n import N_, t

SHUFFLE = "deal:"
ATTACK = "a."
BEAT = "b."
TRANSFER = "t."
TAKE = "take"
PASS = "pass"

#: D3 / D13: cards dealt, and the size players refill to.
HAND = 6
#: D9: attack cards per bout; A7.1: the off-by-default first-bout variant.
MAX_ATTACKS = 6
FIRST_BOUT_ATTACKS = 5

#: How much less likely a sampled opponent holds a card that would have beaten a card it took.
UNBEATEN_WEIGHT = 0.3

#: A7.5: suit order that breaks ties between equal ranks when nobody holds a trump.
SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)

_RANK: dict[Card, int] = {card: RANK_ORDER[card[:-1]] for card in deck36()}


def _display_key(card: Card, trump_suit: str) -> tuple[bool, int, int]:
    return card[-1] == trump_suit, SUIT_ORDER.index(Suit(card[-1])), _RANK[card]


#: Per trump suit, a sort index for every card: suits in SUIT_ORDER with trumps last, low to high.
_HAND_ORDER: dict[str, dict[Card, int]] = {
    trump: {card: index for index, card in enumerate(sorted(deck36(), key=lambda c: _display_key(c, trump)))}
    for trump in Suit
}


def sort_hand(cards: Iterable[Card], trump_suit: str) -> tuple[Card, ...]:
    """The canonical order of a hand: suit by suit, trumps last, low to high."""
    return tuple(sorted(cards, key=_HAND_ORDER[trump_suit].__getitem__))


def beats(defence: Card, attack: Card, trump_suit: str) -> bool:
    """D7: a higher card of the same suit, or any trump against a non-trump."""
    if defence[-1] == attack[-1]:
        return _RANK[defence] > _RANK[attack]
    return defence[-1] == trump_suit


def first_attacker(hands: Sequence[Sequence[Card]], trump_suit: str, fool: Seat) -> Seat:
    """D5 ("из-под дурака": the previous fool's left neighbour), else D4 / A7.5: the lowest trump in
    hand, else the lowest card with ties broken by SUIT_ORDER."""
    if fool >= 0:
        return (fool + 1) % len(hands)
    held = [(card, seat) for seat, hand in enumerate(hands) for card in hand]
    trumps = [(_RANK[card], seat) for card, seat in held if card[-1] == trump_suit]
    if trumps:
        return min(trumps)[1]
    return min((_RANK[card], SUIT_ORDER.index(Suit(card[-1])), seat) for card, seat in held)[2]


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


class DurakView(Frozen):
    """What one seat (or, for None, a group chat) may know."""

    #: The table's options: everyone at the table knows the house rules.
    options: Mapping[str, OptionValue]
    seat: Seat | None
    players: int
    transfer: bool
    #: The seat's own cards in `sort_hand` order; None in the public view.
    hand: tuple[Card, ...] | None
    counts: tuple[int, ...]
    table: tuple[tuple[Card, Card | None], ...]
    trump: Card | None
    talon: int
    discard: tuple[Card, ...]
    attacker: Seat | None
    defender: Seat | None
    lead: Seat | None
    passes: tuple[Seat, ...]
    taking: bool
    limit: int
    bout: int
    to_move: tuple[Seat, ...]
    known: tuple[tuple[Card, ...], ...]
    unbeaten: tuple[tuple[Card, ...], ...]
    out: tuple[Seat, ...]
    fool: Seat | None
    outcome: Outcome | None


class CardPlayed(Event):
    seat: Seat
    card: Card
    #: attack = the bout's opening card; throw = a throw-in (подкинуть / всунуть).
    kind: Literal["attack", "throw", "beat", "transfer"]


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


class DurakGame(Game[DurakState, DurakView]):
    id = "durak"
    state_type = DurakState
    view_type = DurakView
    #: D2: always four seats; computers fill the empty ones.
    min_players = 4
    max_players = 4
    options = (
        # A7.1 and A7.2: off-by-default variants.
        OptionSpec(
            name="first_bout_five",
            choices=(False, True),
            default=False,
            label=N_("5 cards in the first bout"),
        ),
        OptionSpec(name="pagat_draw", choices=(False, True), default=False, label=N_("Defender draws last")),
        # D5 / A7.4: the previous game's fool with the same line-up, -1 for none (set by the series).
        OptionSpec(
            name="fool", choices=(-1, 0, 1, 2, 3), default=-1, label=N_("Previous fool"), internal=True
        ),
    )
    #: Game 6's transfers (T1-T9).
    transfer: ClassVar[bool] = False

    # ----- rules helpers ---------------------------------------------------------------------

    def holder(self, state: DurakState) -> Seat | None:
        """D8 / A7.6: who may throw in now: the first seat from `lead` clockwise that is not the defender,
        holds cards and has not passed; None when nobody may (D9 limit reached, or all passed)."""
        if not state.table or len(state.table) >= state.limit:
            return None
        for step in range(state.players):
            seat = (state.lead + step) % state.players
            if seat != state.defender and state.hands[seat] and seat not in state.passes:
                return seat
        return None

    def _cap(self, state: DurakState) -> int:
        return FIRST_BOUT_ATTACKS if state.options["first_bout_five"] and state.bout == 0 else MAX_ATTACKS

    @staticmethod
    def _next_with_cards(state: DurakState, seat: Seat) -> Seat | None:
        """D6 / A6.6: the next seat clockwise after `seat` that holds cards."""
        for step in range(1, state.players):
            other = (seat + step) % state.players
            if state.hands[other]:
                return other
        return None

    @staticmethod
    def _oldest_unbeaten(state: DurakState) -> int | None:
        for index, (_, defence) in enumerate(state.table):
            if defence is None:
                return index
        return None

    def _can_transfer(self, state: DurakState) -> bool:
        """T1, T2 / A6.3: nothing beaten yet, and the next defender holds at least as many cards as
        the table will then have, within the bout's cap."""
        if not self.transfer or any(defence is not None for _, defence in state.table):
            return False
        count = len(state.table) + 1
        following = self._next_with_cards(state, state.defender)
        return following is not None and count <= self._cap(state) and count <= len(state.hands[following])

    # ----- hooks -----------------------------------------------------------------------------

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> DurakState:
        return DurakState(game=self.id, players=players, options=options)

    def _to_move(self, state: DurakState) -> tuple[Seat, ...]:
        if not state.hands:
            return (CHANCE,)
        if not state.table:
            return (state.attacker,)
        holder = self.holder(state)
        defends = not state.taking and self._oldest_unbeaten(state) is not None
        seats = ([state.defender] if defends else []) + ([holder] if holder is not None else [])
        return tuple(sorted(seats))

    def _legal(self, state: DurakState, seat: Seat) -> Sequence[Action]:
        hand = state.hands[seat]
        if not state.table:
            return [ATTACK + card for card in hand]
        if seat == state.defender:
            oldest = self._oldest_unbeaten(state)
            if state.taking or oldest is None:
                return []
            assert state.trump is not None
            target = state.table[oldest][0]
            actions = [BEAT + card for card in hand if beats(card, target, state.trump[-1])]
            actions.append(TAKE)
            if self._can_transfer(state):
                rank = target[:-1]
                actions += [TRANSFER + card for card in hand if card[:-1] == rank]
            return actions
        # D8: throw-ins match any rank on the table, attack or defence.
        ranks = {card[:-1] for pair in state.table for card in pair if card is not None}
        return [ATTACK + card for card in hand if card[:-1] in ranks] + [PASS]

    def _chance_outcomes(self, state: DurakState) -> ChanceOutcomes:
        return SeedOutcomes(prefix=SHUFFLE)

    def _apply(self, state: DurakState, seat: Seat, action: Action) -> tuple[DurakState, Sequence[Event]]:
        if seat == CHANCE:
            return self._deal(state, int(action.removeprefix(SHUFFLE)))
        events: list[Event] = []
        if action == PASS:
            events.append(Passed(seat=seat))
            state = state.model_copy(update={"passes": (*state.passes, seat)})
        elif action == TAKE:
            left = tuple(attack for attack, defence in state.table if defence is None)
            unbeaten = list(state.unbeaten)
            unbeaten[seat] = (*unbeaten[seat], *left)
            events.append(TakeDeclared(seat=seat))
            # Passes reset: throwers may now slip in cards they kept back while the defender beat.
            state = state.model_copy(update={"taking": True, "unbeaten": tuple(unbeaten), "passes": ()})
        else:
            state = self._play(state, seat, action, events)
        state = self._settle(state, events)
        return state, events

    def _deal(self, state: DurakState, seed: int) -> tuple[DurakState, Sequence[Event]]:
        """D3: six cards each, one at a time clockwise from seat 0; the next card is the face-up
        trump, placed under the talon and drawn last."""
        deck = list(deck36())
        random.Random(seed).shuffle(deck)
        players = state.players
        dealt = players * HAND
        trump = deck[dealt]
        hands = tuple(sort_hand(deck[seat:dealt:players], trump[-1]) for seat in range(players))
        attacker = first_attacker(hands, trump[-1], int(state.options["fool"]))
        started = state.model_copy(
            update={
                "hands": hands,
                "talon": (*deck[dealt + 1 :], trump),
                "trump": trump,
                "known": ((),) * players,
                "unbeaten": ((),) * players,
            }
        )
        events: list[Event] = []
        return self._start_bout(started, attacker, events), events

    def _play(self, state: DurakState, seat: Seat, action: Action, events: list[Event]) -> DurakState:
        """Lay a card: attack, throw in, beat or transfer. Every new card resets the passes (A7.6)."""
        assert state.trump is not None
        kind, card = action[:2], action[2:]
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        update: dict[str, object] = {"hands": tuple(hands), "passes": ()}
        if card in state.known[seat]:
            known = list(state.known)
            known[seat] = tuple(c for c in known[seat] if c != card)
            update["known"] = tuple(known)
        if kind == BEAT:
            oldest = self._oldest_unbeaten(state)
            assert oldest is not None
            table = list(state.table)
            table[oldest] = (table[oldest][0], card)
            update["table"] = tuple(table)
            events.append(CardPlayed(seat=seat, card=card, kind="beat"))
        else:
            update["table"] = (*state.table, (card, None))
            if kind == TRANSFER:
                following = self._next_with_cards(state, seat)
                assert following is not None
                # T1, T5, T6: the table now attacks the next seat; the transferring seat leads the throw-ins.
                update |= {
                    "defender": following,
                    "lead": seat,
                    "limit": min(self._cap(state), len(state.hands[following])),
                }
                events.append(CardPlayed(seat=seat, card=card, kind="transfer"))
            else:
                events.append(CardPlayed(seat=seat, card=card, kind="throw" if state.table else "attack"))
        played = state.model_copy(update=update)
        return self._go_out(played, [seat], events)

    def _go_out(self, state: DurakState, seats: Iterable[Seat], events: list[Event]) -> DurakState:
        """D14: with the talon empty, a seat without cards is out, and safe."""
        if state.talon:
            return state
        gone = tuple(seat for seat in seats if not state.hands[seat] and seat not in state.out)
        events.extend(WentOut(seat=seat) for seat in gone)
        return state.model_copy(update={"out": (*state.out, *gone)}) if gone else state

    def _settle(self, state: DurakState, events: list[Event]) -> DurakState:
        """D10 / D11: the bout ends once nobody may throw in and nothing is left to beat (or the
        defender takes)."""
        if self.holder(state) is not None:
            return state
        if not state.taking and self._oldest_unbeaten(state) is not None:
            return state
        return self._end_bout(state, events)

    def _end_bout(self, state: DurakState, events: list[Event]) -> DurakState:
        assert state.trump is not None
        trump_suit = state.trump[-1]
        cards = tuple(card for pair in state.table for card in pair if card is not None)
        hands = list(state.hands)
        known = list(state.known)
        defender = state.defender
        update: dict[str, object] = {}
        if state.taking:
            hands[defender] = sort_hand((*hands[defender], *cards), trump_suit)
            known[defender] = (*known[defender], *cards)
            events.append(PickedUp(seat=defender, cards=cards))
        else:
            update["discard"] = (*state.discard, *cards)
            events.append(Discarded(cards=cards))

        # D13 / A7.2: clockwise from the bout's first attacker; pagat's option draws the defender last.
        order = [(state.attacker + step) % state.players for step in range(state.players)]
        if state.options["pagat_draw"]:
            order.remove(defender)
            order.append(defender)
        talon = state.talon
        for seat in order:
            need = HAND - len(hands[seat])
            if need <= 0 or not talon:
                continue
            drawn, talon = talon[:need], talon[need:]
            hands[seat] = sort_hand((*hands[seat], *drawn), trump_suit)
            if state.trump in drawn:
                known[seat] = (*known[seat], state.trump)
            events.append(Drew(seat=seat, count=len(drawn)))
            events.append(Drew(seat=seat, count=len(drawn), cards=drawn, audience=seat))

        update |= {"hands": tuple(hands), "talon": talon, "known": tuple(known), "table": ()}
        ended = self._go_out(state.model_copy(update=update), order, events)
        holding = [seat for seat in range(ended.players) if ended.hands[seat]]
        if len(holding) <= 1:
            # D15 / A7.9: the last one holding cards is the fool; nobody holding any is a draw.
            fool = holding[0] if holding else None
            return ended.model_copy(update={"over": True, "fool": fool, "taking": False, "passes": ()})
        # D12 / T9: a successful defender attacks next; after a take, the defender's left neighbour.
        if not state.taking and ended.hands[defender]:
            attacker: Seat | None = defender
        else:
            attacker = self._next_with_cards(ended, defender)
        assert attacker is not None
        return self._start_bout(ended.model_copy(update={"bout": state.bout + 1}), attacker, events)

    def _start_bout(self, state: DurakState, attacker: Seat, events: list[Event]) -> DurakState:
        """D6, D9 / A7.12: the limit is fixed by the defender's hand as the attack begins."""
        defender = self._next_with_cards(state, attacker)
        assert defender is not None
        events.append(BoutStarted(attacker=attacker, defender=defender))
        limit = min(self._cap(state), len(state.hands[defender]))
        return state.model_copy(
            update={
                "attacker": attacker,
                "defender": defender,
                "lead": attacker,
                "passes": (),
                "taking": False,
                "limit": limit,
            }
        )

    def outcome(self, state: DurakState) -> Outcome | None:
        if not state.over:
            return None
        if state.fool is None:
            return Outcome(winners=state.out, draw=True)
        return Outcome(winners=state.out, losers=(state.fool,))

    def _view(self, state: DurakState, seat: Seat | None) -> DurakView:
        dealt = bool(state.hands)
        return DurakView(
            options=state.options,
            seat=seat,
            players=state.players,
            transfer=self.transfer,
            hand=None if seat is None else (state.hands[seat] if dealt else ()),
            counts=tuple(len(hand) for hand in state.hands) if dealt else (0,) * state.players,
            table=state.table,
            trump=state.trump,
            talon=len(state.talon),
            discard=state.discard,
            attacker=state.attacker if dealt else None,
            defender=state.defender if dealt else None,
            lead=state.lead if dealt else None,
            passes=state.passes,
            taking=state.taking,
            limit=state.limit,
            bout=state.bout,
            to_move=self.to_move(state),
            known=state.known,
            unbeaten=state.unbeaten,
            out=state.out,
            fool=state.fool,
            outcome=self.outcome(state),
        )

    def _sample(self, view: DurakView, rng: random.Random) -> DurakState:
        """A deal the view's seat cannot tell from the real one: its own hand, the table, the discard
        and every card known in another hand stay where they are; the unseen cards are dealt to the
        other hands and the talon above the face-up trump. A card that would have beaten one an
        opponent took is dealt to that opponent with reduced weight (it took instead of beating, so
        it probably lacked one; it may have drawn one since)."""
        seat, hand, trump = view.seat, view.hand, view.trump
        if seat is None or hand is None or trump is None:
            raise ValueError("a deal is sampled for a seat's view after the deal")
        trump_suit = trump[-1]
        seen = {*hand, *view.discard, *(card for pair in view.table for card in pair if card is not None)}
        for other, cards in enumerate(view.known):
            if other != seat:
                seen.update(cards)
        if view.talon:
            seen.add(trump)
        pool = [card for card in deck36() if card not in seen]
        hidden_talon = max(view.talon - 1, 0)
        needs = [
            0 if other == seat else view.counts[other] - len(view.known[other])
            for other in range(view.players)
        ]
        if sum(needs) + hidden_talon != len(pool):
            raise ValueError("the view's card counts do not add up")
        hands: list[tuple[Card, ...]] = []
        for other in range(view.players):
            if other == seat:
                hands.append(hand)
                continue
            took = view.unbeaten[other]
            # Efraimidis-Spirakis: the `need` largest keys u ** (1 / weight) are a weighted draw
            # without replacement.
            weights = [
                UNBEATEN_WEIGHT if any(beats(card, attack, trump_suit) for attack in took) else 1.0
                for card in pool
            ]
            keys = sorted(
                (rng.random() ** (1.0 / weight), card) for weight, card in zip(weights, pool, strict=True)
            )
            chosen = {card for _, card in keys[len(keys) - needs[other] :]} if needs[other] else set()
            pool = [card for card in pool if card not in chosen]
            hands.append(sort_hand((*view.known[other], *chosen), trump_suit))
        rng.shuffle(pool)
        assert view.attacker is not None and view.defender is not None and view.lead is not None
        return DurakState(
            game=self.id,
            players=view.players,
            options=view.options,
            hands=tuple(hands),
            talon=(*pool, trump) if view.talon else (),
            trump=trump,
            table=view.table,
            discard=view.discard,
            attacker=view.attacker,
            defender=view.defender,
            lead=view.lead,
            passes=view.passes,
            taking=view.taking,
            limit=view.limit,
            bout=view.bout,
            known=view.known,
            unbeaten=view.unbeaten,
            out=view.out,
            over=view.outcome is not None,
            fool=view.fool,
        )

    def shuffle_hidden(self, state: DurakState, seat: Seat | None, rng: random.Random) -> DurakState:
        """Deal again the cards `seat` cannot see: the talon under the face-up trump and the other
        hands' cards not publicly known, keeping every count and every known card in place."""
        if state.trump is None:
            return state
        closed = max(len(state.talon) - 1, 0)
        pool = list(state.talon[:closed])
        hidden = [0] * state.players
        for other, hand in enumerate(state.hands):
            if other != seat:
                known = state.known[other]
                cards = [card for card in hand if card not in known] if known else hand
                hidden[other] = len(cards)
                pool += cards
        rng.shuffle(pool)
        hands = list(state.hands)
        start = closed
        for other, count in enumerate(hidden):
            if count:
                hands[other] = sort_hand((*state.known[other], *pool[start : start + count]), state.trump[-1])
                start += count
        return state.model_copy(
            update={"hands": tuple(hands), "talon": (*pool[:closed], *state.talon[closed:])}
        )

    def label(self, action: Action, lang: str) -> str:
        if action == TAKE:
            return t(lang, "Take")
        if action == PASS:
            return t(lang, "Pass")
        kind, card = action[:2], action[2:]
        shown = card_label(card, lang)
        if kind == ATTACK:
            return shown
        if kind == BEAT:
            return t(lang, "Beat {card}", card=shown)
        if kind == TRANSFER:
            return t(lang, "Transfer {card}", card=shown)
        raise ValueError(f"{self.id}: no action {action!r}")


class TransferDurakGame(DurakGame):
    """Game 6: Переводной дурак."""

    id = "durak_transfer"
    transfer = True
