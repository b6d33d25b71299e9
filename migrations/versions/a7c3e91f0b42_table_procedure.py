"""every player's initials on each game, West's check of the sheet, an imported seating

Revision ID: a7c3e91f0b42
Revises: b7d1c0a5e2f3
Create Date: 2026-12-01 02:55:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a7c3e91f0b42'
down_revision = 'b7d1c0a5e2f3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('imported_seating', sa.JSON(), nullable=True))
    with op.batch_alter_table('game_entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat_initials', sa.JSON(), nullable=False,
                                      server_default='{}'))
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.add_column(sa.Column('west_checked_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('west_initials', sa.String(length=8), nullable=False,
                                      server_default=''))


def downgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.drop_column('west_initials')
        batch_op.drop_column('west_checked_at')
    with op.batch_alter_table('game_entry', schema=None) as batch_op:
        batch_op.drop_column('seat_initials')
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('imported_seating')
