"""Who holds a jointly conquered region (IRON_FIST.md §7.2): the smallest party fights the rest."""

from __future__ import annotations

from tests.rules.turns import play, units


def test_a_tie_for_smallest_makes_the_party_later_in_nation_id_order_the_smallest() -> None:
    # Joint: 12 JV = 24 + pincer (3 origins) 4 = 28 against 2: BLUE wiped out, conquest. Then GREEN and
    # YELLOW tie for smallest with 3 JV; YELLOW, later in nation-id order, fights RED+GREEN (6 to 18, lost by
    # 12: wiped out), then RED 5 against GREEN 3 (10 to 6): RED wins and holds with 3 JV.
    result = play(
        nations=["RED", "GREEN", "YELLOW", "BLUE"],
        regions={
            "A": {"owner": "RED"},
            "G": {"owner": "GREEN"},
            "Y": {"owner": "YELLOW"},
            "X": {"owner": "BLUE"},
        },
        borders=[["A", "X"], ["G", "X"], ["Y", "X"]],
        units={
            "A": {"RED": {"JV": 6}},
            "G": {"GREEN": {"JV": 3}},
            "Y": {"YELLOW": {"JV": 3}},
            "X": {"BLUE": {"JV": 1}},
        },
        orders=[
            {"nation": n, "kind": "attack", "from": o, "to": "X", "units": {"JV": c}}
            for n, o, c in (("RED", "A", 6), ("GREEN", "G", 3), ("YELLOW", "Y", 3))
        ],
    )

    controls = [b for b in result.battles if b["kind"] == "control"]
    assert [b["kta"] for b in controls] == [{"YELLOW": 6, "GREEN+RED": 18}, {"RED": 10, "GREEN": 6}]
    assert [b["conquest"] for b in controls] == [False, True]
    assert result.owners["X"] == "RED"
    assert units(result, "X") == {"RED": {"JV": 3}}
