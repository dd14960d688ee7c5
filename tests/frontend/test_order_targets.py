"""The order data's compact reasons (frontend.order_targets.targets_compact) against the plain ones: filled
in as the map's script fills them, every reason comes back exactly as the message renders, whatever the
codes and the words, in either language."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from frontend.order_targets import targets_compact
from frontend.terms import said
from rules.engine.messages import Message


def fill(template: str, **values: str) -> str:
    """orders.js's fill(): %(name)s and {name} replaced by the values, an unknown name by nothing."""
    return re.sub(r"%\((\w+)\)s|\{(\w+)\}", lambda m: values.get(m.group(1) or m.group(2), ""), template)


def _expanded(compact, reasons):
    """Each kind's verdicts back by target (orders.js does so), their templates filled in."""
    return {
        origin: {
            kind: {
                target: fill(reasons[why], target=target, origin=origin) if isinstance(why, int) else why
                for target, why in zip(sent["reach"], verdicts, strict=True)
            }
            for kind, verdicts in sent["kinds"].items()
        }
        for origin, sent in compact.items()
    }


def _plain(judged):
    """Every reason rendered on its own, as the page would say it without templates."""
    return {
        origin: {
            kind: {target: None if why is None else said(why) for target, why in by_target.items()}
            for kind, by_target in kinds.items()
        }
        for origin, kinds in judged.items()
    }


def test_a_refusal_that_names_its_target_and_origin_is_sent_once() -> None:
    judged = {
        "N5": {
            "attack": {
                "K1": Message("not_adjacent", {"target": "K1", "origin": "N5"}),
                "M2": None,
                "N4": Message("attack_own", {"region": "N4", "nation": "NOR"}),
            }
        },
        "N3": {
            "attack": {"K2": Message("not_adjacent", {"target": "K2", "origin": "N3"})},
            "move": {"K2": Message("not_adjacent", {"target": "K2", "origin": "N3"})},
        },
    }
    compact, reasons = targets_compact(judged)
    assert reasons == [
        "{target} is not adjacent to {origin}",
        "{target} is NOR's own region: move there instead of attacking",
    ]
    assert compact["N3"] == {"reach": ["K2"], "kinds": {"attack": [0], "move": [0]}}
    assert _expanded(compact, reasons) == _plain(judged)


def test_a_reason_the_script_could_not_fill_back_is_sent_as_it_is() -> None:
    nested = Message("parts", {"first": Message("no_units"), "second": Message("no_units")})
    judged = {
        "N5": {
            "attack": {
                "K1": Message("at_peace", {"nation": "{origin}", "owner": "SWE"}),
                "K2": Message("at_peace", {"nation": "%(x)s", "owner": "SWE"}),
                "K3": nested,
                # Words with a placeholder of their own (here an unknown code, which renders as itself).
                "K4": Message("{kind} %(region)s", {"target": "K4"}),
            }
        }
    }
    compact, reasons = targets_compact(judged)
    assert reasons == []
    assert compact["N5"]["kinds"]["attack"][0] == "{origin} is at peace with SWE"
    assert _expanded(compact, reasons) == _plain(judged)


codes = st.text(alphabet="ABNR01{}%()s_ -'", min_size=1, max_size=4) | st.sampled_from(
    ["is", "not", "to", "on", "of", "ei", "{target}", "%(origin)s"]
)


def _reasons(origin: str, target: str, nation: str, owner: str) -> list[Message]:
    """The reasons the engine's target rules give (rules.engine.validation._target_reason)."""
    return [
        Message("not_adjacent", {"target": target, "origin": origin}),
        Message("out_of_reach", {"target": target, "reach": 2, "origin": origin}),
        Message("move_not_own", {"region": target, "nation": nation}),
        Message("attack_own", {"region": target, "nation": nation}),
        Message("at_peace", {"nation": nation, "owner": owner}),
        Message("allied", {"nation": nation, "owner": owner}),
    ]


@given(
    st.dictionaries(
        codes,
        # The kinds an origin has units for, and for each target within its reach a verdict for each kind.
        st.tuples(
            st.sets(st.sampled_from(["attack", "move", "rebase"])),
            st.dictionaries(
                codes, st.lists(st.none() | st.integers(0, 5), min_size=3, max_size=3), max_size=5
            ),
        ),
        max_size=4,
    ),
    codes,
    codes,
    st.sampled_from(["en", "fi"]),
)
def test_every_reason_comes_back_as_the_engine_says_it(shape, nation, owner, language) -> None:
    judged = {
        origin: {
            kind: {
                target: None if picks[i] is None else _reasons(origin, target, nation, owner)[picks[i]]
                for target, picks in by_target.items()
                if target != origin
            }
            for i, kind in enumerate(sorted(kinds))
        }
        for origin, (kinds, by_target) in shape.items()
    }
    with translation.override(language):
        assert _expanded(*targets_compact(judged)) == _plain(judged)


def test_kinds_of_one_origin_that_judge_different_targets_are_refused() -> None:
    # targets_judged judges every kind of an origin on the same targets; the compact form relies on it.
    with pytest.raises(ValueError):
        targets_compact({"N5": {"attack": {"K1": None}, "move": {"K2": None}}})
