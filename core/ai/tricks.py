"""The card play of the computer players of the two Tarot trick games (RULES.md, games 4 and 5).

One heuristic for both games, fed what a seat may know (`Seen`: its hand, the trick, the cards gone,
the voids its opponents showed) and each game's worth of the cards (`Style`):

- following, it wins a trick that carries points with its cheapest sure winner (a master card that
  nobody still to play can beat or trump), or the last to play with the card that banks the most;
  otherwise it follows low, and plays the Fool rather than give away a King or a Queen;
- leading, it cashes a master court card in a suit everybody still follows, else leads low from
  its longest suit, and never leads the Fool or the Magician while it has another card.

The players themselves (`core.ai.tarot`, `core.ai.minor_arcana`) add each game's discard and asks,
and the hard level searches over deals consistent with the view (`core.ai.search`) in the play, the
discard and the asks alike, with the normal player (this heuristic, the game's discard and answers)
as every seat's play-out policy, on the engine's own rules (`TrickGame.hand_simulation`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, zip_longest
from typing import Any, TypedDict

from core.ai.search import SearchPlayer, Worlds, play_out
from core.cards import Card
from core.engine import Action, Seat, Simulation
from core.trickgame import (
    CONFIRM,
    DISCARD,
    MARK,
    MARK_CODE,
    PLAY,
    PLAY_CARD,
    PLAY_CODE,
    TrickGame,
    TrickTable,
    TrickView,
)
from core.tricks import DECK, EXCUSE, FOOL, MAGICIAN, SUIT, SUITS, TRUMP, Hand, TrickRules, beats, led_suit

#: A King or a Queen: a card worth saving with the Fool.
PROTECT = 4
#: A trick worth at least this much is fought for with the best winner even when it is not sure.
CONTEST = 4


@dataclass(frozen=True)
class Style:
    """How a game's normal player values cards: what each is worth to whoever wins the trick
    holding it, and which a dealer discards."""

    rules: TrickRules
    #: Points a card brings into the trick winner's score (the Fool: 0, it goes home).
    worth: Mapping[Card, int]
    #: Whether a trick with no points is still worth a trump (Game 4: every trick scores 1).
    plain_tricks_score: bool
    #: The cards a dealer discards from, as the reading deals another dealer's discards (Game 4:
    #: the numerals; None: whatever the rules allow).
    discarded_from: frozenset[Card] | None = None
    #: How dear each card is to spend: trumps above every suit card, by strength.
    cost: dict[Card, int] = field(init=False, compare=False)
    #: Each card's rank as the card to give away: no points first, then the cheapest.
    lowness: dict[Card, tuple[int, int, Card]] = field(init=False, compare=False)
    #: Each card's rank as the winner to spend when a trick is contested: the dearest.
    dearness: dict[Card, tuple[int, Card]] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        strength = self.rules.strength
        cost = {card: 100 + strength[card] if SUIT[card] == TRUMP else strength[card] for card in DECK}
        # Sort keys as tables: the heuristic ranks cards millions of times in the play-outs.
        object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "lowness", {card: (self.worth[card], cost[card], card) for card in DECK})
        object.__setattr__(self, "dearness", {card: (cost[card], card) for card in DECK})


@dataclass(slots=True)
class Seen:
    """What a seat knows when it plays: from its view, or from a play-out's table (its own hand
    and the public cards only)."""

    seat: Seat
    players: int
    hand: Sequence[Card]
    legal: Sequence[Card]
    trick: Sequence[tuple[Seat, Card]]
    #: Cards no longer in anybody's hand that the seat knows of (played; its own discards).
    gone: Container[Card]
    #: Suits each seat showed it lacks.
    voids: Sequence[set[str]]


# ----- card knowledge ------------------------------------------------------------------------------


def is_master(card: Card, seen: Seen, rules: TrickRules) -> bool:
    """No card of its suit that could still be in another hand outranks it."""
    hand = seen.hand
    for other in rules.ranked[SUIT[card]]:
        if other == card:
            return True
        if other not in seen.gone and other not in hand:
            return False
    return True


def _trumps_out(seen: Seen, rules: TrickRules) -> bool:
    """Whether some trump could still be in another hand."""
    hand = seen.hand
    return any(card not in seen.gone and card not in hand for card in rules.ranked[TRUMP])


def _still_to_play(seen: Seen) -> list[Seat]:
    played = len(seen.trick)
    return [(seen.seat + step) % seen.players for step in range(1, seen.players - played)]


def sure_winners(winners: Sequence[Card], led: str, seen: Seen, rules: TrickRules) -> list[Card]:
    """The `winners` (cards winning the trick now) that stay winning whatever the seats still to
    play hold."""
    later = _still_to_play(seen)
    if not later:
        return list(winners)
    masters = [card for card in winners if is_master(card, seen, rules)]
    # A suit card can still be trumped by a later seat that lacks the suit.
    if (
        any(SUIT[card] != TRUMP for card in masters)
        and any(led in seen.voids[other] for other in later)
        and _trumps_out(seen, rules)
    ):
        return [card for card in masters if SUIT[card] == TRUMP]
    return masters


# ----- the heuristic -------------------------------------------------------------------------------


def choose_card(seen: Seen, style: Style) -> Card:
    legal = seen.legal
    if len(legal) == 1:
        return legal[0]
    led = led_suit(seen.trick)
    if led is None:
        return _lead(seen, style)
    return _follow(seen, style, led)


def _low(cards: Sequence[Card], style: Style) -> Card:
    """The card that gives away least: no points first, then the cheapest."""
    return min(cards, key=style.lowness.__getitem__)


def _lead(seen: Seen, style: Style) -> Card:
    rules, worth = style.rules, style.worth
    options = [card for card in seen.legal if card not in (FOOL, MAGICIAN)] or [
        card for card in seen.legal if card != FOOL
    ]
    if not options:
        return seen.legal[0]
    # Suits an opponent lacks (trumps aside): a master card there may still be trumped.
    lacked = set().union(*(suits for seat, suits in enumerate(seen.voids) if seat != seen.seat))
    lacked.discard(TRUMP)
    cash = [
        card for card in options if worth[card] and SUIT[card] not in lacked and is_master(card, seen, rules)
    ]
    if cash:
        return max(cash, key=lambda card: (worth[card], card))
    # Low from the longest suit: the others have to follow it longest, and it empties a short one last.
    length: dict[str, int] = {}
    for card in seen.hand:
        length[SUIT[card]] = length.get(SUIT[card], 0) + 1
    plain = [card for card in options if SUIT[card] != TRUMP] or options
    cost = style.cost
    return min(plain, key=lambda card: (worth[card] > 0, -length[SUIT[card]], cost[card], card))


def _follow(seen: Seen, style: Style, led: str) -> Card:
    rules, worth = style.rules, style.worth
    best = _winning(seen.trick, rules)
    value = sum(worth[card] for _, card in seen.trick)
    playable = [card for card in seen.legal if card != FOOL]
    # `beats` inlined: the card winning so far is a trump or of the suit led.
    strength, above = rules.strength, rules.strength[best]
    if SUIT[best] == TRUMP:
        winners = [card for card in playable if SUIT[card] == TRUMP and strength[card] > above]
    else:
        winners = [
            card for card in playable if SUIT[card] == TRUMP or (SUIT[card] == led and strength[card] > above)
        ]
    if winners:
        sure = sure_winners(winners, led, seen, rules)
        if sure:
            # Bank the most points; between equals spend the cheapest.
            cost = style.cost
            pick = max(sure, key=lambda card: (worth[card], -cost[card]))
            if value + worth[pick] > 0 or style.plain_tricks_score or SUIT[pick] != TRUMP:
                return pick
        elif value >= CONTEST:
            return max(winners, key=style.dearness.__getitem__)
    low = _low(playable or seen.legal, style)
    if FOOL in seen.legal and (not playable or worth[low] >= PROTECT):
        return FOOL
    return low


def _winning(trick: Sequence[tuple[Seat, Card]], rules: TrickRules) -> Card:
    led = led_suit(trick)
    best: Card | None = None
    for _, card in trick:
        if SUIT[card] == EXCUSE:
            continue
        if best is None or (led is not None and beats(card, best, led, rules.strength)):
            best = card
    assert best is not None
    return best


# ----- seen from a view, or from a play-out table ---------------------------------------------------


def seen_from_view(view: TrickView, legal: Sequence[Action], rules: TrickRules) -> Seen:
    assert view.seat is not None and view.hand is not None
    gone: set[Card] = {card for done in view.tricks for _, card in done.plays}
    gone.update(card for _, card in view.trick)
    gone.update(view.discards or ())
    hand = Hand(
        rules=rules,
        players=view.players,
        dealer=view.dealer,
        hands=[[] for _ in range(view.players)],
        trick=list(view.trick),
        tricks=list(view.tricks),
    )
    return Seen(
        seat=view.seat,
        players=view.players,
        hand=view.hand,
        legal=[action[len(PLAY_CARD) :] for action in legal],
        trick=view.trick,
        gone=gone,
        voids=hand.voids(),
    )


def seen_from_table(table: TrickTable, seat: Seat, playable: Sequence[Card]) -> Seen:
    hand = table.hand
    # The dealer knows its discards are gone, as in its view.
    gone = hand.gone.union(hand.discards) if seat == hand.dealer and hand.discards else hand.gone
    return Seen(
        seat=seat,
        players=table.players,
        hand=hand.hands[seat],
        legal=playable,
        trick=hand.trick,
        gone=gone,
        voids=hand.voids(),
    )


def table_view(game: TrickGame[Any, Any], table: TrickTable, seat: Seat) -> Any:
    """`seat`'s view of a play-out's table, for a game's own decisions there (unchecked: the table
    is the engine's own)."""
    fields = table.view_fields(seat)
    fields["to_move"] = table.to_move()
    fields["outcome"] = None
    return game.view_type.model_construct(**fields)


