"""The rule documents live in the repository beside the code that cites them, as copies of the canonical
../shared/rules made by `python -m rules docs-sync`; a copy that differs from its source fails here, where
../shared is present. The app serves each system's document as a page."""

from __future__ import annotations

import pytest

from rules.docs import SHARED, documents, documents_stale, documents_sync
from rules.engine.systems import system_get, system_names

SYSTEMS = [pytest.param(name, id=name) for name in system_names()]


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_system_keeps_its_rules_beside_its_code(name: str) -> None:
    system = system_get(name)

    assert system.rules is not None and system.rules.is_file()
    assert system.rules in documents()
    assert system.rules.read_text(encoding="utf-8").startswith("# ")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/rules is not beside the checkout")
def test_every_copy_is_its_source_in_shared_rules() -> None:
    assert documents_stale() == [], "run `python -m rules docs-sync` and commit the copies"


def test_sync_copies_what_differs_and_nothing_else(tmp_path, monkeypatch) -> None:
    source = tmp_path / "shared"
    source.mkdir()
    copies = tmp_path / "copies"
    copies.mkdir()
    kept = []
    for document in documents():
        (source / document.name).write_text(document.read_text(encoding="utf-8"), encoding="utf-8")
        kept.append(copies / document.name)
        (copies / document.name).write_text(document.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr("rules.docs.documents", lambda: kept)
    changed = kept[1]
    (source / changed.name).write_text("# Amended\n", encoding="utf-8")

    assert documents_stale(source) == [changed.name]
    assert documents_sync(source) == [changed.name]
    assert changed.read_text(encoding="utf-8") == "# Amended\n"
    assert documents_stale(source) == [] and documents_sync(source) == []


def test_sync_refuses_a_source_without_the_document(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="BATTLE_SYSTEMS.md"):
        documents_sync(tmp_path)


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_app_serves_each_systems_rules_to_anyone(client, name: str) -> None:
    system = system_get(name)

    page = client.get(f"/rules/{name}/")

    assert page.status_code == 200
    first_section = next(
        line[3:] for line in system.rules.read_text(encoding="utf-8").splitlines() if line.startswith("## ")
    )
    assert first_section.split("**")[0].strip() in page.content.decode()
    assert (b'id="how-to-play"' in page.content) == (name == "iron_fist")


def test_an_unknown_system_has_no_rules_page(client) -> None:
    assert client.get("/rules/chess/").status_code == 404
