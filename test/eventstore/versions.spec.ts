import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle, load, StreamStates } from '../../src/commands/handle.js';
import { connect, type Db } from '../../src/db/connect.js';
import type { Decider } from '../../src/domain/decider.js';
import type { EventStore } from '../../src/eventstore/port.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.js';
import { EventVersions, versionedStore } from '../../src/eventstore/upcast.js';
import { newId } from '../../src/ids.js';
import { projector } from '../../src/projections/projector.js';
import { rebuildProjector } from '../../src/projections/rebuild.js';
import { ProjectionRunner } from '../../src/projections/runner.js';
import { createTestDatabase } from '../support/database.js';
import { startTestService } from '../support/harness.js';

/**
 * A test-only event type whose shape changed: ParcelWeighed v1 was { grams }, v2 is
 * { weight: { amount, unit } }. Events of v1 are written with the raw adapter, exactly as an
 * older release stored them; everything else reads through the versioned store.
 */
type ParcelWeighedV2 = {
  type: 'ParcelWeighed';
  data: { parcelId: string; weight: { amount: number; unit: 'g' | 'kg' } };
};
type Weigh = { parcelId: string; amount: number; unit: 'g' | 'kg' };
interface Parcel {
  grams: number;
  weighings: number;
}

const toGrams = (w: ParcelWeighedV2['data']['weight']) => (w.unit === 'kg' ? w.amount * 1000 : w.amount);

// reads only the v2 shape: a v1 event reaching it unconverted would fold as NaN
const parcelDecider: Decider<Parcel, Weigh, ParcelWeighedV2> = {
  initialState: { grams: 0, weighings: 0 },
  evolve: (state, event) => ({ grams: state.grams + toGrams(event.data.weight), weighings: state.weighings + 1 }),
  decide: (command) => [
    {
      type: 'ParcelWeighed',
      data: { parcelId: command.parcelId, weight: { amount: command.amount, unit: command.unit } },
    },
  ],
};

const versions = new EventVersions({
  ParcelWeighed: {
    current: 2,
    upcast: {
      1: (data) => ({
        parcelId: (data as { parcelId: string }).parcelId,
        weight: { amount: (data as { grams: number }).grams, unit: 'g' },
      }),
    },
  },
});

const parcels = projector({
  name: 'test_parcels',
  version: 1,
  tables: ['test_parcel_weighings'],
  ddl: (s) =>
    `create table ${s}.test_parcel_weighings (event_id text primary key, parcel_id text not null, grams integer not null, schema_version integer not null)`,
  handlers: {
    ParcelWeighed: (db, e) => {
      const data = (e as unknown as ParcelWeighedV2).data;
      return db.insertInto('test_parcel_weighings' as any).values({
        event_id: e.id,
        parcel_id: data.parcelId,
        grams: toGrams(data.weight),
        schema_version: e.schemaVersion,
      } as any);
    },
  },
});

const at = new Date('2026-02-01T12:00:00.000Z');

