"""Game 3: the race track of 36 cards, two dice, coins, three tokens each (RULES.md, Game 3).

The rules are `core.games.race_rules.Race` (plain data, shared with play-outs and the computer
players); this module is the immutable boundary: state, views, sampling and labels. The events are in
`core.games.race_events`. The only hidden information is the closed cards: nobody sees them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from core.cards import Card, deck36
from core.engine import (
    CHANCE,
    Action,
    ChanceOutcomes,
    Event,
    Frozen,
    Game,
    OptionValue,
    Outcome,
    Seat,
    Simulation,
    State,
    sample_chance,
)
from core.games.race_rules import CHANCE_PHASES, DECLINE, DIE, GO, PAY, Phase, Race, parse_move
from core.games.race_track import BANK, CARDS, START, TOKENS
from i18n import t, tn


class RaceState(State):
    game: str = "race"
    #: The track: the card at position p is deck[p - 1]; empty until the shuffle.
    deck: tuple[Card, ...] = ()
    #: Positions whose card is face up, ascending.
    opened: tuple[int, ...] = ()
    #: Per seat, the positions of its three tokens (0 = Start, 37 = Finish).
    tokens: tuple[tuple[int, ...], ...] = ()
    coins: tuple[int, ...] = ()
    bank: int = BANK
    turn: Seat = CHANCE
    phase: Phase = Phase.DEAL
    #: The turn's dice as rolled, and the indices of those not used or burned yet.
    dice: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    #: The last acceleration die of the turn.
    boost: int | None = None
    #: The turn player's tokens waiting on Hearts, in the order they arrived.
    queue: tuple[int, ...] = ()
    #: The token whose acceleration die is being rolled.
    accelerating: int | None = None
    #: The token facing a buy-out question.
    pending: int | None = None
    #: Seats in finishing order (the loser last once the game is over).
    order: tuple[Seat, ...] = ()


class RaceView(Frozen):
    """Everything but the closed cards, which nobody sees: the same for every seat and the public."""

    seat: Seat | None
    players: int
    phase: Phase
    #: The card at position p is faces[p - 1] if face up, else None (closed). 0 is the Start and
    #: 37 the Finish; neither holds a card.
    faces: tuple[Card | None, ...]
    tokens: tuple[tuple[int, ...], ...]
    coins: tuple[int, ...]
    bank: int
    #: Whose turn it is; None before the first player is drawn and once the game is over.
    turn: Seat | None
    dice: tuple[int, ...]
    left: tuple[int, ...]
    boost: int | None
    queue: tuple[int, ...]
    accelerating: int | None
    #: The token facing a buy-out question and its price.
    pending: int | None
    price: int | None
    order: tuple[Seat, ...]
    to_move: tuple[Seat, ...]
    outcome: Outcome | None


class RaceSimulation:
    """`Simulation` over the plain-data rules: the engine's own `Race`, no pydantic in the loop."""

    def __init__(self, race: Race) -> None:
        self.race = race

    def to_move(self) -> Sequence[Seat]:
        return self.race.to_move()

    def legal(self, seat: Seat) -> Sequence[Action]:
        return self.race.legal(seat)

    def apply(self, seat: Seat, action: Action) -> None:
        self.race.apply(seat, action)

    def chance(self, rng: random.Random) -> Action:
        return sample_chance(self.race.chance_outcomes(), rng)

    def copy(self) -> RaceSimulation:
        return RaceSimulation(self.race.copy())

    def returns(self) -> Sequence[float]:
        return self.race.returns()


