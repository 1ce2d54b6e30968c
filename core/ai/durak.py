"""Computer players for Durak (RULES.md, games 6 and 7), each seeing only its own `DurakView`.

- `EasyDurakPlayer` plays the cheapest legal card, takes rather than spend a trump, rarely throws in.
- `NormalDurakPlayer` is a hand-tuned heuristic: it keeps trumps and high cards, leads low cards and
  pairs, beats with the cheapest card, takes a cheap table early rather than spend a high trump,
  transfers with spare cards and throws junk in, harder once the talon is empty.
- `HardDurakPlayer` is the generic determinized search (`core/ai/search.py`): it samples deals
  consistent with its view, plays a few candidate actions out in each with the normal heuristic for
  all four seats, on the engine's own rules board (`DurakGame.simulation`), and picks the action that
  least often ends with it as the fool.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from core.ai.search import SearchPlayer
from core.cards import Card
from core.engine import Action, Seat, Simulation
from core.games.durak import (
    ATTACK,
    BEAT,
    PASS,
    TAKE,
    TRANSFER,
    DurakBoard,
    DurakGame,
    DurakView,
    TransferDurakGame,
    beats,
)
from core.games.durak_rules import CARD_RANK

#: A trump is worth more than any plain card: value = rank, + TRUMP_BONUS for a trump.
TRUMP_BONUS = 10
NINE, TEN, JACK, ACE = 9, 10, 11, 14


def value(card: Card, trump: str) -> int:
    return CARD_RANK[card] + (TRUMP_BONUS if card[-1] == trump else 0)


# ----- what a seat sees ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Obs:
    """The part of a position the heuristics read: from a seat's view, or from a play-out board."""

    hand: Sequence[Card]
    table: Sequence[tuple[Card, Card | None]]
    #: The trump suit.
    trump: str
    talon: int
    #: Cards in the defender's hand.
    defending: int
    taking: bool
    limit: int

    @classmethod
    def from_view(cls, view: DurakView) -> _Obs:
        assert view.hand is not None and view.trump is not None and view.defender is not None
        return cls(
            view.hand,
            view.table,
            view.trump[-1],
            view.talon,
            view.counts[view.defender],
            view.taking,
            view.limit,
        )

    @classmethod
    def from_board(cls, board: DurakBoard, seat: Seat) -> _Obs:
        return cls(
            board.hands[seat],
            board.table,
            board.suit,
            len(board.talon),
            len(board.hands[board.defender]),
            board.taking,
            board.limit,
        )


# ----- the heuristics --------------------------------------------------------------------------------


def _cards(legal: Sequence[Action], kind: str) -> list[Card]:
    return [action[2:] for action in legal if action[:2] == kind]


def _beat_plan(
    hand: Sequence[Card], table: Sequence[tuple[Card, Card | None]], trump: str
) -> list[Card] | None:
    """The cheapest beater for each unbeaten card, oldest first (greedy), or None if one is missing."""
    left = sorted(hand, key=lambda card: value(card, trump))
    plan = []
    for attack, defence in table:
        if defence is not None:
            continue
        beater = next((card for card in left if beats(card, attack, trump)), None)
        if beater is None:
            return None
        left.remove(beater)
        plan.append(beater)
    return plan


def normal_move(obs: _Obs, legal: Sequence[Action]) -> Action:
    if not obs.table:
        return _lead(obs, legal)
    if TAKE in legal:
        return _defend(obs, legal)
    return _throw(obs, legal)


def _lead(obs: _Obs, legal: Sequence[Action]) -> Action:
    """Low plain cards first, a rank held several times sooner (the copies can follow as throw-ins),
    and more so once the talon is empty and every card shed counts."""
    trump = obs.trump
    per_rank: dict[int, int] = {}
    for card in obs.hand:
        if card[-1] != trump:
            per_rank[CARD_RANK[card]] = per_rank.get(CARD_RANK[card], 0) + 1
    bonus = 4 if obs.talon == 0 else 2

    def cost(card: Card) -> int:
        copies = per_rank[CARD_RANK[card]] if card[-1] != trump else 1
        return value(card, trump) - bonus * (min(copies, obs.limit) - 1)

    return ATTACK + min(_cards(legal, ATTACK), key=cost)


def _defend(obs: _Obs, legal: Sequence[Action]) -> Action:
    trump = obs.trump
    transfers = sorted(_cards(legal, TRANSFER), key=lambda card: value(card, trump))
    # A plain card of the rank passes the whole table on and sheds a card: nearly always worth it.
    if transfers and transfers[0][-1] != trump:
        return TRANSFER + transfers[0]
    plan = _beat_plan(obs.hand, obs.table, trump)
    if plan is None:
        if transfers and (obs.talon == 0 or CARD_RANK[transfers[0]] <= TEN):
            return TRANSFER + transfers[0]
        return TAKE
    if obs.talon > 2 and _too_dear(plan, obs.table, trump):
        return TAKE
    return BEAT + plan[0]


