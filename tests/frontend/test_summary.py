"""The one-line summary of a resolved turn, as the turn's page and the results mail open with it."""

from __future__ import annotations

from frontend.summary import turn_summary

CHANGES = [
    {"region": "M2", "from": "EST", "to": "NOR"},
    {"region": "N5", "from": "NOR", "to": "EST"},
    {"region": "K1", "from": "NOR", "to": None},
]
NAMES = {"NOR": "Kingdom of Nordmark", "EST": "Ostland Federation"}


def test_the_page_tells_a_player_what_it_took_and_lost() -> None:
    line = turn_summary(number=4, battles=3, changes=CHANGES, own="NOR")
    assert line == "Turn 4: 3 battles, you took M2, you lost N5, K1"


def test_the_page_tells_the_gm_how_many_regions_changed_hands() -> None:
    line = turn_summary(number=4, battles=1, changes=CHANGES, own=None)
    assert line == "Turn 4: 1 battle, 3 regions changed hands"


def test_the_mail_names_who_took_what_the_player_lost() -> None:
    line = turn_summary(number=4, battles=3, changes=CHANGES, own="NOR", names=NAMES)
    assert line == (
        "Turn 4: 3 battles you fought in; you took M2; you lost N5 (to Ostland Federation), K1 (to nobody)."
    )


def test_the_mail_to_the_gm_is_a_sentence_of_counts() -> None:
    line = turn_summary(number=4, battles=2, changes=CHANGES[:1], own=None, names=NAMES)
    assert line == "Turn 4: 2 battles; 1 region changed hands."


def test_a_quiet_turn_says_only_its_battles() -> None:
    assert turn_summary(number=2, battles=0, changes=[], own="EST") == "Turn 2: 0 battles"