class RaceGame(Game[RaceState, RaceView]):
    id = "race"
    state_type = RaceState
    view_type = RaceView
    min_players = 2
    max_players = 3

    # ----- the boundary between the immutable state and the plain-data rules ---------------------

    @staticmethod
    def race(state: RaceState, *, events: list[Event] | None = None) -> Race:
        opened = set(state.opened)
        return Race(
            state.players,
            deck=list(state.deck),
            face_up=[position in opened for position in range(1, CARDS + 1)],
            tokens=[list(tokens) for tokens in state.tokens],
            coins=list(state.coins),
            bank=state.bank,
            turn=state.turn,
            phase=state.phase,
            dice=list(state.dice),
            left=list(state.left),
            boost=state.boost,
            queue=list(state.queue),
            accelerating=state.accelerating,
            pending=state.pending,
            order=list(state.order),
            events=events,
        )

    @staticmethod
    def _store(state: RaceState, race: Race) -> RaceState:
        return state.model_copy(
            update={
                "deck": tuple(card for card in race.deck if card is not None),
                "opened": tuple(p for p in range(1, CARDS + 1) if race.face_up[p - 1]),
                "tokens": tuple(tuple(tokens) for tokens in race.tokens),
                "coins": tuple(race.coins),
                "bank": race.bank,
                "turn": race.turn,
                "phase": race.phase,
                "dice": tuple(race.dice),
                "left": tuple(race.left),
                "boost": race.boost,
                "queue": tuple(race.queue),
                "accelerating": race.accelerating,
                "pending": race.pending,
                "order": tuple(race.order),
            }
        )

    # ----- hooks -----------------------------------------------------------------------------------

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> RaceState:
        return RaceState(
            players=players, options=options, tokens=((START,) * TOKENS,) * players, coins=(0,) * players
        )

    def _to_move(self, state: RaceState) -> tuple[Seat, ...]:
        if state.phase is Phase.OVER:
            return ()
        return (CHANCE,) if state.phase in CHANCE_PHASES else (state.turn,)

    def _legal(self, state: RaceState, seat: Seat) -> Sequence[Action]:
        return self.race(state).legal(seat)

    def _chance_outcomes(self, state: RaceState) -> ChanceOutcomes:
        return self.race(state).chance_outcomes()

    def _apply(self, state: RaceState, seat: Seat, action: Action) -> tuple[RaceState, Sequence[Event]]:
        events: list[Event] = []
        race = self.race(state, events=events)
        race.apply(seat, action)
        return self._store(state, race), events

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        # Rule 13 / A3.10: the first to finish wins, the last one still racing loses.
        return Outcome(winners=state.order[:1], losers=state.order[-1:], order=state.order)

    def _view(self, state: RaceState, seat: Seat | None) -> RaceView:
        opened = set(state.opened)
        faces = tuple(card if p in opened else None for p, card in enumerate(state.deck, start=1))
        price = self.race(state).price() if state.pending is not None else None
        return RaceView(
            seat=seat,
            players=state.players,
            phase=state.phase,
            faces=faces or (None,) * CARDS,
            tokens=state.tokens,
            coins=state.coins,
            bank=state.bank,
            turn=None if state.turn == CHANCE or state.phase is Phase.OVER else state.turn,
            dice=state.dice,
            left=state.left,
            boost=state.boost,
            queue=state.queue,
            accelerating=state.accelerating,
            pending=state.pending,
            price=price,
            order=state.order,
            to_move=self.to_move(state),
            outcome=self.outcome(state),
        )

    def world(self, view: RaceView) -> Race:
        """The position a view shows, with None for every closed card (see `UnknownCard`)."""
        return Race(
            view.players,
            deck=[] if view.phase is Phase.DEAL else list(view.faces),
            face_up=[face is not None for face in view.faces],
            tokens=[list(tokens) for tokens in view.tokens],
            coins=list(view.coins),
            bank=view.bank,
            turn=self._turn(view),
            phase=view.phase,
            dice=list(view.dice),
            left=list(view.left),
            boost=view.boost,
            queue=list(view.queue),
            accelerating=view.accelerating,
            pending=view.pending,
            order=list(view.order),
        )

    @staticmethod
    def _turn(view: RaceView) -> Seat:
        # Before the first player is drawn and once the game is over, nobody's turn matters.
        return CHANCE if view.turn is None else view.turn

    def _sample(self, view: RaceView, rng: random.Random) -> RaceState:
        """The open cards where they are, the unseen ones dealt at random to the closed positions."""
        race = self.world(view)
        unseen = unseen_cards(view.faces)
        rng.shuffle(unseen)
        race.deck = [card if card is not None else unseen.pop() for card in race.deck]
        return self._store(RaceState(players=view.players), race)

    def shuffle_hidden(self, state: RaceState, seat: Seat | None, rng: random.Random) -> RaceState:
        """Deal the closed cards again among the closed positions."""
        opened = set(state.opened)
        closed = [p for p in range(1, len(state.deck) + 1) if p not in opened]
        cards = [state.deck[p - 1] for p in closed]
        rng.shuffle(cards)
        deck = list(state.deck)
        for position, card in zip(closed, cards, strict=True):
            deck[position - 1] = card
        return state.model_copy(update={"deck": tuple(deck)})

    def simulation(self, state: RaceState) -> Simulation:
        return RaceSimulation(self.race(state))

    def label(self, action: Action, lang: str) -> str:
        if action == DECLINE:
            return t(lang, "Don't pay")
        if action.startswith(PAY):
            price = int(action.removeprefix(PAY))
            return tn(lang, "Pay {n} coin", "Pay {n} coins", price)
        if action.startswith(GO):
            return t(lang, "Accelerate token {token}", token=int(action.removeprefix(GO)) + 1)
        if action.startswith(DIE):
            return action.removeprefix(DIE)
        die, token = parse_move(action)
        return t(lang, "{die} → token {token}", die=die, token=token + 1)


def unseen_cards(faces: Sequence[Card | None]) -> list[Card]:
    """The cards of the deck not face up on the track, in deck order."""
    shown = Counter(card for card in faces if card is not None)
    return [card for card in deck36() if not shown[card]]
