"""when the director last ruled on a game: the table can no longer change it

Revision ID: f3b8d6a2c4e7
Revises: e5a9c3f1b7d2
Create Date: 2026-12-03 13:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'f3b8d6a2c4e7'
down_revision = 'e5a9c3f1b7d2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ruled_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('game_entry', schema=None) as batch_op:
        batch_op.drop_column('ruled_at')
