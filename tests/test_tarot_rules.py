"""Game 4, Mathers' Tarot (RULES.md): the worked examples E4.1-E4.7 and the rules they leave out, on
hand-built states. Seats A, B, C are 0, 1, 2."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from core.engine import CHANCE, Event, GameOver, IllegalAction, sample_chance
from core.games.tarot import (
    TAROT_TRUMPS,
    Announced,
    AskUnanswered,
    CardReturned,
    KingTaken,
    TarotGame,
    TarotState,
    TrumpGiven,
    combinations,
    hand_result,
)
from core.match import HandScored, Match
from core.tricks import COURTS, DECK, PIPS, SUITS, FoolReturned, TrickWon

A, B, C = 0, 1, 2
GAME = TarotGame()
RULES = GAME.table_type.rules


def cards(text: str) -> list[str]:
    return text.split()


def state(
    hands: Mapping[int, str],
    *,
    players: int = 2,
    phase: str = "play",
    dealer: int = B,
    totals: Sequence[int] | None = None,
    fill: bool = False,
) -> TarotState:
    """A hand in `phase` with the given cards; with `fill`, every seat is topped up to 25 with
    numerals nobody named and the rest of the deck is the dead hand (2 players) or the discard."""
    held = {seat: cards(hands.get(seat, "")) for seat in range(players)}
    named = {card for hand in held.values() for card in hand}
    # Plain cards first, Tarot Trumps never: a filled seat holds only what the test names of them.
    rest = sorted(
        (card for card in DECK if card not in named), key=lambda card: (card in TAROT_TRUMPS, card[0] == "T")
    )
    if fill:
        for seat in range(players):
            while len(held[seat]) < 25:
                held[seat].append(rest.pop(0))
        assert players == 2 or len(rest) == 3
    return TarotState(
        game="tarot",
        players=players,
        phase=phase,
        dealer=dealer,
        leader=(dealer + 1) % players,
        totals=tuple(totals or (0,) * players),
        hands=tuple(tuple(RULES.sort(held[seat])) for seat in range(players)),
        dead=tuple(rest[:25]) if players == 2 and fill else (),
        discards=tuple(rest[25:28] if players == 2 else rest[:3]) if fill else (),
        ask_stage="choose" if phase == "ask" else "",
    )


def play(game_state: TarotState, *moves: tuple[int, str]) -> tuple[TarotState, list[Event]]:
    events: list[Event] = []
    for seat, action in moves:
        step = GAME.apply(game_state, seat, action)
        game_state = step.state
        events.extend(step.events)
    return game_state, events


def breakdown(game_state: TarotState, seat: int) -> tuple[int, int, int, int, int]:
    score = GAME.view(game_state, None).breakdown[seat]
    return score.announced, score.asks, score.kings, score.tricks, score.fool


# ----- E4.1, E4.6: what a hand scores before play ---------------------------------------------------


def test_e4_1_in_hand_scoring_totals_55() -> None:
    hand = cards("T21 T20 T19 T18 T12 T11 T10 T9 T3 T2 T1 T0 KC QC NC PC 10C AS 2S 3S 5S 6S 7S 4P 9P")
    assert len(hand) == 25
    assert combinations(hand) == [
        ("greater", ("T18", "T19", "T20", "T21"), 10),
        ("lesser", ("T1", "T2", "T3"), 5),
        ("trumps", tuple(cards("T0 T1 T2 T3 T9 T10 T11 T12 T18 T19 T20 T21")), 10),
        ("tarot", ("T21", "T0", "T1", "KC"), 15),
        # Swords A-3 and 5-7 and trumps 1-3 are only three long.
        ("sequence", tuple(cards("10C PC NC QC KC")), 5),
        ("sequence", ("T9", "T10", "T11", "T12"), 5),
        ("sequence", ("T18", "T19", "T20", "T21"), 5),
    ]
    assert sum(points for _, _, points in combinations(hand)) == 55


def test_e4_6_sequence_tiers_are_per_maximal_run() -> None:
    hand = cards("AS 2S 3S 4S 5S 6S 7S T12 T13 T14 T15")
    runs = [(shown, points) for kind, shown, points in combinations(hand) if kind == "sequence"]
    assert runs == [(tuple(cards("AS 2S 3S 4S 5S 6S 7S")), 10), (tuple(cards("T12 T13 T14 T15")), 5)]


def test_sequences_are_every_maximal_run_of_four_or_more_in_any_hand() -> None:
    # Rule 10 stated plainly, against hands of every size (a whole deck holds runs of 14 and 21).
    orders = [[rank + suit for rank in (*PIPS, *COURTS)] for suit in SUITS]
    orders.append([f"T{n}" for n in range(1, 22)])
    rng = random.Random(10)
    for _ in range(1_000):
        held = set(rng.sample(DECK, rng.choice((8, 25, 28, 50, 70, 78))))
        expected = []
        for order in orders:
            run: list[str] = []
            for card in (*order, None):
                if card in held:
                    run.append(card)
                    continue
                if len(run) >= 4:
                    expected.append((tuple(run), 15 if len(run) >= 10 else 10 if len(run) >= 7 else 5))
                run = []
        found = [(shown, points) for kind, shown, points in combinations(held) if kind == "sequence"]
        assert found == expected


def test_counted_tiers_are_not_cumulative() -> None:
    # 13 trumps score 15, not 10 + 15; all five Greater Trumps 15; six Tarot Trumps two sets.
    trumps = [f"T{n}" for n in (0, 2, 4, 6, 8, 10, 12, 14, 16, 17, 18, 19, 20)]
    assert ("trumps", 15) in {(kind, points) for kind, _, points in combinations(trumps)}
    tarot = combinations(cards("T21 T0 T1 KW KC KS"))
    assert [(kind, points) for kind, _, points in tarot if kind == "tarot"] == [("tarot", 30)]


def test_announcements_are_made_after_the_asks_and_shown_to_everybody() -> None:
    game_state = state({A: "T21 KC T20 T19"}, phase="ask", fill=True)
    assert game_state.announcements == ()
    after, events = play(game_state, (A, "noask"))
    told = [(e.seat, e.kind, e.cards, e.points, e.audience) for e in events if isinstance(e, Announced)]
    assert (A, "greater", ("T19", "T20", "T21"), 5, None) in told
    assert after.phase == "play"
    assert GAME.view(after, B).announcements == after.announcements


def test_a_world_is_told_from_the_announcements_it_contradicts() -> None:
    after, _ = play(state({A: "T21 KC T20 T19"}, phase="ask", fill=True), (A, "noask"))
    table = GAME.table(after)
    assert table.disagreements(B) == 0
    # A world in which A holds the 18 as well: A would have announced four Greater Trumps and the
    # run 18-21 instead of three Greater Trumps.
    held = [card for card in table.held_before_play(A) if card not in ("T21", "T20", "T19", "KC")]
    assert table.disagreement(A, ["T21", "T20", "T19", "T18", "KC", *held[1:]]) >= 3
    assert table.disagreement(A, table.held_before_play(A)) == 0


# ----- E4.2: asking for a Tarot Trump -----------------------------------------------------------------


def test_e4_2_i_an_unanswered_ask_scores_5() -> None:
    game_state = state({A: "T21 KC"}, phase="ask", fill=True)
    assert GAME.legal_actions(game_state, A) == ("ask.1", "noask")
    after, events = play(game_state, (A, "ask.1"))
    assert [e for e in events if isinstance(e, AskUnanswered)] == [AskUnanswered(asker=A, asked=B, points=5)]
    assert breakdown(after, A)[1] == 5
    assert after.phase == "play"


def test_e4_2_ii_a_given_fool_completes_a_set_of_three() -> None:
    game_state = state({A: "T21 KC 3P", B: "KS T0"}, phase="ask", fill=True)
    asked, _ = play(game_state, (A, "ask.1"))
    # B chooses which Tarot Trump to give.
    assert GAME.legal_actions(asked, B) == ("give.KS", "give.T0")
    given, events = play(asked, (B, "give.T0"))
    assert TrumpGiven(giver=B, asker=A, card="T0") in events
    # A gives back a numeral card of its choice.
    assert "ret.3P" in GAME.legal_actions(given, A)
    assert not any(action.endswith(("T21", "KC", "T0")) for action in GAME.legal_actions(given, A))
    done, events = play(given, (A, "ret.3P"))
    returned = [e for e in events if isinstance(e, CardReturned)]
    assert [(e.card, e.audience) for e in returned] == [(None, None), ("3P", A), ("3P", B)]
    assert "T0" in done.hands[A] and "3P" in done.hands[B] and "T0" not in done.hands[B]
    # A scores nothing for the ask, 15 for the three Tarot Trumps now held.
    announced, asks, *_ = breakdown(done, A)
    assert asks == 0
    assert [(a.kind, a.points) for a in done.announcements if a.seat == A and a.kind == "tarot"] == [
        ("tarot", 15)
    ]
    assert announced >= 15
    # B asks next (it still holds the King of Swords only: one Tarot Trump, so it cannot ask).
    assert done.phase == "play"


def test_the_returned_card_is_seen_only_by_the_two_players() -> None:
    game_state = state({A: "T21 KC 3P", B: "KS KW T1", C: "T0"}, players=3, phase="ask", dealer=C, fill=True)
    asked, _ = play(game_state, (A, "ask.1"))
    done, _ = play(asked, (B, "give.KS"), (A, "ret.3P"))
    # B still holds two Tarot Trumps: its turn to ask, before any announcement.
    assert GAME.to_move(done) == (B,) and done.announcements == ()
    seen = {seat: GAME.view(done, seat).asks[0].returned for seat in (None, A, B, C)}
    assert seen == {None: None, A: "3P", B: "3P", C: None}
    assert "3P" in GAME.view(done, A).known[B]
    assert "3P" not in GAME.view(done, C).known[B]
    assert "KS" in GAME.view(done, C).known[A]


def test_each_player_asks_once_starting_with_the_leader_and_names_the_opponent() -> None:
    game_state = state({A: "T21 KC", B: "T1 KW KP T0", C: "KS"}, players=3, phase="ask", dealer=C, fill=True)
    assert GAME.to_move(game_state) == (A,)
    assert GAME.legal_actions(game_state, A) == ("ask.1", "ask.2", "noask")
    after, _ = play(game_state, (A, "noask"))
    assert GAME.to_move(after) == (B,)
    after, _ = play(after, (B, "ask.2"), (C, "give.KS"))
    after, _ = play(after, (B, GAME.legal_actions(after, B)[0]))
    # C now holds no Tarot Trump, so the asks are over and the play begins with the leader.
    assert after.phase == "play" and GAME.to_move(after) == (A,)


@pytest.mark.parametrize("players", [2, 3])
def test_the_true_deal_never_contradicts_what_the_table_tells(players: int) -> None:
    # Random players decline asks, ask, give and discard anything: at every moment of their
    # matches the hidden cards of the true hands keep to every seat's exclusions and contradict
    # nothing told.
    rng = random.Random(players)
    moments = 0
    while moments < 3_000:
        game_state = GAME.new(players)
        while GAME.to_move(game_state):
            table = GAME.table(game_state)
            for seat in range(players):
                assert table.disagreements(seat) == 0
                known = table.known_in_hands(seat)
                for other, excluded in enumerate(table.excluded(seat)):
                    if other != seat:
                        assert not excluded & set(game_state.hands[other]).difference(known[other])
            (mover, *_) = GAME.to_move(game_state)
            if mover == CHANCE:
                action = sample_chance(GAME.chance_outcomes(game_state), rng)
            else:
                action = rng.choice(GAME.legal_actions(game_state, mover))
            game_state = GAME.apply(game_state, mover, action).state
            moments += 1


# ----- E4.3, E4.4, E4.5: play -----------------------------------------------------------------------


def test_e4_3_a_king_taken_by_a_trump_scores_5_and_the_trick_5_more() -> None:
    game_state = state({A: "KS 2W", B: "T2 3W"})
    after, events = play(game_state, (A, "p.KS"))
    assert "p.T2" in GAME.legal_actions(after, B)
    after, events = play(after, (B, "p.T2"))
    assert KingTaken(seat=B, king="KS", owner=A, points=5) in events
    assert TrickWon(seat=B, number=1, plays=((A, "KS"), (B, "T2")), points=5) in events
    _, _, kings, tricks, _ = breakdown(after, B)
    assert kings + tricks == 10


def test_e4_4_the_fool_protects_a_card_and_scores_5_for_its_player() -> None:
    game_state = state({A: "QC 2W", B: "NC T0"})
    led, _ = play(game_state, (A, "p.QC"))
    assert GAME.legal_actions(led, B) == ("p.NC", "p.T0")
    after, events = play(led, (B, "p.T0"))
    assert FoolReturned(seat=B) in events
    assert after.tricks[0].winner == A
    assert breakdown(after, A)[3] == 4
    assert breakdown(after, B)[4] == 5


def test_e4_5_follow_suit_only_no_obligation_to_beat() -> None:
    game_state = state({A: "T10 2W", B: "T4 T19 5C"})
    led, _ = play(game_state, (A, "p.T10"))
    assert GAME.legal_actions(led, B) == ("p.T19", "p.T4")
    after, _ = play(led, (B, "p.T4"))
    assert after.tricks[0].winner == A


def test_a_void_player_may_throw_any_card() -> None:
    game_state = state({A: "5C 2W", B: "T4 KS"})
    led, _ = play(game_state, (A, "p.5C"))
    assert GAME.legal_actions(led, B) == ("p.KS", "p.T4")


def test_a4_4_a_led_fool_lets_the_next_card_set_the_suit() -> None:
    game_state = state({A: "T0 2W", B: "3C T5", C: "4C 5W"}, players=3, dealer=C)
    led, _ = play(game_state, (A, "p.T0"))
    assert GAME.legal_actions(led, B) == ("p.3C", "p.T5")
    after, _ = play(led, (B, "p.3C"))
    assert GAME.legal_actions(after, C) == ("p.4C",)
    done, _ = play(after, (C, "p.4C"))
    assert done.tricks[0].winner == C


# ----- E4.7, rules 18-19: the hand's result and the match -------------------------------------------


def test_e4_7_hand_result_and_game_end() -> None:
    assert hand_result([72, 60, 31]) == [12, 0, 0]
    assert hand_result([55, 70]) == [0, 15]
    assert hand_result([40, 40, 10]) == [0, 0, 0]
    match = Match(players=3, target=100, dealer=C, totals=[95, 30, 10])
    match.record([72, 60, 31], hand_result([72, 60, 31]))
    assert match.totals == [107, 30, 10] and match.finished()
    assert match.outcome().winners == (A,)


def test_the_match_ends_at_the_end_of_the_hand_that_reaches_100() -> None:
    game_state = state({A: "KC", B: "2C"}, totals=(95, 40))
    done, events = play(game_state, (A, "p.KC"), (B, "p.2C"))
    rows = [e.row for e in events if isinstance(e, HandScored)]
    assert rows[0].hand == (5, 0) and rows[0].scored == (5, 0) and rows[0].totals == (100, 40)
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].outcome.winners == (A,) and over[0].outcome.scores == (100, 40)
    assert GAME.to_move(done) == ()


def test_between_hands_every_seat_presses_next_and_the_deal_passes_left() -> None:
    game_state = state({A: "KC", B: "2C"})
    done, _ = play(game_state, (A, "p.KC"), (B, "p.2C"))
    assert GAME.to_move(done) == (A, B)
    pressed, _ = play(done, (B, "next"))
    assert GAME.to_move(pressed) == (A,)
    with pytest.raises(IllegalAction):
        GAME.apply(pressed, A, "p.KC")
    dealt, _ = play(pressed, (A, "next"))
    assert GAME.to_move(dealt) == (CHANCE,) and dealt.dealer == A
    view = GAME.view(dealt, None)
    assert view.rows[0].scored == (5, 0) and view.totals == (5, 0)


# ----- rules 5-7: deal and discard ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_deal_three_hands_of_25_and_the_dealer_discards_3(players: int) -> None:
    dealt = GAME.apply(GAME.new(players), CHANCE, "deal:7").state
    dealer = dealt.dealer
    assert [len(hand) for hand in dealt.hands] == [25] * players
    assert len(dealt.dead) == (25 if players == 2 else 0) and len(dealt.spare) == 3
    assert GAME.to_move(dealt) == (dealer,)
    hand = dealt.hands[dealer]
    marked, _ = play(dealt, (dealer, f"x.{hand[0]}"), (dealer, f"x.{hand[1]}"))
    assert "x.ok" not in GAME.legal_actions(marked, dealer)
    marked, _ = play(marked, (dealer, f"x.{hand[1]}"), (dealer, f"x.{hand[2]}"), (dealer, f"x.{hand[3]}"))
    # Three marked: only unmarking or confirming is left; the marks are the dealer's secret.
    assert set(GAME.legal_actions(marked, dealer)) == {"x.ok", f"x.{hand[0]}", f"x.{hand[2]}", f"x.{hand[3]}"}
    assert GAME.view(marked, dealer).marks == (hand[0], hand[2], hand[3])
    assert GAME.view(marked, (dealer + 1) % players).marks == ()
    spare = dealt.spare
    done, _ = play(marked, (dealer, "x.ok"))
    assert set(done.discards) == {hand[0], hand[2], hand[3]}
    assert set(spare) <= set(done.hands[dealer]) and len(done.hands[dealer]) == 25
    assert GAME.view(done, dealer).discards == done.discards
    assert GAME.view(done, (dealer + 1) % players).discards is None
    assert done.phase in ("ask", "play")
