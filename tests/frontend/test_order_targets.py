"""The order data's compact reasons (frontend.order_targets.targets_compact) against the plain ones: filled
in as the map's script fills them, every reason comes back exactly, whatever the codes and the words."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from frontend.order_targets import targets_compact


def fill(template: str, **values: str) -> str:
    """orders.js's fill(): %(name)s and {name} replaced by the values, an unknown name by nothing."""
    return re.sub(r"%\((\w+)\)s|\{(\w+)\}", lambda m: values.get(m.group(1) or m.group(2), ""), template)


def _expanded(compact, reasons):
    return {
        origin: {
            kind: {
                target: fill(reasons[why], target=target, origin=origin) if isinstance(why, int) else why
                for target, why in by_target.items()
            }
            for kind, by_target in kinds.items()
        }
        for origin, kinds in compact.items()
    }


def test_a_refusal_that_names_its_target_and_origin_is_sent_once() -> None:
    judged = {
        "N5": {"attack": {"K1": "K1 is not adjacent to N5", "M2": None, "N4": "N4 is NOR's own region"}},
        "N3": {"attack": {"K2": "K2 is not adjacent to N3"}, "move": {"K2": "K2 is not adjacent to N3"}},
    }
    compact, reasons = targets_compact(judged)
    assert reasons == ["{target} is not adjacent to {origin}", "{target} is NOR's own region"]
    assert compact["N3"] == {"attack": {"K2": 0}, "move": {"K2": 0}}
    assert _expanded(compact, reasons) == judged


codes = st.text(alphabet="ABNR01{}%()s_ -'", min_size=1, max_size=4)
words = st.lists(st.one_of(codes, st.sampled_from(["is", "not", "adjacent", "to", "{target}", "%(origin)s"])))


@given(
    st.dictionaries(
        codes,
        st.dictionaries(
            st.sampled_from(["attack", "move", "rebase"]),
            st.dictionaries(codes, st.one_of(st.none(), words.map(" ".join)), max_size=5),
            max_size=3,
        ),
        max_size=4,
    ),
    st.data(),
)
def test_every_reason_comes_back_as_it_was_judged(judged, data) -> None:
    # Reasons that name their own target and origin, as the engine's do.
    for origin, kinds in judged.items():
        for by_target in kinds.values():
            for target in by_target:
                if by_target[target] is not None and data.draw(st.booleans()):
                    by_target[target] = f"{target} {by_target[target]} {origin}"
    judged = {
        o: {k: {t: w for t, w in b.items() if t != o} for k, b in ks.items()} for o, ks in judged.items()
    }
    assert _expanded(*targets_compact(judged)) == judged
