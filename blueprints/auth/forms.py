from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, SubmitField
from wtforms.validators import DataRequired, Email, Length


class SignInForm(FlaskForm):
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
