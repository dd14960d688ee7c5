"""The registry of battle systems, as godip's `Variants[name]`: a system is a folder of the engine that builds
one `BattleSystem`; adding one is that folder and its line in `SYSTEM_MODULES`.

A system brings its ruleset (its own keys, validated, errors naming the key), its `fight` (the battle step
of the turn pipeline), the named pipeline rules it replaces (`Policies`), its message codes (registered when
its folder is imported) and its case runner. `company_d20` has its own turn functions instead of `fight`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .messages import Message, gettext_noop, messages_register
from .settings import Setting

# The engine's own systems, imported on first use so that each registers itself.
SYSTEM_MODULES = (
    "rules.engine.iron_fist",
    "rules.engine.sodankaynti",
    "rules.engine.tabletop",
    "rules.engine.company_d20",
)
DEFAULT_SYSTEM = "iron_fist"

messages_register({"system.unavailable": gettext_noop("battle system {name} is not available")})


class CaseError(ValueError):
    """A case file is malformed; the message says where. A system's `case_check` raises it (rules.cases)."""


class SystemUnavailable(LookupError):
    def __init__(self, name: str) -> None:
        self.message = Message("system.unavailable", {"name": name})
        super().__init__(str(self.message))


@dataclass(frozen=True)
class Policies:
    """Rules of the Iron Fist pipeline that a system's spec replaces by name; the defaults are Iron Fist's."""

    support_from_range: bool = True  # IRON_FIST §3: artillery and air support battles within range
    support_losses: bool = True  # IRON_FIST §8-9: supporting units roll for losses
    air_rebases_after_conquest: bool = True  # IRON_FIST §10: IV of a conquered region rebase within range


# IRON_FIST.md §2.1: the kinds of order of the Iron Fist pipeline, in the order a form offers them.
IRON_FIST_KINDS = ("hold", "move", "rebase", "attack", "stand_down")


@dataclass(frozen=True)
class BattleSystem:
    """A system's registry entry: what the engine calls, and what the pages, the API and the wizard say of it.

    `title` and `summary` are English, marked for the catalogue; `system_register` registers them, and each
    setting's help, as messages (`system.<name>.title`, `system.<name>.setting.<key>`), so that every reader
    gets them in their language and the catalogue test asks each for its Finnish text."""

    name: str
    ruleset_build: Callable[[Mapping[str, Any]], Any]  # overrides (without battle_system) -> the ruleset
    title: str = ""
    summary: str = ""
    # Its specification beside its code, a copy of ../shared/rules (`python -m rules docs-sync`), served by
    # the app; the sections only developers read (`rules_hidden`: "11" for "## 11. ...") are left out there.
    rules: Path | None = None
    rules_hidden: tuple[str, ...] = ()
    # Every kind of order a player may give, in the order a form offers them; the API's `kind` enum.
    kinds: tuple[str, ...] = IRON_FIST_KINDS
    # The scalar ruleset settings, with ranges, defaults and help (rules.engine.settings).
    settings: tuple[Setting, ...] = ()
    # The attributes the GM sets per nation (Sodankäynti §5: its ratings), declared as settings are, and
    # the check of a nation's whole attributes against the ruleset: (attributes, ruleset) -> None, raising
    # RulesetError that names the attribute. A system without it takes no nation attributes.
    nation_attributes: tuple[Setting, ...] = ()
    attributes_check: Callable[[Mapping[str, Any], Any], None] | None = None
    fight: Callable[[Any], Any] | None = None  # BattleCall -> BattleOutcome | Pending
    policies: Policies = field(default_factory=Policies)
    case_check: Callable[[Mapping[str, Any], Path], str | None] | None = None
    # The top-level `kind`s of the case files that are this system's whatever else they say (tabletop's
    # `close_combat` and `turn`, BATTLE_SYSTEMS.md "The case runner").
    case_kinds: frozenset[str] = frozenset()
    # A system's own order checks, run before the common ones (IRON_FIST.md §2.1), in submission order:
    # (world, ruleset) -> a check of one order -> Invalid (rejected) or None (on to the common checks).
    order_check: Callable[[Any, Any], Callable[[Any], Any]] | None = None
    # Kinds of order the system checks alone: they name no units and skip the common checks (Sodankäynti §4).
    unitless_kinds: frozenset[str] = frozenset()
    # Of those, the ones that keep fields of their own instead of a target: kind -> (region code or "", the
    # fields as entered) -> the order's params as stored (Sodankäynti's doctrine, §4.1).
    unitless_params: Mapping[str, Callable[[str, Mapping[str, Any]], dict[str, Any]]] = field(
        default_factory=dict
    )
    # The system's own turn inputs, checked before the first draw and given to every battle as `call.inputs`:
    # (world, ruleset, turn input, accepted orders) -> inputs; without it, TurnInput.system_inputs as given.
    inputs_prepare: Callable[..., Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # a system's own functions (company_d20's turn)

    @property
    def title_message(self) -> Message:
        return Message(f"system.{self.name}.title")

    @property
    def summary_message(self) -> Message:
        return Message(f"system.{self.name}.summary")

    def setting_help(self, setting: Setting) -> Message:
        return Message(f"system.{self.name}.setting.{setting.key}")

    def attribute_help(self, attribute: Setting) -> Message:
        return Message(f"system.{self.name}.attribute.{attribute.key}")

    def setting(self, key: str) -> Setting:
        return next(s for s in self.settings if s.key == key)


_REGISTRY: dict[str, BattleSystem] = {}
_loaded = False


def system_register(system: BattleSystem) -> None:
    texts = {"title": system.title, "summary": system.summary}
    texts.update({f"setting.{s.key}": s.help for s in system.settings})
    texts.update({f"attribute.{a.key}": a.help for a in system.nation_attributes})
    messages_register({code: text for code, text in texts.items() if text}, prefix=f"system.{system.name}.")
    _REGISTRY[system.name] = system


def system_unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in SYSTEM_MODULES:
            importlib.import_module(module)


def system_get(name: str) -> BattleSystem:
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise SystemUnavailable(name) from None


def system_of_case_kind(kind: Any) -> str | None:
    """The system whose case files have this top-level `kind`, if any."""
    _load()
    return next((name for name, system in _REGISTRY.items() if kind in system.case_kinds), None)


def system_names() -> tuple[str, ...]:
    _load()
    return tuple(_REGISTRY)


def order_kinds_all() -> tuple[str, ...]:
    """Every kind of order some registered system offers, in registry order: what an order row may hold and
    the API's shape check; which of them a campaign takes is its system's `kinds`."""
    _load()
    kinds: dict[str, None] = {}
    for system in _REGISTRY.values():
        kinds.update(dict.fromkeys(system.kinds))
    return tuple(kinds)


def systems_playable() -> tuple[str, ...]:
    """The systems a campaign can be set to: those whose battles the turn pipeline fights (`fight`).

    A system with its own turn functions instead (company_d20) is listed once the shell runs them."""
    _load()
    return tuple(name for name, system in _REGISTRY.items() if system.fight is not None)
