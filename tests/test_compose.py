"""`compose.yaml`, the scaled-out deployment: every shard run exactly once, by settings the bot accepts."""

from __future__ import annotations

from pathlib import Path

import yaml

from bot.settings import Settings

COMPOSE = Path(__file__).parents[1] / "compose.yaml"


def test_the_shard_services_cover_every_shard_once_on_one_shared_database() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    bots = {
        name: service for name, service in services.items() if "SHARD_IDS" in service.get("environment", {})
    }
    settings = [
        Settings(
            _env_file=None,
            **{
                key.lower(): value.replace("${POSTGRES_PASSWORD:-farkle}", "farkle")
                for key, value in service["environment"].items()
            },
        )
        for service in bots.values()
    ]
    (count,) = {s.shard_count for s in settings}
    assert count is not None and sorted(shard for s in settings for shard in s.shard_ids or ()) == list(
        range(count)
    )
    assert len({s.database.setting for s in settings}) == 1 and settings[0].database.dialect == "postgresql"
    assert sum(s.owns_application_setup for s in settings) == 1, "one process syncs the commands"
    assert all(
        service["depends_on"]["postgres"]["condition"] == "service_healthy" for service in bots.values()
    )
