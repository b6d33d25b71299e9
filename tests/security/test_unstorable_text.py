"""Text nobody means to type is refused where it is typed, the same on SQLite and
PostgreSQL: a NUL byte (which PostgreSQL cannot store, so it answered 500 there), other
control characters, and the invisible format marks that reorder or hide text (U+202E
turns "Ann" into a name that reads backwards on every page and in every CSV, U+200B
makes two names that look the same)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from models import DirectorCall, Player, db
from tests.security.test_access import ARG_VALUES

# The names of the app's form fields that take text (and the keys its forms carry).
TEXT_FIELDS = ("name", "names", "note", "reason", "ruling", "text", "venue", "sessions",
               "request_key", "initials", "email", "new_substitute", "public_url",
               "pause-reason", "pause-choice", "announcement", "mini_override", "back",
               "adjust-reason", "end-reason", "code", "number", "key", "version")


def test_a_call_whose_request_key_holds_a_nul_is_refused(client, tournament):
    table = tournament.tables[0]
    response = client.post(f"/calls/t/{tournament.code}/1?k={table.token}",
                           data={"request_key": "abc\x00def", "reason": "", "note": ""})
    assert response.status_code == 422
    assert db.session.scalar(select(func.count()).select_from(DirectorCall)) == 0


@pytest.mark.parametrize("bad", ["x\x00y", "x\x01y", "Ann\u202eLee", "Ann\u200bLee"])
def test_no_post_anywhere_stores_or_breaks_on_unstorable_text(app, client, tournament, bad):
    app.config["PROPAGATE_EXCEPTIONS"] = False
    tokens = {t.number: t.token for t in tournament.tables}
    data = {name: bad for name in TEXT_FIELDS}
    posted = 0
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or rule.rule.endswith("/remove"):
            continue
        values = {**ARG_VALUES, "tournament_id": tournament.id, "code": tournament.code,
                  "player_id": tournament.players[0].id}
        url = rule.build({k: values.get(k, 1) for k in rule.arguments},
                         append_unknown=False)[1]
        if "<code>" in rule.rule:
            url += f"?k={tokens[1]}"
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, response.status_code)
        posted += 1
    assert posted >= 40
    db.session.expire_all()
    names = db.session.scalars(select(Player.name)).all()
    assert len(names) == 32 and not [n for n in names if bad in n]
    assert db.session.scalar(select(func.count()).select_from(DirectorCall)) == 0


@pytest.mark.parametrize("name", ["Ann\u202eeeL", "Ann\u200bLee", "Ann\u2066Lee", "Ann\x7fLee",
                                  "Ann\ufeffLee", "Ann\u2028Lee"])
def test_a_name_with_an_invisible_mark_is_refused_at_the_field(client, tournament, name):
    response = client.post(f"/director/t/{tournament.id}/players", data={"name": name})
    assert response.status_code == 422
    assert "cannot be shown or stored" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(Player)) == 32


@pytest.mark.parametrize("name", ["Zoë O'Brien", "José-María Núñez", "李小龍", "Mehr\u200cnaz"])
def test_real_names_still_save(client, tournament, name):
    response = client.post(f"/director/t/{tournament.id}/players", data={"name": name})
    assert response.status_code in (200, 302, 303)
    assert db.session.scalar(select(Player).where(Player.name == name)) is not None


@pytest.mark.parametrize("mark", ["\u202e", "\u200b", "\x00"])
def test_an_uploaded_players_file_with_an_invisible_mark_is_refused_at_its_line(
        client, tournament, mark):
    import io

    response = client.post(f"/director/t/{tournament.id}/players/import",
                           data={"file": (io.BytesIO(f"90,Ann{mark}Lee\n".encode()), "p.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert "cannot be shown" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(Player)) == 32


def test_a_backup_with_a_reversed_name_is_refused(director):
    from blueprints.results import backup
    from tests.conftest import make_tournament, make_user
    from tests.results.test_backup import wipe

    data = backup.export_tournament(make_tournament(director, players=8, code="BIDI26"))
    wipe()
    data["players"][0]["name"] = "Ann\u202eeeL"
    with pytest.raises(backup.BackupError, match="cannot be shown"):
        backup.import_tournament(data, make_user())
