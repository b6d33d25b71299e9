"""The paper fallback's staff pages (/t/director/<tournament>/...): the front desk, where
a paper sheet is keyed in, whole, and submitted for the table; and the director's switch
that has a table (or every table) score a round on paper. No page here carries a table's
token: staff reach a table by its number."""

from __future__ import annotations

from flask import abort, flash, g, make_response, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import func, select

from blueprints.common import new_request_key, points_text, same_site_path, wants_partial
from core.access import DESK, MANAGE, staff_required
from core.errors import Conflict, Replay
from core.numbers import small_int
from core.rounds import round_row
from core.words import MAX_ROW_NUMBER, SEATS, SheetState
from models import Round, Scoresheet, Seating, Table, db
from tournament.errors import FieldError
from tournament.scoring import Game, InvalidGame, round_lines

from . import desk_writes
from .desk_forms import DeskSheetForm, PaperForm, field_name, game_rows, row_record, row_texts
from .pages import CONFLICT, bp, shown
from .sheet_reads import table_by_number
from .sheet_view import sheet_view
from .sheet_writes import KeyReused
from .staff_views import staff_sheet

DESK_SHEET = "/director/<int:tournament_id>/<int:table_no>/<int:round_no>/desk"
# What a desk row can say; a game entered otherwise at the table (a misnamed tile, Mah
# Jongg in error, a heavenly hand...) is kept as it is, and changed on the sheet's page.
_ROW_KEYS = {"outcome", "winner", "value", "self_picked", "jokerless", "discarder",
             "exposures", "dead", "penalties", "adjustments", "singles_and_pairs", "quint",
             "heavenly", "misnamed_discard", "joker_exchange"}


def _fits_a_row(record: dict) -> bool:
    if record.get("outcome") not in ("mahjong", "wall", "time"):
        return False
    if any(record.get(flag) for flag in ("singles_and_pairs", "quint", "heavenly",
                                         "misnamed_discard", "joker_exchange")):
        return False
    return set(record) <= _ROW_KEYS and all(
        p.get("kind") in ("blind_pass_peek", "misnamed_exposure")
        for p in record.get("penalties") or [])


def _round_no(tournament) -> int:
    """The round the desk works on unless asked: the latest that has started (its sheets
    come in as it ends, while the clock already shows the next), else round 1."""
    asked = small_int(request.args.get("r"), MAX_ROW_NUMBER)
    if asked:
        return asked
    started = db.session.scalar(select(func.max(Round.number)).where(
        Round.tournament_id == tournament.id, Round.started_at.is_not(None)))
    return started or 1


def _bar() -> dict:
    """A scorer's pages have no director's bar: its clock controls and calls are not
    theirs."""
    return {"shown_bar": None} if g.role == "scorer" else {}


# ---- the front desk's list of tables --------------------------------------------------


@bp.get("/director/<int:tournament_id>/desk")
@staff_required(DESK)
def desk(tournament_id):
    """The front desk: every table of a round, its sheet's state, and where to key it in."""
    tournament = g.tournament
    number = _round_no(tournament)
    rnd = round_row(tournament, number)
    if rnd is None:
        return render_template("table/desk_index.html", tournament=tournament,
                               round_no=number, rows=[], role=g.role, **_bar()), 200
    table_no = small_int(request.args.get("table"), MAX_ROW_NUMBER)
    if table_no:
        return redirect(url_for("table.desk_sheet", tournament_id=tournament.id,
                                table_no=table_no, round_no=number), code=303)
    rows = db.session.execute(
        select(Table.number, Scoresheet.state, Scoresheet.games_count, Scoresheet.on_paper)
        .join(Seating, Seating.table_id == Table.id)
        .outerjoin(Scoresheet, (Scoresheet.table_id == Table.id)
                   & (Scoresheet.round_id == rnd.id))
        .where(Seating.round_id == rnd.id).distinct().order_by(Table.number)).all()
    return render_template("table/desk_index.html", tournament=tournament, round_no=number,
                           rows=rows, role=g.role, rounds=tournament.rounds, **_bar())


