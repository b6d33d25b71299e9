"""A table's links, built without url_for, read exactly as url_for gives them."""

from __future__ import annotations

from types import SimpleNamespace

from flask import url_for

from blueprints.table.pages import link


def test_table_links_match_url_for(app):
    endpoints = ("table.page", "table.entry", "table.review", "table.time_called",
                 "table.save_game", "table.preview_game", "table.submit")
    for root in ("", "/mahj"):
        for code, token in (("ABC123", "uqQ9O0YvBlvrhU4Q_KgyjQ"), ("A B/é?&", "x y&z=1"),
                            ("XYZ", None)):
            table = SimpleNamespace(tournament=SimpleNamespace(code=code), number=12,
                                    token=token)
            with app.test_request_context("/", base_url=f"http://mahj.test{root}/"):
                for endpoint in endpoints:
                    for round_no, values in ((None, {}), (2, {}), (3, {"g": 4}),
                                             (None, {"g": "a b"})):
                        expected = url_for(endpoint, code=code, number=12, k=token,
                                           r=round_no, **values)
                        assert expected.startswith(f"{root}/t/")
                        assert link(endpoint, table, round_no, **values) == expected
