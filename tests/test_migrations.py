"""`flask db upgrade` from empty gives exactly the models' schema."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from models import db


def test_migrations_match_the_models(app):
    # The session fixture built the schema with the real migrations (flask_migrate.upgrade).
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        diff = compare_metadata(context, db.metadata)
    assert diff == [], f"models and migrations differ: {diff}"
