"""What the two Tarot trick games (Games 4 and 5) share in the bot: the panels' card buttons, the
dealer's discard, "next hand", the pictures, and a journal line for every event of the trick
kernel and the match layer. `bot/adapters/tarot.py` and `bot/adapters/minor_arcana.py` add their
own phases and events.

Group captions never print a bare 0: "0" is the Fool's label, and a group must not read a card it
may not know (tests/leaks.py), so per-hand points are signed ("+0").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from bot.adapters.base import Caption, Choice, GameAdapter, Names, RunCaption, seats_in_a_row
from core.cards import TAROT_SUIT_SYMBOLS, Card, is_major, tarot_label, tarot_name
from core.engine import Action, Event, Frozen
from core.match import NEXT, Acknowledged, HandScored
from core.trickgame import CONFIRM, DEAL, DISCARD, NEXT_HAND, PLAY, TrickView
from core.tricks import FOOL, CardPlayed, Discarded, FoolReturned, HandDealt, SpareTaken, TrickWon
from i18n import N_, t, tn
from render.tricks import render_trick_panel, render_trick_table

#: The info button under the group's table that tells the last trick.
LAST_TRICK = "last"
#: The keyboard group of the trumps (and the Fool), and of the words (confirm, next, the asks).
TRUMP_GROUP, WORD_GROUP = "T", "w"


def trick_view(view: Frozen) -> TrickView:
    assert isinstance(view, TrickView)
    return view


def cards_text(cards: Sequence[Card], lang: str) -> str:
    return " ".join(tarot_label(card, lang) for card in cards)


def named_cards(cards: Sequence[Card], lang: str) -> str:
    """A few cards for a journal line, the Major Arcana by name as well: "The Fool (0), K♥" (a bare
    numeral, "0 I", says little to most players)."""
    return ", ".join(
        f"{tarot_name(card, lang)} ({tarot_label(card, lang)})" if is_major(card) else tarot_label(card, lang)
        for card in cards
    )


def played_card(card: Card, lang: str) -> str:
    """A card as a play line names it: the Fool by name too, «The Fool (0)» (a bare 0 after a
    name reads as a score)."""
    return named_cards((card,), lang) if card == FOOL else tarot_label(card, lang)


def signed(points: int) -> str:
    return f"{points:+d}"


def card_of(action: Action) -> Card | None:
    """The card an action names (`p.K♥`, `x.T21`, `give.T0`), None for a word (`x.ok`, `next`)."""
    if action in (CONFIRM, NEXT) or "." not in action:
        return None
    card = action.split(".", 1)[1]
    return None if card.isdigit() else card


# ----- the journal -------------------------------------------------------------------------------


def _played(event: CardPlayed, names: Names, lang: str) -> str:
    values = {"name": names[event.seat], "card": played_card(event.card, lang)}
    if event.led:
        return t(lang, "{name} leads {card}", **values)
    return t(lang, "{name} plays {card}", **values)


def plays_text(plays: Sequence[tuple[int, str]], names: Names, lang: str) -> str:
    """A trick's cards in the order played, each after its player's name."""
    return ", ".join(f"{names[seat]} {played_card(card, lang)}" for seat, card in plays)


def _won(event: TrickWon, names: Names, lang: str) -> str:
    """The whole trick in one line: a caption that holds it leaves out the lines of its cards."""
    values = {
        "name": names[event.seat],
        "number": event.number,
        "plays": plays_text(event.plays, names, lang),
    }
    if event.points is None:
        return t(lang, "🂠 Trick {number}: {plays}. {name} wins it", **values)
    return tn(
        lang,
        "🂠 Trick {number}: {plays}. {name} wins it: {n} point",
        "🂠 Trick {number}: {plays}. {name} wins it: {n} points",
        event.points,
        **values,
    )


def _spare(event: SpareTaken, names: Names, lang: str) -> str:
    if event.cards:
        return t(lang, "You take the spare cards: {cards}", cards=cards_text(event.cards, lang))
    return tn(
        lang,
        "{name} takes the {n} spare card",
        "{name} takes the {n} spare cards",
        event.count,
        name=names[event.seat],
    )


def _discarded(event: Discarded, names: Names, lang: str) -> str:
    if event.cards:
        return t(lang, "You discard {cards}", cards=cards_text(event.cards, lang))
    return tn(
        lang, "{name} discards {n} card", "{name} discards {n} cards", event.count, name=names[event.seat]
    )


def _scored(event: HandScored, names: Names, lang: str) -> str:
    row = event.row
    hand = ", ".join(f"{names[seat]} {signed(points)}" for seat, points in enumerate(row.hand))
    scored = ", ".join(f"{names[seat]} {signed(points)}" for seat, points in enumerate(row.scored) if points)
    line = t(lang, "📋 Hand {number}: {hand}.", number=row.number, hand=hand)
    if row.scored != row.hand:
        line += " " + (t(lang, "Scored: {scored}.", scored=scored) if scored else t(lang, "Nobody scores."))
    return line


CAPTIONS: dict[type[Event], Caption] = {
    HandDealt: lambda e, names, lang: t(
        lang, "🃏 Hand {number}: {dealer} deals", number=e.number, dealer=names[e.dealer]
    ),
    SpareTaken: _spare,
    Discarded: _discarded,
    CardPlayed: _played,
    TrickWon: _won,
    FoolReturned: lambda e, names, lang: t(lang, "The Fool goes back to {name}", name=names[e.seat]),
    HandScored: _scored,
    Acknowledged: lambda e, names, lang: t(lang, "{name} is ready for the next hand", name=names[e.seat]),
}
RUNS: dict[type[Event], RunCaption] = {
    Acknowledged: seats_in_a_row(N_("{names} are ready for the next hand"))
}


# ----- the adapter -------------------------------------------------------------------------------


class TrickAdapter(GameAdapter):
    """A Tarot trick game: a public table in the group, a private panel with each person's hand."""

    panels = True
    #: A person alone in the lobby gets a computer on Start (more are added in the lobby).
    fill_with_computers: ClassVar[bool | int] = 2
    row_width = 6
    captions: ClassVar[Mapping[type[Event], Caption]] = CAPTIONS
    runs: ClassVar[Mapping[type[Event], RunCaption]] = RUNS

    # ----- buttons ---------------------------------------------------------------------------

    def choices(self, view: Frozen, legal: tuple[Action, ...], names: Names, lang: str) -> list[Choice]:
        """The cards in the order the hand shows them, each in its suit's group (the trumps and the
        Fool together), then the words; a marked card's button takes the mark back."""
        table = trick_view(view)
        place = {card: index for index, card in enumerate(table.hand or ())}
        with_card = [(action, card) for action in legal if (card := card_of(action)) is not None]
        with_card.sort(key=lambda pair: (place.get(pair[1], len(place)), pair[0]))
        marked = set(table.marks)
        cards = [self._card(action, card, card in marked, lang) for action, card in with_card]
        words = [
            Choice(self.word_label(action, names, lang), action, group=WORD_GROUP, group_label="…")
            for action in legal
            if card_of(action) is None
        ]
        return cards + words

    def _card(self, action: Action, card: Card, marked: bool, lang: str) -> Choice:
        label = ("↩ " if marked else "") + tarot_label(card, lang)
        if is_major(card):
            return Choice(label, action, group=TRUMP_GROUP, group_label=t(lang, "Trumps"))
        suit = card[-1]
        return Choice(label, action, group=suit, group_label=TAROT_SUIT_SYMBOLS[suit])

    def word_label(self, action: Action, names: Names, lang: str) -> str:
        marks = {CONFIRM: "✅ ", NEXT: "▶️ "}
        return marks.get(action, "") + self.game.label(action, lang)

    # ----- pictures ----------------------------------------------------------------------------

    def picture(self, view: Frozen, names: Names, lang: str, recent: Sequence[Event]) -> bytes:
        return render_trick_table(trick_view(view), names=names, lang=lang)

    def panel_picture(
        self, view: Frozen, names: Names, lang: str, legal: tuple[Action, ...], recent: Sequence[Event]
    ) -> bytes:
        playable = tuple(card for action in legal if (card := card_of(action)) is not None)
        return render_trick_panel(trick_view(view), names=names, lang=lang, playable=playable)

    # ----- status lines ------------------------------------------------------------------------

    def status(self, view: Frozen, names: Names, lang: str) -> str:
        table = trick_view(view)
        if table.outcome is not None:
            return self.result(table, names, lang)
        if table.phase == NEXT_HAND:
            waiting = ", ".join(names[seat] for seat in table.waiting)
            return t(lang, "Hand {n} is scored. Waiting for: {names}.", n=table.hand_number, names=waiting)
        if table.phase == DEAL:
            return t(lang, "Dealing…")
        if table.phase == DISCARD:
            return tn(
                lang,
                "{name} is discarding {n} card.",
                "{name} is discarding {n} cards.",
                table.to_discard,
                name=names[table.dealer],
            )
        if table.phase == PLAY:
            return t(
                lang,
                "Hand {n}, trick {number}: {name} to play.",
                n=table.hand_number,
                number=len(table.tricks) + 1,
                name=names[table.to_move[0]],
            )
        return self.phase_status(table, names, lang)

    def phase_status(self, view: TrickView, names: Names, lang: str) -> str:
        """The status of a game's own phase (Game 4's asks)."""
        raise ValueError(f"{self.game_id}: no phase {view.phase!r}")

    def result(self, view: TrickView, names: Names, lang: str) -> str:
        outcome = view.outcome
        assert outcome is not None
        best = max(outcome.scores)
        winners = ", ".join(names[seat] for seat in outcome.winners)
        return tn(
            lang,
            "🏆 {names} wins with {points}.",
            "🏆 {names} share the win with {points}.",
            len(outcome.winners),
            names=winners,
            points=best,
        )

    def panel_status(self, view: Frozen, names: Names, lang: str) -> str:
        table = trick_view(view)
        seat = table.seat
        assert seat is not None
        if table.outcome is not None or seat not in table.to_move:
            return self.status(view, names, lang)
        if table.phase == NEXT_HAND:
            return t(lang, "Hand {n} is scored: press «Next hand» when you are ready.", n=table.hand_number)
        if table.phase == DISCARD:
            return t(
                lang,
                "You deal: choose {count} cards to discard one by one ({n} chosen), then confirm. "
                "A chosen card's button takes it back.",
                count=table.to_discard,
                n=len(table.marks),
            )
        if table.phase == PLAY:
            if table.trick:
                return t(lang, "Your turn: follow the trick.")
            return t(lang, "Your turn: lead a card.")
        return self.phase_panel_status(table, names, lang)

    def phase_panel_status(self, view: TrickView, names: Names, lang: str) -> str:
        raise ValueError(f"{self.game_id}: no phase {view.phase!r}")

    def hand_text(self, view: Frozen, lang: str) -> str | None:
        table = trick_view(view)
        return t(lang, "Your cards: {cards}.", cards=cards_text(table.hand or (), lang) or "—")

    def sums_up(self, event: Event, later: Event) -> bool:
        in_trick = (
            isinstance(event, CardPlayed)
            and isinstance(later, TrickWon)
            and (event.seat, event.card) in later.plays
        )
        return in_trick or super().sums_up(event, later)

    # ----- the last trick, on demand -----------------------------------------------------------

    def note_actions(self, view: Frozen, lang: str) -> list[Choice]:
        table = trick_view(view)
        if table.phase != PLAY or table.last_trick is None:
            return []
        return [Choice(t(lang, "🂠 Last trick"), LAST_TRICK)]

    def note(self, action: str, view: Frozen, names: Names, lang: str) -> str | None:
        table = trick_view(view)
        last = table.last_trick
        if action != LAST_TRICK or last is None:
            return None
        return t(
            lang,
            "Trick {number}: {plays}. {name} wins it.",
            number=len(table.tricks),
            plays=plays_text(last.plays, names, lang),
            name=names[last.winner],
        )


def merged(*tables: Mapping[type[Event], Caption]) -> dict[type[Event], Caption]:
    """Caption tables joined, the later ones adding a game's events."""
    joined: dict[type[Event], Caption] = {}
    for table in tables:
        joined.update(table)
    return joined
