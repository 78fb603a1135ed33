"""AbortController / AbortSignal / AbortError: state, listeners, timeout and any."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from typing import Any

import pytest

from course_stream import AbortController, AbortError, AbortSignal
from tests.streams import GUARD_SECONDS


class UnraisableRecorder:
    """A `sys.unraisablehook` that keeps what it is given instead of warning."""

    def __init__(self) -> None:
        self.reports: list[Any] = []

    def __call__(self, unraisable: Any) -> None:
        self.reports.append(unraisable)


class HookThatFails:
    """A `sys.unraisablehook` that itself raises."""

    def __call__(self, unraisable: Any) -> None:
        raise RuntimeError("the hook is broken too")


class ListenerThatFails:
    """An abort listener that raises the error it was given."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __call__(self) -> None:
        raise self.error


@pytest.fixture
def unraisable(monkeypatch: pytest.MonkeyPatch) -> UnraisableRecorder:
    # pytest turns unraisable errors into warnings (errors here); record instead.
    recorder = UnraisableRecorder()
    monkeypatch.setattr(sys, "unraisablehook", recorder)
    return recorder


async def aborted(signal: AbortSignal) -> None:
    """Wait until ``signal`` aborts (guarded against hanging)."""
    woken = asyncio.get_running_loop().create_future()

    def wake() -> None:
        if not woken.done():
            woken.set_result(None)

    signal.add_listener(wake)
    if signal.aborted:
        wake()
    await asyncio.wait_for(woken, GUARD_SECONDS)


def test_a_fresh_signal_is_not_aborted_has_no_reason_and_does_not_throw() -> None:
    signal = AbortController().signal

    signal.throw_if_aborted()

    assert not signal.aborted
    assert signal.reason is None


def test_abort_without_a_reason_uses_an_abort_error_that_is_not_a_cancellation() -> None:
    controller = AbortController()
    controller.abort()
    reason = controller.signal.reason

    assert controller.signal.aborted
    assert isinstance(reason, AbortError)
    assert str(reason) == "The operation was aborted"
    assert isinstance(reason, Exception)
    assert not isinstance(reason, asyncio.CancelledError)
    assert controller.signal.reason is reason


def test_abort_keeps_the_given_reason_object_and_throw_if_aborted_raises_it() -> None:
    controller = AbortController()
    reason = ValueError("stop now")
    controller.abort(reason)

    with pytest.raises(ValueError, match="stop now") as raised:
        controller.signal.throw_if_aborted()

    assert raised.value is reason
    assert controller.signal.reason is reason


def test_abort_is_idempotent_and_the_first_reason_wins() -> None:
    controller = AbortController()
    first = ValueError("first")
    calls: list[str] = []
    controller.signal.add_listener(lambda: calls.append("called"))

    controller.abort(first)
    controller.abort(ValueError("second"))
    controller.abort()

    assert controller.signal.reason is first
    assert calls == ["called"]


@pytest.mark.parametrize("bad_reason", ["stop", 1, ValueError], ids=repr)
def test_abort_rejects_a_reason_that_is_not_an_exception_instance(bad_reason: Any) -> None:
    controller = AbortController()

    with pytest.raises(TypeError, match="BaseException instance"):
        controller.abort(bad_reason)

    assert not controller.signal.aborted


def test_the_controller_returns_the_same_signal_every_time() -> None:
    controller = AbortController()

    assert controller.signal is controller.signal


def test_a_bare_signal_never_aborts() -> None:
    signal = AbortSignal()

    assert not signal.aborted
    assert signal.reason is None


def test_listeners_run_once_in_registration_order() -> None:
    controller = AbortController()
    calls: list[str] = []
    for name in ("first", "second", "third"):
        controller.signal.add_listener(lambda name=name: calls.append(name))  # type: ignore[misc]

    controller.abort()
    controller.abort()

    assert calls == ["first", "second", "third"]


def test_listeners_see_the_signal_already_aborted_with_its_reason() -> None:
    controller = AbortController()
    reason = ValueError("why")
    seen: list[tuple[bool, BaseException | None]] = []
    signal = controller.signal
    signal.add_listener(lambda: seen.append((signal.aborted, signal.reason)))

    controller.abort(reason)

    assert seen == [(True, reason)]


