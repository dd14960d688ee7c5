"""The rule documents in the repository: each battle system's specification beside its code (its registry
entry's `rules`) and BATTLE_SYSTEMS.md beside the registry, copies of the canonical ../shared/rules.

`python -m rules docs-sync [SOURCE]` copies what differs from SOURCE (../shared/rules beside the checkout by
default); a test fails while a copy differs from its source, so a change there is seen at once."""

from __future__ import annotations

from pathlib import Path

from rules.engine.systems import system_get, system_names

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "rules"
REGISTRY_DOCUMENT = Path(__file__).with_name("engine") / "BATTLE_SYSTEMS.md"


def documents() -> list[Path]:
    """Every rule document the repository keeps: the shared page, then each registered system's."""
    found = [REGISTRY_DOCUMENT]
    for name in system_names():
        rules = system_get(name).rules
        if rules is not None and rules not in found:
            found.append(rules)
    return found


def documents_stale(source: Path = SHARED) -> list[str]:
    """The names of the copies that differ from their source (a missing copy or source differs too)."""
    stale = []
    for copy in documents():
        original = source / copy.name
        if not (original.is_file() and copy.is_file()) or original.read_bytes() != copy.read_bytes():
            stale.append(copy.name)
    return stale


def documents_sync(source: Path = SHARED) -> list[str]:
    """Copy each document that differs from `source`; the names copied."""
    copied = []
    for copy in documents():
        original = source / copy.name
        if not original.is_file():
            raise FileNotFoundError(f"{original}: no such rule document")
        if not copy.is_file() or original.read_bytes() != copy.read_bytes():
            copy.write_bytes(original.read_bytes())
            copied.append(copy.name)
    return copied
