"""The adjudication cases: the shared catalogue (when it is beside the project) and our own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rules.cases import case_check, case_load, case_read, case_run

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "rules" / "cases"
OWN = Path(__file__).with_name("cases")


def _cases(directory: Path, kind: str | None = None) -> list[Path]:
    paths = sorted(directory.glob("*.yaml")) if directory.is_dir() else []
    return [p for p in paths if kind is None or case_read(p).get("kind") == kind]


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared/rules/cases is not beside the project")
@pytest.mark.parametrize("path", _cases(SHARED), ids=lambda p: p.stem)
def test_it_passes_the_shared_case(path: Path) -> None:
    assert case_check(case_load(path)) is None


@pytest.mark.parametrize("path", _cases(OWN), ids=lambda p: p.stem)
def test_it_passes_our_own_case(path: Path) -> None:
    assert case_check(case_load(path)) is None


@pytest.mark.parametrize(
    "path",
    _cases(SHARED / "tabletop") + _cases(OWN / "tabletop"),
    ids=lambda p: p.stem,
)
def test_it_passes_the_tabletop_case(path: Path) -> None:
    assert case_run(path) is None


@pytest.mark.parametrize(
    "path",
    _cases(SHARED / "sodankaynti") + _cases(OWN / "sodankaynti"),
    ids=lambda p: f"{p.parent.parent.name}/{p.stem}",
)
def test_it_passes_the_sodankaynti_case(path: Path) -> None:
    assert case_run(path) is None


def _check_cases(*directories: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rules", "check-cases", *map(str, directories)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


WORKED_EXAMPLE = """
name: the worked example of §5.2
ruleset: {kta_die: null}
nations: [RED, BLUE]
regions:
  A: {terrain: open, owner: RED}
  B: {terrain: open, owner: BLUE}
borders: [[A, B]]
units:
  A: {RED: {JV: 7, PA: 3}}
  B: {BLUE: {JV: 4, PA: 2}}
orders:
  - {nation: RED, kind: attack, from: A, to: B, units: {JV: 7, PA: 3}}
gm_modifiers:
  - {region: B, nation: RED, value: -5}
  - {region: B, nation: BLUE, value: -3}
expect:
  battles:
    - {kind: normal, region: B, kta: {RED: 21, BLUE: 13}, difference: 8, winner: RED, row: [50, 30],
       losses: {RED: {JV: 3, PA: 1}, BLUE: {JV: 4, PA: 2}}, conquest: true}
  owners: {A: RED, B: RED}
  units: {B: {RED: {JV: 4, PA: 2}}}
"""


def test_it_reports_a_wrong_expectation_and_a_malformed_file_as_failed_cases(tmp_path: Path) -> None:
    (tmp_path / "a_good.yaml").write_text(WORKED_EXAMPLE)
    (tmp_path / "b_wrong.yaml").write_text(WORKED_EXAMPLE.replace("owners: {A: RED", "owners: {A: BLUE"))
    (tmp_path / "c_broken.yaml").write_text("name: [unclosed\n")
    (tmp_path / "d_not_a_case.yaml").write_text("just text\n")
    (tmp_path / "e_bad_ruleset.yaml").write_text(WORKED_EXAMPLE.replace("kta_die: null", "kta_die: d6"))

    run = _check_cases(tmp_path)

    lines = run.stdout.strip().splitlines()
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert lines[-1] == "1 passed, 4 failed"
    assert lines[0] == "b_wrong.yaml: owners.A: expected BLUE, got RED"
    assert lines[1].startswith("c_broken.yaml: cannot read the file")
    assert lines[2] == "d_not_a_case.yaml: the file must hold a mapping"
    assert "kta_die" in lines[3]


def test_it_exits_zero_when_every_case_passes(tmp_path: Path) -> None:
    (tmp_path / "worked.yaml").write_text(WORKED_EXAMPLE)

    run = _check_cases(tmp_path)

    assert run.returncode == 0, run.stdout
    assert run.stdout.strip().splitlines() == ["1 passed, 0 failed"]


def test_it_routes_by_kind_and_names_what_is_malformed(tmp_path: Path) -> None:
    (tmp_path / "a_round.yaml").write_text(
        "kind: close_combat\ninput: {sides: []}\nexpect: {errors: [sides_count]}\n"
    )
    (tmp_path / "b_wrong_round.yaml").write_text(
        "kind: close_combat\ninput: {sides: []}\nexpect: {errors: [dice_malformed]}\n"
    )
    (tmp_path / "c_turn.yaml").write_text("kind: turn\nexpect: {}\n")
    (tmp_path / "d_bad_expect.yaml").write_text("kind: close_combat\ninput: {}\nexpect: {totls: {}}\n")

    lines = _check_cases(tmp_path).stdout.strip().splitlines()

    assert lines == [
        "b_wrong_round.yaml: errors: expected ['dice_malformed'], got ['sides_count']",
        "c_turn.yaml: missing key 'nations'",
        "d_bad_expect.yaml: expect.totls: not a key of close_combat cases",
        "1 passed, 3 failed",
    ]
