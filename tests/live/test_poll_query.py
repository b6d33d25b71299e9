"""The unchanged poll reads its query string itself (blueprints.live.fast.query_args):
it must read every query as the full view's parse_qsl does, or a poll would be answered
204 on versions the page never sent."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from hypothesis import given
from hypothesis import strategies as st

from blueprints.live.fast import query_args

SENT = [
    "k=RqqOAyiojJiJDACpK8Hcfw&r=1&clock=1.3.running&panel=1-4-3-running-0&call=none&shown=2999",
    "k=a%2Bb%2Fc&panel=1-1-1-not_started-0&call=12.3",
    "k=&panel=&call=none", "k", "=x&k=1&k=2", "a+b=c+d&%ZZ=%E9&x=%e2%82%ac", "", "&&&",
]


def test_the_polls_own_reading_of_its_query_is_parse_qsl_s():
    for query in SENT:
        assert query_args(query) == dict(parse_qsl(query)), query


@given(st.lists(st.tuples(st.text(max_size=8), st.text(max_size=12)), max_size=6))
def test_any_encoded_query_reads_as_parse_qsl_reads_it(pairs):
    query = urlencode(pairs)
    assert query_args(query) == dict(parse_qsl(query))


@given(st.text(alphabet="ab=&%+2EF9c ", max_size=30))
def test_any_raw_query_reads_as_parse_qsl_reads_it(query):
    assert query_args(query) == dict(parse_qsl(query))
