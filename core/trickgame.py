"""The engine side shared by the two Tarot trick games: one table's phases on plain data, and the
`Game` around it.

`TrickTable` is the whole position (the match, the hand, the phase) as mutable plain data, and it
is at the same time the game's `Simulation`: `TrickGame._apply` loads the pydantic state into a
table, applies the action there and dumps it back, so the engine and the play-outs run the same
rules. The computer players' search cuts its play-outs at the end of the hand
(`TrickGame.hand_simulation`). A game subclasses both with its own phase (Game 4's asks), its scoring
and its view fields.

Phases: `deal` (chance: a shuffle), `discard` (the dealer marks cards one by one, `x.<card>`, and
confirms with `x.ok`), a game's own phase before the play, `play` (`p.<card>`), `next` (every seat
presses `next`), `over`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast

from core.cards import Card, tarot_label
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
    SeedOutcomes,
    State,
    outcome_returns,
)
from core.match import NEXT, Acknowledged, HandScored, Match, ScoreRow
from core.tricks import (
    DECK,
    FOOL,
    SUIT,
    CardPlayed,
    Discarded,
    FoolReturned,
    Hand,
    HandDealt,
    SpareTaken,
    Trick,
    TrickRules,
    TrickWon,
)
from core.unseen import deal
from i18n import t

DEAL, DISCARD, PLAY, NEXT_HAND, OVER = "deal", "discard", "play", "next", "over"
SHUFFLE = "deal:"
MARK = "x."
CONFIRM = "x.ok"
PLAY_CARD = "p."
PLAY_CODE: dict[Card, Action] = {card: PLAY_CARD + card for card in DECK}
MARK_CODE: dict[Card, Action] = {card: MARK + card for card in DECK}
#: Seeds of a shuffle.
SEEDS = 2**32


class TrickState(State):
    phase: str = DEAL
    #: The dealer of the hand being played (or about to be dealt).
    dealer: Seat = 0
    rows: tuple[ScoreRow, ...] = ()
    totals: tuple[int, ...] = ()
    #: Seats that pressed "next hand".
    acks: tuple[Seat, ...] = ()
    #: Each seat's cards in the rules' display order; empty before the deal.
    hands: tuple[tuple[Card, ...], ...] = ()
    dead: tuple[Card, ...] = ()
    spare: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    marks: tuple[Card, ...] = ()
    #: The leader of the trick in progress (before the play: the first leader).
    leader: Seat = 0
    trick: tuple[tuple[Seat, Card], ...] = ()
    tricks: tuple[Trick, ...] = ()


class TrickView(Frozen):
    """What one seat (None: a group chat) may know of a trick game's table."""

    options: Mapping[str, OptionValue]
    seat: Seat | None
    players: int
    phase: str
    #: The number of the hand being played, or just scored, from 1.
    hand_number: int
    dealer: Seat
    #: The leader of the trick in progress (before the play: who leads first).
    leader: Seat
    to_move: tuple[Seat, ...]
    #: The seat's own cards; None in the public view.
    hand: tuple[Card, ...] | None
    counts: tuple[int, ...]
    #: The trick in progress: who played which card, in order.
    trick: tuple[tuple[Seat, Card], ...]
    #: The completed tricks of this hand, in order (the last one is `last_trick`).
    tricks: tuple[Trick, ...]
    #: Tricks won so far this hand.
    won: tuple[int, ...]
    #: Points so far this hand, as far as everyone can count them.
    points: tuple[int, ...]
    #: Cards in the dead hand, the spare cards not taken yet, and the dealer's discards.
    dead: int
    spare: int
    discarded: int
    #: How many cards the dealer must discard now (0 outside the discard).
    to_discard: int
    #: The dealer's own discards and marks, in the dealer's view only.
    discards: tuple[Card, ...] | None
    marks: tuple[Card, ...]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    #: The score that ends the match; None for a single hand.
    target: int | None
    #: Seats still to press "next hand".
    waiting: tuple[Seat, ...]
    outcome: Outcome | None

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None