def test_a_listener_added_twice_runs_once() -> None:
    controller = AbortController()
    calls: list[str] = []

    def listener() -> None:
        calls.append("called")

    controller.signal.add_listener(listener)
    controller.signal.add_listener(listener)
    controller.abort()

    assert calls == ["called"]


def test_a_removed_listener_is_not_called_even_as_a_fresh_bound_method() -> None:
    class Counter:
        def __init__(self) -> None:
            self.count = 0

        def bump(self) -> None:
            self.count += 1

    controller = AbortController()
    counter = Counter()
    controller.signal.add_listener(counter.bump)
    controller.signal.remove_listener(counter.bump)
    controller.signal.remove_listener(counter.bump)

    controller.abort()

    assert counter.count == 0


def test_a_listener_added_after_the_abort_is_never_called() -> None:
    controller = AbortController()
    controller.abort()
    calls: list[str] = []

    controller.signal.add_listener(lambda: calls.append("late"))
    controller.abort()

    assert calls == []


def test_a_listener_removed_by_an_earlier_listener_during_the_abort_is_not_called() -> None:
    controller = AbortController()
    signal = controller.signal
    calls: list[str] = []

    def later() -> None:
        calls.append("later")

    def earlier() -> None:
        calls.append("earlier")
        signal.remove_listener(later)

    signal.add_listener(earlier)
    signal.add_listener(later)
    controller.abort()

    assert calls == ["earlier"]


def test_a_listener_added_during_the_abort_is_not_called() -> None:
    controller = AbortController()
    signal = controller.signal
    calls: list[str] = []
    signal.add_listener(lambda: signal.add_listener(lambda: calls.append("added late")))

    controller.abort()

    assert calls == []


def test_add_listener_rejects_what_is_not_callable() -> None:
    with pytest.raises(TypeError, match="callable"):
        AbortController().signal.add_listener("not callable")  # type: ignore[arg-type]


def test_a_failing_listener_goes_to_the_unraisable_hook_and_does_not_stop_the_others(
    unraisable: UnraisableRecorder,
) -> None:
    controller = AbortController()
    calls: list[str] = []
    failure = RuntimeError("listener broke")
    cancelled = asyncio.CancelledError()
    first_bad = ListenerThatFails(failure)
    second_bad = ListenerThatFails(cancelled)
    controller.signal.add_listener(first_bad)
    controller.signal.add_listener(lambda: calls.append("after the first"))
    controller.signal.add_listener(second_bad)
    controller.signal.add_listener(lambda: calls.append("after the second"))

    controller.abort()

    assert calls == ["after the first", "after the second"]
    assert [report.exc_value for report in unraisable.reports] == [failure, cancelled]
    assert [report.object for report in unraisable.reports] == [first_bad, second_bad]
    assert unraisable.reports[0].exc_type is RuntimeError
    assert unraisable.reports[0].exc_traceback is failure.__traceback__
    assert "abort listener" in unraisable.reports[0].err_msg


def test_a_failing_listener_is_printed_by_the_default_hook(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)
    controller = AbortController()
    controller.signal.add_listener(ListenerThatFails(RuntimeError("listener broke")))

    controller.abort()

    err = capsys.readouterr().err
    assert "Exception ignored in abort listener" in err
    assert "RuntimeError: listener broke" in err


def test_a_failing_unraisable_hook_does_not_propagate_out_of_abort(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "unraisablehook", HookThatFails())
    controller = AbortController()
    calls: list[str] = []
    controller.signal.add_listener(ListenerThatFails(RuntimeError("listener broke")))
    controller.signal.add_listener(lambda: calls.append("still called"))

    controller.abort()

    assert calls == ["still called"]


def test_aborted_signal_is_already_aborted_with_the_given_or_default_reason() -> None:
    reason = ValueError("given")

    given = AbortSignal.aborted_signal(reason)
    default = AbortSignal.aborted_signal()

    assert given.aborted
    assert given.reason is reason
    assert default.aborted
    assert isinstance(default.reason, AbortError)