class PlayOuts:
    """The normal player as the search's play-out policy, for every seat: the heuristic in the play,
    the game's first-ranked answer in its own phase (Game 4's asks, met by play-outs from the
    discard or the asks; at random without `rank`). The `searcher`, if set, plays the heuristic
    knowing the sampled world's hands (which cards can still beat its own, who lacks a suit): a
    candidate is judged by the best the seat could make of it, not by its blind guesses."""

    def __init__(
        self, style: Style, game: TrickGame[Any, Any] | None = None, rank: Rank | None = None
    ) -> None:
        self.style = style
        self.game = game
        self.rank = rank
        self.searcher: Seat | None = None

    def __call__(self, sim: Simulation, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        assert isinstance(sim, TrickTable)
        if sim.phase == PLAY:
            return PLAY_CODE[self.card(sim, seat, [action[len(PLAY_CARD) :] for action in legal])]
        if self.rank is None or self.game is None or sim.phase == DISCARD:
            return rng.choice(list(legal))
        return self.rank(table_view(self.game, sim, seat), tuple(legal))[0]

    def card(self, table: TrickTable, seat: Seat, playable: Sequence[Card]) -> Card:
        """The card `seat` plays among `playable` (two or more) in a play-out."""
        seen = seen_from_table(table, seat, playable)
        if seat == self.searcher:
            seen = seen_knowing(seen, table)
        return choose_card(seen, self.style)

    def play_out(self, sim: Simulation, rng: random.Random, max_moves: int) -> int:
        """`core.ai.search.play_out` with this policy: the same moves, the card play straight on the
        hand (no action strings: the play-outs play millions of cards)."""
        assert isinstance(sim, TrickTable)
        moves = 0
        while moves < max_moves:
            if sim.phase != PLAY:
                if not play_out(sim, self, rng, 1):
                    return moves
            else:
                seat = sim.hand.turn()
                playable = sim.hand.playable(seat)
                sim.play_card(seat, playable[0] if len(playable) == 1 else self.card(sim, seat, playable))
            moves += 1
        return moves


def seen_knowing(seen: Seen, table: TrickTable) -> Seen:
    """`seen` with every card outside the other hands gone and every suit a hand lacks a void."""
    hands = table.hand.hands
    seen.gone = _DECK.difference(*(cards for other, cards in enumerate(hands) if other != seen.seat))
    seen.voids = [set(_PLAIN_SUITS.difference(map(SUIT.__getitem__, cards))) for cards in hands]
    return seen


_DECK = frozenset(DECK)
_PLAIN_SUITS = frozenset((*SUITS, TRUMP))


# ----- the discard, shared -------------------------------------------------------------------------


def discard_step(view: TrickView, legal: Sequence[Action], wanted: Sequence[Card]) -> Action:
    """One step towards discarding `wanted`: unmark a card not wanted, mark a wanted one, confirm."""
    marks = set(view.marks)
    for card in view.marks:
        if card not in wanted:
            return MARK + card
    for card in wanted:
        if card not in marks and MARK + card in legal:
            return MARK + card
    return CONFIRM if CONFIRM in legal else legal[0]


# ----- the players ---------------------------------------------------------------------------------

#: A game's discard: the first `count` cards the dealer's view would discard, best first (the normal
#: player discards the first `view.to_discard`; the hard one searches among a few more).
Discard = Callable[[Any, int], Sequence[Card]]
#: A game's own phase (Game 4's asks): the legal answers, best first (the normal player's is the first).
Rank = Callable[[Any, tuple[Action, ...]], Sequence[Action]]


class EasyTrickPlayer:
    """Legal and cheap: a random card, a random discard, a random answer."""

    def choose(self, view: TrickView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.phase == DISCARD:
            if CONFIRM in legal:
                return CONFIRM
            return rng.choice([action for action in legal if action[len(MARK) :] not in view.marks])
        return rng.choice(legal)


class NormalTrickPlayer:
    """The heuristic: `choose_card` in the play, the game's own discard and decisions elsewhere."""

    def __init__(self, style: Style, discard: Discard, rank: Rank | None = None) -> None:
        self.style = style
        self.discard = discard
        self.rank = rank

    def choose(self, view: Any, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.phase == PLAY:
            return heuristic_play(view, legal, self.style)
        if view.phase == DISCARD:
            return discard_step(view, legal, self.discard(view, view.to_discard))
        if self.rank is None:
            raise ValueError(f"no decision for the phase {view.phase!r}")
        return self.rank(view, legal)[0]


def heuristic_play(view: TrickView, legal: Sequence[Action], style: Style) -> Action:
    return PLAY_CODE[choose_card(seen_from_view(view, legal, style.rules), style)]


def _equivalents(seen: Seen, style: Style) -> list[list[Card]]:
    """The legal cards with one stand-in for each run of cards that play alike (same suit, no
    points, and no card between them that someone else could still play), suit by suit, each
    suit's strongest first."""
    legal = set(seen.legal)
    suits: list[list[Card]] = []
    for suit_cards in (*style.rules.ranked.values(), [FOOL]):
        kept: list[Card] = []
        joined = False
        for card in suit_cards:
            if card in legal:
                if not (joined and not style.worth[card] and not style.worth[kept[-1]]):
                    kept.append(card)
                joined = True
            elif card not in seen.gone and card not in seen.hand:
                joined = False
        suits.append(kept)
    return suits


def across_suits(suits: Sequence[Sequence[Card]], style: Style) -> list[Card]:
    """The cards of `suits` (each suit's strongest first) in turns across the suits: every suit's
    lowest card, then every suit's highest, then the next lowest and the next highest, each turn
    the dearest first. A shortlist cut short keeps a choice in every suit instead of every card of
    the first suits."""
    # Within a suit: its last (lowest) card, its first, the one before the last, the second, ...
    ends = [[held[-1 - n // 2] if n % 2 == 0 else held[n // 2] for n in range(len(held))] for held in suits]
    turns = ([card for card in turn if card is not None] for turn in zip_longest(*ends))
    return [card for turn in turns for card in sorted(turn, key=style.dearness.__getitem__, reverse=True)]


def discard_options(ranked: Sequence[Card], count: int, marked: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The discards of `count` cards that keep every card already `marked` and take the rest among
    `ranked` (cheapest to shed first), the ones made of the cheapest cards first: the normal
    player's discard first, each option's marked cards first and then its cheapest."""
    fixed = tuple(marked)
    free = [card for card in ranked if card not in fixed]
    position = {card: number for number, card in enumerate(free)}
    options = [(*fixed, *rest) for rest in combinations(free, count - len(fixed))]
    return sorted(options, key=lambda cards: sum(position.get(card, 0) for card in cards))


#: Search settings both games share: sampled deals per decision, candidates searched, and how much
#: better per world another choice must do to replace the normal player's.
MAX_WORLDS = 40
MAX_CANDIDATES = 8
KEEP_FIRST = 0.03


class SearchSettings(TypedDict, total=False):
    """The shared search settings a game's `hard()` passes on when a benchmark varies them
    (`python -m benchmarks tarot --candidates ...`); left out, the defaults above."""

    max_candidates: int
    keep_first: float


class HardTrickPlayer(NormalTrickPlayer):
    """The normal player, whose every decision with a choice is the generic determinized search
    (`core.ai.search`) among a shortlist with the normal player's choice first: in the play the
    heuristic's card and the cards that play differently (taken in turns across the suits, so that
    a lead from a long hand weighs a card of every suit), in the discard the normal discard and its
    variants among a few more cheap cards, in a game's own phase its best-ranked answers. Every seat
    plays the normal player in the play-outs, which stop at the end of the hand. The budgets count
    simulated moves, not seconds, so a seeded table replays the same decisions (unless a think limit
    cuts a search short, `core.ai.search.thinking_within`)."""

    def __init__(
        self,
        game: TrickGame[Any, Any],
        style: Style,
        discard: Discard,
        rank: Rank | None = None,
        *,
        budget: int,
        discard_times: float,
        discard_spread: int,
        max_worlds: int = MAX_WORLDS,
        max_candidates: int = MAX_CANDIDATES,
        keep_first: float = KEEP_FIRST,
        worlds: Worlds | None = None,
    ) -> None:
        super().__init__(style, discard, rank)
        self.max_candidates = max_candidates
        #: The discard is searched once a hand: it may spend `discard_times` a card's budget.
        self.discard_budget = round(budget * discard_times)
        self.discard_spread = discard_spread
        #: The last discard searched, by the view it was searched for.
        self._planned: tuple[tuple[Any, ...], Sequence[Card]] | None = None
        self.play_outs = PlayOuts(style, game, rank)
        self.search = SearchPlayer(
            game,
            self.play_outs,
            candidates=self._shortlist,
            budget=budget,
            max_worlds=max_worlds,
            keep_first=keep_first,
            simulate=game.hand_simulation,
            worlds=worlds,
            fast_play_out=self.play_outs.play_out,
        )

    def _shortlist(self, view: TrickView, legal: tuple[Action, ...]) -> list[Action]:
        first = heuristic_play(view, legal, self.style)
        seen = seen_from_view(view, legal, self.style.rules)
        spread = across_suits(_equivalents(seen, self.style), self.style)
        others = [PLAY_CODE[card] for card in spread if PLAY_CODE[card] != first]
        return [first, *others][: self.max_candidates]

    def choose(self, view: Any, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        self.play_outs.searcher = view.seat
        if view.phase == PLAY:
            return self.search.choose(view, legal, rng)
        if view.phase == DISCARD:
            return discard_step(view, legal, self._discard_plan(view, rng))
        if self.rank is not None:
            shortlist = list(self.rank(view, legal))[: self.max_candidates]
            seat = view.seat
            return self.search.best(view, seat, shortlist, lambda sim, action: sim.apply(seat, action), rng)
        return super().choose(view, legal, rng)

    def _discard_plan(self, view: TrickView, rng: random.Random) -> Sequence[Card]:
        """The discard to head for, searched at the first mark among the discards that keep the
        cards marked so far (a discard begun elsewhere is finished, not redone) and kept for the
        marks and the confirmation after it."""
        key = (view.seat, view.hand, view.discards)
        if self._planned is not None and self._planned[0] == key:
            return self._planned[1]
        count, seat = view.to_discard, view.seat
        assert seat is not None
        ranked = self.discard(view, count + self.discard_spread)
        options = discard_options(ranked, count, view.marks)[: self.max_candidates]

        def apply(sim: Simulation, cards: tuple[Card, ...]) -> None:
            assert isinstance(sim, TrickTable)
            for card in (*(card for card in sim.hand.marks if card not in cards), *cards):
                if card not in sim.hand.marks or card not in cards:
                    sim.apply(seat, MARK_CODE[card])
            sim.apply(seat, CONFIRM)

        plan = self.search.best(view, seat, options, apply, rng, budget=self.discard_budget)
        self._planned = (key, plan)
        return plan
