"""Game 4: Mathers' Tarot for 2-3 players, a match to 100 (RULES.md, Game 4, rules 1-19, A4.x).

The deal, the discard and the play run on the shared trick kernel (`core.tricks`,
`core.trickgame`); this module adds the asks for a Tarot Trump, the announcements, the Kings taken
and the counting, with the points tables as data.

Action codes: `x.<card>` marks or unmarks a card for the dealer's discard and `x.ok` confirms it;
`ask.<seat>` asks that opponent for a Tarot Trump, `noask` lets the turn to ask pass; the asked player
gives with `give.<card>`, the asker gives back a small card with `ret.<card>`; `p.<card>` plays a card;
`next` starts the next hand.

Decisions RULES.md leaves open, taken here:
* The asker shows the first two of its Tarot Trumps in `TAROT_TRUMPS` order (the World, the Fool,
  the Magician, the Kings); the given Tarot Trump is shown to everybody (the asker's announcement of
  the Tarot Trumps would show it anyway); the small card given back is seen only by the two players.
* An announcement shows every card of its kind in the hand (all the trumps for "10 trumps", all the
  Tarot Trumps for a set of three, the whole run for a sequence).
* The last seat deals the first hand, so seat 0 announces and leads first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from core.cards import Card, tarot_label
from core.engine import Action, Event, Frozen, OptionValue, Seat
from core.trickgame import NEXT_HAND, OVER, PLAY, TrickGame, TrickState, TrickTable, TrickView
from core.tricks import (
    COURTS,
    DECK,
    FOOL,
    KINGS,
    MAGICIAN,
    PIPS,
    SUITS,
    WORLD,
    Trick,
    TrickRules,
    rank_strength,
)
from i18n import t

RULES = TrickRules(
    strength=rank_strength(),
    packet=5,
    hands_dealt=3,
    hand_size=25,
    spare_first=False,
    discard_ban=frozenset(),
    discards_score=False,
    no_trump_lead=False,
    must_trump=False,
    fool_to_last_winner=False,
)

# ----- the points tables (rules 3, 4, 8, 9, 10, 15, 16, 17) ------------------------------------------

#: Rule 3 / A4.2: the seven Tarot Trumps, in the order an asker shows them.
TAROT_TRUMPS: tuple[Card, ...] = (WORLD, FOOL, MAGICIAN, *KINGS)
GREATER: tuple[Card, ...] = tuple(f"T{number}" for number in range(17, 22))
LESSER: tuple[Card, ...] = tuple(f"T{number}" for number in range(1, 6))
TRUMPS: tuple[Card, ...] = tuple(f"T{number}" for number in range(22))

Kind = Literal["greater", "lesser", "trumps", "tarot", "sequence"]
#: Rule 9: (how many, points), highest tier first; the tiers of a kind are not cumulative.
COUNTED: tuple[tuple[Kind, tuple[Card, ...], tuple[tuple[int, int], ...]], ...] = (
    ("greater", GREATER, ((5, 15), (4, 10), (3, 5))),
    ("lesser", LESSER, ((5, 15), (4, 10), (3, 5))),
    ("trumps", TRUMPS, ((13, 15), (10, 10))),
)
#: Rule 9: 15 points for every complete set of three Tarot Trumps held.
TAROT_SET, TAROT_SET_POINTS = 3, 15
#: Rule 10 / A4.3: a maximal run's length -> points.
SEQUENCE_TIERS: tuple[tuple[int, int], ...] = ((10, 15), (7, 10), (4, 5))
#: Rule 10: the orders in which runs are counted (the Fool is in none).
SEQUENCES: tuple[tuple[Card, ...], ...] = (
    *(tuple(rank + suit for rank in (*PIPS, *COURTS)) for suit in SUITS),
    TRUMPS[1:],
)
#: Rule 8: an ask nobody could answer.
UNANSWERED = 5
#: Rule 15: a King of another player in a trick one wins.
KING_TAKEN = 5
#: Rule 17: the Fool scores for the player who played it.
FOOL_POINTS = 5
#: Rule 16: a trick scores by its most valuable card (the Fool ignored); any other trick 1.
TRICK_VALUE: dict[Card, int] = {
    **{card: 5 for card in (WORLD, MAGICIAN, *KINGS)},
    **{"Q" + suit: 4 for suit in SUITS},
    **{"N" + suit: 3 for suit in SUITS},
    **{"P" + suit: 2 for suit in SUITS},
}
PLAIN_TRICK = 1
TARGET = 100

ASK = "ask"
ASK_CODE = "ask."
NO_ASK = "noask"
GIVE = "give."
RETURN = "ret."
#: Stages of one seat's turn to ask.
CHOOSE, GIVING, RETURNING = "choose", "give", "return"
NUMERALS = frozenset(rank + suit for suit in SUITS for rank in PIPS)


def _tier(count: int, tiers: Sequence[tuple[int, int]]) -> int:
    return next((points for least, points in tiers if count >= least), 0)


#: Each card of a sequence: (which of `SEQUENCES`, its place there).
_IN_SEQUENCE: dict[Card, tuple[int, int]] = {
    card: (number, place) for number, order in enumerate(SEQUENCES) for place, card in enumerate(order)
}
_SHORTEST_RUN = SEQUENCE_TIERS[-1][0]


def scoring_runs(held: set[Card]) -> list[tuple[Card, ...]]:
    """Rule 10: every maximal run of consecutive cards long enough to score, in each suit and in
    the trumps, in the order of `SEQUENCES`."""
    # A bit per place in each order: most hands hold no run of four, which the bits tell at once
    # (the search's worlds weigh millions of hands).
    masks = [0] * len(SEQUENCES)
    for card in held:
        found = _IN_SEQUENCE.get(card)
        if found is not None:
            masks[found[0]] |= 1 << found[1]
    runs: list[tuple[Card, ...]] = []
    for order, mask in zip(SEQUENCES, masks, strict=True):
        starts = mask  # the places where a run of the shortest scoring length starts
        for shift in range(1, _SHORTEST_RUN):
            starts &= mask >> shift
        if not starts:
            continue
        run: list[Card] = []
        for place, card in enumerate(order):
            if mask >> place & 1:
                run.append(card)
                continue
            if len(run) >= _SHORTEST_RUN:
                runs.append(tuple(run))
            run = []
        if len(run) >= _SHORTEST_RUN:
            runs.append(tuple(run))
    return runs


def combinations(cards: Sequence[Card] | set[Card]) -> list[tuple[Kind, tuple[Card, ...], int]]:
    """Rule 9: what a hand scores before play, as (kind, the cards shown, points)."""
    held = set(cards)
    found: list[tuple[Kind, tuple[Card, ...], int]] = []
    for kind, group, tiers in COUNTED:
        points = _tier(len(held.intersection(group)), tiers)
        if points:
            found.append((kind, tuple(card for card in group if card in held), points))
    tarot = tuple(card for card in TAROT_TRUMPS if card in held)
    if len(tarot) >= TAROT_SET:
        found.append(("tarot", tarot, TAROT_SET_POINTS * (len(tarot) // TAROT_SET)))
    for run in scoring_runs(held):
        found.append(("sequence", run, _tier(len(run), SEQUENCE_TIERS)))
    return found


#: Every card's worth in rule 16's judgement of a trick; the Fool is ignored (A4.8).
_JUDGED: dict[Card, int] = {card: TRICK_VALUE.get(card, PLAIN_TRICK) for card in DECK} | {FOOL: 0}


def trick_value(trick: Trick) -> int:
    """Rule 16 / A4.8."""
    return max(_JUDGED[card] for _, card in trick.plays)


def hand_result(totals: Sequence[int]) -> list[int]:
    """Rule 18: only the single highest total scores, by its excess over the next one."""
    best = max(totals)
    scored = [0] * len(totals)
    if list(totals).count(best) == 1:
        seat = list(totals).index(best)
        scored[seat] = best - max(total for other, total in enumerate(totals) if other != seat)
    return scored


# ----- records, state, view, events ------------------------------------------------------------------


class Ask(Frozen):
    asker: Seat
    asked: Seat
    #: The two Tarot Trumps the asker showed.
    shown: tuple[Card, ...]
    #: The Tarot Trump given (seen by everybody); None if none was (yet).
    given: Card | None = None
    #: The small card given back; only the two players see it (None in the others' views).
    returned: Card | None = None
    #: The asked player held no Tarot Trump: the asker scored `UNANSWERED`.
    unanswered: bool = False


class Announcement(Frozen):
    seat: Seat
    kind: Kind
    cards: tuple[Card, ...]
    points: int


class TarotScore(Frozen):
    """A seat's points this hand so far, by source (rule 18)."""

    announced: int
    asks: int
    kings: int
    tricks: int
    fool: int

    @classmethod
    def of(cls, parts: Sequence[int]) -> TarotScore:
        announced, asks, kings, tricks, fool = parts
        return cls(announced=announced, asks=asks, kings=kings, tricks=tricks, fool=fool)

    @property
    def total(self) -> int:
        return self.announced + self.asks + self.kings + self.tricks + self.fool


