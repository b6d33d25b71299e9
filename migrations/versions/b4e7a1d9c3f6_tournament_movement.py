"""each seat's move after a round, or a fresh draw: the tournament's movement

Revision ID: b4e7a1d9c3f6
Revises: b9e4d2a7c1f5
Create Date: 2026-12-06 06:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b4e7a1d9c3f6'
down_revision = 'b9e4d2a7c1f5'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('movement', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('movement')