describe('event versions: a v1 event read as v2', () => {
  let db: Db;
  let raw: PostgresEventStore;
  let store: EventStore;
  beforeAll(async () => {
    db = connect(await createTestDatabase(), 10);
    raw = new PostgresEventStore(db.pool);
    store = versionedStore(raw, versions);
  });
  afterAll(async () => {
    await raw.close();
    await db.close();
  });

  const storedV1 = async (parcelId: string, grams: number) => {
    const streamId = `parcel-${parcelId}`;
    await raw.append(streamId, [{ type: 'ParcelWeighed', data: { parcelId, grams } }], 'any', at);
    return streamId;
  };

  it('folds it on the command side, and a new append writes v2 beside the untouched v1', async () => {
    const parcelId = newId();
    const streamId = await storedV1(parcelId, 1200);
    expect((await raw.readStream(streamId)).map((e) => [e.schemaVersion, e.data])).toEqual([
      [1, { parcelId, grams: 1200 }],
    ]);

    expect(await load(store, streamId, parcelDecider)).toEqual({ state: { grams: 1200, weighings: 1 }, revision: 0 });
    const cache = new StreamStates();
    const handled = await handle(store, streamId, parcelDecider, [{ parcelId, amount: 2, unit: 'kg' }], {
      at,
      metadata: {},
      cache,
    });
    expect(handled.state).toEqual({ grams: 3200, weighings: 2 });

    // stored as written: the old event keeps its shape and version, the new one is v2
    expect((await raw.readStream(streamId)).map((e) => [e.schemaVersion, e.data])).toEqual([
      [1, { parcelId, grams: 1200 }],
      [2, { parcelId, weight: { amount: 2, unit: 'kg' } }],
    ]);
    // read through the versions both are v2
    expect((await store.readStream(streamId)).map((e) => [e.schemaVersion, e.data])).toEqual([
      [2, { parcelId, weight: { amount: 1200, unit: 'g' } }],
      [2, { parcelId, weight: { amount: 2, unit: 'kg' } }],
    ]);
    // a v1 event appended later (an older instance) is upcast on a cached state's tail read too
    await storedV1(parcelId, 5);
    expect(await load(store, streamId, parcelDecider, cache)).toEqual({
      state: { grams: 3205, weighings: 3 },
      revision: 2,
    });
  });

  it("writes v2 in every part of an append to several streams, and the adapter's own appendMany is never reached past it", async () => {
    const [a, b] = [`parcel-${newId()}`, `parcel-${newId()}`];
    const weighed = (parcelId: string) => ({
      type: 'ParcelWeighed',
      data: { parcelId, weight: { amount: 1, unit: 'kg' } },
    });
    await store.appendMany!(
      [
        { streamId: a, events: [weighed(a)], expected: 'no_stream' },
        { streamId: b, events: [weighed(b)], expected: 'no_stream' },
      ],
      at,
    );
    for (const s of [a, b]) expect((await raw.readStream(s)).map((e) => e.schemaVersion)).toEqual([2]);
  });

  it('hands it to a projector as v2, live and on a rebuild', async () => {
    const parcelId = newId();
    await storedV1(parcelId, 700);
    const runner = new ProjectionRunner(db.kysely, store, [parcels], () => at, pino({ level: 'silent' }));
    try {
      await runner.start();
      await handle(store, `parcel-${parcelId}`, parcelDecider, [{ parcelId, amount: 1, unit: 'kg' }], {
        at,
        metadata: {},
      });
      const last = await storedV1(parcelId, 40)
        .then(() => raw.readStream(`parcel-${parcelId}`))
        .then((es) => es[es.length - 1]!.position);
      expect(await runner.waitFor(last, 10_000)).toBe(true);
      const rows = async () =>
        (
          await sql<{
            grams: number;
            schema_version: number;
          }>`select grams, schema_version from test_parcel_weighings where parcel_id = ${parcelId} order by event_id`.execute(
            db.kysely,
          )
        ).rows;
      expect(await rows()).toEqual([
        { grams: 700, schema_version: 2 },
        { grams: 1000, schema_version: 2 },
        { grams: 40, schema_version: 2 },
      ]);
      // a rebuild replays the v1 events from the start into fresh tables: the same rows
      await sql`update test_parcel_weighings set grams = 0`.execute(db.kysely);
      await rebuildProjector(db.kysely, store, parcels, () => at);
      expect(await rows()).toEqual([
        { grams: 700, schema_version: 2 },
        { grams: 1000, schema_version: 2 },
        { grams: 40, schema_version: 2 },
      ]);
    } finally {
      await runner.stop();
    }
  });
});

describe('event versions: the service reads and writes through them', () => {
  it('stores its appends at version 1 and refuses to hand out an event newer than it knows', async () => {
    const svc = await startTestService();
    const conn = connect(svc.databaseUrl, 2);
    const raw = new PostgresEventStore(conn.pool);
    try {
      const { id } = await svc.newSupplier('Versioned');
      const versionsOf = async (streamId: string) =>
        (
          await sql<{
            type: string;
            schema_version: number;
          }>`select type, schema_version from es_events where stream_id = ${streamId} order by stream_revision`.execute(
            conn.kysely,
          )
        ).rows;
      expect(await versionsOf(`supplier-${id}`)).toEqual([
        { type: 'SupplierRegistered', schema_version: 1 },
        { type: 'SupplierTokenIssued', schema_version: 1 },
      ]);
      // an event a later release wrote at version 2: this release has no shape for it
      const probe = `probe-${newId()}`;
      await raw.append(probe, [{ type: 'SupplierRegistered', data: {}, schemaVersion: 2 }], 'no_stream', at);
      await expect(svc.services.store.readStream(probe)).rejects.toThrow(
        '(SupplierRegistered) has schema version 2, newer than this release knows (1)',
      );
    } finally {
      await raw.close();
      await conn.close();
      await svc.stop();
    }
  });
});
