"""What `make play` takes from SimCord's internals (scripts/preview_bridge.py) is still there, and works.

A SimCord upgrade that renames or moves any of it fails here, before `make play` breaks for a newcomer.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import simcord
import simcord._clock
import simcord._runtime
import simcord.backend.ops.base
import simcord.interactions
from play import play_world
from preview_bridge import emoji_url
from simcord.backend.cdn import CDN_BASE
from simcord.preview import Preview
from simcord.preview._component_projection import _project_emoji
from simcord.preview._server import PreviewServer


def test_the_page_actions_go_through_the_method_the_gate_wraps() -> None:
    assert inspect.iscoroutinefunction(Preview._action)
    assert list(inspect.signature(Preview._action).parameters) == ["self", "context_id", "body"]
    assert "self.preview._action(context_id, body)" in inspect.getsource(PreviewServer._action)


def test_simcord_runs_wall_clock_wakeups_in_the_task_the_gate_waits_for() -> None:
    source = inspect.getsource(simcord.Env._schedule_timer)
    assert "task = self._real_advance_task = self._runtime.create_task(" in source
    assert "record.real_handle = real_call_at(" in source, "the fallback `timers_follow_the_driver` drops"
    assert "schedule_timer=self._schedule_timer" in inspect.getsource(simcord._runtime)
    assert "advancing = self._real_advance_task or self._advance_task" in inspect.getsource(
        simcord.Env._settle_internal
    )


def test_the_interaction_payload_builder_is_looked_up_when_a_member_acts() -> None:
    parameters = inspect.signature(simcord.interactions.base_payload).parameters
    assert {"backend", "type", "channel_id", "guild_id", "user_id", "data"} <= set(parameters)
    assert '"locale": "en-US"' in inspect.getsource(simcord.interactions.base_payload)


async def test_members_and_server_speak_the_chosen_language(tmp_path: Path) -> None:
    async with play_world(tmp_path / "farkle.sqlite3", language="de") as table:
        async with table.gate:
            answer = await table.you.slash(table.channel, "farkle new")
        lobby = table.channel.history()[-1]
        assert answer is not None
        drawn = " ".join(str(embed.to_dict()) for embed in lobby.embeds) + lobby.content
        drawn += " ".join(str(component.to_dict()) for component in lobby.components)
        assert "Computer" in drawn and ("Beitreten" in drawn or "Mitspielen" in drawn), drawn


def test_the_page_asks_for_an_emoji_image_where_the_bridge_serves_it() -> None:
    source = inspect.getsource(_project_emoji)
    assert 'url = f"{CDN_BASE}/emojis/{emoji_id}.{extension}"' in source
    assert emoji_url(42) == f"{CDN_BASE}/emojis/42.png"


def test_the_publications_the_bridge_remembers_go_through_one_method() -> None:
    """`remember_drawings` wraps `Preview._publish`, and the page's refusal reads `page.revision`."""
    assert list(inspect.signature(Preview._publish).parameters) == ["self", "page", "reason"]
    assert "page.revision += 1" in inspect.getsource(Preview._publish)
    assert "published_revision != page.revision" in inspect.getsource(Preview._action)


def test_the_bot_user_and_the_clock_the_bridge_sets_are_simcords() -> None:
    source = inspect.getsource(simcord.backend.ops.base.BackendBase.__init__)
    assert 'self.bot_user: User = self.make_user("TestBot", bot=True)' in source
    assert "self._epoch + timedelta(seconds=self.elapsed)" in inspect.getsource(simcord._clock.Clock.now)
