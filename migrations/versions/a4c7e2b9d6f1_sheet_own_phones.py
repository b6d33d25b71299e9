"""the seats confirming on their own phones; the version of the last change not a confirmation

Revision ID: a4c7e2b9d6f1
Revises: a4c2e8f6b1d9
Create Date: 2026-12-06 06:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'a4c7e2b9d6f1'
down_revision = 'a4c2e8f6b1d9'
branch_labels = None
depends_on = None

SEATS = ('phone_e', 'phone_s', 'phone_w', 'phone_n')


def upgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        for name in SEATS:
            batch_op.add_column(sa.Column(name, sa.Boolean(), server_default='0',
                                          nullable=False))
        batch_op.add_column(sa.Column('content_version', sa.Integer(), server_default='0',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.drop_column('content_version')
        for name in SEATS:
            batch_op.drop_column(name)
