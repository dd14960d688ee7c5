"""The helpers of the settings tests (tests/seam/test_settings.py, and each system's own test of its
defaults): the dotted keys of a system's defaults that are scalar settings, and the override that sets one."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from rules.engine.settings import MISSING, lookup


def scalar_leaves(mapping: Mapping[str, Any], excluded: Collection[str]) -> dict[str, Any]:
    """Every leaf of `mapping` by its dotted key, leaving out the keys in `excluded` (the tables, which their
    builder checks whole) with all below them. A list is a leaf too, so that a table `excluded` does not name
    shows up as a leaf without a setting; a key of `excluded` that is not in `mapping` is an error, so that a
    table that leaves the defaults leaves the exclusions too."""
    gone = [key for key in excluded if lookup(mapping, key, MISSING) is MISSING]
    if gone:
        raise LookupError(f"excluded, but not in the defaults: {', '.join(gone)}")
    return dict(_leaves(mapping, excluded, ""))


def _leaves(mapping: Mapping[str, Any], excluded: Collection[str], where: str) -> Iterator[tuple[str, Any]]:
    for key, value in mapping.items():
        name = f"{where}{key}"
        if name in excluded:
            continue
        if isinstance(value, Mapping):
            yield from _leaves(value, excluded, f"{name}.")
        else:
            yield name, value


def nested(key: str, value: Any) -> dict[str, Any]:
    """The override that sets the dotted `key` to `value`: {"a": {"b": value}} for "a.b"."""
    head, _, rest = key.partition(".")
    return {head: nested(rest, value) if rest else value}