def _too_dear(plan: Sequence[Card], table: Sequence[tuple[Card, Card | None]], trump: str) -> bool:
    """Early on, a high trump (or two trumps) is worth more than a couple of low plain cards taken."""
    trumps = [card for card in plan if card[-1] == trump]
    dear = len(trumps) >= 2 or any(CARD_RANK[card] >= JACK for card in trumps)
    cheap = len(table) <= 2 and all(attack[-1] != trump and CARD_RANK[attack] <= TEN for attack, _ in table)
    return dear and cheap


def _throw(obs: _Obs, legal: Sequence[Action]) -> Action:
    """Throw plain junk in: more of it when the defender takes (it all goes to them) or once the talon
    is empty (every card shed brings going out nearer); keep trumps."""
    trump = obs.trump
    if obs.talon == 0:
        ceiling = ACE
    elif obs.taking:
        ceiling = JACK
    else:
        ceiling = NINE if obs.defending > 2 else JACK
    junk = [card for card in _cards(legal, ATTACK) if card[-1] != trump and CARD_RANK[card] <= ceiling]
    if junk:
        return ATTACK + min(junk, key=CARD_RANK.__getitem__)
    return PASS


def easy_move(obs: _Obs, legal: Sequence[Action], rng: random.Random) -> Action:
    trump = obs.trump
    if not obs.table:
        return ATTACK + min(_cards(legal, ATTACK), key=lambda card: value(card, trump))
    if TAKE in legal:
        beaters = sorted(_cards(legal, BEAT), key=lambda card: value(card, trump))
        if beaters and (beaters[0][-1] != trump or obs.talon == 0 or CARD_RANK[beaters[0]] <= NINE):
            return BEAT + beaters[0]
        return TAKE
    junk = [card for card in _cards(legal, ATTACK) if card[-1] != trump and CARD_RANK[card] <= NINE]
    if junk and rng.random() < 0.3:
        return ATTACK + min(junk, key=CARD_RANK.__getitem__)
    return PASS


def normal_policy(sim: Simulation, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
    """The normal heuristic as the search's play-out policy, for every seat, on the rules board."""
    if len(legal) == 1:
        return legal[0]
    assert isinstance(sim, DurakBoard)
    # Sorted as the engine sorts them, so that ties break exactly as the normal player's do.
    return normal_move(_Obs.from_board(sim, seat), sorted(legal))


# ----- the players -----------------------------------------------------------------------------------


class EasyDurakPlayer:
    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return easy_move(_Obs.from_view(view), legal, rng)


class NormalDurakPlayer:
    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return normal_move(_Obs.from_view(view), legal)


#: Simulated moves per hard decision: about 60 ms of one core (benchmarks/durak.py measures it).
DEFAULT_BUDGET = 12_000

#: Where the candidates' kinds come in the list, after the heuristic's own choice.
_KIND_ORDER = (ATTACK, BEAT, TRANSFER, TAKE, PASS)


def _kind_and_card(action: Action) -> tuple[str, Card]:
    """`take` and `pass` are kinds of their own, with no card."""
    return (action, "") if action in (TAKE, PASS) else (action[:2], action[2:])


def candidates(view: DurakView, legal: tuple[Action, ...], most: int = 6) -> list[Action]:
    """The actions worth searching, the heuristic's first: cheaper cards stand for dearer ones of
    the same kind (the lowest card of each suit, the cheapest plain and trump beaters)."""
    obs = _Obs.from_view(view)
    default = normal_move(obs, legal)
    trump = obs.trump

    def order(action: Action) -> tuple[int, int]:
        kind, card = _kind_and_card(action)
        return _KIND_ORDER.index(kind), value(card, trump) if card else 0

    picked = [default]
    groups: set[tuple[str, str]] = set()
    for action in sorted(legal, key=order):
        kind, card = _kind_and_card(action)
        # One candidate per suit for attacks, per trump or plain for beats and transfers.
        if not card:
            group = (kind, "")
        elif kind == ATTACK:
            group = (kind, card[-1])
        else:
            group = (kind, "trump" if card[-1] == trump else "plain")
        if group not in groups:
            groups.add(group)
            if action != default:
                picked.append(action)
    return picked[:most]


class HardDurakPlayer:
    """The search player for either variant: the view says whether transfers exist, and so which
    engine samples its worlds. `budget` caps the simulated moves per decision; counting moves
    instead of reading a clock keeps a seeded game reproducible."""

    def __init__(self, budget: int = DEFAULT_BUDGET, max_worlds: int = 64, max_candidates: int = 6) -> None:
        def shortlist(view: DurakView, legal: tuple[Action, ...]) -> list[Action]:
            return candidates(view, legal, max_candidates)

        self.searches = {
            game.transfer: SearchPlayer(
                game, normal_policy, candidates=shortlist, budget=budget, max_worlds=max_worlds
            )
            for game in (DurakGame(), TransferDurakGame())
        }

    def choose(self, view: DurakView, legal: tuple[Action, ...], rng: random.Random) -> Action:
        return self.searches[view.transfer].choose(view, legal, rng)
