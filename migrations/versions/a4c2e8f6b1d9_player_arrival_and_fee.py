"""players' arrival at the door, and the entry fee an import carried

Revision ID: a4c2e8f6b1d9
Revises: b4e7a1d9c3f6
Create Date: 2026-12-06 06:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'a4c2e8f6b1d9'
down_revision = 'b4e7a1d9c3f6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('arrival', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('arrival_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('fee', sa.String(length=20), server_default='',
                                      nullable=False))
        batch_op.add_column(sa.Column('paid', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
        batch_op.create_check_constraint(
            op.f('ck_player_arrival'), "arrival IN ('here', 'late', 'absent')")


def downgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_player_arrival'), type_='check')
        batch_op.drop_column('paid')
        batch_op.drop_column('fee')
        batch_op.drop_column('arrival_at')
        batch_op.drop_column('arrival')
