"""The company_d20 adjudication cases: the shared catalogue (when it is beside the project) and our own."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules.cases import case_run
from rules.engine.company_d20 import case_check
from rules.engine.company_d20.cases import CaseFileError

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "rules" / "cases" / "company_d20"
OWN = ROOT / "tests" / "rules" / "cases" / "company_d20"


def _cases(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.yaml")) if directory.is_dir() else []


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared/rules/cases is not beside the project")
@pytest.mark.parametrize("path", _cases(SHARED), ids=lambda p: p.stem)
def test_it_passes_the_shared_case(path: Path) -> None:
    assert case_run(path) is None


@pytest.mark.parametrize("path", _cases(OWN), ids=lambda p: p.stem)
def test_it_passes_our_own_case(path: Path) -> None:
    assert case_run(path) is None


def test_there_is_an_own_case_per_section_with_rules() -> None:
    sources = " ".join(yaml.safe_load(p.read_text())["source"] for p in _cases(OWN))
    for section in ("§3", "§4", "§5", "§6", "§7", "§8", "§9", "§10"):
        assert section in sources, section


CASE = {
    "system": "company_d20",
    "function": "test",
    "calls": [{"input": {"bonus": 2, "dc": 13}, "rolls": [11], "expect": {"total": 13, "success": True}}],
}


def _with_call(**changes: object) -> dict:
    return {**CASE, "calls": [{**CASE["calls"][0], **changes}]}


def test_it_reports_the_first_mismatch_as_one_line() -> None:
    assert case_check(CASE, Path("x.yaml")) is None
    wrong = _with_call(expect={"total": 14})
    assert case_check(wrong, Path("x.yaml")) == "calls[0].total: expected 14, got 13"


def test_a_die_left_over_or_missing_fails_the_case() -> None:
    assert case_check(_with_call(rolls=[11, 3]), Path("x.yaml")) == "calls[0]: 1 rolls left over: [3]"
    assert "ran out" in case_check(_with_call(rolls=[]), Path("x.yaml"))
    assert "outside 1..20" in case_check(_with_call(rolls=[21]), Path("x.yaml"))


def test_a_refusal_draws_no_die() -> None:
    refused = _with_call(input={"bonus": 2}, rolls=[11], expect={"error": "dc_required"})
    assert case_check(refused, Path("x.yaml")) == "calls[0]: 1 rolls left over: [11]"


def test_a_malformed_file_raises_and_says_where() -> None:
    with pytest.raises(CaseFileError, match="calls"):
        case_check({"system": "company_d20"}, Path("x.yaml"))
    with pytest.raises(CaseFileError, match=r"calls\[0\].ruleset: xp.tt_stpe"):
        case_check(_with_call(ruleset={"xp": {"tt_stpe": 5}}), Path("x.yaml"))
    with pytest.raises(CaseFileError, match="stream.seed"):
        case_check({**CASE, "stream": {"campaign_seed": 1, "turn": 1, "key": "A", "seed": 5}}, Path("x.yaml"))


def test_check_cases_routes_by_system_and_by_the_rulesets_battle_system(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(CASE))
    by_ruleset = {k: v for k, v in CASE.items() if k != "system"} | {
        "ruleset": {"battle_system": "company_d20"}
    }
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(by_ruleset))
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({**CASE, "system": "chess"}))

    assert case_run(tmp_path / "a.yaml") is None
    assert case_run(tmp_path / "b.yaml") is None
    assert case_run(tmp_path / "c.yaml") == "battle system chess is not available"
