"""A scenario file costs time and memory bounded by limits, not by its size (issue 24): a polygon of 100,000
points took 19 s and 260 MB to refuse, 5 MiB of YAML 22 s and 1.1 GB. Each is now refused before the costly
step; its cost is measured in a forked child, whose CPU time and peak memory are its own."""

from __future__ import annotations

import json
import os
import resource
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from campaign.scenario import PROBLEMS_MAX, SIZES_MAX, ScenarioError, scenario_read
from campaign.scenario_file import MAX_BYTES, MAX_CONTAINERS, YAML_MAX_NODES

HEAD = (
    'name: Two Valleys\nnations:\n  - {code: NOR, name: Nordmark, color: "#2e86c1"}\n'
    "regions:\n  - {code: N1, owner: NOR, shape: [%s]}\nborders: []\n"
)


def measured(path: Path) -> tuple[float, float, list[str]]:
    """Read `path` in a forked child: (its CPU seconds, the MB its peak memory grew by, its problems). A
    forked child's peak starts at what it shares, so the growth is the reading's own."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        report: dict[str, Any] = {}
        try:
            os.close(reader)
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            started = time.process_time()
            report["problems"] = refused(path)
            report["seconds"] = time.process_time() - started
            report["grown"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        except BaseException:
            report["error"] = traceback.format_exc()
        finally:
            with os.fdopen(writer, "w") as f:
                json.dump(report, f)
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as f:
        report = json.load(f)
    os.waitpid(pid, 0)
    assert "error" not in report, report["error"]
    return report["seconds"], report["grown"], report["problems"]


def refused(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as error:
        scenario_read(path)
    return [str(problem) for problem in error.value.problems]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    assert path.stat().st_size <= MAX_BYTES
    return path


def test_it_refuses_a_polygon_of_100_000_points_before_building_it(tmp_path) -> None:
    points = ", ".join(f"[{i % 1000}, {i // 1000}]" for i in range(100_000))
    path = write(tmp_path, "polygon.yaml", HEAD % points)

    seconds, grown, problems = measured(path)

    assert problems == [f"{path}: line 5, column 9926: shape: more than 1,000 entries"]
    assert seconds < 1 and grown < 20


def test_it_refuses_the_same_polygon_in_json_as_soon_as_it_is_read(tmp_path) -> None:
    region = {"code": "N1", "owner": "NOR", "shape": [[i % 1000, i // 1000] for i in range(100_000)]}
    scenario = {"name": "x", "nations": [{"code": "NOR"}], "regions": [region], "borders": []}
    path = write(tmp_path, "polygon.json", json.dumps(scenario))

    seconds, grown, problems = measured(path)

    assert any(problem.startswith("regions[0] (N1).shape: expected a polygon") for problem in problems)
    assert seconds < 1 and grown < 50


@pytest.mark.parametrize(
    ("name", "item"),
    [("values.yaml", "0,"), ("mappings.yaml", "{a: b},"), ("points.yaml", "[0, 0],")],
)
def test_it_refuses_5_mib_of_yaml_values_before_composing_them(tmp_path, name: str, item: str) -> None:
    count = (MAX_BYTES - 100) // len(item)
    path = write(tmp_path, name, f"name: x\ndescription: [{item * count}0]\n")

    seconds, grown, problems = measured(path)

    assert problems == [
        f"{path}: more than {YAML_MAX_NODES:,} values in YAML: save a scenario this large as JSON"
    ]
    assert seconds < 2 and grown < 30


@pytest.mark.parametrize(("name", "item"), [("mappings.json", "{},"), ("lists.json", "[],")])
def test_it_refuses_5_mib_of_json_mappings_before_reading_them(tmp_path, name: str, item: str) -> None:
    count = (MAX_BYTES - 100) // len(item)
    path = write(tmp_path, name, '{"name": "x", "description": [' + item * count + "0]}")

    seconds, grown, problems = measured(path)

    assert problems == [
        f"{path}: more than {MAX_CONTAINERS:,} lists and mappings: not a scenario this server takes"
    ]
    assert seconds < 1 and grown < 30


@pytest.mark.parametrize(
    "item",
    ['{"a":0.5},', "[0.5,0.5],", '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",', "0.5,"],
    ids=["mappings", "lists", "texts", "numbers"],
)
def test_5_mib_of_json_within_the_limits_reads_in_bounded_time_and_memory(tmp_path, item: str) -> None:
    count = min((MAX_BYTES - 100) // len(item), MAX_CONTAINERS - 10)
    path = write(tmp_path, "big.json", '{"name": "x", "description": [' + item * count + "0]}")

    seconds, grown, problems = measured(path)

    assert "nations: expected a non-empty list" in problems
    assert seconds < 5 and grown < 220


def _regions(count: int) -> list[dict[str, str]]:
    return [{"code": f"R{i}", "owner": "NOR"} for i in range(count)]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("regions", lambda limit: _regions(limit + 1)),
        ("borders", lambda limit: [["R0", "R1"]] * (limit + 1)),
        ("nations", lambda limit: [{"code": f"N{i}"} for i in range(limit + 1)]),
        ("units", lambda limit: {"R0": {"NOR": {f"T{i}": 1 for i in range(limit + 1)}}}),
    ],
)
def test_it_refuses_too_many_entries_of_a_kind_before_checking_one(
    tmp_path, name: str, value: Callable[[int], object]
) -> None:
    scenario = {"name": "x", "nations": [{"code": "NOR"}], "regions": _regions(2), "borders": [["R0", "R1"]]}
    scenario[name] = value(SIZES_MAX[name])
    path = write(tmp_path, "many.json", json.dumps(scenario))

    problems = refused(path)

    limit = SIZES_MAX[name]
    assert problems == [f"{name}: at most {limit:,} entries, got {limit + 1:,}"]


def test_it_lists_the_first_hundred_problems_and_counts_the_rest(tmp_path) -> None:
    regions = [{"code": f"R{i}", "owner": "NOR", "fort": -1} for i in range(PROBLEMS_MAX + 50)]
    scenario = {"name": "x", "nations": [{"code": "NOR"}], "regions": regions, "borders": [["R0", "R1"]]}
    path = write(tmp_path, "problems.json", json.dumps(scenario))

    problems = refused(path)

    assert len(problems) == PROBLEMS_MAX + 1
    assert problems[0].startswith("regions[0] (R0).fort: ")
    assert problems[-1] == f"and {len(regions) + len(regions) - 2 - PROBLEMS_MAX:,} more problems"


def test_a_json_file_says_which_key_it_holds_twice(tmp_path) -> None:
    path = write(tmp_path, "twice.json", '{"name": "x", "nations": [{"code": "A", "code": "B"}]}')

    assert refused(path) == [f"{path}: duplicate key 'code'"]
