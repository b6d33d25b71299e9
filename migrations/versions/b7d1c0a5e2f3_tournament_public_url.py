"""tournament public address for QR codes and printed cards

Revision ID: b7d1c0a5e2f3
Revises: 5e55105fa11e
Create Date: 2026-12-01 03:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


revision = 'b7d1c0a5e2f3'
down_revision = '5e55105fa11e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('public_url', sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('public_url')
