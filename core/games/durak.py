"""Games 6 and 7: transfer and throw-in Durak for four (RULES.md, rules D1-D16, T1-T9, A7.x, A6.x).

One engine for both: `DurakGame` is throw-in Durak (Подкидной), `TransferDurakGame` adds transfers.
The rules live once, on plain data, in `core/games/durak_rules.py`; this module is their pydantic
boundary (each hook converts the state to a `DurakBoard` and back), with the views, the sampled
deals, the hidden-information shuffle and the labels. During a bout the defender and the player
holding the throw-in right may act at the same time; every action is checked against the state it
is applied to, so whichever comes first wins.

Action codes: `a.<card>` attack or throw in, `b.<card>` beat the oldest unbeaten card (A7.7),
`t.<card>` transfer (Game 6), `take` (Взять), `pass` (Бито: done throwing in).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from core.cards import Card, card_label, deck36
from core.engine import (
    Action,
    ChanceOutcomes,
    Event,
    Frozen,
    Game,
    OptionSpec,
    OptionValue,
    Outcome,
    Seat,
)
from core.games.durak_rules import (
    ATTACK,
    BEAT,
    DEAL,
    FIRST_BOUT_ATTACKS,
    HAND,
    MAX_ATTACKS,
    PASS,
    SHUFFLE,
    TAKE,
    TRANSFER,
    BoutStarted,
    CardPlayed,
    Discarded,
    Drew,
    DurakBoard,
    DurakState,
    Passed,
    PickedUp,
    TakeDeclared,
    WentOut,
    beats,
    durak_outcome,
    first_attacker,
    sort_hand,
)
from i18n import N_, t

__all__ = [
    "ATTACK",
    "BEAT",
    "FIRST_BOUT_ATTACKS",
    "HAND",
    "MAX_ATTACKS",
    "PASS",
    "SHUFFLE",
    "TAKE",
    "TRANSFER",
    "BoutStarted",
    "CardPlayed",
    "Discarded",
    "Drew",
    "DurakBoard",
    "DurakGame",
    "DurakState",
    "DurakView",
    "Passed",
    "PickedUp",
    "TakeDeclared",
    "TransferDurakGame",
    "WentOut",
    "beats",
    "first_attacker",
    "sort_hand",
]

#: How much less likely a sampled opponent holds a card that would have beaten a card it took.
UNBEATEN_WEIGHT = 0.3


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

    def simulation(self, state: DurakState) -> DurakBoard:
        """The rules' own board: play-outs need no events and no pydantic."""
        return DurakBoard.from_state(state, self.transfer)

    # ----- hooks: the board does the rules -----------------------------------------------------

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> DurakState:
        return DurakState(game=self.id, players=players, options=options)

    def _to_move(self, state: DurakState) -> tuple[Seat, ...]:
        return DurakBoard.from_state(state, self.transfer).to_move()

    def _legal(self, state: DurakState, seat: Seat) -> Sequence[Action]:
        return DurakBoard.from_state(state, self.transfer).legal(seat)

    def _chance_outcomes(self, state: DurakState) -> ChanceOutcomes:
        return DEAL

    def _apply(self, state: DurakState, seat: Seat, action: Action) -> tuple[DurakState, Sequence[Event]]:
        events: list[Event] = []
        board = DurakBoard.from_state(state, self.transfer, events)
        board.apply(seat, action)
        return board.to_state(state), events

    def outcome(self, state: DurakState) -> Outcome | None:
        return durak_outcome(state.out, state.fool) if state.over else None

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
