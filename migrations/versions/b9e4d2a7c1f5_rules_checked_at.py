"""when the director last saved the rules page: her to-do says the rules are checked

Revision ID: b9e4d2a7c1f5
Revises: f3b8d6a2c4e7
Create Date: 2026-12-06 06:50:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b9e4d2a7c1f5'
down_revision = 'f3b8d6a2c4e7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rules_checked_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('rules_checked_at')
