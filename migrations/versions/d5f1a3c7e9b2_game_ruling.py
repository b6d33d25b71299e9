"""each game's own ruling: the director's reason for her last change to it, and her name

Revision ID: d5f1a3c7e9b2
Revises: c8e2f4a6b0d3
Create Date: 2026-12-07 01:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'd5f1a3c7e9b2'
down_revision = 'c8e2f4a6b0d3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ruling', sa.Text(), server_default='', nullable=False))
        batch_op.add_column(sa.Column('ruled_by', sa.String(length=120), server_default='',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('game_entry', schema=None) as batch_op:
        batch_op.drop_column('ruled_by')
        batch_op.drop_column('ruling')
