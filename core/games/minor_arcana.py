"""Game 5: the Minor Arcana trick game for 2-6 players, scored in triplets (RULES.md, Game 5, rules
1-15, A5.x).

The deal, the dealer's discard, the follow and trump obligations and the Fool run on the shared
trick kernel (`core.tricks`, `core.trickgame`) from the rules below; this module adds the counting
(rule 13's closed formula), the Magician's bonus and the length of the game.

Action codes: `x.<card>` marks or unmarks a card for the dealer's discard and `x.ok` confirms it;
`p.<card>` plays a card; `next` starts the next hand.

Decisions RULES.md leaves open, taken here:
* The dealer's discards count as the dealer's won cards but not as a trick won: a dealer whose Fool
  was played and who won no trick loses the Fool to the last trick's winner (A5.5).
* The points shown during the hand count the tricks only: the dealer's discards are secret until
  the hand's row shows every total.
* The last seat deals the first hand, so seat 0 leads first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.cards import Card
from core.engine import Event, OptionSpec, OptionValue, Seat
from core.trickgame import TrickGame, TrickState, TrickTable, TrickView
from core.tricks import FOOL, KINGS, MAGICIAN, SUITS, WORLD, FoolPassed, TrickRules, rank_strength
from i18n import N_

RULES = TrickRules(
    # A5.1: the pips of Cups and Pentacles run Ace high, 10 low.
    strength=rank_strength(pips_reversed=("C", "P")),
    packet=1,
    hands_dealt=None,
    hand_size=None,
    spare_first=True,
    # Rule 2.
    discard_ban=frozenset((*KINGS, FOOL, MAGICIAN, WORLD)),
    discards_score=True,
    no_trump_lead=True,
    must_trump=True,
    fool_to_last_winner=True,
)

#: Rule 10: the counting cards; every other card is empty (0).
COUNT: dict[Card, int] = {
    **{card: 5 for card in (*KINGS, WORLD, MAGICIAN, FOOL)},
    **{"Q" + suit: 4 for suit in SUITS},
    **{"N" + suit: 3 for suit in SUITS},
    **{"P" + suit: 2 for suit in SUITS},
}
#: Rule 14.
MAGICIAN_BONUS = 10
#: Rule 15 / A5.7.
TARGET = 300
MATCH, ONE_HAND = "match", "hand"


def pile_score(cards: Iterable[Card]) -> int:
    """Rule 13: the closed formula of the triplet counting (rules 11-12, A5.6)."""
    total = counting = empty = 0
    for card in cards:
        value = COUNT.get(card, 0)
        if value:
            total += value
            counting += 1
        else:
            empty += 1
    return count_score(total, counting, empty)


def count_score(total: int, counting: int, empty: int) -> int:
    """Rule 13 for a pile of `counting` counting cards worth `total` and `empty` empty cards."""
    if empty >= 2 * counting:
        return total + (empty - 2 * counting) // 3
    return total - counting + -(-(counting + empty) // 3)


class MagicianBonus(Event):
    """Rule 14: the Magician won the last trick."""

    seat: Seat
    points: int


class MinorArcanaState(TrickState):
    game: str = "minor_arcana"


class MinorArcanaTable(TrickTable):
    rules = RULES
    margin_scale = 8.0

    __slots__ = ()

    @classmethod
    def target(cls, options: Mapping[str, OptionValue]) -> int | None:
        return TARGET if options["length"] == MATCH else None

    def bonus(self) -> list[int]:
        """Rule 14, as soon as the last trick is won."""
        points = [0] * self.players
        if self.hand.finished() and self.hand.tricks:
            last = self.hand.tricks[-1]
            if (last.winner, MAGICIAN) in last.plays:
                points[last.winner] = MAGICIAN_BONUS
        return points

    def _scores(self, *, with_discards: bool) -> list[int]:
        piles = self.hand.piles(with_discards=with_discards)
        return [pile_score(pile) + extra for pile, extra in zip(piles, self.bonus(), strict=True)]

    def hand_totals(self) -> list[int]:
        return self._scores(with_discards=True)

    def view_fields(self, seat: Seat | None) -> dict[str, Any]:
        # The dealer's discards stay secret until the hand's row.
        return super().view_fields(seat) | {"points": tuple(self._scores(with_discards=False))}

    def scored(self, totals: Sequence[int]) -> list[int]:
        return list(totals)

    def _hand_over(self) -> None:
        owner, home = self.hand.fool_player(), self.hand.fool_home()
        if owner is not None and home is not None and owner != home:
            self.tell(FoolPassed(owner=owner, seat=home))
        for seat, points in enumerate(self.bonus()):
            if points:
                self.tell(MagicianBonus(seat=seat, points=points))


class MinorArcanaGame(TrickGame[MinorArcanaState, TrickView]):
    id = "minor_arcana"
    state_type = MinorArcanaState
    view_type = TrickView
    table_type = MinorArcanaTable
    min_players = 2
    max_players = 6
    options = (
        OptionSpec(
            name="length",
            choices=(MATCH, ONE_HAND),
            default=MATCH,
            label=N_("Length"),
            choice_labels=(N_("Match to 300"), N_("One hand")),
        ),
    )
