"""Flask extension objects, created unbound so blueprints can import them; app.py binds them."""

from flask_compress import Compress
from flask_htmx import HTMX
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect

from models import db

migrate = Migrate()
csrf = CSRFProtect()
login_manager = LoginManager()
htmx = HTMX()
compress = Compress()

__all__ = ["db", "migrate", "csrf", "login_manager", "htmx", "compress"]
