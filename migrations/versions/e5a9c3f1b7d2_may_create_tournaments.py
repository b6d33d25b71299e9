"""who may create tournaments (and so import backups): a right the operator grants

Revision ID: e5a9c3f1b7d2
Revises: f1c4b8e2a6d3
Create Date: 2026-12-03 13:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'e5a9c3f1b7d2'
down_revision = 'f1c4b8e2a6d3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('may_create_tournaments', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    # Whoever directs a tournament already keeps the right; a co-director or a table
    # guide never had a reason to have it.
    op.execute(sa.text(
        'UPDATE "user" SET may_create_tournaments = :yes WHERE id IN '
        "(SELECT user_id FROM tournament_staff WHERE role = 'director')"
    ).bindparams(yes=True))


def downgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_column('may_create_tournaments')
