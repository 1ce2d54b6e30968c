"""Computer players for Game 5, the Minor Arcana game (RULES.md), each seeing only its own view.

The card play is the shared trick heuristic (`core.ai.tricks`) with Game 5's counting values (rule
10). What is Game 5's own is the dealer's discard: the discards count in the dealer's pile (A5.4),
so it banks the best counting cards it may discard (Queens, Knights, Pages), which the play could
lose to a King or a trump, and otherwise sheds empty low cards from its shortest suit. The hard
level searches the discard among a few more of those cards, by play-outs.
"""

from __future__ import annotations

from typing import Unpack

from core.ai.tricks import EasyTrickPlayer, HardTrickPlayer, NormalTrickPlayer, SearchSettings, Style
from core.cards import Card
from core.games.minor_arcana import COUNT, RULES, MinorArcanaGame
from core.trickgame import TrickView
from core.tricks import DECK, FOOL, SUIT

#: What a card brings the trick's winner; the Fool goes home to its player (rule 8).
WORTH: dict[Card, int] = {card: COUNT.get(card, 0) for card in DECK} | {FOOL: 0}
STYLE = Style(rules=RULES, worth=WORTH, plain_tricks_score=False)


def discard(view: TrickView, count: int | None = None) -> list[Card]:
    """The cards to discard best first (`count` of them, default as many as the dealer must)."""
    assert view.hand is not None
    hand = view.hand
    length: dict[str, int] = {}
    for card in hand:
        length[SUIT[card]] = length.get(SUIT[card], 0) + 1
    allowed = [card for card in hand if card not in RULES.discard_ban]
    ranked = sorted(
        allowed, key=lambda card: (-COUNT.get(card, 0), length[SUIT[card]], RULES.strength[card], card)
    )
    return ranked[: view.to_discard if count is None else count]


#: Simulated moves per hard decision: p50 54 ms, p99 219 ms of one core, the dealer's discard the
#: dearest (`python -m benchmarks tarot --game minor_arcana --only hard --hands 120 --processes 1
#: --think 0`) where `python -m timeit "sum(i*i for i in range(1000000))"` takes 47 ms.
BUDGET = 12_000
#: The discard's simulated moves (once a hand, by the dealer) as a multiple of a card's, among
#: the discards of two of the `2 + DISCARD_SPREAD` best cards to discard.
DISCARD_TIMES = 2
DISCARD_SPREAD = 3


def easy() -> EasyTrickPlayer:
    return EasyTrickPlayer()


def normal() -> NormalTrickPlayer:
    return NormalTrickPlayer(STYLE, discard)


def hard(
    budget: int = BUDGET, discard_times: float = DISCARD_TIMES, **settings: Unpack[SearchSettings]
) -> HardTrickPlayer:
    return HardTrickPlayer(
        MinorArcanaGame(),
        STYLE,
        discard,
        budget=budget,
        discard_times=discard_times,
        discard_spread=DISCARD_SPREAD,
        **settings,
    )