@bp.post("/director/<int:tournament_id>/round/<int:round_no>/paper")
@staff_required(MANAGE)
def paper(tournament_id, round_no):
    """The director has a table (or every table) score this round on paper, or back on
    its phone."""
    tournament = g.tournament
    form = PaperForm()
    if not form.validate_on_submit():
        abort(400)
    rnd = round_row(tournament, round_no)
    if rnd is None:
        abort(404)
    on = request.form.get("on") == "1"
    which = request.form.get("table", "")
    # Read before the write: a redirect that fails after the commit invites a retry.
    back = same_site_path(request.form.get("back")) or url_for(
        "table.desk", tournament_id=tournament.id, r=round_no)
    if which == "all":
        tables = list(db.session.scalars(
            select(Table).join(Seating, Seating.table_id == Table.id)
            .where(Seating.round_id == rnd.id).distinct().order_by(Table.number)))
    else:
        table = table_by_number(tournament, small_int(which, MAX_ROW_NUMBER) or 0)
        if table is None:
            abort(404)
        tables = [table]
    for table in tables:
        desk_writes.set_on_paper(table, rnd, on, user=current_user, role=g.role)
    what = ("Every table" if which == "all" else f"Table {tables[0].number}")
    flash(f"{what} scores round {round_no} "
          + ("on paper." if on else "on the phone again."))
    return redirect(back, code=303)


# ---- one table's paper sheet ----------------------------------------------------------


class DeskSheet:
    """What the desk page shows for one table's round: a row per game (the form's boxes,
    the points as they will be stored, the refusal at its box) and the totals."""

    def __init__(self, view, form, errors=None):
        self.view, self.form, self.errors = view, form, dict(errors or {})
        self.kept = {row.number: row for row in view.games
                     if not _fits_a_row(row.record)}
        self.points: dict[int, dict[str, int]] = {}
        self.totals = dict.fromkeys(SEATS, 0)
        self.records: dict[int, dict] = {}

    def read(self) -> dict[int, dict]:
        """The records typed (kept games as they are), the points of those that hold
        together, refusals at their boxes. Raises nothing."""
        rules, view = self.view.rules, self.view
        seats = view.seats
        records: dict[int, dict] = {}
        for number, row in enumerate(self.form.rows, 1):
            if number in self.kept:
                records[number] = dict(self.kept[number].record)
                continue
            try:
                found = row_record(row, number, seats,
                                   rules.misnamed_exposure_penalty is not None)
            except FieldError as error:
                self.errors.setdefault(error.field, error.message)
                continue
            if found is not None:
                records[number] = found
        self.records = {n: records[n] for n in sorted(records)}
        self._score()
        return self.records

    def _score(self) -> None:
        """Each game's points as rescore will store them: the whole round under the rule
        set, the director's rulings on a game included."""
        rules, view = self.view.rules, self.view
        numbers = []
        for number in sorted(self.records):
            if numbers and number != numbers[-1] + 1:
                break
            if not numbers and number != 1:
                break
            numbers.append(number)
        games = []
        for number in numbers:
            record = dict(self.records[number])
            record["adjustments"] = view.adjustments_for(number)
            try:
                games.append(Game.from_dict(record, rules))
            except InvalidGame as error:
                self.errors.setdefault(desk_writes.desk_field(number, error.field),
                                       error.message)
                return
        if not games:
            return
        try:
            every = round_lines(rules, games)
        except InvalidGame as error:
            self.errors.setdefault(field_name(numbers[0], "winner"), error.message)
            return
        for number, lines in zip(numbers, every, strict=True):
            points = dict.fromkeys(SEATS, 0)
            for line in lines:
                points[line.seat] += line.points
            self.points[number] = points
            for seat in SEATS:
                self.totals[seat] += points[seat]

    def shown(self, number: int, seat: str) -> str:
        points = self.points.get(number)
        return "" if points is None else points_text(points[seat])

    def error(self, number: int, box: str) -> str:
        return self.errors.get(field_name(number, box), "")

    def row_error(self, number: int) -> tuple[str, str] | None:
        prefix = field_name(number, "")
        return next(((name, message) for name, message in self.errors.items()
                     if name.startswith(prefix)), None)


