"""Issue 11: the streaming ask sends each trace step as the agent takes it."""

from __future__ import annotations

from kb.agent.answer import Tracer, TraceStep


def test_tracer_hands_each_step_to_the_callback_as_it_is_added() -> None:
    seen: list[TraceStep] = []
    tracer = Tracer(seen.append)
    tracer.add("link", entities=[])
    assert [s.step for s in seen] == ["link"]
    tracer.add("route", route="domain")
    assert [s.step for s in seen] == ["link", "route"] and seen == tracer.steps
