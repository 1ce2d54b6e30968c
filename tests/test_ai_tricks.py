"""Computer players of the Tarot trick games (Game 4 `tarot`, Game 5 `minor_arcana`): legal moves
from the view alone, reproducible for a seed, the heuristic's rules of thumb on hand-built
positions, and normal clearly stronger than easy."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from core.ai import minor_arcana, tarot
from core.ai.base import ComputerPlayer
from core.ai.tricks import (
    PlayOuts,
    Seen,
    across_suits,
    choose_card,
    discard_options,
    seen_from_table,
    seen_knowing,
)
from core.engine import Game
from core.games.minor_arcana import MinorArcanaGame, MinorArcanaState
from core.games.tarot import TarotGame, TarotState
from core.match import HandScored
from core.play import play
from core.trickgame import TrickGame, TrickTable
from core.tricks import DECK, PIPS, SUIT, Hand

TAROT, MINOR = TarotGame(), MinorArcanaGame()
GAMES: dict[str, tuple[TrickGame[Any, Any], Any, dict[str, Any]]] = {
    "tarot": (TAROT, tarot, {}),
    "minor_arcana": (MINOR, minor_arcana, {"length": "hand"}),
}
#: A cheap hard player: the same search, fewer play-outs.
HARD_BUDGET = 1_500


def cards(text: str) -> list[str]:
    return text.split()


def _player(module: Any, level: str) -> ComputerPlayer[Any]:
    player: ComputerPlayer[Any] = module.hard(HARD_BUDGET) if level == "hard" else getattr(module, level)()
    return player


def _decisions(game: Game[Any, Any], players: int, seed: int, options: Mapping[str, Any]) -> list[Any]:
    """The states of one hand of normal players where a seat has a choice."""
    module = tarot if game is TAROT else minor_arcana
    found = []
    for turn in play(game, [module.normal()] * players, random.Random(seed), options):
        if turn.seat >= 0 and len(game.legal_actions(turn.before, turn.seat)) > 1:
            found.append((turn.before, turn.seat))
        if any(isinstance(event, HandScored) for event in turn.step.events):
            break
    return found


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize(("game_id", "players"), [("tarot", 2), ("tarot", 3), ("minor_arcana", 4)])
def test_a_level_answers_legally_from_the_view_alone_and_the_same_for_a_seed(
    game_id: str, players: int, level: str
) -> None:
    game, module, options = GAMES[game_id]
    player = _player(module, level)
    shuffler = random.Random(0)
    decisions = _decisions(game, players, 7, options)
    assert {state.phase for state, _ in decisions} >= {"play"}
    for number, (state, seat) in enumerate(decisions):
        if level == "hard" and number % 6:
            continue  # the search is dear: every sixth decision
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        action = player.choose(view, legal, random.Random(number))
        assert action in legal
        assert player.choose(view, legal, random.Random(number)) == action
        # Hidden cards dealt otherwise: the same view, so the same answer.
        hidden = game.shuffle_hidden(state, seat, shuffler)
        assert player.choose(game.view(hidden, seat), legal, random.Random(number)) == action


# ----- the heuristic's rules of thumb --------------------------------------------------------------


def _seen(hand: str, trick: str = "", *, seat: int = 1, players: int = 3, gone: str = "") -> Seen:
    """`seat` to play to `trick` (cards of the seats before it, in order)."""
    played = trick.split()
    first = (seat - len(played)) % players
    return Seen(
        seat=seat,
        players=players,
        hand=hand.split(),
        legal=hand.split(),
        trick=[((first + number) % players, card) for number, card in enumerate(played)],
        gone=set(gone.split()) | set(played),
        voids=[set() for _ in range(players)],
    )


def test_it_follows_low_when_it_cannot_win() -> None:
    assert choose_card(_seen("3C 7C QC", "KC", seat=1, players=2), tarot.STYLE) == "3C"


def test_the_last_to_play_takes_the_trick_banking_its_own_court() -> None:
    # The 10 of Wands would win as well; the Queen wins and brings its 4 points home.
    assert choose_card(_seen("10W QW 2W", "9W 3W", seat=2), minor_arcana.STYLE) == "QW"


def test_the_magician_is_played_where_it_is_sure_to_win() -> None:
    # Nobody trumped a Wands trick and it plays last: the Magician wins it (and its 5 points).
    assert choose_card(_seen("T20 T1", "5W 6W", seat=2), minor_arcana.STYLE) == "T1"
    # A trump is down: the Magician would fall, the 20 wins.
    assert choose_card(_seen("T20 T1", "5W T4", seat=2), minor_arcana.STYLE) == "T20"


def test_the_fool_saves_a_king_that_would_fall() -> None:
    # Cups led and trumped: following with the King would give it away.
    assert choose_card(_seen("KC T0", "2C T5", seat=2), tarot.STYLE) == "T0"
    # With a small Cup to give instead, the Fool is kept.
    assert choose_card(_seen("KC 4C T0", "2C T5", seat=2), tarot.STYLE) == "4C"


def test_a_master_king_is_cashed_where_everybody_follows() -> None:
    seen = _seen("KW 3W 5S", seat=0)
    assert choose_card(seen, tarot.STYLE) == "KW"
    seen.voids[1].add("W")
    assert choose_card(seen, tarot.STYLE) != "KW"


def test_a_second_hand_wins_only_with_a_sure_card() -> None:
    # The King is the master of Swords: sure to win while nobody is known to lack Swords.
    assert choose_card(_seen("KS 4S", "3S", seat=1), tarot.STYLE) == "KS"
    seen = _seen("KS 4S", "3S", seat=1)
    seen.voids[2].add("S")
    # Seat 2 lacks Swords and may trump the King: it follows low and keeps it.
    assert choose_card(seen, tarot.STYLE) == "4S"


def test_game_5_discard_banks_counting_cards_but_never_a_banned_one() -> None:
    hand = "KS QS NW T21 T1 T0 " + " ".join(c for c in DECK if c[-1] == "C" and c[0] in "23456789")
    view = MINOR.view(_minor_discard_state(hand.split()), 3)
    assert sorted(minor_arcana.discard(view)) == ["NW", "QS"]


def _minor_discard_state(hand: list[str]) -> MinorArcanaState:
    rest = [card for card in DECK if card not in hand]
    hands = [rest[:19], rest[19:38], rest[38:57], hand + rest[57 : 57 + 21 - len(hand)]]
    return MinorArcanaState(
        game="minor_arcana",
        players=4,
        options={"length": "hand"},
        phase="discard",
        dealer=3,
        totals=(0, 0, 0, 0),
        hands=tuple(tuple(MINOR.table_type.rules.sort(cards)) for cards in hands),
    )


def test_game_4_discard_keeps_tarot_trumps_trumps_and_announcements() -> None:
    hand = cards("T21 T0 T1 KC T5 T6 T7 T8 AS 2S 3S 4S 9W 2W 5P 6P 7P 8P 9P 10P PC NC QC 3C 4C")
    state = _tarot_state({1: hand}, phase="discard")
    shed = tarot.discard(TAROT.view(state, 1))
    assert len(shed) == 3
    # Neither a Tarot Trump nor a trump, nor a card of the runs Swords A-4 and Pentacles 5-10.
    assert not set(shed) & set(cards("T21 T0 T1 KC T5 T6 T7 T8 AS 2S 3S 4S 5P 6P 7P 8P 9P 10P"))
    # The short Wands go first: a void lets the hand trump.
    assert {"2W", "9W"} <= set(shed)


def _tarot_state(hands: dict[int, list[str]], phase: str, **fields: Any) -> TarotState:
    named = {card for cards in hands.values() for card in cards}
    # Numerals first where the hands are topped up: no seat holds a Tarot Trump the test does not name.
    rest = sorted((card for card in DECK if card not in named), key=lambda card: card[:-1] in PIPS)
    full = []
    for seat in range(2):
        cards = list(hands.get(seat, []))
        while len(cards) < 25:
            cards.append(rest.pop())
        full.append(tuple(TAROT.table_type.rules.sort(cards)))
    return TarotState(
        game="tarot",
        players=2,
        phase=phase,
        dealer=1,
        leader=0,
        totals=(0, 0),
        hands=tuple(full),
        dead=tuple(rest[:25]),
        spare=tuple(rest[25:28]),
        **fields,
    )


def test_game_4_always_asks_gives_what_it_misses_least_and_returns_a_small_card() -> None:
    asking = _tarot_state({0: cards("T21 KC 2S"), 1: cards("T1 T0 KW")}, "ask", ask_stage="choose")
    assert TAROT.legal_actions(asking, 0) == ("ask.1", "noask")
    assert tarot.decide(TAROT.view(asking, 0), TAROT.legal_actions(asking, 0)) == "ask.1"
    asked = TAROT.apply(asking, 0, "ask.1").state
    # The Magician, the lowest trump, is the Tarot Trump it misses least.
    assert tarot.decide(TAROT.view(asked, 1), TAROT.legal_actions(asked, 1)) == "give.T1"
    given = TAROT.apply(asked, 1, "give.T1").state
    back = tarot.decide(TAROT.view(given, 0), TAROT.legal_actions(given, 0))
    assert back.startswith("ret.") and back[len("ret.") : -1] in PIPS


# ----- the play-outs' bookkeeping ------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["tarot", "minor_arcana"])
def test_voids_kept_by_the_play_match_the_voids_worked_out_again(game_id: str) -> None:
    game, module, options = GAMES[game_id]
    players = 3 if game is TAROT else 4
    kept: TrickTable | None = None
    for turn in play(game, [module.easy()] * players, random.Random(3), options):
        state = turn.step.state
        if state.phase == "play" and kept is None:
            kept = game.hand_simulation(state)
        elif kept is not None and turn.before.phase == "play":
            kept.apply(turn.seat, turn.action)
            fresh = Hand(
                rules=kept.rules,
                players=players,
                dealer=kept.hand.dealer,
                hands=[[] for _ in range(players)],
                trick=list(kept.hand.trick),
                tricks=list(kept.hand.tricks),
            )
            assert kept.hand.voids() == fresh.voids()
        if any(isinstance(event, HandScored) for event in turn.step.events):
            break
    assert kept is not None and kept.hand.finished()
    assert any(kept.hand.voids())
    # A play-out stops at the end of the hand and scores it.
    assert kept.to_move() == ()


# ----- strength ------------------------------------------------------------------------------------


def _hand_wins(game_id: str, tested: ComputerPlayer[Any], others: ComputerPlayer[Any], hands: int) -> float:
    game, _, options = GAMES[game_id]
    players = 3 if game is TAROT else 4
    wins = 0.0
    for number in range(hands):
        group, seat = divmod(number, players)
        seats: list[ComputerPlayer[Any]] = [others] * players
        seats[seat] = tested
        for turn in play(game, seats, random.Random(f"strength:{group}"), options):
            scored = [event for event in turn.step.events if isinstance(event, HandScored)]
            if scored:
                totals = scored[0].row.hand
                if totals[seat] == max(totals):
                    wins += 1 / totals.count(max(totals))
                break
    return wins / hands


@pytest.mark.parametrize(
    ("game_id", "chance", "least"), [("tarot", 1 / 3, 0.45), ("minor_arcana", 0.25, 0.33)]
)
def test_normal_wins_clearly_more_hands_than_easy(game_id: str, chance: float, least: float) -> None:
    module = GAMES[game_id][1]
    share = _hand_wins(game_id, module.normal(), module.easy(), 96)
    assert share >= least > chance


# ----- the hard level's searched discard and asks ----------------------------------------------------


def test_discard_options_keep_the_marks_and_list_the_normal_discard_first() -> None:
    ranked = cards("2W 9W 3C 4C 5C")
    options = discard_options(ranked, 3, [])
    assert options[0] == tuple(ranked[:3])
    assert len(options) == 10 and len(set(options)) == 10
    # A card marked already stays in every option (a discard in progress is finished, not redone).
    assert all("4C" in option for option in discard_options(ranked, 3, ["4C"]))
    assert discard_options(ranked, 3, ["4C"])[0] == ("4C", "2W", "9W")


def test_searched_cards_cut_short_keep_a_choice_in_every_suit() -> None:
    # Suit by suit, each suit's strongest first, as `_equivalents` lists a lead's cards that play
    # differently.
    suits = [cards("KW 9W 5W 3W AW"), cards("QC 7C 2C"), cards("KS 4S"), [], cards("T21 T15 T3")]
    spread = across_suits(suits, tarot.STYLE)
    assert sorted(spread) == sorted(cards("KW 9W 5W 3W AW QC 7C 2C KS 4S T21 T15 T3"))
    # Every suit's lowest card first, then every suit's highest (the dearest first), then the rest.
    assert spread[:4] == cards("T3 4S 2C AW")
    assert spread[4:8] == cards("T21 KW KS QC")
    assert spread[8:] == cards("T15 7C 3W 9W 5W")


@pytest.mark.parametrize("game_id", ["tarot", "minor_arcana"])
def test_the_hard_dealer_discards_legally_the_same_for_a_seed(game_id: str) -> None:
    game, module, options = GAMES[game_id]
    players = 3 if game is TAROT else 4
    state = next(state for state, _ in _decisions(game, players, 11, options) if state.phase == "discard")
    dealer = state.dealer
    plans = []
    for _ in range(2):
        # A fresh player each time: the plan comes from the seed, not from a remembered search.
        player = _player(module, "hard")
        current, rng = state, random.Random(5)
        while current.phase == "discard":
            legal = game.legal_actions(current, dealer)
            action = player.choose(game.view(current, dealer), legal, rng)
            assert action in legal
            current = game.apply(current, dealer, action).state
        plans.append(current.discards)
    assert plans[0] == plans[1]
    assert len(plans[0]) == GAMES[game_id][0].table_type.rules.spare_count(players)
    assert not set(plans[0]) & game.table_type.rules.discard_ban


def test_the_hard_player_searches_the_asks_among_the_normal_answers() -> None:
    asking = _tarot_state({0: cards("T21 KC 2S"), 1: cards("T1 T0 KW")}, "ask", ask_stage="choose")
    legal = TAROT.legal_actions(asking, 0)
    assert tarot.ranked(TAROT.view(asking, 0), legal) == ["ask.1", "noask"]
    player = tarot.hard(HARD_BUDGET)
    action = player.choose(TAROT.view(asking, 0), legal, random.Random(1))
    assert action in legal
    assert tarot.hard(HARD_BUDGET).choose(TAROT.view(asking, 0), legal, random.Random(1)) == action


def test_play_outs_answer_the_asks_as_the_normal_player() -> None:
    asking = _tarot_state({0: cards("T21 KC 2S"), 1: cards("T1 T0 KW")}, "ask", ask_stage="choose")
    policy = PlayOuts(tarot.STYLE, TAROT, tarot.ranked)
    table = TAROT.hand_simulation(asking)
    while table.phase == "ask":
        seat = table.to_move()[0]
        legal = table.legal(seat)
        view = TAROT.view(TAROT.state_type(**(asking.model_dump() | table.dump())), seat)
        action = policy(table, seat, legal, random.Random(0))
        assert action == tarot.decide(
            view, TAROT.legal_actions(TAROT.state_type(**(asking.model_dump() | table.dump())), seat)
        )
        table.apply(seat, action)
    assert table.phase == "play"


@pytest.mark.parametrize(("game_id", "players", "seed"), [("tarot", 3, 4), ("minor_arcana", 4, 9)])
def test_the_play_out_policy_plays_the_normal_players_cards(game_id: str, players: int, seed: int) -> None:
    # The opponents are normal players: the search models them exactly (the dealer's discards too).
    game, module, options = GAMES[game_id]
    normal = module.normal()
    policy = PlayOuts(module.STYLE, game, getattr(module, "ranked", None))
    checked = 0
    for state, seat in _decisions(game, players, seed, options):
        if state.phase in ("play", "ask"):
            table = game.hand_simulation(state)
            expected = normal.choose(
                game.view(state, seat), game.legal_actions(state, seat), random.Random(0)
            )
            assert policy(table, seat, table.legal(seat), random.Random(0)) == expected
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(("game_id", "players"), [("tarot", 3), ("minor_arcana", 4)])
def test_the_searcher_plays_out_knowing_the_other_hands(game_id: str, players: int) -> None:
    game, module, options = GAMES[game_id]
    normal = module.normal()
    policy = PlayOuts(module.STYLE, game, getattr(module, "ranked", None))
    differed = 0
    for state, seat in _decisions(game, players, 9, options):
        if state.phase != "play":
            continue
        table = game.hand_simulation(state)
        seen = seen_knowing(seen_from_table(table, seat, table.hand.playable(seat)), table)
        # Gone: every card no other hand holds (the seat's own included, the spare, the discards).
        held = {card for other in range(players) if other != seat for card in table.hand.hands[other]}
        assert all((card in seen.gone) == (card not in held) for card in DECK)
        for other in range(players):
            assert all(SUIT[card] not in seen.voids[other] for card in table.hand.hands[other])
        policy.searcher = seat
        expected = normal.choose(game.view(state, seat), game.legal_actions(state, seat), random.Random(0))
        differed += policy(table, seat, table.legal(seat), random.Random(0)) != expected
    # Knowing the hands changes some of its cards.
    assert differed > 0