class TarotState(TrickState):
    game: str = "tarot"
    #: Seats whose turn to ask is over, counted from the leader.
    ask_round: int = 0
    ask_stage: str = ""
    #: The seat asked in the ask being resolved, -1 for none.
    asked: Seat = -1
    asks: tuple[Ask, ...] = ()
    announcements: tuple[Announcement, ...] = ()


class TarotView(TrickView):
    asks: tuple[Ask, ...]
    ask_round: int
    #: `choose`, `give` or `return` while a turn to ask is on, else "".
    ask_stage: str
    #: The seat whose turn to ask it is, and the seat it asked.
    asking: Seat | None
    asked: Seat | None
    announcements: tuple[Announcement, ...]
    #: Per seat, the cards this view's seat knows to be in that hand (shown, given, given back).
    known: tuple[tuple[Card, ...], ...]
    breakdown: tuple[TarotScore, ...]


class AskDeclined(Event):
    seat: Seat


class Asked(Event):
    asker: Seat
    asked: Seat
    shown: tuple[Card, ...]


class AskUnanswered(Event):
    """The asked player holds no Tarot Trump; the asker scores `points`."""

    asker: Seat
    asked: Seat
    points: int


class TrumpGiven(Event):
    giver: Seat
    asker: Seat
    card: Card


