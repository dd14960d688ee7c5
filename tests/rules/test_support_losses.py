"""Air and artillery support losses (IRON_FIST.md §8, §9 method B)."""

from __future__ import annotations

from tests.rules.turns import garrisoned, play


def test_a_units_chance_adds_up_over_the_phase_and_is_capped_at_100() -> None:
    # The air in X supports 3 lost battles at 40% each: 120%, capped at 100: every unit is destroyed.
    result = play(
        ruleset={"support_loss": {"won_or_draw": 10, "lost": 40}},
        nations=["RED", "BLUE"],
        **garrisoned(
            X=("RED", {"JV": 3, "IV": 2}),
            E1=("BLUE", {"JV": 9}),
            E2=("BLUE", {"JV": 9}),
            E3=("BLUE", {"JV": 9}),
        ),
        borders=[["X", "E1"], ["X", "E2"], ["X", "E3"]],
        orders=[
            {"nation": "RED", "kind": "attack", "from": "X", "to": e, "units": {"JV": 1}}
            for e in ("E1", "E2", "E3")
        ],
    )

    (chance,) = [c for c in result.support_chances if c["unit_type"] == "IV"]
    assert chance["chance"] == 100
    assert [b["outcome"] for b in chance["battles"]] == ["lost", "lost", "lost"]
    assert [(r.unit, r.destroyed) for r in result.support_rolls] == [(1, True), (2, True)]


def test_a_unit_is_destroyed_when_its_roll_is_at_most_its_chance() -> None:
    for seed in range(30):
        result = play(
            seed=seed,
            nations=["RED", "BLUE"],
            regions={"X": {"owner": "RED"}, "E": {"owner": "BLUE"}},
            borders=[["X", "E"]],
            units={"X": {"RED": {"JV": 5, "IV": 3}}, "E": {"BLUE": {"JV": 12}}},  # 19 against 24: lost
            orders=[{"nation": "RED", "kind": "attack", "from": "X", "to": "E", "units": {"JV": 5}}],
        )
        left = sum(s.count for s in result.stacks if s.unit_type == "IV")
        rolls = result.support_rolls
        assert len(rolls) == 3 and {r.chance for r in rolls} == {20}
        assert all(r.destroyed == (r.roll <= 20) for r in rolls)
        assert left == 3 - sum(r.destroyed for r in rolls)
