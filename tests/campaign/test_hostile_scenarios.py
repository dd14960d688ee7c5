"""A folder of hostile scenario files (tests/campaign/hostile/): each is refused with a clear error naming
its field or line, in bounded CPU time (this process's own, so that a busy machine does not fail it), and
nothing is imported. `expected.json` gives the words each error must contain; every file of the folder
must be listed there."""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import pytest

from campaign.models import Campaign
from campaign.scenario import ScenarioError, scenario_read
from campaign.scenario_file import MAX_BYTES

HOSTILE = Path(__file__).parent / "hostile"
EXPECTED = json.loads((HOSTILE / "expected.json").read_text())


def test_every_hostile_file_has_its_expected_error() -> None:
    assert sorted(p.name for p in HOSTILE.iterdir() if p.name != "expected.json") == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_it_refuses_a_hostile_scenario_clearly_and_quickly(name: str) -> None:
    started = time.process_time()

    with pytest.raises(ScenarioError) as refused:
        scenario_read(HOSTILE / name)

    assert time.process_time() - started < 5
    problems = [str(problem) for problem in refused.value.problems]  # in English
    assert any(EXPECTED[name] in problem for problem in problems), problems
    assert "Traceback" not in str(refused.value)


def test_it_refuses_a_50_megabyte_string_without_reading_it_whole(tmp_path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w") as f:
        f.write("name: ")
        for _ in range(50):
            f.write("x" * 1024 * 1024)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.process_time()

    with pytest.raises(ScenarioError) as refused:
        scenario_read(path)

    assert time.process_time() - started < 2
    assert f"a scenario may have {MAX_BYTES:,}" in str(refused.value)
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 3 * MAX_BYTES // 1024


def test_the_demo_and_a_json_scenario_still_read(tmp_path) -> None:
    from campaign.generate import scenario_generate
    from tests.conftest import DEMO

    assert scenario_read(DEMO).name == "The Grenzwald Crisis"
    path = tmp_path / "big.json"
    path.write_text(json.dumps(scenario_generate(regions=2000, nations=50, seed=1)))
    started = time.process_time()
    assert len(scenario_read(path).regions) == 2000
    assert time.process_time() - started < 10


def test_a_refused_file_imports_nothing(db) -> None:
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError):
        call_command("import_scenario", str(HOSTILE / "billion_laughs.yaml"), "--campaign", "bomb")
    assert not Campaign.objects.exists()
