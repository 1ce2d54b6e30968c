"""Game 3 (RULES.md): the worked examples E3.1-E3.8 and rules 5-13, on hand-built tracks."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai.random_player import RandomPlayer
from core.cards import Card, deck36
from core.engine import CHANCE, Event, GameOver, IllegalAction, NotYourTurn, Step
from core.games.race import RaceGame, RaceState
from core.games.race_events import (
    Blocked,
    Burned,
    BuyOut,
    Killed,
    Moved,
    Opened,
    Paid,
    PlayerFinished,
    Retreated,
    Rolled,
    TokenFinished,
    Waiting,
)
from core.games.race_rules import Phase
from core.games.race_track import BANK, FINISH
from core.play import play

GAME = RaceGame()

#: Filler for the positions an example does not name: Clubs first, so an unnamed card is safe.
_FILLER = sorted(deck36(), key=lambda card: card[-1] != "C")


def track(
    cards: Mapping[int, Card],
    *,
    opened: Iterable[int] = (),
    tokens: Sequence[tuple[int, int, int]],
    coins: Sequence[int] | None = None,
    turn: int = 0,
) -> RaceState:
    """A state at the start of `turn`'s roll with `cards` at their positions (Clubs fill in first)."""
    rest = iter(card for card in _FILLER if card not in cards.values())
    deck = tuple(cards[p] if p in cards else next(rest) for p in range(1, 37))
    coins = tuple(coins) if coins is not None else (0,) * len(tokens)
    return RaceState(
        players=len(tokens),
        deck=deck,
        opened=tuple(sorted(opened)),
        tokens=tuple(tokens),
        coins=coins,
        bank=BANK - sum(coins),
        turn=turn,
        phase=Phase.ROLL,
    )


def chance(state: RaceState, *faces: int) -> tuple[RaceState, list[Event]]:
    events: list[Event] = []
    for face in faces:
        step = GAME.apply(state, CHANCE, f"die:{face}")
        state = step.state
        events.extend(step.events)
    return state, events


def act(state: RaceState, action: str) -> tuple[RaceState, list[Event]]:
    step: Step = GAME.apply(state, state.turn, action)
    return step.state, list(step.events)


E = TypeVar("E", bound=Event)


def of(kind: type[E], events: Iterable[Event]) -> list[E]:
    return [event for event in events if isinstance(event, kind)]


def is_open(state: RaceState, *positions: int) -> bool:
    return set(positions) <= set(state.opened)


# ----- worked examples -----------------------------------------------------------------------------


def test_e3_1_spade_retreat_then_reuse_the_other_die() -> None:
    state = track({5: "7S", 6: "9C"}, tokens=((0, 0, 0), (0, 0, 0)))
    state, events = chance(state, 5, 6)
    assert of(Rolled, events) == [Rolled(seat=0, dice=(5, 6))]
    state, events = act(state, "5.0")
    assert of(Retreated, events) == [Retreated(seat=0, token=0, card="7S", start=5, end=0)]
    # T1 may take the 6 again, or T2 or T3 may.
    assert GAME.legal_actions(state, 0) == ("6.0", "6.1", "6.2")
    state, _ = act(state, "6.0")
    assert state.tokens[0] == (6, 0, 0)
    assert is_open(state, 5, 6)
    assert state.phase is Phase.ROLL and state.turn == 1


def test_e3_2_hearts_chain() -> None:
    state = track({10: "9H", 13: "6H", 4: "10C", 17: "8D"}, opened=[13], tokens=((7, 0, 0), (0, 0, 0)))
    state, _ = chance(state, 3, 4)
    state, events = act(state, "3.0")
    assert of(Waiting, events) == [Waiting(seat=0, token=0, position=10, card="9H")]
    # The waiting T1 cannot take the 4: another token must.
    assert GAME.legal_actions(state, 0) == ("4.1", "4.2")
    state, _ = act(state, "4.1")
    assert state.phase is Phase.BOOST and state.accelerating == 0
    state, events = chance(state, 3)
    assert of(Waiting, events) == [Waiting(seat=0, token=0, position=13, card="6H")]
    state, events = chance(state, 4)
    assert of(Paid, events) == [Paid(seat=0, card="8D", coins=1, bank=BANK - 1)]
    assert state.tokens[0] == (17, 4, 0)
    assert state.coins == (1, 0)
    assert is_open(state, 10, 13, 4, 17)
    assert state.phase is Phase.ROLL and state.turn == 1


