"""Reading the others' plays: the hard trick player's worlds (RULES.md, games 4 and 5).

Every sampled world agrees with the view (`TrickGame.hidden_deal`), but the cards the others played
tell more than the voids they showed: a sensible player follows low, wins a trick worth winning,
keeps its Kings. So the worlds are walked towards deals in which the normal heuristic, given the
hands the world deals the others, would have played exactly what they did: each of their plays it
does not explain costs the world a factor `MISS` (the true deal explains every play of the normal
players; a random deal that agrees with the view typically leaves a few unexplained).

The walk is a Metropolis chain over the hidden cards: exchange two of them between two places the
constraints allow, keep the exchange with the chance `MISS` to the power of the plays it leaves
unexplained beyond those before, and never move further from the announcements (a random deal
often contradicts one; the walk then heads for deals that agree with them). The first world
is walked `FIRST_STEPS` steps from a random deal, each next one `STEPS` further.

Another dealer's discards are dealt only from the cards a dealer sheds (`Style.discarded_from`:
in Game 4 the numerals, since the discard scores nothing and a sensible dealer gives up its least
useful cards), unless what the view shows leaves too few of them; so the worlds do not lose to the
discards Kings and trumps that the others still hold.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from core.ai.search import Worlds
from core.ai.tricks import Seen, Style, choose_card
from core.cards import Card
from core.engine import Seat
from core.trickgame import PLAUSIBLE_TRIES, Hidden, TrickGame, TrickView
from core.tricks import EXCUSE, SUIT, TRUMP, Hand, TrickRules, led_suit
from core.unseen import deal, dealable

#: What a play the heuristic would not have made costs a world.
MISS = 0.01
#: Exchanges tried before the first world, and between two worlds.
FIRST_STEPS = 150
STEPS = 40


#: Per seat and deciding suits (None: all), the cards of a world's hand and of the dealer's
#: discards that decide a play.
_Deciders = dict[tuple[Seat, frozenset[str] | None], tuple[frozenset[Card], frozenset[Card]]]


@dataclass(frozen=True, slots=True)
class _Play:
    """One card another seat played, with what that seat knew then."""

    seat: Seat
    card: Card
    trick: tuple[tuple[Seat, Card], ...]
    gone: frozenset[Card]
    voids: tuple[set[str], ...]
    #: The seat's cards played from this one on: with its hand now, its hand then.
    later: tuple[Card, ...]
    #: The suits whose cards decided the play (a card of the led suit: that suit, the trumps that
    #: might still beat it and the Fool); None where any card could have (a lead, a void).
    deciding: frozenset[str] | None


def _history(view: TrickView, seat: Seat, rules: TrickRules) -> list[_Play]:
    """The others' plays this hand, each with the trick, the cards gone and the voids shown then."""
    done = [play for trick in view.tricks for play in trick.plays] + list(view.trick)
    if not done:
        return []
    replay = Hand(
        rules=rules,
        players=view.players,
        dealer=view.dealer,
        hands=[[card for owner, card in done if owner == other] for other in range(view.players)],
        shown=[set() for _ in range(view.players)],
    )
    plays: list[_Play] = []
    for number, (owner, card) in enumerate(done):
        assert replay.shown is not None
        if owner != seat:
            led = led_suit(replay.trick)
            deciding = frozenset((led, TRUMP, EXCUSE)) if led is not None and SUIT[card] == led else None
            plays.append(
                _Play(
                    seat=owner,
                    card=card,
                    trick=tuple(replay.trick),
                    gone=frozenset(replay.gone),
                    voids=tuple(set(suits) for suits in replay.shown),
                    later=tuple(c for o, c in done[number:] if o == owner),
                    deciding=deciding,
                )
            )
        replay.play(owner, card)
    return plays


def reading(game: TrickGame[Any, Any], style: Style) -> Worlds:
    """The search's worlds for a player of `game` whose others play like `style`'s heuristic."""
    return lambda view, rng: Reading(game, style, view).worlds(rng)


