"""Round clock: tnt's "50 minutes ... runs continuously", paused only by the director."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.clock import (
    ENDED,
    NOT_STARTED,
    PAUSED,
    RUNNING,
    STATES,
    TIME_UP,
    WARNING_MINUTES,
    ClockError,
    RoundClock,
    stored_reading,
)

NOON = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
FIFTY_MINUTES = 50 * 60  # tnt: "Each round is 50 minutes in length"


def at(minutes=0, seconds=0):
    return NOON + timedelta(minutes=minutes, seconds=seconds)


def running():
    return RoundClock(FIFTY_MINUTES).start(at(0))


def test_constants():
    assert STATES == ("not_started", "running", "paused", "time_up", "ended")
    assert WARNING_MINUTES == (10, 5, 1, 0)
    assert issubclass(ClockError, ValueError)


def test_not_started_shows_the_full_round():
    clock = RoundClock(FIFTY_MINUTES)
    assert clock.state(at(5)) == NOT_STARTED
    assert clock.remaining(at(5)) == FIFTY_MINUTES
    assert clock.elapsed(at(5)) == 0
    assert clock.warning(at(5)) is None


def test_start_stores_the_instant_and_runs():
    clock = RoundClock(FIFTY_MINUTES).start(at(0))
    assert clock == RoundClock(FIFTY_MINUTES, started_at=at(0))
    assert clock.state(at(0)) == RUNNING
    assert clock.remaining(at(12, 30)) == FIFTY_MINUTES - 750
    assert clock.elapsed(at(12, 30)) == 750


def test_actions_return_new_values():
    clock = RoundClock(FIFTY_MINUTES)
    clock.start(at(0))
    assert clock.started_at is None
    with pytest.raises(AttributeError):
        clock.started_at = at(0)  # type: ignore[misc]


def test_pause_freezes_remaining():
    clock = running().pause(at(10))
    assert clock.paused_at == at(10)
    assert clock.state(at(15)) == PAUSED
    assert clock.remaining(at(10)) == clock.remaining(at(45)) == 40 * 60
    assert clock.elapsed(at(45)) == 10 * 60


def test_resume_does_not_count_the_pause():
    clock = running().pause(at(10)).resume(at(13))
    assert clock.paused_at is None
    assert clock.paused_seconds == 180
    assert clock.state(at(13)) == RUNNING
    assert clock.remaining(at(13)) == 40 * 60
    assert clock.remaining(at(20)) == 33 * 60


def test_pauses_add_up():
    clock = running().pause(at(10)).resume(at(13)).pause(at(20)).resume(at(22, 30))
    assert clock.paused_seconds == 330
    assert clock.elapsed(at(30)) == 30 * 60 - 330
    assert clock.remaining(at(30)) == 20 * 60 + 330


def test_time_up_at_the_duration_and_never_negative():
    clock = running()
    assert clock.state(at(49, 59)) == RUNNING
    assert clock.remaining(at(49, 59)) == 1
    assert clock.state(at(50)) == TIME_UP
    assert clock.remaining(at(50)) == 0
    assert clock.remaining(at(95)) == 0
    assert clock.elapsed(at(95)) == 95 * 60  # keeps counting the overrun


def test_time_up_after_a_pause_is_later_by_the_pause():
    clock = running().pause(at(10)).resume(at(15))
    assert clock.state(at(54, 59)) == RUNNING
    assert clock.state(at(55)) == TIME_UP


@pytest.mark.parametrize("left_seconds, level", [
    (FIFTY_MINUTES, None),
    (601, None),
    (600, 10),   # the level is reached at its exact minute
    (301, 10),
    (300, 5),
    (61, 5),
    (60, 1),
    (1, 1),
    (0, 0),      # time is up
])
def test_warning_levels(left_seconds, level):
    clock = running()
    assert clock.warning(at(seconds=FIFTY_MINUTES - left_seconds)) == level


def test_warning_while_paused_and_after_end():
    clock = running().pause(at(46))
    assert clock.warning(at(80)) == 5
    assert clock.end(at(80)).warning(at(80)) is None


def test_adjust_while_running_adds_and_removes_time():
    clock = running().adjust(5 * 60, at(10))
    assert clock.duration_seconds == 55 * 60
    assert clock.remaining(at(10)) == 45 * 60
    clock = clock.adjust(-10 * 60, at(20))
    assert clock.duration_seconds == 45 * 60
    assert clock.remaining(at(20)) == 25 * 60


def test_adjust_removing_more_than_remains_leaves_zero():
    clock = running().adjust(-60 * 60, at(10))
    assert clock.remaining(at(10)) == 0
    assert clock.duration_seconds == 10 * 60
    assert clock.state(at(10)) == TIME_UP


def test_adjust_while_paused():
    clock = running().pause(at(10)).adjust(-5 * 60, at(12))
    assert clock.state(at(12)) == PAUSED
    assert clock.remaining(at(30)) == 35 * 60
    clock = clock.adjust(2 * 60, at(13))
    assert clock.remaining(at(30)) == 37 * 60
    assert clock.resume(at(20)).remaining(at(21)) == 36 * 60


def test_paused_with_no_time_left_is_paused_until_resumed():
    clock = running().pause(at(10)).adjust(-45 * 60, at(11))
    assert clock.remaining(at(11)) == 0
    assert clock.state(at(11)) == PAUSED
    assert clock.warning(at(11)) == 0
    assert clock.resume(at(12)).state(at(12)) == TIME_UP


def test_adjust_after_time_up_gives_that_much_time():
    clock = running()
    assert clock.state(at(58)) == TIME_UP
    clock = clock.adjust(5 * 60, at(58))
    assert clock.state(at(58)) == RUNNING
    assert clock.remaining(at(58)) == 5 * 60
    assert clock.state(at(63)) == TIME_UP


def test_adjust_before_start_changes_the_length():
    clock = RoundClock(FIFTY_MINUTES).adjust(-5 * 60, at(0))
    assert clock == RoundClock(45 * 60)
    assert RoundClock(60).adjust(-120, at(0)) == RoundClock(0)


def test_end_while_running_freezes_everything():
    clock = running().end(at(42))
    assert clock.ended_at == at(42)
    assert clock.state(at(42)) == clock.state(at(99)) == ENDED
    assert clock.remaining(at(99)) == 8 * 60
    assert clock.elapsed(at(99)) == 42 * 60


def test_end_while_paused_counts_the_pause_as_pause():
    clock = running().pause(at(10)).end(at(30))
    assert clock.paused_at is None
    assert clock.ended_at == at(30)
    assert clock.paused_seconds == 20 * 60
    assert clock.elapsed(at(99)) == 10 * 60


def test_end_after_time_up():
    clock = running().end(at(55))
    assert clock.state(at(55)) == ENDED
    assert clock.remaining(at(55)) == 0


@pytest.mark.parametrize("clock, action, message", [
    (RoundClock(FIFTY_MINUTES), "pause", "cannot pause: the round has not started"),
    (RoundClock(FIFTY_MINUTES), "resume", "cannot resume: the round has not started"),
    (RoundClock(FIFTY_MINUTES), "end", "cannot end: the round has not started"),
    (running(), "start", "cannot start: the clock is running"),
    (running(), "resume", "cannot resume: the clock is running"),
    (running().pause(at(1)), "start", "cannot start: the clock is paused"),
    (running().pause(at(1)), "pause", "cannot pause: the clock is paused"),
    (running(), "pause@60", "cannot pause: time is up"),
    (running(), "resume@60", "cannot resume: time is up"),
    (running(), "start@60", "cannot start: time is up"),
    (running().end(at(2)), "start", "cannot start: the round has ended"),
    (running().end(at(2)), "pause", "cannot pause: the round has ended"),
    (running().end(at(2)), "resume", "cannot resume: the round has ended"),
    (running().end(at(2)), "end", "cannot end: the round has ended"),
    (running().end(at(2)), "adjust", "cannot change: the round has ended"),
])
def test_refusals(clock, action, message):
    name, _, minute = action.partition("@")
    now = at(int(minute or 3))
    act = getattr(clock, name)
    with pytest.raises(ClockError, match=message):
        act(60, now) if name == "adjust" else act(now)


@pytest.mark.parametrize("seconds", [1.5, "60", True, None])
def test_adjust_refuses_what_is_not_whole_seconds(seconds):
    with pytest.raises(ClockError, match="whole number of seconds"):
        running().adjust(seconds, at(1))


def test_naive_now_refused():
    with pytest.raises(ClockError, match="time zone"):
        running().remaining(datetime(2025, 3, 1, 12, 5))
    with pytest.raises(ClockError, match="time zone"):
        RoundClock(FIFTY_MINUTES).start(datetime(2025, 3, 1, 12, 5))


def test_time_zones_mix_freely():
    new_york = timezone(timedelta(hours=-5))
    clock = running()
    assert clock.remaining(datetime(2025, 3, 1, 7, 10, tzinfo=new_york)) == 40 * 60


@pytest.mark.parametrize("fields, message", [
    ({"duration_seconds": -1}, "duration_seconds must be a whole number"),
    ({"duration_seconds": 60.0}, "duration_seconds must be a whole number"),
    ({"duration_seconds": 60, "paused_seconds": -5}, "paused_seconds must be a whole number"),
    ({"duration_seconds": 60, "started_at": datetime(2025, 3, 1)}, "time zone"),
    ({"duration_seconds": 60, "paused_at": NOON}, "has not started"),
    ({"duration_seconds": 60, "ended_at": NOON}, "has not started"),
    ({"duration_seconds": 60, "started_at": NOON, "paused_at": NOON, "ended_at": NOON},
     "cannot also be paused"),
])
def test_inconsistent_stored_values_refused(fields, message):
    with pytest.raises(ClockError, match=message):
        RoundClock(**fields)


def test_actions_with_a_slightly_earlier_now_never_run_time_backwards():
    clock = running().pause(at(10))
    resumed = clock.resume(at(9, 58))  # another host, two seconds behind
    assert resumed.paused_seconds == 0
    assert resumed.remaining(at(10)) == 40 * 60
    assert RoundClock(60, started_at=at(1)).remaining(at(0)) == 60


def test_sub_second_instants_count_whole_seconds():
    clock = RoundClock(60).start(NOON + timedelta(microseconds=700_000))
    assert clock.remaining(NOON + timedelta(seconds=1, microseconds=600_000)) == 60
    assert clock.remaining(NOON + timedelta(seconds=1, microseconds=700_000)) == 59


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["start", "pause", "resume", "adjust", "end", "look"]),
        st.integers(0, 40 * 60),               # seconds until this action
        st.integers(-30 * 60, 30 * 60),        # seconds for adjust
    ),
    max_size=30,
)


def act(clock, action, seconds, now):
    """One of ACTIONS done to `clock` at `now`: (the clock after it, whether it was
    refused). "look" does nothing."""
    try:
        if action == "adjust":
            return clock.adjust(seconds, now), False
        if action != "look":
            return getattr(clock, action)(now), False
    except ClockError:
        return clock, True
    return clock, False


@settings(max_examples=300, deadline=None)
@given(duration=st.integers(0, 90 * 60), actions=ACTIONS)
def test_remaining_only_grows_through_adjust_and_stays_within_the_round(duration, actions):
    clock = RoundClock(duration)
    now = NOON
    shown = clock.remaining(now)
    for action, wait, seconds in actions:
        now += timedelta(seconds=wait)
        before = clock.remaining(now)
        assert before <= shown  # time passing never adds time
        clock, refused = act(clock, action, seconds, now)
        if refused:
            seconds = 0  # a refused action leaves the stored clock as it was
        left = clock.remaining(now)
        if action == "adjust":
            assert left == max(0, before + seconds)
        else:
            assert left == before  # start, pause, resume and end take no time away
        assert 0 <= left <= clock.duration_seconds
        assert clock.state(now) in STATES
        shown = left


@given(duration=st.integers(0, 90 * 60), actions=ACTIONS)
def test_the_polls_reading_is_the_state_and_time_left_at_every_instant(duration, actions):
    """The unchanged poll reads the state and the time left in one go (reading); it must
    say what state() and remaining() say through any run of the director's actions."""
    clock = RoundClock(duration)
    now = NOON
    for action, wait, seconds in actions:
        now += timedelta(seconds=wait)
        assert clock.reading(now) == (clock.state(now), clock.remaining(now))
        clock, _ = act(clock, action, seconds, now)
        assert clock.reading(now) == (clock.state(now), clock.remaining(now))


INSTANTS = st.one_of(st.none(), st.integers(0, 120 * 60).map(lambda s: at(seconds=s)))


@given(duration=st.one_of(st.none(), st.integers(-60, 90 * 60)), started=INSTANTS,
       paused=INSTANTS, paused_seconds=st.one_of(st.none(), st.integers(-60, 60 * 60)),
       ended=INSTANTS, now=st.integers(0, 150 * 60))
def test_a_stored_rows_reading_is_its_clocks_even_for_a_row_no_action_makes(
        duration, started, paused, paused_seconds, ended, now):
    """The unchanged poll reads the stored row without building its clock
    (stored_reading): it must say what RoundClock.stored says of any row, a damaged one
    included (paused before it started, ended and paused)."""
    row = dict(duration_seconds=duration, started_at=started, paused_at=paused,
               paused_seconds=paused_seconds, ended_at=ended)
    instant = at(seconds=now)
    assert stored_reading(**row, now=instant) == RoundClock.stored(**row).reading(instant)