def test_aborted_signal_rejects_a_reason_that_is_not_an_exception_instance() -> None:
    with pytest.raises(TypeError, match="BaseException instance"):
        AbortSignal.aborted_signal("stop")  # type: ignore[arg-type]


async def test_timeout_aborts_with_a_timeout_error() -> None:
    signal = AbortSignal.timeout(0)
    assert not signal.aborted

    await aborted(signal)

    assert isinstance(signal.reason, TimeoutError)
    assert "timed out" in str(signal.reason)


async def test_a_forgotten_timeout_signal_is_not_kept_alive_by_its_timer() -> None:
    signal = AbortSignal.timeout(3600)
    watcher = weakref.ref(signal)

    del signal
    gc.collect()

    assert watcher() is None


async def test_a_collected_timeout_signal_cancels_its_timer() -> None:
    loop = asyncio.get_running_loop()
    before = {id(handle) for handle in loop._scheduled}  # type: ignore[attr-defined]
    signal = AbortSignal.timeout(3600)
    timers = [h for h in loop._scheduled if id(h) not in before]  # type: ignore[attr-defined]
    assert len(timers) == 1
    assert not timers[0].cancelled()

    del signal
    gc.collect()

    assert timers[0].cancelled()


def test_timeout_needs_a_running_loop() -> None:
    with pytest.raises(RuntimeError, match="running event loop"):
        AbortSignal.timeout(1)


@pytest.mark.parametrize(
    ("seconds", "error"),
    [(-1, ValueError), (float("nan"), ValueError), (float("inf"), ValueError), (True, TypeError)],
    ids=repr,
)
async def test_timeout_rejects_seconds_that_are_not_a_finite_non_negative_number(
    seconds: Any, error: type[Exception]
) -> None:
    with pytest.raises(error, match="seconds"):
        AbortSignal.timeout(seconds)


async def test_timeout_rejects_a_string() -> None:
    with pytest.raises(TypeError, match="seconds"):
        AbortSignal.timeout("1")  # type: ignore[arg-type]


def test_any_aborts_with_the_reason_of_the_first_source_to_abort() -> None:
    first, second = AbortController(), AbortController()
    combined = AbortSignal.any([first.signal, second.signal])
    reason = ValueError("second went first")
    aborted_before = combined.aborted

    second.abort(reason)
    first.abort(ValueError("too late"))

    assert (aborted_before, combined.aborted) == (False, True)
    assert combined.reason is reason


def test_any_with_an_already_aborted_source_is_returned_aborted_with_its_reason() -> None:
    reason = ValueError("already")
    live = AbortController()
    combined = AbortSignal.any(
        [live.signal, AbortSignal.aborted_signal(reason), AbortSignal.aborted_signal()]
    )

    assert combined.aborted
    assert combined.reason is reason
    assert live.signal._listeners == {}


def test_any_runs_its_own_listeners_when_a_source_aborts() -> None:
    source = AbortController()
    combined = AbortSignal.any([source.signal])
    calls: list[str] = []
    combined.add_listener(lambda: calls.append("combined"))

    source.abort()

    assert calls == ["combined"]


def test_any_detaches_from_every_source_once_it_aborted() -> None:
    first, second = AbortController(), AbortController()
    AbortSignal.any([first.signal, second.signal])
    kept = AbortSignal.any([first.signal, second.signal])
    assert len(second.signal._listeners) >= 1

    first.abort()

    assert kept.aborted
    assert second.signal._listeners == {}


def test_a_collected_any_signal_leaves_no_listener_on_a_long_lived_source() -> None:
    source = AbortController()
    for _ in range(1_000):
        AbortSignal.any([source.signal])
    gc.collect()

    assert source.signal._listeners == {}


def test_any_of_nothing_never_aborts() -> None:
    assert not AbortSignal.any([]).aborted


def test_any_rejects_what_is_not_a_signal_and_names_its_index() -> None:
    with pytest.raises(TypeError, match=r"signals\[1\]"):
        AbortSignal.any([AbortSignal(), "not a signal"])  # type: ignore[list-item]


def test_any_accepts_a_one_shot_iterable() -> None:
    controller = AbortController()
    combined = AbortSignal.any(signal for signal in [controller.signal])

    controller.abort()

    assert combined.aborted
