"""Game 4, Mathers' Tarot, in the bot: the asks for a Tarot Trump on the panels, the announcements,
the Kings taken and the Fool's points in the journal; the rest is the trick games' (tricks.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from bot.adapters.base import Caption, Names, PrivateMode
from bot.adapters.tricks import CAPTIONS, TrickAdapter, cards_text, merged, named_cards
from core.cards import tarot_label
from core.engine import Action, Event
from core.games.tarot import (
    ASK_CODE,
    CHOOSE,
    FOOL_POINTS,
    GIVING,
    NO_ASK,
    Announced,
    AskDeclined,
    Asked,
    AskUnanswered,
    CardReturned,
    KingTaken,
    TarotView,
    TrumpGiven,
)
from core.trickgame import TrickView
from core.tricks import FoolReturned
from i18n import N_, t, tn


def _what(event: Announced, lang: str) -> str:
    """What an announcement shows, by its kind (rule 9)."""
    n = len(event.cards)
    if event.kind == "greater":
        return tn(lang, "{n} Greater Trump", "{n} Greater Trumps", n)
    if event.kind == "lesser":
        return tn(lang, "{n} Lesser Trump", "{n} Lesser Trumps", n)
    if event.kind == "trumps":
        return tn(lang, "{n} trump", "{n} trumps", n)
    if event.kind == "tarot":
        return tn(lang, "{n} Tarot Trump", "{n} Tarot Trumps", n)
    return tn(lang, "a sequence of {n} card", "a sequence of {n} cards", n)


def _announced(event: Announced, names: Names, lang: str) -> str:
    return t(
        lang,
        "📣 {name} shows {what}: {cards} (+{points})",
        name=names[event.seat],
        what=_what(event, lang),
        cards=cards_text(event.cards, lang),
        points=event.points,
    )


def _returned(event: CardReturned, names: Names, lang: str) -> str:
    values = {"asker": names[event.asker], "giver": names[event.giver]}
    if event.card is None:
        return t(lang, "{asker} gives {giver} a small card back", **values)
    return t(lang, "{asker} gives {giver} {card} back", card=tarot_label(event.card, lang), **values)


TAROT_CAPTIONS: dict[type[Event], Caption] = {
    AskDeclined: lambda e, names, lang: t(lang, "{name} does not ask", name=names[e.seat]),
    Asked: lambda e, names, lang: t(
        lang,
        "❓ {asker} shows {cards} and asks {asked} for a Tarot Trump",
        asker=names[e.asker],
        asked=names[e.asked],
        cards=named_cards(e.shown, lang),
    ),
    AskUnanswered: lambda e, names, lang: t(
        lang,
        "{asked} has no Tarot Trump: {asker} +{points}",
        asked=names[e.asked],
        asker=names[e.asker],
        points=e.points,
    ),
    TrumpGiven: lambda e, names, lang: t(
        lang,
        "🤝 {giver} gives {asker} {card}",
        giver=names[e.giver],
        asker=names[e.asker],
        card=named_cards((e.card,), lang),
    ),
    CardReturned: _returned,
    Announced: _announced,
    KingTaken: lambda e, names, lang: t(
        lang,
        "👑 {name} takes {owner}'s {king}: +{points}",
        name=names[e.seat],
        owner=names[e.owner],
        king=tarot_label(e.king, lang),
        points=e.points,
    ),
    # Rule 17: the Fool scores for the one who played it, whoever won the trick.
    FoolReturned: lambda e, names, lang: t(
        lang, "The Fool goes back to {name}: +{points}", name=names[e.seat], points=FOOL_POINTS
    ),
}


def _tarot(view: TrickView) -> TarotView:
    assert isinstance(view, TarotView)
    return view


class TarotAdapter(TrickAdapter):
    game_id = "tarot"
    emoji = "🔮"
    title_msg = N_("Mathers' Tarot")
    captions: ClassVar[Mapping[type[Event], Caption]] = merged(CAPTIONS, TAROT_CAPTIONS)
    rules_msg = N_(
        "Mathers' Tarot (1888) for 2 or 3 players, a match to 100. The 78-card Tarot deck: 22 trumps "
        "(21 high down to 1, and the Fool) and four suits, King high down to the Ace.\n"
        "Three hands of 25 are dealt (with two players the third is dead); the dealer discards 3 "
        "and takes the 3 spare cards. The seven Tarot Trumps are the World, the Fool, the Magician "
        "and the four Kings. Holding two of them, you may once ask an opponent for a third: without "
        "one they give you 5 points, else they choose one to give and you give a small card back.\n"
        "Then everyone scores what the hand shows: 3-5 Greater (17-21) or Lesser (1-5) Trumps, "
        "10 or 13 trumps, sets of three Tarot Trumps, runs of 4, 7 or 10 cards.\n"
        "Follow suit if you can, else play anything; the Fool may always be played and never wins. "
        "Winning another player's King scores 5. Each trick scores its best card: a Tarot Trump 5, "
        "a Queen 4, a Knight 3, a Page 2, else 1; the Fool scores 5 for its player. Only the best "
        "hand total scores, by its lead over the next one.\n"
        "Play from your private panel with the bot; the group sees only the table."
    )
    private_modes = (
        PrivateMode("two", N_("Against two computers"), 2),
        PrivateMode("one", N_("Against one computer"), 1),
        PrivateMode("two_hard", N_("Against two strong computers"), 2, level="hard"),
    )

    def word_label(self, action: Action, names: Names, lang: str) -> str:
        if action == NO_ASK:
            return "🙅 " + self.game.label(action, lang)
        if action.startswith(ASK_CODE):
            return "❓ " + t(lang, "Ask {name}", name=names[int(action[len(ASK_CODE) :])])
        return super().word_label(action, names, lang)

    def phase_status(self, view: TrickView, names: Names, lang: str) -> str:
        tarot = _tarot(view)
        asker, asked = tarot.asking, tarot.asked
        assert asker is not None
        if tarot.ask_stage == CHOOSE or asked is None:
            return t(lang, "{name} may ask for a Tarot Trump.", name=names[asker])
        if tarot.ask_stage == GIVING:
            return t(lang, "{asked} gives {asker} a Tarot Trump.", asked=names[asked], asker=names[asker])
        return t(lang, "{asker} gives {asked} a small card back.", asked=names[asked], asker=names[asker])

    def phase_panel_status(self, view: TrickView, names: Names, lang: str) -> str:
        tarot = _tarot(view)
        asker, asked = tarot.asking, tarot.asked
        assert asker is not None
        if tarot.ask_stage == CHOOSE or asked is None:
            return t(
                lang,
                "You hold two Tarot Trumps or more: ask an opponent for a third (your first two are "
                "shown to all), or do not ask.",
            )
        if tarot.ask_stage == GIVING:
            return t(lang, "{name} asks you for a Tarot Trump: choose the one you give.", name=names[asker])
        return t(lang, "Give {name} a small card back.", name=names[asked])
