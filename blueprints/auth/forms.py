from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, Email, EqualTo, Length

from blueprints.common import Form, chosen_password


class SignInForm(Form):
    email = EmailField(
        "Email",
        validators=[DataRequired("Please enter your email address."),
                    Email("That does not look like an email address.")],
        render_kw={"autocomplete": "username"},
    )
    password = PasswordField(
        "Password",
        validators=[DataRequired("Please enter your password."), Length(max=200)],
        render_kw={"autocomplete": "current-password"},
    )
    submit = SubmitField("Sign in")


def new_password_fields(label: str = "New password"):
    """The chosen password and its repeat, as every form that sets a password asks them."""
    password = PasswordField(label, validators=[
        DataRequired("Please choose a password."),
        Length(min=10, max=200, message="A password needs 10 to 200 characters."),
        chosen_password],
        render_kw={"autocomplete": "new-password"})
    repeat = PasswordField("Type it again", validators=[
        DataRequired("Please type the password again."),
        EqualTo("password", "The two passwords are not the same.")],
        render_kw={"autocomplete": "new-password"})
    return password, repeat


class JoinForm(Form):
    """A new staff member names themselves and chooses their own password."""

    name = StringField("Your name", validators=[
        DataRequired("Please enter your name."),
        Length(max=120, message="Keep the name under 120 characters.")],
        render_kw={"autocomplete": "name"})
    password, repeat = new_password_fields("Choose a password")


class NewPasswordForm(Form):
    password, repeat = new_password_fields()


class ChangePasswordForm(Form):
    current = PasswordField("Your current password", validators=[
        DataRequired("Please enter your current password."), Length(max=200)],
        render_kw={"autocomplete": "current-password"})
    password, repeat = new_password_fields()


class AcceptForm(Form):
    """A button that only needs the CSRF token."""
