"""The dice service's log (COMPANY.md §8.1-8.2): one seeded stream per battle, every roll an attributed
entry with its inputs, dice and outputs, and a replay that re-runs the stream from its seed and checks
every die.

`roll_make` is what a request calls: it resolves the unit ids against the battle snapshot, makes the
request's own checks (who may roll, §8.2), runs the function on the stream and returns the new entries and
the stream's next state. A refused request draws nothing and logs nothing. The Django side stores
`StreamState.state` and the entries in one transaction.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .dice import Recorder, stream_seed
from .fire import danger_close, fire_request, scatter_begin, scatter_decide
from .problems import Problem, Refused, refuse
from .rolls import attack, damage, dc_test, morale, opposed, recon, roll
from .roster import Unit
from .ruleset import CompanyRuleset

Function = Callable[[Mapping[str, Any], CompanyRuleset, Recorder], dict[str, Any]]
FUNCTIONS: dict[str, Function] = {
    "roll": roll,
    "test": dc_test,
    "opposed": opposed,
    "attack": attack,
    "damage": damage,
    "morale": morale,
    "recon": recon,
    "fire_request": fire_request,
    "scatter": scatter_begin,  # the reroll answer is a second request, `scatter_decide` (§8.5.9)
    "danger_close": danger_close,
}
# The requester's own units: the unit whose bonus the roll uses (§8.2). Paths into the inputs.
OWN_UNITS = {
    "test": ("unit",),
    "opposed": ("active.unit",),
    "attack": ("attacker",),
    "damage": ("weapon",),
    "morale": ("unit",),
    "recon": ("scout",),
    "fire_request": ("caller", "observer"),
    "scatter": ("observer",),
}
OTHER_UNITS = {"opposed": ("passive.unit",), "attack": ("targets[].unit",), "recon": ("target.unit",)}
SERVER_FILLED = ("commander_lost", "table_turn", "caller_promoted")
GM_ONLY = {
    "test": ("bonus",),
    "opposed": ("active.bonus", "passive.bonus"),
    "attack": ("attacker.bonus", "targets[].s"),
}


def _paths(inputs: Mapping[str, Any], path: str) -> list[tuple[Any, str | int, Any]]:
    """(container, key, value) for every place the dotted path names; `x[]` steps into each element of list
    x."""
    places = [(None, None, inputs)]
    for part in path.split("."):
        found = []
        for _, _, value in places:
            many = part.endswith("[]")
            key = part[:-2] if many else part
            if not isinstance(value, Mapping) or key not in value:
                continue
            if many and isinstance(value[key], list):
                found.extend((value[key], i, item) for i, item in enumerate(value[key]))
            elif not many:
                found.append((value, key, value[key]))
        places = found
    return places


def inputs_resolve(function: str, inputs: Mapping[str, Any], lookup: Callable[[Any], Unit]) -> dict[str, Any]:
    """A copy of the inputs with every unit reference replaced by its record; `lookup` refuses an unknown
    one.

    A reference is a unit id or `{"unit": id}` where the function takes a unit (attacker, weapon)."""
    resolved = _copy(inputs)
    for path in OWN_UNITS.get(function, ()) + OTHER_UNITS.get(function, ()):
        for container, key, value in _paths(resolved, path):
            if (
                isinstance(value, Mapping)
                and set(value) & {"support", "bonus", "dice"}
                and "type" not in value
            ):
                continue  # a fire-support type, an explicit bonus or special-weapon dice, not a unit
            if isinstance(value, Mapping) and "unit" in value and "type" not in value:
                value = value["unit"]
            container[key] = lookup(value)
    return resolved


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def request_check(
    function: str,
    inputs: Mapping[str, Any],
    snapshot: Mapping[int, Unit],
    *,
    side: str | None,
    purpose: str | None,
) -> None:
    """§8.2: own units belong to the requester's side, and the passive side of `opposed` and the targets of
    `attack` and `recon` to another (`target_own_side`); explicit bonuses and target S are the GM's, with a
    reason.

    `side` None is the GM, who may roll for anyone."""
    if function not in FUNCTIONS:
        raise refuse("unknown_function", function)
    for path in OWN_UNITS.get(function, ()) + OTHER_UNITS.get(function, ()):
        for _, _, value in _paths(inputs, path):
            unit_id = value.get("unit") if isinstance(value, Mapping) else value
            if isinstance(value, Mapping) and "unit" not in value:
                continue
            if unit_id not in snapshot:
                raise refuse("unit_unknown", unit_id)
            own = path in OWN_UNITS.get(function, ())
            if side is not None and own and snapshot[unit_id].nation != side:
                raise refuse("not_your_unit", unit_id)
            if side is not None and not own and snapshot[unit_id].nation == side:
                raise refuse("target_own_side", unit_id)
    for path in GM_ONLY.get(function, ()):
        if _paths(inputs, path):
            if side is not None:
                raise refuse("gm_only", path)
            if not (isinstance(purpose, str) and purpose.strip()):
                raise refuse("reason_required", "purpose")


@dataclass(frozen=True)
class StreamState:
    """A stream (§8.1): its seed string, the generator state after the last roll, and the next sequence
    number."""

    text: str
    state: Any  # random.Random.getstate(); None before the first roll
    next_seq: int = 1

    @property
    def seed(self) -> int:
        return stream_seed(self.text)

    def generator(self) -> random.Random:
        rng = random.Random(self.seed)
        if self.state is not None:
            rng.setstate(self.state)
        return rng


def stream_open(text: str) -> StreamState:
    return StreamState(text, None, 1)


@dataclass(frozen=True)
class RollEntry:
    seq: int
    function: str  # a function of FUNCTIONS, or "scatter_decide"
    inputs: Mapping[str, Any]  # as given (unit ids, not records)
    side: str | None  # the nation the requester acts for; None for the GM
    dice: tuple[tuple[int, int], ...]  # (sides, value), in draw order
    output: Mapping[str, Any]
    secret: bool = False  # the fire-support delay: shown as "secret GM roll #n" until revealed (§8.2)
    purpose: str | None = None
    table_turn: int | None = None


def _pending_scatter(entries: Sequence[RollEntry], side: str | None) -> RollEntry | None:
    """The side's scatter entry still waiting for its reroll answer, if any."""
    decided = {e.inputs.get("entry") for e in entries if e.function == "scatter_decide"}
    for entry in reversed(entries):
        if entry.side == side and entry.function == "scatter":
            if entry.output.get("offered") and not entry.output.get("decided") and entry.seq not in decided:
                return entry
            return None
    return None


