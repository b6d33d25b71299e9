"""a scorer role for front-desk volunteers

Revision ID: e3a9c5d1f7b2
Revises: d2b6f0a4c9e1
Create Date: 2026-12-03 13:20:00

"""
from alembic import op


revision = 'e3a9c5d1f7b2'
down_revision = 'd2b6f0a4c9e1'
branch_labels = None
depends_on = None

OLD = "role IN ('director', 'co-director', 'table-guide')"
NEW = "role IN ('director', 'co-director', 'table-guide', 'scorer')"


def _role_check(condition):
    # SQLite cannot alter a constraint in place: batch mode copies each table.
    for table in ('tournament_staff', 'staff_invitation'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f(f'ck_{table}_role'), type_='check')
            batch_op.create_check_constraint(batch_op.f(f'ck_{table}_role'), condition)


def upgrade():
    _role_check(NEW)


def downgrade():
    op.execute("DELETE FROM tournament_staff WHERE role = 'scorer'")
    op.execute("DELETE FROM staff_invitation WHERE role = 'scorer'")
    _role_check(OLD)
