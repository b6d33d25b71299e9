import time

from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required, login_user, logout_user, user_logged_in
from sqlalchemy.exc import IntegrityError

from blueprints.common import same_site_path
from core.errors import Conflict, attach
from extensions import login_manager

from . import invitations, service
from .forms import AcceptForm, ChangePasswordForm, JoinForm, NewPasswordForm, SignInForm

bp = Blueprint("auth", __name__, url_prefix="/auth")

login_manager.login_view = "auth.sign_in"
login_manager.login_message = "Please sign in to see that page."
login_manager.user_loader(service.load_user)


def _safe_next(target: str | None) -> str:
    # Only same-site paths: never redirect a director to another site after sign-in.
    return same_site_path(target) or url_for("director.home")


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    """Sign in with email and password."""
    form = SignInForm()
    if form.validate_on_submit():
        try:
            user = service.authenticate(form.email.data, form.password.data,
                                        request.remote_addr or "")
        except service.TooManyAttempts as error:
            form.password.errors.append(error.message)
            return render_template("auth/sign_in.html", form=form), error.status
        if user is None:
            form.password.errors.append("That email and password do not match.")
            return render_template("auth/sign_in.html", form=form), 422
        session.clear()  # nothing from before sign-in carries over into the staff session
        login_user(user)
        return redirect(_safe_next(request.args.get("next")))
    status = 422 if form.errors else 200
    return render_template("auth/sign_in.html", form=form), status


@bp.post("/sign-out")
@login_required
def sign_out():
    """Sign out, here and on every other device signed in to this account: a session
    cookie copied before now opens nothing."""
    service.end_sessions(current_user._get_current_object())
    logout_user()
    session.clear()
    flash("You are signed out.")
    return redirect(url_for("player.home"))


def _private(response):
    # These pages carry a one-time secret in their URL or set a password.
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/invitation", methods=["GET", "POST"])
def invitation():
    """Open a staff invitation or password link: join the staff, or set a password."""
    secret = request.args.get("k")
    found = invitations.find(secret)
    if found is None:
        return _private((render_template("auth/invitation_gone.html"), 404))
    account = invitations.account_for(found)
    if found.purpose == "reset":
        form, template = NewPasswordForm(), "auth/invitation_password.html"
    elif account is None:
        form, template = JoinForm(), "auth/invitation_join.html"
    else:
        form, template = AcceptForm(), "auth/invitation_accept.html"
    signed_in_as_invited = account is not None and current_user.is_authenticated \
        and current_user.id == account.id
    status = 200
    if form.validate_on_submit():
        try:
            if found.purpose == "reset":
                invitations.set_password(found, form.password.data)
                done, target = "Your password is set. Sign in with it.", "auth.sign_in"
            elif account is None:
                user = invitations.accept_as_new(found, form.name.data, form.password.data)
                done, target = f"Welcome. You now work on {found.tournament.name}.", \
                    "director.home"
            elif signed_in_as_invited:
                invitations.accept_as(found, current_user)
                user = current_user
                done, target = f"You now work on {found.tournament.name}.", "director.home"
            else:
                return _private((render_template(template, invitation=found, form=form,
                                                 signed_in_as_invited=False), 403))
        except invitations.InvitationError as error:
            attach(form, error)
            status = error.status
        except IntegrityError:
            # The email got an account (or the link was used) between the check and now.
            form.form_errors.append("This invitation link has just been used.")
            status = Conflict.status
        else:
            if found.purpose == "join" and account is None:
                login_user(user)
            flash(done)
            return redirect(url_for(target))
    elif form.is_submitted():
        status = 422
    return _private((render_template(template, invitation=found, form=form,
                                     signed_in_as_invited=signed_in_as_invited), status))


@bp.route("/password", methods=["GET", "POST"])
@login_required
def change_password():
    """Change one's own password."""
    form = ChangePasswordForm()
    status = 200
    if form.validate_on_submit():
        if not current_user.check_password(form.current.data):
            form.current.errors.append("That is not your current password.")
            status = 422
        else:
            user = current_user._get_current_object()
            service.change_password(user, form.password.data)
            # Every session of the account ended, but this one just proved the password.
            login_user(user)
            flash("Your password is changed. Any other device signed in is now signed out.")
            return redirect(url_for("director.home"))
    elif form.is_submitted():
        status = 422
    return _private((render_template("auth/password.html", form=form), status))


@user_logged_in.connect
def _start_session_clock(sender, user, **extra):
    # Whatever signed them in (the form, an invitation, a password change), the idle
    # and daily limits below count from now.
    session["signed_in_at"] = session["seen_at"] = int(time.time())


@bp.before_app_request
def end_idle_sessions():
    """A staff session ends after SESSION_IDLE_SECONDS without a request (a phone left in
    a bag over lunch is fine; overnight is not) and SESSION_MAX_SECONDS after sign-in, a
    long tournament day. The times live in the signed session cookie; "seen" is
    refreshed at most once a minute so polling does not rewrite the cookie every time."""
    if "_user_id" not in session:
        return
    now = int(time.time())
    config = current_app.config
    signed_in_at, seen_at = session.get("signed_in_at", 0), session.get("seen_at", 0)
    if now - seen_at > config["SESSION_IDLE_SECONDS"] or \
            now - signed_in_at > config["SESSION_MAX_SECONDS"]:
        logout_user()
        session.clear()
        flash("You were signed out after a while without using MahjTable. Please sign in "
              "again.")
    elif now - seen_at >= 60:
        session["seen_at"] = now