def test_e3_3_two_tokens_on_hearts_with_requeueing() -> None:
    state = track(
        {12: "9H", 20: "10H", 24: "8S", 16: "7H", 18: "6C", 13: "7C"},
        opened=[16],
        tokens=((8, 14, 0), (0, 0, 0)),
    )
    state, _ = chance(state, 4, 6)
    state, _ = act(state, "4.0")
    state, _ = act(state, "6.1")
    assert state.queue == (0,) and state.accelerating == 1  # T2@20 is nearer the Finish than T1@12
    state, events = chance(state, 4)
    assert of(Retreated, events) == [Retreated(seat=0, token=1, card="8S", start=24, end=16)]
    assert of(Waiting, events) == [Waiting(seat=0, token=1, position=16, card="7H")]
    accelerated = [1]
    for face in (2, 1):
        assert state.phase is Phase.BOOST
        assert state.accelerating is not None
        accelerated.append(state.accelerating)
        state, _ = chance(state, face)
    assert accelerated == [1, 1, 0]
    assert state.tokens[0] == (13, 18, 0)
    assert state.phase is Phase.ROLL and state.turn == 1


def test_e3_4_the_last_token_burns_the_second_die() -> None:
    state = track({32: "JH", 35: "8C"}, tokens=((37, 37, 30), (0, 0, 0)))
    rolled, _ = chance(state, 2, 5)
    state, events = act(rolled, "2.2")
    assert of(Burned, events) == [Burned(seat=0, die=5, reason="waiting")]
    assert state.phase is Phase.BOOST
    state, events = chance(state, 5)
    assert of(Moved, events) == [Moved(seat=0, token=2, die=5, start=32, end=37, acceleration=True)]
    assert of(PlayerFinished, events) == [PlayerFinished(seat=0, place=1)]
    assert GAME.outcome(state) is not None
    assert of(GameOver, events)

    # The 5 first instead: 35 is safe, and the 2 takes T3 home.
    state, _ = act(rolled, "5.2")
    assert state.tokens[0] == (37, 37, 35)
    state, events = act(state, "2.2")
    assert of(TokenFinished, events) == [TokenFinished(seat=0, token=2)]
    assert state.order == (0, 1)


@pytest.mark.parametrize("pay", [True, False])
def test_e3_5_buy_out_on_an_already_open_spade(pay: bool) -> None:
    state = track({22: "QS"}, opened=[22], tokens=((0, 0, 0), (19, 0, 0)), coins=(0, 4), turn=1)
    state, _ = chance(state, 3, 1)
    state, events = act(state, "3.0")
    assert state.phase is Phase.BUYOUT and state.pending == 0
    assert GAME.legal_actions(state, 1) == ("nopay", "pay.4")
    assert GAME.view(state, None).price == 4
    state, events = act(state, "pay.4" if pay else "nopay")
    assert of(BuyOut, events) == [BuyOut(seat=1, token=0, card="QS", price=4, paid=pay)]
    if pay:
        assert state.tokens[1][0] == 22
        assert state.coins == (0, 0) and state.bank == BANK
    else:
        assert of(Killed, events) == [Killed(seat=1, token=0, card="QS", start=22)]
        assert state.tokens[1][0] == 0
        assert state.coins == (0, 4)
    # The turn goes on with the 1.
    assert state.phase is Phase.MOVE and GAME.legal_actions(state, 1)[0].startswith("1.")


def test_e3_6_finish_overshoot() -> None:
    state = track({36: "9C"}, tokens=((35, 0, 0), (0, 0, 0)))
    rolled, _ = chance(state, 6, 1)
    state, events = act(rolled, "6.0")
    assert of(Moved, events) == [Moved(seat=0, token=0, die=6, start=35, end=37, excess=4)]
    assert GAME.legal_actions(state, 0) == ("1.1", "1.2")
    # The 1 first: T1 reaches 36, and the 6 can still take it home.
    state, _ = act(rolled, "1.0")
    assert state.tokens[0][0] == 36 and is_open(state, 36)
    state, _ = act(state, "6.0")
    assert state.tokens[0][0] == FINISH


def test_e3_6_with_no_other_token_the_die_is_burned() -> None:
    state = track({}, tokens=((35, 37, 37), (0, 0, 0), (0, 0, 0)))
    state, _ = chance(state, 6, 1)
    state, events = act(state, "6.0")
    assert of(Burned, events) == [Burned(seat=0, die=1, reason="finished")]
    assert state.order == (0,) and state.turn == 1


