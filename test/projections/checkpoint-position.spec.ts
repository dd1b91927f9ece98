import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrations.js';
import { readCheckpoint, writeCheckpoint } from '../../src/projections/checkpoints.js';
import { createTestDatabase } from '../support/database.js';

describe('projection checkpoints keep a KurrentDB position exactly', () => {
  let db: Db;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 2);
    await migrate(db.kysely);
  });
  afterAll(() => db.close());

  it('stores commit and prepare beyond 2^53 (a byte offset in a large log) without rounding', async () => {
    const position = { commit: 2n ** 60n + 7n, prepare: 2n ** 60n + 3n };
    await writeCheckpoint(db.kysely, 'far', position, 3, new Date('2026-02-01T00:00:00Z'));
    expect(await readCheckpoint(db.kysely, 'far')).toEqual({ position, version: 3 });
    const next = { commit: 2n ** 62n + 1n, prepare: 2n ** 62n + 1n };
    await writeCheckpoint(db.kysely, 'far', next, 3, new Date('2026-02-01T00:00:01Z'));
    expect((await readCheckpoint(db.kysely, 'far'))!.position).toEqual(next);
  });
});
