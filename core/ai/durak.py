"""Computer players for Durak (RULES.md, games 6 and 7), each seeing only its own `DurakView`.

- `EasyDurakPlayer` plays the cheapest legal card, takes rather than spend a trump, rarely throws in.
- `NormalDurakPlayer` is a hand-tuned heuristic: it keeps trumps and high cards, leads low cards and
  pairs, beats with the cheapest card, takes a cheap table early rather than spend a high trump,
  transfers with spare cards and throws junk in, harder once the talon is empty.
- `HardDurakPlayer` samples deals consistent with its view (`DurakGame.sample`), plays every candidate
  action out in each of them with the normal heuristic for all four seats, and picks the action that
  least often ends with it as the fool.

The play-outs run on `_Sim`, a lean mutable copy of the engine's rules on card numbers: the pydantic
engine costs about 200 µs per action, far too slow for hundreds of play-outs per decision. The tests
check move by move that `_Sim` and the engine agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.cards import deck36
from core.engine import Action, Seat
from core.games.durak import (
    ATTACK,
    BEAT,
    HAND,
    MAX_ATTACKS,
    PASS,
    TAKE,
    TRANSFER,
    DurakGame,
    DurakState,
    DurakView,
    TransferDurakGame,
)

# ----- cards as numbers: suit * 9 + rank, ranks 0 (six) to 8 (ace), suits in deck36 order --------

CARDS: tuple[str, ...] = deck36()
INDEX: dict[str, int] = {card: number for number, card in enumerate(CARDS)}
SUIT: tuple[int, ...] = tuple(number // 9 for number in range(len(CARDS)))
RANK: tuple[int, ...] = tuple(number % 9 for number in range(len(CARDS)))
NO_CARD = -1

#: Move kinds; a move is (kind, card number), with NO_CARD for take and pass.
LAY, COVER, SHIFT, PICK, DONE = range(5)
Move = tuple[int, int]
_CODES: dict[int, str] = {LAY: ATTACK, COVER: BEAT, SHIFT: TRANSFER}
_KINDS: dict[str, int] = {ATTACK: LAY, BEAT: COVER, TRANSFER: SHIFT}

#: A trump is worth more than any plain card: value = rank, + TRUMP_BONUS for a trump.
TRUMP_BONUS = 10
NINE, TEN, JACK, ACE = 3, 4, 5, 8


def parse_action(action: Action) -> Move:
    if action == TAKE:
        return PICK, NO_CARD
    if action == PASS:
        return DONE, NO_CARD
    return _KINDS[action[:2]], INDEX[action[2:]]


def action_code(move: Move) -> Action:
    kind, card = move
    if kind == PICK:
        return TAKE
    if kind == DONE:
        return PASS
    return _CODES[kind] + CARDS[card]


def beats(defence: int, attack: int, trump: int) -> bool:
    if SUIT[defence] == SUIT[attack]:
        return defence > attack
    return SUIT[defence] == trump


def value(card: int, trump: int) -> int:
    return RANK[card] + (TRUMP_BONUS if SUIT[card] == trump else 0)


# ----- what a seat sees, in card numbers -----------------------------------------------------------


@dataclass(slots=True)
class _Obs:
    """The part of a view the heuristics read; built from a real view or from a play-out."""

    hand: list[int]
    table: list[tuple[int, int]]
    trump: int
    talon: int
    #: Cards in the defender's hand.
    defending: int
    taking: bool
    limit: int

    @classmethod
    def from_view(cls, view: DurakView) -> _Obs:
        assert view.hand is not None and view.trump is not None and view.defender is not None
        return cls(
            hand=[INDEX[card] for card in view.hand],
            table=[(INDEX[a], NO_CARD if d is None else INDEX[d]) for a, d in view.table],
            trump=SUIT[INDEX[view.trump]],
            talon=view.talon,
            defending=view.counts[view.defender],
            taking=view.taking,
            limit=view.limit,
        )


# ----- the heuristics --------------------------------------------------------------------------------


def _cards(legal: Sequence[Move], kind: int) -> list[int]:
    return [card for k, card in legal if k == kind]


def _beat_plan(hand: Sequence[int], table: Sequence[tuple[int, int]], trump: int) -> list[int] | None:
    """The cheapest beater for each unbeaten card, oldest first (greedy), or None if one is missing."""
    left = sorted(hand, key=lambda card: value(card, trump))
    plan = []
    for attack, defence in table:
        if defence != NO_CARD:
            continue
        beater = next((card for card in left if beats(card, attack, trump)), None)
        if beater is None:
            return None
        left.remove(beater)
        plan.append(beater)
    return plan


def normal_move(obs: _Obs, legal: Sequence[Move]) -> Move:
    if not obs.table:
        return _lead(obs, legal)
    if any(kind == PICK for kind, _ in legal):
        return _defend(obs, legal)
    return _throw(obs, legal)


def _lead(obs: _Obs, legal: Sequence[Move]) -> Move:
    """Low plain cards first, a rank held several times sooner (the copies can follow as throw-ins),
    and more so once the talon is empty and every card shed counts."""
    trump = obs.trump
    per_rank = [0] * 9
    for card in obs.hand:
        if SUIT[card] != trump:
            per_rank[RANK[card]] += 1
    bonus = 4 if obs.talon == 0 else 2

    def cost(card: int) -> int:
        copies = per_rank[RANK[card]] if SUIT[card] != trump else 1
        return value(card, trump) - bonus * (min(copies, obs.limit) - 1)

    return LAY, min(_cards(legal, LAY), key=cost)


def _defend(obs: _Obs, legal: Sequence[Move]) -> Move:
    trump = obs.trump
    transfers = sorted(_cards(legal, SHIFT), key=lambda card: value(card, trump))
    # A plain card of the rank passes the whole table on and sheds a card: nearly always worth it.
    if transfers and SUIT[transfers[0]] != trump:
        return SHIFT, transfers[0]
    plan = _beat_plan(obs.hand, obs.table, trump)
    if plan is None:
        if transfers and (obs.talon == 0 or RANK[transfers[0]] <= TEN):
            return SHIFT, transfers[0]
        return PICK, NO_CARD
    if obs.talon > 2 and _too_dear(plan, obs.table, trump):
        return PICK, NO_CARD
    return COVER, plan[0]


def _too_dear(plan: Sequence[int], table: Sequence[tuple[int, int]], trump: int) -> bool:
    """Early on, a high trump (or two trumps) is worth more than a couple of low plain cards taken."""
    trumps = [card for card in plan if SUIT[card] == trump]
    dear = len(trumps) >= 2 or any(RANK[card] >= JACK for card in trumps)
    cheap = len(table) <= 2 and all(SUIT[attack] != trump and RANK[attack] <= TEN for attack, _ in table)
    return dear and cheap


def _throw(obs: _Obs, legal: Sequence[Move]) -> Move:
    """Throw plain junk in: more of it when the defender takes (it all goes to them) or once the talon
    is empty (every card shed brings going out nearer); keep trumps."""
    trump = obs.trump
    if obs.talon == 0:
        ceiling = ACE
    elif obs.taking:
        ceiling = JACK
    else:
        ceiling = NINE if obs.defending > 2 else JACK
    junk = [card for card in _cards(legal, LAY) if SUIT[card] != trump and RANK[card] <= ceiling]
    if junk:
        return LAY, min(junk, key=RANK.__getitem__)
    return DONE, NO_CARD


def easy_move(obs: _Obs, legal: Sequence[Move], rng: random.Random) -> Move:
    trump = obs.trump
    if not obs.table:
        return LAY, min(_cards(legal, LAY), key=lambda card: value(card, trump))
    if any(kind == PICK for kind, _ in legal):
        beaters = sorted(_cards(legal, COVER), key=lambda card: value(card, trump))
        if beaters and (SUIT[beaters[0]] != trump or obs.talon == 0 or RANK[beaters[0]] <= NINE):
            return COVER, beaters[0]
        return PICK, NO_CARD
    junk = [card for card in _cards(legal, LAY) if SUIT[card] != trump and RANK[card] <= NINE]
    if junk and rng.random() < 0.3:
        return LAY, min(junk, key=RANK.__getitem__)
    return DONE, NO_CARD


# ----- a lean copy of the engine's rules for play-outs ----------------------------------------------


class _Sim:
    """A mutable Durak state on card numbers, following `DurakGame` rule for rule (no history,
    discard or knowledge: a play-out needs none)."""

    __slots__ = (
        "attacker",
        "bout",
        "defender",
        "five",
        "fool",
        "hands",
        "lead",
        "limit",
        "out",
        "over",
        "pagat",
        "passes",
        "players",
        "table",
        "taking",
        "talon",
        "transfer",
        "trump",
    )

    def __init__(self, state: DurakState) -> None:
        assert state.trump is not None
        self.players = state.players
        self.hands = [[INDEX[card] for card in hand] for hand in state.hands]
        self.talon = [INDEX[card] for card in state.talon]
        self.trump = SUIT[INDEX[state.trump]]
        self.table = [(INDEX[a], NO_CARD if d is None else INDEX[d]) for a, d in state.table]
        self.attacker = state.attacker
        self.defender = state.defender
        self.lead = state.lead
        self.passes = list(state.passes)
        self.taking = state.taking
        self.limit = state.limit
        self.bout = state.bout
        self.out = list(state.out)
        self.over = state.over
        self.fool = NO_CARD if state.fool is None else state.fool
        self.transfer = state.game == TransferDurakGame.id
        self.five = bool(state.options["first_bout_five"])
        self.pagat = bool(state.options["pagat_draw"])

    def copy(self) -> _Sim:
        other = _Sim.__new__(_Sim)
        for name in _Sim.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [hand[:] for hand in self.hands]
        other.talon = self.talon[:]
        other.table = self.table[:]
        other.passes = self.passes[:]
        other.out = self.out[:]
        return other

    # rule helpers, as in DurakGame

    def cap(self) -> int:
        return MAX_ATTACKS - 1 if self.five and self.bout == 0 else MAX_ATTACKS

    def next_with_cards(self, seat: Seat) -> Seat:
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if self.hands[other]:
                return other
        return NO_CARD

    def oldest(self) -> int:
        for number, (_, defence) in enumerate(self.table):
            if defence == NO_CARD:
                return number
        return NO_CARD

    def holder(self) -> Seat:
        if not self.table or len(self.table) >= self.limit:
            return NO_CARD
        for step in range(self.players):
            seat = (self.lead + step) % self.players
            if seat != self.defender and self.hands[seat] and seat not in self.passes:
                return seat
        return NO_CARD

    def movers(self) -> list[Seat]:
        if self.over:
            return []
        if not self.table:
            return [self.attacker]
        seats = [self.defender] if not self.taking and self.oldest() != NO_CARD else []
        holder = self.holder()
        if holder != NO_CARD:
            seats.append(holder)
        return sorted(seats)

    def can_transfer(self) -> bool:
        if not self.transfer or any(defence != NO_CARD for _, defence in self.table):
            return False
        count = len(self.table) + 1
        following = self.next_with_cards(self.defender)
        return following != NO_CARD and count <= self.cap() and count <= len(self.hands[following])

    def legal(self, seat: Seat) -> list[Move]:
        hand = self.hands[seat]
        if not self.table:
            return [(LAY, card) for card in hand]
        if seat == self.defender:
            oldest = self.oldest()
            if self.taking or oldest == NO_CARD:
                return []
            target = self.table[oldest][0]
            moves = [(COVER, card) for card in hand if beats(card, target, self.trump)]
            moves.append((PICK, NO_CARD))
            if self.can_transfer():
                moves += [(SHIFT, card) for card in hand if RANK[card] == RANK[target]]
            return moves
        ranks = {RANK[card] for pair in self.table for card in pair if card != NO_CARD}
        return [(LAY, card) for card in hand if RANK[card] in ranks] + [(DONE, NO_CARD)]

    def observe(self, seat: Seat) -> _Obs:
        return _Obs(
            hand=self.hands[seat],
            table=self.table,
            trump=self.trump,
            talon=len(self.talon),
            defending=len(self.hands[self.defender]),
            taking=self.taking,
            limit=self.limit,
        )

    # applying moves, as DurakGame._apply

    def apply(self, seat: Seat, move: Move) -> None:
        kind, card = move
        if kind == DONE:
            self.passes.append(seat)
        elif kind == PICK:
            self.taking = True
            self.passes = []
        else:
            self._play(seat, kind, card)
        if (self.taking or self.oldest() == NO_CARD) and self.holder() == NO_CARD:
            self._end_bout()

    def _play(self, seat: Seat, kind: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.passes = []
        if kind == COVER:
            oldest = self.oldest()
            self.table[oldest] = (self.table[oldest][0], card)
        else:
            if kind == SHIFT:
                following = self.next_with_cards(seat)
                self.defender = following
                self.lead = seat
                self.limit = min(self.cap(), len(self.hands[following]))
            self.table.append((card, NO_CARD))
        if not self.talon and not hand and seat not in self.out:
            self.out.append(seat)

    def _end_bout(self) -> None:
        players, hands, defender = self.players, self.hands, self.defender
        if self.taking:
            hands[defender] += [card for pair in self.table for card in pair if card != NO_CARD]
        order = [(self.attacker + step) % players for step in range(players)]
        if self.pagat:
            order.remove(defender)
            order.append(defender)
        talon = self.talon
        for seat in order:
            need = HAND - len(hands[seat])
            if need > 0 and talon:
                hands[seat] += talon[:need]
                del talon[:need]
        self.table = []
        if not talon:
            self.out += [seat for seat in order if not hands[seat] and seat not in self.out]
        holding = [seat for seat in range(players) if hands[seat]]
        if len(holding) <= 1:
            self.over = True
            self.fool = holding[0] if holding else NO_CARD
            self.taking = False
            self.passes = []
            return
        attacker = defender if not self.taking and hands[defender] else self.next_with_cards(defender)
        self.bout += 1
        self.attacker = self.lead = attacker
        self.defender = self.next_with_cards(attacker)
        self.passes = []
        self.taking = False
        self.limit = min(self.cap(), len(hands[self.defender]))

    def play_out(self, policy: Callable[[_Obs, Sequence[Move]], Move], rng: random.Random) -> int:
        """Play to the end with `policy` for every seat; returns the moves made. When the defender and
        a thrower may both act, either goes first, as at a real table."""
        moves = 0
        while not self.over and moves < PLAY_OUT_CAP:
            seats = self.movers()
            seat = seats[0] if len(seats) == 1 else seats[rng.random() < 0.5]
            legal = self.legal(seat)
            self.apply(seat, legal[0] if len(legal) == 1 else policy(self.observe(seat), legal))
            moves += 1
        return moves


#: No sensible play-out comes near this many moves; it only guards against a policy that stalls.
PLAY_OUT_CAP = 2000


#: The engine that samples a view's worlds, by whether the view's game has transfers.
_GAMES: dict[bool, DurakGame] = {False: DurakGame(), True: TransferDurakGame()}


# ----- the players -----------------------------------------------------------------------------------


class EasyDurakPlayer:
    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return action_code(easy_move(_Obs.from_view(view), [parse_action(action) for action in legal], rng))


class NormalDurakPlayer:
    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return action_code(normal_move(_Obs.from_view(view), [parse_action(action) for action in legal]))


#: Simulated moves per hard decision: about 100 ms of one core.
DEFAULT_BUDGET = 12_000


class HardDurakPlayer:
    """Determinized play-outs: every sampled world plays out every candidate once (the same world and
    the same random stream for each candidate, so their scores differ by the action alone).

    `budget` caps the simulated moves per decision (about 8 µs of CPU each: benchmarks/durak.py
    measures it); counting moves instead of reading a clock keeps a seeded game reproducible.
    """

    def __init__(self, budget: int = DEFAULT_BUDGET, max_worlds: int = 64, max_candidates: int = 6) -> None:
        self.budget = budget
        self.max_worlds = max_worlds
        self.max_candidates = max_candidates

    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        obs = _Obs.from_view(view)
        moves = [parse_action(action) for action in legal]
        default = normal_move(obs, moves)
        candidates = self._candidates(obs, moves, default)
        if len(candidates) == 1:
            return action_code(default)
        scores = [0] * len(candidates)
        spent = worlds = 0
        while spent < self.budget and worlds < self.max_worlds:
            world = _Sim(_GAMES[view.transfer].sample(view, rng))
            seed = rng.getrandbits(32)
            for number, move in enumerate(candidates):
                sim = world.copy()
                sim.apply(view.seat, move)
                spent += 1 + sim.play_out(normal_move, random.Random(seed))
                scores[number] += sim.fool != view.seat
            worlds += 1
        # Ties go to the earlier candidate: the heuristic's own choice first, then the cheaper cards.
        best = max(range(len(candidates)), key=lambda n: (scores[n], -n))
        return action_code(candidates[best])

    def _candidates(self, obs: _Obs, moves: list[Move], default: Move) -> list[Move]:
        """The moves worth searching, the heuristic's first: cheaper cards stand for dearer ones of
        the same kind (the lowest card of each suit, the cheapest plain and trump beaters)."""
        trump = obs.trump
        picked = [default]
        by_value = sorted(moves, key=lambda move: (move[0], value(move[1], trump) if move[1] >= 0 else 0))
        seen_groups: set[tuple[int, int, bool]] = set()
        for kind, card in by_value:
            # One candidate per (kind, suit) for attacks, per (kind, trump or not) for beats and transfers.
            if card == NO_CARD:
                group = (kind, -1, False)
            elif kind == LAY:
                group = (kind, SUIT[card], False)
            else:
                group = (kind, -1, SUIT[card] == trump)
            if group in seen_groups:
                continue
            seen_groups.add(group)
            if (kind, card) != default:
                picked.append((kind, card))
        return picked[: self.max_candidates]
