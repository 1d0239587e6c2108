"""SimCord taught what Discord does for an app whose Activities are turned on (SimCord models neither).

- The app owns an Entry Point command (type 4, handler 2: Discord opens the Activity), which Discord
  created; a bulk overwrite of the global commands that leaves it out is refused with error 50240, as
  Discord refuses it (disnake#1570, pycord#3276, serenity#2993).
- An interaction may be answered with LAUNCH_ACTIVITY (callback type 12), which posts nothing.

Both are routes of SimCord's REST double wrapped for one test (`monkeypatch`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord
import simcord.backend.ops.commands
import simcord.http.routes.commands
from simcord.backend.errors import BackendError
from simcord.http import router

ENTRY_POINT = 4
LAUNCH_ACTIVITY = 12
DISCORD_LAUNCH_ACTIVITY = 2
ENTRY_POINT_LEFT_OUT = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please include the "
    "Entry Point command in your update request or delete it separately."
)

Handler = Callable[[router.RequestContext], Any]


class Activities:
    """The app's Activity as Discord keeps it: its Entry Point, and every interaction that launched it."""

    def __init__(self, env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
        self.env = env
        self.launched: list[int] = []  # the ids of the interactions answered with LAUNCH_ACTIVITY
        fields = (*simcord.backend.ops.commands.COMMAND_FIELDS, "handler")
        monkeypatch.setattr(simcord.backend.ops.commands, "COMMAND_FIELDS", fields)
        monkeypatch.setattr(simcord.http.routes.commands, "COMMAND_FIELDS", fields)
        _wrap(monkeypatch, "PUT", "/applications/{application_id}/commands", self._overwrite)
        _wrap(monkeypatch, "POST", "/interactions/{interaction_id}/{token}/callback", self._callback)

    def turn_on(self) -> dict[str, Any]:
        """What Discord does when the host turns Activities on: it creates the Entry Point, "launch"."""
        backend = self.env.backend
        command = {
            "id": str(backend.snowflake()),
            "application_id": str(backend.application_id),
            "name": "launch",
            "description": "",
            "type": ENTRY_POINT,
            "handler": DISCORD_LAUNCH_ACTIVITY,
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
        }
        backend.commands.setdefault(None, {})[("launch", ENTRY_POINT)] = command
        return command

    def entry_point(self) -> dict[str, Any] | None:
        commands = self.env.backend.commands.get(None, {}).values()
        return next((c for c in commands if c.get("type") == ENTRY_POINT), None)

    def _overwrite(self, handler: Handler, ctx: router.RequestContext) -> Any:
        sent = ctx.json or []
        if self.entry_point() is not None and not any(c.get("type") == ENTRY_POINT for c in sent):
            raise BackendError(400, 50240, ENTRY_POINT_LEFT_OUT)
        return handler(ctx)

    def _callback(self, handler: Handler, ctx: router.RequestContext) -> Any:
        if ctx.body().get("type") != LAUNCH_ACTIVITY:
            return handler(ctx)
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"] or record.responded:
            raise BackendError(404, 10062, "Unknown interaction")
        record.responded = True
        self.launched.append(record.id)
        return {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": f"i-{record.id}",
                "response_message_id": None,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            }
        }


def _wrap(
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    template: str,
    wrapper: Callable[[Handler, router.RequestContext], Any],
) -> None:
    segments = template.strip("/").split("/")
    routes = list(router._ROUTES[method])
    index = next(i for i, (route, _) in enumerate(routes) if route == segments)
    handler = routes[index][1]
    routes[index] = (segments, lambda ctx: wrapper(handler, ctx))
    monkeypatch.setitem(router._ROUTES, method, routes)
