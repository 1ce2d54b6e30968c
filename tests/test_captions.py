"""Every event of every game played at a table has a journal line, in both languages.

Seeded random games of every game with an adapter are played through the engine; every event they
emit must have a caption, which must render in Russian and in English (and read differently, so
the Russian one is not an untranslated fallback). `python -m pytest tests/test_captions.py -s`
prints the coverage per game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.adapters import ADAPTERS
from bot.adapters.base import GameAdapter
from core.ai.random_player import RandomPlayer
from core.engine import Event, GameOver
from core.games.durak import CardPlayed
from core.games.tarot import Asked, TrumpGiven
from core.play import play
from core.tricks import CardPlayed as TrickCardPlayed
from core.tricks import TrickWon

GAMES = 30


def _events(adapter: GameAdapter) -> list[Event]:
    game = adapter.game
    seen: list[Event] = []
    for number in range(GAMES):
        players = game.min_players + number % (game.max_players - game.min_players + 1)
        for turn in play(game, [RandomPlayer()] * players, random.Random(f"captions:{number}")):
            seen += [event for event in turn.step.events if not isinstance(event, GameOver)]
    return seen


@pytest.mark.parametrize("game_id", sorted(ADAPTERS))
def test_every_event_has_a_caption_in_both_languages(game_id: str) -> None:
    adapter = ADAPTERS[game_id]
    events = _events(adapter)
    kinds = Counter(type(event) for event in events)
    missing = sorted(kind.__name__ for kind in kinds if kind not in adapter.captions)
    names = tuple(f"Player {seat}" for seat in range(adapter.game.max_players))
    example = {kind: next(event for event in events if type(event) is kind) for kind in kinds}
    untranslated = [
        kind.__name__
        for kind, event in example.items()
        if kind in adapter.captions
        and adapter.captions[kind](event, names, "ru") == adapter.captions[kind](event, names, "en")
    ]
    runs = [
        kind.__name__
        for kind, run in adapter.runs.items()
        if kind in example and run([example[kind]] * 2, names, "ru") == run([example[kind]] * 2, names, "en")
    ]
    assert not runs, f"{game_id}: lines for events in a row with no Russian translation: {runs}"
    covered = len(kinds) - len(missing)
    print(f"{game_id}: {covered}/{len(kinds)} event types have captions ({sum(kinds.values())} events seen)")
    assert not missing, f"{game_id}: events without a caption: {missing}"
    assert not untranslated, f"{game_id}: captions with no Russian translation: {untranslated}"


def test_the_tarot_trumps_of_an_ask_are_named_not_only_numbered() -> None:
    """«0 I» says little to most players: an ask's shown cards and the Tarot Trump given name the
    Major Arcana; a King keeps its short label."""
    captions = ADAPTERS["tarot"].captions
    names = ("Alice", "Bob", "Owl")
    asked = Asked(asker=0, asked=1, shown=("T0", "KC"))
    assert (
        captions[Asked](asked, names, "en")
        == "❓ Alice shows The Fool (0), K♥ and asks Bob for a Tarot Trump"
    )
    assert captions[Asked](asked, names, "ru") == (
        "❓ Alice показывает Шут (0), К♥ и спрашивает у игрока Bob Козырь Таро"
    )
    given = TrumpGiven(giver=1, asker=0, card="T21")
    assert captions[TrumpGiven](given, names, "en") == "🤝 Bob gives Alice The World (XXI)"
    assert captions[TrumpGiven](given, names, "ru") == "🤝 Bob отдаёт игроку Alice Мир (XXI)"


def test_a_durak_beat_names_the_card_it_covers() -> None:
    """«Carol beats with 8♣» left the reader to find which attack card fell; the beat names it."""
    captions = ADAPTERS["durak"].captions
    names = ("Alice", "Bob", "Carol", "Owl")
    beat = CardPlayed(seat=2, card="8C", kind="beat", beaten="7C")
    assert captions[CardPlayed](beat, names, "en") == "Carol beats 7♣ with 8♣"
    assert captions[CardPlayed](beat, names, "ru") == "Carol бьёт 7♣ картой 8♣"
    # A game journalled before this (a bot upgraded mid-game) still reads.
    earlier = CardPlayed.model_validate({"seat": 2, "card": "8C", "kind": "beat"})
    assert captions[CardPlayed](earlier, names, "ru") == "Carol бьёт картой 8♣"


def test_the_durak_rules_tell_which_attack_card_a_beat_covers() -> None:
    game = ADAPTERS["durak"].game
    for turn in play(game, [RandomPlayer()] * 4, random.Random("captions:beats")):
        for event in turn.step.events:
            if isinstance(event, CardPlayed) and event.kind == "beat":
                assert event.beaten is not None
                # The oldest attack card still unbeaten before the beat (the one a defender must beat).
                unbeaten = [attack for attack, defence in turn.before.table if defence is None]
                assert event.beaten == unbeaten[0]


def test_the_fool_in_a_trick_is_named_not_a_bare_zero() -> None:
    """«Alice 0» after a name reads as a score: a played Fool is named."""
    captions = ADAPTERS["tarot"].captions
    names = ("Alice", "Bob", "Owl")
    won = TrickWon(seat=1, number=3, plays=((0, "T0"), (1, "T21"), (2, "KC")), points=9)
    assert captions[TrickWon](won, names, "en") == (
        "🂠 Trick 3: Alice The Fool (0), Bob XXI, Owl K♥. Bob wins it: 9 points"
    )
    assert (
        captions[TrickWon](won, names, "ru")
        == "🂠 Взятка 3: Alice Шут (0), Bob XXI, Owl К♥. Берёт Bob: 9 очков"
    )
    led = TrickCardPlayed(seat=0, card="T0", led=True)
    assert captions[TrickCardPlayed](led, names, "en") == "Alice leads The Fool (0)"
