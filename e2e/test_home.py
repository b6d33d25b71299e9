"""The public home page on a phone: it loads, lists the demo, and passes axe."""

from e2e.conftest import assert_accessible, screenshot


def test_home_page_at_phone_size_is_accessible(live_server, page):
    from datetime import date

    from blueprints.auth.service import create_user
    from blueprints.director.tournaments import create_tournament
    from models import db

    with live_server.app_context():
        user, _ = create_user("home-test@example.com", "Home Test")
        create_tournament(user, name="Home Page Classic", preset="tnt", rounds=3,
                          starts_on=date.today(), venue="Ballroom B")
        db.session.commit()
    page.goto(live_server.url + "/")
    assert page.get_by_role("heading", name="MahjTable", level=1).is_visible()
    assert page.get_by_role("link", name="Home Page Classic").is_visible()
    assert page.get_by_role("link", name="Sign in to run a tournament").is_visible()
    screenshot(page, "home")
    assert_accessible(page)


def test_sign_in_page_shows_errors_at_the_field(live_server, page):
    page.goto(live_server.url + "/auth/sign-in")
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Sign in").click()
    error = page.locator("#password-error")
    assert "do not match" in error.inner_text()
    assert_accessible(page)