def test_e3_7_an_open_diamond_pays_once() -> None:
    state = track({14: "JD"}, opened=[14], tokens=((0, 10, 0), (0, 0, 0)))
    state, _ = chance(state, 4, 1)
    state, events = act(state, "4.1")
    assert state.tokens[0][1] == 14
    assert not of(Paid, events) and not of(Opened, events)
    assert state.coins == (0, 0) and state.bank == BANK


def test_e3_8_the_last_player_racing_loses() -> None:
    state = track({}, tokens=((37, 37, 35), (0, 0, 0), (37, 37, 36)), turn=2)
    state, _ = chance(state, 1, 3)
    state, events = act(state, "1.2")
    assert of(PlayerFinished, events) == [PlayerFinished(seat=2, place=1)]
    assert state.turn == 0 and GAME.outcome(state) is None
    state, _ = chance(state, 2, 4)
    state, events = act(state, "2.2")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.order == (2, 0, 1)
    assert outcome.losers == (1,) and outcome.winners == (2,)
    assert of(GameOver, events)
    assert GAME.to_move(state) == ()


# ----- rules ---------------------------------------------------------------------------------------


def test_rule_9_diamonds_pay_one_or_two_coins_when_opened() -> None:
    state = track({3: "7D", 5: "KD"}, tokens=((0, 0, 0), (0, 0, 0)))
    state, _ = chance(state, 3, 5)
    state, _ = act(state, "3.0")
    state, events = act(state, "5.1")
    assert [event.coins for event in of(Paid, events)] == [2]
    assert state.coins == (3, 0) and state.bank == BANK - 3


def test_rule_10_no_buy_out_question_without_the_coins() -> None:
    state = track({6: "6S"}, tokens=((0, 0, 0), (0, 0, 0)), coins=(2, 0))
    state, _ = chance(state, 6, 2)
    state, events = act(state, "6.0")
    assert state.phase is Phase.MOVE
    assert of(Retreated, events) == [Retreated(seat=0, token=0, card="6S", start=6, end=0)]


def test_rule_10_a_spade_chain_asks_again_at_every_spade() -> None:
    # 10 -> 7S@10 sends T1 to 3, onto a closed 6S: asked again, declined, back to the Start (A3.5).
    state = track({10: "7S", 3: "6S"}, tokens=((6, 0, 0), (0, 0, 0)), coins=(6, 0))
    state, _ = chance(state, 4, 1)
    state, _ = act(state, "4.0")
    assert state.phase is Phase.BUYOUT
    state, _ = act(state, "nopay")
    assert state.phase is Phase.BUYOUT and state.tokens[0][0] == 3
    state, events = act(state, "nopay")
    assert of(Retreated, events) == [Retreated(seat=0, token=0, card="6S", start=3, end=0)]
    assert state.phase is Phase.MOVE and state.coins == (6, 0)


def test_rule_12_a_tie_in_the_queue_is_the_players_choice() -> None:
    state = track({9: "9H", 10: "6C"}, tokens=((5, 3, 0), (0, 0, 0)))
    state, _ = chance(state, 4, 6)
    state, _ = act(state, "4.0")
    state, _ = act(state, "6.1")
    assert state.phase is Phase.QUEUE
    assert GAME.legal_actions(state, 0) == ("go.0", "go.1")
    state, _ = act(state, "go.1")
    assert state.accelerating == 1 and state.queue == (0,)
    state, events = chance(state, 1)
    assert of(Moved, events)[0].token == 1
    assert state.phase is Phase.BOOST and state.accelerating == 0


#: A wall of six face-up Spades at 25-30, safe Clubs just before it.
_WALL = {25: "6S", 26: "7S", 27: "8S", 28: "9S", 29: "10S", 30: "JS", 21: "6C", 22: "7C", 23: "8C"}


def _walled(*, closed: Iterable[int] = (), coins: tuple[int, int] = (2, 2)) -> tuple[RaceState, list[Event]]:
    """Seat 0 to play 1 and 1 from 20; seat 1 waits on 23; the track open but for 31-36 and `closed`."""
    hidden = {*range(31, 37), *closed}
    state = track(
        _WALL,
        opened=[p for p in range(1, 37) if p not in hidden],
        tokens=((20, 37, 37), (23, 37, 37)),
        coins=coins,
    )
    state, _ = chance(state, 1, 1)
    state, _ = act(state, "1.0")
    return act(state, "1.0")


