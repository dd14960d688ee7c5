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


def _modules(app: str) -> set[str]:
    found = set()
    for path in (ROOT / app).iterdir():
        if path.suffix == ".py" and path.stem != "__init__":
            found.add(f"{app}.{path.stem}")
        elif path.is_dir() and (path / "__init__.py").exists():
            found.add(f"{app}.{path.name}")
    return found


def test_every_module_of_the_apps_has_its_layer() -> None:
    layered = _layered()
    for app in ("campaign", "orders", "rules"):
        missing = _modules(app) - layered
        assert not missing, f"name these in a layer of .importlinter: {sorted(missing)}"
    assert {"config", "frontend", "rules.engine"} <= layered