class CardReturned(Event):
    """The asker gives back a small card: public without it, to the two players (one copy each)
    with it."""

    asker: Seat
    giver: Seat
    card: Card | None = None


class Announced(Event):
    seat: Seat
    kind: Kind
    cards: tuple[Card, ...]
    points: int


class KingTaken(Event):
    """Rule 15: `seat` won a trick holding `owner`'s King."""

    seat: Seat
    king: Card
    owner: Seat
    points: int


# ----- the table ---------------------------------------------------------------------------------------


class TarotTable(TrickTable):
    rules = RULES
    margin_scale = 15.0

    __slots__ = ("announcements", "ask_round", "ask_stage", "asked", "asks")

    ask_round: int
    ask_stage: str
    asked: Seat
    asks: list[Ask]
    announcements: list[Announcement]

    @classmethod
    def target(cls, options: Mapping[str, OptionValue]) -> int | None:
        return TARGET

    def _load(self, state: TrickState) -> None:
        super()._load(state)
        assert isinstance(state, TarotState)
        self.ask_round = state.ask_round
        self.ask_stage = state.ask_stage
        self.asked = state.asked
        self.asks = list(state.asks)
        self.announcements = list(state.announcements)

    def dump(self) -> dict[str, Any]:
        return super().dump() | {
            "ask_round": self.ask_round,
            "ask_stage": self.ask_stage,
            "asked": self.asked,
            "asks": tuple(self.asks),
            "announcements": tuple(self.announcements),
        }

    def _copy_extra(self, other: TrickTable) -> None:
        assert isinstance(other, TarotTable)
        other.ask_round = self.ask_round
        other.ask_stage = self.ask_stage
        other.asked = self.asked
        other.asks = self.asks[:]
        other.announcements = self.announcements[:]

    def _new_hand(self) -> None:
        self.ask_round, self.ask_stage, self.asked = 0, "", -1
        self.asks, self.announcements = [], []

    # ----- rule 8: asking for a Tarot Trump ----------------------------------------------------

    def asker(self) -> Seat:
        return (self.hand.leader + self.ask_round) % self.players

    def tarot_trumps(self, seat: Seat) -> list[Card]:
        held = set(self.hand.hands[seat])
        return [card for card in TAROT_TRUMPS if card in held]

    def _begin(self) -> None:
        self.phase = ASK
        self.ask_round = 0
        self._next_asker()

    def _next_asker(self) -> None:
        """The next seat with at least two Tarot Trumps gets its turn; after the last, rule 9."""
        while self.ask_round < self.players and len(self.tarot_trumps(self.asker())) < 2:
            self.ask_round += 1
        if self.ask_round < self.players:
            self.ask_stage, self.asked = CHOOSE, -1
            return
        self.ask_stage, self.asked = "", -1
        self._announce()
        self.phase = PLAY

    def _phase_to_move(self) -> tuple[Seat, ...]:
        return (self.asked,) if self.ask_stage == GIVING else (self.asker(),)

    def _phase_legal(self, seat: Seat) -> list[Action]:
        hand = self.hand.hands[seat]
        if self.ask_stage == CHOOSE:
            return [f"{ASK_CODE}{other}" for other in range(self.players) if other != seat] + [NO_ASK]
        if self.ask_stage == GIVING:
            return [GIVE + card for card in self.tarot_trumps(seat)]
        small = [card for card in hand if card in NUMERALS]
        return [RETURN + card for card in small or [card for card in hand if card not in TAROT_TRUMPS]]

    def _phase_apply(self, seat: Seat, action: Action) -> None:
        if action == NO_ASK:
            self.tell(AskDeclined(seat=seat))
            self._turn_over()
        elif action.startswith(ASK_CODE):
            self._ask(seat, int(action[len(ASK_CODE) :]))
        elif action.startswith(GIVE):
            self._give(seat, action[len(GIVE) :])
        else:
            self._return(seat, action[len(RETURN) :])

    def _turn_over(self) -> None:
        self.ask_round += 1
        self._next_asker()

    def _ask(self, asker: Seat, asked: Seat) -> None:
        shown = tuple(self.tarot_trumps(asker)[:2])
        self.tell(Asked(asker=asker, asked=asked, shown=shown))
        if self.tarot_trumps(asked):
            self.asks.append(Ask(asker=asker, asked=asked, shown=shown))
            self.ask_stage, self.asked = GIVING, asked
            return
        self.asks.append(Ask(asker=asker, asked=asked, shown=shown, unanswered=True))
        self.tell(AskUnanswered(asker=asker, asked=asked, points=UNANSWERED))
        self._turn_over()

    def _move(self, card: Card, giver: Seat, taker: Seat) -> None:
        hands = self.hand.hands
        hands[giver].remove(card)
        hands[taker] = self.rules.sort((*hands[taker], card))

    def _give(self, giver: Seat, card: Card) -> None:
        asker = self.asks[-1].asker
        self._move(card, giver, asker)
        self.asks[-1] = self.asks[-1].model_copy(update={"given": card})
        self.tell(TrumpGiven(giver=giver, asker=asker, card=card))
        self.ask_stage = RETURNING

    def _return(self, asker: Seat, card: Card) -> None:
        giver = self.asks[-1].asked
        self._move(card, asker, giver)
        self.asks[-1] = self.asks[-1].model_copy(update={"returned": card})
        self.tell(CardReturned(asker=asker, giver=giver))
        for audience in (asker, giver):
            self.tell(CardReturned(asker=asker, giver=giver, card=card, audience=audience))
        self._turn_over()

    # ----- rule 9: announcements, shown to everybody --------------------------------------------

    def _announce(self) -> None:
        for step in range(self.players):
            seat = (self.hand.leader + step) % self.players
            for kind, cards, points in combinations(self.hand.hands[seat]):
                record = Announcement(seat=seat, kind=kind, cards=cards, points=points)
                self.announcements.append(record)
                self.tell(Announced(seat=seat, kind=kind, cards=cards, points=points))

    # ----- rules 15-18: scoring ------------------------------------------------------------------

    def trick_points(self, trick: Trick) -> int | None:
        return trick_value(trick)

    def _trick_won(self, trick: Trick) -> None:
        if self.log is None:
            return
        for owner, card in trick.plays:
            if card in KINGS and owner != trick.winner:
                self.tell(KingTaken(seat=trick.winner, king=card, owner=owner, points=KING_TAKEN))

    def breakdown(self) -> list[list[int]]:
        """Per seat: [announced, asks, kings, tricks, fool] (the fields of `TarotScore`)."""
        parts = [[0, 0, 0, 0, 0] for _ in range(self.players)]
        for record in self.announcements:
            parts[record.seat][0] += record.points
        for ask in self.asks:
            if ask.unanswered:
                parts[ask.asker][1] += UNANSWERED
        for trick in self.hand.tricks:
            winner = parts[trick.winner]
            for owner, card in trick.plays:
                if card == FOOL:
                    parts[owner][4] += FOOL_POINTS
                elif card in KINGS and owner != trick.winner:
                    winner[2] += KING_TAKEN
            winner[3] += trick_value(trick)
        return parts

    def hand_totals(self) -> list[int]:
        return [sum(parts) for parts in self.breakdown()]

    def scored(self, totals: Sequence[int]) -> list[int]:
        return hand_result(totals)

    # ----- views and hidden cards ------------------------------------------------------------------

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        asking = self.phase == ASK
        breakdown = [TarotScore.of(parts) for parts in self.breakdown()]
        return super().view_fields(seat) | {
            "points": tuple(score.total for score in breakdown),
            "asks": tuple(
                ask if seat in (ask.asker, ask.asked) else ask.model_copy(update={"returned": None})
                for ask in self.asks
            ),
            "ask_round": self.ask_round,
            "ask_stage": self.ask_stage,
            "asking": self.asker() if asking else None,
            "asked": self.asked if asking and self.asked >= 0 else None,
            "announcements": tuple(self.announcements),
            "known": tuple(tuple(cards) for cards in self.known_in_hands(seat)),
            "breakdown": tuple(breakdown),
        }

    def known_in_hands(self, seat: Seat | None) -> list[list[Card]]:
        """Cards shown in asks and announcements, given, or (to the two players) given back, that
        are still in the hand they went to; nothing of `seat`'s own hand."""
        known: list[list[Card]] = [[] for _ in range(self.players)]

        def put(card: Card, owner: Seat) -> None:
            for cards in known:
                if card in cards:
                    cards.remove(card)
            known[owner].append(card)

        for ask in self.asks:
            for card in ask.shown:
                put(card, ask.asker)
            if ask.given is not None:
                put(ask.given, ask.asker)
            if ask.returned is not None and seat in (ask.asker, ask.asked):
                put(ask.returned, ask.asked)
        for record in self.announcements:
            for card in record.cards:
                if card not in known[record.seat]:
                    put(card, record.seat)
        gone = self.hand.gone
        return [
            [] if owner == seat else [card for card in cards if card not in gone]
            for owner, cards in enumerate(known)
        ]

    def excluded(self, seat: Seat | None) -> list[set[Card]]:
        """A seat that could not answer an ask holds no Tarot Trump; an announced kind shows all its
        cards, so the seat holds no other; an unannounced kind is capped below its first tier."""
        excluded: list[set[Card]] = [set() for _ in range(self.players)]
        for ask in self.asks:
            if ask.unanswered:
                excluded[ask.asked].update(TAROT_TRUMPS)
        if self.phase not in (PLAY, NEXT_HAND, OVER):
            return excluded  # nothing announced yet
        known = self.known_in_hands(seat)
        for other in range(self.players):
            if other == seat:
                continue
            held = set(known[other]).union(self.played(other))
            kinds = {record.kind for record in self.announcements if record.seat == other}
            capped = [(kind, group, tiers[-1][0]) for kind, group, tiers in COUNTED]
            capped.append(("tarot", TAROT_TRUMPS, TAROT_SET))
            for kind, group, first in capped:
                if kind in kinds or len(held.intersection(group)) >= first - 1:
                    excluded[other].update(group)
        return excluded

    def disagreement(self, seat: Seat, held: Sequence[Card]) -> int:
        """The announcements `seat` made that `held` would not make, and the ones it would make
        that `seat` did not."""
        if self.phase not in (PLAY, NEXT_HAND, OVER):
            return 0
        said = Counter((r.kind, r.cards, r.points) for r in self.announcements if r.seat == seat)
        made = Counter(combinations(held))
        return (said - made).total() + (made - said).total()


class TarotGame(TrickGame[TarotState, TarotView]):
    id = "tarot"
    state_type = TarotState
    view_type = TarotView
    table_type = TarotTable
    min_players = 2
    max_players = 3

    def _skeleton(self, view: TarotView) -> dict[str, Any]:
        return super()._skeleton(view) | {
            "ask_round": view.ask_round,
            "ask_stage": view.ask_stage,
            "asked": -1 if view.asked is None else view.asked,
            "asks": view.asks,
            "announcements": view.announcements,
        }

    def _label(self, action: Action, lang: str) -> str:
        if action == NO_ASK:
            return t(lang, "Do not ask")
        if action.startswith(ASK_CODE):
            return t(lang, "Ask player {number}", number=int(action[len(ASK_CODE) :]) + 1)
        for prefix in (GIVE, RETURN):
            if action.startswith(prefix):
                return tarot_label(action[len(prefix) :], lang)
        return super()._label(action, lang)
