"""Reading a scenario file within bounds: its size, its encoding, its nesting, its anchors, its keys.

A scenario is data a GM uploads, so a hostile or broken file must be refused with a clear reason, in time
and memory bounded by the file's size, before the checker (campaign/scenario.py) looks at a single entry:

- at most MAX_BYTES bytes (a 50 MB string is refused before it is read whole);
- UTF-8 (a byte-order mark is allowed); another encoding is named if it can be told (UTF-16, UTF-32);
- at most MAX_DEPTH levels of lists and mappings, at most MAX_NODES values in all (YAML_MAX_NODES in YAML,
  counted from the parser's events before anything is built: composing YAML costs ~600 bytes and ~10 µs a
  value, so that 5 MiB of YAML took 22 s and 1.1 GB to refuse; 5 MiB of JSON now reads in ~1 s);
- no YAML anchors and aliases (`&a`, `*a`): a scenario needs none, and they are how a few bytes become
  gigabytes ("billion laughs") or a structure that contains itself;
- no key twice in a mapping (YAML and JSON readers keep the last one silently);
- numbers that a Python int can read (at most 4,300 digits); NaN and infinity are the checker's to refuse.

YAML is a superset of JSON: a text that opens with { or [ is read by Python's JSON reader, far faster and
smaller than YAML's; one that is not JSON after all is read as YAML, with libyaml's reader when installed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 12
MAX_NODES = 2_000_000  # in JSON, read by Python's own reader: 5 MiB of JSON in ~1 s and ~200 MB
MAX_CONTAINERS = 500_000  # lists and mappings in JSON (a scenario of 18,000 regions, 5 MiB, has 220,000)
YAML_MAX_NODES = 250_000  # YAML's reader composes every value first: ~2.5 s and ~150 MB for as many
MISSING = object()
# The most entries of a list under each of the format's keys: a YAML file is refused as it is parsed, and
# every file before its entries are checked (campaign/scenario.py). The largest real map a file of 5 MiB can
# hold has ~18,000 regions; borders are a few per region; relations, one for each pair of nations at most.
POINTS_MAX = 1000  # the corners of a region's shape
NATIONS_MAX = 500
LISTS_MAX = {
    "nations": NATIONS_MAX,
    "regions": 20_000,
    "borders": 160_000,
    "relations": NATIONS_MAX * (NATIONS_MAX - 1) // 2,
    "shape": POINTS_MAX,
}

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


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when it holds a key twice."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ScenarioFileError(f"duplicate key {key!r}")
            seen.add(key)
    return data


def _json_load(text: str) -> Any:
    """The data of a JSON text, within the bounds above; MISSING when the text is not JSON (but YAML).

    The lists and mappings are counted in the text before it is read, as they cost the most memory (a
    mapping ~200 bytes; 5 MiB of `{},` took 330 MB): a bracket within a string counts too, which only a
    file of brackets could notice."""
    containers = text.count("{") + text.count("[")
    if containers > MAX_CONTAINERS:
        raise ScenarioFileError(
            f"more than {MAX_CONTAINERS:,} lists and mappings: not a scenario this server takes"
        )
    try:
        data = json.loads(text, object_pairs_hook=_json_pairs)
    except ScenarioFileError:
        raise
    except json.JSONDecodeError:
        return MISSING
    except RecursionError:
        raise ScenarioFileError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # Python's own limit on the digits of a number
        raise ScenarioFileError("a number too long to read (more than 4,300 digits)") from None
    # Depth first with one iterator a level, so that the walk holds no more than MAX_DEPTH of them.
    count, levels = 0, [iter((data,))]
    while levels:
        for value in levels[-1]:
            count += 1
            if count > MAX_NODES:
                raise ScenarioFileError(f"more than {MAX_NODES:,} values: not a scenario this server takes")
            if isinstance(value, dict | list):
                if len(levels) > MAX_DEPTH:
                    raise ScenarioFileError(f"nested deeper than {MAX_DEPTH} levels")
                levels.append(iter(value.values() if isinstance(value, dict) else value))
                break
        else:
            levels.pop()
    return data


def _events_check(text: str) -> None:
    """Refuse aliases, deep nesting, more than YAML_MAX_NODES values and a list longer than LISTS_MAX says,
    from the parser's events, before a node is composed: composing costs far more time and memory than
    parsing (a polygon of 100,000 points took 19 s and 260 MB to refuse), so a file is measured first."""
    loader = _Loader(text)
    anchors: set[str] = set()
    count = 0
    # One frame an open list or mapping: [its key in the mapping above, entries, the next node is a key].
    frames: list[list[Any]] = []
    try:
        while not loader.check_event(yaml.StreamEndEvent):
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent):
                if event.anchor not in anchors:
                    raise ScenarioFileError(f"not valid YAML or JSON: {_where(event)}: undefined alias")
                raise ScenarioFileError(
                    f"{_where(event)}: anchors and aliases (&name, *name) are not allowed in a scenario"
                )
            if isinstance(event, yaml.CollectionEndEvent):
                frames.pop()
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            count += 1
            if count > YAML_MAX_NODES:
                raise ScenarioFileError(
                    f"more than {YAML_MAX_NODES:,} values in YAML: save a scenario this large as JSON"
                )
            if event.anchor is not None:
                anchors.add(event.anchor)
            key = None
            if frames:
                frame = frames[-1]
                frame[1] += 1
                if frame[2] is None:  # an entry of a list
                    limit = LISTS_MAX.get(frame[0])
                    if limit is not None and frame[1] > limit:
                        raise ScenarioFileError(f"{_where(event)}: {frame[0]}: more than {limit:,} entries")
                elif frame[2]:  # a mapping's key: the key of the value that follows
                    frame[0] = event.value if isinstance(event, yaml.ScalarEvent) else None
                    frame[2] = False
                else:
                    key, frame[2] = frame[0], True
            if isinstance(event, yaml.CollectionStartEvent):
                if len(frames) + 1 > MAX_DEPTH:
                    raise ScenarioFileError(f"{_where(event)}: nested deeper than {MAX_DEPTH} levels")
                mapping = isinstance(event, yaml.MappingStartEvent)
                frames.append([None if mapping else key, 0, True if mapping else None])
    finally:
        loader.dispose()


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
    if text.lstrip()[:1] in ("{", "["):
        data = _json_load(text)
        if data is not MISSING:
            return data
    try:
        _events_check(text)
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
            return None if root is None else loader.construct_document(root)
        finally:
            loader.dispose()
    except RecursionError:
        raise ScenarioFileError(f"nested deeper than {MAX_DEPTH} levels") from None
    except yaml.YAMLError as error:
        if "maximum nesting depth" in str(error):  # libyaml's own limit, met before ours
            raise ScenarioFileError(f"{error.problem_mark}: nested deeper than {MAX_DEPTH} levels") from None
        raise ScenarioFileError(f"not valid YAML or JSON: {error}") from None


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
