"""East's answers so far for the game being entered, for the players' own phones

Revision ID: c8e2f4a6b0d3
Revises: a4c7e2b9d6f1
Create Date: 2026-12-08 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'c8e2f4a6b0d3'
down_revision = 'a4c7e2b9d6f1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.add_column(sa.Column('draft', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('draft_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.drop_column('draft_at')
        batch_op.drop_column('draft')
