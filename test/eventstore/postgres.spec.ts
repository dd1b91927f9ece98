import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
import { type RecordedEvent, START } from '../../src/eventstore/port.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase } from '../support/database.js';
import { eventStoreConformance, eventually } from './conformance.js';

let url: string;
const ready = createTestDatabase().then((u) => (url = u));

eventStoreConformance('postgres', async () => {
  await ready;
  const db = connect(url, 20);
  const store = new PostgresEventStore(db.pool);
  return {
    store,
    close: async () => {
      await store.close();
      await db.close();
    },
  };
});

describe('postgres event store: the global order has no gaps for readers', () => {
  let db: Db;
  let store: PostgresEventStore;
  beforeAll(async () => {
    await ready;
    db = connect(url, 10);
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  it('never lets a reader pass a transaction that took an earlier sequence number and commits late', async () => {
    const from = await store.head();
    const slow = new pg.Client({ connectionString: url });
    await slow.connect();
    const seen: RecordedEvent[] = [];
    const sub = store.subscribe({ from, onEvents: async (events) => void seen.push(...events) });
    try {
      // the slow writer takes its sequence number first, then holds its transaction open
      await slow.query('begin');
      await slow.query(`select * from es_append($1, 'no_stream', $2::jsonb, now())`, [
        `slow-${newId()}`,
        JSON.stringify([{ id: newId(), type: 'Slow', data: {}, metadata: {} }]),
      ]);
      // faster writers commit later sequence numbers meanwhile
      for (let i = 0; i < 3; i++) await store.append(`fast-${newId()}`, [{ type: 'Fast', data: { i } }], 'no_stream', new Date());
      await new Promise((r) => setTimeout(r, 150));
      expect(seen).toEqual([]); // nothing passes the open transaction
      expect(await store.readAll(from, 100)).toEqual([]);
      await slow.query('commit');
      await eventually(() => seen.length === 4);
      expect(seen.map((e) => e.type)).toEqual(['Slow', 'Fast', 'Fast', 'Fast']);
      expect(new Set(seen.map((e) => e.id)).size).toBe(4);
    } finally {
      await sub.close();
      await slow.end();
    }
  });

  it('rolls nothing into the log from an aborted append', async () => {
    const from = await store.head();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const s = `aborted-${newId()}`;
    await client.query('begin');
    await client.query(`select * from es_append($1, 'no_stream', $2::jsonb, now())`, [s, JSON.stringify([{ id: newId(), type: 'Gone', data: {}, metadata: {} }])]);
    await client.query('rollback');
    await client.end();
    expect(await store.readStream(s)).toEqual([]);
    expect((await store.readAll(from, 100)).filter((e) => e.streamId === s)).toEqual([]);
    expect((await store.append(s, [{ type: 'Kept', data: {} }], 'no_stream', new Date())).nextRevision).toBe(0);
  });

  it('head() is START on an empty store', async () => {
    const empty = connect(await createTestDatabase(), 2);
    const fresh = new PostgresEventStore(empty.pool);
    expect(await fresh.head()).toEqual(START);
    await fresh.close();
    await empty.close();
  });
});
