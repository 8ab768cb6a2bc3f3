"""Tests of the progress bar (mistakebound.interfaces.progress): quiet off a terminal, an ETA on one."""

from __future__ import annotations

import io
import re
import time

import pytest

from mistakebound.interfaces.progress import ENV_VARIABLE, Progress, format_duration, progress


class FakeTTY(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv(ENV_VARIABLE, raising=False)


def last_line(text: str) -> str:
    """What a terminal would show last before the bar erased itself."""
    frames = [f.strip() for f in text.split("\r") if f.strip()]
    return frames[-1] if frames else ""


def test_nothing_is_written_to_a_stream_that_is_not_a_terminal():
    stream = io.StringIO()
    clock = Clock()
    with Progress(10, desc="games", stream=stream, clock=clock) as bar:
        for _ in range(10):
            clock.now += 1
            bar.update()
    assert stream.getvalue() == ""
    assert bar.n == 10 and not bar.enabled


def test_a_terminal_gets_rate_and_eta_that_match_the_clock():
    stream = FakeTTY()
    clock = Clock()
    bar = Progress(10, desc="games", stream=stream, clock=clock, min_interval=0)
    with bar:
        for _ in range(4):
            clock.now += 2.0  # 0.5 steps per second
            bar.update()
        shown = last_line(stream.getvalue())
        # 4 of 10 done in 8 s: 6 left at 0.5/s is 12 s
        assert "ETA 0:12" in shown, shown
        assert "4/10" in shown and "40%" in shown
        assert shown.startswith("games")
        assert bar.eta == pytest.approx(12.0)
    text = stream.getvalue()
    assert text.endswith("\r")  # the line is erased when the bar closes
    erased = text.rsplit("\r", 2)[-2]
    assert erased.strip() == ""


def test_unknown_total_shows_count_rate_and_elapsed():
    stream = FakeTTY()
    clock = Clock()
    with Progress(None, desc="search", stream=stream, clock=clock, min_interval=0, unit="positions") as bar:
        clock.now += 4
        bar.update(1000)
        shown = last_line(stream.getvalue())
    assert "1,000" in shown and "250 positions/s" in shown and "elapsed 0:04" in shown
    assert "ETA" not in shown


def test_redraws_are_throttled_by_min_interval():
    stream = FakeTTY()
    clock = Clock()
    with Progress(1000, stream=stream, clock=clock, min_interval=1.0) as bar:
        for _ in range(1000):
            clock.now += 0.001  # one second in all
            bar.update()
    draws = stream.getvalue().count("\r")
    assert draws <= 6, draws  # enter, at most one timed redraw, close (draw + erase)


@pytest.mark.parametrize("flag, tty, shown", [("0", True, False), ("1", False, True), ("", True, True)])
def test_the_environment_variable_silences_or_forces_the_bar(monkeypatch, flag, tty, shown):
    monkeypatch.setenv(ENV_VARIABLE, flag)
    stream = FakeTTY() if tty else io.StringIO()
    with Progress(3, stream=stream, min_interval=0) as bar:
        bar.update(3)
    assert bool(stream.getvalue()) is shown


def test_progress_wraps_an_iterable_and_counts_every_item():
    stream = FakeTTY()
    seen = []
    for item in progress(range(7), desc="rows", stream=stream, min_interval=0):
        seen.append(item)
    assert seen == list(range(7))
    frames = [f for f in stream.getvalue().split("\r") if f.strip()]
    assert any("7/7" in f for f in frames)
    assert any("0/7" in f for f in frames)


def test_a_generator_without_len_gets_an_unknown_total():
    stream = FakeTTY()
    out = list(progress((i for i in range(3)), stream=stream, min_interval=0))
    assert out == [0, 1, 2]
    assert "elapsed" in stream.getvalue()


def test_the_ticker_redraws_while_nothing_reports():
    stream = FakeTTY()
    with Progress(None, desc="waiting", stream=stream, min_interval=0) as bar:
        bar.start_ticker(interval=0.01)
        time.sleep(0.15)
    frames = [f for f in stream.getvalue().split("\r") if f.strip()]
    assert len(frames) >= 3
    written = stream.getvalue()
    time.sleep(0.05)
    assert stream.getvalue() == written  # the ticker stopped with the bar


def test_a_broken_stream_disables_the_bar_instead_of_raising():
    class Broken(FakeTTY):
        def write(self, text):
            raise OSError("gone")

    with Progress(2, stream=Broken(), min_interval=0) as bar:
        bar.update(2)
    assert not bar.enabled


def test_bad_total_is_refused():
    with pytest.raises(ValueError, match="total"):
        Progress(-1)


def test_format_fits_the_width_and_the_bar_fills_with_progress():
    clock = Clock()
    bar = Progress(4, desc="x", stream=io.StringIO(), clock=clock)
    clock.now += 1
    bar.update(2)
    line = bar.format(60)
    assert len(line) <= 60
    inside = re.search(r"\[(.*)\]", line).group(1)
    assert inside.count("#") == pytest.approx(len(inside) / 2, abs=1)


@pytest.mark.parametrize("seconds, text", [(0, "0:00"), (59.6, "1:00"), (3600, "1:00:00"), (-1, "?")])
def test_format_duration(seconds, text):
    assert format_duration(seconds) == text


def test_a_bar_that_follows_a_count_reads_it_at_the_end_and_on_its_ticks():
    import io
    import time as _time

    counted = {"n": 0}
    stream = io.StringIO()
    bar = Progress(10, desc="play", stream=stream, enabled=True)
    bar.follow(lambda: counted["n"], interval=0.01)
    counted["n"] = 4
    deadline = _time.monotonic() + 5
    while bar.n != 4 and _time.monotonic() < deadline:  # the ticker thread reads it
        _time.sleep(0.01)
    assert bar.n == 4
    counted["n"] = 10
    bar.close()
    assert bar.n == 10 and "10/10" in stream.getvalue()


def test_a_quiet_bar_follows_nothing():
    bar = Progress(10, enabled=False)
    bar.follow(lambda: 7)
    bar.close()
    assert bar.n == 0
