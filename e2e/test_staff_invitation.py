"""A director invites a table guide on a phone; the guide opens the one-time link on
their own phone, chooses their own password and lands on the tournament; then changes
it. axe finds no WCAG 2 A/AA violation on the invitation and password pages."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.conftest import assert_accessible, committed_tournament, screenshot, sign_in


def test_a_guide_joins_through_the_invitation_link(live_server, page, director_account,
                                                   new_phone):
    email, password = director_account
    tournament_id = committed_tournament(live_server, email, "Invite Open", 8)["id"]
    sign_in(page, live_server, email, password)
    page.goto(f"{live_server.url}/director/t/{tournament_id}/staff")
    guide_email = email.replace("director-", "guide-")
    page.get_by_label("Email").fill(guide_email)
    page.get_by_label("Role").select_option("table-guide")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_text("shown only once")).to_be_visible()
    expect(page.locator(".invitation-link svg")).to_be_visible()
    link = page.locator(".password code").inner_text()
    assert "k=" in link

    guide = new_phone()
    guide.goto(link)
    expect(guide.get_by_role("heading", name="Join the staff")).to_be_visible()
    screenshot(guide, "staff-invitation")
    assert_accessible(guide)
    guide.get_by_label("Your name").fill("Gail Guide")
    guide.get_by_label("Choose a password").fill("gail's own long password")
    guide.get_by_label("Type it again").fill("gail's own long password")
    guide.get_by_role("button", name="Join").click()
    expect(guide.get_by_text("You now work on Invite Open")).to_be_visible()
    expect(guide.get_by_role("link", name="Invite Open")).to_be_visible()

    guide.get_by_role("link", name="Change my password").click()
    assert_accessible(guide)
    guide.get_by_label("Your current password").fill("gail's own long password")
    guide.get_by_label("New password").fill("an even longer password")
    guide.get_by_label("Type it again").fill("an even longer password")
    guide.get_by_role("button", name="Change my password").click()
    expect(guide.get_by_text("Your password is changed.")).to_be_visible()

    # The link worked once.
    again = new_phone()
    again.goto(link)
    expect(again.get_by_role("heading", name="This link is no longer valid")).to_be_visible()
    page.goto(f"{live_server.url}/director/t/{tournament_id}/staff")
    expect(page.get_by_text("Gail Guide")).to_be_visible()
    expect(page.get_by_text("Invited, not yet joined")).to_have_count(0)
