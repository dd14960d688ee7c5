"""The Finnish catalogue is complete and its compiled .mo (committed, for machines without gettext) says
exactly what the .po says: edit the .po, run `manage.py compilemessages -l fi`, commit both."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "fi" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]|\{[a-z_]+\}")


@pytest.fixture(scope="module")
def po():
    return polib.pofile(str(LOCALE / "django.po"))


def _key(entry):
    return f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid


def test_it_translates_every_message_with_no_fuzzy_guess(po):
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"untranslated: {untranslated}"
    assert not fuzzy, f"fuzzy: {fuzzy}"
    assert [e.msgid for e in po.obsolete_entries()] == [], (
        "obsolete entries: run makemessages -l fi --no-obsolete"
    )


def test_it_keeps_every_placeholder_of_the_english_in_the_finnish(po):
    for entry in po.translated_entries():
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for text in [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values():
            assert sorted(PLACEHOLDER.findall(text)) == wanted, entry.msgid


def test_it_ships_a_compiled_catalogue_that_says_what_the_po_says(po):
    with (LOCALE / "django.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog
    expected = {}
    for entry in po.translated_entries():
        if entry.msgid_plural:
            for n, text in entry.msgstr_plural.items():
                expected[(_key(entry), int(n))] = text
        else:
            expected[_key(entry)] = entry.msgstr
    found = {k: v for k, v in catalog.items() if k != ""}
    stale = sorted(str(k) for k in expected.keys() ^ found.keys()) + sorted(
        str(k) for k in expected.keys() & found.keys() if expected[k] != found[k]
    )
    assert not stale, f"django.mo is out of date (run compilemessages): {stale[:5]}"
