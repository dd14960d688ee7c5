"""The GM's pages, one module a power, as campaign.gm has its services (see gm/dashboard.py)."""