class TrickTable:
    """One table's position on plain data, and the play-out `Simulation` of its game.

    With `horizon` set (computer players' play-outs) it stops once the hand is scored: the next deal
    is a fresh shuffle no decision of this hand can see, and `returns` scores the hand."""

    rules: ClassVar[TrickRules]
    #: The hand margin (in points) that makes a play-out's return about 0.12 or 0.88.
    margin_scale: ClassVar[float] = 10.0

    __slots__ = ("hand", "horizon", "log", "match", "options", "phase", "players")

    players: int
    options: Mapping[str, OptionValue]
    phase: str
    match: Match
    hand: Hand
    #: Events are told only when a list is given (the engine); play-outs skip them.
    log: list[Event] | None
    horizon: bool

    # ----- hooks a game implements -------------------------------------------------------------

    @classmethod
    def target(cls, options: Mapping[str, OptionValue]) -> int | None:
        raise NotImplementedError

    def hand_totals(self) -> list[int]:
        """Each seat's points for the hand so far (all of them once the hand is over)."""
        raise NotImplementedError

    def scored(self, totals: Sequence[int]) -> list[int]:
        """What each seat adds to its match score for the hand."""
        raise NotImplementedError

    def trick_points(self, trick: Trick) -> int | None:
        """What a trick scores on its own (the `TrickWon` event), None if tricks are not scored so."""
        return None

    def _begin(self) -> None:
        """After the discard: the game's own phase, or the play."""
        self.phase = PLAY

    def _phase_to_move(self) -> tuple[Seat, ...]:
        raise ValueError(f"no phase {self.phase!r}")

    def _phase_legal(self, seat: Seat) -> list[Action]:
        raise ValueError(f"no phase {self.phase!r}")

    def _phase_apply(self, seat: Seat, action: Action) -> None:
        raise ValueError(f"no phase {self.phase!r}")

    def _trick_won(self, trick: Trick) -> None:
        """Something a game scores or tells as a trick is won (Game 4: Kings taken)."""

    def _hand_over(self) -> None:
        """What a game tells once the last trick is played, before the row (Game 5's Fool, bonus)."""

    def _new_hand(self) -> None:
        """Forget a game's own per-hand data."""

    # ----- state <-> table ---------------------------------------------------------------------

    @classmethod
    def load(cls, state: TrickState, log: list[Event] | None = None, horizon: bool = False) -> TrickTable:
        table = cls.__new__(cls)
        table.log = log
        table.horizon = horizon
        table._load(state)
        return table

    def _load(self, state: TrickState) -> None:
        self.players = players = state.players
        self.options = state.options
        self.phase = state.phase
        self.match = Match(
            players,
            self.target(state.options),
            state.dealer,
            list(state.rows),
            list(state.totals),
            list(state.acks),
        )
        gone = {card for done in state.tricks for _, card in done.plays}
        gone.update(card for _, card in state.trick)
        self.hand = Hand(
            rules=self.rules,
            players=players,
            dealer=state.dealer,
            hands=[list(cards) for cards in state.hands] if state.hands else [[] for _ in range(players)],
            dead=list(state.dead),
            spare=list(state.spare),
            discards=list(state.discards),
            marks=list(state.marks),
            leader=state.leader,
            trick=list(state.trick),
            tricks=list(state.tricks),
            gone=gone,
        )

    def dump(self) -> dict[str, Any]:
        """The fields of the state this table stands for (a `model_copy` update)."""
        hand, match = self.hand, self.match
        return {
            "phase": self.phase,
            "dealer": match.dealer,
            "rows": tuple(match.rows),
            "totals": tuple(match.totals),
            "acks": tuple(match.acks),
            "hands": tuple(tuple(cards) for cards in hand.hands),
            "dead": tuple(hand.dead),
            "spare": tuple(hand.spare),
            "discards": tuple(hand.discards),
            "marks": tuple(hand.marks),
            "leader": hand.leader,
            "trick": tuple(hand.trick),
            "tricks": tuple(hand.tricks),
        }

    def copy(self) -> TrickTable:
        other = self.__class__.__new__(self.__class__)
        other.players = self.players
        other.options = self.options
        other.phase = self.phase
        other.match = self.match.copy()
        other.hand = self.hand.copy()
        other.log = None
        other.horizon = self.horizon
        self._copy_extra(other)
        return other

    def _copy_extra(self, other: TrickTable) -> None:
        """Copy a game's own fields into `other`."""

    # ----- the Simulation protocol -------------------------------------------------------------

    def to_move(self) -> tuple[Seat, ...]:
        phase = self.phase
        if phase == PLAY:
            return (self.hand.turn(),)
        if phase == DEAL:
            return (CHANCE,)
        if phase == DISCARD:
            return (self.hand.dealer,)
        if phase == NEXT_HAND:
            return () if self.horizon else tuple(self.match.waiting())
        if phase == OVER:
            return ()
        return self._phase_to_move()

    def legal(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return [PLAY_CODE[card] for card in self.hand.playable(seat)]
        if phase == DISCARD:
            need = self.to_discard()
            actions = [MARK_CODE[card] for card in self.hand.markable(need)]
            return [*actions, CONFIRM] if len(self.hand.marks) == need else actions
        if phase == NEXT_HAND:
            return [NEXT]
        if phase in (DEAL, OVER):
            return []
        return self._phase_legal(seat)

    def apply(self, seat: Seat, action: Action) -> None:
        phase = self.phase
        if phase == PLAY:
            self.play_card(seat, action[len(PLAY_CARD) :])
        elif seat == CHANCE:
            self._deal(int(action[len(SHUFFLE) :]))
        elif phase == DISCARD:
            if action == CONFIRM:
                self._discard()
            else:
                self.hand.toggle(action[len(MARK) :])
        elif phase == NEXT_HAND:
            self._acknowledge(seat)
        else:
            self._phase_apply(seat, action)

    def chance(self, rng: random.Random) -> Action:
        return f"{SHUFFLE}{rng.randrange(SEEDS)}"

    def returns(self) -> list[float]:
        """Per seat, from a margin over the best other seat: the hand's totals in a play-out cut at
        the hand's end (`horizon`); else the match outcome once it is over (1 won, 0 lost, 0.5
        drawn), and before that an estimate from the match totals with this hand's score added."""
        if self.horizon:
            # A play-out that reached the hand's end has its totals recorded already.
            over = self.phase in (NEXT_HAND, OVER)
            standing = list(self.match.rows[-1].hand) if over else self.hand_totals()
            scale = self.margin_scale
        elif self.phase == OVER:
            return list(outcome_returns(self.match.outcome(), self.players))
        else:
            standing = list(self.match.totals)
            if self.phase not in (DEAL, NEXT_HAND):
                standing = [a + b for a, b in zip(standing, self.scored(self.hand_totals()), strict=True)]
            scale = self.margin_scale * 3
        values = []
        for seat, total in enumerate(standing):
            best_other = max(other for number, other in enumerate(standing) if number != seat)
            values.append(0.5 + 0.5 * math.tanh((total - best_other) / scale))
        return values

    # ----- the phases --------------------------------------------------------------------------

    def tell(self, event: Event) -> None:
        if self.log is not None:
            self.log.append(event)

    def to_discard(self) -> int:
        return self.rules.spare_count(self.players) if self.phase == DISCARD else 0

    def _deal(self, seed: int) -> None:
        rules, dealer = self.rules, self.match.dealer
        self.hand = hand = Hand.dealt(rules, self.players, dealer, seed)
        self.tell(HandDealt(number=len(self.match.rows) + 1, dealer=dealer, leader=hand.leader))
        if rules.spare_first and hand.spare:
            self._take_spare()
        self.phase = DISCARD
        if not rules.spare_count(self.players):
            self._begin()

    def _take_spare(self) -> None:
        dealer = self.hand.dealer
        taken = self.hand.take_spare()
        self.tell(SpareTaken(seat=dealer, count=len(taken)))
        self.tell(SpareTaken(seat=dealer, count=len(taken), cards=tuple(taken), audience=dealer))

    def _discard(self) -> None:
        dealer = self.hand.dealer
        cards = self.hand.discard_marked()
        self.tell(Discarded(seat=dealer, count=len(cards)))
        self.tell(Discarded(seat=dealer, count=len(cards), cards=tuple(cards), audience=dealer))
        if self.hand.spare:
            self._take_spare()
        self._begin()

    def play_card(self, seat: Seat, card: Card) -> None:
        """A card to the trick (the play-outs call this straight)."""
        hand = self.hand
        if self.log is not None:
            self.log.append(CardPlayed(seat=seat, card=card, led=not hand.trick))
        done = hand.play(seat, card)
        if done is None:
            return
        if self.log is not None:
            self.log.append(
                TrickWon(
                    seat=done.winner,
                    number=len(hand.tricks),
                    plays=done.plays,
                    points=self.trick_points(done),
                )
            )
            fool = next((player for player, played in done.plays if played == FOOL), None)
            if fool is not None:
                self.log.append(FoolReturned(seat=fool))
        self._trick_won(done)
        if hand.finished():
            self._end_hand()

    def _end_hand(self) -> None:
        self._hand_over()
        totals = self.hand_totals()
        row = self.match.record(totals, self.scored(totals))
        final = self.match.finished()
        self.tell(HandScored(row=row, final=final))
        self.phase = OVER if final else NEXT_HAND

    def _acknowledge(self, seat: Seat) -> None:
        self.tell(Acknowledged(seat=seat))
        if self.match.acknowledge(seat):
            players, dealer = self.players, self.match.dealer
            self.hand = Hand(
                rules=self.rules,
                players=players,
                dealer=dealer,
                hands=[[] for _ in range(players)],
                leader=(dealer + 1) % players,
            )
            self._new_hand()
            self.phase = DEAL

    # ----- views -------------------------------------------------------------------------------

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        """The view's fields that come from the table (the game adds to_move and the outcome); a
        game fills `points`."""
        hand, match = self.hand, self.match
        dealer_view = seat is not None and seat == hand.dealer
        scored = self.phase in (NEXT_HAND, OVER)
        return {
            "options": self.options,
            "seat": seat,
            "players": self.players,
            "phase": self.phase,
            "hand_number": len(match.rows) + (0 if scored else 1),
            "dealer": hand.dealer,
            "leader": hand.leader,
            "hand": None if seat is None else tuple(hand.hands[seat]),
            "counts": tuple(len(cards) for cards in hand.hands),
            "trick": tuple(hand.trick),
            "tricks": tuple(hand.tricks),
            "won": tuple(hand.won()),
            "dead": len(hand.dead),
            "spare": len(hand.spare),
            "discarded": len(hand.discards),
            "to_discard": self.to_discard(),
            "discards": tuple(hand.discards) if dealer_view else None,
            "marks": tuple(hand.marks) if dealer_view else (),
            "rows": tuple(match.rows),
            "totals": tuple(match.totals),
            "target": match.target,
            "waiting": tuple(match.waiting()) if self.phase == NEXT_HAND else (),
        }

    # ----- what a seat knows of the hidden cards -----------------------------------------------

    def known_in_hands(self, seat: Seat | None) -> list[list[Card]]:
        """Cards `seat` knows to be in each other hand (Game 4's shown cards)."""
        return [[] for _ in range(self.players)]

    def excluded(self, seat: Seat | None) -> list[set[Card]]:
        """Cards `seat` knows each other hand cannot hold, beyond what the voids say."""
        return [set() for _ in range(self.players)]

    def disagreements(self, seat: Seat | None) -> int:
        """How far a dealt world is from what `seat` saw that the constraints do not express (Game
        4's announcements), 0 where it agrees; sampling retries a few worlds that do not."""
        others = (other for other in range(self.players) if other != seat)
        return sum(self.disagreement(other, self.held_before_play(other)) for other in others)

    def disagreement(self, seat: Seat, held: Sequence[Card]) -> int:
        """How far `seat`'s public claims are from what it would claim holding `held` before the
        play (`disagreements`, for one seat)."""
        return 0

    def played(self, seat: Seat) -> list[Card]:
        """The cards `seat` has played this hand, in order."""
        played = [card for done in self.hand.tricks for owner, card in done.plays if owner == seat]
        return played + [card for owner, card in self.hand.trick if owner == seat]

    def held_before_play(self, seat: Seat) -> list[Card]:
        """`seat`'s hand as it was when the play began: what it holds now and what it has played."""
        return [*self.hand.hands[seat], *self.played(seat)]


S = TypeVar("S", bound=TrickState)
V = TypeVar("V", bound=TrickView)


@dataclass(frozen=True)
class Hidden:
    """The cards a seat cannot see and the places they may lie in: the other seats' hands
    (`others`, beside the cards `known` to be there), then the named piles (`piles`: the dead hand,
    the spare cards, the discards). `cards[i]` may go to the places in the bit mask `masks[i]`,
    and place j holds `sizes[j]` of them."""

    cards: list[Card]
    masks: list[int]
    sizes: list[int]
    others: list[Seat]
    piles: list[str]
    known: list[list[Card]]


#: Deals `shuffle_hidden` tries for one that differs from the real one.
SHUFFLE_TRIES = 3
#: Sampled worlds tried for one that agrees (`TrickTable.disagreements`) before one that does not is
#: accepted.
PLAUSIBLE_TRIES = 8


class TrickGame(Game[S, V], Generic[S, V]):
    """A Tarot trick game: the engine hooks, all through the game's `TrickTable`."""

    table_type: ClassVar[type[TrickTable]]
    _last: tuple[State, TrickTable] | None = None

    def table(self, state: S) -> TrickTable:
        """The table of `state`, to read only: the engine asks the same state for its players, its
        legal actions and its views many times in a row, so the last one loaded is kept."""
        cached = self._last
        if cached is not None and cached[0] is state:
            return cached[1]
        table = self.table_type.load(state)
        self._last = (state, table)
        return table

    def _initial(self, players: int, options: Mapping[str, OptionValue]) -> S:
        fields: dict[str, Any] = {
            "game": self.id,
            "players": players,
            "options": options,
            # The last seat deals first, so seat 0 sits on the dealer's left and leads the first hand.
            "dealer": players - 1,
            "leader": 0,
            "totals": (0,) * players,
            "hands": ((),) * players,
        }
        state = self.state_type(**fields)
        return cast(S, state)

    def _to_move(self, state: S) -> tuple[Seat, ...]:
        return self.table(state).to_move()

    def _legal(self, state: S, seat: Seat) -> Sequence[Action]:
        return self.table(state).legal(seat)

    def _chance_outcomes(self, state: S) -> ChanceOutcomes:
        return SeedOutcomes(prefix=SHUFFLE, count=SEEDS)

    def _apply(self, state: S, seat: Seat, action: Action) -> tuple[S, Sequence[Event]]:
        log: list[Event] = []
        table = self.table_type.load(state, log)
        table.apply(seat, action)
        return state.model_copy(update=table.dump()), log

    def outcome(self, state: S) -> Outcome | None:
        if state.phase != OVER:
            return None
        return self.table(state).match.outcome()

    def _view(self, state: S, seat: Seat | None) -> V:
        table = self.table(state)
        fields = table.view_fields(seat)
        fields["to_move"] = () if state.phase == OVER else table.to_move()
        fields["outcome"] = table.match.outcome() if state.phase == OVER else None
        return cast(V, self.view_type(**fields))

    def simulation(self, state: S) -> TrickTable:
        """The whole match on plain data, as the engine plays it."""
        return self.table_type.load(state)

    def hand_simulation(self, state: S) -> TrickTable:
        """A play-out that stops once the hand is scored (the computer players' search: the next
        deal is a fresh shuffle no decision of this hand can see)."""
        table = self.table_type.load(state, horizon=True)
        table.hand.voids()  # worked out once here, then kept up to date by the play-outs' copies
        return table

    # ----- hidden cards ------------------------------------------------------------------------

    def _skeleton(self, view: V) -> dict[str, Any]:
        """The state fields a view fixes; hidden cards are dealt into it afterwards."""
        seat = view.seat
        hands: list[tuple[Card, ...]] = [()] * view.players
        if seat is not None and view.hand is not None:
            hands[seat] = view.hand
        return {
            "game": self.id,
            "players": view.players,
            "options": view.options,
            "phase": view.phase,
            "dealer": view.dealer,
            "rows": view.rows,
            "totals": view.totals,
            "acks": tuple(s for s in range(view.players) if s not in view.waiting)
            if view.phase == NEXT_HAND
            else (),
            "hands": tuple(hands),
            "discards": view.discards or (),
            "marks": view.marks,
            "leader": view.leader,
            "trick": view.trick,
            "tricks": view.tricks,
        }

    def _sample(self, view: V, rng: random.Random) -> S:
        base, hidden = self.hidden_deal(view)
        for _ in range(PLAUSIBLE_TRIES):
            state = self.placed(base, hidden, deal(hidden.cards, hidden.masks, hidden.sizes, rng))
            if not self.table(state).disagreements(view.seat):
                return state
        return state

    def shuffle_hidden(self, state: S, seat: Seat | None, rng: random.Random) -> S:
        """Deal again what `seat` cannot see, keeping every count and every card it knows; the
        dealer's marks stay in the dealer's hand (they are the dealer's secret, not a card's)."""
        if state.phase == DEAL:
            return state
        keep = {} if seat == state.dealer else {state.dealer: list(state.marks)}
        view = self._view(state, seat)
        # Late in a hand few deals are possible, and a random one is often the same again.
        for _ in range(SHUFFLE_TRIES):
            shuffled = self._redeal(state, view, rng, keep)
            if shuffled.hands != state.hands or shuffled.dead != state.dead or shuffled.spare != state.spare:
                break
        return shuffled

    def _redeal(self, base: S, view: V, rng: random.Random, keep: dict[Seat, list[Card]]) -> S:
        """`base` with the cards `view`'s seat cannot see dealt at random into the places it cannot
        see, under every constraint the view implies."""
        hidden = self.hidden(base, view, keep)
        return self.placed(base, hidden, deal(hidden.cards, hidden.masks, hidden.sizes, rng))

    def hidden_deal(self, view: V) -> tuple[S, Hidden]:
        """What a sampled world of `view` is made of: the state it fixes and its hidden cards."""
        if view.seat is None:
            raise ValueError("a world is sampled for a seat's view")
        base = cast(S, self.state_type(**self._skeleton(view)))
        return base, self.hidden(base, view, {})

    def hidden(self, base: S, view: V, keep: dict[Seat, list[Card]]) -> Hidden:
        """The cards `view`'s seat cannot see and where each may lie (`keep`: cards known to stay
        in a hand besides those the seat saw)."""
        seat, players = view.seat, view.players
        table = self.table(base)
        rules = table.rules
        known = table.known_in_hands(seat)
        for other, cards in keep.items():
            known[other] = [*known[other], *(card for card in cards if card not in known[other])]
        seen = set(view.hand or ()) | set(view.discards or ())
        seen.update(card for _, card in view.trick)
        seen.update(card for done in view.tricks for _, card in done.plays)
        for cards in known:
            seen.update(cards)
        pool = [card for card in DECK if card not in seen]

        others = [other for other in range(players) if other != seat]
        sizes = [view.counts[other] - len(known[other]) for other in others]
        slots = len(others)
        extra = {"dead": view.dead, "spare": view.spare}
        if view.discards is None:
            extra["discards"] = view.discarded
        names = list(extra)
        sizes += list(extra.values())

        voids = table.hand.voids()
        excluded = table.excluded(seat)
        everywhere = (1 << len(sizes)) - 1
        by_suit = {suit: everywhere for suit in set(SUIT.values())}
        for number, other in enumerate(others):
            for suit in voids[other]:
                by_suit[suit] &= ~(1 << number)
        banned = 1 << (slots + names.index("discards")) if "discards" in extra else 0
        masks = []
        for card in pool:
            mask = by_suit[SUIT[card]]
            for number, other in enumerate(others):
                if card in excluded[other]:
                    mask &= ~(1 << number)
            if banned and card in rules.discard_ban:
                mask &= ~banned
            masks.append(mask)
        return Hidden(cards=pool, masks=masks, sizes=sizes, others=others, piles=names, known=known)

    def placed(self, base: S, hidden: Hidden, dealt: Sequence[Sequence[Card]]) -> S:
        """`base` with the hidden cards dealt: `dealt[j]` into the place `hidden.sizes[j]` counts."""
        rules = self.table_type.rules
        hands: list[tuple[Card, ...]] = list(base.hands)
        slots = len(hidden.others)
        for number, other in enumerate(hidden.others):
            hands[other] = tuple(rules.sort((*hidden.known[other], *dealt[number])))
        update: dict[str, Any] = {"hands": tuple(hands)}
        for number, name in enumerate(hidden.piles):
            update[name] = tuple(rules.sort(dealt[slots + number]))
        return base.model_copy(update=update)

    # ----- labels ------------------------------------------------------------------------------

    def label(self, action: Action, lang: str) -> str:
        if action == CONFIRM:
            return t(lang, "Discard")
        if action == NEXT:
            return t(lang, "Next hand")
        for prefix in (PLAY_CARD, MARK):
            if action.startswith(prefix):
                return tarot_label(action[len(prefix) :], lang)
        return self._label(action, lang)

    def _label(self, action: Action, lang: str) -> str:
        raise ValueError(f"{self.id}: no action {action!r}")
