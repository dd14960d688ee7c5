"""The company_d20 adjudication cases (shared/rules/cases/company_d20/README.md): run one parsed file.

`case_check(data, path)` is None when every call gives what it expects, else the first mismatch as one line
("calls[3].targets[0].band: expected heavy, got normal"). A malformed file raises `CaseFileError` saying
where.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules.engine.ruleset import RulesetError, ruleset_merge
from rules.engine.seam import DiceError, ScriptedDice

from . import kasarmi, kp
from .campaign import CampaignState, Region
from .dice import Recorder, stream_seed
from .fire import scatter
from .kasarmi import Company
from .log import FUNCTIONS, inputs_resolve
from .orders import Order
from .problems import Problem, Refused
from .recon import contacts_all
from .results import Battle, final_view, result_final, result_validate
from .roster import UnitDataError, unit_from_data, unit_view
from .ruleset import CompanyRuleset, company_ruleset_build
from .turn import Processed, complete_turn, process_turn


class CaseFileError(ValueError):
    """The case file is malformed; the message says where."""


STATELESS = {**FUNCTIONS, "scatter": scatter}  # a case gives the scatter answer in advance


def case_check(data: Mapping[str, Any], path: Path) -> str | None:
    if not isinstance(data, Mapping) or not isinstance(data.get("calls"), list):
        raise CaseFileError("a company_d20 case needs a list of calls")
    base = data.get("ruleset") or {}
    stream = _stream(data.get("stream"))
    runner = Runner(data.get("function"), data.get("state"), base)
    for i, call in enumerate(data["calls"]):
        where = f"calls[{i}]"
        if not isinstance(call, Mapping):
            raise CaseFileError(f"{where}: expected a mapping")
        if stream is not None and "rolls" in call:
            raise CaseFileError(f"{where}: a file with a stream gives no rolls")
        try:
            ruleset = company_ruleset_build(ruleset_merge(base, call.get("ruleset") or {}))
        except RulesetError as error:
            raise CaseFileError(f"{where}.ruleset: {error}") from None
        dice = stream if stream is not None else ScriptedDice(call.get("rolls") or [])
        recorder = Recorder(dice)
        try:
            output = runner.run(call, ruleset, recorder, where)
        except DiceError as error:
            return f"{where}: {error}"
        except Refused as refused:
            output = {"error": refused.problem.code, "error_ref": refused.problem.ref}
        output = {**output, "drawn": [value for _, value in recorder.dice]}
        if isinstance(dice, ScriptedDice) and dice.left():
            return f"{where}: {dice.left()} rolls left over: {dice.rolls[dice.used :]}"
        mismatch = _compare(call.get("expect") or {}, output, where)
        if mismatch:
            return mismatch
    return None


def _stream(spec: Any) -> random.Random | None:
    if spec is None:
        return None
    if not isinstance(spec, Mapping) or not {"campaign_seed", "turn", "key"} <= set(spec):
        raise CaseFileError("stream: expected {campaign_seed, turn, key}")
    seed = stream_seed(f"{spec['campaign_seed']}:{spec['turn']}:{spec['key']}")
    if "seed" in spec and spec["seed"] != seed:
        raise CaseFileError(f"stream.seed: {spec['seed']} is not the derived seed {seed}")
    return random.Random(seed)


def _compare(expect: Any, got: Any, where: str) -> str | None:
    if isinstance(expect, Mapping):
        if not isinstance(got, Mapping):
            return f"{where}: expected a mapping, got {got!r}"
        for key, value in expect.items():
            if key not in got:
                return f"{where}.{key}: expected {value!r}, got nothing"
            mismatch = _compare(value, got[key], f"{where}.{key}")
            if mismatch:
                return mismatch
        return None
    if isinstance(expect, list):
        got_list = list(got) if isinstance(got, list | tuple) else None
        if got_list is None or len(got_list) != len(expect):
            return f"{where}: expected {expect!r}, got {got!r}"
        for i, (want, have) in enumerate(zip(expect, got_list, strict=True)):
            mismatch = _compare(want, have, f"{where}[{i}]")
            if mismatch:
                return mismatch
        return None
    if isinstance(expect, bool) != isinstance(got, bool) or expect != got:
        return f"{where}: expected {expect!r}, got {got!r}"
    return None


def _problem(problem: Problem) -> dict[str, Any]:
    return {"error": problem.code, "error_ref": problem.ref}


class Runner:
    """Runs a file's calls; the stateful functions (kasarmi, kp, turn) carry their state from call to call."""

    def __init__(self, function: Any, state: Any, base: Mapping[str, Any]) -> None:
        self.function, self.raw_state = function, state or {}
        self.state: Any = None
        self.processed: Processed | None = None
        try:
            self.base = company_ruleset_build(base)
        except RulesetError as error:
            raise CaseFileError(f"ruleset: {error}") from None

    def run(
        self, call: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder, where: str
    ) -> dict[str, Any]:
        function = call.get("function", self.function)
        handler: Callable[..., dict[str, Any]] | None = {
            "unit_view": self.unit_view,
            "battle_result": self.battle_result,
            "kasarmi": self.kasarmi,
            "kp": self.kp,
            "turn": self.turn,
        }.get(function)
        try:
            if handler is not None:
                return handler(call, ruleset, dice)
            if function not in STATELESS:
                raise CaseFileError(f"{where}: unknown function {function!r}")
            inputs = inputs_resolve(function, call.get("input") or {}, lambda u: self.unit(u, ruleset))
            return STATELESS[function](inputs, ruleset, dice)
        except (UnitDataError, KeyError, TypeError, AttributeError) as error:
            raise CaseFileError(f"{where}: {type(error).__name__}: {error}") from None

    @staticmethod
    def unit(data: Any, ruleset: CompanyRuleset, **options: Any) -> Any:
        return unit_from_data(data, ruleset, **options)

    def unit_view(self, call, ruleset, dice):
        return unit_view(self.unit(call["input"]["unit"], ruleset), ruleset)

    def battle_result(self, call, ruleset, dice):
        spec, entry = call["input"]["battle"], call["input"].get("entry")
        units = {u["id"]: self.unit(u, ruleset) for u in spec.get("units") or []}
        battle = Battle("battle", spec["kind"], spec.get("defender"), tuple(spec["sides"]), units)
        errors = result_validate(battle, entry)
        if errors:
            return {"errors": [[p.code, p.ref] for p in errors]}
        return {"errors": [], **final_view(result_final(battle, entry, ruleset), ruleset)}

    def kasarmi(self, call, ruleset, dice):
        if self.state is None:
            raw = self.raw_state
            groups = raw.get("style") == "battle_groups"
            units = {
                u["id"]: self.unit({"nation": raw.get("nation"), **u}, ruleset, battle_groups=groups)
                for u in raw.get("units") or []
            }
            self.state = Company(
                nation=raw["nation"],
                tp=raw.get("tp", 0),
                units=units,
                owned=tuple(raw.get("owned") or ()),
                home=tuple(raw.get("home") or ()),
                company_size=raw.get("company_size", ruleset.get("company_size")),
                next_id=raw.get("next_id", max(units, default=0) + 1),
                style=raw.get("style", "company"),
                orders_phase=raw.get("phase", raw.get("status", "orders")) == "orders",
            )
        inputs = dict(call["input"])
        action = kasarmi.ACTIONS.get(inputs.pop("action", None))
        if action is None:
            raise CaseFileError(f"kasarmi: unknown action {call['input'].get('action')!r}")
        done = action(self.state, ruleset, **inputs)
        if isinstance(done, Problem):
            return _problem(done)
        self.state = done.company
        output: dict[str, Any] = {"ok": True, "tp": done.company.tp}
        if done.unit is not None:
            output["unit"] = unit_view(done.company.units[done.unit], ruleset)
        return output

    def kp(self, call, ruleset, dice):
        if self.state is None:
            sides = {}
            for nation, side in (self.raw_state.get("sides") or {}).items():
                style = side.get("style", "company")
                units = [
                    self.unit({"nation": nation, **u}, ruleset, battle_groups=style == "battle_groups")
                    for u in side.get("units") or []
                ]
                sides[nation] = (style, units)
            self.state = kp.ledger_open(sides)
        inputs = dict(call["input"])
        op = inputs.pop("op", None)
        if op == "turn_start":
            after = kp.turn_start(self.state, ruleset, inputs.get("declarations") or {})
        elif op in ("spend", "transfer", "eliminate"):
            after = getattr(kp, op)(self.state, ruleset, **inputs)
        else:
            raise CaseFileError(f"kp: unknown op {op!r}")
        if isinstance(after, Problem):
            return _problem(after)
        self.state = after
        output = after.view()
        if op == "turn_start":
            output["discarded"] = after.log[-1]["discarded"]
        return output

    def turn(self, call, ruleset, dice):
        if self.state is None:
            self.state = campaign_from_data(self.raw_state, ruleset)
        step = call.get("step")
        if step == "process":
            orders = [Order.from_data(o) for o in call.get("orders") or []]
            self.processed = process_turn(self.state, orders, ruleset, dice)
            self.state = self.processed.state
            return {
                "rejected": [[i, p.code] for i, p in self.processed.rejected],
                "battles": [b.to_dict() for b in self.processed.battles],
                "contacts": contacts_all(self.state, ruleset),
            }
        if step != "complete":
            raise CaseFileError(f"turn: unknown step {step!r}")
        battles = self.processed.battles if self.processed else ()
        completed = complete_turn(self.state, battles, call.get("results") or {}, ruleset)
        self.state, self.processed = completed.state, None
        state = completed.state
        return {
            "outcomes": completed.outcomes,
            "owners": {r.id: r.owner for r in state.regions.values()},
            "positions": {r: [u.id for u in state.active_units() if u.region == r] for r in state.regions},
            "units": {
                u.id: {
                    k: v
                    for k, v in unit_view(u, ruleset).items()
                    if k in ("tk", "xp", "tt", "damaged", "status", "region", "role", "group")
                }
                for u in state.units.values()
            },
            "tp": dict(state.tp),
            "destroyed": sorted(u.id for u in state.units.values() if not u.active),
            "cut_off": list(completed.cut_off),
            "contacts": contacts_all(state, ruleset),
        }


def campaign_from_data(raw: Mapping[str, Any], ruleset: CompanyRuleset) -> CampaignState:
    """The `turn` state of a case file (README.md): nations, relations, regions, borders, units, tp, turn."""
    styles = dict(raw.get("command_styles") or {})
    regions = {
        str(r): Region(str(r), spec.get("terrain", "open"), spec.get("owner"), spec.get("home"))
        for r, spec in (raw.get("regions") or {}).items()
    }
    units = {}
    for data in raw.get("units") or []:
        unit = unit_from_data(data, ruleset, battle_groups=styles.get(data.get("nation")) == "battle_groups")
        units[unit.id] = replace(unit, region=str(unit.region) if unit.region is not None else None)
    return CampaignState(
        nations=tuple(raw["nations"]),
        regions=regions,
        borders=tuple((str(a), str(b)) for a, b in raw.get("borders") or []),
        units=units,
        turn=raw.get("turn", 1),
        relations={frozenset((a, b)): kind for a, b, kind in raw.get("relations") or []},
        tp={n: raw.get("tp", {}).get(n, ruleset.get("tp.starting")) for n in raw["nations"]},
        command_styles=styles,
    )
