"""The big screen's names: whole when they fit, else a short form chosen on purpose."""

import pytest

from core.words import screen_name, short_name


@pytest.mark.parametrize("name, shown", [
    ("Brenda Lichtenstein", "Brenda L."),
    ("Ruth Abrams", "Ruth Abrams"),
    ("Player 12", "Player 12"),
    ("Margaret Featherstonehaugh-Worthington", "Margaret F."),
    ("Bartholomew Quackenbush III", "Bartholomew Q."),
    ("Maximilianawilhelmina", "Maximilianawilhelmina"),  # one word: never cut
    ("  Ruth   Abrams ", "Ruth Abrams"),
])
def test_screen_name(name, shown):
    assert screen_name(name) == shown


# A phone's narrow places (the dead-hand buttons, the live scores at 360 px): the seat is
# said beside it, so the first name alone is enough when even "Dorothy D." is too long.
@pytest.mark.parametrize("name, letters, shown", [
    ("Ruth Abrams", 11, "Ruth Abrams"),
    ("Ruth Abrams", 9, "Ruth A."),
    ("Dorothy Davenport", 9, "Dorothy"),
    ("Dorothy Davenport", 10, "Dorothy D."),
    ("Beatrice Goldberg-Whitfield", 8, "Beatrice"),
    ("Bea Goldberg", 8, "Bea G."),
    ("Maximilianawilhelmina", 8, "Maximilianawilhelmina"),  # one word: never cut
])
def test_short_name_never_leaves_half_a_surname(name, letters, shown):
    assert short_name(name, letters) == shown
