import time
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required, login_user, logout_user

from extensions import db, login_manager

from . import service
from .forms import SignInForm

bp = Blueprint("auth", __name__, url_prefix="/auth")

login_manager.login_view = "auth.sign_in"
login_manager.login_message = "Please sign in to see that page."
login_manager.user_loader(service.load_user)


def _safe_next(target: str | None) -> str:
    # Only same-site paths: never redirect a director to another site after sign-in.
    # Browsers read a backslash as "/": "/\\evil.example" would mean "//evil.example".
    if target:
        normalised = target.replace("\\", "/")
        parts = urlsplit(normalised)
        if normalised.startswith("/") and not normalised.startswith("//") \
                and not parts.scheme and not parts.netloc and not any(
                    ord(c) < 32 for c in normalised):
            return normalised
    return url_for("director.home")


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    """Sign in with email and password."""
    form = SignInForm()
    if form.validate_on_submit():
        try:
            user = service.authenticate(form.email.data, form.password.data,
                                        request.remote_addr or "")
        except service.TooManyAttempts:
            form.password.errors.append(
                "Too many wrong passwords from here. Please wait "
                f"{service.cooldown_words()} and try again, or ask the tournament director "
                "to reset your password."
            )
            return render_template("auth/sign_in.html", form=form), 429
        if user is None:
            form.password.errors.append("That email and password do not match.")
            return render_template("auth/sign_in.html", form=form), 422
        session.clear()  # nothing from before sign-in carries over into the staff session
        login_user(user)
        session["signed_in_at"] = session["seen_at"] = int(time.time())
        return redirect(_safe_next(request.args.get("next")))
    status = 422 if form.errors else 200
    return render_template("auth/sign_in.html", form=form), status


@bp.post("/sign-out")
@login_required
def sign_out():
    """Sign out, here and on every other device signed in to this account: a session
    cookie copied before now opens nothing."""
    current_user.end_sessions()
    db.session.commit()
    logout_user()
    session.clear()
    flash("You are signed out.")
    return redirect(url_for("player.home"))


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
