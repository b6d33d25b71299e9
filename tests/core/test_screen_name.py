"""The big screen's names: whole when they fit, else a short form chosen on purpose."""

import pytest

from core.words import screen_name, short_name, short_names


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


# One table's names, as one person would write them on one sheet: a single form for the four.
@pytest.mark.parametrize("names, shown", [
    (["Ann Li", "Bea Chan", "Cy", "Dee Ho"], ["Ann Li", "Bea Chan", "Cy", "Dee Ho"]),
    (["Ruth Abrams", "Bea Chan", "Carol Chen", "Dana Ortiz"],
     ["Ruth A.", "Bea C.", "Carol C.", "Dana O."]),
    # "Dolores O." is too long: first names for all, not "Ruth A." beside "Dolores"
    (["Ruth Abrams", "Bea Goldberg", "Carol Chen", "Dolores Ortiz"],
     ["Ruth", "Bea", "Carol", "Dolores"]),
    # two Ruths: first names would not tell them apart
    (["Ruth Abrams", "ruth Goldberg", "Carol Chen", "Dolores Ortiz"],
     ["Ruth A.", "ruth G.", "Carol C.", "Dolores"]),
    (["Bartholomew Quackenbush III", "Bea Chan", "Cy", "Dee  Ho"],
     ["Bartholomew", "Bea", "Cy", "Dee"]),
])
def test_short_names_give_a_table_one_form(names, shown):
    assert short_names(names, 8) == shown
