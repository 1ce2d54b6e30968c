"""Computer players for Game 4, Mathers' Tarot (RULES.md), each seeing only its own `TarotView`.

The card play is the shared trick heuristic (`core.ai.tricks`) with Game 4's worths: a King brings
its trick's winner 5 for the trick and 5 more when taken, the World and the Magician 5, a Queen 4, a
Knight 3, a Knave 2. What is Game 4's own:

- the discard (before the dealer sees the spare cards) keeps every Tarot Trump and every trump,
  breaks no announcement and sheds low numerals, from the shortest suits first so that a void lets
  the hand trump;
- the asks: asking never loses (5 points, or a Tarot Trump for a small card), so the normal player
  always asks, the opponent ahead in the match first; it gives away the Tarot Trump it misses least
  and gives back the small card that costs it least.

The hard level searches every one of these decisions among the normal player's best-ranked ones
(`discard` ranks more cards than it sheds, `ranked` orders the answers), by play-outs; its worlds
read the others' plays so far and deal another dealer's discards from the numerals
(`core.ai.reading`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from core.ai.reading import reading
from core.ai.tricks import EasyTrickPlayer, HardTrickPlayer, NormalTrickPlayer, SearchSettings, Style
from core.cards import Card
from core.engine import Action
from core.games.tarot import (
    ASK_CODE,
    GIVE,
    NO_ASK,
    NUMERALS,
    RETURN,
    RULES,
    TRICK_VALUE,
    TarotGame,
    TarotView,
    combinations,
)
from core.tricks import DECK, FOOL, KINGS, MAGICIAN, SUIT, TRUMP, WORLD

#: A King of another player in the trick: 5 for the trick, 5 more for taking it (rules 15-16).
WORTH: dict[Card, int] = {card: TRICK_VALUE.get(card, 0) for card in DECK} | {king: 10 for king in KINGS}
STYLE = Style(rules=RULES, worth=WORTH, plain_tricks_score=True, discarded_from=NUMERALS)

#: How much a Tarot Trump is worth keeping in play, beyond the announcements it makes: the World
#: always wins, the Fool always scores 5, a King wins its suit until it is trumped, and the
#: Magician, the lowest trump, is mostly a card to lose.
KEEP_TAROT: dict[Card, int] = {WORLD: 8, FOOL: 6, **{king: 4 for king in KINGS}, MAGICIAN: 1}


def announced(cards: Sequence[Card]) -> int:
    return sum(points for _, _, points in combinations(cards))


def _shed_cost(card: Card, hand: list[Card], held: int) -> float:
    """What giving `card` away (the discard, a card given back) costs the hand: the announcements
    it breaks (`held`: the hand's, `announced(hand)`), the card's own worth in play, and, against
    that, a suit made shorter."""
    rest = [other for other in hand if other != card]
    broken = held - announced(rest)
    if card in KEEP_TAROT:
        return 100 + broken
    if SUIT[card] == TRUMP:
        return 20 + RULES.strength[card] / 3 + broken
    suit = SUIT[card]
    length = sum(SUIT[other] == suit for other in rest)
    return broken + 2 * WORTH[card] + RULES.strength[card] / 4 + min(length, 4)


def discard(view: TarotView, count: int | None = None) -> list[Card]:
    """The discard's cards (`count` of them, default the three to discard), one at a time, each the
    cheapest to shed from what is left."""
    assert view.hand is not None
    hand = list(view.hand)
    chosen: list[Card] = []
    for _ in range(view.to_discard if count is None else count):
        held = announced(hand)
        card = min(hand, key=lambda card: (_shed_cost(card, hand, held), card))
        chosen.append(card)
        hand.remove(card)
    return chosen


def decide(view: TarotView, legal: tuple[Action, ...]) -> Action:
    """Rule 8: whom to ask, which Tarot Trump to give, which small card to give back."""
    return ranked(view, legal)[0]


def ranked(view: TarotView, legal: tuple[Action, ...]) -> list[Action]:
    """Rule 8's answers, best first: the asks (the opponent ahead in the match first) before not
    asking, the Tarot Trumps to give and the small cards to give back the cheapest first."""
    assert view.hand is not None and view.seat is not None
    hand = list(view.hand)
    asks = [action for action in legal if action.startswith(ASK_CODE)]
    if asks:
        order = sorted(asks, key=lambda action: (view.totals[int(action[len(ASK_CODE) :])], action))[::-1]
        return [*order, *(action for action in legal if action not in asks)]
    gives = [action for action in legal if action.startswith(GIVE)]
    if gives:
        return sorted(gives, key=lambda action: (_give_cost(action[len(GIVE) :], hand), action))
    returns = [action for action in legal if action.startswith(RETURN)]
    if returns:
        held = announced(hand)
        return sorted(returns, key=lambda action: (_shed_cost(action[len(RETURN) :], hand, held), action))
    return [NO_ASK] if NO_ASK in legal else list(legal)


def _give_cost(card: Card, hand: list[Card]) -> float:
    rest = [other for other in hand if other != card]
    return announced(hand) - announced(rest) + KEEP_TAROT[card]


#: Simulated moves per hard decision, the dealer's discard the dearest: p50 113 ms, p99 254 ms of
#: one core with the reading (`python -m benchmarks tarot --game tarot --only hard --hands 60
#: --processes 1 --think 0`) where `python -m timeit "sum(i*i for i in range(1000000))"` takes 45 ms;
#: slower machines take longer in proportion, up to the bot's think limit (`core.ai.search`).
BUDGET = 8_000
#: The discard's simulated moves (once a hand, by the dealer) as a multiple of a card's, among
#: the discards of three of the cheapest `3 + DISCARD_SPREAD` cards.
DISCARD_TIMES = 1.5
DISCARD_SPREAD = 2


def easy() -> EasyTrickPlayer:
    return EasyTrickPlayer()


def normal() -> NormalTrickPlayer:
    return NormalTrickPlayer(STYLE, discard, ranked)


def hard(
    budget: int = BUDGET, discard_times: float = DISCARD_TIMES, **settings: Unpack[SearchSettings]
) -> HardTrickPlayer:
    game = TarotGame()
    return HardTrickPlayer(
        game,
        STYLE,
        discard,
        ranked,
        budget=budget,
        discard_times=discard_times,
        discard_spread=DISCARD_SPREAD,
        worlds=reading(game, STYLE),
        **settings,
    )
