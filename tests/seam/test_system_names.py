"""Nothing outside a battle system's own code and the registry names it by its key: a quoted system key
(`"tabletop"`) anywhere else fails here, so generic code asks the registries (rules.engine.systems,
rules.system_shells, frontend.systems) instead of comparing names.

A system's own code is its engine package (rules/engine/<name>/) and, until each system is one package
(the issue on whole plug-ins), the modules listed in OWNED. EXEMPT names what quotes a key for another
reason, each with why."""

from __future__ import annotations

import re
from pathlib import Path

from rules.engine.systems import system_names

ROOT = Path(__file__).resolve().parents[2]
APPS = ("campaign", "orders", "rules", "frontend", "config")
SUFFIXES = (".py", ".html", ".txt", ".yaml", ".js")

# Each system's modules outside its engine package.
OWNED = {
    "company_d20": ("rules/company/",),
    "sodankaynti": ("rules/sodankaynti/",),
    "tabletop": ("rules/tabletop/",),
    "iron_fist": (),
}
EXEMPT = {
    "rules/engine/systems.py": "the registry",
    "campaign/migrations/": "migrations are frozen as they were written",
    "config/celery.py": "the Celery app's name is the project's, not the system's",
    "rules/bench/": "the benchmarks time each system by its name",
    "frontend/management/commands/load_demo.py": "the demo loads a campaign of each system",
}


def _quoted(name: str) -> re.Pattern[str]:
    return re.compile(rf"[\"']{re.escape(name)}[\"']")


def _files() -> list[str]:
    return sorted(
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*")
        if path.suffix in SUFFIXES and "__pycache__" not in path.parts
    )


def _own(path: str, name: str) -> bool:
    places = (f"rules/engine/{name}/", *OWNED[name], *EXEMPT)
    return path.startswith(places)


def test_every_registered_system_has_its_owned_modules_listed() -> None:
    assert set(OWNED) == set(system_names())


def test_no_module_outside_a_system_names_it_by_its_key() -> None:
    files = _files()
    found = [
        f"{path}:{number}: {line.strip()}"
        for name in system_names()
        for path in files
        if not _own(path, name)
        for number, line in enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), start=1)
        if _quoted(name).search(line)
    ]

    assert found == [], "ask the registry instead:\n" + "\n".join(found)


def test_every_place_listed_still_exists() -> None:
    for place in (*(p for places in OWNED.values() for p in places), *EXEMPT):
        assert (ROOT / place).exists(), place