class _DryRun:
    """Dice that draw nothing from the stream: a request's checks run before its first die (§8.5)."""

    def randint(self, low: int, high: int) -> int:
        return low


def roll_make(
    stream: StreamState,
    entries: Sequence[RollEntry],
    *,
    function: str,
    inputs: Mapping[str, Any],
    ruleset: CompanyRuleset,
    snapshot: Mapping[int, Unit],
    side: str | None,
    purpose: str | None = None,
    table_turn: int | None = None,
    commander_lost: bool = False,
    promoted: int | None = None,
) -> tuple[list[RollEntry] | Problem, StreamState]:
    """Run one request on the stream: the new entries (a lapsed scatter offer is decided "no" first,
    §8.5.9), or the problem, with the stream unchanged.

    What the server knows is filled in over the request, never taken from it (§8.5.6, §8.5.9, §13): the
    table turn, whether the KP ledger marks the requester's side commander lost, and the unit promoted in
    the ledger (it calls fire support as the company commander)."""
    inputs = {k: v for k, v in inputs.items() if k not in SERVER_FILLED}
    if function == "morale":
        inputs["commander_lost"] = commander_lost
    if function == "fire_request":
        inputs["table_turn"] = table_turn or 0
        inputs["caller_promoted"] = promoted is not None and inputs.get("caller") == promoted

    def lookup(unit_id: Any) -> Unit:
        if unit_id not in snapshot:
            raise refuse("unit_unknown", unit_id)
        return snapshot[unit_id]

    rng = stream.generator()
    made: list[RollEntry] = []
    seq = stream.next_seq
    try:
        if function == "scatter_decide":
            return _decide(stream, entries, inputs, ruleset, side, table_turn)
        request_check(function, inputs, snapshot, side=side, purpose=purpose)
        resolved = inputs_resolve(function, inputs, lookup)
        pending = _pending_scatter(entries, side)
        if pending is not None:  # checked first: a refused request must not decide the offer either
            FUNCTIONS[function](resolved, ruleset, Recorder(_DryRun()))
            recorder = Recorder(rng)
            output = scatter_decide(pending.output, None, ruleset, recorder)
            made.append(
                RollEntry(
                    seq,
                    "scatter_decide",
                    {"entry": pending.seq, "reroll": None, "lapsed": True},
                    side,
                    tuple(recorder.dice),
                    output,
                    table_turn=table_turn,
                )
            )
            seq += 1
        recorder = Recorder(rng)
        output = FUNCTIONS[function](resolved, ruleset, recorder)
    except Refused as refused:
        return refused.problem, stream
    secret = function == "fire_request" and bool(output.get("secret"))
    made.append(
        RollEntry(
            seq, function, _copy(inputs), side, tuple(recorder.dice), output, secret, purpose, table_turn
        )
    )
    return made, replace(stream, state=rng.getstate(), next_seq=seq + 1)


