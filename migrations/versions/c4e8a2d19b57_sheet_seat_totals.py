"""each sheet's games summed per seat, so the standings read one row per sheet

Revision ID: c4e8a2d19b57
Revises: a7c3e91f0b42
Create Date: 2026-12-01 05:45:00

"""
from types import SimpleNamespace

import sqlalchemy as sa
from alembic import op

revision = 'c4e8a2d19b57'
down_revision = 'a7c3e91f0b42'
branch_labels = None
depends_on = None

COUNTS = ('games_count', 'total_e', 'total_s', 'total_w', 'total_n',
          'won_e', 'won_s', 'won_w', 'won_n')
BESTS = ('best_e', 'best_s', 'best_w', 'best_n')


def upgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        for name in COUNTS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False,
                                          server_default='0'))
        for name in BESTS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('time_called', sa.Boolean(), nullable=False,
                                      server_default='0'))
    _backfill()


def _backfill():
    # The sums of the sheets already stored, as models.sheet.seat_totals keeps them from
    # now on (written out here: a migration must not change when the models do).
    bind = op.get_bind()
    games = sa.table('game_entry', sa.column('sheet_id', sa.Integer()),
                     sa.column('record', sa.JSON()),
                     *(sa.column(f'points_{s}', sa.Integer()) for s in 'eswn'))
    sheet = sa.table('scoresheet', sa.column('id', sa.Integer()),
                     *(sa.column(name, sa.Integer()) for name in COUNTS + BESTS),
                     sa.column('time_called', sa.Boolean()))
    by_sheet = {}
    for row in bind.execute(sa.select(games)):
        by_sheet.setdefault(row.sheet_id, []).append(SimpleNamespace(**row._mapping))
    for sheet_id, rows in by_sheet.items():
        bind.execute(sheet.update().where(sheet.c.id == sheet_id).values(**seat_totals(rows)))


def seat_totals(games):
    values = {'games_count': len(games),
              'time_called': any((g.record or {}).get('outcome') == 'time' for g in games)}
    for seat in 'ESWN':
        points = [getattr(g, f'points_{seat.lower()}') or 0 for g in games]
        values[f'total_{seat.lower()}'] = sum(points)
        values[f'best_{seat.lower()}'] = max(points) if points else None
        values[f'won_{seat.lower()}'] = sum(
            1 for g in games if (g.record or {}).get('outcome') == 'mahjong'
            and (g.record or {}).get('winner') == seat)
    return values


def downgrade():
    with op.batch_alter_table('scoresheet', schema=None) as batch_op:
        batch_op.drop_column('time_called')
        for name in reversed(COUNTS + BESTS):
            batch_op.drop_column(name)
