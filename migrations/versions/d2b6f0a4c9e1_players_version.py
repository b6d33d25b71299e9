"""a count of the changes to a tournament's players, for the live pages' fingerprints

Revision ID: d2b6f0a4c9e1
Revises: c4e8a2d19b57
Create Date: 2026-12-01 20:05:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'd2b6f0a4c9e1'
down_revision = 'c4e8a2d19b57'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('players_version', sa.Integer(), nullable=False,
                                      server_default='0'))


def downgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('players_version')
