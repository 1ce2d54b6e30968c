"""Games 6 and 7 (RULES.md): the worked examples E7.1-E7.7 and E6.1-E6.5, and the core rules D1-D16
and T1-T9 they leave out, on hand-built states. Seats A, B, C, D are 0-3, clockwise."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

import pytest

from core.cards import deck36
from core.engine import CHANCE, Event, GameOver, IllegalAction, NotYourTurn, OptionValue, Seat
from core.games.durak import (
    CardPlayed,
    Discarded,
    DurakGame,
    DurakState,
    PickedUp,
    TransferDurakGame,
    first_attacker,
    sort_hand,
)

A, B, C, D = 0, 1, 2, 3
THROW_IN = DurakGame()
TRANSFER = TransferDurakGame()


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def bout(
    game: DurakGame,
    hands: Mapping[Seat, str],
    *,
    trump: str,
    attacker: Seat,
    talon: str = "",
    out: Sequence[Seat] = (),
    number: int = 1,
    options: Mapping[str, OptionValue] | None = None,
) -> DurakState:
    """A state at the start of a bout: `attacker` is about to lead, the defender is set by D6."""
    state = DurakState(
        game=game.id,
        players=4,
        options={**game.default_options, **(options or {})},
        hands=tuple(sort_hand(cards(hands.get(seat, "")), trump[-1]) for seat in range(4)),
        talon=cards(talon),
        trump=trump,
        known=((),) * 4,
        unbeaten=((),) * 4,
        out=tuple(out),
        bout=number,
    )
    board = game.simulation(state)
    board.start_bout(attacker)
    return board.to_state(state)


def play(game: DurakGame, state: DurakState, *moves: tuple[Seat, str]) -> tuple[DurakState, list[Event]]:
    events: list[Event] = []
    for seat, action in moves:
        step = game.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    return state, events


def dealt(game: DurakGame, seed: int, **options: OptionValue) -> DurakState:
    state: DurakState = game.apply(game.new(4, options), CHANCE, f"deal:{seed}").state
    return state


# ----- D3, D4, D5: the deal and the first attacker ----------------------------------------------


def test_e7_1_lowest_trump_in_hand_attacks_first() -> None:
    hands = [cards("8D QD 7S"), cards("7D 9S"), cards("6S AC"), cards("9D 10C")]
    # The face-up 6D is under the talon, not in a hand, so it does not count.
    assert first_attacker(hands, "D", fool=-1) == B


def test_a7_5_nobody_holds_a_trump_lowest_card_then_suit_order() -> None:
    hands = [cards("6D KS"), cards("6H 7S"), cards("6C AS"), cards("8S 9S")]
    assert first_attacker(hands, "S", fool=-1) == B  # only B holds a spade: the lowest trump
    hands = [cards("6D KH"), cards("6H 7D"), cards("6C AH"), cards("8D 9C")]
    assert first_attacker(hands, "S", fool=-1) == C  # three sixes: clubs is the lowest suit


@pytest.mark.parametrize("seed", range(30))
def test_d3_d4_deal_and_first_attacker(seed: int) -> None:
    state = dealt(THROW_IN, seed)
    assert state.trump is not None
    assert [len(hand) for hand in state.hands] == [6, 6, 6, 6]
    assert len(state.talon) == 12 and state.talon[-1] == state.trump
    assert sorted([*(c for hand in state.hands for c in hand), *state.talon]) == sorted(deck36())
    suit = state.trump[-1]
    # deck36 lists each suit low to high, so its index orders the trumps by rank.
    trumps = [
        (deck36().index(c), seat) for seat, hand in enumerate(state.hands) for c in hand if c[-1] == suit
    ]
    if trumps:
        assert state.attacker == min(trumps)[1]
    assert state.defender == (state.attacker + 1) % 4
    assert state.limit == 6
    assert THROW_IN.to_move(state) == (state.attacker,)


@pytest.mark.parametrize("seed", range(10))
def test_e7_2_repeat_game_starts_from_under_the_fool(seed: int) -> None:
    state = dealt(THROW_IN, seed, fool=C)
    assert (state.attacker, state.defender) == (D, A)


@pytest.mark.parametrize("fool", [-2, 4])
def test_the_previous_fool_must_be_a_seat(fool: int) -> None:
    with pytest.raises(ValueError, match="bad option fool"):
        THROW_IN.new(4, {"fool": fool})


# ----- D7-D12: the bout ----------------------------------------------------------------------------


def test_e7_3_limit_is_the_defenders_hand_when_the_attack_began() -> None:
    state = bout(
        THROW_IN,
        {A: "9S 9C 7D", B: "JS QD KD 10C", C: "9D 9H 6C", D: "JD 8C"},
        trump="6H",
        attacker=A,
    )
    assert state.limit == 4
    state, _ = play(
        THROW_IN,
        state,
        (A, "a.9S"),
        (B, "b.JS"),
        (A, "pass"),
        (C, "a.9D"),
        (B, "b.QD"),
        (A, "pass"),
        (C, "pass"),
        (D, "a.JD"),
        (B, "b.KD"),
        (A, "a.9C"),
    )
    # Four attack cards: nobody may throw in any more, though C holds a nine.
    assert THROW_IN.to_move(state) == (B,)
    assert THROW_IN.legal_actions(state, C) == ()
    with pytest.raises(NotYourTurn):
        THROW_IN.apply(state, C, "a.9H")
    state, events = play(THROW_IN, state, (B, "b.10C"))
    assert len(state.discard) == 8 and state.table == ()
    assert any(isinstance(event, Discarded) for event in events)
    assert state.hands[B] == () and state.out == (B,)
    # B would attack next but is out: C attacks D.
    assert (state.attacker, state.defender) == (C, D)
    assert THROW_IN.outcome(state) is None


def test_e7_4_throwing_in_after_a_take() -> None:
    state = bout(
        THROW_IN,
        {A: "9S 9D KC", B: "6D 7D 8D 10C", C: "9C 6S", D: "JC 9H 7C"},
        trump="6H",
        attacker=A,
    )
    state, _ = play(THROW_IN, state, (A, "a.9S"), (B, "take"), (A, "a.9D"), (A, "pass"), (C, "a.9C"))
    state, _ = play(THROW_IN, state, (A, "pass"), (C, "pass"))
    assert THROW_IN.to_move(state) == (D,)
    assert "a.JC" not in THROW_IN.legal_actions(state, D)
    with pytest.raises(IllegalAction):
        THROW_IN.apply(state, D, "a.JC")  # no jack on the table
    state, events = play(THROW_IN, state, (D, "a.9H"))
    # The fourth card reached the limit: B picks up at once.
    assert len(state.hands[B]) == 8
    assert PickedUp(seat=B, cards=cards("9S 9D 9C 9H")) in events
    assert state.known[B] == cards("9S 9D 9C 9H")
    assert state.unbeaten[B] == ("9S",)
    assert (state.attacker, state.defender) == (C, D)


@pytest.mark.parametrize(("pagat", "drawn"), [(False, {A: 2, B: 1, C: 0}), (True, {A: 2, B: 0, C: 1})])
def test_e7_5_draw_order_seed_and_pagat(pagat: bool, drawn: dict[Seat, int]) -> None:
    state = bout(
        THROW_IN,
        {
            A: "7S 7D 6S 10S JS QS",
            B: "8S 8D 9H 6D 10D JD",
            C: "7H 6H 10H JH QH KH",
            D: "QD KD 10C JC QC AC",
        },
        trump="KC",
        talon="AS AD KC",
        attacker=A,
        options={"pagat_draw": pagat},
    )
    state, _ = play(
        THROW_IN,
        state,
        (A, "a.7S"),
        (A, "a.7D"),
        (B, "b.8S"),
        (B, "b.8D"),
        (A, "pass"),
        (C, "a.7H"),
        (B, "b.9H"),
        (A, "pass"),
        (C, "pass"),
    )
    before = [len(hand) for hand in state.hands]
    assert before == [4, 3, 5, 6]
    state, _ = play(THROW_IN, state, (D, "pass"))
    assert [len(state.hands[seat]) - before[seat] for seat in (A, B, C)] == [drawn[A], drawn[B], drawn[C]]
    assert {"AS", "AD"} <= set(state.hands[A])
    taker = C if pagat else B
    assert "KC" in state.hands[taker] and state.known[taker] == ("KC",)  # the face-up trump is seen
    assert state.talon == ()
    assert (state.attacker, state.defender) == (B, C)  # B defended successfully


def test_e7_6_drawn_game() -> None:
    state = bout(THROW_IN, {A: "KS", B: "AS"}, trump="6H", attacker=A, out=(C, D))
    state, events = play(THROW_IN, state, (A, "a.KS"), (B, "b.AS"))
    outcome = THROW_IN.outcome(state)
    assert outcome is not None and outcome.draw and outcome.losers == ()
    assert state.fool is None and outcome.winners == (C, D, A, B)
    assert any(isinstance(event, GameOver) for event in events)
    assert THROW_IN.to_move(state) == ()


def test_e7_6_variant_the_defender_takes_and_is_the_fool() -> None:
    state = bout(THROW_IN, {A: "KS", B: "QS"}, trump="6H", attacker=A, out=(C, D))
    state, _ = play(THROW_IN, state, (A, "a.KS"))
    assert state.out == (C, D, A)
    assert THROW_IN.legal_actions(state, B) == ("take",)
    state, _ = play(THROW_IN, state, (B, "take"))
    outcome = THROW_IN.outcome(state)
    assert outcome is not None and not outcome.draw
    assert outcome.losers == (B,) and outcome.winners == (C, D, A)


def test_e7_7_the_fool_among_four() -> None:
    state = bout(THROW_IN, {B: "8S 7D 10D QC", D: "7S"}, trump="6H", attacker=D, out=(A, C))
    assert state.defender == B
    state, _ = play(THROW_IN, state, (D, "a.7S"), (B, "b.8S"))
    outcome = THROW_IN.outcome(state)
    assert outcome is not None
    assert outcome.losers == (B,) and outcome.winners == (A, C, D)
    assert len(state.hands[B]) == 3


def test_d15_finishing_order_goes_out_first_and_the_fool_last() -> None:
    """E7.6, its variant and E7.7: `Outcome.order` lists the seats in the order they went out, then
    the fool; a drawn game lists the going-out order alone."""
    drawn = bout(THROW_IN, {A: "KS", B: "AS"}, trump="6H", attacker=A, out=(C, D))
    drawn, _ = play(THROW_IN, drawn, (A, "a.KS"), (B, "b.AS"))
    taken = bout(THROW_IN, {A: "KS", B: "QS"}, trump="6H", attacker=A, out=(C, D))
    taken, _ = play(THROW_IN, taken, (A, "a.KS"), (B, "take"))
    four = bout(THROW_IN, {B: "8S 7D 10D QC", D: "7S"}, trump="6H", attacker=D, out=(A, C))
    four, _ = play(THROW_IN, four, (D, "a.7S"), (B, "b.8S"))
    orders = [THROW_IN.outcome(state) for state in (drawn, taken, four)]
    assert [outcome.order if outcome else None for outcome in orders] == [
        (C, D, A, B),
        (C, D, A, B),
        (A, C, D, B),
    ]


def test_d9_limit_is_six_even_against_a_bigger_hand() -> None:
    state = bout(THROW_IN, {A: "6S", B: "7S 8S 9S 10S JS QS KS AS", C: "6C"}, trump="6H", attacker=A)
    assert state.limit == 6


def test_a7_1_first_bout_five_is_an_option() -> None:
    assert dealt(THROW_IN, 3).limit == 6
    state = dealt(THROW_IN, 3, first_bout_five=True)
    assert state.limit == 5
    # End the first bout: a lead, a take, everybody passes.
    state, _ = play(THROW_IN, state, (state.attacker, THROW_IN.legal_actions(state, state.attacker)[0]))
    state, _ = play(THROW_IN, state, (state.defender, "take"))
    while state.bout == 0:
        (seat,) = THROW_IN.to_move(state)
        state, _ = play(THROW_IN, state, (seat, "pass"))
    assert state.limit == min(6, len(state.hands[state.defender])) == 6


def test_a7_6_a_new_card_gives_the_right_back_to_the_first_attacker() -> None:
    state = bout(THROW_IN, {A: "7S 7D", B: "8S 9S 10S", C: "8C 6D", D: "6C JD"}, trump="6H", attacker=A)
    state, _ = play(THROW_IN, state, (A, "a.7S"), (A, "pass"), (C, "pass"))
    assert THROW_IN.to_move(state) == (B, D)
    state, _ = play(THROW_IN, state, (B, "b.8S"))
    assert THROW_IN.to_move(state) == (A,) and state.passes == ()
    assert THROW_IN.legal_actions(state, A) == ("a.7D", "pass")
    state, _ = play(THROW_IN, state, (A, "pass"))
    assert THROW_IN.legal_actions(state, C) == ("a.8C", "pass")  # the defence opened the eights


def test_d7_beat_the_oldest_unbeaten_card_first() -> None:
    state = bout(THROW_IN, {A: "7S 7D", B: "8S 8D 10H", C: "6C"}, trump="6H", attacker=A)
    state, _ = play(THROW_IN, state, (A, "a.7S"), (A, "a.7D"))
    assert THROW_IN.legal_actions(state, B) == ("b.10H", "b.8S", "take")
    state, _ = play(THROW_IN, state, (B, "b.8S"))
    assert THROW_IN.legal_actions(state, B) == ("b.10H", "b.8D", "take")


def test_throw_in_durak_has_no_transfers() -> None:
    state = bout(THROW_IN, {A: "8C 6S", B: "8D 6D", C: "9C 9S 9D", D: "KS"}, trump="6H", attacker=A)
    state, _ = play(THROW_IN, state, (A, "a.8C"))
    assert THROW_IN.legal_actions(state, B) == ("take",)


# ----- Game 6: transfers ---------------------------------------------------------------------------


def test_e6_1_transfer_blocked_by_the_next_players_hand() -> None:
    state = bout(
        TRANSFER,
        {A: "8C 6S 7S", B: "8D 6D 7D", C: "8H 9D 6C 7C 10S", D: "KS QS"},
        trump="6H",
        talon="AS AD AH",
        attacker=A,
    )
    state, _ = play(TRANSFER, state, (A, "a.8C"))
    assert "t.8D" in TRANSFER.legal_actions(state, B)  # C holds 5 >= 2
    state, _ = play(TRANSFER, state, (B, "t.8D"))
    assert state.table == (("8C", None), ("8D", None)) and state.defender == C
    # Three cards against D's two: 8H may only beat, and only the leftmost 8C.
    assert TRANSFER.legal_actions(state, C) == ("b.8H", "take")
    state, _ = play(TRANSFER, state, (C, "b.8H"))
    assert state.table == (("8C", "8H"), ("8D", None))
    assert TRANSFER.legal_actions(state, C) == ("b.9D", "take")


def test_e6_1_the_transfer_names_the_new_defender() -> None:
    state = bout(
        TRANSFER,
        {A: "8C 6S 7S", B: "8D 6D 7D", C: "8H 9D 6C 7C 10S", D: "KS QS"},
        trump="6H",
        talon="AS AD AH",
        attacker=A,
    )
    state, events = play(TRANSFER, state, (A, "a.8C"), (B, "t.8D"))
    assert events == [
        CardPlayed(seat=A, card="8C", kind="attack", defender=B),
        CardPlayed(seat=B, card="8D", kind="transfer", defender=C),
    ]


def test_e6_2_no_transfer_after_a_card_was_beaten() -> None:
    state = bout(
        TRANSFER,
        {A: "8C 6S 7S", B: "8D 6D 7D", C: "8H 8S 9D 6C 7C", D: "KS QS JS"},
        trump="6H",
        talon="AS AD AH",
        attacker=A,
    )
    state, _ = play(TRANSFER, state, (A, "a.8C"), (B, "t.8D"))
    assert {"t.8S", "t.8H", "b.8H"} <= set(TRANSFER.legal_actions(state, C))  # D holds 3 >= 3
    state, _ = play(TRANSFER, state, (C, "b.8H"))
    assert TRANSFER.legal_actions(state, C) == ("b.9D", "take")


def test_e6_3_a_trump_is_laid_to_transfer_never_shown() -> None:
    state = bout(
        TRANSFER, {A: "8C 6S", B: "8H 6D", C: "9C 9S 9D", D: "KS"}, trump="6H", talon="AS AH", attacker=A
    )
    state, _ = play(TRANSFER, state, (A, "a.8C"))
    # Both are legal, so the player chooses "beat or transfer" (T3); nothing else uses the 8H.
    assert TRANSFER.legal_actions(state, B) == ("b.8H", "t.8H", "take")
    for show in ("s.8H", "show.8H", "t.8H.show"):
        with pytest.raises(IllegalAction):
            TRANSFER.apply(state, B, show)
    state, _ = play(TRANSFER, state, (B, "t.8H"))
    assert "8H" not in state.hands[B] and state.table == (("8C", None), ("8H", None))


E6_4_HANDS = {
    A: "6S 8S 8D 8C 7H 10H",
    B: "6D 9S 9D JC QC KC",
    C: "6C JS QS KS AS 9C",
    D: "6H 8H JD QD KD AD",
}


def e6_4_chain() -> DurakState:
    state = bout(TRANSFER, E6_4_HANDS, trump="9H", talon="7S 7D 7C 10S 10D 10C 9H", attacker=A)
    state, _ = play(TRANSFER, state, (A, "a.6S"), (B, "t.6D"), (C, "t.6C"), (D, "t.6H"))
    return state


def test_e6_4_a_chain_all_the_way_round() -> None:
    state = e6_4_chain()
    assert state.table == (("6S", None), ("6D", None), ("6C", None), ("6H", None))
    assert (state.attacker, state.defender, state.limit) == (A, A, 5)
    # Beat 6S first; no transfer (A holds no six).
    assert TRANSFER.legal_actions(state, A) == ("b.10H", "b.7H", "b.8S", "take")
    # Throw-in priority: D, then B, then C.
    assert TRANSFER.to_move(state) == (A, D)
    state, _ = play(TRANSFER, state, (D, "pass"))
    assert TRANSFER.to_move(state) == (A, B)
    state, _ = play(TRANSFER, state, (B, "pass"))
    assert TRANSFER.to_move(state) == (A, C)
    state, _ = play(TRANSFER, state, (C, "pass"))
    assert TRANSFER.to_move(state) == (A,)
    # The fifth and last card must match a defence card: the sixes are all out.
    state, _ = play(TRANSFER, state, (A, "b.8S"))
    assert TRANSFER.legal_actions(state, D) == ("a.8H", "pass")
    state, _ = play(TRANSFER, state, (D, "a.8H"))
    assert TRANSFER.to_move(state) == (A,)
    assert TRANSFER.legal_actions(state, A)[-1] == "take"
    assert "b.8D" in TRANSFER.legal_actions(state, A)  # 6D is the next to beat, and 6H needs a trump
    state, _ = play(TRANSFER, state, (A, "b.8D"), (A, "b.8C"))
    assert TRANSFER.legal_actions(state, A) == ("b.10H", "b.7H", "take")
    state, _ = play(TRANSFER, state, (A, "b.7H"), (A, "b.10H"))
    # Beaten off; A draws first (six), then B (the last card, the face-up trump); C and D get none.
    assert state.hands[A] == sort_hand(cards("7S 7D 7C 10S 10D 10C"), "H")
    assert "9H" in state.hands[B] and state.known[B] == ("9H",)
    assert [len(hand) for hand in state.hands] == [6, 6, 5, 4]
    assert (state.attacker, state.defender) == (A, B)


def test_e6_4_variant_a_takes_and_b_attacks_c() -> None:
    state = e6_4_chain()
    state, _ = play(TRANSFER, state, (A, "take"), (D, "pass"), (B, "pass"), (C, "pass"))
    assert len(state.hands[A]) == 9
    # Drawing from A: A holds 9 and draws nothing, then B, C, D one each.
    assert state.talon == cards("10S 10D 10C 9H")
    assert "7S" in state.hands[B] and "7D" in state.hands[C] and "7C" in state.hands[D]
    assert (state.attacker, state.defender) == (B, C)


@pytest.mark.parametrize(("c_hand", "legal"), [("JS QS KS", True), ("JS QS", False)])
def test_e6_5_transfer_after_a_throw_in(c_hand: str, legal: bool) -> None:
    state = bout(
        TRANSFER,
        {A: "7S 7D 6S", B: "7C 8C 9C", C: c_hand, D: "AS"},
        trump="6H",
        talon="AD AH",
        attacker=A,
    )
    state, _ = play(TRANSFER, state, (A, "a.7S"), (A, "a.7D"))
    assert ("t.7C" in TRANSFER.legal_actions(state, B)) is legal


def test_t2_transfer_skips_seats_without_cards() -> None:
    state = bout(TRANSFER, {A: "7S 9S", B: "7C 8C", D: "AS KS QS"}, trump="6H", attacker=A, out=(C,))
    state, _ = play(TRANSFER, state, (A, "a.7S"), (B, "t.7C"))
    assert state.defender == D and state.lead == B and state.limit == 3


# ----- hidden information, codes and labels -------------------------------------------------------


def test_shuffle_hidden_keeps_known_cards_counts_and_the_face_up_trump() -> None:
    state = dealt(THROW_IN, 11)
    attacker, defender = state.attacker, state.defender
    lead = THROW_IN.legal_actions(state, attacker)[0]
    state, _ = play(THROW_IN, state, (attacker, lead), (defender, "take"))
    while state.bout == 0:
        (thrower,) = THROW_IN.to_move(state)
        state, _ = play(THROW_IN, state, (thrower, "pass"))
    assert state.known[defender] == (lead[2:],)
    rng = random.Random(1)
    for seat in (None, A, B, C, D):
        shuffled = THROW_IN.shuffle_hidden(state, seat, rng)
        assert THROW_IN.view(shuffled, seat) == THROW_IN.view(state, seat)
        assert lead[2:] in shuffled.hands[defender]
        assert shuffled.talon[-1] == state.talon[-1] == state.trump
        if seat is not None:
            assert shuffled.hands[seat] == state.hands[seat]
    assert THROW_IN.view(state, None).hand is None


def test_action_codes_fit_callback_data_and_labels_use_the_seed_terms() -> None:
    codes = [f"{kind}.{card}" for kind in "abt" for card in deck36()] + ["take", "pass"]
    assert all(len(code) <= 20 and re.fullmatch(r"[0-9A-Za-z_.,+=-]+", code) for code in codes)
    assert TRANSFER.label("take", "ru") == "Взять"
    assert TRANSFER.label("pass", "ru") == "Бито"
    assert TRANSFER.label("t.QH", "ru") == "Перевести Д♥"
    assert TRANSFER.label("b.10S", "en") == "Beat 10♠"
    assert TRANSFER.label("a.AC", "ru") == "Т♣"
    with pytest.raises(ValueError):
        TRANSFER.label("x.AC", "en")
