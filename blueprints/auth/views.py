from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required, login_user, logout_user

from extensions import login_manager

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
                "Too many wrong passwords for this email. Please wait 15 minutes, or ask "
                "the tournament director to reset your password."
            )
            return render_template("auth/sign_in.html", form=form), 429
        if user is None:
            form.password.errors.append("That email and password do not match.")
            return render_template("auth/sign_in.html", form=form), 422
        login_user(user)
        return redirect(_safe_next(request.args.get("next")))
    status = 422 if form.errors else 200
    return render_template("auth/sign_in.html", form=form), status


@bp.post("/sign-out")
@login_required
def sign_out():
    """Sign out."""
    logout_user()
    flash("You are signed out.")
    return redirect(url_for("player.home"))
