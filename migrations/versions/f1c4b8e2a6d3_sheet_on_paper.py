"""a table may score a round on paper

Revision ID: f1c4b8e2a6d3
Revises: e3a9c5d1f7b2
Create Date: 2026-12-03 13:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f1c4b8e2a6d3'
down_revision = 'e3a9c5d1f7b2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.add_column(sa.Column('on_paper', sa.Boolean(), server_default='0',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.drop_column('on_paper')