class Reading:
    """The worlds of one decision, for `view`'s seat."""

    def __init__(self, game: TrickGame[Any, Any], style: Style, view: TrickView) -> None:
        assert view.seat is not None
        self.game, self.style, self.view = game, style, view
        self.rules = style.rules
        self.base, hidden = game.hidden_deal(view)
        self.plays = _history(view, view.seat, self.rules)
        #: The place of each other seat's hand, and of the discards a dealer among them knows.
        self.place = {other: number for number, other in enumerate(hidden.others)}
        piles = len(hidden.others)
        self.discards = piles + hidden.piles.index("discards") if "discards" in hidden.piles else -1
        if self.discards >= 0 and style.discarded_from is not None:
            hidden = _only(hidden, self.discards, style.discarded_from)
        self.hidden = hidden
        self.mask = dict(zip(hidden.cards, hidden.masks, strict=True))
        #: The public table (announcements, tricks) and each other seat's cards played this hand.
        self.table = game.table(self.base)
        self.played = {seat: self.table.played(seat) for seat in hidden.others}
        #: Per other seat, how far the world walked is from its announcements: the sum never
        #: grows, so once a world agrees with them every later one does.
        self.apart: dict[Seat, int] = {}
        #: The heuristic's verdicts by play and the cards that decided it (a chain comes back to
        #: the same hands often).
        self.verdicts: dict[tuple[int, frozenset[Card], frozenset[Card]], bool] = {}
        self.scratch = Hand(
            rules=self.rules, players=view.players, dealer=view.dealer, hands=[[]] * view.players
        )

    def worlds(self, rng: random.Random, first_steps: int = FIRST_STEPS, steps: int = STEPS) -> Iterator[Any]:
        """Worlds walked `first_steps` exchanges from a random deal, each next one `steps` further
        (with no plays to read, fresh deals)."""
        hidden = self.hidden
        if not self.plays or len(hidden.cards) < 2:
            while True:  # nothing to read: fresh deals
                yield self.game.placed(self.base, hidden, self._plausible(rng))
        dealt = self._plausible(rng)
        where = {card: place for place, cards in enumerate(dealt) for card in cards}
        deciders: _Deciders = {}
        missed = [self._missed(number, dealt, deciders) for number in range(len(self.plays))]
        walk = first_steps
        while True:
            for _ in range(walk):
                self._step(dealt, where, missed, rng)
            yield self.game.placed(self.base, hidden, dealt)
            walk = steps

    def _plausible(self, rng: random.Random) -> list[list[Card]]:
        """A random deal of the hidden cards, one that agrees with the announcements if one of
        `PLAUSIBLE_TRIES` does (its distances from them kept in `apart`)."""
        hidden = self.hidden
        dealt: list[list[Card]] = []
        for _ in range(PLAUSIBLE_TRIES):
            dealt = deal(hidden.cards, hidden.masks, hidden.sizes, rng)
            self.apart = {seat: self._apart(seat, dealt) for seat in hidden.others}
            if not any(self.apart.values()):
                break
        return dealt

    def unexplained(self, state: Any) -> int:
        """How many of the others' plays the heuristic would not have made from `state`'s hands
        (a world of this view, or the true deal)."""
        hidden = self.hidden
        dealt = [[c for c in state.hands[seat] if c not in hidden.known[seat]] for seat in hidden.others]
        dealt += [list(getattr(state, pile)) for pile in hidden.piles]
        deciders: _Deciders = {}
        return sum(self._missed(number, dealt, deciders) for number in range(len(self.plays)))

    def _apart(self, seat: Seat, dealt: list[list[Card]]) -> int:
        """How far `seat`'s announcements are from what `dealt` gives it."""
        held = [*self.hidden.known[seat], *dealt[self.place[seat]], *self.played[seat]]
        return self.table.disagreement(seat, held)

    def _missed(self, number: int, dealt: list[list[Card]], deciders: _Deciders) -> bool:
        """Whether the heuristic, holding what `dealt` gives the seat, would have played otherwise
        than the `number`th play (`deciders`: the cards that decide plays in `dealt`, filled in
        as they are needed)."""
        play = self.plays[number]
        seat = play.seat
        # The seat's known and later cards are the play's own: what `dealt` gives it decides.
        cards = dealt[self.place[seat]]
        discards = dealt[self.discards] if seat == self.view.dealer and self.discards >= 0 else ()
        deciding = play.deciding
        # Many plays share their seat and deciding suits, so their cards are gathered once.
        found = deciders.get((seat, deciding))
        if found is None:
            if deciding is None:
                found = (frozenset(cards), frozenset(discards))
            else:
                found = (
                    frozenset([card for card in cards if SUIT[card] in deciding]),
                    frozenset([card for card in discards if SUIT[card] in deciding]),
                )
            deciders[seat, deciding] = found
        key = (number, *found)
        verdict = self.verdicts.get(key)
        if verdict is None:
            hand = self.rules.sort((*self.hidden.known[seat], *cards, *play.later))
            verdict = self.verdicts[key] = self._verdict(play, hand, list(discards))
        return verdict

    def _verdict(self, play: _Play, hand: list[Card], discards: list[Card]) -> bool:
        seat = play.seat
        gone = play.gone.union(discards) if discards else play.gone  # the dealer knows its discards
        scratch = self.scratch
        scratch.hands[seat] = hand
        scratch.trick = list(play.trick)
        seen = Seen(
            seat=seat,
            players=self.view.players,
            hand=hand,
            legal=scratch.playable(seat),
            trick=play.trick,
            gone=gone,
            voids=play.voids,
        )
        return choose_card(seen, self.style) != play.card

    def _step(
        self, dealt: list[list[Card]], where: dict[Card, int], missed: list[bool], rng: random.Random
    ) -> None:
        """One Metropolis step: exchange two hidden cards if the constraints allow and the plays
        say so."""
        cards = self.hidden.cards
        one, two = cards[rng.randrange(len(cards))], cards[rng.randrange(len(cards))]
        here, there = where[one], where[two]
        if here == there or not (self.mask[one] >> there & 1 and self.mask[two] >> here & 1):
            return
        # Misses allowed beyond those of the plays the exchange touches: P(accept) = MISS ** extra.
        allowed = math.floor(math.log(1.0 - rng.random()) / math.log(MISS))
        touched = {SUIT[one], SUIT[two]}
        holders = [seat for seat, place in self.place.items() if place in (here, there)]
        seats = set(holders)
        if self.discards in (here, there):
            seats.add(self.view.dealer)
        self._exchange(dealt, where, one, two)
        # Unexplained plays still to look at: the most that the plays left could explain anew.
        left = sum(missed)
        changed: list[tuple[int, bool]] = []
        before = after = 0
        deciders: _Deciders = {}
        for number, play in enumerate(self.plays):
            left -= missed[number]
            if play.seat not in seats or (play.deciding is not None and touched.isdisjoint(play.deciding)):
                continue
            miss = self._missed(number, dealt, deciders)
            before += missed[number]
            after += miss
            changed.append((number, miss))
            if after - before - left > allowed:
                break
        else:
            if after <= before + allowed:
                apart = self._no_further(holders, dealt)
                if apart is not None:
                    self.apart.update(apart)
                    for number, miss in changed:
                        missed[number] = miss
                    return
        self._exchange(dealt, where, two, one)

    def _no_further(self, holders: list[Seat], dealt: list[list[Card]]) -> dict[Seat, int] | None:
        """The holders' distances from their announcements in `dealt`, unless they sum to more
        than before (then None, as soon as that is sure)."""
        limit = sum(self.apart[seat] for seat in holders)
        apart: dict[Seat, int] = {}
        for seat in holders:
            apart[seat] = self._apart(seat, dealt)
            if sum(apart.values()) > limit:
                return None
        return apart

    @staticmethod
    def _exchange(dealt: list[list[Card]], where: dict[Card, int], one: Card, two: Card) -> None:
        here, there = where[one], where[two]
        dealt[here][dealt[here].index(one)] = two
        dealt[there][dealt[there].index(two)] = one
        where[one], where[two] = there, here


def _only(hidden: Hidden, place: int, cards: frozenset[Card]) -> Hidden:
    """`hidden` with only `cards` allowed into `place`, unless no deal would be left."""
    bit = 1 << place
    masks = [
        mask if card in cards else mask & ~bit for card, mask in zip(hidden.cards, hidden.masks, strict=True)
    ]
    return dataclasses.replace(hidden, masks=masks) if dealable(masks, hidden.sizes) else hidden
