"""Hypothesis strategies for close-combat rounds: valid rounds (TABLETOP.md B2) and arbitrary JSON."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=12,
)


@st.composite
def valid_rounds(draw: st.DrawFn, *, seeded: bool = True) -> dict[str, Any]:
    """A round that passes checks 1-8: every unit has a Discipline, relations only between enemies."""
    sizes = (draw(st.integers(1, 4)), draw(st.integers(1, 4)))
    ids = [[f"{side}{i}" for i in range(size)] for side, size in zip("rb", sizes, strict=True)]
    states = [
        [draw(st.sampled_from(("engaged", "engaged", "destroyed", "cleared_contacts"))) for _ in s]
        for s in ids
    ]
    sides = []
    for index, (names, side_states) in enumerate(zip(ids, states, strict=True)):
        enemies = [
            uid
            for uid, state in zip(ids[1 - index], states[1 - index], strict=True)
            if state != "cleared_contacts"
        ]
        units = []
        for uid, state in zip(names, side_states, strict=True):
            # A unit that cleared its contacts fights nobody left alive (check 4): it gets no relations, and
            # only destroyed enemies could name it; nobody does here.
            targets = (
                draw(st.lists(st.sampled_from(enemies), unique=True))
                if enemies and state != "cleared_contacts"
                else []
            )
            cut = draw(st.integers(0, len(targets))) if targets else 0
            unit: dict[str, Any] = {
                "id": uid,
                "state": state,
                "wounds": draw(st.integers(0, 3)),
                "overkill": draw(st.integers(0, 1) | st.integers(0, 5)),
                "standards": draw(st.integers(0, 2)),
                "charged": draw(st.booleans()),
                "line_formation": draw(st.booleans()),
                "battle_standard": draw(st.booleans()),
                "reroll": draw(st.booleans()),
                "flank_of": targets[:cut],
                "rear_of": targets[cut:],
                "discipline": draw(st.integers(5, 10) | st.integers(0, 10)),
            }
            if draw(st.booleans()):
                unit["models"] = draw(st.integers(0, 40))
                unit["files"] = draw(st.integers(1, 8))
            else:
                unit["full_ranks"] = draw(st.integers(0, 6))
                unit["ranks"] = unit["full_ranks"] + draw(st.integers(0, 2))
            units.append(unit)
        side: dict[str, Any] = {"name": ("RED", "BLUE")[index], "units": units}
        if draw(st.booleans()):
            side["other"] = [{"value": draw(st.integers(-2, 2)), "reason": "house rule"}]
        sides.append(side)
    data: dict[str, Any] = {"sides": sides}
    if seeded:
        data["dice"] = {"seed": draw(st.integers(0, 2**63 - 1))}
    return data


@st.composite
def damaged_rounds(draw: st.DrawFn) -> Any:
    """A valid round with a few fields replaced by arbitrary JSON: near misses for every check."""
    data = draw(valid_rounds())
    for _ in range(draw(st.integers(1, 4))):
        # Every mapping still in the round (an earlier replacement may have removed some) is a target.
        targets = [data]
        for side in data.get("sides") if isinstance(data.get("sides"), list) else []:
            if isinstance(side, dict):
                targets.append(side)
                units = side.get("units")
                if isinstance(units, list):
                    targets.extend(u for u in units if isinstance(u, dict))
        target = draw(st.sampled_from(targets))
        key = draw(
            st.sampled_from(sorted(target) + ["id", "files", "other", "dice", "break_test_order", "rolls"])
        )
        target[key] = draw(json_values)
    return data
