"""The capacity search's verdict over several trials of one table count (bench/capacity.py,
`python -m bench --capacity ... --trials N`)."""

from __future__ import annotations

from types import SimpleNamespace

from bench.capacity import Step, chart, count_holds, report


def trial(tables: int, p95: float, errors: int = 0, database_ok: bool = True) -> Step:
    return Step(tables, p95, errors, database_ok, server_cpu=10.0, generator_cpu=3.0,
                wall=60.0, examples={})


def test_a_count_holds_on_its_trials_median_p95():
    assert count_holds([trial(1000, 90), trial(1000, 600), trial(1000, 140)])
    assert not count_holds([trial(1000, 90), trial(1000, 600), trial(1000, 160)])
    assert count_holds([trial(1000, 149)]) and not count_holds([trial(1000, 150)])


def test_one_failed_request_or_lost_sheet_in_any_trial_fails_the_count():
    assert not count_holds([trial(750, 40), trial(750, 40, errors=1), trial(750, 40)])
    assert not count_holds([trial(750, 40), trial(750, 40, database_ok=False)])


def test_the_report_and_chart_give_each_trial_and_each_counts_verdict():
    steps = [trial(500, 60), trial(500, 200), trial(500, 70),
             trial(1000, 300), trial(1000, 90), trial(1000, 400)]
    args = SimpleNamespace(spread=600, slice=60, poll=10, tables=None)
    text = "\n".join(report(steps, args))
    assert text.count("\n| 500 |") == 3 and text.count("\n| 1000 |") == 3
    assert "- 500 tables: median p95 70 ms over 3 trials: holds" in text
    assert "- 1000 tables: median p95 300 ms over 3 trials: does not hold" in text
    assert "median of the trials): **500**" in text
    svg = chart(steps)
    assert svg.count("<circle") == 6 and svg.count('text-anchor="middle">500<') == 1
