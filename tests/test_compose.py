"""`compose.yaml`, the scaled-out deployment: every shard run exactly once, by settings the bot accepts,
from one image built once; and the README's steps that bring an old SQLite volume into it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from bot.core.environment import Settings

ROOT = Path(__file__).parents[1]
COMPOSE = ROOT / "compose.yaml"
PASSWORD = "${POSTGRES_PASSWORD}"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def bots() -> dict[str, Any]:
    return {
        name: service
        for name, service in compose()["services"].items()
        if "SHARD_IDS" in service.get("environment", {})
    }


def test_the_shard_services_cover_every_shard_once_on_one_shared_database() -> None:
    settings = [
        Settings(
            _env_file=None,
            **{
                key.lower(): value.replace(PASSWORD, "secret")
                for key, value in service["environment"].items()
            },
        )
        for service in bots().values()
    ]
    (count,) = {s.shard_count for s in settings}
    assert count is not None and sorted(shard for s in settings for shard in s.shard_ids or ()) == list(
        range(count)
    )
    assert len({s.database.setting for s in settings}) == 1 and settings[0].database.dialect == "postgresql"
    assert sum(s.owns_application_setup for s in settings) == 1, "one process syncs the commands"
    assert all(
        service["depends_on"]["postgres"]["condition"] == "service_healthy" for service in bots().values()
    )


def test_the_image_is_built_once_and_run_by_every_shard() -> None:
    services = bots().values()
    assert sum("build" in service for service in services) == 1
    assert len({service["image"] for service in services}) == 1


def test_the_postgres_password_comes_from_the_env_file_the_readme_starts_from() -> None:
    template = (ROOT / ".env.example").read_text()
    assert re.search(r"^POSTGRES_PASSWORD=", template, re.MULTILINE)
    password = compose()["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"]
    assert password.startswith("${POSTGRES_PASSWORD:?"), "no silent default password"


def test_the_readmes_copy_db_joins_the_compose_network_and_reaches_its_postgres() -> None:
    """No Docker engine here: what can be checked is that every name in the step matches compose.yaml
    and the first container of docs/OPERATIONS.md (where the README sends operators)."""
    readme = (ROOT / "docs" / "OPERATIONS.md").read_text()
    (step,) = re.findall(r"^ *(docker run --rm --network .*\\\n.*)$", readme, re.MULTILINE)
    words = shlex.split(step.replace("\\\n", " "))
    (old_volume,) = re.findall(r"^docker run -d --name farkle .* -v (\S+):/data ", readme, re.MULTILINE)
    assert words[words.index("--network") + 1] == compose()["networks"]["default"]["name"]
    assert words[words.index("-v") + 1] == f"{old_volume}:/data", "the old container's volume"
    image = words.index("-v") + 2
    assert words[image] == next(iter(bots().values()))["image"]
    assert words[image + 1 : image + 3] == ["farkle-bot", "copy-db"]
    target = urlsplit(words[words.index("--to") + 1])
    postgres = compose()["services"]["postgres"]["environment"]
    assert target.hostname in compose()["services"] and target.port == 5432
    assert (target.username, target.path.strip("/")) == (postgres["POSTGRES_USER"], postgres["POSTGRES_DB"])
