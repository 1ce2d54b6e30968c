"""render/tarot.py, render/arcana.py and the contact sheet: all 78 Tarot cards drawn as shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from core.cards import TAROT_RANKS, TarotSuit, deck78, is_major
from render import contact_sheet, pips
from render.deck import back, face
from render.pips import TAROT_COLOURS
from render.tarot import rank_letter

W, H = 90, 126


def differ(a: Image.Image, b: Image.Image, share: float) -> bool:
    """Whether more than `share` of the pixels differ noticeably."""
    diff = (
        ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
        .convert("L")
        .point(lambda v: 255 if v > 24 else 0)
    )
    return diff.histogram()[255] > share * a.width * a.height


def test_every_face_is_a_card_with_rounded_corners() -> None:
    for card in deck78():
        sprite = face(card, W, H, "ru", "tarot")
        assert sprite.size == (W, H) and sprite.mode == "RGBA"
        alpha = sprite.getchannel("A")
        assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((W // 2, H // 2)) == 255
    assert face("T7", W, H, "ru", "tarot") is face("T7", W, H, "ru", "tarot")  # cached


def test_the_78_faces_and_the_back_all_differ() -> None:
    sprites = [face(card, W, H, "en", "tarot") for card in deck78()] + [back(W, H, "tarot")]
    for i, a in enumerate(sprites):
        for b in sprites[i + 1 :]:
            assert differ(a, b, 0.003)


def test_tarot_and_french_codes_that_coincide_draw_different_cards() -> None:
    # "AS" is the ace of spades in one deck and of swords in the other.
    assert differ(face("AS", W, H, "en", "tarot"), face("AS", W, H, "en", "french"), 0.05)
    assert differ(back(W, H, "tarot"), back(W, H, "french"), 0.3)


def test_suit_pips_are_four_shapes_in_their_colours() -> None:
    shapes = {pips.tarot_pip_sprite(suit, 60, (0, 0, 0)).tobytes() for suit in TarotSuit}
    assert len(shapes) == 4
    for suit in TarotSuit:
        sprite = pips.tarot_pip_sprite(suit, 60)
        opaque = [p for p in sprite.get_flattened_data() if isinstance(p, tuple) and p[3] == 255]
        assert len(opaque) > 0.15 * sprite.width * sprite.height
        assert TAROT_COLOURS[suit] in {p[:3] for p in opaque}


def test_majors_print_their_name_in_the_picture_language() -> None:
    for number in range(22):
        card = f"T{number}"
        ru, en = face(card, W, H, "ru", "tarot"), face(card, W, H, "en", "tarot")
        name_band = (0, round(H * 0.72), W, H)
        emblem = (round(W * 0.2), round(H * 0.25), round(W * 0.8), round(H * 0.6))
        assert differ(ru.crop(name_band), en.crop(name_band), 0.02), card
        assert not differ(ru.crop(emblem), en.crop(emblem), 0.0), card


def test_court_cards_print_their_letter_and_differ_by_rank() -> None:
    assert [rank_letter(rank + "C", "ru") for rank in ("P", "N", "Q", "K", "A")] == ["П", "Р", "Д", "К", "Т"]
    assert [rank_letter(rank + "C", "en") for rank in ("P", "N", "Q", "K")] == ["P", "Kn", "Q", "K"]
    # The four court emblems are distinct figures, not just other letters: compare their panels.
    panel = (round(W * 0.32), round(H * 0.2), round(W * 0.68), round(H * 0.45))
    courts = [face(rank + "W", W, H, "en", "tarot").crop(panel) for rank in ("P", "N", "Q", "K")]
    for i, a in enumerate(courts):
        for b in courts[i + 1 :]:
            assert differ(a, b, 0.05)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_contact_sheet_holds_every_card(tmp_path: Path, lang: str) -> None:
    out = tmp_path / "sheet.png"
    assert contact_sheet.main([str(out), "--lang", lang, "--width", "60"]) == 0
    sheet = Image.open(out).convert("RGB")
    rows = contact_sheet.rows_of_deck()
    assert sum(len(row) for row in rows) == 79  # 78 faces and the back
    drawn = [card for row in rows for card in row if card is not None]
    assert sorted(drawn) == sorted(deck78())
    assert [card for card in drawn if is_major(card)] == [f"T{n}" for n in range(22)]
    columns = max(len(row) for row in rows)
    assert columns == len(TAROT_RANKS)
    gap, label, ch = 60 // 12, 60 // 5, 84
    assert sheet.size == (gap + columns * (60 + gap), gap + len(rows) * (ch + label + gap))
    assert 10_000 < out.stat().st_size < 3_000_000
    # Every card drawn on the sheet differs from every other one.
    cells = [
        sheet.crop(
            (
                gap + c * (60 + gap),
                gap + r * (ch + label + gap),
                gap + c * (60 + gap) + 60,
                gap + r * (ch + label + gap) + ch,
            )
        )
        for r, row in enumerate(rows)
        for c in range(len(row))
    ]
    fingerprints = {cell.tobytes() for cell in cells}
    assert len(fingerprints) == 79
