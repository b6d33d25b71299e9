"""The announcements on the big screen: the director posts one and takes it off. What the
screens read is core.clock.announcements."""

from __future__ import annotations

from blueprints.common import unstorable
from core.words import MAX_ROW_NUMBER, staff_actor
from core.writes import write
from models import Announcement, Tournament, User, db, record

from .actions import UNSTORABLE, ClockRefused


@write
def post_announcement(tournament: Tournament, text: str, user: User,
                      role: str | None = None) -> Announcement:
    text = " ".join(text.split())
    if not text:
        raise ClockRefused("Write the announcement first.")
    if unstorable(text):
        raise ClockRefused(UNSTORABLE.format(what="The announcement"))
    item = Announcement(tournament_id=tournament.id, text=text[:280], created_by_id=user.id)
    db.session.add(item)
    db.session.flush()
    record("announcement.post", tournament_id=tournament.id, subject=f"announcement:{item.id}",
           after={"text": item.text}, actor=staff_actor(user, role), actor_user_id=user.id)
    return item


@write
def clear_announcement(tournament: Tournament, announcement_id: int, user: User,
                       role: str | None = None) -> None:
    if not 1 <= announcement_id <= MAX_ROW_NUMBER:
        raise LookupError(announcement_id)
    item = db.session.get(Announcement, announcement_id)
    if item is None or item.tournament_id != tournament.id:
        raise LookupError(announcement_id)
    if not item.active:
        return  # cleared already (a second tap): nothing to do twice
    item.active = False
    record("announcement.clear", tournament_id=tournament.id,
           subject=f"announcement:{item.id}", before={"text": item.text},
           actor=staff_actor(user, role), actor_user_id=user.id)
