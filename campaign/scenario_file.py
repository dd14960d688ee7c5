"""Reading a scenario file within bounds: its size, its encoding, its nesting, its anchors, its keys.

A scenario is data a GM uploads, so a hostile or broken file must be refused with a clear reason, in time
and memory bounded by the file's size, before the checker (campaign/scenario.py) looks at a single entry:

- at most MAX_BYTES bytes (a 50 MB string is refused before it is read whole);
- UTF-8 (a byte-order mark is allowed); another encoding is named if it can be told (UTF-16, UTF-32);
- at most MAX_DEPTH levels of lists and mappings, at most MAX_NODES values in all;
- no YAML anchors and aliases (`&a`, `*a`): a scenario needs none, and they are how a few bytes become
  gigabytes ("billion laughs") or a structure that contains itself;
- no key twice in a mapping (YAML and JSON readers keep the last one silently);
- numbers that a Python int can read (at most 4,300 digits); NaN and infinity are the checker's to refuse.

YAML is a superset of JSON: one reader for both, libyaml's when it is installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 12
MAX_NODES = 2_000_000

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# The byte-order marks of encodings a scenario must not be in, longest first (UTF-32-LE starts as UTF-16-LE).
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


class ScenarioFileError(ValueError):
    """The file cannot be read as a scenario at all; the message says where and why."""


def _where(node: yaml.Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


class _Loader(_Base):
    """The safe loader with duplicate keys refused and numbers past Python's limits said plainly."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:
                raise ScenarioFileError(f"{_where(key_node)}: a key must be a plain value") from None
            if first is not None:
                raise ScenarioFileError(
                    f"{_where(key_node)}: duplicate key {key!r} (first at {_where(first)})"
                )
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            raise ScenarioFileError(
                f"{_where(node)}: a number too long to read ({len(node.value)} digits)"
            ) from None


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_mapping)


def _nodes_check(root: yaml.Node) -> None:
    """Refuse aliases, deep nesting and too many values, walking the composed nodes once, iteratively.

    An alias is the same node object met twice (libyaml and PyYAML compose `*a` as the node `&a` named).
    """
    seen: set[int] = set()
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise ScenarioFileError(
                f"{_where(node)}: anchors and aliases (&name, *name) are not allowed in a scenario"
            )
        seen.add(id(node))
        if len(seen) > MAX_NODES:
            raise ScenarioFileError(f"more than {MAX_NODES:,} values: not a scenario this server takes")
        if isinstance(node, yaml.ScalarNode):
            continue
        if depth > MAX_DEPTH:
            raise ScenarioFileError(f"{_where(node)}: nested deeper than {MAX_DEPTH} levels")
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for kv in node.value for n in kv]
        stack.extend((child, depth + 1) for child in children)


def scenario_text(data: bytes) -> str:
    """The file's text: UTF-8, with or without a byte-order mark; otherwise a ScenarioFileError."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise ScenarioFileError(f"the file is in {encoding}: save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ScenarioFileError(
            f"line {line}: byte {data[error.start]:#04x} is not UTF-8: save the file as UTF-8"
        ) from None


def scenario_load(data: bytes) -> Any:
    """The data of a scenario file's bytes, within the bounds above; a ScenarioFileError otherwise."""
    if len(data) > MAX_BYTES:
        raise ScenarioFileError(f"the file has {len(data):,} bytes; a scenario may have {MAX_BYTES:,}")
    text = scenario_text(data)
    if "\x00" in text:
        raise ScenarioFileError(f"line {text[: text.index(chr(0))].count(chr(10)) + 1}: a NUL character")
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _nodes_check(root)
        return loader.construct_document(root)
    except RecursionError:
        raise ScenarioFileError(f"nested deeper than {MAX_DEPTH} levels") from None
    except yaml.YAMLError as error:
        if "maximum nesting depth" in str(error):  # libyaml's own limit, met before ours
            raise ScenarioFileError(f"{error.problem_mark}: nested deeper than {MAX_DEPTH} levels") from None
        raise ScenarioFileError(f"not valid YAML or JSON: {error}") from None
    finally:
        loader.dispose()


def scenario_file_read(path: str | Path) -> Any:
    """The data of the scenario file at `path`; never reads more than MAX_BYTES + 1 bytes of it."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as error:
        raise ScenarioFileError(f"cannot read the file ({error.strerror})") from error
    if len(data) > MAX_BYTES:
        raise ScenarioFileError(
            f"the file has more than {MAX_BYTES:,} bytes; a scenario may have {MAX_BYTES:,}"
        )
    return scenario_load(data)
