def test_page_and_entry(east):
    r = east.get()
    assert r.status_code == 200, r.get_data(as_text=True)
    r = east.get("/game")
    assert r.status_code == 200, r.get_data(as_text=True)
    r = east.save(1, outcome="mahjong", winner="S", value="30", win_by="self", jokerless="y")
    assert r.status_code == 303, r.get_data(as_text=True)
    r = east.get()
    print(r.get_data(as_text=True))
