"""The game's stored words (frontend.terms.WORDS) that the pages and mails show: every battle kind any
system writes has its words, in English and in Finnish, rather than showing its key."""

from __future__ import annotations

import pytest
from django.utils import translation

from frontend.terms import word

# IRON_FIST §5-§7 and TABLETOP A5 (normal, meeting, joint, control), COMPANY.md §4.4 (normal, joint,
# contested, meeting, unopposed).
BATTLE_KINDS = ("normal", "meeting", "joint", "control", "contested", "unopposed")


@pytest.mark.parametrize("kind", BATTLE_KINDS)
def test_every_battle_kind_reads_as_words_in_english_and_finnish(kind) -> None:
    with translation.override("en"):
        english = word("battle", kind)
    with translation.override("fi"):
        finnish = word("battle", kind)
    assert english != kind or kind == "unopposed", "a word, not the key"
    assert finnish != english, f"{kind!r} has no Finnish"


def test_the_gm_picks_the_battle_system_by_its_name_in_the_reader_s_language(finnish_gm, demo) -> None:
    page = finnish_gm.get(f"/c/{demo.slug}/gm/").content.decode()
    assert '<option value="tabletop">Pöytätaistelut</option>' in page
    assert '<option value="iron_fist" selected>Rautanyrkki</option>' in page