def test_a3_11_a_track_nobody_can_finish_ends_the_game() -> None:
    state, events = _walled()
    # Neither can pay the 3 coins a pip Spade's buy-out costs, and no closed Diamond is left to pay:
    # ranked by how far they came, seat 1 (on 23) before seat 0 (on 22).
    assert of(Blocked, events) == [Blocked(seats=(1, 0))]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.order == (1, 0) and outcome.losers == (0,)


@pytest.mark.parametrize(
    "why",
    [
        "a closed card reachable behind the wall may still pay",
        "three coins buy a way through",
        "a wall card is still face down",
    ],
)
def test_a3_11_a_track_that_may_still_be_finished_goes_on(why: str) -> None:
    if why.startswith("a closed card"):
        state, _ = _walled(closed=[3])  # reached after the Jack of Spades kills
    elif why.startswith("three coins"):
        state, _ = _walled(coins=(3, 2))
    else:
        state, _ = _walled(closed=[27])
    assert state.phase is Phase.ROLL and state.turn == 1


def test_turns_go_clockwise_and_skip_finished_players() -> None:
    state = track({}, tokens=((0, 0, 0), (37, 37, 37), (0, 0, 0)), turn=0)
    state = state.model_copy(update={"order": (1,)})
    state, _ = chance(state, 1, 2)
    state, _ = act(state, "1.0")
    state, _ = act(state, "2.0")
    assert state.turn == 2


def test_only_the_turn_player_acts() -> None:
    state = track({}, tokens=((0, 0, 0), (0, 0, 0)))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, "1.0")
    state, _ = chance(state, 1, 2)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, "1.0")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "3.0")


def test_a_new_game_deals_and_draws_the_first_player() -> None:
    state = GAME.new(3)
    assert GAME.to_move(state) == (CHANCE,) and state.phase is Phase.DEAL
    state = GAME.apply(state, CHANCE, "deal:7").state
    assert sorted(state.deck) == sorted(deck36())
    assert GAME.chance_outcomes(state) == ("first:0", "first:1", "first:2")
    step = GAME.apply(state, CHANCE, "first:2")
    assert step.state.turn == 2 and step.state.phase is Phase.ROLL


def test_views_show_open_cards_only() -> None:
    state = track({5: "7S", 6: "9C"}, opened=[6], tokens=((0, 0, 0), (0, 0, 0)))
    view = GAME.view(state, None)
    assert view.faces[5] == "9C"
    assert [p for p, face in enumerate(view.faces, start=1) if face is not None] == [6]
    assert GAME.view(state, 1) == view.model_copy(update={"seat": 1})


def test_labels() -> None:
    assert GAME.label("5.0", "en") == "5 → token 1"
    assert GAME.label("pay.3", "en") == "Pay 3 coins"
    assert GAME.label("nopay", "en") == "Don't pay"
    assert GAME.label("go.2", "en") == "Accelerate token 3"


# ----- properties over random games ----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3]))
def test_coins_are_conserved_and_every_game_ends(seed: int, players: int) -> None:
    final = None
    blocked: tuple[int, ...] = ()
    # `play` raises if a game does not end within its step limit.
    for turn in play(GAME, [RandomPlayer()] * players, random.Random(seed)):
        state = turn.step.state
        assert state.bank + sum(state.coins) == BANK
        assert min(state.coins) >= 0 and state.bank >= 0
        assert all(0 <= here <= FINISH for tokens in state.tokens for here in tokens)
        blocked += tuple(seat for event in of(Blocked, turn.step.events) for seat in event.seats)
        final = state
    assert final is not None
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert sorted(outcome.order) == list(range(players))
    # Every player ranked before the loser has every token home, unless a blocked track (A3.11)
    # ranked the players still racing.
    racing = blocked or outcome.order[-1:]
    assert outcome.order[len(outcome.order) - len(racing) :] == racing
    for seat in outcome.order:
        assert (final.tokens[seat] == (FINISH,) * 3) == (seat not in racing)


def test_the_simulation_plays_the_engines_rules() -> None:
    for number in range(5):
        turns = list(play(GAME, [RandomPlayer()] * 3, random.Random(number)))
        sim = GAME.simulation(GAME.new(3))
        for turn in turns:
            assert sorted(sim.legal(turn.seat)) == list(GAME.legal_actions(turn.before, turn.seat))
            sim.apply(turn.seat, turn.action)
        final = turns[-1].step.state
        assert not sim.to_move()
        outcome = GAME.outcome(final)
        assert outcome is not None
        assert sim.returns()[outcome.order[0]] == 1.0 and sim.returns()[outcome.losers[0]] == 0.0
