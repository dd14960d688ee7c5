"""A battle system's scalar settings, declared once: each key's kind, its allowed range or values, its default
and its help text. The system's ruleset builder checks a campaign's values through these declarations, and the
GM's forms, the wizard and the API read the same ones, so that validation, the form and the help have one
source (the registry entry, `BattleSystem.settings`).

Tables (the loss table, unit types and values, catalogues) are not scalar settings: their system checks them
whole. A setting's `key` is its dotted path in the ruleset (`tabletop.result_deadline_hours`, `xp.per_vp`);
its `help` is an English text marked for the translation catalogue, rendered in the reader's language at the
edge. Every whole number has a maximum too, so that no value a GM can save stops a later turn (a deadline of
10**9 hours overflows a date).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .ruleset import RulesetError, check_int


class SettingKind(StrEnum):
    WHOLE = "whole"  # a whole number within [minimum, maximum]
    FLAG = "flag"  # true or false
    CHOICE = "choice"  # one of `choices`
    TEXT = "text"  # a text of at most `max_length` characters, without NUL


@dataclass(frozen=True)
class Setting:
    key: str  # the dotted path in the ruleset
    kind: SettingKind
    help: str  # English, marked with gettext_noop where it is declared
    section: str = ""  # where the system's spec defines it ("§5", "A8.1")
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    max_length: int | None = None
    nullable: bool = False  # null is a value of its own (no cap, no limit, off)
    default: Any = None  # filled from the system's defaults by `settings_declare`

    def check(self, value: Any) -> Any:
        """`value` if the setting allows it; else a RulesetError that names the key and says why."""
        if value is None and self.nullable:
            return None
        if self.kind is SettingKind.WHOLE:
            check_int({self.key: value}, self.key, minimum=self.minimum, maximum=self.maximum)
        elif self.kind is SettingKind.FLAG:
            if not isinstance(value, bool):
                raise RulesetError(f"{self.key}: expected true or false, got {value!r}")
        elif self.kind is SettingKind.CHOICE:
            if not isinstance(value, str) or value not in self.choices:
                raise RulesetError(f"{self.key}: expected one of {', '.join(self.choices)}, got {value!r}")
        else:
            if not isinstance(value, str):
                raise RulesetError(f"{self.key}: expected a text, got {value!r}")
            if "\x00" in value:
                raise RulesetError(f"{self.key}: a text cannot hold a NUL character")
            if self.max_length is not None and len(value) > self.max_length:
                raise RulesetError(f"{self.key}: at most {self.max_length} characters, got {len(value)}")
        return value

    def read(self, data: Mapping[str, Any]) -> Any:
        """The setting's value in a merged ruleset mapping, checked."""
        return self.check(lookup(data, self.key))

    def to_dict(self) -> dict[str, Any]:
        """The declaration as JSON, for the API and the pages' scripts."""
        data: dict[str, Any] = {"key": self.key, "kind": self.kind.value, "default": self.default}
        for name in ("minimum", "maximum", "max_length"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.choices:
            data["choices"] = list(self.choices)
        data["nullable"] = self.nullable
        data["section"] = self.section
        return data


def whole(key: str, help: str, minimum: int, maximum: int, **more: Any) -> Setting:
    return Setting(key, SettingKind.WHOLE, help, minimum=minimum, maximum=maximum, **more)


def flag(key: str, help: str, **more: Any) -> Setting:
    return Setting(key, SettingKind.FLAG, help, **more)


def choice(key: str, help: str, choices: Iterable[str], **more: Any) -> Setting:
    return Setting(key, SettingKind.CHOICE, help, choices=tuple(choices), **more)


def text(key: str, help: str, max_length: int, **more: Any) -> Setting:
    return Setting(key, SettingKind.TEXT, help, max_length=max_length, **more)


MISSING = object()


def lookup(data: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """The value at a dotted path, or `default` where a step is missing or not a mapping."""
    value: Any = data
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return default
        value = value[part]
    return value


def settings_declare(defaults: Mapping[str, Any], *settings: Setting) -> tuple[Setting, ...]:
    """The declarations with their defaults taken from the system's defaults, each checked against its own
    range, so that a default outside it fails at import, not in a GM's form."""
    declared = []
    for setting in settings:
        default = lookup(defaults, setting.key, MISSING)
        if default is MISSING:
            raise ValueError(f"{setting.key}: a setting without a default")
        declared.append(replace(setting, default=setting.check(default)))
    keys = [s.key for s in declared]
    if len(set(keys)) != len(keys):
        raise ValueError("a setting is declared twice")
    return tuple(declared)


def settings_check(data: Mapping[str, Any], settings: Iterable[Setting]) -> dict[str, Any]:
    """Every declared setting's value in `data` (a merged ruleset), checked: key -> value."""
    return {setting.key: setting.read(data) for setting in settings}