def _decide(
    stream: StreamState,
    entries: Sequence[RollEntry],
    inputs: Mapping[str, Any],
    ruleset: CompanyRuleset,
    side: str | None,
    table_turn: int | None,
) -> tuple[list[RollEntry] | Problem, StreamState]:
    target = next((e for e in entries if e.seq == inputs.get("entry") and e.function == "scatter"), None)
    if target is None or not target.output.get("offered"):
        raise refuse("no_reroll_offer", inputs.get("entry"))
    pending = _pending_scatter(entries, target.side)
    if pending is None or pending.seq != target.seq:
        raise refuse("already_decided", target.seq)
    rng = stream.generator()
    recorder = Recorder(rng)
    output = scatter_decide(target.output, inputs.get("reroll"), ruleset, recorder)
    entry = RollEntry(
        stream.next_seq,
        "scatter_decide",
        _copy(inputs),
        side,
        tuple(recorder.dice),
        output,
        table_turn=table_turn,
    )
    return [entry], replace(stream, state=rng.getstate(), next_seq=stream.next_seq + 1)


def entry_visible(entry: RollEntry, *, gm: bool, battle_final: bool, table_turn: int) -> dict[str, Any]:
    """What a participant sees of an entry (§8.2): a secret one hides its values until the strike arrives
    or the battle is final."""
    hidden = (
        entry.secret
        and not gm
        and not battle_final
        and table_turn < (entry.output.get("arrives_on_turn") or 0)
    )
    if hidden:
        return {"seq": entry.seq, "function": entry.function, "secret": True}
    return {
        "seq": entry.seq,
        "function": entry.function,
        "inputs": dict(entry.inputs),
        "side": entry.side,
        "dice": [list(d) for d in entry.dice],
        "output": dict(entry.output),
        "secret": entry.secret,
        "purpose": entry.purpose,
        "table_turn": entry.table_turn,
    }


def log_replay(
    text: str, entries: Sequence[RollEntry], ruleset: CompanyRuleset, snapshot: Mapping[int, Unit]
) -> list[str]:
    """Re-run the stream from its seed, entry by entry: every die and every output must come out the same.

    The mismatches, one line each; [] when the log is true to its seed."""
    rng = random.Random(stream_seed(text))
    mismatches: list[str] = []
    by_seq: dict[int, RollEntry] = {}
    for entry in sorted(entries, key=lambda e: e.seq):
        recorder = Recorder(rng)
        try:
            if entry.function == "scatter_decide":
                earlier = by_seq[entry.inputs["entry"]]
                output = scatter_decide(earlier.output, entry.inputs.get("reroll"), ruleset, recorder)
            else:
                resolved = inputs_resolve(entry.function, entry.inputs, lambda u: snapshot[u])
                output = FUNCTIONS[entry.function](resolved, ruleset, recorder)
        except (Refused, KeyError) as error:
            mismatches.append(f"#{entry.seq}: cannot be replayed ({error})")
            break
        if tuple(recorder.dice) != tuple(entry.dice):
            mismatches.append(f"#{entry.seq}: dice {list(entry.dice)}, replayed {recorder.dice}")
        elif dict(output) != dict(entry.output):
            mismatches.append(f"#{entry.seq}: output differs from the replay")
        by_seq[entry.seq] = entry
    return mismatches


def dice_only_replay(text: str, entries: Sequence[RollEntry]) -> list[str]:
    """The check anyone can make without the rules: each logged die is the stream's next draw of its size."""
    rng = random.Random(stream_seed(text))
    for entry in sorted(entries, key=lambda e: e.seq):
        for sides, value in entry.dice:
            drawn = rng.randint(1, sides)
            if drawn != value:
                return [f"#{entry.seq}: a d{sides} logged {value}, the stream gives {drawn}"]
    return []
