"""Game 5, the Minor Arcana trick game (RULES.md): the worked examples E5.1-E5.7, rule 13's closed
formula against an exhaustive search over the groupings of rules 11-12, and the rules the examples
leave out. Players P1-P4 are seats 0-3; the dealer is P4, so P1 leads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from core.engine import CHANCE, Event, GameOver, IllegalAction
from core.games.minor_arcana import (
    COUNT,
    MagicianBonus,
    MinorArcanaGame,
    MinorArcanaState,
    MinorArcanaTable,
    count_score,
    pile_score,
)
from core.match import HandScored
from core.tricks import DECK, FOOL, FoolPassed, Hand, Trick, trick_winner

P1, P2, P3, P4 = 0, 1, 2, 3
GAME = MinorArcanaGame()
RULES = MinorArcanaTable.rules


def cards(text: str) -> list[str]:
    return text.split()


def state(
    hands: Mapping[int, str],
    *,
    players: int = 4,
    phase: str = "play",
    tricks: Sequence[Trick] = (),
    discards: str = "",
    length: str = "hand",
) -> MinorArcanaState:
    return MinorArcanaState(
        game="minor_arcana",
        players=players,
        options={"length": length},
        phase=phase,
        dealer=players - 1,
        leader=tricks[-1].winner if tricks else 0,
        totals=(0,) * players,
        hands=tuple(tuple(RULES.sort(cards(hands.get(seat, "")))) for seat in range(players)),
        discards=tuple(cards(discards)),
        tricks=tuple(tricks),
    )


def play(game_state: MinorArcanaState, *moves: tuple[int, str]) -> tuple[MinorArcanaState, list[Event]]:
    events: list[Event] = []
    for seat, action in moves:
        step = GAME.apply(game_state, seat, action)
        game_state = step.state
        events.extend(step.events)
    return game_state, events


def legal_cards(game_state: MinorArcanaState, seat: int) -> set[str]:
    return {action.removeprefix("p.") for action in GAME.legal_actions(game_state, seat)}


# ----- rules 1-2, E5.1: the deal and the dealer's discard -------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "leftover"), [(2, 39, 0), (3, 26, 0), (4, 19, 2), (5, 15, 3), (6, 13, 0)]
)
def test_deal_sizes(players: int, size: int, leftover: int) -> None:
    dealt = GAME.apply(GAME.new(players), CHANCE, "deal:11").state
    dealer = dealt.dealer
    assert [len(hand) for hand in dealt.hands] == [
        size + (leftover if seat == dealer else 0) for seat in range(players)
    ]
    assert dealt.phase == ("discard" if leftover else "play")
    assert GAME.view(dealt, dealer).to_discard == leftover


def test_e5_1_the_dealer_discards_two_but_never_a_king() -> None:
    hand = "KS QS T12 " + " ".join(c for c in DECK if c[-1] == "W" and c != "KW")
    hand += " 2C 3C 4C 5C 6C"
    assert len(cards(hand)) == 21
    game_state = state({P4: hand}, phase="discard")
    legal = GAME.legal_actions(game_state, P4)
    assert "x.KS" not in legal and "x.QS" in legal and "x.T12" in legal
    with pytest.raises(IllegalAction):
        GAME.apply(game_state, P4, "x.KS")
    marked, _ = play(game_state, (P4, "x.QS"), (P4, "x.T12"))
    # Two marked: no third card, only unmarking or confirming.
    assert set(GAME.legal_actions(marked, P4)) == {"x.QS", "x.T12", "x.ok"}
    done, _ = play(marked, (P4, "x.ok"))
    assert len(done.hands[P4]) == 19 and done.discards == ("QS", "T12")
    table = MinorArcanaTable.load(done)
    assert sorted(table.hand.piles()[P4]) == ["QS", "T12"]
    assert pile_score(table.hand.piles()[P4]) == 4
    # The points shown during the hand keep the discard secret.
    assert GAME.view(done, P1).points == (0, 0, 0, 0)


# ----- rules 6-9, E5.2-E5.4: leading, following, winning --------------------------------------------


def test_e5_2_follow_or_trump_obligations() -> None:
    game_state = state({P1: "5C 2W", P2: "T4 T17 T0 9W", P3: "KW 3S", P4: "4C 9S"})
    led, _ = play(game_state, (P1, "p.5C"))
    assert legal_cards(led, P2) == {"T4", "T17", "T0"}
    after, _ = play(led, (P2, "p.T4"))
    assert legal_cards(after, P3) == {"KW", "3S"}
    # P3's King of Wands, off suit, cannot win: P2's trump 4 takes the trick.
    done, _ = play(after, (P3, "p.KW"), (P4, "p.4C"))
    assert done.tricks[0].winner == P2


def test_e5_3_no_trump_lead_unless_the_hand_has_no_suit_card() -> None:
    assert legal_cards(state({P1: "T5 T12 3S"}), P1) == {"3S"}
    assert legal_cards(state({P1: "T5 T12 T0"}), P1) == {"T5", "T12", "T0"}
    assert legal_cards(state({P1: "T5 T0 3S"}), P1) == {"3S", "T0"}


def test_a5_3_after_a_led_fool_the_next_player_leads_under_rule_6() -> None:
    game_state = state({P1: "T0 2W", P2: "T5 4S", P3: "T6 5S", P4: "T7 6S"})
    led, _ = play(game_state, (P1, "p.T0"))
    assert legal_cards(led, P2) == {"4S"}


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ("AC 10C", 0),  # Cups led: the Ace is the highest pip
        ("10S AS", 0),  # Swords led: 10 beats the Ace
        ("PC AC", 0),  # Cups led: the Page beats the Ace
        ("2W T1", 1),  # Wands led, the Magician from a void player wins
    ],
)
def test_e5_4_pip_ranking(plays: str, winner: int) -> None:
    assert trick_winner(list(enumerate(cards(plays))), RULES.strength) == winner


# ----- rule 8, A5.5, E5.5: the Fool -----------------------------------------------------------------


def _trick(winner: int, *played: str) -> Trick:
    return Trick(plays=tuple((seat, card) for seat, card in enumerate(played)), winner=winner)


#: Empty cards: the pips of Wands, Cups and Swords, and the trumps 2-20.
FILLER = [c for c in DECK if (c[:-1].isdigit() and c[-1] != "P") or c in {f"T{n}" for n in range(2, 21)}]


def _tricks(fool_trick: int, winners: Sequence[int]) -> list[Trick]:
    """Tricks won by `winners` in turn; P1 plays the Fool to trick number `fool_trick` (from 1)."""
    pool = iter(FILLER)
    done = []
    for number, winner in enumerate(winners, start=1):
        played = [next(pool) for _ in range(4)]
        if number == fool_trick:
            played[P1] = FOOL
        done.append(_trick(winner, *played))
    return done


def test_e5_5_the_fool_stays_with_its_player_who_won_a_trick() -> None:
    winners = [P2, P3, P2, P4, P3, P2, P4, P3, P1, P4]
    hand = Hand(rules=RULES, players=4, dealer=P4, hands=[[], [], [], []], tricks=_tricks(3, winners))
    assert FOOL in hand.piles()[P1]
    assert not any(FOOL in hand.piles()[seat] for seat in (P2, P3, P4))


def test_e5_5_the_fool_of_a_player_without_tricks_goes_to_the_last_trick_winner() -> None:
    earlier = _tricks(3, [P2, P3, P2, P4, P3, P2, P4, P3, P2])
    game_state = state({P1: "KP", P2: "2P", P3: "3P", P4: "4P"}, tricks=earlier)
    game_state = game_state.model_copy(update={"leader": P1})
    done, events = play(game_state, (P1, "p.KP"), (P2, "p.2P"), (P3, "p.3P"), (P4, "p.4P"))
    # P1 wins the last trick itself: the Fool stays.
    assert not [e for e in events if isinstance(e, FoolPassed)]
    other = state({P1: "2P", P2: "3P", P3: "4P", P4: "KP"}, tricks=earlier).model_copy(update={"leader": P1})
    done, events = play(other, (P1, "p.2P"), (P2, "p.3P"), (P3, "p.4P"), (P4, "p.KP"))
    assert FoolPassed(owner=P1, seat=P4) in events
    table = MinorArcanaTable.load(done)
    assert FOOL in table.hand.piles()[P4] and FOOL not in table.hand.piles()[P1]


# ----- rules 10-13, E5.6: counting -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "score"),
    [
        ("QC 7S T10", 4),
        ("KW QW " + " ".join(FILLER[:10]), 11),
        ("KW QW NW PW T21 " + " ".join(FILLER[:2]), 17),
        (" ".join(FILLER[:2]), 0),
        (" ".join(FILLER[:5]), 1),
        ("T0 KW QW", 12),
    ],
)
def test_e5_6_pile_scoring(pile: str, score: int) -> None:
    assert pile_score(cards(pile)) == score


def test_rule_13_the_whole_deck_scores_78() -> None:
    assert pile_score(DECK) == 78
    assert sum(COUNT.values()) == 71 and len(COUNT) == 19


#: A group's value (rules 11-12, A5.6): with counting cards, the sum of (value - 1) plus 1; three
#: empty cards 1; one or two empty cards 0.
def _group_value(group: Sequence[int]) -> int:
    counting = [value for value in group if value]
    if counting:
        return sum(value - 1 for value in counting) + 1
    return 1 if len(group) == 3 else 0


#: Every kind of group of 1-3 cards, by the card values (0 = empty).
VALUES = (0, 2, 3, 4, 5)
GROUPS = [group for size in (1, 2, 3) for group in combinations_with_replacement(VALUES, size)]


def _is_triplet(group: Sequence[int]) -> bool:
    """Rule 11: one counting card and two empty ones."""
    return len(group) == 3 and sorted(group)[:2] == [0, 0] and group.count(0) == 2


@cache
def _best(counts: tuple[int, ...], triplets: int, small_left: bool) -> int | None:
    """The best score of the cards `counts` (per value of VALUES) sorted into `triplets` more rule-11
    triplets and groups of three, with at most one smaller group if `small_left`; None if no such
    sorting exists."""
    if not any(counts):
        return 0 if triplets == 0 else None
    best: int | None = None
    for group in GROUPS:
        need = [group.count(value) for value in VALUES]
        if any(n > c for n, c in zip(need, counts, strict=True)):
            continue
        triplet = _is_triplet(group)
        if (triplet and not triplets) or (len(group) < 3 and not small_left):
            continue
        rest = tuple(c - n for c, n in zip(counts, need, strict=True))
        value = _best(rest, triplets - triplet, small_left and len(group) == 3)
        if value is not None and (best is None or value + _group_value(group) > best):
            best = value + _group_value(group)
    return best


def test_rule_13_the_closed_formula_is_the_best_sorting_of_rules_11_and_12() -> None:
    """Every pile of up to 12 cards, by the values of its counting cards and its empty cards: rule 11
    first makes as many triplets (one counting card, two empty) as it can, rule 12 groups the rest
    in threes with one smaller group left over; the best such sorting scores the closed formula."""
    checked = 0
    for counts in product(range(13), repeat=len(VALUES)):
        if sum(counts) > 12 or sum(counts) == 0:
            continue
        empty, counting = counts[0], sum(counts[1:])
        total = sum(value * count for value, count in zip(VALUES, counts, strict=True))
        best = _best(counts, min(counting, empty // 2), True)
        assert best == count_score(total, counting, empty), counts
        checked += 1
    assert checked == 6187


# ----- rules 14-15, E5.7: the bonus, the hand and the match ------------------------------------------


def test_e5_7_the_magician_winning_the_last_trick_scores_10_more() -> None:
    game_state = state({P1: "5P", P2: "T1", P3: "7P", P4: "8P"})
    _, events = play(game_state, (P1, "p.5P"), (P2, "p.T1"), (P3, "p.7P"), (P4, "p.8P"))
    assert MagicianBonus(seat=P2, points=10) in events
    row = next(e.row for e in events if isinstance(e, HandScored))
    # The Magician (5) is in P2's pile, with three empty cards: 5 + 10.
    assert row.hand == (0, 15, 0, 0)


def test_one_hand_the_highest_score_wins_and_ties_share() -> None:
    game_state = state({P1: "KP", P2: "2P", P3: "3P", P4: "4P"})
    _, events = play(game_state, (P1, "p.KP"), (P2, "p.2P"), (P3, "p.3P"), (P4, "p.4P"))
    over = next(e for e in events if isinstance(e, GameOver))
    assert over.outcome.winners == (P1,) and over.outcome.scores == (5, 0, 0, 0)
    assert over.outcome.losers == (P2, P3, P4) and over.outcome.order == (P1, P2, P3, P4)
    tie = state({P1: "KP 3W", P2: "2P KW"}, players=2)
    _, events = play(tie, (P1, "p.KP"), (P2, "p.2P"), (P1, "p.3W"), (P2, "p.KW"))
    outcome = next(e for e in events if isinstance(e, GameOver)).outcome
    assert outcome.winners == (P1, P2) and outcome.scores == (5, 5) and outcome.draw


def test_a5_7_a_match_to_300_ends_with_the_hand_that_reaches_it() -> None:
    game_state = state({P1: "KP", P2: "2P", P3: "3P", P4: "4P"}, length="match")
    game_state = game_state.model_copy(update={"totals": (296, 299, 10, 0)})
    done, events = play(game_state, (P1, "p.KP"), (P2, "p.2P"), (P3, "p.3P"), (P4, "p.4P"))
    over = next(e for e in events if isinstance(e, GameOver))
    assert over.outcome.scores == (301, 299, 10, 0) and over.outcome.winners == (P1,)
    below = game_state.model_copy(update={"totals": (200, 0, 0, 0)})
    done, events = play(below, (P1, "p.KP"), (P2, "p.2P"), (P3, "p.3P"), (P4, "p.4P"))
    assert not any(isinstance(e, GameOver) for e in events)
    assert GAME.to_move(done) == (P1, P2, P3, P4)