def _fresh_form(view) -> DeskSheetForm:
    form = DeskSheetForm(formdata=None)
    per_round = view.games_per_round
    form.rows = game_rows(per_round)
    for number, entry in enumerate(form.rows, 1):
        row = view.game(number)
        if row is not None:
            for name, value in row_texts(row.record).items():
                entry[name].data = value
    _stamp(form, view)
    return form


def _stamp(form, view, keep_key: bool = False) -> None:
    shown(form.version, view.version)
    shown(form.round_no, view.round.number)
    if not (keep_key and form.request_key.data):
        form.request_key.data = new_request_key()


def _posted_form(view) -> DeskSheetForm:
    form = DeskSheetForm()
    form.rows = game_rows(view.games_per_round, request.form)
    return form


def _page(view, form, *, status=200, errors=None, conflict=None, sheet=None):
    sheet = sheet or DeskSheet(view, form, errors)
    if sheet is not None and not sheet.records:
        sheet.read()
    ids = dict(tournament_id=g.tournament.id, table_no=g.table.number,
               round_no=g.round.number)
    return render_template(
        "table/desk.html", tournament=g.tournament, table=g.table, view=view, form=form,
        desk=sheet, conflict=conflict, role=g.role, may_amend=g.role in MANAGE,
        save_url=url_for("table.desk_sheet", **ids),
        preview_url=url_for("table.desk_preview", **ids),
        sheet_url=(url_for("table.director_sheet", **ids) if g.role != "scorer" else None),
        desk_url=url_for("table.desk", tournament_id=g.tournament.id, r=g.round.number),
        **_bar()), status


@bp.get(DESK_SHEET)
@staff_sheet(DESK)
def desk_sheet(tournament_id, table_no, round_no):
    """One table's paper sheet on one screen: every game, typed in, its points shown."""
    view = sheet_view(g.table, g.round)
    return _page(view, _fresh_form(view))


@bp.post(DESK_SHEET + "/preview")
@staff_sheet(DESK)
def desk_preview(tournament_id, table_no, round_no):
    """The points of what is typed so far, as they will be stored (nothing is saved)."""
    view = sheet_view(g.table, g.round)
    form = _posted_form(view)
    sheet = DeskSheet(view, form)
    sheet.read()
    return render_template("table/_desk_points.html", view=view, desk=sheet, oob=True)


@bp.post(DESK_SHEET)
@staff_sheet(DESK)
def desk_save(tournament_id, table_no, round_no):
    """Save the paper sheet's games (Check: only show their points), and with Submit,
    submit it for the table."""
    table, rnd = g.table, g.round
    view = sheet_view(table, rnd)
    form = _posted_form(view)
    if not form.validate_on_submit():
        abort(400)
    sheet = DeskSheet(view, form)
    records = sheet.read()
    action = request.form.get("action", "check")
    if action not in ("save", "submit") or sheet.errors:
        return _page(view, form, status=422 if sheet.errors else 200, sheet=sheet)
    try:
        desk_writes.enter_paper_sheet(
            table, rnd, records, user=current_user, role=g.role,
            initialled=bool(form.initialled.data), submit=action == "submit",
            may_amend=g.role in MANAGE, reason=form.reason.data or "",
            version=form.version.data or 0, key=form.request_key.data)
    except Replay:
        pass
    except Conflict:
        fresh = sheet_view(table, rnd)
        _stamp(form, fresh)
        return _page(fresh, form, status=409, conflict=CONFLICT)
    except KeyReused as error:
        # What was first sent is stored: the page shows the sheet as it is now, with the
        # typed rows kept and a key of their own (the used one would refuse them again).
        fresh = sheet_view(table, rnd)
        _stamp(form, fresh)
        return _page(fresh, form, status=error.status, errors={"sheet": error.message})
    except FieldError as error:
        return _page(view, form, status=getattr(error, "status", 422),
                     errors={error.field or "sheet": error.message})
    done = sheet_view(table, rnd)
    flash(f"Table {table.number}, round {rnd.number}: "
          + ("submitted from the paper sheet." if done.state != SheetState.OPEN
             and action == "submit" else "saved."))
    target = (url_for("table.desk", tournament_id=g.tournament.id, r=rnd.number)
              if action == "submit" else request.path)
    if wants_partial():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)

