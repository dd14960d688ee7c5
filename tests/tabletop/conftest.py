"""Tabletop (TABLETOP.md) beyond its engine: its pages, API, mails and workflow, as the cast of
`tabletop_cast` (tests/conftest.py) sees them."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def browsers(tabletop_cast):
    """browsers["karelian"]: a client of its own for each role of `tabletop_cast`, logged in as that user
    ("anonymous": as nobody)."""
    clients = {role: Client() for role in tabletop_cast}
    for role, user in tabletop_cast.items():
        if user is not None:
            clients[role].force_login(user)
    return clients
