"""Game 5, the Minor Arcana game, in the bot: the game's length in the lobby, the Fool passed on and
the Magician's bonus in the journal; the rest is the trick games' (tricks.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from bot.adapters.base import Caption, PrivateMode
from bot.adapters.tricks import CAPTIONS, TrickAdapter, merged
from core.engine import Event
from core.games.minor_arcana import ONE_HAND, MagicianBonus
from core.tricks import FoolPassed
from i18n import N_, t

MINOR_CAPTIONS: dict[type[Event], Caption] = {
    FoolPassed: lambda e, names, lang: t(
        lang,
        "{owner} won no trick: the Fool goes to {name}, who won the last one",
        owner=names[e.owner],
        name=names[e.seat],
    ),
    MagicianBonus: lambda e, names, lang: t(
        lang,
        "✨ {name} wins the last trick with the Magician: +{points}",
        name=names[e.seat],
        points=e.points,
    ),
}


class MinorArcanaAdapter(TrickAdapter):
    game_id = "minor_arcana"
    emoji = "🔮"
    title_msg = N_("Minor Arcana")
    captions: ClassVar[Mapping[type[Event], Caption]] = merged(CAPTIONS, MINOR_CAPTIONS)
    rules_msg = N_(
        "The Minor Arcana game for 2 to 6 players, with the 78-card Tarot deck: the 22 major arcana are "
        "permanent trumps (21 high down to 1; the Fool never wins).\n"
        "Everyone gets the same number of cards; the dealer takes the few left over and discards as "
        "many, never a King, the Fool, the Magician or the World (the discards count for the dealer).\n"
        "No trump may be led while you hold a suit card. Follow suit if you can, else trump if you "
        "can, else play anything. In Cups and Pentacles the Ace is the highest pip and the 10 the "
        "lowest; in Wands and Swords the 10 is high. The Fool may always be played, and goes back to "
        "its player (to the last trick's winner if its player won no trick).\n"
        "Your won cards count in threes: Kings, the World, the Magician and the Fool 5, Queens 4, "
        "Knights 3, Pages 2, every other card nothing; three empty cards make 1. Winning the last trick with "
        "the Magician adds 10. Play one hand, or a match to 300 (a lobby setting).\n"
        "Play from your private panel with the bot; the group sees only the table."
    )
    private_modes = (
        PrivateMode("three", N_("Against three computers"), 3),
        PrivateMode("one", N_("Against one computer"), 1),
        PrivateMode("five", N_("Against five computers"), 5),
        PrivateMode("three_hard", N_("Against three strong computers"), 3, level="hard"),
        PrivateMode("hand", N_("One hand against three computers"), 3, options={"length": ONE_HAND}),
    )
