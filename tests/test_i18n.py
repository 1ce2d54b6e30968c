"""Translations: every message id in the code has a Russian translation; the compiled catalog is current."""

from __future__ import annotations

import io
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from i18n import LOCALES_DIR, pick_language, t, tn

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"t": (2,), "tn": (2, 3), "N_": None, "Refusal": None}


def extracted_ids() -> set[str | tuple[str, ...]]:
    found: set[str | tuple[str, ...]] = set()
    for _, _, message, _, _ in extract_from_dir(ROOT / "bot", keywords=KEYWORDS, comment_tags=()):
        found.add(message)
    return found


def russian_catalog() -> object:
    with open(LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale="ru")


def test_every_message_has_a_russian_translation() -> None:
    catalog = russian_catalog()
    for message in extracted_ids():
        msgid = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(msgid)  # type: ignore[attr-defined]
        assert entry is not None and entry.string, f"no Russian translation for {message!r}"
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings), f"empty plural form for {message!r}"


#: Placeholders that hold a person's (or a computer's) name, as Telegram gives it: never declined.
NAME_FIELDS = "name|names|defender|attacker|dealer|asker|giver|asked|owner|winner"
#: A preposition right before a name would need the name in another case («под Сову», «за Боба»).
BEFORE_A_NAME = re.compile(
    rf"(?i)(?<!\w)(под|за|на|к|ко|у|от|с|со|для|против|о|об|по|без|при|про|над)\s+\{{({NAME_FIELDS})\}}"
)


#: An impersonal word right after a name would need the name in the dative («Боб нечего менять»).
DATIVE_AFTER_A_NAME = re.compile(
    rf"(?<!игроку )\{{({NAME_FIELDS}|who)\}}\s+(нечего|некуда|некому|нельзя|надо|нужно)(?!\w)"
)


def test_russian_texts_never_decline_a_name() -> None:
    """Names come as Telegram gives them (Alice, Сова): a Russian text keeps them in the nominative,
    after «игрока»/«игроку» where another case is needed."""
    catalog = russian_catalog()
    for entry in catalog:  # type: ignore[attr-defined]
        for text in entry.string if isinstance(entry.string, tuple) else (entry.string,):
            assert not BEFORE_A_NAME.search(text), f"a name after a preposition: {text!r}"
            assert not DATIVE_AFTER_A_NAME.search(text), f"a name that needs the dative: {text!r}"


#: A button's label quoted in a text («🙋 I'm back»).
QUOTED = re.compile(r"«([^»{}]+)»")


def test_a_quoted_button_reads_as_the_button_does() -> None:
    """A text that tells people to press a button quotes the button's own label, in both languages
    (a renamed button must not leave the old name in another text)."""
    catalog = russian_catalog()
    labels = {entry.id: entry.string for entry in catalog if isinstance(entry.id, str)}  # type: ignore[attr-defined]
    quoting = 0
    for entry in catalog:  # type: ignore[attr-defined]
        english = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        russian = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for label in {label for text in english for label in QUOTED.findall(text)}:
            assert label in labels, f"{entry.id!r} quotes «{label}», which is no button"
            quoting += 1
            for text in russian:
                assert f"«{labels[label]}»" in text, f"{text!r} should quote «{labels[label]}»"
    assert quoting >= 5


def test_compiled_catalog_matches_the_po_file() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, russian_catalog())  # type: ignore[arg-type]
    assert compiled.getvalue() == (LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.mo").read_bytes()


def test_russian_plurals_and_fallback_to_english() -> None:
    steps = ("{name}, your turn: {n} step.", "{name}, your turn: {n} steps.")
    assert tn("ru", *steps, 1, name="А") == "А, ваш ход: 1 шаг."
    assert tn("ru", *steps, 3, name="А") == "А, ваш ход: 3 шага."
    assert tn("ru", *steps, 7, name="А") == "А, ваш ход: 7 шагов."
    assert tn("en", *steps, 1, name="A") == "A, your turn: 1 step."
    assert t("en", "Join") == "Join" and t("ru", "Join") == "Играю"


def test_language_from_telegram() -> None:
    assert pick_language("ru") == "ru"
    assert pick_language("en-US") == "en"
    assert pick_language("uk") == "ru"
    assert pick_language("de") == "en"
    assert pick_language(None) == "ru"
