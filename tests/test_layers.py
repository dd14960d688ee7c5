"""The layers of .importlinter name every module of the apps, so a new one cannot slip past the contract."""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _layered() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    layers = config["importlinter:contract:layers"]["layers"]
    names = (name.strip() for line in layers.splitlines() for name in line.replace("|", ":").split(":"))
    return {name for name in names if name}


def _modules(package: str, layered: set[str]) -> set[str]:
    """The package's modules and subpackages; a subpackage not layered whole (rules.company, whose modules
    sit in several layers) by its own modules."""
    found = set()
    for path in (ROOT / package.replace(".", "/")).iterdir():
        name = f"{package}.{path.stem}"
        if path.suffix == ".py" and path.stem != "__init__":
            found.add(name)
        elif path.is_dir() and (path / "__init__.py").exists() and path.name != "migrations":
            found |= {name} if name in layered else _modules(name, layered)
        elif path.name == "migrations":
            found.add(name)
    return found


def test_every_module_of_the_apps_has_its_layer() -> None:
    layered = _layered()
    for app in ("campaign", "orders", "rules"):
        missing = _modules(app, layered) - layered
        assert not missing, f"name these in a layer of .importlinter: {sorted(missing)}"
    assert {"config", "frontend", "rules.engine"} <= layered
