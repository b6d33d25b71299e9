"""session version on accounts; login attempt indexes by address and by age

Revision ID: 5e55105fa11e
Revises: f7d81291ec1c
Create Date: 2026-12-01 02:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5e55105fa11e'
down_revision = 'f7d81291ec1c'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_version', sa.Integer(), server_default='1',
                                      nullable=False))
    with op.batch_alter_table('login_attempt', schema=None) as batch_op:
        batch_op.create_index('ix_login_attempt_remote_addr_at', ['remote_addr', 'at'],
                              unique=False)
        batch_op.create_index('ix_login_attempt_at', ['at'], unique=False)


def downgrade():
    with op.batch_alter_table('login_attempt', schema=None) as batch_op:
        batch_op.drop_index('ix_login_attempt_at')
        batch_op.drop_index('ix_login_attempt_remote_addr_at')
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_column('session_version')
