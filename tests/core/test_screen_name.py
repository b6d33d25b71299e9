"""The big screen's names: whole when they fit, else a short form chosen on purpose."""

import pytest

from core.words import screen_name


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
