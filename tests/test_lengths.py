"""Texts sent to Telegram fit its limits as it counts them: an emoji is two UTF-16 code units."""

from __future__ import annotations

from typing import Any

from bot.chat.answers import Answer
from bot.chat.lengths import MAX_ANSWER, MAX_CAPTION, clipped, utf16_len
from bot.tables.screens import caption_of

FOX = "🦊"  # outside the Basic Multilingual Plane: two units


def test_clipped_counts_units_and_marks_the_cut() -> None:
    assert utf16_len(FOX * 3 + "ab") == 8
    assert clipped("short", 5) == "short"
    assert clipped(FOX * 150, MAX_ANSWER) == FOX * 99 + "…"  # 198 units and the ellipsis
    assert clipped("abc " + FOX * 3, 8) == "abc " + FOX + "…"
    assert clipped("word and more", 10) == "word and…"  # no space left before the ellipsis


def test_a_caption_of_emoji_names_keeps_within_the_limit_by_dropping_old_lines() -> None:
    name = FOX * 32  # a person's name, as long as the bot keeps them: 64 units
    lines = [f"#{number:02d} {name} plays 10♠ and takes the trick" for number in range(12)]
    status = ["Bob, your turn: play a card."]
    caption = caption_of("🔮 Mathers' Tarot", lines, status)
    # With ten lines the caption is 715 characters, well under 1024, but 1,036 units: some must go.
    assert (
        utf16_len(caption) <= MAX_CAPTION < utf16_len("\n".join(["🔮 Mathers' Tarot", *lines[-10:], *status]))
    )
    assert caption.endswith(status[0]) and lines[-1] in caption
    shown = [line for line in lines if line in caption]
    assert shown == lines[-len(shown) :] and len(shown) < 10
    assert caption.splitlines()[1] == f"… (+{12 - len(shown)})"


class _Query:
    def __init__(self) -> None:
        self.answers: list[tuple[str | None, bool]] = []

    async def answer(self, text: str | None = None, show_alert: bool = False, **_: Any) -> None:
        self.answers.append((text, show_alert))


async def test_an_alert_of_emoji_is_clipped_to_what_telegram_takes() -> None:
    query = _Query()
    answer = Answer(query, "fallback")  # type: ignore[arg-type]
    await answer("Trick 3: " + FOX * 120, alert=True)
    ((text, alert),) = query.answers
    assert alert and text is not None and utf16_len(text) <= MAX_ANSWER and text.endswith(FOX + "…")
