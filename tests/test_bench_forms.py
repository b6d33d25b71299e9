"""bench.table_flow.Forms: the load generator's reader of a page's forms, which posts what
a browser would (a wrong hidden field would turn the benchmark's saves into refusals)."""

from bench.table_flow import Forms

PAGE = """
<!-- <form action="/commented-out"><input type="hidden" name="x" value="1"></form> -->
<form method="post" action="/t/ABC/3/game?k=tok&amp;r=2" hx-vals='{"a": "b>c"}'>
  <input type="hidden" name="csrf_token" value="abc&quot;def">
  <input type=text name="initials" value="ZZ">
  <input name="plain" value="text is the default type">
  <input type="hidden" name="version" value="7" data-note="x > y">
</form>
<form action="/t/ABC/3/submit"><input type="hidden" name="key" value="k1"></form>
"""


def test_forms_read_actions_and_hidden_fields_as_a_browser_sends_them():
    forms = Forms(PAGE).forms
    assert forms == [
        {"action": "/t/ABC/3/game?k=tok&r=2",
         "fields": {"csrf_token": 'abc"def', "version": "7"}},
        {"action": "/t/ABC/3/submit", "fields": {"key": "k1"}},
    ]


def test_find_matches_the_action_and_fields():
    page = Forms(PAGE)
    assert page.find("/submit")["fields"] == {"key": "k1"}
    assert page.find("/game", version="7")["action"].endswith("r=2")
    assert page.find("/game", version="8") is None
